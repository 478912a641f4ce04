"""How the players choose their cards: play models as records in one registry.

A :class:`PlayModel` gives the seat to move a distribution over its legal cards from what that
seat has seen (:class:`SeatView`: its hand, the current trick, the tricks played, the cards it
cannot see), or, for ``adversarial``, no distribution at all (every seat sees every card and
plays minimax: :mod:`qcards.skat.double_dummy`). Built in:

``random``
    every legal card equally likely: the paper's card-play gates CP_k^n (Eq. 9), the model the
    circuits prepare.
``adversarial``
    double dummy, the minimax of the referee and the solver.
``heuristic``
    a rule-based player written from Skat's playing conventions (:func:`heuristic`; each rule
    is tested on a position in ``tests/test_play_models.py``).
``best-response``
    the declarer's exact best response to random defenders from what it sees
    (:mod:`qcards.skat.best_response`; exact up to about fifteen cards).
``softmax``
    the parameterised family pi_theta(card | features) = softmax(theta_role . phi(card)) of
    :func:`softmax_policy`, here with hand-set parameters (:data:`DEFAULT_THETA`); theta = 0
    is ``random``. The paper's outlook (Sec. X.1) proposes parameterised card-play gates
    CP_k^n(c_1, ..., c_k) fitted to "a more realistic assignment of weights": this is that
    assignment, on the classical side.

Third parties add models through the entry-point group ``qcards.play_models`` (an entry point
named like its :class:`PlayModel`). The referee evaluates a policy model exactly (Fractions for
``heuristic``, floats for ``softmax``; :func:`qcards.skat.outcomes.outcome_distribution`) and
Monte Carlo samples it at any size (:func:`qcards.skat.monte_carlo.playouts`), and the game
circuits prepare it with policy-weighted card-play gates
(:mod:`qcards.circuits.gates.policy_play`, the paper's Sec. X.1).
"""

from __future__ import annotations

import importlib.metadata
import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cache

from qcards.errors import ModelError
from qcards.skat.best_response import best_response
from qcards.skat.cards import TRUMP, Card
from qcards.skat.seat_view import Policy, SeatView, uniform

ENTRY_POINT_GROUP = "qcards.play_models"


@dataclass(frozen=True)
class PlayModel:
    """One way to play.

    Attributes:
        name: what ``--model`` calls it.
        description: one line for the help and the docs.
        policy: the distribution over the legal cards of a seat's view (``None``: minimax, the
            adversarial model, or a ``solver``).
        exact: the policy's weights are Fractions, so the referee's numbers are exact.
        circuits: the uniform card-play gates prepare this model (``random``); a policy
            model is prepared by weighted ones (:func:`qcards.circuits.game.build_game`).
        solver: instead of a policy, a function of the spec and the declarer's first card
            (or ``None``) that returns the exact outcome distribution of the model's play (a
            strategy that looks ahead, as the best response).
    """

    name: str
    description: str
    policy: Policy | None = field(default=None, compare=False)
    exact: bool = True
    circuits: bool = False
    solver: Callable | None = field(default=None, compare=False)

    @property
    def minimax(self) -> bool:
        return self.policy is None and self.solver is None


# ----------------------------------------------------------------------------- policies


def _evenly(cards) -> dict[Card, Fraction]:
    cards = tuple(dict.fromkeys(cards))
    return {c: Fraction(1, len(cards)) for c in cards}


def _lowest(view: SeatView, cards) -> list[Card]:
    """The cards of fewest points, then weakest, keeping a guarded ten when another card of
    equal points can go (a ten with one guard while the ace of its suit is out)."""
    rules = view.rules
    cheapest = min(c.value for c in cards)
    low = [c for c in cards if c.value == cheapest]
    unguarding = {c for c in low if _guards_a_ten(view, c)}
    low = [c for c in low if c not in unguarding] or low
    weakest = min(rules.strength(c) for c in low)
    return [c for c in low if rules.strength(c) == weakest]


def _guards_a_ten(view: SeatView, card: Card) -> bool:
    rules = view.rules
    suit = rules.effective_suit(card)
    if suit == TRUMP:
        return False
    mine = [c for c in view.hand if rules.effective_suit(c) == suit]
    ten = next((c for c in mine if c.rank == "10"), None)
    ace_out = any(c.rank == "A" and rules.effective_suit(c) == suit for c in view.out)
    return ten is not None and card != ten and len(mine) == 2 and ace_out


