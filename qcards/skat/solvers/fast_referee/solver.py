"""The exact referee at the machine's limit: the same answers as
:mod:`qcards.skat.solvers.plain_referee`, from a compiled, memoized search instead of an enumeration
of play paths.

:func:`evaluate` returns exactly the :class:`~qcards.skat.solvers.plain_referee.Evaluation` of
:func:`qcards.skat.solvers.plain_referee.evaluate` (the same Fractions, the same deal and path
counts) for both models, every kind of game, 2 to 4 players, priors, histories, the Skat and a fixed
first card; :func:`recommend` likewise. The plain enumerator stays as the tests' independent oracle.

How (the search itself is :mod:`qcards.skat.solvers.fast_referee.kernel`, a trick's pieces
:mod:`qcards.skat.solvers.fast_referee.tricks`, the values and the memo table
:mod:`qcards.skat.solvers.fast_referee.memo`):

* Positions at trick boundaries are memoized across plays *and deals*: many play orders, and
  many deals, reach the same position. A key is the position in canonical form: suit by suit,
  the owners and card points of the cards still held, in order of strength. Printed ranks do
  not matter, so a position in which B still holds the nine of hearts after the eight was
  played is the position in which B still holds the eight after the nine was played.
* Deals are enumerated by that canonical form: each deal's start position is one key, and deals
  with equal keys (the eight of hearts in the Skat and the seven in B's hand, or the other way
  round, when no card in play lies between them) are solved once and counted with their
  multiplicity (the memo's hit). Swapping equal cards between two *hands* is not merged: the
  two cards can meet in one trick, and then the trick goes to the other seat. The deals
  themselves are listed in Python (microseconds a deal, as in the plain referee's loop).
* Equal moves: cards of one hand with equal points and no live card between them are one move
  with a multiplicity (each is still played with probability 1/k in the random model).
* Random model, exact: the value of a position with ``h`` cards a hand is an integer numerator
  over the fixed denominator D(h) (:func:`denominators`): the leader has ``h`` legal cards at
  most and a follower at most ``h``, so ``h * lcm(1..h)^(n-1)`` clears the trick's
  probabilities. Numerators are 128-bit integers (two machine words), and every step
  multiplies by a small integer, so there is no rational arithmetic in the search at all;
  the Fractions are formed once per call. Memo keys carry the points the declarer still
  needs to win (0 when the win is decided either way), null games whether it has taken a
  trick; the expected points need no such key (they add up).
* Adversarial model: the same search with the declarer maximising and the defenders
  minimising its future card points, which do not depend on the points already taken, so the
  memo holds no status; the win of a point game is the win of the minimax points (a monotone
  function commutes with max and min, as in :mod:`qcards.skat.solvers.double_dummy`), and a null
  game's is a second minimax in the same pass, of whether the declarer is forced to take a trick.
  The path count needs every path, so there is no alpha-beta pruning: the tables (trick
  power, effective suits, points, suit orders) are :mod:`qcards.skat.rules.rule_tables`, as for
  the double-dummy solver.
* ``num_paths``: counted in the same pass (a position's paths are the sum over its moves).

Choices (measured by ``benchmarks/bench_referee.py``; figures in
``benchmarks/results/referee.md``):

* Compiled with numba, the whole search: fifteen cards in under a second, hundreds of times
  faster than the plain referee. The plain referee is itself memoized in Python with Fractions
  (``functools.cache`` on the hands, trick and points): that is the alternative of Python
  Fractions at the memo level, and a Fraction operation costs microseconds where a 128-bit
  step costs nanoseconds. Compiling takes tens of seconds once; the kernels are cached on
  disk, and loading them takes under a second.
* A memo row is two key words and six value words, 64 bytes: one memory access a lookup.
* The last two tricks are played out rather than memoized (:data:`INLINE`): on eighteen cards
  somewhat slower than memoizing positions of two cards a hand, but with about a third fewer
  positions stored (fifteen cards: the same time); memory decides at twenty-one cards.

Limits: numerators must fit 128 bits (three players up to nine cards a hand, four up to seven,
two up to eleven; beyond, :class:`~qcards.errors.ResourceError`); the memo stays within
:data:`MEMO_BUDGET` (past it, it drops its smallest positions and solves them again when met);
the work is estimated before the search (:func:`estimate_seconds`) and refused past the
limits in force (:func:`qcards.plan.current_limits`), and the search stops with a
:class:`~qcards.errors.ResourceError` should it run past its frame budget anyway.
"""

