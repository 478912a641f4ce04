"""A declarer who cannot see the cards: its exact best response to the other seats' models.

The declarer knows its own hand and every card played; the other seats play by a policy (a
play model's, :mod:`qcards.skat.players.play_models`; random by default). The best response is the
declarer's strategy that maximises its expected objective (the win, or a declared game's
score) over the deals it cannot tell apart, each deal weighted by its prior probability times
the likelihood of the other seats' plays under their policy (Bayes, move by move). The search
walks the public histories (every card played is seen by all); at the declarer's turn it
chooses one card for every deal consistent with what it holds (its information set), at another
seat's turn it branches on the card played, each deal weighted by that seat's policy. Exact
Fractions for rational policies.

The same walk with the declarer choosing deal by deal is the *clairvoyant* declarer against
the same opponents: what perfect-information Monte Carlo assumes of the declarer. Its value is
never below the best response's; the gap is what seeing the cards (strategy fusion included)
is worth (:attr:`BestResponse.clairvoyant`).

Hand-written, not OpenSpiel's exact best response: OpenSpiel's walks the game tree deal by
deal in Python (:mod:`qcards.skat.openspiel`; the tests hold the two equal), where this
walk carries the deals of a public history together. Against random or heuristic opponents
the declarer's choices come from a compiled floating-point walk (:class:`CompiledChooser`,
:mod:`qcards.skat.players.best_response_kernel`) and this walk follows only the chosen cards,
exactly. The walk is exponential in the endgame's length (:data:`MAX_DEALS` and
:data:`COMPILED_MAX_DEALS` bound the deals it takes on).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import cast

import numpy as np

from qcards.errors import ModelError, ResourceError
from qcards.skat.deals.count import num_deals
from qcards.skat.deals.enumeration import weighted_deals
from qcards.skat.players.heuristic import heuristic
from qcards.skat.position.declaration import deal_matadors, skat_of
from qcards.skat.position.seat_view import Policy, reads_history, seat_view, uniform
from qcards.skat.position.spec import Endgame
from qcards.skat.position.stages import check_first, skat_points
from qcards.skat.rules.cards import Card
from qcards.skat.rules.rule_tables import CARD_INDEX, TRUMP_ROW, card_mask, rule_tables
from qcards.skat.rules.turns import (
    hands_after,
    leads_next,
    player_to_move,
    seat_to_move,
    winner_seat,
)
from qcards.skat.solvers.objectives import Objective, check_objective

MAX_DEALS = 2000
"""The most deals the exact walk takes on (it carries every deal at every node)."""
COMPILED_MAX_DEALS = 20_000
"""The most deals the walk takes on when the compiled chooser picks the declarer's cards."""

COMPILED_POLICIES: dict[Policy, bool] = {uniform: False, heuristic: True}
"""The opponents' policies the compiled chooser plays, by the function itself: whether the
compiled walk plays the heuristic (:mod:`qcards.skat.players.heuristic_kernel`) or uniformly."""

Outcome = tuple[int, int, int]


@dataclass(frozen=True)
class BestResponse:
    """The declarer's best response and what it is worth.

    Attributes:
        value: the expected objective of the best response.
        outcomes: the distribution of the outcomes (points, tricks, matadors) when the declarer
            plays it.
        clairvoyant: the expected objective of a declarer who sees each deal, against the same
            opponents (at least :attr:`value`; ``None`` when not asked for).
        nodes: the search's nodes.
    """

    value: Fraction | float
    outcomes: dict[Outcome, Fraction | float]
    clairvoyant: Fraction | float | None
    nodes: int


@dataclass
class _Deal:
    weight: Fraction | float
    hands: tuple[frozenset[Card], ...]  # at the start of the current trick
    skat: frozenset[Card]
    base: int
    matadors: int
    row: int  # the deal's row in the compiled chooser's arrays


