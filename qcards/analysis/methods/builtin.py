"""qcards' own evaluation methods as records (``EvaluationMethod``, of
:mod:`qcards.analysis.methods.record`); how each runs is in :mod:`qcards.analysis.methods.runs`.

``classical``
    the exact referee: the fast referee's search for random and adversarial play, the outcome
    search weighted by a policy, a solver's own distribution.
``double-dummy``
    the adversarial model's exact value from the double-dummy solver on every deal; with
    ``shots``, ``pimc``.
``pimc``
    perfect-information Monte Carlo: ``shots`` sampled deals solved double dummy.
``monte-carlo``
    ``shots`` games played by a policy model's policy on sampled deals.
``shots``
    ideal-device shots of the game circuit, at any size.
``aer``
    Aer's shots of the game circuit (1000 when none are given).
an exact backend (``statevector``, ``mps``, ``sparse``, ``ddsim``)
    the game circuit's exact final state, the referee's fraction beside it.
"""

from __future__ import annotations

from qcards.analysis.methods import runs
from qcards.analysis.methods.record import EvaluationMethod, Request
from qcards.errors import ResourceError
from qcards.execution.backends import BACKEND_KINDS, EXACT_BACKENDS
from qcards.skat.players.play_models import CIRCUIT, MINIMAX, POLICY, SOLVER

AER_DEFAULT_SHOTS = 1000
"""Aer's shots when none are given."""

AUTO_CIRCUIT = "sparse"
"""The circuit engine ``auto`` runs when it runs a circuit (when the exact referee cannot
answer): the fastest exact simulator measured on these circuits, qcards' sparse engine
(``benchmarks/results/engines.md``: on the twelve-card endgame 0.2 s against MQT DDSIM's 180 s
and Microsoft's sparse simulator's 10 s; no width limit, its deals in shards)."""

WITH_POLICY = frozenset({CIRCUIT, POLICY})
"""The models the game circuits prepare: uniform card plays, or weighted by a policy."""


def _referee_cost(request: Request) -> float | None:
    """The fast referee's estimate (random and adversarial play); the policy search and the
    solvers make none."""
    if request.kind not in runs.REFEREE_MODELS:
        return None
    return runs.referee_seconds(request.spec, request.first, request.model)


def _sparse_cost(request: Request) -> float:
    """The sparse engine on the play paths, plus the referee it runs beside when that fits."""
    beside = 0.0
    if request.kind in runs.REFEREE_MODELS:  # a policy's exact value is not searched beside
        try:
            beside = runs.referee_seconds(request.spec, request.first, request.model)
        except ResourceError:
            pass
    return runs.paths_seconds(request.spec, request.first) + beside


CLASSICAL = EvaluationMethod(
    "classical", "the exact referee", runs.run_classical,
    exact=frozenset({CIRCUIT, MINIMAX, POLICY, SOLVER}),
    auto=frozenset({CIRCUIT, MINIMAX, POLICY, SOLVER}), cost=_referee_cost,
)  # fmt: skip

DOUBLE_DUMMY = EvaluationMethod(
    "double-dummy", "double dummy on every deal", runs.run_double_dummy,
    exact=frozenset({MINIMAX}), auto=frozenset({MINIMAX}), with_shots="pimc",
)  # fmt: skip

PIMC = EvaluationMethod(
    "pimc", "perfect-information Monte Carlo (sampled deals solved double dummy)", runs.run_pimc,
    sampled=frozenset({MINIMAX}), auto=frozenset({MINIMAX}),
)  # fmt: skip

MONTE_CARLO = EvaluationMethod(
    "monte-carlo", "games played by the model's policy on sampled deals", runs.run_monte_carlo,
    sampled=frozenset({POLICY}), auto=frozenset({POLICY}),
)  # fmt: skip

SHOTS = EvaluationMethod(
    "shots", "ideal-device shots of the game circuit", runs.run_shots,
    sampled=WITH_POLICY, auto=frozenset({CIRCUIT}), circuit=True,
)  # fmt: skip

AER = EvaluationMethod(
    "aer", BACKEND_KINDS["aer"].description, runs.run_circuit,
    sampled=WITH_POLICY, default_shots=AER_DEFAULT_SHOTS, circuit=True,
)  # fmt: skip


def _exact_backend(name: str) -> EvaluationMethod:
    """The game circuit's exact final state on an exact backend; ``auto`` runs the sparse
    engine's (random play) when the referee cannot answer, or costs more."""
    circuit_auto = name == AUTO_CIRCUIT
    return EvaluationMethod(
        name,
        "the sparse circuit engine" if circuit_auto else BACKEND_KINDS[name].description,
        runs.run_circuit,
        exact=WITH_POLICY,
        auto=frozenset({CIRCUIT}) if circuit_auto else frozenset(),
        cost=_sparse_cost if circuit_auto else None,
        circuit=True,
    )


BUILT_IN: tuple[EvaluationMethod, ...] = (
    *(_exact_backend(name) for name in EXACT_BACKENDS),
    AER, SHOTS, CLASSICAL, DOUBLE_DUMMY, PIMC, MONTE_CARLO,
)  # fmt: skip
"""In the order ``--method`` lists them (the exact backends first, as before)."""
