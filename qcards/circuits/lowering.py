"""Circuits lowered to the basis {cx, u}, the basis gate counts are reported in."""

from __future__ import annotations

from qiskit import QuantumCircuit
from qiskit.converters import circuit_to_dag

LOWERED_BASIS = ("cx", "u")
"""The basis gate counts are reported in when no device decides it."""


def lower(circuit: QuantumCircuit) -> QuantumCircuit:
    """``circuit`` in the basis {cx, u}, unrouted, gates in their order (no optimisation)."""
    from qiskit import transpile

    return transpile(circuit, basis_gates=list(LOWERED_BASIS), optimization_level=0)


def depth(circuit: QuantumCircuit) -> int:
    """Circuit depth, as ``QuantumCircuit.depth()`` but through the DAG's longest path (in Rust);
    the Python loop of ``QuantumCircuit.depth`` took three quarters of a full-game count."""
    return circuit_to_dag(circuit).depth()