def best_response(
    spec: Endgame,
    objective: str = "win",
    first: Card | None = None,
    others: Policy = uniform,
    clairvoyant: bool = True,
    compiled: bool | None = None,
    opening: Sequence[Card] = (),
    deals: Iterable[tuple[dict[Card, str], Fraction | float]] | None = None,
) -> BestResponse:
    """The declarer's exact best response against ``others`` (the policy of every other seat),
    maximising its expected ``objective``; ``first`` fixes its first card; ``clairvoyant``:
    also the clairvoyant declarer's value (a second search of the same size; else ``None``).

    ``opening``: the first trick's cards already played by the seats before the declarer (the
    middle of a trick, :class:`qcards.skat.position.history.Moment`); the deals' weights must
    already hold their likelihood, as a moment's posterior does. ``deals``: the deals with their
    probabilities in place of the spec's prior (beliefs that reweigh them:
    :class:`qcards.skat.players.beliefs.BelievedDeals`).

    ``compiled`` (default: whenever ``others`` is :func:`uniform` or the ``heuristic``, the
    policies the compiled walk plays, :data:`COMPILED_POLICIES`): the declarer's choices come
    from the compiled floating-point walk (:class:`CompiledChooser`), and this walk follows
    only the chosen cards, in exact arithmetic; else this walk tries every card itself.

    Raises:
        ResourceError: more than :data:`MAX_DEALS` deals.
        ModelError: an objective the spec cannot score.
    """
    _check_turn(spec, first, opening)
    goal = check_objective(spec, objective)
    code = next((v for k, v in COMPILED_POLICIES.items() if k is others), None)
    if compiled is None:
        compiled = code is not None
    if compiled and code is None:
        raise ModelError(
            "the compiled best response plays against random or heuristic opponents only"
        )
    limit = COMPILED_MAX_DEALS if compiled else MAX_DEALS
    deals = None if deals is None else list(deals)
    count = num_deals(spec) if deals is None else len(deals)
    if count > limit:
        raise ResourceError(
            f"the exact best response carries every deal through its search: {count:,} "
            f"deals are more than the {limit:,} it takes on; use a smaller endgame"
        )
    rules = spec.rules
    n = len(spec.players)
    put_away = spec.put_away  # in the defenders' views: they never saw the declarer's discard
    cards = frozenset(spec.cards) | put_away
    carried: list[_Deal] = []
    for owner, probability in weighted_deals(spec) if deals is None else deals:
        hands = tuple(frozenset(c for c, p in owner.items() if p == who) for who in spec.players)
        carried.append(_Deal(probability, hands, frozenset(skat_of(owner)) | put_away,
                             spec.declarer_points + skat_points(owner),
                             deal_matadors(spec.declaration, owner), len(carried)))  # fmt: skip
    # compiled with no code was refused above
    chooser = CompiledChooser(spec, goal, carried, cast(bool, code)) if compiled else None
    nodes = 0

    history = reads_history(others)  # the finished tricks are kept for a policy reading them

    def walk(active: Sequence[_Deal], leader, trick, points, tricks, forced, clairvoyant, seen=()):
        """(sum of weight x objective, outcome masses) of the deals ``active`` from here;
        ``seen`` the finished tricks (kept only when the defenders' policy reads them)."""
        nonlocal nodes
        nodes += 1
        if not active[0].hands[leader] and not trick:
            total: Fraction | float = 0
            dist: dict[Outcome, Fraction | float] = {}
            for d in active:
                p, t = d.base + points, spec.declarer_tricks + tricks
                total += d.weight * goal.value(spec, p, t, d.matadors)
                key = (p, t, d.matadors)
                dist[key] = dist.get(key, 0) + d.weight
            return total, dist
        seat = seat_to_move(leader, len(trick), n)
        led = trick[0] if trick else None
        if seat == 0:
            groups: dict = {}
            for i, d in enumerate(active):  # the declarer's information sets (or each deal)
                groups.setdefault(i if clairvoyant else d.hands[0], []).append(d)
            total, dist = 0, {}
            for group in groups.values():
                legal = (forced,) if forced else rules.legal_cards(group[0].hands[0], led)
                if chooser is not None and len(legal) > 1:
                    legal = (chooser.choose(group, legal, leader, trick, points, tricks),)
                best = None
                for card in legal:
                    child = play(group, seat, card, leader, trick, points, tricks, clairvoyant,
                                 seen)  # fmt: skip
                    if best is None or child[0] > best[0]:
                        best = child
                assert best is not None  # the declarer to play holds a card, so some is legal
                total += best[0]
                for k, q in best[1].items():
                    dist[k] = dist.get(k, 0) + q
            return total, dist
        branches: dict[Card, list[_Deal]] = {}
        for d in active:
            view = seat_view(rules, cards, d.hands, leader, trick, d.skat, seen)
            for card, w in others(view).items():
                if w:
                    branches.setdefault(card, []).append(
                        _Deal(d.weight * w, d.hands, d.skat, d.base, d.matadors, d.row)
                    )
        total, dist = 0, {}
        for card, group in branches.items():
            value, part = play(group, seat, card, leader, trick, points, tricks, clairvoyant, seen)
            total += value
            for k, q in part.items():
                dist[k] = dist.get(k, 0) + q
        return total, dist

    def play(group, seat, card, leader, trick, points, tricks, clairvoyant, seen):
        done = (*trick, card)
        if len(done) < n:
            return walk(group, leader, done, points, tricks, None, clairvoyant, seen)
        winner = winner_seat(rules, leader, done, n)
        rest = [
            _Deal(d.weight, hands_after(d.hands, done, leader), d.skat, d.base, d.matadors, d.row)
            for d in group
        ]
        gain = sum(c.value for c in done) if winner == 0 else 0
        next_leader = leads_next(spec, winner)
        return walk(rest, next_leader, (), points + gain, tricks + (winner == 0), None,
                    clairvoyant, (*seen, (leader, done)) if history else ())  # fmt: skip

    if not carried:
        raise ModelError("the best response has no deal to play")
    start, trick = spec.players.index(spec.leader), tuple(opening)
    value, dist = walk(carried, start, trick, 0, 0, first, False)
    seen = walk(carried, start, trick, 0, 0, first, True)[0] if clairvoyant else None
    if chooser is not None:
        nodes += chooser.nodes
    return BestResponse(value, dict(sorted(dist.items())), seen, nodes)


