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

Only numpy and Qiskit are imported.
"""

from __future__ import annotations

import cmath
import math
from collections.abc import Callable, Iterator, Sequence

import numpy as np
from qiskit.circuit import ControlledGate, Gate, Instruction, QuantumCircuit
from qiskit.circuit.library import (
    GlobalPhaseGate,
    SwapGate,
    UCGate,
    UCPauliRotGate,
    UnitaryGate,
)

__all__ = [
    "CHOP",
    "DEFAULT_MAX_BYTES",
    "DROP_PROB",
    "AncillaError",
    "Compiler",
    "SparseMemoryError",
    "SparseState",
    "compile_circuit",
    "action_cards",
    "estimate_bytes",
    "simulate",
    "simulate_prefixes",
]

DROP_PROB = 1e-28
"""A merge drops rows whose ``|amplitude|**2`` is below this (exact cancellations leave ~1e-33)."""

CHOP = 1e-14
"""Gate-matrix entries of modulus at most this count as zero (cos(pi/2) = 6e-17 is no branch)."""

MERGE_GROWTH = 2.0
"""Merge duplicate rows once the row count reaches this multiple of the count after the last
merge."""

MAX_LOCAL_QUBITS = 10
"""Gates with a matrix (``__array__``) up to this width are applied through the matrix."""

DEFAULT_MAX_BYTES = 8 * 2**30
"""Default memory guard of :func:`simulate` (8 GiB of the machine's 24, through
:func:`estimate_bytes`); read when a simulation starts, so it can be lowered for a process."""

_SKIP = frozenset({"barrier", "delay"})
_REFUSE = frozenset({"measure", "reset", "initialize"})
_MASK64 = (1 << 64) - 1
_HASH_MULT = np.uint64(0x9E3779B97F4A7C15)


class SparseMemoryError(MemoryError):
    """A branching step would need more rows than allowed (raised before allocating them)."""

    def __init__(self, rows_needed: int, limit: int, num_qubits: int = 0) -> None:
        super().__init__(
            f"the sparse state would need {rows_needed} rows; the limit is {limit} rows"
        )
        self.rows_needed = rows_needed
        self.limit = limit
        self.num_qubits = num_qubits


class AncillaError(ValueError):
    """A qubit that should end in ``|0>`` carries probability on ``|1>``."""


def _words(num_qubits: int) -> int:
    return max(1, (num_qubits + 63) // 64)


ACTION_BYTES = 32
"""Bytes per row of a classical action's work arrays besides its cards' (masks, counters; the
game gates' ``sparse_apply``), rounded up from peak memory measured on the twelve- and
fifteen-card endgames (``tests/fuzz/test_hostile_input.py`` checks the model against it)."""

ACTION_BYTES_PER_CARD = 4
"""Bytes per row and card of a card play's work arrays (its ``(cards, rows)`` masks of held,
led and legal cards), rounded up likewise."""

DECK = 32
"""Cards of a Skat deck: the most a game circuit's classical actions work with."""


def estimate_bytes(rows: int, num_qubits: int, cards: int = DECK) -> int:
    """Peak bytes for ``rows`` rows of a state of ``num_qubits`` qubits whose gates' classical
    actions work with ``cards`` cards (a game's; the deck's 32 when not known, 0 for circuits
    without them), the largest of:

    - a branching step (``expand``, the card plays' uniform choice): the old rows and the new
      ones side by side, the parent index and amplitude scale of every new row, and the
      classical action's work arrays (:data:`ACTION_BYTES`, :data:`ACTION_BYTES_PER_CARD`);
    - a merge that finds duplicates: the state, its hash, sort order, sorted keys and flags,
      the sorted copies of words and amplitudes, and the merged result.

    Per row that is 160 bytes for the twelve-card endgame and 172 for the fifteen-card one,
    whose steps were measured to hold at most 140 and 142 (the state itself is 32); an earlier
    model, the state and a merge's temporaries (81 bytes), was half of what the card plays hold
    at their peak."""
    w = _words(num_qubits)
    state = 8 * w + 16
    expand = 2 * state + 8 + 8 + ACTION_BYTES + ACTION_BYTES_PER_CARD * cards
    merge = 3 * state + 8 + 8 + 8 + 1 + 2 * w
    return rows * max(expand, merge)


