"""The sparse engine's state: rows of (basis state, amplitude), their growth and readout.

One row per basis state, its bits packed into ``np.uint64`` words and a complex amplitude
(:class:`SparseState`). X costs nothing: flips are kept as a pending XOR mask (and the global
phase as one scalar) that the control tests and readouts take into account, and :meth:`fold`
applies them. Rows of the same basis state (made by branching) are merged lazily: when the rows
have grown to :data:`MERGE_GROWTH` times the count after the last merge, before a branching step
would pass the memory guard, and before any readout. A merge hashes each row's words to one
``uint64``, sorts the hashes, checks that equal hashes have equal words (falling back to an
exact ``lexsort`` on a collision), sums the amplitudes of each group and drops rows with
``|a|^2 <`` :data:`DROP_PROB`.

The memory model (:func:`~qcards.execution.sparse.cost.estimate_bytes`) and its guard
(:class:`~qcards.execution.sparse.cost.SparseMemoryError`, raised before rows are allocated)
live in :mod:`qcards.execution.sparse.cost`, which the cost checks import without Qiskit. The
gates themselves are the kernels
(:mod:`qcards.execution.sparse.kernels`); the classical-action API (:meth:`SparseState.match`,
``read``/``write``, ``flip``, ``expand``, ``split_off``/``run_definition``/``absorb``) is what
the game gates' ``sparse_apply`` use.
"""

from __future__ import annotations

import cmath
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

import numpy as np
from qiskit.circuit import Instruction

from qcards.execution.sparse.compiler import Compiler, Step
from qcards.execution.sparse.cost import (  # the memory model, re-exported where it applies
    DEFAULT_MAX_BYTES,
    SparseMemoryError,
    num_words,
    rows_for_bytes,
)
from qcards.execution.sparse.kernels import group, match_words, weighted_bit_sums, write_local

if TYPE_CHECKING:
    from qcards.circuits.gates.row_state import RowState

DROP_PROB = 1e-28
"""A merge drops rows whose ``|amplitude|**2`` is below this (exact cancellations leave ~1e-33)."""

MERGE_GROWTH = 2.0
"""Merge duplicate rows once the row count reaches this multiple of the count after the last
merge."""