@dataclass(frozen=True)
class FirstCard:
    """One first card of the declarer: the best response's value after it, and the value a
    clairvoyant declarer (perfect-information Monte Carlo's assumption) expects from it
    (``None`` when not asked for)."""

    card: Card
    value: Fraction | float
    clairvoyant: Fraction | float | None


def first_cards(
    spec: Endgame,
    objective: str = "win",
    others: Policy = uniform,
    opening: Sequence[Card] = (),
    deals: Sequence[tuple[dict[Card, str], Fraction | float]] | None = None,
    clairvoyant: bool = True,
) -> list[FirstCard]:
    """Every legal first card of the declarer (who leads, or plays after ``opening``), best
    first by the best response's value (``deals`` and ``opening`` as :func:`best_response`).
    PIMC would choose the card of highest ``clairvoyant`` value; where that card's ``value``
    falls short of the best, strategy fusion costs the declarer the difference."""
    declarer = spec.declarer
    if spec.sizes.get(declarer) or not spec.hands[declarer]:
        raise ModelError("first cards need the declarer's hand known")
    _check_turn(spec, None, opening)
    legal = spec.rules.legal_cards(spec.hands[declarer], opening[0] if opening else None)
    rows = []
    for card in legal:
        br = best_response(spec, objective, card, others, clairvoyant, opening=opening,
                           deals=deals)  # fmt: skip
        rows.append(FirstCard(card, br.value, br.clairvoyant))
    return sorted(rows, key=lambda r: -r.value)


def _check_turn(spec: Endgame, first: Card | None, opening: Sequence[Card]) -> None:
    """The declarer's first card must be its own and, after ``opening``, the declarer must be
    the next to play (:class:`ModelError` otherwise)."""
    if not opening:
        check_first(spec, first)
        return
    mover = player_to_move(spec, spec.leader, len(opening))
    if mover != spec.declarer or len(opening) >= len(spec.players):
        raise ModelError(
            f"after the opening {' '.join(map(str, opening))} it is {mover}'s turn, not the "
            f"declarer {spec.declarer}'s"
        )
    if first is not None and first not in spec.rules.legal_cards(spec.hands[spec.declarer],
                                                                 opening[0]):  # fmt: skip
        raise ModelError(f"first card {first} is not a legal card of the declarer's known hand")


