"""Exact double-dummy (perfect-information minimax) solver for Skat deals.

The referee's ``adversarial`` model (:func:`qcards.skat.solvers.plain_referee.evaluate`) plays
every deal open: the declarer (seat 0) maximises, the defenders (every other seat) minimise,
once for the win and once for the declarer's card points. The referee enumerates every play
path, which is exponential; this module computes the same two numbers for one deal with
alpha-beta search and is fast enough for a full game (ten cards a hand, 30 cards played).

This module holds the Python side: the records (:class:`DoubleDummyValue`, :class:`Position`),
the rules of play on positions, each thread's transposition table and scratch arrays, and the
public functions. The compiled search is :mod:`qcards.skat.solvers.double_dummy.search`, the rules
as arrays :mod:`qcards.skat.rules.rule_tables`.

Semantics, equal to the referee's:

* Points: the declarer's final card points (``declarer_points``, the Skat and the tricks it
  takes) under minimax on points.
* Win, suit/grand/no-trump games: ``declarer_wins(points)`` is monotone (non-decreasing) in the
  points, and a monotone function commutes with max and min, so the minimax of the win equals
  the win of the minimax points; no second search is needed.
* Win, null games: a separate search on the boolean "the declarer takes a trick" (the declarer
  avoids, the defenders force); a null game with ``declarer_tricks >= 1`` is already lost.

Design:

* Cards are bits of a 32-bit mask (their index in :data:`~qcards.skat.rules.cards.FULL_DECK`);
  a deal is one mask per seat, a position the mask of the cards still in hand, the leader and
  the current trick. The rules come only from :class:`~qcards.skat.rules.cards.Rules`, through the
  tables of :func:`~qcards.skat.rules.rule_tables.rule_tables` (effective suit, strength, card
  points, the "power" of a card against each led suit that decides tricks), built from
  ``Rules.effective_suit`` and ``Rules.strength`` once per kind of game; the tests check them
  against ``Rules.trick_winner`` on every three-card trick and ``Rules.legal_cards`` on random
  hands.
* Fail-soft alpha-beta on the declarer's *future* points: the value of a subgame does not
  depend on the points already taken, so the transposition table holds lower and upper bounds
  of future points, keyed at trick boundaries on (cards still in hand, leader). Since the deal
  is fixed, the cards in hand determine every hand. The table is open addressing in numpy
  arrays (key, lower, upper, best card); a key carries a generation number, so a new deal
  needs no clearing, and solving positions of the same deal (a principal variation) reuses it.
* Equivalent cards: cards of one effective suit in one hand with equal card points and no
  still-unplayed card between them (in a hand or in the current trick; the Skat's and played
  cards do not separate) are one move. The null search on tricks ignores card points there.
* Move ordering: the table's best card first; leads of a card that tops its suit (points
  first), else low cards; followers take a trick with the cheapest taker that brings points,
  add points to a partner's trick, else discard low (the search's ``_ordered_moves``).
  On full deals this order needs fewer nodes than "strongest card first" leads and takers
  (figures in ``benchmarks/results/cost-notes.md``).
* One full-window search. MTD(f) (null-window probes reusing the table, first guess 30 or
  half the points) saves nodes on some deals but not consistently, and is no faster in time
  (``benchmarks/results/cost-notes.md``), so it is not used; the full window also makes the
  root's best card exact (the principal variation).
* Compiled with numba (``@njit(cache=True)``, :mod:`qcards.skat.compiled.jit`): about 10^7 nodes a
  second (``benchmarks/results/full_game.md``). The search is iterative with an explicit
  stack, because numba's on-disk cache breaks recursive functions; the points and the null
  game's tricks are one search with a switch (the same nodes, moves and tricks). Without
  numba the same functions run as Python (:data:`HAVE_NUMBA` is then false), about 150 times
  slower (6*10^4 nodes a second): a full deal then takes seconds to minutes.

A full deal (three players, ten cards each and two in the Skat) takes hundredths of a second
at the median and about a second at most, once the kernels are compiled (seconds, once) or
loaded from the cache; measured by ``benchmarks/bench_full_game.py``, figures in
``benchmarks/results/full_game.md``.
"""

