"""A ``BaseSamplerV2`` on qcards' exact sparse engine (:mod:`qcards.execution.sparse`).

Every pub is simulated exactly (the state is kept as its nonzero amplitudes), the final
measurements are read off the exact distribution of the measured qubits, and the shots are drawn
from it with numpy's seeded generator. This is what amplitude estimation runs on with the
``sparse`` target: the Grover powers (A, its inverse and the reflections) are applied to the
sparse state gate by gate, with no transpilation, so multi-controlled gates stay whole.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
from qiskit.circuit import QuantumCircuit
from qiskit.primitives import SamplerPubResult
from qiskit.primitives.containers import BitArray, DataBin
from qiskit.primitives.containers.sampler_pub import SamplerPub

from qcards.errors import ParameterError, ResourceError
from qcards.execution.local_sampler import LocalSampler
from qcards.execution.sparse.cost import sparse_memory_guard
from qcards.execution.sparse.engine import simulate
from qcards.plan import Plan, check

if TYPE_CHECKING:
    from qcards.execution.sparse.engine import SparseState


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


class SparseSampler(LocalSampler):
    """Exact simulation on the sparse engine, then ``shots`` samples of the measured bits.

    Args:
        default_shots: shots of a pub that names none.
        seed: seed of the sampling generator (the simulation itself is deterministic).
        max_bytes: the engine's memory budget (:func:`qcards.execution.sparse.engine.simulate`).
    """

    def __init__(
        self, default_shots: int = 1024, seed: int | None = None, max_bytes: int | None = None
    ) -> None:
        self.default_shots = default_shots
        self._rng = np.random.default_rng(seed)
        self._max_bytes = max_bytes

    def for_problem(self, problem) -> GroverSampler:
        """A sampler that answers the problem's Grover-power markers on a kept state."""
        return GroverSampler(problem, self)

    def _run_pub(self, pub: SamplerPub) -> SamplerPubResult:
        if pub.parameter_values.num_parameters:
            raise ParameterError("pubs", "the sparse sampler takes circuits without parameters")
        circuit = pub.circuit
        body, qubits, clbits = split_measurements(circuit)
        with sparse_memory_guard():
            state = simulate(body, max_bytes=self._max_bytes)
        outcomes, drawn = self._draw(state.probabilities(qubits), pub.shots)
        data = {}
        for creg in circuit.cregs:
            # bit k of the register is its k-th clbit, written by the qubit measured into it
            # (outcome bit ``pos`` of the distribution)
            where = {circuit.find_bit(bit).index: k for k, bit in enumerate(creg)}
            moves = [(pos, where[c]) for pos, c in enumerate(clbits) if c in where]
            value = [sum(((s >> pos) & 1) << k for pos, k in moves) for s in outcomes]
            data[creg.name] = BitArray.from_samples([value[i] for i in drawn], creg.size)
        return SamplerPubResult(DataBin(**data), metadata={"shots": pub.shots, "exact": True})

    def _draw(self, distribution: dict[int, float], shots: int) -> tuple[list[int], np.ndarray]:
        """The outcomes of ``distribution`` and ``shots`` indices into them, drawn with it."""
        outcomes = list(distribution)
        weights = np.array([distribution[o] for o in outcomes])
        return outcomes, self._rng.choice(len(outcomes), size=shots, p=weights / weights.sum())


def problem_width(problem) -> int:
    """Qubits of the state and of its Grover operator (which may add ancillas)."""
    return max(problem.state_preparation.num_qubits, problem.grover_operator.num_qubits)


GROVER_POWER = "qcards_grover_power"
"""Metadata key of a marker circuit meaning ``A Q^k |0>`` measured on the objective qubits."""

PHASE_ESTIMATION = "qcards_phase_estimation"
"""Metadata key of a marker circuit meaning phase estimation of Q with m evaluation qubits
(laid out as :func:`qcards.estimation.grover.phase_estimation_circuit`), evaluation register
measured."""


