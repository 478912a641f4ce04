"""The rows a gate's classical action works on: the interface the sparse engine offers the gates.

A game gate may state what it does to basis states (``sparse_apply(state, qubits)``, and the
deals ``sparse_sample(state, qubits, rng)``; :mod:`.classical`), and the sparse engine
(:mod:`qcards.execution.sparse`) calls it on its state instead of simulating the gate's
decomposition. The engine sits in a layer above this one, so the gates are written against this
protocol, not against the engine's class: :class:`RowState` lists every member a gate may use,
the engine's ``SparseState`` is checked against it by the type checker (where the engine hands
its state to a gate) and by ``tests/test_classical_actions.py`` (member by member, signatures
included), and a gate that used anything else would fail the type check.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol, Self, runtime_checkable

import numpy as np
from qiskit.circuit import Instruction


@runtime_checkable
class RowState(Protocol):
    """A state as rows of (basis state, amplitude), read and written by whole columns.

    Qubit ``i`` of a row is bit ``i % 64`` of its word ``i // 64``; rows may repeat a basis state
    (the engine merges them later); the rows a gate sees are plain (no pending flip or phase).
    """

    num_words: int
    """64-bit words a row's basis state takes."""

    @property
    def num_rows(self) -> int:
        """Rows held now."""
        ...

    @property
    def words(self) -> np.ndarray:
        """The basis states, words-major (``uint64``, shape ``(words, rows)``): the storage
        itself, which compiled actions read."""
        ...

    @property
    def amps(self) -> np.ndarray:
        """The amplitude of every row."""
        ...

    def match(self, qubits: Sequence[int], values: Sequence[int]) -> np.ndarray:
        """Rows (bool mask) where every ``qubits[k]`` holds ``values[k]``."""
        ...

    def read(self, qubits: Sequence[int]) -> np.ndarray:
        """The integer held by ``qubits`` (bit k = ``qubits[k]``) on every row."""
        ...

    def write(self, qubits: Sequence[int], values: np.ndarray) -> None:
        """Set ``qubits`` to ``values`` on every row (the caller keeps the map a permutation
        of basis states)."""
        ...

    def flip(self, qubit: int, where: np.ndarray | slice | None = None) -> None:
        """X on ``qubit`` in the rows ``where`` (a bool mask or a slice; every row if None)."""
        ...

    def expand(self, parents: np.ndarray, scale: np.ndarray | complex = 1.0) -> None:
        """The rows become copies of rows ``parents`` (indices, repeats allowed), amplitudes
        times ``scale``; the caller then makes the copies differ."""
        ...

    def check_rows(self, needed: int) -> None:
        """Refuse, before any allocation, ``needed`` rows past the memory guard."""
        ...

    def replace_rows(self, words: np.ndarray, amps: np.ndarray) -> None:
        """Take new rows (words-major, as :attr:`words`) that a compiled action made, after
        :meth:`check_rows`."""
        ...

    def split_off(self, rows: np.ndarray) -> Self:
        """Remove the rows of the bool mask ``rows`` and return them as a state of their own."""
        ...

    def absorb(self, other: Self) -> None:
        """Append the rows of ``other`` (from :meth:`split_off`)."""
        ...

    def run_definition(self, op: Instruction, qubits: Sequence[int]) -> None:
        """Apply ``op`` through its Qiskit definition, ignoring its classical action."""
        ...
