"""Circuits lowered to the basis {cx, u}, the basis gate counts are reported in."""

from __future__ import annotations

import threading

from qiskit import QuantumCircuit
from qiskit.converters import circuit_to_dag
from qiskit.transpiler import PassManager

LOWERED_BASIS = ("cx", "u")
"""The basis gate counts are reported in when no device decides it."""


_PASS_MANAGERS = threading.local()


def _lowering() -> PassManager:
    """The calling thread's pass manager of :func:`lower`, built once: ``transpile`` builds Qiskit's
    preset pass manager (with its plugin lookup) at every call, about 0.15 s, a hundred times
    the lowering of a small gate; the same preset gives the same circuits."""
    manager = getattr(_PASS_MANAGERS, "manager", None)
    if manager is None:
        from qiskit.transpiler import generate_preset_pass_manager

        manager = generate_preset_pass_manager(
            optimization_level=0, basis_gates=list(LOWERED_BASIS)
        )
        _PASS_MANAGERS.manager = manager
    return manager


def lower(circuit: QuantumCircuit) -> QuantumCircuit:
    """``circuit`` in the basis {cx, u}, unrouted, gates in their order (no optimisation)."""
    return _lowering().run(circuit)


def depth(circuit: QuantumCircuit) -> int:
    """Circuit depth, as ``QuantumCircuit.depth()`` but through the DAG's longest path (in Rust);
    the Python loop of ``QuantumCircuit.depth`` took three quarters of a full-game count."""
    return circuit_to_dag(circuit).depth()
