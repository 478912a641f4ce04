"""The sparse engine's memory and time models, importable without Qiskit or NumPy: what the
cost checks (:mod:`qcards.execution.budget`, :mod:`qcards.execution.exact_methods`) read before
any circuit is built, so that a command which never simulates never imports the engine
(:mod:`qcards.execution.sparse.state` holds the state and re-exports these names)."""

from __future__ import annotations

from contextlib import contextmanager

from qcards.errors import ResourceError
from qcards.execution.sweeps import CORES
from qcards.plan import CLASSICAL, GIB, SAMPLE, SMALLER, instead

DEFAULT_MAX_BYTES = 8 * 2**30
"""Default memory guard of :func:`~qcards.execution.sparse.engine.simulate` (8 GiB of the machine's
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
    without them): the largest of the steps below.

    - a branching step (``expand``, the card plays' uniform choice): the old rows and the new
      ones side by side, the parent index and amplitude scale of every new row, and the
      classical action's work arrays (:data:`ACTION_BYTES`, :data:`ACTION_BYTES_PER_CARD`);
    - a merge that finds duplicates: the state, its hash, sort order, sorted keys and flags,
      the sorted copies of words and amplitudes, and the merged result.

    Per row that is 160 bytes for the twelve-card endgame and 172 for the fifteen-card one,
    whose steps hold at most 140 and 142 at their peak (the state itself is 32;
    ``tests/fuzz/test_hostile_input.py`` checks the model against peak memory)."""
    w = num_words(num_qubits)
    state = 8 * w + 16
    expand = 2 * state + 8 + 8 + ACTION_BYTES + ACTION_BYTES_PER_CARD * cards
    merge = 3 * state + 8 + 8 + 8 + 1 + 2 * w
    return rows * max(expand, merge)


def rows_for_bytes(max_bytes: int, num_qubits: int, cards: int = DECK) -> int:
    """The most rows :func:`estimate_bytes` fits in ``max_bytes``."""
    return max(1, max_bytes // estimate_bytes(1, num_qubits, cards))


# ----------------------------------------------------------------------------- time

PATHS_PER_SECOND = 1_000_000.0
"""(Deal, play path) pairs per second of one worker running shards: the one rate every plan of the
engine's work uses (:func:`engine_seconds`), rounded down from the rates of a worker on the
fifteen- and eighteen-card endgames (measured by ``benchmarks/bench_sharded.py``; figures in
``benchmarks/results/sharded.md``)."""

THREAD_GAIN = 0.38
"""What a second thread of one process adds to the rate of the first (:data:`ENGINE_THREADS`),
from eighteen-card shards timed on one and on two threads (figures in
``benchmarks/results/cost-notes.md``); each thread past the second is assumed to add as much."""

ENGINE_THREADS = CORES
"""Threads that run the shards when no Dask scheduler is given: one per core this process may
use. The card plays' and trick takings' kernels release the GIL, the Python between them does
not, hence :data:`THREAD_GAIN` (the floats are the same for any number of threads)."""


def engine_rate(threads: int = ENGINE_THREADS) -> float:
    """(Deal, play path) pairs a second of the sparse engine in one process of ``threads``
    threads: :data:`PATHS_PER_SECOND` on the first, :data:`THREAD_GAIN` of it on each further
    one."""
    return PATHS_PER_SECOND * (1 + THREAD_GAIN * (max(1, threads) - 1))


def engine_seconds(paths: float, threads: int = ENGINE_THREADS) -> float:
    """Estimated seconds of the sparse engine on ``paths`` (deal, play path) pairs
    (:func:`engine_rate`)."""
    return paths / engine_rate(threads)


@contextmanager
def sparse_memory_guard():
    """The sparse engine's refusal (raised before it allocates) as a :class:`ResourceError`
    naming the size."""
    try:
        yield
    except SparseMemoryError as exc:
        raise ResourceError(
            f"the sparse engine would need {exc.rows_needed:,} nonzero amplitudes "
            f"(about {estimate_bytes(exc.rows_needed, exc.num_qubits) / GIB:.1f} GiB); "
            f"it holds at most {exc.limit:,} here",
            parameters=("method", "shots"),
            advice=instead((SAMPLE, CLASSICAL, SMALLER)),
        ) from None
