"""Where circuits run: exact statevector snapshots and shot sampling on Aer.

Every function refuses up front a circuit wider than the method can hold, with the number of
qubits it needs (:class:`~qcards.errors.ResourceError`), instead of swapping for minutes.
"""

from __future__ import annotations

from collections.abc import Sequence

from qiskit import transpile
from qiskit_aer import AerSimulator
from qiskit_aer.primitives import SamplerV2

from qcards.classical import Stage
from qcards.errors import ResourceError
from qcards.game import GameCircuit

MAX_QUBITS = {"statevector": 28, "aer": 28}
"""Widest circuit each method accepts: 2**28 amplitudes are 4 GiB of the machine's 24 GiB."""


def check_capacity(num_qubits: int, method: str) -> None:
    limit = MAX_QUBITS[method]
    if num_qubits > limit:
        raise ResourceError(
            f"the circuit needs {num_qubits} qubits; the {method} method holds at most {limit} "
            f"(use --method classical, or a smaller spec)"
        )


def _simulator(seed: int | None = None) -> AerSimulator:
    return AerSimulator(method="statevector", seed_simulator=seed)


def exact_stage_probabilities(
    game: GameCircuit, stages: Sequence[Stage] | None = None
) -> dict[Stage, dict[int, float]]:
    """Exact probabilities of the measured registers after each stage (one statevector run).

    Keys of the inner dicts are outcomes of :attr:`GameLayout.measured` (bit i = qubit i).
    """
    check_capacity(game.num_qubits, "statevector")
    wanted = list(stages or game.stages)
    qc = game.layout.circuit("game_snapshots")
    measured = game.layout.measured
    done = 0
    for stage, length in zip(game.stages, game.prefix_lengths, strict=True):
        for instruction in game.circuit.data[done:length]:
            qc.append(instruction)
        done = length
        if stage in wanted:
            qc.save_probabilities_dict(measured, label=stage.name)
    sim = _simulator()
    result = sim.run(transpile(qc, sim), shots=1).result()
    data = result.data(0)
    out = {}
    for stage in wanted:
        probs = data[stage.name]
        out[stage] = {
            int(k, 16) if isinstance(k, str) else int(k): float(v) for k, v in probs.items()
        }
    return out


def sample_stages(
    game: GameCircuit, stages: Sequence[Stage], shots: int = 1000, seed: int | None = None
) -> dict[Stage, dict[int, int]]:
    """Measure the registers after each stage, ``shots`` times per stage, with Aer's sampler."""
    check_capacity(game.num_qubits, "aer")
    circuits = []
    for stage in stages:
        qc = game.upto(stage)
        qc.add_register(_creg(len(game.layout.measured)))
        qc.measure(game.layout.measured, qc.clbits)
        circuits.append(transpile(qc, _simulator()))
    sampler = SamplerV2(seed=seed)
    results = sampler.run(circuits, shots=shots).result()
    out = {}
    for stage, res in zip(stages, results, strict=True):
        counts = res.data.outcome.get_int_counts()
        out[stage] = {int(k): int(v) for k, v in counts.items()}
    return out


def _creg(size: int):
    from qiskit.circuit import ClassicalRegister

    return ClassicalRegister(size, "outcome")
