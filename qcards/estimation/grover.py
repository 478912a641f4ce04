"""The circuits of amplitude estimation: controlled Grover powers, phase estimation, and the
marker circuits that stand for them on qcards' sparse engine.

Game-agnostic: each takes an ``EstimationProblem`` (Skat's win circuit, Go Fish's deal
count, ...). The estimators that use them are the records of :mod:`qcards.estimation.algorithms`.
"""

from __future__ import annotations

from qiskit import ClassicalRegister, QuantumCircuit, QuantumRegister
from qiskit.circuit.library import PermutationGate, QFTGate
from qiskit_algorithms import EstimationProblem

from qcards.execution.sparse.sampler import GROVER_POWER, PHASE_ESTIMATION, problem_width


def controlled_grover_power(problem: EstimationProblem, power: int) -> QuantumCircuit:
    r"""Controlled :math:`Q^{power}` on (control, state qubits), Q as Qiskit's ``grover_operator``.

    :math:`Q = -A S_0 A^\dagger S_\chi`. Only the reflections and the sign need the control:
    with the control off, :math:`A A^\dagger = 1`. Controlling A itself, as the generic
    ``Gate.control()`` does, multiplies the circuit about thirty-fold for the game circuits
    (every multi-controlled gate gains a control and is re-synthesised); this keeps a
    controlled Grover step at the cost of two uncontrolled A's.
    """
    a_op = problem.state_preparation
    n = a_op.num_qubits
    control = QuantumRegister(1, "control")
    state = QuantumRegister(n, "state")
    qc = QuantumCircuit(control, state, name=f"c-Q^{power}")
    objective = problem.objective_qubits
    a_gate = a_op.to_gate(label="A")
    a_inverse = a_gate.inverse()
    for _ in range(power):
        for q in objective:  # controlled S_chi: phase -1 on the good states
            qc.cz(control[0], state[q])
        qc.append(a_inverse, state)
        qc.x(state)  # controlled S_0 = 1 - 2|0><0|
        qc.h(state[n - 1])
        qc.mcx([control[0], *state[: n - 1]], state[n - 1])
        qc.h(state[n - 1])
        qc.x(state)
        qc.append(a_gate, state)
        qc.z(control[0])  # the global phase -1 of Q, controlled
    return qc


def phase_estimation_circuit(problem: EstimationProblem, num_eval: int) -> QuantumCircuit:
    """Phase estimation of Q with ``num_eval`` qubits, laid out as Qiskit's ``phase_estimation``
    (evaluation register first, inverse QFT then bit reversal), with cheap controlled powers."""
    n = problem.state_preparation.num_qubits
    evaluation = QuantumRegister(num_eval, "eval")
    state = QuantumRegister(n, "q")
    qc = QuantumCircuit(evaluation, state, name="phase_estimation")
    qc.h(evaluation)
    for j in range(num_eval):
        qc.compose(controlled_grover_power(problem, 2**j), [evaluation[j], *state], inplace=True)
    qc.append(QFTGate(num_eval).inverse(), evaluation)
    qc.append(PermutationGate(list(reversed(range(num_eval)))), evaluation)
    return qc


def power_marker(problem: EstimationProblem, k: int, measurement: bool) -> QuantumCircuit:
    r"""A circuit standing for :math:`Q^k A|0\rangle` (objective qubits measured), for a
    :class:`~qcards.execution.sparse.sampler.GroverSampler`: its gates are not built."""
    circuit = QuantumCircuit(
        problem_width(problem), name=f"marker_q{k}", metadata={GROVER_POWER: k}
    )
    if measurement:
        register = ClassicalRegister(len(problem.objective_qubits))
        circuit.add_register(register)
        circuit.measure(problem.objective_qubits, register[:])
    return circuit


def phase_estimation_marker(
    problem: EstimationProblem, num_eval: int, measurement: bool
) -> QuantumCircuit:
    """A circuit standing for :func:`phase_estimation_circuit` (evaluation register measured),
    for a :class:`~qcards.execution.sparse.sampler.GroverSampler`: its gates are not built."""
    width = problem_width(problem)
    circuit = QuantumCircuit(
        num_eval + width, name="marker_qpe", metadata={PHASE_ESTIMATION: num_eval}
    )
    if measurement:
        register = ClassicalRegister(num_eval)
        circuit.add_register(register)
        circuit.measure(list(range(num_eval)), list(range(num_eval)))
    return circuit