from __future__ import annotations

import itertools
import math
import os
from collections.abc import Iterator
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from qcards.errors import ModelError, ResourceError
from qcards.plan import current_limits
from qcards.progress import duration
from qcards.skat.position.spec import SKAT, Endgame
from qcards.skat.position.stages import check_first
from qcards.skat.rules.cards import Card
from qcards.skat.rules.rule_tables import CARD_INDEX, SUIT_ROWS, card_mask, rule_tables
from qcards.skat.solvers.fast_referee import kernel
from qcards.skat.solvers.fast_referee.memo import C_HI, EMPTY, KEYS, P_HI, VALUES, W_HI, rehash
from qcards.skat.solvers.plain_referee import MODELS, Evaluation
from qcards.skat.solvers.referee_cost import (
    check_time,
    check_width,
    denominators,
    frame_budget,
)


def _memory() -> int:
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (ValueError, OSError, AttributeError):  # not a POSIX system: assume a small machine
        return 8 * 2**30


INLINE = 2
"""Positions with at most this many cards a hand are played out rather than memoized."""

MEMO_BUDGET = min(4 * 2**30, _memory() // 4)
"""Bytes the memo table may take: a quarter of the machine, at most 4 GiB."""


# ----------------------------------------------------------------------------- arithmetic


def _words(values: list[int]) -> tuple[np.ndarray, np.ndarray]:
    mask = (1 << 64) - 1
    return (
        np.array([v >> 64 for v in values], dtype=np.uint64),
        np.array([v & mask for v in values], dtype=np.uint64),
    )


# ----------------------------------------------------------------------------- deals


@dataclass(frozen=True)
class Deals:
    """The deals of positive weight as arrays for the search.

    Attributes:
        seats: one row a deal: the mask of each seat's cards (bits of
            :data:`~qcards.skat.rules.cards.FULL_DECK`), known cards included.
        points: the declarer's points before the first card (``declarer_points`` and the Skat).
        weights: integer weights proportional to the deals' probabilities (``None``: all 1).
    """

    seats: np.ndarray
    points: np.ndarray
    weights: list[int] | None


def _integer_prior(spec: Endgame):
    """The prior's card weights and count factors scaled to integers (each card's weights by one
    factor, each count factor's by one: the deals' ratios are unchanged)."""
    weights, tallies = spec.prior.tables(spec)
    cards = []
    for row in weights:
        scale = math.lcm(*(w.denominator for w in row))
        cards.append([int(w * scale) for w in row])
    factors = []
    for receiver, members, values in tallies:
        scale = math.lcm(*(f.denominator for f in values))
        factors.append((receiver, members, [int(f * scale) for f in values]))
    return cards, factors


def _assignments(pool: tuple[int, ...], sizes: tuple[int, ...]) -> Iterator[tuple[tuple, ...]]:
    """Every split of ``pool`` (indices) into parts of ``sizes``, in order."""
    if not sizes:
        yield ()
        return
    for chosen in itertools.combinations(pool, sizes[0]):
        rest = tuple(j for j in pool if j not in chosen)
        for tail in _assignments(rest, sizes[1:]):
            yield (chosen, *tail)


def deal_arrays(spec: Endgame) -> Deals:
    """Every deal of positive weight (those
    :func:`qcards.skat.deals.enumeration.weighted_deals` yields)."""
    players = spec.players
    known = [card_mask(spec.hands[p]) for p in players]
    receivers = spec.receivers
    bits = [1 << CARD_INDEX[c] for c in spec.unknown]
    values = [c.value for c in spec.unknown]
    seat_of = [players.index(r) if r != SKAT else -1 for r in receivers]
    prior = None if spec.prior.is_uniform else _integer_prior(spec)
    rows, points, weights = [], [], []
    for parts in _assignments(tuple(range(len(bits))), tuple(spec.sizes[r] for r in receivers)):
        weight = 1
        if prior is not None:
            cards, factors = prior
            for r, part in enumerate(parts):
                for j in part:
                    weight *= cards[j][r]
            for r, members, g in factors:
                count = sum(1 for j in parts[r] if j in members)
                weight *= g[count] if count < len(g) else 0
            if not weight:
                continue
            weights.append(weight)
        row = list(known) + [0] * (kernel.MAX_SEATS - len(players))
        skat = spec.declarer_points
        for r, part in enumerate(parts):
            if seat_of[r] < 0:
                skat += sum(values[j] for j in part)
            else:
                row[seat_of[r]] += sum(bits[j] for j in part)
        rows.append(row)
        points.append(skat)
    return Deals(
        np.array(rows, dtype=np.int64).reshape(-1, kernel.MAX_SEATS),
        np.array(points, dtype=np.int64),
        None if prior is None else weights,
    )


# ----------------------------------------------------------------------------- the search


@dataclass(frozen=True)
class Search:
    """What a search did: the positions memoized (distinct unless the memo was pruned), the
    frames expanded, the memo's hits and how often the memo was pruned."""

    states: int
    frames: int
    hits: int
    prunes: int


class _Memo:
    """The memo table (open addressing in numpy arrays), doubled when two thirds full.

    Up to :data:`MEMO_BUDGET`; there it becomes a cache: the positions with the fewest cards
    left (the cheapest to solve again) are dropped until a third of the table is left
    (:func:`~qcards.skat.solvers.fast_referee.memo.prune`). A dropped position is solved again when
    it is met again, with the same values: the answer does not change, only the time.
    """

    def __init__(self, capacity: int = 1 << 16, budget: float | None = None) -> None:
        self.table = self.empty(capacity)
        self.stats = np.zeros(6, dtype=np.int64)
        self.budget = MEMO_BUDGET if budget is None else budget

    @staticmethod
    def empty(capacity: int) -> np.ndarray:
        table = np.zeros((capacity, KEYS + VALUES), dtype=np.uint64)
        table[:, 0] = EMPTY
        return table

    @property
    def can_grow(self) -> bool:
        return 2 * self.table.nbytes <= self.budget

    def grow(self) -> None:
        table = self.empty(2 * self.table.shape[0])
        rehash(self.table, table)
        self.table = table


class _Solver:
    """One spec and model: the deals, the tables and a memo shared by every first card."""

    def __init__(self, spec: Endgame, model: str, budget: float) -> None:
        check_width(spec)
        self.spec, self.model = spec, model
        self.deals = deal_arrays(spec)
        self.tables = rule_tables(spec.trump)
        weak = self.tables.order.copy()
        for row in range(len(SUIT_ROWS)):
            length = self.tables.order_len[row]
            weak[row, :length] = self.tables.order[row, :length][::-1]
        self.weak = weak
        self.denominators = denominators(len(spec.players), spec.num_tricks)
        self.dhi, self.dlo = _words(self.denominators)
        self.lcm = np.array(
            [1] + [math.lcm(*range(1, h + 1)) for h in range(1, spec.num_tricks + 1)],
            dtype=np.int64,
        )
        self.memo = _Memo()
        self.budget = int(budget)

    def run(self, first: Card | None) -> np.ndarray:
        """The kernel's per-deal values (see :func:`kernel.solve_deals`)."""
        spec, t, memo = self.spec, self.tables, self.memo
        out = np.zeros((len(self.deals.points), VALUES), dtype=np.uint64)
        goal = spec.declarer_tricks if spec.is_null else spec.target
        start = 0
        while True:
            done = kernel.solve_deals(
                self.deals.seats, self.deals.points, out, start, len(spec.players),
                spec.players.index(spec.leader), spec.winner_leads,
                CARD_INDEX[first] if first is not None else -1, spec.is_null, goal,
                self.model == "adversarial", t.packed, self.weak, t.order_len, self.dhi,
                self.dlo, self.lcm,
                memo.table, memo.stats, self.budget, INLINE, memo.can_grow,
            )  # fmt: skip
            if done >= 0:
                return out
            start = int(memo.stats[3])
            if done == kernel.OVER_BUDGET:
                raise ResourceError(
                    f"the fast referee ran past its budget of {self.budget:,} positions "
                    f"(about {duration(current_limits().seconds)}); use a smaller endgame or "
                    "sample it"
                )
            memo.grow()

    def search(self) -> Search:
        s = self.memo.stats
        return Search(int(s[4]), int(s[1]), int(s[2]), int(s[5]))

    def evaluate(self, first: Card | None) -> Evaluation:
        spec, deals = self.spec, self.deals
        check_first(spec, first)
        weights = deals.weights or [1] * len(deals.points)
        total = sum(weights)
        points = [int(p) for p in deals.points]
        if spec.num_tricks == 0:  # every card played: the points are known, the Skat's added
            wins = [spec.declarer_wins(p, spec.declarer_tricks) for p in points]
            p_win = Fraction(sum(w for w, won in zip(weights, wins, strict=True) if won), total)
            exp = Fraction(sum(w * p for w, p in zip(weights, points, strict=True)), total)
            return Evaluation(self.model, p_win, exp, len(points), len(points))
        out = self.run(first).astype(object)  # Python integers from here on
        win, future, paths = ((out[:, hi] << 64) + out[:, hi + 1] for hi in (W_HI, P_HI, C_HI))
        num_paths = int(sum(paths))
        if self.model == "adversarial":
            final = [p + int(f) for p, f in zip(points, future, strict=True)]
            if spec.is_null:
                won = [spec.declarer_tricks == 0 and int(t) == 0 for t in win]
            else:
                won = [p >= spec.target for p in final]
            p_win = Fraction(sum(w for w, ok in zip(weights, won, strict=True) if ok), total)
            exp = Fraction(sum(w * p for w, p in zip(weights, final, strict=True)), total)
            return Evaluation(self.model, p_win, exp, len(points), num_paths)
        d = self.denominators[-1]
        p_win = Fraction(sum(w * int(x) for w, x in zip(weights, win, strict=True)), total * d)
        exp = Fraction(
            sum(w * (p * d + int(f)) for w, p, f in zip(weights, points, future, strict=True)),
            total * d,
        )
        return Evaluation(self.model, p_win, exp, len(points), num_paths)


# ----------------------------------------------------------------------------- cost


# ----------------------------------------------------------------------------- public API


def _solver(spec: Endgame, model: str, first: Card | None, force: bool) -> _Solver:
    if model not in MODELS:
        raise ModelError(f"unknown model {model!r} (expected {' | '.join(MODELS)})")
    check_first(spec, first)
    check_time(spec, first, force, model)
    return _Solver(spec, model, frame_budget(force))


def evaluate(
    spec: Endgame, model: str = "random", first: Card | None = None, *, force: bool = False
) -> Evaluation:
    """Exact win probability and expected declarer points under ``model``: the same
    :class:`~qcards.skat.solvers.plain_referee.Evaluation` as
    :func:`qcards.skat.solvers.plain_referee.evaluate`.

    Args:
        spec: the endgame.
        model: ``"random"`` or ``"adversarial"`` (see :mod:`qcards.skat.solvers.plain_referee`).
        first: fix the declarer's first card (the declarer must lead the first trick).
        force: run even when the estimate exceeds the time limit (:mod:`qcards.plan`).

    Raises:
        ModelError: an unknown model or a first card that cannot be fixed.
        ResourceError: the estimated time exceeds the budget (unless ``force``), the search ran
            past four times its planned positions, or the memo or the numerators would not fit.
    """
    return _solver(spec, model, first, force).evaluate(first)


def recommend(
    spec: Endgame, model: str = "random", *, force: bool = False
) -> list[tuple[Card, Fraction]]:
    """Win probability of each legal first card of the declarer, best first: the same list as
    :func:`qcards.skat.solvers.plain_referee.recommend`. One memo serves every card."""
    hand = spec.hands[spec.declarer]
    if spec.leader != spec.declarer or not hand:
        why = (
            f"leads (the leader is {spec.leader})" if hand else "has no known cards to choose from"
        )
        raise ModelError(f"recommend needs a first card of the declarer {spec.declarer}, who {why}")
    solver = _solver(spec, model, None, force)  # every first card: about the whole game's work
    out = [(card, solver.evaluate(card).p_win) for card in hand]
    return sorted(out, key=lambda item: -item[1])
