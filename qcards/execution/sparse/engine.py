"""Exact sparse-state simulation of circuits whose state keeps few nonzero amplitudes.

The game circuits prepare a sum over (deal, play path) pairs: almost every gate permutes basis
states (X, CX, MCX, SWAP, permutation matrices) and only a few branch (the deal's rotations,
the uniform choice among legal cards). The state therefore keeps about as many nonzero
amplitudes as there are play paths, however wide the circuit is. This module stores exactly
those: one row per basis state, its bits packed into ``np.uint64`` words, and a complex
amplitude per row (:class:`SparseState`). Every gate is applied to all rows at once with numpy:

* classical gates (X, CX, CCX, MCX with any ``ctrl_state``, (C)SWAP, permutation matrices)
  rewrite the bits in place; the control test of a multi-controlled gate is one AND and one
  compare per 64-qubit word, whatever the number of controls. X itself costs nothing: flips
  are kept as a pending XOR mask that the control tests and readouts take into account;
* diagonal gates (Z, S, T, P, RZ, CZ, CP, CCZ, MCPhase, ...) multiply amplitudes; the global
  phase (of the circuit and of every definition) is one scalar;
* a (multi-)controlled or uniformly controlled (UCRY, UCRZ, UCGate) single-qubit unitary
  scales the rows it acts on in place and appends a copy with the target flipped where its
  matrix column has two nonzero entries (matrix entries of modulus <= :data:`CHOP` count as
  zero: RY(pi) flips without branching);
* any other gate with a matrix of at most :data:`MAX_LOCAL_QUBITS` qubits (``UnitaryGate``,
  two-qubit standard gates) is applied through its matrix, each row splitting into the nonzero
  entries of its column; everything else is simulated through ``op.definition`` (Qiskit's
  own decomposition), recursively, so every measurement-free circuit runs. Multi-controlled
  gates are never decomposed.

Rows of the same basis state (made by branching) are merged lazily: when the rows have grown
to :data:`MERGE_GROWTH` times the count after the last merge, before a branching step would
pass the memory guard, and before any readout. A merge hashes each row's words to one
``uint64``, sorts the hashes (``argsort``), checks that equal hashes have equal words (falling
back to an exact ``lexsort`` on a collision), sums the amplitudes of each group and drops rows
with ``|a|^2 <`` :data:`DROP_PROB`.

A gate object with a method ``sparse_apply(state, qubits)`` is applied by that method instead
(the hook for gates that know their classical action: every game gate,
:mod:`qcards.circuits.gates.classical`); pending flips and the global phase are folded into the
rows before it is called, so it sees the plain bits and amplitudes. The state offers such
actions :meth:`SparseState.match`, ``read``/``write``, ``flip``, ``expand`` (row splitting) and,
for rows outside what an action describes, ``split_off``/``run_definition``/``absorb``.

Why hand-written, and how it compares (``benchmarks/results/engines.md``): on the same
decomposed twelve-card circuit this engine took 6.9 s, Microsoft's sparse simulator
(``qsharp``) 10.1 s -- within 2x -- MQT DDSIM 180 s, and Aer MPS and Qrack did not finish in
200 s (Qrack's CPU build is also single precision). The engine's own advantage is running the
game circuits undecomposed: multi-controlled and uniformly controlled gates kept whole take
0.18 s on the same endgame. It also reads out every nonzero amplitude directly, refuses a state
too large for memory before allocating it (:class:`SparseMemoryError`), has no width limit,
and lets gates supply their classical action (``sparse_apply``).

The engine is three modules: the state (:mod:`qcards.execution.sparse.state`: storage,
growth, merging, the classical-action API, readout and the memory model), the kernels
(:mod:`qcards.execution.sparse.kernels`: numpy passes over every row) and the circuit compiler
(:mod:`qcards.execution.sparse.compiler`: instructions into step objects, each with ``apply``
and ``relocate``). This module runs whole circuits (:func:`simulate`,
:func:`simulate_prefixes`) and re-exports the names the rest of qcards uses. Only numpy and
Qiskit are imported.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from qiskit.circuit import QuantumCircuit

from qcards.execution.sparse.compiler import Compiler, Step, compile_circuit
from qcards.execution.sparse.cost import (
    DECK,
    DEFAULT_MAX_BYTES,
    SparseMemoryError,
    estimate_bytes,
    rows_for_bytes,
)
from qcards.execution.sparse.kernels import CHOP
from qcards.execution.sparse.state import DROP_PROB, SparseState

__all__ = [
    "CHOP",
    "DECK",
    "DEFAULT_MAX_BYTES",
    "DROP_PROB",
    "Compiler",
    "SparseMemoryError",
    "SparseState",
    "Step",
    "action_cards",
    "compile_circuit",
    "estimate_bytes",
    "rows_for_bytes",
    "simulate",
    "simulate_prefixes",
]


def simulate_prefixes(
    circuit: QuantumCircuit,
    lengths: Sequence[int],
    max_rows: int | None = None,
    max_bytes: int | None = None,
    classical_actions: bool = True,
) -> Iterator[SparseState]:
    """Run ``circuit`` once, yielding the state (merged) after its first ``lengths[i]``
    instructions, for increasing ``lengths``: the stages of a game circuit in one pass.

    The same :class:`SparseState` object is yielded each time and advanced afterwards; read what
    you need from it before asking for the next prefix. ``classical_actions``: as in
    :func:`simulate`.
    """
    n = circuit.num_qubits
    if max_rows is None:
        max_rows = rows_for_bytes(max_bytes or DEFAULT_MAX_BYTES, n, action_cards(circuit))
    state = SparseState(n, max_rows=max_rows)
    compiler = Compiler(classical_actions)
    done = 0
    if circuit.global_phase:
        state.global_phase(float(circuit.global_phase))
    for length in lengths:
        if length < done:
            raise ValueError(f"prefix lengths must not decrease ({length} after {done})")
        part = circuit.copy_empty_like()
        part.global_phase = 0
        for inst in circuit.data[done:length]:
            part.append(inst)
        state.run(compiler.circuit_steps(part))
        done = length
        state.merge()
        yield state


def action_cards(circuit: QuantumCircuit) -> int:
    """The cards the classical actions of ``circuit`` work with (for :func:`estimate_bytes`):
    the most of any instruction's ``layout.cards`` (the game gates'), 0 without game gates."""
    return max(
        (len(getattr(getattr(i.operation, "layout", None), "cards", ())) for i in circuit.data),
        default=0,
    )


def simulate(
    circuit: QuantumCircuit,
    max_rows: int | None = None,
    max_bytes: int | None = None,
    classical_actions: bool = True,
) -> SparseState:
    """Run ``circuit`` (no measurements or resets) from ``|0...0>`` exactly.

    Args:
        circuit: the circuit.
        max_rows: the most rows the state may hold (default: as many as fit ``max_bytes``
            by :func:`estimate_bytes`); beyond it :class:`SparseMemoryError` is raised
            before the rows are allocated.
        max_bytes: the memory budget used when ``max_rows`` is not given.
        classical_actions: apply gates with a ``sparse_apply`` method through it (one
            vectorized step; :mod:`qcards.circuits.gates.classical`); False runs every gate's
            definition instead, for comparisons.
    """
    n = circuit.num_qubits
    if max_rows is None:
        max_rows = rows_for_bytes(max_bytes or DEFAULT_MAX_BYTES, n, action_cards(circuit))
    state = SparseState(n, max_rows=max_rows)
    state.run(compile_circuit(circuit, classical_actions))
    state.merge()
    return state
