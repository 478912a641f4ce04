"""Compile qcards' solvers before their first use (``qcards warm-up``).

numba compiles the searches the first time a process calls them (the exact referee, the
double-dummy solver, the best response and the heuristic, the sparse engine's gates) and keeps
the machine code in its on-disk cache (:mod:`qcards.skat.compiled.jit`); later processes load it in
a fraction of a second. On a fresh install the first answer therefore waits for the compiler.
:func:`warm_up` runs one small workload per solver, so that every later command starts from the
cache, and reports what each took and how many functions were compiled or loaded.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from importlib import resources

from qcards.skat.compiled.jit import HAVE_NUMBA, cache_counts
from qcards.skat.position.spec import Endgame, parse_spec


@dataclass(frozen=True)
class WarmUpStep:
    """One solver's workload: its name, the seconds it took, and the functions numba compiled
    or loaded from its cache meanwhile (through :func:`qcards.skat.compiled.jit.njit`; the sparse
    engine's own kernels are compiled too but not counted)."""

    name: str
    seconds: float
    compiled: int
    loaded: int

    def to_json(self) -> dict:
        return {"name": self.name, "seconds": self.seconds, "compiled": self.compiled,
                "loaded": self.loaded}  # fmt: skip


def _packaged(name: str) -> Endgame:
    text = resources.files("qcards.specs").joinpath(name).read_text("utf-8")
    return parse_spec(text, source=f"qcards/specs/{name}")


def _referee() -> None:
    from qcards.skat.solvers.fast_referee import solver as fast_referee

    spec = _packaged("six-card.toml")
    fast_referee.evaluate(spec, "random")
    fast_referee.evaluate(spec, "adversarial")


def _double_dummy() -> None:
    import numpy as np

    from qcards.skat.deals.sample import sample_owners
    from qcards.skat.solvers.double_dummy.outcome import deal_outcome
    from qcards.skat.solvers.double_dummy.solver import solve_deal

    spec = _packaged("full-game.toml")
    owner = sample_owners(spec, np.random.default_rng(0), 1)[0]
    solve_deal(spec, owner)
    deal_outcome(spec, owner, points=False)


def _best_response() -> None:
    from qcards.skat.players.best_response import best_response
    from qcards.skat.players.heuristic import heuristic
    from qcards.skat.position.seat_view import uniform

    spec = _packaged("six-card.toml")
    best_response(spec, others=uniform, compiled=True)
    best_response(spec, others=heuristic, compiled=True)


def _sparse_engine() -> None:
    from qcards.analysis.evaluate import evaluate

    evaluate(_packaged("four-card.toml"), method="sparse")
    evaluate(_packaged("six-card.toml"), model="heuristic", method="sparse")


WORKLOADS: tuple[tuple[str, Callable[[], None]], ...] = (
    ("exact referee (random and adversarial play)", _referee),
    ("double-dummy solver (a full deal)", _double_dummy),
    ("best response (random and heuristic defenders)", _best_response),
    ("sparse engine and card-play gates", _sparse_engine),
)
"""The solvers :func:`warm_up` compiles, each by a small workload."""


def warm_up() -> list[WarmUpStep]:
    """Run every :data:`WORKLOADS` entry once, in order, and report each (an empty list when
    numba is not installed: nothing is compiled then)."""
    if not HAVE_NUMBA:
        return []
    from qcards.progress import step

    steps = []
    for name, workload in WORKLOADS:
        compiled, loaded = cache_counts()
        start = time.perf_counter()
        with step(f"warm-up: {name}"):
            workload()
        seconds = time.perf_counter() - start
        after = cache_counts()
        steps.append(WarmUpStep(name, seconds, after[0] - compiled, after[1] - loaded))
    return steps
