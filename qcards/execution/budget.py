"""The simulators' memory and time models, and the sampled results', as plans.

An exact method (:class:`~qcards.execution.exact_methods.ExactMethod`) estimates its peak
memory and its time from the circuit and the number of play paths, which comes from Knuth's
estimator (:func:`qcards.skat.solvers.plain_referee.estimate_paths`, milliseconds); the shots of a
run hold their samples. Each estimate here becomes a :class:`~qcards.plan.Plan` checked against the
limits in force (:func:`qcards.plan.check`): a request that would exhaust the machine, or run
past the ten-minute limit, is refused with one clear error naming the estimate and the way
out, instead of being killed by the operating system minutes later.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from qcards.errors import ParameterError
from qcards.execution.sparse.cost import DECK, engine_rate, engine_seconds
from qcards.plan import (
    CLASSICAL,
    GIB,
    SAMPLE,
    SMALLER,
    SPARSE_BACKEND,
    Plan,
    check,
    current_limits,
)
from qcards.skat.position.spec import Endgame
from qcards.skat.rules.cards import Card
from qcards.skat.solvers.plain_referee import estimate_paths

if TYPE_CHECKING:
    from qcards.execution.exact_methods import ExactMethod


def check_memory(
    method: ExactMethod,
    num_qubits: int,
    paths: float,
    read_qubits: int = 0,
    alternative: str = "method",
    cards: int = DECK,
) -> None:
    """Refuse (:class:`ResourceError`) when ``method`` would need more memory than the limits
    allow; the message names the estimate, the largest size that fits (:func:`largest_fitting`)
    and what to do instead: the classical referee where ``alternative`` is ``method``
    (``evaluate``), another simulator where it is ``backend`` (``run``). ``cards``: the game's
    cards, which the sparse engine's classical actions work with (:meth:`ExactMethod.bytes`)."""
    limit = current_limits().memory

    def need(p: float) -> float:
        return method.bytes(num_qubits, p, read_qubits, cards)

    size = f"{num_qubits} qubits, about {paths:,.0f} play paths"
    if read_qubits:
        size += f", {read_qubits} qubits read"
    plan = Plan(
        f"the {method} method",
        bytes=need(paths),
        paths=paths,
        size=size,
        ways=_ways_forward(alternative),
    )
    if plan.over_memory():
        fits = largest_fitting(need, limit)
        plan = replace(plan, memory_fits=_fitting(method, num_qubits, fits, read_qubits))
    check(plan)


def _ways_forward(alternative: str) -> tuple[str, ...]:
    """What a refused exact computation can do instead: sample the circuit shot by shot, which
    reaches any size (:mod:`qcards.execution.shots`); where ``alternative`` is ``backend``
    (``run``, whose shots are given) that is the sparse backend."""
    if alternative == "backend":
        return (SPARSE_BACKEND, SMALLER)
    if alternative == "method":
        return (SAMPLE, CLASSICAL, SMALLER)
    return ("give {shots} to sample it", f"choose another {{{alternative}}}")


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
        return "whatever the paths: a dense state is as large as its width allows"
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


def check_shot_memory(shots: int, num_bits: int, circuits: int = 1) -> None:
    """Refuse (:class:`ResourceError` naming ``shots``) ``shots`` shots of each of ``circuits``
    circuits measuring ``num_bits`` bits whose samples would not fit in the memory limit (as
    much as an exact state may hold, checked on its own); a sampler holds every shot of one run
    (Aer fails with ``std::bad_alloc``, or the machine kills it, long after it started)."""
    each = shot_bytes(num_bits) * max(1, circuits)
    times = f"{circuits} circuits x " if circuits > 1 else ""
    plan = Plan(
        f"{{shots}} {shots:,}",
        bytes=shots * each,
        size=f"its samples: {times}about {shot_bytes(num_bits):,.0f} bytes a shot, {num_bits} "
        "bits measured",
        memory_fits=f"at most {int(current_limits().memory // each):,} shots fit",
        ways=("use fewer {shots}",),
    )
    check(plan)


def check_work(
    spec: Endgame,
    first: Card | None = None,
    force: bool = False,
    what: str = "this evaluation",
    repeats: float = 1.0,
) -> float:
    """Refuse (:class:`ResourceError`) ``repeats`` passes of the sparse engine over the (deal,
    play path) pairs of ``spec`` (Knuth's estimate, milliseconds) planned past the time limit,
    at the engine's one rate (:func:`~qcards.execution.sparse.cost.engine_seconds`): what
    counting's Grover powers and a recommendation's first cards run. Returns the estimated
    seconds. ``force`` skips the refusal."""
    paths = estimate_paths(spec, first) * repeats
    plan = Plan(
        what,
        seconds=engine_seconds(paths),
        paths=paths,
        size=f"about {paths:,.0f} play paths at about {engine_rate():,.0f} a second",
        time_fits=f"about {current_limits().seconds * engine_rate():,.0f} paths",
        ways=(SAMPLE, SMALLER),
    )
    return check(plan, force).seconds


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
    """Refuse (:class:`ResourceError`) a simulation planned to take longer than the time limit
    (``repeats`` passes), naming the estimate and the largest size that fits, unless ``force``;
    ``what`` names the work in the message (default: the method), and ``alternative`` the
    parameter that chooses another simulator. Returns the estimated seconds."""
    limit = current_limits().seconds

    def seconds_for(n: int, p: float) -> float:
        return repeats * method.seconds(n, p, gates)

    size = f"{num_qubits} qubits, {gates:,} gates"
    if paths:
        size += f", about {paths:,.0f} play paths"
    plan = Plan(
        what or f"the {method} method",
        seconds=seconds_for(num_qubits, paths),
        paths=paths,
        size=size,
        ways=_ways_forward(alternative),
    )
    if plan.over_time() and not force:
        if method.width_limited:
            widest = max(
                (n for n in range(1, num_qubits) if seconds_for(n, paths) <= limit), default=0
            )
            fits = f"circuits up to {widest} qubits"
        else:
            most = largest_fitting(lambda p: seconds_for(num_qubits, p), limit)
            fits = f"about {most:,} play paths at {num_qubits} qubits"
        plan = replace(plan, time_fits=fits)
    return check(plan, force).seconds


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
their unique-outcome indices (:func:`qcards.skat.solvers.objectives.per_sample`)."""


def check_result_memory(shots: int, outcomes: bool, num_bits: int, declared: bool = False) -> None:
    """Refuse (naming ``shots``), before any shot is taken, results that would not fit in the
    samples' memory budget: :data:`RESULT_BYTES` a shot, and with ``outcomes`` what a sampler's
    outcome of ``num_bits`` bits costs (:func:`~qcards.execution.budget.check_shot_memory`)."""
    if outcomes:
        check_shot_memory(shots, num_bits)
    per_shot = RESULT_BYTES + DECLARED_BYTES * declared
    plan = Plan(
        f"{shots:,} shots",
        bytes=shots * per_shot,
        size=f"their results, {per_shot} bytes a shot",
        memory_fits=f"about {int(current_limits().memory // per_shot):,} shots fit",
        ways=("use fewer {shots}",),
    )
    check(plan)
