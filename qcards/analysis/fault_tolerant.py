"""What evaluating an endgame would cost on a fault-tolerant quantum computer (the paper's
Sec. IX, asked in logical gates and physical qubits instead of CX gates on a device).

For a spec (or the endgame of N cards per player, :func:`~qcards.analysis.resources.resource_spec`):

1. the logical counts of A (the deal, the game and the win oracle, Eqs. 1, 17 and Sec. VI.6),
   from the registered polynomial construction with the fewest Toffolis, and of one Grover
   iterate (:mod:`qcards.circuits.logical_counts`, :mod:`qcards.estimation.fault_tolerant`);
2. each estimation algorithm's schedule to a half-width epsilon, and the logical counts of its
   circuits;
3. the physical resources of every circuit on each qubit model (Microsoft's resource
   estimator, :mod:`qcards.execution.physical`): the code distance and physical qubits of the
   largest circuit, and the wall time of all shots run one after another.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, replace

from qcards.analysis.resources import declared_resource_spec, resource_spec
from qcards.circuits.construction import Construction, registry
from qcards.circuits.logical_counts import LogicalCounter, LogicalCounts
from qcards.circuits.oracle import WinCircuit, build_win_circuit
from qcards.circuits.payoff import PayoffCircuit, build_payoff_circuit
from qcards.errors import ParameterError
from qcards.estimation.algorithms import algorithm_names, get_algorithm
from qcards.estimation.fault_tolerant import circuit_counts, grover_iterate_counts, schedule
from qcards.estimation.schedules import Schedule
from qcards.execution.physical import (
    DEFAULT_MODELS,
    PhysicalEstimate,
    check_models,
    physical_estimates,
)
from qcards.files import json_fields
from qcards.skat.position.spec import Endgame
from qcards.skat.rules.cards import Card


@dataclass(frozen=True)
class AlgorithmCost:
    """One estimation algorithm to the report's epsilon.

    Attributes:
        schedule: its circuits and shots.
        total: logical counts summed over every shot (qubits: the widest circuit).
        models: the physical cost on each qubit model (empty without ``physical``): the
            largest circuit's code distance, physical qubits and T factories, and the wall
            time of every shot of the schedule in sequence.
    """

    schedule: Schedule
    total: LogicalCounts
    models: tuple[PhysicalEstimate, ...]

    def to_json(self) -> dict:
        return {
            "algorithm": self.schedule.algorithm,
            **self.total.to_json(),
            "schedule": self.schedule.to_json(),
            "qubit_models": [m.to_json() for m in self.models],
        }


@dataclass(frozen=True)
class FaultTolerantReport:
    """What ``qcards resources --fault-tolerant`` reports."""

    source: str
    construction: str
    toffolis_by_construction: dict[str, int]
    a: LogicalCounts
    grover_iterate: LogicalCounts
    a_models: tuple[PhysicalEstimate, ...]
    algorithms: tuple[AlgorithmCost, ...]
    epsilon: float
    alpha: float
    amplitude: float
    count_seconds: float
    estimate_seconds: float
    objective: str = "win"
    model: str = "random"

    def to_json(self) -> dict:
        return {
            **json_fields(
                self,
                "source objective model construction toffolis_by_construction epsilon alpha "
                "amplitude",
            ),
            "a": {**self.a.to_json(), "qubit_models": [m.to_json() for m in self.a_models]},
            "grover_iterate": self.grover_iterate.to_json(),
            "algorithms": [a.to_json() for a in self.algorithms],
            "seconds": {"counts": self.count_seconds, "estimates": self.estimate_seconds},
        }


def polynomial_constructions() -> list[Construction]:
    """The registered constructions that can be built at the full game's size."""
    return [c for c in registry().values() if not c.grows_exponentially]


def cheapest_a(
    spec: Endgame,
    first: Card | None,
    counter: LogicalCounter,
    objective: str = "win",
    model: str = "random",
) -> tuple[Construction, LogicalCounts, int, dict[str, int]]:
    """A from every polynomial construction, and the one with the fewest Toffoli-class gates:
    (construction, its counts, A's width without ancillas, Toffolis by construction). A is the
    game and the win oracle, or for another ``objective`` the payoff oracle
    (:mod:`qcards.circuits.payoff`); ``model`` weighs the card plays by a play model's policy
    (their care-set synthesis, :class:`~qcards.circuits.syntheses.hardware.WeightedPlays`)."""
    found = []
    a: WinCircuit | PayoffCircuit
    for construction in polynomial_constructions():
        if objective == "win":
            a = build_win_circuit(spec, first, construction=construction, model=model)
        else:
            a = build_payoff_circuit(spec, objective, first, construction=construction,
                                     model=model)  # fmt: skip
        found.append((construction, counter.count(a.circuit), a.num_qubits))
    if not found:
        raise ParameterError("construction", "no registered construction is polynomial")
    by_name = {c.name: counts.toffoli_class for c, counts, _ in found}
    construction, counts, width = min(found, key=lambda f: f[1].toffoli_class)
    return construction, counts, width, by_name


