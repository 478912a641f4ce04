"""The exact referee the library runs: one entry for random and adversarial play.

Tiny endgames go to the plain referee (:mod:`qcards.skat.solvers.plain_referee`, pure Python in
``Fraction``), whose answer arrives before the compiled search
(:mod:`qcards.skat.solvers.fast_referee`) could even load numba (about a second in a fresh process);
the rest go to the compiled search. Both return the same
:class:`~qcards.skat.solvers.plain_referee.Evaluation` (``tests/test_fast_referee.py`` compares
them on every test spec), so which one answered changes no number.
"""

from __future__ import annotations

from qcards.skat.position.spec import Endgame
from qcards.skat.rules.cards import Card
from qcards.skat.solvers import plain_referee as referee
from qcards.skat.solvers.plain_referee import MODELS, Evaluation, estimate_paths
from qcards.skat.solvers.referee_cost import check_time, check_width

PLAIN_PATHS = 5_000
"""Up to this many play paths (Knuth's estimate) the plain referee answers: at about 150,000
paths a second (``benchmarks/bench_referee.py``) that is within 0.04 s, far below the compiled
search's first call in a fresh process."""


def check(spec: Endgame, first: Card | None, model: str, force: bool = False) -> float:
    """The estimated seconds; :class:`~qcards.errors.ResourceError` when the referee cannot
    answer (numerators past 128 bits, or past the time budget unless ``force``)."""
    check_width(spec)
    return check_time(spec, first, force, model)


def evaluate(
    spec: Endgame, model: str = "random", first: Card | None = None, *, force: bool = False
) -> Evaluation:
    """Exact win probability and expected declarer points under ``model`` (``random`` or
    ``adversarial``): the arguments, answers and refusals of
    :func:`qcards.skat.solvers.fast_referee.solver.evaluate`."""
    if model in MODELS and spec.num_tricks and estimate_paths(spec, first) <= PLAIN_PATHS:
        check(spec, first, model, force)
        return referee.evaluate(spec, model, first)
    # numba: loaded only for endgames that need it
    from qcards.skat.solvers.fast_referee import solver as fast_referee

    return fast_referee.evaluate(spec, model, first, force=force)
