"""Beliefs over the deal from what was played, under a model of how the other seats play.

A seat that has watched a history weighs each deal d of the cards it cannot see by Bayes' rule,
:math:`P(d \\mid H) \\propto P(d)\\,L(d)`, where L is the likelihood of the plays under a model
of the players who made them. Three kinds of beliefs:

``random``
    L is the random-play likelihood (every legal card equally likely, the paper's CP_k^n,
    Eq. 9). It factorises into count factors the prior speaks (:mod:`qcards.skat.position.history`),
    so every engine evaluates it exactly and at no cost.
``voids``
    no likelihood: only what the plays prove (the cards played, the voids) counts, and every
    deal consistent with them keeps its prior weight.
a play model with a policy (``heuristic``, ``softmax``, a third party's)
    L is the product, over the plays of the seats whose cards the mover cannot see, of that
    model's probability of the card from the player's view *in that deal*, mixed with a
    tremble: :math:`(1 - \\varepsilon)\\,\\pi(c \\mid v) + \\varepsilon / \\#\\text{legal}`, so a
    deal stays possible when a player deviates from the model (a real opponent is never
    exactly the model). The policy reads whole hands, so L does not factorise: the deals of
    the voids' posterior are reweighted one by one (:func:`believed_deals`, exact) or sampled
    from it and resampled by their likelihood (:func:`believed_sample`, sampling-importance-
    resampling).

With the uniform policy and no tremble the third kind gives the first's posterior exactly (a
leader's and a void player's factor, 1/hand size, is the same for every deal; a follower's is
1/cards of the led suit held): ``tests/test_beliefs.py`` checks that, deal by deal.
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
from qcards.skat.deals.sample import sample_owners
from qcards.skat.players.play_models import get_model
from qcards.skat.position.history import Moment, as_plays, moment
from qcards.skat.position.seat_view import Policy, seat_view
from qcards.skat.position.spec import SKAT, Endgame
from qcards.skat.rules.cards import Card
from qcards.skat.rules.turns import hands_after, leads_next, winner_seat

RANDOM = "random"
VOIDS = "voids"
OPTION = "beliefs"
"""How messages name the choice (``--beliefs`` on the command line)."""

TREMBLE = Fraction(1, 10)
"""The default share of a model's belief given to every legal card evenly (see the module)."""

MAX_REWEIGHED = 20_000
"""The most deals :meth:`BelievedDeals.exact` reweighs one by one by a model's likelihood
(about a third of a millisecond each in Python); beyond, sample them."""

OVERSAMPLE = 5
"""Deals drawn from the voids' posterior at a time, for each deal :func:`believed_sample`
keeps."""
MAX_OVERSAMPLE = 50
"""The most deals :func:`believed_sample` draws for each deal it keeps."""


@dataclass(frozen=True)
class Beliefs:
    """How a seat weighs the deals: ``name`` (``random``, ``voids`` or a play model's name),
    the model's policy (``None`` for the first two) and the tremble."""

    name: str
    policy: Policy | None = None
    tremble: Fraction | float = TREMBLE

    @property
    def reweights(self) -> bool:
        """Whether the deals are reweighted by a model's likelihood (not by count factors)."""
        return self.policy is not None

    @property
    def exact(self) -> bool:
        """Whether the posterior's probabilities are Fractions (with an exact play model)."""
        return self.policy is None or isinstance(self.tremble, Fraction)

    @property
    def label(self) -> str:
        if self.policy is None:
            return self.name
        return f"{self.name} (tremble {float(self.tremble):g})"


def check_beliefs(name: str | Beliefs, tremble: float | Fraction = TREMBLE) -> Beliefs:
    """The beliefs called ``name``: ``random``, ``voids`` or a play model with a policy
    (:class:`ModelError` naming ``beliefs`` otherwise, or for a tremble outside [0, 1])."""
    if isinstance(name, Beliefs):
        return name
    if (
        isinstance(tremble, bool)
        or not isinstance(tremble, (int, float, Fraction))
        or not (0 <= tremble <= 1)
    ):
        raise ModelError(
            f"{{tremble}} must be a number from 0 to 1, got {tremble!r}", parameters=("tremble",)
        )
    if name in (RANDOM, VOIDS):
        return Beliefs(name)
    usable = ModelError(
        f"unknown or unusable {{{OPTION}}} {name!r} (expected {RANDOM} | {VOIDS} | a play model "
        "with a policy: heuristic, softmax, ...)",
        parameters=(OPTION,),
    )
    try:
        model = get_model(name)
    except ModelError:
        raise usable from None
    if model.policy is None:
        raise usable
    share: Fraction | float = float(tremble)
    if model.exact:  # 0.1 as 1/10, so that an exact model's beliefs stay Fractions
        share = Fraction(str(tremble)) if isinstance(tremble, float) else Fraction(tremble)
    return Beliefs(model.name, model.policy, share)


