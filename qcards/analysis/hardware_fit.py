"""What fits on a device today: the game transpiled for a fake IBM device up to each stage, with
the share of shots that would see no error at median error rates."""

from __future__ import annotations

import statistics
from collections.abc import Iterable
from dataclasses import dataclass

from qcards.circuits.construction import Construction
from qcards.circuits.task import GameTask
from qcards.errors import ParameterError
from qcards.skat.position.spec import Endgame
from qcards.skat.rules.cards import Card


@dataclass(frozen=True)
class DeviceErrors:
    """Median calibrated error rates of a device (from its ``Target``)."""

    name: str
    num_qubits: int
    two_qubit_gate: str
    two_qubit_error: float
    one_qubit_error: float
    readout_error: float

    def error_free_share(self, two_qubit_gates: int, one_qubit_gates: int = 0, measured: int = 0):
        """The crude estimate of how many shots see no error at all: the product of the
        success probabilities of every gate and measurement, at median error rates.

        It ignores idling, crosstalk and the fact that some errors do not change the outcome,
        so it is an order of magnitude, not a prediction; ``benchmarks/bench_noise.py``
        measures the real effect under the device's noise model.
        """
        return (
            (1 - self.two_qubit_error) ** two_qubit_gates
            * (1 - self.one_qubit_error) ** one_qubit_gates
            * (1 - self.readout_error) ** measured
        )


def device_errors(name: str) -> DeviceErrors:
    """Median gate and readout errors of the fake IBM device ``name`` (e.g. ``FakeTorino``)."""
    from qcards.execution.noisy import fake_device

    target = fake_device(name).target

    def median_error(operation: str) -> float:
        errors = [p.error for p in target[operation].values() if p and p.error is not None]
        return statistics.median(errors) if errors else 0.0

    two = next(op for op in ("cz", "ecr", "cx") if op in target.operation_names)
    return DeviceErrors(
        name,
        target.num_qubits,
        two,
        median_error(two),
        median_error("sx"),
        median_error("measure"),
    )


@dataclass(frozen=True)
class StageFit:
    """One stage of a game, transpiled for a device."""

    stage: str
    two_qubit_gates: int
    one_qubit_gates: int
    active_qubits: int
    measured: int
    error_free_share: float


def hardware_fit(
    spec: Endgame,
    device: str = "FakeTorino",
    first: Card | None = None,
    construction: Construction | str = "paper",
    stages: Iterable[str] | None = None,
    seed: int = 1,
) -> tuple[DeviceErrors, list[StageFit]]:
    """The game transpiled for ``device`` up to each stage (names from ``Stage.name``; default:
    the deal, the first card and the whole game), with the error-free share each would have at
    median error rates (:meth:`DeviceErrors.error_free_share`).

    Transpilation is Qiskit's preset pass manager at optimization level 1 with ``seed``
    (:func:`qcards.execution.transpile.transpile_to`), measuring the game's outcome register.
    """
    from qcards.execution.noisy import fake_device
    from qcards.execution.transpile import measured_circuit, transpile_to, transpiled_size

    errors = device_errors(device)
    game = GameTask(spec, first, construction).build()
    by_name = {s.name: s for s in game.stages}
    names = [game.stages[i].name for i in (0, 1, -1)] if stages is None else list(stages)
    unknown = [name for name in names if name not in by_name]
    if unknown:
        raise ParameterError(
            "stages", f"unknown stage {unknown[0]!r} (the game has: {', '.join(by_name)})"
        )
    chosen = [by_name[name] for name in names]
    target = fake_device(device)
    fits = []
    for stage in dict.fromkeys(chosen):
        circuit = transpile_to(measured_circuit(game, stage), target, seed)
        size = transpiled_size(circuit)
        # rz is virtual on IBM devices (a frame change): it costs no time and adds no error
        one = sum(
            1
            for inst in circuit.data
            if len(inst.qubits) == 1 and inst.operation.name not in ("barrier", "measure", "rz")
        )
        two = size.two_qubit_gates
        measured = circuit.count_ops().get("measure", 0)
        fits.append(
            StageFit(
                stage.name,
                two,
                one,
                size.num_qubits,
                measured,
                errors.error_free_share(two, one, measured),
            )
        )
    return errors, fits