def _most_points(cards) -> list[Card]:
    top = max(c.value for c in cards)
    return [c for c in cards if c.value == top]


def heuristic(view: SeatView) -> dict[Card, Fraction]:
    """A rule-based player from Skat's playing conventions; the first rule that applies picks
    the cards (equally likely among them):

    Suit and grand games, leading:
      1. *draw trumps*: the declarer holding at least as many trumps as are out leads its
         highest trump;
      2. *cash a sure trick*: a card no unseen card beats in its suit, the most points first
         (a defender leads it only through the declarer, or from any seat when it is an ace or
         a ten);
      3. *lead through the declarer*: a defender with the declarer to play next leads low in
         a side suit, so that the partner sits behind the declarer;
      4. otherwise the lowest side-suit card (the lowest trump when only trumps are left).

    Following:
      5. *smear*: last to play on a trick the partner wins, add the most points (a side-suit
         card before a trump);
      6. *take it*: last to play, when a card wins the trick, the winner with the most points;
      7. *win for sure*: not last, a winning card no unseen card beats, the cheapest;
      8. *follow low*: otherwise the fewest points, the weakest, keeping a guarded ten.

    Null games: the declarer plays the highest card that stays under the trick's winner (or,
    leading, its lowest card); a defender ducks under a declarer's winning card, else plays
    its lowest card.
    """
    rules = view.rules
    legal = view.legal
    if rules.trump.is_null:
        return _evenly(_null_choice(view, legal))
    won = view.winning()
    if won is None:
        trumps = [c for c in legal if rules.is_trump(c)]
        side = [c for c in legal if not rules.is_trump(c)]
        out_trumps = [c for c in view.out if rules.is_trump(c)]
        if view.declarer and trumps and out_trumps and len(trumps) >= len(out_trumps):
            return _evenly([max(trumps, key=rules.strength)])
        through = not view.declarer and (view.seat + 1) % view.players == 0
        sure = [c for c in legal if view.top(c)]
        if not view.declarer:
            sure = [c for c in sure if through or c.rank in ("A", "10")]
        if sure:
            return _evenly(_most_points(sure))
        return _evenly(_lowest(view, side or legal))
    seat, _card = won
    winners = [c for c in legal if view.wins_now(c)]
    if view.last and view.friend(seat):
        plain = [c for c in legal if not rules.is_trump(c)] or list(legal)
        return _evenly(_most_points(plain))
    if view.last and winners:
        return _evenly(_most_points(winners))
    if not view.last and not view.friend(seat):
        sure = [c for c in winners if view.top(c)]
        if sure:
            return _evenly(_lowest(view, sure))
    return _evenly(_lowest(view, legal))


def _null_choice(view: SeatView, legal) -> list[Card]:
    rules = view.rules
    won = view.winning()
    if view.declarer:
        if won is None:
            return [min(legal, key=rules.strength)]
        under = [c for c in legal if not view.wins_now(c)]
        return [max(under, key=rules.strength)] if under else [min(legal, key=rules.strength)]
    if won is not None and won[0] == 0:
        under = [c for c in legal if not view.wins_now(c)]
        if under:
            return [max(under, key=rules.strength)]
    return [min(legal, key=rules.strength)]


FEATURES = ("points", "strength", "trump", "wins_now", "friend_winning_points")
"""The features phi(card) of :func:`softmax_policy`: the card's points (/11), its rank among
the live cards of its suit (0 to 1), whether it is a trump, whether it takes the trick now,
and its points when the mover's side wins the trick so far (smearing)."""

DEFAULT_THETA = {
    "declarer": {"points": -0.5, "strength": 0.5, "trump": 0.5, "wins_now": 1.0,
                 "friend_winning_points": 0.0},
    "defender": {"points": -1.0, "strength": 0.0, "trump": -0.5, "wins_now": 1.0,
                 "friend_winning_points": 2.0},
}  # fmt: skip
"""Hand-set parameters of ``softmax`` (a starting point for a fit, not fitted)."""