def rows_for_bytes(max_bytes: int, num_qubits: int, cards: int = DECK) -> int:
    """The most rows :func:`estimate_bytes` fits in ``max_bytes``."""
    return max(1, max_bytes // estimate_bytes(1, num_qubits, cards))


def _chop(matrix: np.ndarray) -> np.ndarray:
    m = np.array(matrix, dtype=complex)
    m[np.abs(m) <= CHOP] = 0
    return m


class SparseState:
    """A state as rows of (basis state, amplitude); starts in ``|0...0>``.

    Attributes:
        num_qubits: the width.
        max_rows: the memory guard (:class:`SparseMemoryError` beyond it).

    The packed bits are :attr:`bits` (``np.uint64``, shape ``(rows, words)``, qubit ``i`` is
    bit ``i % 64`` of word ``i // 64``) and the amplitudes :attr:`amps`; both are plain (no
    pending flip or phase) when read through these properties. Rows may repeat a basis state
    until :meth:`merge`.
    """

    def __init__(self, num_qubits: int, max_rows: int | None = None) -> None:
        if num_qubits < 0:
            raise ValueError("num_qubits must be >= 0")
        self.num_qubits = num_qubits
        self.num_words = _words(num_qubits)
        self.max_rows = (
            rows_for_bytes(DEFAULT_MAX_BYTES, num_qubits) if max_rows is None else max_rows
        )
        # words-major storage: each word column is contiguous; ``bits`` is its transpose
        self._w = np.zeros((self.num_words, 1), dtype=np.uint64)
        self._a = np.ones(1, dtype=complex)
        self._flip = [0] * self.num_words  # pending X on every row (python ints)
        self._phase = 1.0 + 0j  # pending global phase
        self._merged_rows = 1
        self.peak_rows = 1

    # ----------------------------------------------------------------- raw access
    @property
    def num_rows(self) -> int:
        """Rows held now (duplicates included; see :attr:`num_nonzero`)."""
        return self._a.shape[0]

    @property
    def bits(self) -> np.ndarray:
        """The packed basis states, shape ``(rows, words)`` (a view after folding flips)."""
        self.fold()
        return self._w.T

    @property
    def amps(self) -> np.ndarray:
        """The amplitude of every row (after folding the global phase)."""
        self.fold()
        return self._a

    def set_rows(self, bits: np.ndarray, amps: np.ndarray) -> None:
        """Replace the rows (``bits`` of shape ``(rows, words)``); for :meth:`sparse_apply`."""
        bits = np.asarray(bits, dtype=np.uint64)
        amps = np.asarray(amps, dtype=complex)
        if bits.ndim != 2 or bits.shape[1] != self.num_words or bits.shape[0] != amps.shape[0]:
            raise ValueError("bits must have shape (rows, words) matching amps")
        self._check_rows(bits.shape[0])
        self._w = np.array(bits.T, order="C")  # a copy: later gates write into it
        self._a = amps.copy()
        self._flip = [0] * self.num_words
        self._phase = 1.0 + 0j
        self._note_rows()

    def copy(self) -> SparseState:
        """An independent copy (rows, pending flips and phase, memory guard)."""
        other = SparseState.__new__(SparseState)
        other.__dict__.update(self.__dict__)
        other._w = self._w.copy()
        other._a = self._a.copy()
        other._flip = list(self._flip)
        return other

    def run(self, steps: Sequence[Step]) -> None:
        """Apply compiled steps (:func:`compile_circuit`) to this state."""
        for fn, args in steps:
            fn(self, *args)

    def read(self, qubits: Sequence[int]) -> np.ndarray:
        """The integer held by ``qubits`` (bit k = qubits[k]) on every row, for classical
        actions (:meth:`sparse_apply` hooks)."""
        return self._index(qubits).astype(np.int64)

    def write(self, qubits: Sequence[int], values: np.ndarray) -> None:
        """Set ``qubits`` to ``values`` (bit k -> qubits[k]) on every row: the rest of a
        reversible classical action; the caller keeps the map a permutation of basis states."""
        self._set_local(qubits, np.asarray(values).astype(np.uint64))

    def fold(self) -> None:
        """Apply the pending flips and global phase to the rows."""
        for w, f in enumerate(self._flip):
            if f:
                self._w[w] ^= np.uint64(f)
                self._flip[w] = 0
        if self._phase != 1:
            self._a *= self._phase
            self._phase = 1.0 + 0j

    # ----------------------------------------------------------------- for classical actions
    def match(self, qubits: Sequence[int], values: Sequence[int]) -> np.ndarray:
        """Rows (bool mask) where every ``qubits[k]`` holds ``values[k]``; all rows if none."""
        cond = self._cond(list(qubits), sum(int(v) << k for k, v in enumerate(values)))
        return np.ones(self.num_rows, dtype=bool) if cond is None else cond

    def flip(self, qubit: int, where: np.ndarray | slice | None = None) -> None:
        """X on ``qubit`` in the rows ``where``: a bool mask or a slice (every row if None)."""
        if where is None:
            self.x(qubit)
            return
        w, b = divmod(qubit, 64)
        col = self._w[w]
        if isinstance(where, slice):
            col[where] ^= np.uint64(1 << b)
        else:
            np.bitwise_xor(col, np.uint64(1 << b), out=col, where=where)

    def expand(self, parents: np.ndarray, scale: np.ndarray | complex = 1.0) -> None:
        """Row splitting: the rows become copies of rows ``parents`` (indices, repeats allowed),
        amplitudes times ``scale``; the caller then makes the copies differ. Raises
        :class:`SparseMemoryError` before allocating more rows than allowed."""
        parents = np.asarray(parents, dtype=np.intp)
        self._check_rows(parents.size)
        self._w = self._w[:, parents]
        amps = self._a[parents]
        amps *= scale  # in place: no second array of the new size
        self._a = amps
        self._note_rows()

    def split_off(self, rows: np.ndarray) -> SparseState:
        """Remove the rows of the bool mask ``rows`` and return them as a state of their own."""
        self.fold()
        other = SparseState.__new__(SparseState)
        other.__dict__.update(self.__dict__)
        other._flip = list(self._flip)
        other._w = self._w[:, rows]
        other._a = self._a[rows]
        keep = ~rows
        self._w = np.ascontiguousarray(self._w[:, keep])
        self._a = self._a[keep]
        return other

    def absorb(self, other: SparseState) -> None:
        """Append the rows of ``other`` (same width), e.g. rows set aside by :meth:`split_off`."""
        self.fold()
        other.fold()
        self._check_rows(self.num_rows + other.num_rows)
        self._w = np.concatenate([self._w, other._w], axis=1)
        self._a = np.concatenate([self._a, other._a])
        self._note_rows()

    def run_definition(self, op: Instruction, qubits: Sequence[int]) -> None:
        """Apply ``op`` on ``qubits`` through its Qiskit definition, ignoring any
        ``sparse_apply`` of its own: what a classical action falls back to outside the basis
        states it describes."""
        definition = op.definition
        if definition is None:
            raise ValueError(f"the sparse engine cannot simulate {op.name!r}: no definition")
        q = tuple(qubits)
        for fn, args in Compiler().circuit_steps(definition):
            fn(self, *_remap(fn, args, q))

    def _note_rows(self) -> None:
        self.peak_rows = max(self.peak_rows, self.num_rows)

    def _check_rows(self, needed: int) -> None:
        if needed > self.max_rows:
            raise SparseMemoryError(needed, self.max_rows, self.num_qubits)

    def _reserve(self, extra: int) -> bool:
        """True if ``extra`` more rows fit; merges first if they do not. Raises when even a
        merged state has no room. False: the caller must recompute (the rows changed)."""
        if self.num_rows + extra <= self.max_rows:
            return True
        before = self.num_rows
        self.merge()
        if self.num_rows == before:
            raise SparseMemoryError(before + extra, self.max_rows, self.num_qubits)
        return False

    # ----------------------------------------------------------------- bit helpers
    def _bit(self, q: int) -> np.ndarray:
        """Actual value of qubit ``q`` on every row (uint64 0/1)."""
        w, b = divmod(q, 64)
        col = (self._w[w] >> np.uint64(b)) & np.uint64(1)
        if (self._flip[w] >> b) & 1:
            col ^= np.uint64(1)
        return col

    def _index(self, qubits: Sequence[int]) -> np.ndarray:
        """Local index of ``qubits`` on every row (bit k = qubits[k]), as intp."""
        idx = np.zeros(self.num_rows, dtype=np.uint64)
        for k, q in enumerate(qubits):
            b = self._bit(q)
            if k:
                b <<= np.uint64(k)
            idx |= b
        return idx.astype(np.intp)

    def _cond(self, controls: Sequence[int], ctrl_state: int) -> np.ndarray | None:
        """Rows where ``controls`` hold ``ctrl_state`` (bit k = controls[k]); None = all rows."""
        if not controls:
            return None
        masks: dict[int, list[int]] = {}
        for k, q in enumerate(controls):
            w, b = divmod(q, 64)
            m = masks.setdefault(w, [0, 0])
            m[0] |= 1 << b
            m[1] |= ((ctrl_state >> k) & 1) << b
        cond = None
        for w, (mask, val) in masks.items():
            val ^= self._flip[w] & mask
            col = self._w[w]
            if mask == val:  # all ones wanted: (col & mask) == mask
                c = np.bitwise_and(col, np.uint64(mask)) == np.uint64(mask)
            elif val == 0 and mask & (mask - 1) == 0:
                c = np.bitwise_and(col, np.uint64(mask)) == 0
            else:
                c = np.bitwise_and(col, np.uint64(mask)) == np.uint64(val)
            cond = c if cond is None else np.logical_and(cond, c, out=cond)
        return cond

    def _set_local(self, qubits: Sequence[int], values: np.ndarray) -> None:
        """Write local index ``values`` (bit k -> qubits[k]) into every row."""
        _write_local(self._w, self._flip, qubits, values)

    # ----------------------------------------------------------------- classical gates
    def x(self, q: int) -> None:
        """Pauli X (a pending flip: no pass over the rows)."""
        w, b = divmod(q, 64)
        self._flip[w] ^= 1 << b

    def mcx(self, controls: Sequence[int], target: int, ctrl_state: int | None = None) -> None:
        """Multi-controlled X; ``ctrl_state`` bit k is the value wanted on controls[k]
        (default all ones). Covers CX and CCX."""
        if ctrl_state is None:
            ctrl_state = (1 << len(controls)) - 1
        cond = self._cond(controls, ctrl_state)
        if cond is None:
            self.x(target)
            return
        w, b = divmod(target, 64)
        col = self._w[w]
        np.bitwise_xor(col, np.uint64(1 << b), out=col, where=cond)

    def swap(
        self, a: int, b: int, controls: Sequence[int] = (), ctrl_state: int | None = None
    ) -> None:
        """(Controlled) SWAP of qubits a and b."""
        if ctrl_state is None:
            ctrl_state = (1 << len(controls)) - 1
        diff = self._bit(a) != self._bit(b)
        cond = self._cond(controls, ctrl_state)
        if cond is not None:
            diff &= cond
        for q in (a, b):
            w, bb = divmod(q, 64)
            col = self._w[w]
            np.bitwise_xor(col, np.uint64(1 << bb), out=col, where=diff)

    def permute(self, qubits: Sequence[int], perm: Sequence[int], phases=None) -> None:
        """Classical map on ``qubits``: local basis state j -> perm[j] (times phases[j])."""
        perm = np.asarray(perm, dtype=np.intp)
        idx = self._index(qubits)
        if np.any(perm != np.arange(perm.size)):
            self._set_local(qubits, perm[idx])
        if phases is not None:
            ph = np.asarray(phases, dtype=complex)
            if np.any(ph != 1):
                self._a *= ph[idx]

    # ----------------------------------------------------------------- phases
    def global_phase(self, phi: float) -> None:
        self._phase *= cmath.exp(1j * phi)

    def diagonal(self, qubits: Sequence[int], diag: Sequence[complex]) -> None:
        """Multiply each row by ``diag[local index of qubits]``."""
        d = np.asarray(diag, dtype=complex)
        if d.size == 1:
            self._phase *= complex(d[0])
            return
        self._a *= d[self._index(qubits)]

    # ----------------------------------------------------------------- branching gates
    def unitary_1q(
        self,
        target: int,
        matrix,
        controls: Sequence[int] = (),
        ctrl_state: int | None = None,
    ) -> None:
        """A single-qubit unitary on ``target``, controlled on ``controls`` == ``ctrl_state``."""
        m = _chop(matrix)
        if ctrl_state is None:
            ctrl_state = (1 << len(controls)) - 1
        if m[0, 1] == 0 and m[1, 0] == 0:  # diagonal
            if m[0, 0] == 1 and m[1, 1] == 1:
                return
            cond = self._cond(controls, ctrl_state)
            if cond is None and m[0, 0] == m[1, 1]:
                self._phase *= complex(m[0, 0])
                return
            factor = np.where(self._bit(target).astype(bool), m[1, 1], m[0, 0])
            if cond is None:
                self._a *= factor
            else:
                np.multiply(self._a, factor, out=self._a, where=cond)
            return
        if m[0, 0] == 0 and m[1, 1] == 0:  # anti-diagonal: flip and scale
            cond = self._cond(controls, ctrl_state)
            if not (m[1, 0] == 1 and m[0, 1] == 1):
                factor = np.where(self._bit(target).astype(bool), m[0, 1], m[1, 0])
                if cond is None:
                    self._a *= factor
                else:
                    np.multiply(self._a, factor, out=self._a, where=cond)
            w, b = divmod(target, 64)
            if cond is None:
                self._flip[w] ^= 1 << b
            else:
                col = self._w[w]
                np.bitwise_xor(col, np.uint64(1 << b), out=col, where=cond)
            return
        mats = np.stack([np.eye(2, dtype=complex), m])
        while True:
            cond = self._cond(controls, ctrl_state)
            sel = None if cond is None else np.flatnonzero(cond)
            if self._branch(target, sel, mats, None):
                return

    def multiplexed_1q(self, target: int, controls: Sequence[int], matrices) -> None:
        """Uniformly controlled single-qubit gate: ``matrices[j]`` acts on ``target`` where
        the controls' local index is j (bit k = controls[k]); UCRY/UCRZ/UCGate."""
        mats = np.stack([_chop(m) for m in matrices])
        if mats.shape[0] != 2 ** len(controls):
            raise ValueError("need 2**len(controls) matrices")
        while True:
            idx = self._index(controls) if controls else None
            if self._branch(target, None, mats, idx):
                return

    def _branch(self, target: int, sel, mats: np.ndarray, idx) -> bool:
        """Apply per-row 2x2 matrices ``mats[idx]`` (``mats[1]`` on ``sel`` rows when idx is
        None) to ``target``. False if a merge changed the rows first (call again)."""
        if idx is None:
            if sel is None:
                sel_idx = np.ones(self.num_rows, dtype=np.intp)
                rows = slice(None)
            else:
                sel_idx = np.ones(sel.size, dtype=np.intp)
                rows = sel
        else:
            # rows whose matrix is the identity are left alone
            ident = np.array(
                [m[0, 0] == 1 and m[1, 1] == 1 and m[0, 1] == 0 and m[1, 0] == 0 for m in mats]
            )
            if ident.any():
                keep = ~ident[idx]
                rows = np.flatnonzero(keep)
                sel_idx = idx[rows]
            else:
                rows = slice(None)
                sel_idx = idx
        bit = self._bit(target)[rows].astype(np.intp)
        stay = mats[sel_idx, bit, bit]
        move = mats[sel_idx, 1 - bit, bit]
        s_nz = stay != 0
        m_nz = move != 0
        both = s_nz & m_nz
        n_new = int(np.count_nonzero(both))
        if n_new and not self._reserve(n_new):
            return False
        a = self._a[rows]
        new_amp = move[both] * a[both]
        self._a[rows] = np.where(s_nz, stay, move) * a
        w, b = divmod(target, 64)
        flip_only = ~s_nz
        if flip_only.any():
            r = np.arange(self.num_rows)[rows][flip_only]
            self._w[w, r] ^= np.uint64(1 << b)
        if n_new:
            r = np.arange(self.num_rows)[rows][both]
            new_w = self._w[:, r]
            new_w[w] ^= np.uint64(1 << b)
            self._w = np.concatenate([self._w, new_w], axis=1)
            self._a = np.concatenate([self._a, new_amp])
            self._note_rows()
            if self.num_rows >= MERGE_GROWTH * self._merged_rows:
                self.merge()
        return True

    def unitary(self, qubits: Sequence[int], matrix) -> None:
        """Any unitary on ``qubits`` (bit k of its index = qubits[k], Qiskit's order):
        permutation-with-phases matrices act in place, others split each row into the
        nonzero entries of its column."""
        m = _chop(matrix)
        dim = 2 ** len(qubits)
        if m.shape != (dim, dim):
            raise ValueError(f"matrix shape {m.shape} does not fit {len(qubits)} qubits")
        nz = m != 0
        per_col = nz.sum(axis=0)
        if np.all(per_col == 1):
            perm = np.argmax(nz, axis=0)
            phases = m[perm, np.arange(dim)]
            if np.all(phases == phases[0]) and np.all(perm == np.arange(dim)):
                self._phase *= complex(phases[0])
                return
            self.permute(qubits, perm, None if np.all(phases == 1) else phases)
            return
        if len(qubits) == 1:
            self.unitary_1q(qubits[0], m)
            return
        d = int(per_col.max())
        out_i = np.zeros((dim, d), dtype=np.intp)
        out_c = np.zeros((dim, d), dtype=complex)
        for j in range(dim):
            rows = np.flatnonzero(nz[:, j])
            out_i[j, : rows.size] = rows
            out_c[j, : rows.size] = m[rows, j]
        while True:
            idx = self._index(qubits)
            coef = out_c[idx]  # (rows, d)
            extra = coef[:, 1:] != 0
            n_new = int(np.count_nonzero(extra))
            if n_new and not self._reserve(n_new):
                continue
            break
        a = self._a
        new_w, new_a = [], []
        for s in range(1, d):
            r = np.flatnonzero(extra[:, s - 1])
            if r.size == 0:
                continue
            copy_w = self._w[:, r]  # a copy (fancy indexing)
            _write_local(copy_w, self._flip, qubits, out_i[idx[r], s])
            new_w.append(copy_w)
            new_a.append(coef[r, s] * a[r])
        self._a = coef[:, 0] * a
        self._set_local(qubits, out_i[idx, 0])
        if new_w:
            self._w = np.concatenate([self._w, *new_w], axis=1)
            self._a = np.concatenate([self._a, *new_a])
            self._note_rows()
            if self.num_rows >= MERGE_GROWTH * self._merged_rows:
                self.merge()

    # ----------------------------------------------------------------- merging
    def merge(self) -> None:
        """Sum the amplitudes of rows holding the same basis state; drop ``|a|^2 < DROP_PROB``."""
        w, a = _group(self._w, self._a)
        keep = (a.real * a.real + a.imag * a.imag) >= DROP_PROB
        if not keep.all():
            w = w[:, keep]
            a = a[keep]
        self._w = np.ascontiguousarray(w)
        self._a = np.ascontiguousarray(a)
        self._merged_rows = max(1, a.shape[0])

    # ----------------------------------------------------------------- readout
    @property
    def num_nonzero(self) -> int:
        """Distinct basis states with a nonzero amplitude (merges first)."""
        self.merge()
        return self.num_rows

    def amplitudes(self) -> dict[int, complex]:
        """Every nonzero amplitude, keyed by the full basis index (bit i = qubit i)."""
        self.merge()
        self.fold()
        keys = [0] * self.num_rows
        for i in range(self.num_words):
            col = self._w[i].tolist()
            if i == 0:
                keys = col
            else:
                shift = 64 * i
                keys = [k | (c << shift) for k, c in zip(keys, col, strict=True)]
        return dict(zip(keys, self._a.tolist(), strict=True))

    def probabilities(self, qubits: Sequence[int]) -> dict[int, float]:
        """Marginal distribution of ``qubits`` (outcome bit k = qubits[k])."""
        self.merge()
        self.fold()
        p = self._a.real**2 + self._a.imag**2
        nw = _words(len(qubits))
        out = np.zeros((nw, self.num_rows), dtype=np.uint64)
        for k, q in enumerate(qubits):
            w, b = divmod(q, 64)
            bit = (self._w[w] >> np.uint64(b)) & np.uint64(1)
            out[k // 64] |= bit << np.uint64(k % 64)
        out, p = _group(out, p)
        keys = out[0].tolist()
        for i in range(1, nw):
            keys = [k | (c << (64 * i)) for k, c in zip(keys, out[i].tolist(), strict=True)]
        return dict(zip(keys, p.tolist(), strict=True))

    def ancilla_probability(self, qubits: Sequence[int]) -> float:
        """Probability that any of ``qubits`` is 1."""
        self.merge()
        cond = self._cond(list(qubits), 0)
        if cond is None:
            return 0.0
        p = np.abs(self._a[~cond]) ** 2
        return float(p.sum())

    def check_clean(self, qubits: Sequence[int], atol: float = 1e-12) -> None:
        """Raise :class:`AncillaError` unless ``qubits`` end in ``|0>`` (up to ``atol``
        probability)."""
        p = self.ancilla_probability(qubits)
        if p > atol:
            raise AncillaError(f"ancillas {list(qubits)} carry probability {p:.3g} on |1>")

    def to_statevector(self) -> np.ndarray:
        """The dense vector (small widths only; for tests)."""
        if self.num_qubits > 26:
            raise ValueError("too wide for a dense vector")
        v = np.zeros(2**self.num_qubits, dtype=complex)
        for k, a in self.amplitudes().items():
            v[k] += a
        return v


def _write_local(w: np.ndarray, flip: list[int], qubits, values: np.ndarray) -> None:
    """Write local index ``values`` (bit k -> qubits[k]) into the word columns ``w``
    (words-major), taking the pending ``flip`` mask into account."""
    values = values.astype(np.uint64)
    for k, q in enumerate(qubits):
        wi, b = divmod(q, 64)
        bit = (values >> np.uint64(k)) & np.uint64(1)
        if (flip[wi] >> b) & 1:
            bit ^= np.uint64(1)
        col = w[wi]
        col &= ~np.uint64(1 << b)
        col |= bit << np.uint64(b)


def _group(w: np.ndarray, a: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Rows (words-major ``w``) with equal words summed into one (values ``a``).

    Sorts a 64-bit hash of the words; equal hashes are checked to hold equal words, and a
    collision falls back to an exact ``lexsort``.
    """
    n = a.shape[0]
    if n <= 1:
        return w, a
    nw = w.shape[0]
    if nw == 1:
        key = w[0]
    else:
        key = w[0].copy()
        for i in range(1, nw):
            key *= _HASH_MULT
            key ^= key >> np.uint64(29)
            key += w[i]
    order = np.argsort(key)
    ks = key[order]
    same = ks[1:] == ks[:-1]
    if not same.any():
        return w, a
    ws = w[:, order]
    if nw > 1:
        eq = np.all(ws[:, 1:] == ws[:, :-1], axis=0)
        if np.any(same & ~eq):  # hash collision: exact sort instead
            order = np.lexsort(w[::-1])
            ws = w[:, order]
            same = np.all(ws[:, 1:] == ws[:, :-1], axis=0)
    starts = np.flatnonzero(np.concatenate(([True], ~same)))
    return ws[:, starts], np.add.reduceat(a[order], starts)


# --------------------------------------------------------------------- compilation
Step = tuple[Callable, tuple]
"""One compiled instruction: an unbound :class:`SparseState` method and its arguments
(qubits are indices into the circuit's qubits)."""

_MATRIX_CACHE: dict[tuple, np.ndarray] = {}


def _matrix_key(op: Instruction) -> tuple | None:
    try:
        params = tuple(
            float(p) if not isinstance(p, np.ndarray) else p.tobytes() for p in op.params
        )
    except (TypeError, ValueError):
        return None
    return (type(op), op.name, op.num_qubits, params, getattr(op, "ctrl_state", None))


def _matrix(op: Instruction) -> np.ndarray:
    if (type(op).__module__ or "qiskit").startswith("qiskit") and not isinstance(op, UnitaryGate):
        key = _matrix_key(op)
        if key is not None:
            m = _MATRIX_CACHE.get(key)
            if m is None:
                m = _MATRIX_CACHE[key] = np.asarray(op.to_matrix(), dtype=complex)
            return m
    return np.asarray(op.to_matrix(), dtype=complex)


def _has_matrix(op: Instruction) -> bool:
    return hasattr(op, "__array__")


def _ucpauli_matrices(op: UCPauliRotGate) -> list[np.ndarray]:
    axis = op.rot_axes
    out = []
    for theta in op.params:
        c, s = math.cos(theta / 2), math.sin(theta / 2)
        if axis == "Y":
            out.append(np.array([[c, -s], [s, c]], dtype=complex))
        elif axis == "Z":
            out.append(np.diag([cmath.exp(-0.5j * theta), cmath.exp(0.5j * theta)]))
        else:  # X
            out.append(np.array([[c, -1j * s], [-1j * s, c]], dtype=complex))
    return out


class Compiler:
    """Compiles instructions into engine steps, caching each gate object's local program
    (public for engines that run a circuit instruction by instruction, such as the shot
    sampler :mod:`qcards.execution.shots`)."""

    def __init__(self, classical_actions: bool = True) -> None:
        # compiled local programs of gate objects (kept alive, so ids stay unique)
        self.cache: dict[int, tuple[Instruction, list[Step]]] = {}
        self.classical_actions = classical_actions

    def op_steps(self, op: Instruction) -> list[Step]:
        """The steps of ``op`` on local qubits 0..n-1."""
        hit = self.cache.get(id(op))
        if hit is not None and hit[0] is op:
            return hit[1]
        steps = self._compile_op(op, tuple(range(op.num_qubits)))
        self.cache[id(op)] = (op, steps)
        return steps

    def circuit_steps(self, qc: QuantumCircuit) -> list[Step]:
        steps: list[Step] = []
        if qc.global_phase:
            steps.append((SparseState.global_phase, (float(qc.global_phase),)))
        index = {q: i for i, q in enumerate(qc.qubits)}
        for inst in qc.data:
            qubits = tuple(index[q] for q in inst.qubits)
            op = inst.operation
            if op.name in _SKIP:
                continue
            if op.name in _REFUSE or inst.clbits:
                raise ValueError(
                    f"the sparse engine simulates unitary circuits only; found {op.name!r}"
                )
            steps.extend(self._placed(op, qubits))
        return steps

    def placed(self, op: Instruction, qubits: tuple[int, ...]) -> list[Step]:
        """The steps of ``op`` acting on the circuit's qubits ``qubits``."""
        return self._placed(op, qubits)

    def _placed(self, op: Instruction, qubits: tuple[int, ...]) -> list[Step]:
        local = self.op_steps(op)
        if qubits == tuple(range(len(qubits))):
            return local
        return [(fn, _remap(fn, args, qubits)) for fn, args in local]

    def _compile_op(self, op: Instruction, q: tuple[int, ...]) -> list[Step]:
        name = op.name
        if name in _SKIP:
            return []
        if name in _REFUSE:
            raise ValueError(f"the sparse engine simulates unitary circuits only; found {name!r}")
        if self.classical_actions and callable(getattr(op, "sparse_apply", None)):
            return [(_call_hook, (op, q))]
        if isinstance(op, GlobalPhaseGate):
            return [(SparseState.global_phase, (float(op.params[0]),))]
        if name == "x":
            return [(SparseState.x, (q[0],))]
        if isinstance(op, ControlledGate) and not _params_unbound(op):
            base = op.base_gate
            nc = op.num_ctrl_qubits
            ctrls, rest = q[:nc], q[nc:]
            if base.num_qubits == 1 and len(rest) == 1:
                if base.name == "x":
                    return [(SparseState.mcx, (ctrls, rest[0], op.ctrl_state))]
                if _has_matrix(base):
                    m = _matrix(base)
                    return [(SparseState.unitary_1q, (rest[0], m, ctrls, op.ctrl_state))]
            if isinstance(base, SwapGate) and len(rest) == 2:
                return [(SparseState.swap, (rest[0], rest[1], ctrls, op.ctrl_state))]
        if isinstance(op, SwapGate):
            return [(SparseState.swap, (q[0], q[1]))]
        if isinstance(op, UCPauliRotGate):
            return [(SparseState.multiplexed_1q, (q[0], q[1:], _ucpauli_matrices(op)))]
        if isinstance(op, UCGate) and not op.up_to_diagonal:
            mats = [np.asarray(m, dtype=complex) for m in op.params]
            return [(SparseState.multiplexed_1q, (q[0], q[1:], mats))]
        if op.num_qubits <= MAX_LOCAL_QUBITS and _has_matrix(op) and not _params_unbound(op):
            m = _matrix(op)
            if op.num_qubits == 1:
                return [(SparseState.unitary_1q, (q[0], m))]
            return [(SparseState.unitary, (q, m))]
        definition = op.definition
        if definition is None:
            raise ValueError(f"the sparse engine cannot simulate {name!r}: no definition")
        steps = self.circuit_steps(definition)
        if q != tuple(range(len(q))):
            steps = [(fn, _remap(fn, args, q)) for fn, args in steps]
        return steps


def _params_unbound(op: Instruction) -> bool:
    return any(hasattr(p, "parameters") and p.parameters for p in op.params)


def _call_hook(state: SparseState, op: Instruction, qubits: tuple[int, ...]) -> None:
    state.fold()
    op.sparse_apply(state, qubits)


def _remap(fn: Callable, args: tuple, q: tuple[int, ...]) -> tuple:
    """``args`` of a step with its local qubit indices replaced by ``q[i]``."""
    if fn is SparseState.x:
        return (q[args[0]],)
    if fn is SparseState.mcx:
        return (tuple(q[i] for i in args[0]), q[args[1]], args[2])
    if fn is SparseState.swap:
        if len(args) == 2:
            return (q[args[0]], q[args[1]])
        return (q[args[0]], q[args[1]], tuple(q[i] for i in args[2]), args[3])
    if fn is SparseState.unitary_1q:
        if len(args) == 2:
            return (q[args[0]], args[1])
        return (q[args[0]], args[1], tuple(q[i] for i in args[2]), args[3])
    if fn is SparseState.multiplexed_1q:
        return (q[args[0]], tuple(q[i] for i in args[1]), args[2])
    if fn is SparseState.unitary:
        return (tuple(q[i] for i in args[0]), args[1])
    if fn is SparseState.global_phase:
        return args
    if fn is _call_hook:
        return (args[0], tuple(q[i] for i in args[1]))
    raise AssertionError(f"no remap for {fn}")


def compile_circuit(circuit: QuantumCircuit, classical_actions: bool = True) -> list[Step]:
    """The flat list of engine steps of ``circuit`` (decompositions resolved, cached per
    gate object). ``classical_actions=False`` ignores the gates' ``sparse_apply`` and runs
    their definitions (for comparisons)."""
    return Compiler(classical_actions).circuit_steps(circuit)


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
        for fn, args in compiler.circuit_steps(part):
            fn(state, *args)
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
    for fn, args in compile_circuit(circuit, classical_actions):
        fn(state, *args)
    state.merge()
    return state


# keep Gate importable for type checkers of hook implementations
_ = Gate
