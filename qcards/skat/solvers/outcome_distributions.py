"""The exact distribution of a game's outcomes under random play, and what a declared game's
score is worth on average.

An *outcome* is what the ISkO scores a finished game by: the declarer's card points (the Skat
included), its tricks (those of the spec included) and its matadors (which vary with the deal
only in a Hand game whose Skat is unknown, :mod:`qcards.skat.position.declaration`). The referee's
p_win and expected points are two numbers of this distribution; a declared game's expected
list score and Seeger-Fabian score are others (:mod:`qcards.skat.solvers.objectives`).

:func:`outcome_distribution` computes it exactly, in Fractions, by a search over positions
memoized across plays and deals: a position at a trick boundary (the hands left and the leader)
has one distribution of the points and tricks still to come, whatever happened before. The
tests check it against the plain enumeration of play paths
(:func:`qcards.skat.solvers.plain_referee.paths`), the independent oracle.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from fractions import Fraction
from functools import cache
from typing import overload

from qcards.errors import ResourceError
from qcards.plan.refusal import marked_parameters
from qcards.skat.deals.count import num_deals
from qcards.skat.deals.enumeration import weighted_deals
from qcards.skat.position.declaration import deal_matadors, skat_of
from qcards.skat.position.seat_view import Policy, reads_history, seat_view
from qcards.skat.position.spec import Endgame
from qcards.skat.position.stages import check_first, skat_points
from qcards.skat.rules.cards import Card
from qcards.skat.rules.turns import hands_after, leads_next, seat_to_move, winner_seat
from qcards.skat.solvers.plain_referee import estimate_paths

Outcome = tuple[int, int, int]
"""(declarer's card points, declarer's tricks, matadors) at the end of the game."""

MAX_PATHS = 5e6
"""The largest number of play paths (Knuth's estimate) :func:`outcome_distribution` takes on:
beyond, the memoized search would run for minutes in Python."""


INSTEAD = "use {method} sparse, or {shots} to sample"
"""What answers a game :func:`outcome_distribution` refuses: the circuit's exact state, or
its shots."""


def check_paths(spec: Endgame, first: Card | None = None, instead: str = INSTEAD) -> None:
    """Refuse (:class:`ResourceError`, ``instead`` the way out, naming its ``{parameter}``
    markers) a game with more than :data:`MAX_PATHS` play paths: what
    :func:`outcome_distribution` checks before any work, for a caller to plan with first."""
    # a bound first (each seat at most h! orders of its h cards), the estimate only above it
    bound = num_deals(spec) * math.factorial(spec.hand_size) ** len(spec.players)
    estimate = bound if bound <= MAX_PATHS else estimate_paths(spec, first)
    if estimate > MAX_PATHS:
        raise ResourceError(
            f"the exact outcome distribution enumerates positions of about {estimate:.2g} "
            f"play paths, more than the {MAX_PATHS:.0e} it takes on",
            parameters=marked_parameters(instead),
            advice=instead,
        )


@overload
def outcome_distribution(
    spec: Endgame,
    first: Card | None = None,
    policy: None = None,
    opening: Sequence[Card] = (),
    deals: Iterable[tuple[dict[Card, str], Fraction]] | None = None,
) -> dict[Outcome, Fraction]: ...


@overload
def outcome_distribution(
    spec: Endgame,
    first: Card | None = None,
    policy: Policy | None = None,
    opening: Sequence[Card] = (),
    deals: Iterable[tuple[dict[Card, str], Fraction | float]] | None = None,
) -> dict[Outcome, Fraction | float]: ...


def outcome_distribution(
    spec: Endgame,
    first: Card | None = None,
    policy: Policy | None = None,
    opening: Sequence[Card] = (),
    deals: Iterable[tuple[dict[Card, str], Fraction | float]] | None = None,
) -> dict[Outcome, Fraction] | dict[Outcome, Fraction | float]:
    """The exact distribution of the outcome under random play (the paper's circuits' model),
    or under ``policy`` (a play model's, :mod:`qcards.skat.players.play_models`: Fractions stay
    exact, floats make the probabilities floats), deals weighted by the spec's prior; ``first``
    fixes the declarer's first card; ``opening`` fixes the first trick's first cards instead,
    whoever plays them (the cards already on the table and a card to try:
    :mod:`qcards.analysis.advice`; each must be legal in every deal the prior weighs, as
    :func:`qcards.skat.position.history.moment` guarantees). ``deals``: the deals with their
    probabilities, in place of the spec's prior
    (:func:`~qcards.skat.deals.enumeration.weighted_deals`), as beliefs that reweigh them give them
    (:func:`qcards.skat.players.beliefs.believed_deals`).

    Raises:
        ResourceError: the game has more than :data:`MAX_PATHS` play paths (estimated).
    """
    check_first(spec, first)
    check_paths(spec, first)
    opening = tuple(opening) if first is None else (first,)
    rules = spec.rules
    players = spec.players
    n = len(players)
    declarer = players.index(spec.declarer)
    declared = spec.declaration
    out: dict[Outcome, Fraction | float] = {}

    cards = frozenset(spec.cards) | spec.put_away
    history = reads_history(policy)  # then positions reached by other plays are kept apart

    def ways(hands, leader, played, skat, tricks):
        """Every way the trick begun with ``played`` can be completed, with its probability."""
        if len(played) == n:
            yield played, Fraction(1)
            return
        if policy is None:
            legal = rules.legal_cards(
                hands[seat_to_move(leader, len(played), n)], played[0] if played else None
            )
            weights = {c: Fraction(1, len(legal)) for c in legal}
        else:
            weights = policy(seat_view(rules, cards, hands, leader, played, skat, tricks))
        for card, weight in weights.items():
            if not weight:
                continue
            for done, q in ways(hands, leader, (*played, card), skat, tricks):
                yield done, q * weight

    def spread(hands, leader, played, skat, tricks) -> dict[tuple[int, int], Fraction]:
        """Distribution of the (points, tricks) the declarer takes from the trick begun with
        ``played`` to the end, ``tricks`` the finished ones (kept only for a policy that reads
        them)."""
        dist: dict[tuple[int, int], Fraction] = {}
        for done, probability in ways(hands, leader, played, skat, tricks):
            winner = winner_seat(rules, leader, done, n)
            left = hands_after(hands, done, leader)
            gain = (sum(c.value for c in done), 1) if winner == declarer else (0, 0)
            seen = (*tricks, (leader, done)) if history else ()
            for (p, t), q in rest(left, leads_next(spec, winner), skat, seen).items():
                key = (p + gain[0], t + gain[1])
                dist[key] = dist.get(key, Fraction(0)) + probability * q
        return dist

    @cache
    def rest(
        hands: tuple[frozenset[Card], ...], leader: int, skat: frozenset[Card], tricks: tuple
    ) -> dict[tuple[int, int], Fraction]:
        if not hands[leader]:
            return {(0, 0): Fraction(1)}
        return spread(hands, leader, (), skat, tricks)

    start_leader = players.index(spec.leader)
    for owner, deal_probability in weighted_deals(spec) if deals is None else deals:
        hands = tuple(frozenset(c for c, p in owner.items() if p == who) for who in players)
        base_points = spec.declarer_points + skat_points(owner)
        matadors = deal_matadors(declared, owner)
        # a policy may read what the seats cannot see, the Skat among it: positions are
        # shared across deals only when no policy is given
        skat = frozenset() if policy is None else frozenset(skat_of(owner)) | spec.put_away
        for (p, t), q in spread(hands, start_leader, opening, skat, ()).items():
            key = (base_points + p, spec.declarer_tricks + t, matadors)
            out[key] = out.get(key, Fraction(0)) + deal_probability * q
    return dict(sorted(out.items()))