from __future__ import annotations

import dataclasses
import functools
import threading
from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np

from qcards.errors import ModelError
from qcards.skat.compiled.jit import HAVE_NUMBA as HAVE_NUMBA
from qcards.skat.position.spec import SKAT, Endgame
from qcards.skat.position.stages import check_first
from qcards.skat.rules.cards import FULL_DECK, Card
from qcards.skat.rules.rule_tables import CARD_INDEX, RuleTables, rule_tables
from qcards.skat.rules.turns import leads_next, seat_to_move, winner_seat
from qcards.skat.solvers.double_dummy import search

ALL_POINTS = 120
"""Every card point of the deck: a Schwarz's points."""
_MAX_DEPTH = 40
"""Rows of the per-depth scratch arrays (one per card played from the root, at most 32)."""
_TT_BITS = 20
"""log2 of the transposition table's entries (2^20: 13 MB; a full deal stores 10^4 to a few
10^5 positions; a table of 2^24 saves under 10 % of the nodes and runs slower)."""


# ----------------------------------------------------------------------------- public records


@dataclass(frozen=True)
class DoubleDummyValue:
    """The double-dummy value of a deal or a position.

    Attributes:
        points: the declarer's final card points under minimax on points (``declarer_points``,
            the Skat and the tricks already taken included).
        wins: the minimax value of the win (the declarer maximises, the defenders minimise).
        nodes: search nodes visited (cards tried), for cost reporting.
    """

    points: int
    wins: bool
    nodes: int


@dataclass(frozen=True)
class Position:
    """A position inside one deal's game.

    Attributes:
        hands: the cards each seat still holds, by seat (``spec.players`` order).
        trick: the cards of the current trick so far, in play order.
        leader: the seat that led the current trick.
        points: the declarer's card points so far (``declarer_points`` and the Skat included).
        took: whether the declarer has taken a trick in this endgame.
    """

    hands: tuple[frozenset[Card], ...]
    trick: tuple[Card, ...]
    leader: int
    points: int
    took: bool

    @property
    def to_move(self) -> int:
        """The seat whose turn it is."""
        return seat_to_move(self.leader, len(self.trick), len(self.hands))

    @property
    def finished(self) -> bool:
        return not self.trick and not any(self.hands)


# ----------------------------------------------------------------------------- workspace


class _Workspace:
    """The transposition table and scratch arrays of one thread.

    A table entry holds the value of the cards in its key's mask, so it is valid for every
    position in which those cards have the same owners, under the same rules and players. The
    workspace remembers the owners its entries were stored under (``owners``, by card index;
    -1 for cards no entry holds) and starts a new generation only when a position contradicts
    them: the positions of one deal (a principal variation) share the table, a new deal does
    not.
    """

    def __init__(self, bits: int = _TT_BITS) -> None:
        size = 1 << bits
        self.bits_mask = size - 1
        self.tt_key = np.full(size, -1, dtype=np.int64)
        self.tt_lo = np.zeros(size, dtype=np.int16)
        self.tt_hi = np.zeros(size, dtype=np.int16)
        self.tt_best = np.zeros(size, dtype=np.int8)
        self.moves = np.zeros((_MAX_DEPTH, 32), dtype=np.int64)
        self.scores = np.zeros((_MAX_DEPTH, 32), dtype=np.int64)
        self.node = np.zeros((_MAX_DEPTH, search.NODE_FIELDS), dtype=np.int64)
        self.stats = np.zeros(2, dtype=np.int64)
        self.gen = 0
        self.context: tuple | None = None
        self.owners = np.full(32, -1, dtype=np.int64)

    def generation(self, context: tuple, seat_of: np.ndarray) -> int:
        """The generation for a position whose live cards have the owners ``seat_of``."""
        live = seat_of >= 0
        known = self.owners[live]
        if context != self.context or np.any((known >= 0) & (known != seat_of[live])):
            self.context = context
            self.owners.fill(-1)
            self.gen += 1
            if self.gen >= 1 << 27:  # the key holds 28 bits of generation: start over
                self.tt_key.fill(-1)
                self.gen = 1
        self.owners[live] = seat_of[live]
        return self.gen