def likelihood(
    spec: Endgame,
    history: Sequence[tuple[str, Card]],
    owner: dict[Card, str],
    beliefs: Beliefs,
) -> Fraction | float:
    """L(d): the probability, under ``beliefs``' model, that the seats whose cards the spec
    does not know played their cards of ``history`` in the deal ``owner`` (a deal of the
    moment's spec after ``history``: card -> player or Skat, the hands at the current trick's
    start). The plays of seats whose hands the spec knows have the same probability in every
    deal and are left out. A declared game's discard (out of the spec's cards, seen by the
    declarer alone) counts among the cards the others cannot see."""
    players, rules = spec.players, spec.rules
    n = len(players)
    done = len(history) - len(history) % n
    start = {p: {c for c, q in owner.items() if q == p} for p in players}
    for player, card in history[:done]:
        start[player].add(card)
    skat = frozenset(c for c, q in owner.items() if q == SKAT) | spec.put_away
    cards = frozenset(spec.cards) | spec.put_away
    watched = {p for p in players if spec.sizes.get(p, 0)}
    hands = tuple(frozenset(start[p]) for p in players)
    leader = players.index(spec.leader)
    eps = beliefs.tremble
    policy = cast(Policy, beliefs.policy)  # asked of beliefs that reweigh: a model's policy
    weight: Fraction | float = Fraction(1) if isinstance(eps, Fraction) else 1.0
    seen: list[tuple[int, tuple[Card, ...]]] = []  # the finished tricks of the history
    for t in range(0, len(history), n):
        trick: tuple[Card, ...] = ()
        for player, card in history[t : t + n]:
            if player in watched:
                view = seat_view(rules, cards, hands, leader, trick, skat, tuple(seen))
                pi = policy(view).get(card, 0)
                weight *= (1 - eps) * pi + eps / len(view.legal)
            trick += (card,)
        if len(trick) < n:
            break
        hands = hands_after(hands, trick, leader)
        seen.append((leader, trick))
        leader = leads_next(spec, winner_seat(rules, leader, trick, n))
    return weight


def believed_deals(
    spec: Endgame,
    history: Sequence[tuple[str, Card]],
    deals: Iterable[tuple[dict[Card, str], Fraction]],
    beliefs: Beliefs,
) -> list[tuple[dict[Card, str], Fraction | float]]:
    """The moment's deals with their posterior probabilities under ``beliefs``' model:
    ``deals`` (each with its probability under the voids' posterior, as
    :func:`~qcards.skat.deals.enumeration.weighted_deals` gives them) times the likelihood,
    normalised.
    Fractions when the model and the tremble are exact.

    Raises:
        ModelError: no deal has a positive likelihood (a model without tremble that could not
            have played the history).
    """
    weighted = [(owner, q * likelihood(spec, history, owner, beliefs)) for owner, q in deals]
    total = sum(q for _o, q in weighted)
    if not total:
        raise ModelError(
            f"{OPTION} {beliefs.name}: no deal explains the history under the model; give a "
            "tremble above 0"
        )
    return [(owner, q / total) for owner, q in weighted if q]


@dataclass(frozen=True)
class BelievedSample:
    """Deals resampled by their likelihood: ``owners`` (``count`` of them, some repeated),
    drawn from ``candidates`` deals of the voids' posterior; ``effective`` is the candidates'
    effective sample size, (sum w)^2 / sum w^2, a measure of how far the model's beliefs moved
    from the voids'."""

    owners: list[dict[Card, str]]
    candidates: int
    effective: float