class AncillaError(ValueError):
    """A qubit that should end in ``|0>`` carries probability on ``|1>``."""


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
        self.num_words = num_words(num_qubits)
        self.max_rows = (
            rows_for_bytes(DEFAULT_MAX_BYTES, num_qubits) if max_rows is None else max_rows
        )
        # words-major storage: each word column is contiguous; ``bits`` is its transpose
        self._w: np.ndarray = np.zeros((self.num_words, 1), dtype=np.uint64)
        self._a: np.ndarray = np.ones(1, dtype=complex)
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

    @property
    def words(self) -> np.ndarray:
        """The packed basis states words-major, shape ``(words, rows)``, plain (pending flips
        folded): the storage itself, for compiled classical actions."""
        self.fold()
        return self._w

    def replace_rows(self, words: np.ndarray, amps: np.ndarray) -> None:
        """Take ``words`` (words-major, C order) and ``amps`` as the rows, without copying: what
        a compiled classical action made (its row count checked with :meth:`check_rows` before
        it allocated them)."""
        if words.shape != (self.num_words, amps.shape[0]):
            raise ValueError("words must have shape (words, rows) matching amps")
        self.fold()
        self._w = words
        self._a = amps
        self._note_rows()

    def check_rows(self, needed: int) -> None:
        """Raise :class:`SparseMemoryError` if ``needed`` rows would pass the memory guard (before
        allocating them)."""
        self._check_rows(needed)

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
        return self._with_rows(self._w.copy(), self._a.copy())

    def _with_rows(self, w: np.ndarray, a: np.ndarray) -> SparseState:
        """A state like this one (width, guard, pending flips and phase) holding rows ``w``,
        ``a``."""
        other = SparseState.__new__(SparseState)
        other.__dict__.update(self.__dict__)
        other._flip = list(self._flip)
        other._w = w
        other._a = a
        return other

    def run(self, steps: Iterable[Step]) -> None:
        """Apply compiled steps (:func:`~qcards.execution.sparse.compiler.compile_circuit`)."""
        for step in steps:
            step.apply(self)

    def read(self, qubits: Sequence[int]) -> np.ndarray:
        """The integer held by ``qubits`` (bit k = qubits[k]) on every row, for classical
        actions (:meth:`sparse_apply` hooks)."""
        return self.index(qubits).astype(np.int64)

    def write(self, qubits: Sequence[int], values: np.ndarray) -> None:
        """Set ``qubits`` to ``values`` (bit k -> qubits[k]) on every row: the rest of a
        reversible classical action; the caller keeps the map a permutation of basis states."""
        write_local(self._w, self._flip, qubits, np.asarray(values).astype(np.uint64))

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
        cond = self.cond(list(qubits), sum(int(v) << k for k, v in enumerate(values)))
        return np.ones(self.num_rows, dtype=bool) if cond is None else cond

    def weighted_bits(
        self, groups: Sequence[Sequence[tuple[int, int]]], rows: slice = slice(None)
    ) -> np.ndarray:
        """For each group of ``(qubit, weight)`` pairs, the sum of weight times the qubit's value
        on the rows ``rows`` (a step-1 slice; all by default): int64 of shape
        ``(len(groups), rows)``, in one compiled pass
        (:func:`~qcards.execution.sparse.kernels.weighted_bit_sums`)."""
        self.fold()
        return weighted_bit_sums(self._w, groups, rows)

    def sums_of(self, index: dict, rows: slice = slice(None)):
        """``sums(groups)`` over circuit qubits (``index[q]`` is the state's qubit of ``q``) on
        the rows ``rows``: what :meth:`~qcards.circuits.layout.GameLayout.final_declarer_outcome`
        reads the final states through."""

        def sums(groups):
            return self.weighted_bits([[(index[q], w) for q, w in g] for g in groups], rows)

        return sums

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
        other = self._with_rows(self._w[:, rows], self._a[rows])
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
        self.run(step.relocate(q) for step in Compiler().circuit_steps(definition))

    # ----------------------------------------------------------------- growth
    def _note_rows(self) -> None:
        self.peak_rows = max(self.peak_rows, self.num_rows)

    def _check_rows(self, needed: int) -> None:
        if needed > self.max_rows:
            raise SparseMemoryError(needed, self.max_rows, self.num_qubits)

    def reserve(self, extra: int) -> bool:
        """True if ``extra`` more rows fit; merges first if they do not. Raises when even a
        merged state has no room. False: the caller must recompute (the rows changed)."""
        if self.num_rows + extra <= self.max_rows:
            return True
        before = self.num_rows
        self.merge()
        if self.num_rows == before:
            raise SparseMemoryError(before + extra, self.max_rows, self.num_qubits)
        return False

    def grow(self, words: list[np.ndarray], amps: list[np.ndarray]) -> None:
        """Append rows (words-major blocks ``words`` with amplitudes ``amps``, room made by
        :meth:`reserve`), merging once the rows reach :data:`MERGE_GROWTH` times the count
        after the last merge."""
        self._w = np.concatenate([self._w, *words], axis=1)
        self._a = np.concatenate([self._a, *amps])
        self._note_rows()
        if self.num_rows >= MERGE_GROWTH * self._merged_rows:
            self.merge()

    def merge(self) -> None:
        """Sum the amplitudes of rows holding the same basis state; drop ``|a|^2 < DROP_PROB``."""
        w, a = group(self._w, self._a)
        keep = (a.real * a.real + a.imag * a.imag) >= DROP_PROB
        if not keep.all():
            w = w[:, keep]
            a = a[keep]
        self._w = np.ascontiguousarray(w)
        self._a = np.ascontiguousarray(a)
        self._merged_rows = max(1, a.shape[0])

    # ----------------------------------------------------------------- bits, pending flips
    def x(self, q: int) -> None:
        """Pauli X (a pending flip: no pass over the rows)."""
        w, b = divmod(q, 64)
        self._flip[w] ^= 1 << b

    def global_phase(self, phi: float) -> None:
        """Multiply every amplitude by ``exp(i phi)`` (pending)."""
        self._phase *= cmath.exp(1j * phi)

    def bit(self, q: int) -> np.ndarray:
        """Actual value of qubit ``q`` on every row (uint64 0/1)."""
        w, b = divmod(q, 64)
        col = (self._w[w] >> np.uint64(b)) & np.uint64(1)
        if (self._flip[w] >> b) & 1:
            col ^= np.uint64(1)
        return col

    def index(self, qubits: Sequence[int]) -> np.ndarray:
        """Local index of ``qubits`` on every row (bit k = qubits[k]), as intp."""
        idx = np.zeros(self.num_rows, dtype=np.uint64)
        for k, q in enumerate(qubits):
            b = self.bit(q)
            if k:
                b <<= np.uint64(k)
            idx |= b
        return idx.astype(np.intp)

    def cond(self, controls: Sequence[int], ctrl_state: int) -> np.ndarray | None:
        """Rows where ``controls`` hold ``ctrl_state`` (bit k = controls[k]); None = all rows."""
        if not controls:
            return None
        masks: dict[int, list[int]] = {}
        for k, q in enumerate(controls):
            w, b = divmod(q, 64)
            m = masks.setdefault(w, [0, 0])
            m[0] |= 1 << b
            m[1] |= ((ctrl_state >> k) & 1) << b
        for w, m in masks.items():
            m[1] ^= self._flip[w] & m[0]
        return match_words(self._w, masks)

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
        return dict(zip(_integers(self._w), self._a.tolist(), strict=True))

    def probabilities(self, qubits: Sequence[int]) -> dict[int, float]:
        """Marginal distribution of ``qubits`` (outcome bit k = qubits[k])."""
        self.merge()
        self.fold()
        p = self._a.real**2 + self._a.imag**2
        out = np.zeros((num_words(len(qubits)), self.num_rows), dtype=np.uint64)
        for k, q in enumerate(qubits):
            w, b = divmod(q, 64)
            bit = (self._w[w] >> np.uint64(b)) & np.uint64(1)
            out[k // 64] |= bit << np.uint64(k % 64)
        out, p = group(out, p)
        return dict(zip(_integers(out), p.tolist(), strict=True))

    def ancilla_probability(self, qubits: Sequence[int]) -> float:
        """Probability that any of ``qubits`` is 1."""
        self.merge()
        cond = self.cond(list(qubits), 0)
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


def _integers(w: np.ndarray) -> list[int]:
    """The Python integer of every column of the words-major ``w`` (word i holds bits
    64 i .. 64 i + 63)."""
    keys = w[0].tolist()
    for i in range(1, w.shape[0]):
        shift = 64 * i
        keys = [k | (c << shift) for k, c in zip(keys, w[i].tolist(), strict=True)]
    return keys


if TYPE_CHECKING:
    # The gates are written against RowState, not this class (their layer is below this one);
    # the type checker proves here that the engine's state is one.
    _STATE_THE_GATES_SEE: type[RowState] = SparseState
