"""The exact decision-diagram method: support from the diagram, amplitudes exact, certified."""

from __future__ import annotations

import math

import pytest
from qiskit import QuantumCircuit

from qcards.errors import ResourceError
from qcards.execution import ddsim as dd_target


def _sparse_circuit() -> QuantumCircuit:
    qc = QuantumCircuit(5)
    qc.h(0)
    qc.ry(0.8, 3)
    qc.cx(0, 2)
    qc.cry(1.1, 3, 4)
    return qc


EXPECTED = {
    0b00000: math.cos(0.4),
    0b00101: math.cos(0.4),
    0b01000: math.sin(0.4) * math.cos(0.55),
    0b01101: math.sin(0.4) * math.cos(0.55),
    0b11000: math.sin(0.4) * math.sin(0.55),
    0b11101: math.sin(0.4) * math.sin(0.55),
}


def test_dd_support_reads_every_nonzero_path():
    qc = _sparse_circuit()
    amps = dd_target.dd_amplitudes(qc, qc.qubits)
    assert set(amps) == set(EXPECTED)
    for k, v in EXPECTED.items():
        assert abs(amps[k] - v / math.sqrt(2)) < 1e-12


def test_dd_support_is_used_not_the_sampling_fallback(monkeypatch):
    """The diagram walk must work on this DDSIM version: sampling is only a fallback."""

    def no_sampling(*args, **kwargs):
        raise AssertionError("sampling fallback used")

    qc = _sparse_circuit()
    from mqt import ddsim

    real = ddsim.CircuitSimulator

    class Guard(real):
        def simulate(self, shots):
            if shots > 1:
                no_sampling()
            return super().simulate(shots)

    monkeypatch.setattr(ddsim, "CircuitSimulator", Guard)
    assert len(dd_target.dd_amplitudes(qc, qc.qubits)) == len(EXPECTED)


def test_sampling_fallback_gives_the_same_amplitudes(monkeypatch):
    monkeypatch.setattr(dd_target, "_dd_support", lambda diagram, n: None)
    qc = _sparse_circuit()
    amps = dd_target.dd_amplitudes(qc, qc.qubits)
    assert set(amps) == set(EXPECTED)


def test_unclean_ancilla_is_refused():
    qc = QuantumCircuit(2)
    qc.h(0)
    qc.cx(0, 1)
    with pytest.raises(ResourceError, match="ancilla"):
        dd_target.dd_amplitudes(qc, [qc.qubits[0]])


def test_outcome_bits_follow_the_requested_qubits():
    qc = QuantumCircuit(3)
    qc.x(2)
    assert dd_target.dd_probabilities(qc, [qc.qubits[2], qc.qubits[0], qc.qubits[1]]) == {1: 1.0}
