"""Shots from a target: the game's registers measured after chosen stages, and a sampler that
transpiles for its backend (what amplitude estimation runs on)."""

from __future__ import annotations

from collections.abc import Sequence

from qiskit import transpile
from qiskit.primitives import BaseSamplerV2

from qcards.circuits.game import GameCircuit
from qcards.errors import ModelError
from qcards.execution.backends import parse_backend
from qcards.execution.budget import check_shot_memory
from qcards.execution.transpile import measured_circuit, outcome_counts
from qcards.skat.position.stages import Stage


def sample_stages(
    game: GameCircuit,
    stages: Sequence[Stage],
    shots: int = 1000,
    seed: int | None = None,
    target: str = "aer",
) -> dict[Stage, dict[int, int]]:
    """Measure the registers after each stage, ``shots`` times per stage, on a local backend."""
    parsed = parse_backend(target)
    parsed.check_capacity(game.num_qubits)
    backend, sampler = parsed.sampler(seed)
    circuits = [measured_circuit(game, stage) for stage in stages]
    check_shot_memory(shots, max(qc.num_clbits for qc in circuits), len(circuits))
    if backend is not None:
        # one call for all stages: one pass manager (building it cost more than running it)
        circuits = transpile(circuits, backend)
    results = sampler.run(circuits, shots=shots).result()
    return {stage: outcome_counts(res) for stage, res in zip(stages, results, strict=True)}


class TranspilingSampler(BaseSamplerV2):
    """A SamplerV2 that transpiles every circuit for ``target`` before handing it on.

    qiskit-algorithms 0.4.0 takes a ``transpiler`` argument, but its maximum-likelihood
    estimator transpiles only the first circuit of its schedule and then iterates over that
    circuit's instructions (``mlae.py``: ``self._transpiler.run(circuits[0])``); transpiling in
    the sampler works for all three estimators.
    """

    def __init__(self, sampler: BaseSamplerV2, target) -> None:
        self.sampler = sampler
        self.target = target

    @property
    def default_shots(self) -> int:
        return self.sampler.default_shots

    def run(self, pubs, *, shots: int | None = None):
        parts = [pub if isinstance(pub, tuple) else (pub,) for pub in pubs]
        # one call for every circuit: one pass manager (building it cost more than running it)
        circuits = transpile([circuit for circuit, *_ in parts], self.target, optimization_level=1)
        prepared = [(c, *rest) for c, (_, *rest) in zip(circuits, parts, strict=True)]
        return self.sampler.run(prepared, shots=shots)


def default_sampler(
    backend: str = "ddsim", shots: int = 100, seed: int | None = None
) -> BaseSamplerV2:
    """A SamplerV2 that transpiles for, and runs on, the named backend.

    ``ddsim`` is MQT DDSIM's decision-diagram sampler: the game states are sums of few
    orthogonal paths, which decision diagrams store compactly, and a Grover power runs about
    a hundred times faster than on Aer's dense statevector (``benchmarks/bench_counting.py``).
    Any other local or ``fake:`` backend of :mod:`qcards.execution.backends` works too.
    """
    target = parse_backend(backend)
    if target.is_hardware:
        raise ModelError(
            f"backend {backend!r}: amplitude estimation runs a chain of dependent circuits and "
            "is not offered on IBM hardware (a single run is; a fake: device emulates it)"
        )
    transpile_target, sampler = target.sampler(seed, shots)
    if transpile_target is None:
        return sampler
    return TranspilingSampler(sampler, transpile_target)
