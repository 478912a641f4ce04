"""The sparse engine's memory model, importable without Qiskit or NumPy: what the cost checks
(:mod:`qcards.execution.budget`, :mod:`qcards.execution.exact_methods`) read before any circuit
is built, so that a command which never simulates never imports the engine
(:mod:`qcards.execution.sparse_state` holds the state and re-exports these names)."""

from __future__ import annotations

DEFAULT_MAX_BYTES = 8 * 2**30
"""Default memory guard of :func:`~qcards.execution.sparse.simulate` (8 GiB of the machine's
24, through :func:`estimate_bytes`); read when a simulation starts, so it can be lowered for a
process."""

ACTION_BYTES = 32
"""Bytes per row of a classical action's work arrays besides its cards' (masks, counters; the
game gates' ``sparse_apply``), rounded up from peak memory measured on the twelve- and
fifteen-card endgames (``tests/fuzz/test_hostile_input.py`` checks the model against it)."""

ACTION_BYTES_PER_CARD = 4
"""Bytes per row and card of a card play's work arrays (its ``(cards, rows)`` masks of held,
led and legal cards), rounded up likewise."""

DECK = 32
"""Cards of a Skat deck: the most a game circuit's classical actions work with."""


class SparseMemoryError(MemoryError):
    """A branching step would need more rows than allowed (raised before allocating them)."""

    def __init__(self, rows_needed: int, limit: int, num_qubits: int = 0) -> None:
        super().__init__(
            f"the sparse state would need {rows_needed} rows; the limit is {limit} rows"
        )
        self.rows_needed = rows_needed
        self.limit = limit
        self.num_qubits = num_qubits


def num_words(num_qubits: int) -> int:
    """The 64-bit words a row of ``num_qubits`` qubits takes (at least one)."""
    return max(1, (num_qubits + 63) // 64)


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
    w = num_words(num_qubits)
    state = 8 * w + 16
    expand = 2 * state + 8 + 8 + ACTION_BYTES + ACTION_BYTES_PER_CARD * cards
    merge = 3 * state + 8 + 8 + 8 + 1 + 2 * w
    return rows * max(expand, merge)


def rows_for_bytes(max_bytes: int, num_qubits: int, cards: int = DECK) -> int:
    """The most rows :func:`estimate_bytes` fits in ``max_bytes``."""
    return max(1, max_bytes // estimate_bytes(1, num_qubits, cards))