_LOCAL = threading.local()


def _workspace() -> _Workspace:
    ws = getattr(_LOCAL, "workspace", None)
    if ws is None:
        ws = _LOCAL.workspace = _Workspace()
    return ws


# ----------------------------------------------------------------------------- positions


def start_position(spec: Endgame, owner: Mapping[Card, str]) -> Position:
    """The position before the first card of a deal.

    Args:
        spec: the endgame.
        owner: card -> player name or :data:`~qcards.skat.position.spec.SKAT`, for every card of the
            spec (as :func:`qcards.skat.deals.enumeration.deals` yields them).

    Raises:
        ModelError: ``owner`` is not a deal of ``spec``.
    """
    cards = set(spec.cards)
    if set(owner) != cards:
        missing = sorted(cards - set(owner))
        extra = sorted(set(owner) - cards)
        raise ModelError(
            f"owner must map exactly the spec's cards (missing: "
            f"{' '.join(map(str, missing)) or 'none'}; not in the spec: "
            f"{' '.join(map(str, extra)) or 'none'})"
        )
    receivers = {*spec.players, SKAT}
    hands: dict[str, set[Card]] = {p: set() for p in spec.players}
    skat = 0
    for card, who in owner.items():
        if who not in receivers:
            raise ModelError(f"card {card} is dealt to {who!r}, not a player or {SKAT!r}")
        if who == SKAT:
            skat += card.value
        else:
            hands[who].add(card)
    for p in spec.players:
        if len(hands[p]) != spec.hand_size or not set(spec.hands[p]) <= hands[p]:
            raise ModelError(
                f"the deal gives {p} {len(hands[p])} cards; the spec needs {spec.hand_size}, "
                "its known hand included"
            )
    return Position(
        hands=tuple(frozenset(hands[p]) for p in spec.players),
        trick=(),
        leader=spec.players.index(spec.leader),
        points=spec.declarer_points + skat,
        took=False,
    )


def legal_moves(spec: Endgame, position: Position) -> tuple[Card, ...]:
    """The cards the side to move may play (``Rules.legal_cards``)."""
    if position.finished:
        return ()
    led = position.trick[0] if position.trick else None
    return spec.rules.legal_cards(position.hands[position.to_move], led)


def play(spec: Endgame, position: Position, card: Card) -> Position:
    """The position after the side to move plays ``card`` (which must be legal).

    Raises:
        ModelError: the game is over or ``card`` is not a legal card of the side to move.
    """
    if position.finished:
        raise ModelError("the game is over: no card can be played")
    seat = position.to_move
    if card not in legal_moves(spec, position):
        raise ModelError(
            f"{card} is not a legal card for {spec.players[seat]} here (legal: "
            f"{' '.join(map(str, legal_moves(spec, position)))})"
        )
    hands = tuple(h - {card} if i == seat else h for i, h in enumerate(position.hands))
    trick = (*position.trick, card)
    n = len(spec.players)
    if len(trick) < n:
        return Position(hands, trick, position.leader, position.points, position.took)
    winner = winner_seat(spec.rules, position.leader, trick, n)
    points = position.points + (sum(c.value for c in trick) if winner == 0 else 0)
    leader = leads_next(spec, winner)
    return Position(hands, (), leader, points, position.took or winner == 0)


def _check_position(spec: Endgame, position: Position) -> None:
    n = len(spec.players)
    if len(position.hands) != n:
        raise ModelError(f"the position has {len(position.hands)} hands for {n} players")
    if not 0 <= position.leader < n or len(position.trick) >= n:
        raise ModelError("the position's leader or trick does not fit the players")
    seen: set[Card] = set(position.trick)
    if len(seen) != len(position.trick):
        raise ModelError("a card appears twice in the trick")
    for hand in position.hands:
        if seen & hand:
            raise ModelError("a card appears in two places of the position")
        seen |= hand
    if len(seen) > 32:  # pragma: no cover - the deck has 32 cards
        raise ModelError("more than 32 cards: the solver's bitboards hold one deck")
    played = {seat_to_move(position.leader, i, n) for i in range(len(position.trick))}
    sizes = {len(h) + (1 if i in played else 0) for i, h in enumerate(position.hands)}
    if len(sizes) != 1:
        raise ModelError("the hands' sizes do not fit the cards played in the current trick")


