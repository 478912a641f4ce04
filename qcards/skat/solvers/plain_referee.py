"""Exact classical referee: every quantum number of qcards is checked against this module.

Two models of play, both averaged over the random deal of the unknown cards (uniform, or weighted
by the spec's prior, :mod:`qcards.skat.position.prior`):

``random``
    every player picks uniformly at random among its legal cards. This is exactly the
    distribution the paper's circuits prepare (the uniform superposition over deals, Eq. (1),
    followed by card-play gates that superpose the playable cards with equal weight, Eq. (9)).
``adversarial``
    double dummy: each deal is played open, the declarer maximises and the defenders minimise
    (the win for ``p_win``, the declarer's card points for ``expected_points``).

Cards dealt into the Skat (:data:`qcards.skat.position.spec.SKAT`) are never played; in both models
their card points count for the declarer at the end of the game.

All probabilities are :class:`fractions.Fraction`.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from typing import Any

from qcards.errors import ModelError
from qcards.progress import track
from qcards.skat.deals.count import num_deals
from qcards.skat.deals.enumeration import deals, weighted_deals
from qcards.skat.deals.sample import random_deal
from qcards.skat.position.spec import Endgame
from qcards.skat.position.stages import Path, Snapshot, Stage, check_first, skat_points, stages
from qcards.skat.rules.cards import Card
from qcards.skat.rules.turns import (
    leads_next,
    player_leads_next,
    player_to_move,
    seat_to_move,
    winner_seat,
)

MODELS = ("random", "adversarial")

__all__ = [
    "MODELS",
    "Evaluation",
    "deals",
    "estimate_paths",
    "evaluate",
    "evaluate_each",
    "num_deals",
    "paths",
    "random_deal",
    "recommend",
    "stage_distributions",
    "weighted_deals",
]


def estimate_paths(
    spec: Endgame, first: Card | None = None, samples: int = 200, seed: int = 0
) -> float:
    """An unbiased estimate of the number of (deal, play path) pairs, without enumerating them.

    Knuth's estimator of a tree's size: a uniformly random deal, then one random playout
    multiplying the number of legal cards at every turn; the mean of these products over
    ``samples`` playouts, times the number of deals, has the number of paths as its expectation.
    Milliseconds where :func:`paths` takes minutes: the up-front cost estimate of the exact
    methods (``qcards.execution.budget``).
    """
    check_first(spec, first)
    rules = spec.rules
    n = len(spec.players)
    rng = random.Random(seed)
    total = 0
    for _ in range(samples):
        owner = random_deal(spec, rng)
        hands = {p: [c for c, q in owner.items() if q == p] for p in spec.players}
        leader, product = spec.leader, 1
        for t in range(spec.num_tricks):
            trick: list[Card] = []
            for i in range(n):
                player = player_to_move(spec, leader, i)
                legal = rules.legal_cards(hands[player], trick[0] if trick else None)
                if first is not None and t == 0 and i == 0:
                    legal = (first,)
                product *= len(legal)
                card = rng.choice(legal)
                hands[player].remove(card)
                trick.append(card)
            winner = player_to_move(spec, leader, rules.trick_winner(trick))
            leader = player_leads_next(spec, winner)
        total += product
    return num_deals(spec) * total / samples


def paths(spec: Endgame, first: Card | None = None) -> Iterator[Path]:
    """Every play path of the random model with its exact probability (small specs only)."""
    check_first(spec, first)
    rules = spec.rules
    n = len(spec.players)
    for owner, deal_probability in weighted_deals(spec):
        hands = {p: {c for c, q in owner.items() if q == p} for p in spec.players}

        def walk(
            prob: Fraction,
            leader: str,
            trick: list[tuple[str, Card]],
            plays: tuple[tuple[int, str, Card], ...],
            winners: tuple[str, ...],
            hands: dict[str, set[Card]] = hands,
            owner: dict[Card, str] = owner,
        ) -> Iterator[Path]:
            t = len(winners) + 1
            if t > spec.num_tricks:
                yield Path(prob, owner, plays, winners)
                return
            player = player_to_move(spec, leader, len(trick))
            legal = rules.legal_cards(hands[player], trick[0][1] if trick else None)
            if first is not None and not plays:
                legal = (first,)
            for card in legal:
                hands[player].discard(card)
                new_trick = [*trick, (player, card)]
                if len(new_trick) == n:
                    winner = new_trick[rules.trick_winner([c for _, c in new_trick])][0]
                    next_leader = player_leads_next(spec, winner)
                    yield from walk(
                        prob / len(legal),
                        next_leader,
                        [],
                        (*plays, (t, player, card)),
                        (*winners, winner),
                    )
                else:
                    yield from walk(
                        prob / len(legal), leader, new_trick, (*plays, (t, player, card)), winners
                    )
                hands[player].add(card)

        yield from walk(deal_probability, spec.leader, [], (), ())


def stage_distributions(
    spec: Endgame, first: Card | None = None
) -> list[tuple[Stage, dict[Snapshot, Fraction]]]:
    """Exact distribution of the registers' content after every stage (random model)."""
    all_paths = list(paths(spec, first))
    out = []
    for stage in stages(spec):
        dist: dict[Snapshot, Fraction] = {}
        for path in all_paths:
            snap = path.snapshot(spec, stage)
            dist[snap] = dist.get(snap, Fraction(0)) + path.probability
        out.append((stage, dist))
    return out


