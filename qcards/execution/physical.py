"""Physical resources of logical counts on a fault-tolerant computer, by Microsoft's Quantum
Resource Estimator (the ``qdk`` package, run locally; ``qcards[estimate]``).

The estimator lays the logical qubits out in a surface code (or a Floquet code on Majorana
qubits), picks the code distance and the T factories that keep the whole run's error within
its budget, and gives the physical qubits and the runtime. qcards passes the logical counts of
:mod:`qcards.circuits.logical_counts` and the qubit models by the estimator's own names, with
their default error budget (1e-3) and QEC scheme (surface code; Floquet code for Majorana).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from qcards.circuits.logical_counts import LogicalCounts
from qcards.errors import ParameterError, ResourceError
from qcards.execution.extras import require
from qcards.files import json_fields

QUBIT_MODELS = {
    "gate_us_e3": "qubit_gate_us_e3",
    "gate_us_e4": "qubit_gate_us_e4",
    "gate_ns_e3": "qubit_gate_ns_e3",
    "gate_ns_e4": "qubit_gate_ns_e4",
    "maj_ns_e4": "qubit_maj_ns_e4",
    "maj_ns_e6": "qubit_maj_ns_e6",
}
"""The estimator's predefined qubit models by qcards' short names: gate-based with microsecond
(trapped ions) or nanosecond (superconducting) gates, or Majorana, at physical error rates
1e-3 or 1e-4 (1e-6 for Majorana's best)."""

DEFAULT_MODELS = ("gate_us_e3", "gate_ns_e3", "maj_ns_e4")
"""The standard three: gate-based microsecond and nanosecond qubits, Majorana nanosecond."""


@dataclass(frozen=True)
class PhysicalEstimate:
    """What the estimator gives for one circuit on one qubit model.

    Attributes:
        qubit_model: qcards' short name of the model.
        code_distance: the code distance of every logical qubit.
        physical_qubits: physical qubits in all (the layout and the T factories).
        t_factories: T factories running in parallel.
        runtime_seconds: the circuit's runtime, one shot.
        logical_cycle_seconds: one logical cycle.
    """

    qubit_model: str
    code_distance: int
    physical_qubits: int
    t_factories: int
    runtime_seconds: float
    logical_cycle_seconds: float

    def to_json(self) -> dict:
        return json_fields(
            self, "qubit_model code_distance physical_qubits t_factories runtime_seconds"
        )


def check_models(models: Sequence[str]) -> tuple[str, ...]:
    """``models`` checked against :data:`QUBIT_MODELS` (a :class:`ParameterError` naming
    ``qubit_model`` otherwise)."""
    for model in models:
        if model not in QUBIT_MODELS:
            raise ParameterError(
                "qubit_model",
                f"unknown qubit model {model!r} (expected {' | '.join(QUBIT_MODELS)})",
            )
    if not models:
        raise ParameterError("qubit_model", "no qubit model given")
    return tuple(dict.fromkeys(models))


def _parameters(model: str) -> dict:
    name = QUBIT_MODELS[model]
    item: dict = {"qubitParams": {"name": name}}
    if name.startswith("qubit_maj"):
        item["qecScheme"] = {"name": "floquet_code"}
    return item


def physical_estimates(
    counts: Sequence[LogicalCounts], models: Sequence[str] = DEFAULT_MODELS
) -> list[list[PhysicalEstimate]]:
    """Each circuit of ``counts`` on each qubit model (``result[i][j]``: circuit i, model j)."""
    require("estimate", "the fault-tolerant estimate (--fault-tolerant)")
    from qdk.estimator import LogicalCounts as EstimatorCounts

    models = check_models(models)
    out = []
    for count in counts:
        if count.toffoli_class + count.t_gates + count.rotations == 0:
            raise ResourceError("a circuit without non-Clifford gates has no runtime to estimate")
        result = EstimatorCounts(count.estimator_input()).estimate([_parameters(m) for m in models])
        row = []
        for j, model in enumerate(models):
            data = result.data(j) if len(models) > 1 else result.data()
            physical = data["physicalCounts"]
            cycle = data["logicalQubit"]["logicalCycleTime"]
            # the estimator's runtime is logical depth x cycle time in integer nanoseconds,
            # which wraps past 2^64 ns (584 years): recomputed here in floating point
            runtime = physical["breakdown"]["logicalDepth"] * cycle * 1e-9
            row.append(
                PhysicalEstimate(
                    qubit_model=model,
                    code_distance=int(data["logicalQubit"]["codeDistance"]),
                    physical_qubits=int(physical["physicalQubits"]),
                    t_factories=int(physical["breakdown"]["numTfactories"]),
                    runtime_seconds=runtime,
                    logical_cycle_seconds=cycle * 1e-9,
                )
            )
        out.append(row)
    return out
