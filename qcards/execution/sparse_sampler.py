"""A ``BaseSamplerV2`` on qcards' exact sparse engine (:mod:`qcards.execution.sparse`).

Every pub is simulated exactly (the state is kept as its nonzero amplitudes), the final
measurements are read off the exact distribution of the measured qubits, and the shots are drawn
from it with numpy's seeded generator. This is what amplitude estimation runs on with the
``sparse`` target: the Grover powers (A, its inverse and the reflections) are applied to the
sparse state gate by gate, with no transpilation, so multi-controlled gates stay whole.
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np
from qiskit.circuit import QuantumCircuit
from qiskit.primitives import BaseSamplerV2, PrimitiveResult, SamplerPubResult
from qiskit.primitives.containers import BitArray, DataBin
from qiskit.primitives.containers.sampler_pub import SamplerPub
from qiskit.primitives.primitive_job import PrimitiveJob

from qcards.errors import ParameterError, ResourceError
from qcards.execution.sparse import SparseMemoryError, simulate


def split_measurements(circuit: QuantumCircuit) -> tuple[QuantumCircuit, list[int], list[int]]:
    """The circuit without its final measurements, and the measured (qubits, clbits) in order.

    A measurement followed by any other operation on its qubit is refused: the engine is exact
    on unitary circuits only.
    """
    body = circuit.copy_empty_like()
    qubits, clbits = [], []
    measured: set[int] = set()
    for inst in circuit.data:
        indices = [circuit.find_bit(q).index for q in inst.qubits]
        if inst.operation.name == "measure":
            qubits.append(indices[0])
            clbits.append(circuit.find_bit(inst.clbits[0]).index)
            measured.add(indices[0])
        elif inst.operation.name == "barrier":
            continue
        elif measured.intersection(indices) or inst.clbits:
            raise ResourceError(
                f"the sparse engine runs unitary circuits with final measurements; "
                f"{inst.operation.name!r} follows a measurement or uses classical bits"
            )
        else:
            body.append(inst)
    return body, qubits, clbits


class SparseSampler(BaseSamplerV2):
    """Exact simulation on the sparse engine, then ``shots`` samples of the measured bits.

    Args:
        default_shots: shots of a pub that names none.
        seed: seed of the sampling generator (the simulation itself is deterministic).
        max_bytes: the engine's memory budget (:func:`qcards.execution.sparse.simulate`).
    """

    def __init__(
        self, default_shots: int = 1024, seed: int | None = None, max_bytes: int | None = None
    ) -> None:
        self.default_shots = default_shots
        self._rng = np.random.default_rng(seed)
        self._max_bytes = max_bytes

    def run(self, pubs: Iterable, *, shots: int | None = None) -> PrimitiveJob:
        coerced = [SamplerPub.coerce(pub, shots or self.default_shots) for pub in pubs]
        job = PrimitiveJob(self._run, coerced)
        job._submit()
        return job

    def _run(self, pubs: list[SamplerPub]) -> PrimitiveResult:
        return PrimitiveResult([self._run_pub(pub) for pub in pubs], metadata={"version": 2})

    def _run_pub(self, pub: SamplerPub) -> SamplerPubResult:
        if pub.parameter_values.num_parameters:
            raise ParameterError("pubs", "the sparse sampler takes circuits without parameters")
        circuit = pub.circuit
        body, qubits, clbits = split_measurements(circuit)
        options = {} if self._max_bytes is None else {"max_bytes": self._max_bytes}
        try:
            state = simulate(body, **options)
        except SparseMemoryError as exc:
            raise ResourceError(f"sparse engine: {exc}") from None
        distribution = state.probabilities(qubits)
        outcomes = np.fromiter(distribution, dtype=object, count=len(distribution))
        weights = np.fromiter(distribution.values(), dtype=float, count=len(distribution))
        drawn = self._rng.choice(len(outcomes), size=pub.shots, p=weights / weights.sum())
        data = {}
        for creg in circuit.cregs:
            # bit k of the register is its k-th clbit, written by the qubit measured into it
            # (outcome bit ``pos`` of the distribution)
            where = {circuit.find_bit(bit).index: k for k, bit in enumerate(creg)}
            moves = [(pos, where[c]) for pos, c in enumerate(clbits) if c in where]
            value = [sum(((int(s) >> pos) & 1) << k for pos, k in moves) for s in outcomes]
            data[creg.name] = BitArray.from_samples([value[i] for i in drawn], creg.size)
        return SamplerPubResult(DataBin(**data), metadata={"shots": pub.shots, "exact": True})