def believed_sample(
    spec: Endgame,
    history: Sequence[tuple[str, Card]],
    where: Moment,
    count: int,
    rng: np.random.Generator,
    beliefs: Beliefs,
) -> BelievedSample:
    """``count`` deals of the posterior under ``beliefs``' model, by sampling-importance-
    resampling: deals of the voids' posterior (``where``'s spec), each weighted by its
    likelihood, then ``count`` of them drawn in proportion to the weights (systematic
    resampling: one uniform number, so a seed gives the same deals). The candidates are drawn
    :data:`OVERSAMPLE` times ``count`` at a time until their effective sample size reaches
    ``count`` or they number :data:`MAX_OVERSAMPLE` times ``count``: a sharp model (the
    heuristic's rules) leaves few candidates with weight, and PIMC on four distinct deals
    would decide worse than on ten from the voids alone."""
    candidates: list[dict[Card, str]] = []
    weights = np.zeros(0)
    while True:
        batch = sample_owners(where.spec, rng, count * OVERSAMPLE)
        candidates += batch
        more = [float(likelihood(spec, history, o, beliefs)) for o in batch]
        weights = np.concatenate([weights, np.array(more)])
        total = weights.sum()
        enough = total > 0 and total**2 / (weights**2).sum() >= count
        if enough or len(candidates) >= count * MAX_OVERSAMPLE:
            break
    total = weights.sum()
    if not total > 0:
        raise ModelError(
            f"{OPTION} {beliefs.name}: no sampled deal explains the history under the model; "
            "give a tremble above 0"
        )
    cumulative = np.cumsum(weights / total)
    cumulative[-1] = 1.0  # so that rounding cannot send a draw past the last positive weight
    points = (rng.random() + np.arange(count)) / count
    picks = np.minimum(np.searchsorted(cumulative, points, side="right"), len(candidates) - 1)
    effective = float(total**2 / (weights**2).sum())
    return BelievedSample([candidates[i] for i in picks], len(candidates), effective)


@dataclass
class BelievedDeals:
    """The deals a seat believes in after a history, for an evaluation that needs them: every
    deal with its probability (:meth:`exact`) or sampled ones (:meth:`sample`), and a note on
    how they were weighed (:meth:`explain`)."""

    spec: Endgame
    plays: Sequence[tuple[str, Card]]
    where: Moment
    beliefs: Beliefs
    drawn: BelievedSample | None = None

    @property
    def too_many_to_reweigh(self) -> bool:
        """Whether a model's likelihood would reweigh more than :data:`MAX_REWEIGHED` deals
        (which :meth:`exact` refuses)."""
        return self.beliefs.reweights and num_deals(self.where.spec) > MAX_REWEIGHED

    def exact(self) -> list[tuple[dict[Card, str], Fraction | float]]:
        """Every deal of positive probability with its probability.

        Raises:
            ResourceError: :attr:`too_many_to_reweigh`.
        """
        if not self.beliefs.reweights:
            return list(weighted_deals(self.where.spec))
        if self.too_many_to_reweigh:
            count = num_deals(self.where.spec)
            raise ResourceError(
                f"{OPTION} {self.beliefs.name}: reweighing {count:,} deals one by one by the "
                f"model's likelihood takes more than the {MAX_REWEIGHED:,} it does exactly: "
                "give {shots} to sample them",
                parameters=("shots",),
            )
        deals = weighted_deals(self.where.spec)
        return believed_deals(self.spec, self.plays, deals, self.beliefs)

    def sample(self, count: int, rng: np.random.Generator) -> list[dict[Card, str]]:
        if not self.beliefs.reweights:
            return sample_owners(self.where.spec, rng, count)
        self.drawn = believed_sample(self.spec, self.plays, self.where, count, rng, self.beliefs)
        return self.drawn.owners

    def effective_size(self, count: int) -> float | None:
        """The effective size of ``count`` resampled deals (``None`` when they were drawn
        straight from the posterior): the candidates' effective size n_w and the resampling
        both add variance, about that of 1 / (1/n_w + 1/count) independent deals."""
        if self.drawn is None:
            return None
        return 1.0 / (1.0 / self.drawn.effective + 1.0 / count)

    def explain(self, reason: str) -> str:
        """``reason`` with the beliefs named (nothing added for ``random``, the default)."""
        if self.beliefs.name == RANDOM and not self.beliefs.reweights:
            return reason
        if not self.beliefs.reweights:
            return f"{reason}; beliefs from the voids alone"
        note = f"{reason}; beliefs from the {self.beliefs.label} model's likelihood of the plays"
        if self.drawn is not None:
            note += (
                f" ({self.drawn.effective:.0f} effective of {self.drawn.candidates} deals drawn, "
                "resampled)"
            )
        return note


def believe(spec: Endgame, history, beliefs: Beliefs) -> BelievedDeals:
    """The deals a seat believes in after ``history`` (a string or ``(player, card)`` pairs):
    the moment under ``random`` beliefs (count factors), or the voids' moment that the model's
    likelihood then reweighs.

    Raises:
        ModelError: a play of the history breaks a rule
            (:func:`qcards.skat.position.history.moment`).
    """
    plays = as_plays(spec, history)
    inference = beliefs.name == RANDOM and not beliefs.reweights
    return BelievedDeals(spec, plays, moment(spec, plays, inference), beliefs)