def _kernel_args(spec: Endgame, position: Position, unit: bool = False):
    """The deal-, rules- and table-dependent arguments of the compiled searches (``unit``:
    every card worth one point, so a trick is worth one point a player: a search on tricks,
    whose table entries live in a generation of their own)."""
    tables = _unit_tables(spec.trump) if unit else rule_tables(spec.trump)
    n = len(spec.players)
    seat_mask = np.zeros(4, dtype=np.int64)
    seat_of = np.full(32, -1, dtype=np.int64)
    for seat, hand in enumerate(position.hands):
        for card in hand:
            seat_mask[seat] |= 1 << CARD_INDEX[card]
            seat_of[CARD_INDEX[card]] = seat
    for i, card in enumerate(position.trick):
        seat_of[CARD_INDEX[card]] = seat_to_move(position.leader, i, n)
    leader0 = spec.players.index(spec.leader)
    ws = _workspace()
    gen = ws.generation((spec.trump, n, spec.winner_leads, leader0, unit), seat_of)
    return tables, seat_mask, seat_of, leader0, ws, gen


@functools.cache
def _unit_tables(trump) -> RuleTables:
    """:func:`rule_tables` with every card worth one point (the trick searches of
    :func:`_declarer_can_force`)."""
    tables = rule_tables(trump)
    return dataclasses.replace(tables, value=np.ones_like(tables.value))


def _trick_state(tables: RuleTables, position: Position):
    """(led suit row, winning card, trick points, trick mask) of the current trick."""
    if not position.trick:
        return 0, 0, 0, 0
    led = int(tables.eff[CARD_INDEX[position.trick[0]]])
    win = CARD_INDEX[position.trick[0]]
    tmask = 0
    for card in position.trick:
        i = CARD_INDEX[card]
        tmask |= 1 << i
        if tables.power[led, i] > tables.power[led, win]:
            win = i
    return led, win, sum(c.value for c in position.trick), tmask


def _solve(
    spec: Endgame, position: Position, forced: Card | None, need_win: bool = True
) -> tuple[DoubleDummyValue, Card | None]:
    """The position's value and a best card of the side to move (``None`` when finished)."""
    _check_position(spec, position)
    if position.finished:
        tricks = spec.declarer_tricks + int(position.took)
        wins = spec.declarer_wins(position.points, tricks)
        return DoubleDummyValue(position.points, wins, 0), None
    if forced is not None and forced not in legal_moves(spec, position):
        raise ModelError(f"forced card {forced} is not a legal card of the side to move")
    tables, seat_mask, seat_of, leader0, ws, gen = _kernel_args(spec, position)
    rem = int(seat_mask.sum())
    rem_pts = sum(c.value for h in position.hands for c in h)
    led, win, tpts, tmask = _trick_state(tables, position)
    forced_index = CARD_INDEX[forced] if forced is not None else -1
    n = len(spec.players)
    winner_leads = bool(spec.winner_leads)

    def run(took: bool) -> int:
        """One search from the position
        (:func:`~qcards.skat.solvers.double_dummy.search.search`)."""
        ws.stats[:] = (0, -1)
        return int(
            search.search(
                took, rem, rem_pts, position.leader, len(position.trick), led, win, tpts, tmask,
                forced_index, -1, search.INF, seat_mask, seat_of, n, winner_leads, leader0,
                tables.packed, ws.tt_key, ws.tt_lo, ws.tt_hi, ws.tt_best, ws.bits_mask, gen,
                ws.moves, ws.scores, ws.node, ws.stats,
            )
        )  # fmt: skip

    future = run(False)
    nodes = int(ws.stats[0])
    best = FULL_DECK[int(ws.stats[1])] if ws.stats[1] >= 0 else None
    points = position.points + future
    if not spec.is_null:
        wins = spec.declarer_wins(points, spec.declarer_tricks)
    elif spec.declarer_tricks or position.took or not need_win:
        wins = False
    else:
        wins = not run(True)
        nodes += int(ws.stats[0])
    return DoubleDummyValue(points, bool(wins), nodes), best


