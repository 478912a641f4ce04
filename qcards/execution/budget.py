"""How much memory an exact method would need, estimated before any work, and the refusal.

Every exact method stores a game state by what it has to: the dense statevector all
:math:`2^n` amplitudes, the sparse engine and decision diagrams one entry per nonzero amplitude
(a play path: the game state is a sum over (deal, path) pairs), a matrix product state bonds up
to the number of paths. The number of paths comes from Knuth's estimator
(:func:`qcards.skat.referee.estimate_paths`, milliseconds), so a request that would exhaust the
machine is refused with one clear error naming the estimate, instead of being killed by the
operating system minutes later.
"""

from __future__ import annotations

import os
from contextlib import contextmanager

from qcards.errors import ResourceError
from qcards.execution.sparse import SparseMemoryError
from qcards.execution.sparse import estimate_bytes as sparse_bytes
from qcards.skat.cards import Card
from qcards.skat.referee import estimate_paths
from qcards.skat.spec import Endgame

GIB = 2**30


def physical_memory() -> int:
    """Bytes of memory of this machine (24 GiB here)."""
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (ValueError, OSError, AttributeError):  # not a POSIX system: assume a small machine
        return 8 * GIB


MEMORY_BUDGET = min(8 * GIB, physical_memory() // 3)
"""What one exact simulation may use: a third of the machine, at most 8 GiB (the machine is
shared, and a run keeps copies beside the state)."""

MPS_TEMPORARIES = 2
"""Factor for Aer MPS's SVD workspace and copies beside the tensors themselves."""

DD_BYTES_PER_NODE = 200
"""A decision-diagram node with its two edges, complex weights and table entries."""


def estimated_bytes(method: str, num_qubits: int, paths: float) -> float:
    """Peak bytes of the exact ``method`` on a circuit of ``num_qubits`` whose state has about
    ``paths`` nonzero amplitudes."""
    if method == "statevector":
        return 2.0 * 16 * 2.0**num_qubits  # the state and Aer's copy for the saved results
    if method == "sparse":
        return float(sparse_bytes(int(paths), num_qubits))
    if method == "ddsim":
        return DD_BYTES_PER_NODE * paths * num_qubits
    if method == "mps":
        # the bond across cut k is at most min(2^k, 2^(n-k), paths): a sum of `paths` basis
        # states has Schmidt rank at most `paths`; site k holds 2 x bond_k x bond_k+1 numbers
        bond = [min(2.0**k, 2.0 ** (num_qubits - k), paths) for k in range(num_qubits + 1)]
        numbers = sum(2 * bond[k] * bond[k + 1] for k in range(num_qubits))
        return MPS_TEMPORARIES * 16 * numbers
    raise ValueError(f"no memory model for {method!r}")


@contextmanager
def sparse_memory_guard():
    """The sparse engine's refusal (raised before it allocates) as a :class:`ResourceError`
    naming the size."""
    try:
        yield
    except SparseMemoryError as exc:
        raise ResourceError(
            f"the sparse engine would need {exc.rows_needed:,} nonzero amplitudes "
            f"(about {sparse_bytes(exc.rows_needed, exc.num_qubits) / GIB:.1f} GiB); "
            f"it holds at most {exc.limit:,} here (use {{method}} classical, or a smaller spec)",
            parameters=("method",),
        ) from None


def check_memory(method: str, num_qubits: int, paths: float, budget: float | None = None) -> None:
    """Refuse (:class:`ResourceError`) when ``method`` would need more than the budget."""
    budget = MEMORY_BUDGET if budget is None else budget
    need = estimated_bytes(method, num_qubits, paths)
    if need > budget:
        raise ResourceError(
            f"the {method} method would need about {need / GIB:,.1f} GiB for this circuit "
            f"({num_qubits} qubits, about {paths:,.0f} play paths); the budget is "
            f"{budget / GIB:.1f} GiB (use {{method}} classical, or a smaller spec)",
            parameters=("method",),
        )


TIME_BUDGET = 600.0
"""Seconds a command may plan to run before it refuses (unless forced): ten minutes."""

PATHS_PER_SECOND = 150_000.0
"""Play paths per second of the referee and the sparse engine, rounded down from the scale
benchmark (fifteen cards, 7.3 million paths: referee 40 s, engine 31 s, on this machine)."""


def check_work(
    spec: Endgame,
    first: Card | None = None,
    force: bool = False,
    what: str = "this evaluation",
    repeats: float = 1.0,
) -> float:
    """Refuse (:class:`ResourceError`) work planned to take longer than :data:`TIME_BUDGET`.

    The work is ``repeats`` passes over the (deal, play path) pairs of ``spec``, counted by
    Knuth's estimator in milliseconds; the referee, the sparse engine and the decoders all work
    in proportion to it. Returns the estimated seconds. ``force`` skips the refusal.
    """
    paths = estimate_paths(spec, first) * repeats
    seconds = paths / PATHS_PER_SECOND
    if seconds > TIME_BUDGET and not force:
        fits = TIME_BUDGET * PATHS_PER_SECOND
        raise ResourceError(
            f"{what} would follow about {paths:,.0f} play paths, about {_duration(seconds)} at "
            f"about {PATHS_PER_SECOND:,.0f} paths per second; about {fits:,.0f} fit in "
            f"{TIME_BUDGET / 60:.0f} minutes (give {{force}} to run it anyway, or use a smaller "
            "spec)",
            parameters=("force",),
        )
    return seconds


def _duration(seconds: float) -> str:
    if seconds < 2 * 3600:
        return f"{seconds / 60:,.0f} minutes"
    if seconds < 2 * 86400:
        return f"{seconds / 3600:,.0f} hours"
    if seconds < 2 * 31_557_600:
        return f"{seconds / 86400:,.0f} days"
    return f"{seconds / 31_557_600:,.2g} years"