def _monotone(table: np.ndarray) -> bool:
    """Whether an objective's table (matadors, points, tricks) is monotone in the points and
    in the tricks, each way on its own: then its extremes over a box of outcomes lie at the
    box's corners, and a walk may stop where the corners agree."""

    def one_way(steps: np.ndarray) -> bool:
        return bool((steps >= 0).all() or (steps <= 0).all())

    return one_way(np.diff(table, axis=1)) and one_way(np.diff(table, axis=2))


class CompiledChooser:
    """The declarer's card at one of its information sets, from the compiled floating-point
    walk (:mod:`qcards.skat.players.best_response_kernel`, random or heuristic opponents): the legal
    card of highest expected objective, the first of the cards within rounding of it (the
    order of the exact walk's own ties). The exact walk then follows only that card, so values and
    outcome distributions stay Fractions while the search over the alternatives runs
    compiled."""

    def __init__(
        self, spec: Endgame, goal: Objective, deals: Sequence[_Deal], heuristic: bool = False
    ):
        from qcards.skat.players.best_response_kernel import walk  # numba loads only when asked

        self._walk = walk
        self.tables = rule_tables(spec.trump)
        self.n = len(spec.players)
        self.hands = np.array([[card_mask(h) for h in d.hands] for d in deals], dtype=np.int64)
        self.start = np.bitwise_or.reduce(self.hands, axis=1)
        self.skat = np.array([card_mask(d.skat) for d in deals], dtype=np.int64)
        self.heuristic = heuristic
        self.null = spec.rules.trump.is_null
        mats = sorted({d.matadors for d in deals})
        self.mat = np.array([mats.index(d.matadors) for d in deals], dtype=np.int64)
        self.base = np.array([d.base for d in deals], dtype=np.int64)
        rows = spec.declarer_tricks + spec.num_tricks + 1
        self.obj = np.array([[[float(goal.value(spec, p, t, m)) for t in range(rows)]
                              for p in range(121)] for m in mats])  # fmt: skip
        self.scale = float(np.abs(self.obj).max()) or 1.0
        self.held = np.array([sum(c.value for h in d.hands for c in h) for d in deals],
                             dtype=np.int64)  # fmt: skip
        self.prune = _monotone(self.obj)
        self.declarer_tricks = spec.declarer_tricks
        self.winner_leads = spec.winner_leads
        self.fixed_leader = spec.players.index(spec.leader)
        self.nodes = 0

    def choose(self, group, legal, leader, trick, points, tricks) -> Card:
        """The card to play from ``legal`` for the deals ``group`` (one information set) at
        the exact walk's position (``trick`` so far, the walk's ``points`` and ``tricks``)."""
        first = group[0]
        now = card_mask(frozenset().union(*first.hands))  # the trick's cards still among them
        played = (int(self.start[first.row]) & ~now) | card_mask(trick)
        remaining = sum(len(h) for h in first.hands) - len(trick)
        rows = np.array([d.row for d in group], dtype=np.int64)
        weights = np.array([float(d.weight) for d in group])
        current = np.full(4, -1, dtype=np.int64)
        current[: len(trick)] = [CARD_INDEX[c] for c in trick]
        t = self.tables
        values = []
        for card in legal:
            value, nodes = self._walk(
                self.hands, self.base, self.mat, self.obj, self.held, self.prune, rows, weights,
                np.int64(played),
                current, len(trick), leader, points, self.declarer_tricks + tricks, remaining,
                CARD_INDEX[card], self.n, t.eff, t.power, t.value, t.suit_mask, self.winner_leads,
                self.fixed_leader, self.heuristic, self.start, self.skat, self.null, t.strength,
                t.sort_rank, TRUMP_ROW,
            )  # fmt: skip
            self.nodes += nodes
            values.append(value)
        tolerance = 1e-12 * self.scale * float(weights.sum())
        best = max(values)
        return next(c for c, v in zip(legal, values, strict=True) if v >= best - tolerance)