# ----------------------------------------------------------------------------- evaluation


@dataclass(frozen=True)
class Evaluation:
    """Result of the classical referee for one spec (and optionally a fixed first card)."""

    model: str
    p_win: Fraction
    expected_points: Fraction
    num_deals: int
    num_paths: int

    def to_json(self) -> dict:
        return {
            "model": self.model,
            "p_win": float(self.p_win),
            "p_win_exact": f"{self.p_win.numerator}/{self.p_win.denominator}",
            "expected_points": float(self.expected_points),
            "num_deals": self.num_deals,
            "num_paths": self.num_paths,
        }


def evaluate(spec: Endgame, model: str = "random", first: Card | None = None) -> Evaluation:
    """Exact win probability and expected declarer points under ``model``.

    Args:
        spec: the endgame.
        model: ``"random"`` or ``"adversarial"`` (see the module docstring).
        first: fix the declarer's first card (the declarer must lead the first trick).
    """
    return evaluate_each(spec, model, [first])[0]


def evaluate_each(
    spec: Endgame, model: str = "random", firsts: Sequence[Card | None] = (None,)
) -> list[Evaluation]:
    """:func:`evaluate` for each of ``firsts`` (None: no fixed card), in one search: the
    positions after the first card are shared, so every first card costs about what one
    evaluation does."""
    if model not in MODELS:
        raise ModelError(f"unknown model {model!r} (expected {' | '.join(MODELS)})")
    for first in firsts:
        check_first(spec, first)
    rules = spec.rules
    players = spec.players
    n = len(players)
    leader0 = players.index(spec.leader)
    adversarial = model == "adversarial"

    # State: hands (tuple of frozensets by seat), leader seat, cards of the current trick, points
    # the declarer holds, whether it has taken a trick in this endgame (null games only, else
    # always False to keep the cache small), and the fixed first card still to be played.
    @cache
    def solve(hands, leader, trick, pts, took, forced):
        if not any(hands) and not trick:
            win = spec.declarer_wins(pts, spec.declarer_tricks + took)
            return Fraction(int(win)), Fraction(pts), 1
        seat = seat_to_move(leader, len(trick), n)
        legal = rules.legal_cards(hands[seat], trick[0] if trick else None)
        if forced is not None:
            legal = (forced,)
        results = []
        for card in legal:
            new_hands = tuple(h - {card} if i == seat else h for i, h in enumerate(hands))
            new_trick = (*trick, card)
            if len(new_trick) == n:
                winner = winner_seat(rules, leader, new_trick, n)
                gained = sum(c.value for c in new_trick) if winner == 0 else 0
                next_leader = leads_next(spec, winner)
                took_now = took or (spec.is_null and winner == 0)
                results.append(solve(new_hands, next_leader, (), pts + gained, took_now, None))
            else:
                results.append(solve(new_hands, leader, new_trick, pts, took, None))
        paths_here = sum(r[2] for r in results)
        if not adversarial:
            k = len(results)
            return (
                sum((r[0] for r in results), Fraction(0)) / k,
                sum((r[1] for r in results), Fraction(0)) / k,
                paths_here,
            )
        pick = max if seat == 0 else min
        return (
            pick(r[0] for r in results),
            pick(r[1] for r in results),
            paths_here,
        )

    # per first card: p_win and expected points (Fractions), paths (an int)
    totals: list[list[Any]] = [[Fraction(0), Fraction(0), 0] for _ in firsts]
    num = 0
    for owner, probability in track(weighted_deals(spec), "referee: deals", num_deals(spec)):
        hands = tuple(frozenset(c for c, q in owner.items() if q == p) for p in players)
        points = spec.declarer_points + skat_points(owner)
        for total, first in zip(totals, firsts, strict=True):
            w, e, k = solve(hands, leader0, (), points, False, first)
            total[0] += probability * w
            total[1] += probability * e
            total[2] += k
        num += 1
    return [Evaluation(model, w, e, num, k) for w, e, k in totals]


def recommend(spec: Endgame, model: str = "random") -> list[tuple[Card, Fraction]]:
    """Win probability of each legal first card of the declarer, best first."""
    check_first(spec, None)
    if spec.leader != spec.declarer:
        raise ModelError(
            f"recommend needs the declarer {spec.declarer} to lead the first trick "
            f"(the leader is {spec.leader})"
        )
    if not spec.hands[spec.declarer]:
        raise ModelError(f"the declarer {spec.declarer} has no known cards to choose from")
    out = [(c, evaluate(spec, model, first=c).p_win) for c in spec.hands[spec.declarer]]
    return sorted(out, key=lambda item: -item[1])


def game_over(spec: Endgame) -> str:
    """Why a game with no card left to play (a history that played every card) has nothing to
    advise or rank: the game is over, and its result (the declarer's chance when the unknown
    Skat's cards decide it)."""
    result = evaluate(spec)
    if result.num_deals == 1:
        won = "won" if result.p_win == 1 else "lost"
        outcome = f"{spec.declarer} {won} with {result.expected_points} card points"
    else:
        outcome = (
            f"{spec.declarer} wins with probability {result.p_win} over the unknown Skat's "
            f"cards ({float(result.expected_points):.4g} card points expected)"
        )
    return f"the game is over, every card has been played: {outcome}"