def probe(
    spec: Endgame, position: Position, forced: Card | None, goal: int, unit: bool,
    took: bool = False,
) -> int:  # fmt: skip
    """A null-window search at ``goal``: the declarer's future card points (``unit`` false)
    or its future count of cards taken in tricks (``unit``: every card worth one point,
    :func:`_unit_tables`), exact in the sense "at least ``goal``" or "below it". ``took``:
    the null game's boolean search instead (1 if the defenders can force the declarer to
    take a trick)."""
    tables, seat_mask, seat_of, leader0, ws, gen = _kernel_args(spec, position, unit)
    led, win, trick_points, tmask = _trick_state(tables, position)
    if unit:
        rem_pts, trick_points = sum(map(len, position.hands)), len(position.trick)
    else:
        rem_pts = sum(c.value for h in position.hands for c in h)
    ws.stats[:] = (0, -1)
    return int(
        search.search(
            took, int(seat_mask.sum()), rem_pts, position.leader, len(position.trick), led, win,
            trick_points, tmask, CARD_INDEX[forced] if forced is not None else -1, goal - 1, goal,
            seat_mask, seat_of, len(spec.players), bool(spec.winner_leads), leader0,
            tables.packed, ws.tt_key, ws.tt_lo, ws.tt_hi, ws.tt_best, ws.bits_mask, gen,
            ws.moves, ws.scores, ws.node, ws.stats,
        )
    )  # fmt: skip


# ----------------------------------------------------------------------------- public API


def solve_position(
    spec: Endgame, position: Position, forced: Card | None = None
) -> DoubleDummyValue:
    """The double-dummy value of a position.

    Args:
        spec: the endgame (its rules, players, leading rule, target and ``declarer_tricks``).
        position: where the game stands (:func:`start_position`, :func:`play`).
        forced: a card the side to move must play next (it must be legal).

    Raises:
        ModelError: an inconsistent position or an illegal ``forced`` card.
    """
    return _solve(spec, position, forced)[0]


def solve_deal(
    spec: Endgame, owner: Mapping[Card, str], first: Card | None = None
) -> DoubleDummyValue:
    """The double-dummy value of one deal: what the referee's adversarial model gives it.

    Args:
        spec: the endgame.
        owner: card -> player name or :data:`~qcards.skat.position.spec.SKAT` for every card of the
            spec (a deal of :func:`qcards.skat.deals.enumeration.deals` or ``random_deal``).
        first: the declarer's forced first card (as for
            :func:`qcards.skat.solvers.plain_referee.evaluate`).

    Raises:
        ModelError: ``owner`` is not a deal of ``spec``, or ``first`` cannot be forced.
    """
    check_first(spec, first)
    position = start_position(spec, owner)
    if first is not None and first not in position.hands[0]:  # pragma: no cover - check_first
        raise ModelError(f"first card {first} is not in the declarer's hand")
    return _solve(spec, position, first)[0]


def best_card(spec: Endgame, position: Position) -> Card | None:
    """A best card of the side to move under minimax on points (``None`` when finished)."""
    return _solve(spec, position, None, need_win=False)[1]


def principal_variation(
    spec: Endgame, owner: Mapping[Card, str], first: Card | None = None
) -> list[Card]:
    """The cards played along the points-minimax line, a best card at every turn.

    Ties between equally good cards go to the first one the search tries. ``first`` forces the
    declarer's first card.
    """
    check_first(spec, first)
    position = start_position(spec, owner)
    line: list[Card] = []
    forced = first
    while not position.finished:
        card = _solve(spec, position, forced, need_win=False)[1]
        assert card is not None
        line.append(card)
        position = play(spec, position, card)
        forced = None
    return line
