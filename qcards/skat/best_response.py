"""A declarer who cannot see the cards: its exact best response to the other seats' models.

The declarer knows its own hand and every card played; the other seats play by a policy (a
play model's, :mod:`qcards.skat.play_models`; random by default). The best response is the
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

Hand-written, not OpenSpiel's exact best response: that needs the game as an OpenSpiel game,
which qcards does not provide yet. The walk is exponential in the endgame's length, for small
endgames only (:data:`MAX_DEALS` bounds the deals it takes on).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from qcards.errors import ModelError, ResourceError
from qcards.skat.cards import Card
from qcards.skat.declaration import deal_matadors, skat_of
from qcards.skat.objectives import check_objective
from qcards.skat.referee import num_deals, weighted_deals
from qcards.skat.seat_view import Policy, seat_view, uniform
from qcards.skat.spec import Endgame
from qcards.skat.stages import check_first, skat_points

MAX_DEALS = 2000
"""The most deals the exact walk takes on (it carries every deal at every node)."""

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


def best_response(
    spec: Endgame,
    objective: str = "win",
    first: Card | None = None,
    others: Policy = uniform,
    clairvoyant: bool = True,
) -> BestResponse:
    """The declarer's exact best response against ``others`` (the policy of every other seat),
    maximising its expected ``objective``; ``first`` fixes its first card; ``clairvoyant``:
    also the clairvoyant declarer's value (a second search of the same size; else ``None``).

    Raises:
        ResourceError: more than :data:`MAX_DEALS` deals.
        ModelError: an objective the spec cannot score.
    """
    check_first(spec, first)
    goal = check_objective(spec, objective)
    if num_deals(spec) > MAX_DEALS:
        raise ResourceError(
            f"the exact best response carries every deal through its search: {num_deals(spec):,} "
            f"deals are more than the {MAX_DEALS:,} it takes on; use a smaller endgame"
        )
    rules = spec.rules
    n = len(spec.players)
    cards = frozenset(spec.cards)
    deals = []
    for owner, probability in weighted_deals(spec):
        hands = tuple(frozenset(c for c, p in owner.items() if p == who) for who in spec.players)
        deals.append(_Deal(probability, hands, frozenset(skat_of(owner)),
                           spec.declarer_points + skat_points(owner),
                           deal_matadors(spec.declaration, owner)))  # fmt: skip
    nodes = 0

    def walk(active: Sequence[_Deal], leader, trick, points, tricks, forced, clairvoyant):
        """(sum of weight x objective, outcome masses) of the deals ``active`` from here."""
        nonlocal nodes
        nodes += 1
        if not active[0].hands[leader] and not trick:
            total = 0
            dist: dict[Outcome, Fraction | float] = {}
            for d in active:
                p, t = d.base + points, spec.declarer_tricks + tricks
                total += d.weight * goal.value(spec, p, t, d.matadors)
                key = (p, t, d.matadors)
                dist[key] = dist.get(key, 0) + d.weight
            return total, dist
        seat = (leader + len(trick)) % n
        led = trick[0] if trick else None
        if seat == 0:
            groups: dict = {}
            for i, d in enumerate(active):  # the declarer's information sets (or each deal)
                groups.setdefault(i if clairvoyant else d.hands[0], []).append(d)
            total, dist = 0, {}
            for group in groups.values():
                legal = (forced,) if forced else rules.legal_cards(group[0].hands[0], led)
                best = None
                for card in legal:
                    child = play(group, seat, card, leader, trick, points, tricks, clairvoyant)
                    if best is None or child[0] > best[0]:
                        best = child
                total += best[0]
                for k, q in best[1].items():
                    dist[k] = dist.get(k, 0) + q
            return total, dist
        branches: dict[Card, list[_Deal]] = {}
        for d in active:
            view = seat_view(rules, cards, d.hands, leader, trick, d.skat)
            for card, w in others(view).items():
                if w:
                    branches.setdefault(card, []).append(
                        _Deal(d.weight * w, d.hands, d.skat, d.base, d.matadors)
                    )
        total, dist = 0, {}
        for card, group in branches.items():
            value, part = play(group, seat, card, leader, trick, points, tricks, clairvoyant)
            total += value
            for k, q in part.items():
                dist[k] = dist.get(k, 0) + q
        return total, dist

    def play(group, seat, card, leader, trick, points, tricks, clairvoyant):
        done = (*trick, card)
        if len(done) < n:
            return walk(group, leader, done, points, tricks, None, clairvoyant)
        winner = (leader + rules.trick_winner(done)) % n
        rest = [
            _Deal(d.weight, tuple(h - {done[(s - leader) % n]} for s, h in enumerate(d.hands)),
                  d.skat, d.base, d.matadors)
            for d in group
        ]  # fmt: skip
        gain = sum(c.value for c in done) if winner == 0 else 0
        next_leader = winner if spec.winner_leads else spec.players.index(spec.leader)
        return walk(rest, next_leader, (), points + gain, tricks + (winner == 0), None,
                    clairvoyant)  # fmt: skip

    if not deals:  # pragma: no cover - a spec always has a deal
        raise ModelError("the spec has no deal")
    start = spec.players.index(spec.leader)
    value, dist = walk(deals, start, (), 0, 0, first, False)
    seen = walk(deals, start, (), 0, 0, first, True)[0] if clairvoyant else None
    return BestResponse(value, dict(sorted(dist.items())), seen, nodes)


@dataclass(frozen=True)
class FirstCard:
    """One first card of the declarer: the best response's value after it, and the value a
    clairvoyant declarer (perfect-information Monte Carlo's assumption) expects from it."""

    card: Card
    value: Fraction | float
    clairvoyant: Fraction | float


def first_cards(spec: Endgame, objective: str = "win", others: Policy = uniform) -> list[FirstCard]:
    """Every first card of the declarer (who must lead), best first by the best response's
    value. PIMC would choose the card of highest ``clairvoyant`` value; where that card's
    ``value`` falls short of the best, strategy fusion costs the declarer the difference."""
    if spec.leader != spec.declarer or not spec.hands[spec.declarer]:
        raise ModelError("first cards need the declarer to lead, with its hand known")
    rows = []
    for card in spec.hands[spec.declarer]:
        br = best_response(spec, objective, card, others)
        rows.append(FirstCard(card, br.value, br.clairvoyant))
    return sorted(rows, key=lambda r: -r.value)
