"""The memory and time budgets of exact work, and the refusals, made before any work.

An exact method (:class:`~qcards.execution.exact_methods.ExactMethod`) estimates its peak
memory and its time from the circuit and the number of play paths, which comes from Knuth's
estimator (:func:`qcards.skat.referee.estimate_paths`, milliseconds); a request that would
exhaust the machine, or run past the ten-minute budget, is refused here with one clear error
naming the estimate, instead of being killed by the operating system minutes later.
"""

from __future__ import annotations

import os
from contextlib import contextmanager
from typing import TYPE_CHECKING

from qcards.errors import ParameterError, ResourceError
from qcards.execution.sparse_cost import DECK, SparseMemoryError
from qcards.execution.sparse_cost import estimate_bytes as sparse_bytes
from qcards.progress import TIME_BUDGET
from qcards.progress import duration as _duration
from qcards.skat.cards import Card
from qcards.skat.referee import estimate_paths
from qcards.skat.spec import Endgame

if TYPE_CHECKING:
    from qcards.execution.exact_methods import ExactMethod

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
            f"it holds at most {exc.limit:,} here (give {{shots}} to sample the circuit shot by "
            "shot at any size, use {method} classical, or a smaller spec)",
            parameters=("method", "shots"),
        ) from None


def check_memory(
    method: ExactMethod,
    num_qubits: int,
    paths: float,
    budget: float | None = None,
    read_qubits: int = 0,
    alternative: str = "method",
    cards: int = DECK,
) -> None:
    """Refuse (:class:`ResourceError`) when ``method`` would need more than the budget; the
    message names the estimate, the largest size that fits (:func:`largest_fitting`) and what
    to do instead: the classical referee where ``alternative`` is ``method`` (``evaluate``),
    another simulator where it is ``backend`` (``run``). ``cards``: the game's cards, which
    the sparse engine's classical actions work with (:meth:`ExactMethod.bytes`)."""
    budget = MEMORY_BUDGET if budget is None else budget
    need = method.bytes(num_qubits, paths, read_qubits, cards)
    if need > budget:
        fits = largest_fitting(lambda p: method.bytes(num_qubits, p, read_qubits, cards), budget)
        raise ResourceError(
            f"the {method} method would need about {need / GIB:,.1f} GiB for this circuit "
            f"({num_qubits} qubits, about {paths:,.0f} play paths"
            + (f", {read_qubits} qubits read" if read_qubits else "")
            + f"); the budget is {budget / GIB:.1f} GiB, "
            + _fitting(method, num_qubits, fits, read_qubits)
            + f" ({_way_forward(alternative)})",
            parameters=(alternative, "shots"),
        )


def _way_forward(alternative: str, force: bool = False) -> str:
    """What a refused exact computation can do instead: sample the circuit shot by shot, which
    reaches any size (:mod:`qcards.execution.shots`); where ``alternative`` is ``backend``
    (``run``, whose shots are given) that is the sparse backend."""
    forced = "{force} to run it anyway, " if force else ""
    if alternative == "backend":
        return (
            f"use {{backend}} sparse, which samples the circuit shot by shot at any size, "
            f"{forced}or a smaller spec"
        )
    if alternative == "method":
        return (
            f"give {{shots}} to sample the circuit shot by shot at any size, {forced}"
            "use {method} classical, or a smaller spec"
        )
    return f"give {{shots}} to sample it, {forced}choose another {{{alternative}}}"


def largest_fitting(cost, budget: float) -> int:
    """The most play paths ``p`` (a whole number, 0 if not even one) with ``cost(p) <= budget``,
    for a ``cost`` that grows with ``p`` (bisection: the models are not all invertible in
    closed form)."""
    if cost(1) > budget:
        return 0
    low, high = 1, 2
    while cost(high) <= budget and high < 2**62:
        low, high = high, 2 * high
    while high - low > 1:
        middle = (low + high) // 2
        low, high = (middle, high) if cost(middle) <= budget else (low, middle)
    return low


def _fitting(method: ExactMethod, num_qubits: int, paths: int, read_qubits: int) -> str:
    """What fits, in words: a dense statevector's limit is its width, the others' the paths."""
    if method.width_limited:
        return "whatever the paths (a dense state is as large as its width allows)"
    if paths == 0 and read_qubits:
        alone = method.bytes(0, 0, read_qubits) / GIB
        return (
            f"and the probabilities of {read_qubits} qubits alone need {alone:,.1f} GiB "
            "as a dense vector"
        )
    if paths == 0:
        return f"and not even one play path fits at {num_qubits} qubits"
    return f"which holds at most about {paths:,} play paths at {num_qubits} qubits"


SHOT_BYTES = 256
"""Bytes a sampled shot takes in memory besides its measured bits, rounded up from peak memory
measured at 2-4 million shots of the four- and six-card games (``qcards run``): Aer keeps each
shot as a hex string in C++ and again in Python before Qiskit packs them (about 240 bytes a
shot), the sparse engine's sampler a list of Python integers (about 150), the shot-by-shot
sampler each shot's points, tricks and outcome (about 200)."""


def shot_bytes(num_bits: int) -> float:
    """Bytes of one shot of ``num_bits`` measured bits: :data:`SHOT_BYTES` and a byte per bit
    (its hex digits twice, the packed bits and a Python integer of the outcome)."""
    return SHOT_BYTES + float(num_bits)