def fault_tolerant_cost(
    spec: Endgame | None = None,
    cards_per_player: int | None = None,
    epsilon: float = 0.01,
    alpha: float = 0.05,
    qubit_models: Sequence[str] = DEFAULT_MODELS,
    algorithms: Sequence[str] | None = None,
    amplitude: float = 0.5,
    first: Card | None = None,
    physical: bool = True,
    objective: str = "win",
    model: str = "random",
) -> FaultTolerantReport:
    """The fault-tolerant cost of estimating ``spec``'s p_win to half-width ``epsilon`` (or,
    with ``objective``, a declared game's normalised expected score through the payoff oracle:
    the endgame of N cards per player is then declared by
    :func:`~qcards.analysis.resources.declared_resource_spec`).

    Args:
        spec: the endgame; or ``cards_per_player`` N for the endgame of
            :func:`~qcards.analysis.resources.resource_spec` (10: the full game).
        epsilon: the half-width aimed at, at confidence 1 - ``alpha``.
        qubit_models: the estimator's qubit models
            (:data:`~qcards.execution.physical.QUBIT_MODELS`).
        algorithms: the registered estimation algorithms (default: all).
        amplitude: the amplitude the schedules are worked out at (1/2: the worst case).
        first: the declarer's fixed first card.
        physical: run the resource estimator (needs ``qcards[estimate]``); False gives the
            logical counts alone.
        model: the play model the card plays prepare (``random``: Eq. 9); another policy
            model's weighted card plays are synthesised from the basis states the circuit
            reaches, so they are counted for a small ``spec`` only.
    """
    if (spec is None) == (cards_per_player is None):
        raise ParameterError("spec", "give either a spec or cards_per_player, not both")
    if model != "random" and spec is None:
        raise ParameterError(
            "model",
            "policy-weighted card plays are synthesised from the basis states the circuit "
            "reaches (small endgames): give a SPEC with {model}, not N cards per player",
        )
    source = f"{cards_per_player} cards per player" if spec is None else spec.source
    if spec is None:
        assert cards_per_player is not None  # one of the two is given (checked above)
        spec = (
            resource_spec(cards_per_player)
            if objective == "win"
            else declared_resource_spec(cards_per_player)
        )
    models = check_models(qubit_models) if physical else ()
    names = tuple(algorithms) if algorithms is not None else algorithm_names()
    records = [get_algorithm(name) for name in names]
    started = time.perf_counter()
    counter = LogicalCounter()
    construction, a, width, by_name = cheapest_a(spec, first, counter, objective, model)
    iterate = grover_iterate_counts(counter, a, width)
    costed = []
    for record in records:
        plan = schedule(record, epsilon, alpha, amplitude)
        per_circuit = [circuit_counts(counter, a, width, c) for c in plan.circuits]
        costed.append((plan, per_circuit))
    count_seconds = time.perf_counter() - started
    started = time.perf_counter()
    a_models: tuple[PhysicalEstimate, ...] = ()
    if physical:
        a_models = tuple(physical_estimates([a], models)[0])
    results = []
    for plan, per_circuit in costed:
        total = LogicalCounts()
        for circuit, counts in zip(plan.circuits, per_circuit, strict=True):
            total = total.then(counts.times(circuit.shots))
        model_costs: tuple[PhysicalEstimate, ...] = ()
        if physical:
            rows = physical_estimates(per_circuit, models)
            model_costs = tuple(
                _model_cost(model, [row[j] for row in rows], plan) for j, model in enumerate(models)
            )
        results.append(AlgorithmCost(plan, total, model_costs))
    return FaultTolerantReport(
        source=source,
        construction=construction.name,
        toffolis_by_construction=by_name,
        a=a,
        grover_iterate=iterate,
        a_models=a_models,
        algorithms=tuple(results),
        epsilon=epsilon,
        alpha=alpha,
        amplitude=amplitude,
        count_seconds=count_seconds,
        estimate_seconds=time.perf_counter() - started,
        objective=objective,
        model=model,
    )


def _model_cost(model: str, estimates: list[PhysicalEstimate], plan: Schedule) -> PhysicalEstimate:
    widest = max(estimates, key=lambda e: (e.physical_qubits, e.code_distance))
    seconds = sum(
        e.runtime_seconds * c.shots for e, c in zip(estimates, plan.circuits, strict=True)
    )
    return replace(widest, runtime_seconds=seconds)