def features(view: SeatView, card: Card) -> dict[str, float]:
    """phi(card) for the mover (:data:`FEATURES`)."""
    rules = view.rules
    suit = rules.effective_suit(card)
    # strength as a rank among the live cards of the suit, so that it depends only on the
    # order of the cards still in play (renaming a card no live card separates from another
    # changes nothing: the decisions' equivalent-card pruning stays exact)
    same = [c for c in (*view.hand, *view.out) if rules.effective_suit(c) == suit]
    below = sum(rules.strength(c) < rules.strength(card) for c in same)
    won = view.winning()
    friend_winning = won is not None and view.friend(won[0])
    return {
        "points": card.value / 11,
        "strength": below / (len(same) - 1) if len(same) > 1 else 1.0,
        "trump": float(rules.is_trump(card)),
        "wins_now": float(view.wins_now(card)),
        "friend_winning_points": card.value / 11 if friend_winning else 0.0,
    }


def softmax_policy(theta: Mapping[str, Mapping[str, float]]) -> Policy:
    """pi_theta(card | view) = exp(theta_role . phi(card)) / sum over the legal cards, with
    ``theta[role][feature]`` for the roles ``declarer`` and ``defender`` (missing: 0)."""
    for role, weights in theta.items():
        if role not in ("declarer", "defender"):
            raise ModelError(f"theta: unknown role {role!r} (expected declarer | defender)")
        unknown = sorted(set(weights) - set(FEATURES))
        if unknown:
            raise ModelError(f"theta.{role}: unknown feature {unknown[0]!r} "
                             f"(expected {' | '.join(FEATURES)})")  # fmt: skip

    return SoftmaxPolicy({role: dict(weights) for role, weights in theta.items()})


@dataclass(frozen=True, eq=False)
class SoftmaxPolicy:
    """The policy :func:`softmax_policy` returns: a module-level callable rather than a
    closure, so that circuits whose card plays it weighs can be pickled (to a simulator's
    child process or a Dask worker)."""

    theta: Mapping[str, Mapping[str, float]]

    def __call__(self, view: SeatView) -> dict[Card, float]:
        weights = self.theta.get("declarer" if view.declarer else "defender", {})
        scores = {
            c: sum(weights.get(k, 0.0) * v for k, v in features(view, c).items())
            for c in view.legal
        }
        top = max(scores.values())
        exps = {c: math.exp(s - top) for c, s in scores.items()}
        total = sum(exps.values())
        return {c: e / total for c, e in exps.items()}


# ----------------------------------------------------------------------------- registry


def _best_response_outcomes(spec, first):
    """The outcomes of the declarer's best response (maximising its win) to random defenders
    (:mod:`qcards.skat.best_response`)."""
    return best_response(spec, "win", first, clairvoyant=False).outcomes


BUILT_IN: dict[str, PlayModel] = {
    m.name: m
    for m in (
        PlayModel("random", "every legal card equally likely (the circuits' model)", uniform,
                  circuits=True),
        PlayModel("adversarial", "double dummy: every seat sees every card and plays minimax"),
        PlayModel("heuristic", "a rule-based player from Skat's playing conventions", heuristic),
        PlayModel("softmax", "softmax over card features with hand-set parameters per role",
                  softmax_policy(DEFAULT_THETA), exact=False),
        PlayModel("best-response", "the declarer's best response, from what it sees, to "
                  "random defenders (exact, up to about fifteen cards)",
                  solver=_best_response_outcomes),
    )
}  # fmt: skip


@cache
def registry() -> dict[str, PlayModel]:
    """Every play model by name: the built-ins, then the entry points of
    ``qcards.play_models`` (each must load a :class:`PlayModel` of its own name)."""
    models = dict(BUILT_IN)
    for entry in importlib.metadata.entry_points(group=ENTRY_POINT_GROUP):
        if entry.name in models:
            continue
        try:
            record = entry.load()
        except Exception as exc:  # a third party's import error, reported with its name
            raise ModelError(f"the play model plugin {entry.name!r} failed to load: {exc}") from exc
        if not isinstance(record, PlayModel) or record.name != entry.name:
            raise ModelError(f"the entry point {entry.name!r} of {ENTRY_POINT_GROUP} must be a "
                             f"qcards PlayModel called {entry.name!r}")  # fmt: skip
        models[entry.name] = record
    return models


def model_names() -> tuple[str, ...]:
    return tuple(registry())


def get_model(name: str | PlayModel) -> PlayModel:
    """The model called ``name`` (a record is returned as it is)."""
    if isinstance(name, PlayModel):
        return name
    try:
        return registry()[name]
    except (KeyError, TypeError):
        raise ModelError(
            f"unknown {{model}} {name!r} (expected {' | '.join(registry())})",
            parameters=("model",),
        ) from None