SAMPLES_BUDGET = MEMORY_BUDGET
"""What the samples of one run may hold: as much as an exact state may (:data:`MEMORY_BUDGET`),
checked on its own (the state's check is :func:`check_memory`)."""


def check_shot_memory(
    shots: int, num_bits: int, circuits: int = 1, budget: float | None = None
) -> None:
    """Refuse (:class:`ResourceError` naming ``shots``) ``shots`` shots of each of ``circuits``
    circuits measuring ``num_bits`` bits whose samples would not fit in
    :data:`SAMPLES_BUDGET`; a sampler holds every shot of one run (Aer fails with
    ``std::bad_alloc``, or the machine kills it, long after it started)."""
    budget = SAMPLES_BUDGET if budget is None else budget
    each = shot_bytes(num_bits) * max(1, circuits)
    need = shots * each
    if need > budget:
        times = f"{circuits} circuits x " if circuits > 1 else ""
        raise ResourceError(
            f"{{shots}} {shots:,} would hold about {need / GIB:,.1f} GiB of samples "
            f"({times}about {shot_bytes(num_bits):,.0f} bytes a shot, {num_bits} bits "
            f"measured); the budget is {budget / GIB:.1f} GiB: at most {int(budget // each):,} "
            "shots fit",
            parameters=("shots",),
        )


# TIME_BUDGET, the seconds a command may plan to run before it refuses unless forced (ten
# minutes), lives below every layer in qcards.progress: the games' pure-Python referees share it

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
            f"{TIME_BUDGET / 60:.0f} minutes (give {{shots}} to sample the circuit shot by shot "
            "at any size, {force} to run it anyway, or use a smaller spec)",
            parameters=("force", "shots"),
        )
    return seconds


def check_time(
    method: ExactMethod,
    num_qubits: int,
    paths: float,
    gates: int,
    force: bool = False,
    repeats: float = 1.0,
    what: str | None = None,
    alternative: str = "method",
) -> float:
    """Refuse (:class:`ResourceError`) a simulation planned to take longer than
    :data:`TIME_BUDGET` (``repeats`` passes), naming the estimate and the largest size that fits,
    unless ``force``; ``what`` names the work in the message (default: the method), and
    ``alternative`` the parameter that chooses another simulator.
    Returns the estimated seconds."""

    def seconds_for(n: int, p: float) -> float:
        return repeats * method.seconds(n, p, gates)

    seconds = seconds_for(num_qubits, paths)
    if seconds > TIME_BUDGET and not force:
        if method.width_limited:
            widest = max(
                (n for n in range(1, num_qubits) if seconds_for(n, paths) <= TIME_BUDGET),
                default=0,
            )
            fits = f"circuits up to {widest} qubits fit"
        else:
            most = largest_fitting(lambda p: seconds_for(num_qubits, p), TIME_BUDGET)
            fits = f"about {most:,} play paths fit at {num_qubits} qubits"
        size = f"{num_qubits} qubits, {gates:,} gates"
        if paths:
            size += f", about {paths:,.0f} play paths"
        raise ResourceError(
            f"{what or f'the {method} method'} would take about {_duration(seconds)} on this "
            f"circuit ({size}); {fits} in {TIME_BUDGET / 60:.0f} minutes "
            f"({_way_forward(alternative, force=True)})",
            parameters=("force", alternative, "shots"),
        )
    return seconds


# ----------------------------------------------------------------------------- shots

MAX_SHOTS = 10**9
"""The most shots one call takes (the per-shot results alone are then gigabytes)."""


def check_shots(shots: int) -> None:
    if not isinstance(shots, int) or isinstance(shots, bool) or not 1 <= shots <= MAX_SHOTS:
        raise ParameterError(
            "shots", f"{{shots}} must be a whole number in 1..{MAX_SHOTS:,}, got {shots!r}"
        )


RESULT_BYTES = 48
"""Bytes a shot's results take while the chunks are joined: points and tricks (8 bytes each),
twice (the chunks and the joined arrays), and the wins and their pairs when read."""

DECLARED_BYTES = 48
"""What a declared game's shot adds: its matadors (8 bytes, twice) and its two scores with
their unique-outcome indices (:func:`qcards.skat.objectives.per_sample`)."""


def check_result_memory(shots: int, outcomes: bool, num_bits: int, declared: bool = False) -> None:
    """Refuse (naming ``shots``), before any shot is taken, results that would not fit in the
    samples' memory budget: :data:`RESULT_BYTES` a shot, and with ``outcomes`` what a sampler's
    outcome of ``num_bits`` bits costs (:func:`~qcards.execution.budget.check_shot_memory`)."""
    if outcomes:
        check_shot_memory(shots, num_bits)
    per_shot = RESULT_BYTES + DECLARED_BYTES * declared
    need = shots * per_shot
    if need > SAMPLES_BUDGET:
        fits = int(SAMPLES_BUDGET // per_shot)
        raise ResourceError(
            f"{shots:,} shots would keep about {need / 2**30:,.1f} GiB of results; the budget "
            f"is {SAMPLES_BUDGET / 2**30:.1f} GiB, about {fits:,} shots (use fewer {{shots}})",
            parameters=("shots",),
        )