class GroverSampler(SparseSampler):
    """Amplitude estimation of one problem with the Grover powers applied to a kept sparse state.

    The estimators ask for :math:`Q^k A|0\\rangle` at growing k (and phase estimation for every
    :math:`Q^x`, x < 2^m). Built as circuits, each would repeat A and every Q before it; here A
    runs once, Q (Qiskit's Grover operator of the problem, compiled once for the engine) is
    applied to a copy of the latest state, and every power is kept as the exact distribution of
    the measured qubits. Circuits carrying the metadata :data:`GROVER_POWER` or
    :data:`PHASE_ESTIMATION` (made by :mod:`qcards.estimation.grover`) are answered this way;
    any other circuit is simulated as :class:`SparseSampler` does.

    Phase estimation uses the identity behind its circuit: with the evaluation register in
    uniform superposition and controlled powers, the state before the inverse QFT is
    :math:`M^{-1/2}\\sum_x |x\\rangle Q^x A|0\\rangle` (M = 2^m), so the inverse QFT is a
    discrete Fourier transform over x of each basis state's amplitudes; the tests compare it
    with the full circuit.
    """

    def __init__(self, problem, base: SparseSampler) -> None:
        super().__init__(base.default_shots, None, base._max_bytes)
        self._rng = base._rng  # one stream of samples, as the plain sampler would draw
        from qcards.execution.sparse.engine import compile_circuit

        grover = problem.grover_operator
        self._width = problem_width(problem)
        prep = QuantumCircuit(self._width)
        prep.compose(
            problem.state_preparation, range(problem.state_preparation.num_qubits), inplace=True
        )
        q = QuantumCircuit(self._width)
        q.compose(grover, range(grover.num_qubits), inplace=True)
        self._prep, self._q = compile_circuit(prep), compile_circuit(q)
        self._objective = list(problem.objective_qubits)
        self._latest: tuple[int, SparseState] | None = None  # (k, state after Q^k A)

    def _power(self, k: int):
        """The state ``Q^k A|0>`` (kept for the next, larger k)."""
        from qcards.execution.sparse.engine import SparseState, rows_for_bytes

        if self._latest is None or self._latest[0] > k:
            limit = self._max_bytes and rows_for_bytes(self._max_bytes, self._width)
            state = SparseState(self._width, max_rows=limit)
            state.run(self._prep)
            self._latest = (0, state)
        done, state = self._latest
        if done < k:
            state = state.copy()
            for _ in range(k - done):
                state.run(self._q)
            state.merge()
            self._latest = (k, state)
        return state

    def _distribution(self, k: int) -> dict[int, float]:
        return self._power(k).probabilities(self._objective)

    def _phase_distribution(self, m: int) -> dict[int, float]:
        """P(evaluation register = y) of phase estimation with m evaluation qubits."""
        size = 2**m
        amplitudes = []
        for x in range(size):
            state = self._power(x)
            amplitudes.append(state.amplitudes())
        support = sorted(set().union(*amplitudes))
        need = 3 * 16 * size * len(support)  # the table of amplitudes, its transform, a copy
        plan = Plan(
            f"phase estimation with {m} evaluation qubits",
            bytes=need,
            size=f"{size} powers x {len(support):,} basis states",
            ways=("use fewer {eval_qubits}", "iae or mlae"),
        )
        check(plan)
        psi = np.zeros((size, len(support)), dtype=complex)
        column = {s: i for i, s in enumerate(support)}
        for x, amps in enumerate(amplitudes):
            for s, a in amps.items():
                psi[x, column[s]] = a
        spectrum = np.fft.fft(psi, axis=0) / size  # inverse QFT over x, for every basis state
        weights = (np.abs(spectrum) ** 2).sum(axis=1)
        reverse = [int(format(k, f"0{m}b")[::-1], 2) for k in range(size)]  # the permutation
        return {reverse[k]: float(w) for k, w in enumerate(weights) if w > 1e-15}

    def _run_pub(self, pub: SamplerPub) -> SamplerPubResult:
        circuit = pub.circuit
        metadata = circuit.metadata or {}
        if GROVER_POWER not in metadata and PHASE_ESTIMATION not in metadata:
            return super()._run_pub(pub)
        with sparse_memory_guard():
            if GROVER_POWER in metadata:
                distribution = self._distribution(int(metadata[GROVER_POWER]))
            else:
                distribution = self._phase_distribution(int(metadata[PHASE_ESTIMATION]))
        creg = circuit.cregs[0]
        outcomes, drawn = self._draw(distribution, pub.shots)
        data = {creg.name: BitArray.from_samples([outcomes[i] for i in drawn], creg.size)}
        return SamplerPubResult(DataBin(**data), metadata={"shots": pub.shots, "exact": True})
