"""How the players choose their cards: play models as records in one registry.

A :class:`PlayModel` gives the seat to move a distribution over its legal cards from what that
seat has seen (:class:`SeatView`: its hand, the current trick, the tricks played, the cards it
cannot see), or, for ``adversarial``, no distribution at all (every seat sees every card and
plays minimax: :mod:`qcards.skat.solvers.double_dummy`). Built in:

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
    (:mod:`qcards.skat.players.best_response`; exact up to about fifteen cards).
``softmax``
    the parameterised family pi_theta(card | features) = softmax(theta_role . phi(card)) of
    :func:`softmax_policy`, here with hand-set parameters (:data:`DEFAULT_THETA`); theta = 0
    is ``random``. The paper's outlook (Sec. X.1) proposes parameterised card-play gates
    CP_k^n(c_1, ..., c_k) fitted to "a more realistic assignment of weights": this is that
    assignment, on the classical side.
``learned``
    a small network scoring each legal card from features of the seat's view, trained by
    imitation of PIMC (:mod:`qcards.skat.learned`, :mod:`qcards.analysis.train`); the model
    file is read when it first plays: the one shipped in the package, or the file the
    environment variable ``QCARDS_LEARNED_MODEL`` names.

Third parties add models through the entry-point group ``qcards.play_models`` (an entry point
named like its :class:`PlayModel`). The referee evaluates a policy model exactly (Fractions for
``heuristic``, floats for ``softmax``;
:func:`qcards.skat.solvers.outcome_distributions.outcome_distribution`) and Monte Carlo samples it
at any size (:func:`qcards.skat.solvers.monte_carlo.playouts`), and the
game circuits prepare it with policy-weighted card-play gates
(:mod:`qcards.circuits.gates.policy_play`, the paper's Sec. X.1).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import cache

from qcards.errors import ModelError
from qcards.plugins import load_group, lookup
from qcards.skat.learned.network import LearnedPolicy
from qcards.skat.players.best_response import best_response
from qcards.skat.players.heuristic import heuristic
from qcards.skat.position.seat_view import Policy, SeatView, uniform
from qcards.skat.rules.cards import Card

ENTRY_POINT_GROUP = "qcards.play_models"

CIRCUIT, MINIMAX, POLICY, SOLVER = "circuit", "minimax", "policy", "solver"
"""The kinds of play model (:attr:`PlayModel.kind`)."""


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

    @property
    def kind(self) -> str:
        """How the model is computed, what the evaluation methods declare they answer
        (:mod:`qcards.analysis.methods`): :data:`CIRCUIT` (the uniform play the circuits
        prepare), :data:`MINIMAX` (every card seen), :data:`POLICY` (a policy played card by
        card) or :data:`SOLVER` (a strategy that looks ahead)."""
        if self.solver is not None:
            return SOLVER
        if self.policy is None:
            return MINIMAX
        return CIRCUIT if self.circuits else POLICY


# ----------------------------------------------------------------------------- policies


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
    (:mod:`qcards.skat.players.best_response`)."""
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
        PlayModel("learned", "a small network trained to play PIMC's card (qcards train)",
                  LearnedPolicy(), exact=False),
        PlayModel("best-response", "the declarer's best response, from what it sees, to "
                  "random defenders (exact, up to about fifteen cards)",
                  solver=_best_response_outcomes),
    )
}  # fmt: skip


@cache
def registry() -> dict[str, PlayModel]:
    """Every play model by name: the built-ins, then the entry points of
    ``qcards.play_models`` (each must load a :class:`PlayModel` of its own name; a name taken
    twice is a :class:`~qcards.errors.PluginError`, :mod:`qcards.plugins`)."""
    return load_group(ENTRY_POINT_GROUP, BUILT_IN.values(), PlayModel)


def model_names() -> tuple[str, ...]:
    return tuple(registry())


def get_model(name: str | PlayModel) -> PlayModel:
    """The model called ``name`` (a record is returned as it is)."""
    return lookup(
        registry(), name, PlayModel,
        lambda: ModelError(
            f"unknown {{model}} {name!r} (expected {' | '.join(registry())})",
            parameters=("model",),
        ),
    )  # fmt: skip
