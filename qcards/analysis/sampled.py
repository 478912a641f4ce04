"""Answers at any size: the circuit's ideal-device shots and double dummy on sampled deals.

* Random play, ``shots`` given: the game circuit sampled shot by shot as a fault-tolerant device
  would return it (:mod:`qcards.execution.shots`); p_win with Wilson's 95% interval, expected
  points with the normal interval of the mean.
* Adversarial play, ``shots`` given: perfect-information Monte Carlo, the double-dummy value of
  ``shots`` deals drawn from the prior (:mod:`qcards.skat.solvers.pimc`), with the same intervals.

Without shots the adversarial model's exact value is :mod:`qcards.skat.solvers.minimax`'s.

Every sampled method of one seed draws the same deals chunk by chunk, so answers compared on
one seed (first cards, game types) differ by their play, not by their luck of the deal.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import partial

import numpy as np

from qcards.analysis.scores import sample_values
from qcards.circuits.task import GameTask
from qcards.execution.budget import check_result_memory, check_shots
from qcards.execution.sweeps import sweep
from qcards.intervals import mean_interval, wilson
from qcards.skat.deals.sample import chunks, fresh_seed
from qcards.skat.position.spec import Endgame
from qcards.skat.rules.cards import Card
from qcards.skat.solvers.minimax import check_solving_time
from qcards.skat.solvers.pimc import PIMC_CHUNK, pimc_chunk


@dataclass(frozen=True)
class Samples:
    """Per-sample outcomes (one per shot or solved deal) and their summary."""

    wins: np.ndarray
    points: np.ndarray
    seed: int
    seconds: float
    scores: Mapping[str, np.ndarray] = field(default_factory=dict, repr=False)
    """A declared game's scores, sample by sample, by report field
    (:func:`~qcards.analysis.scores.sample_values`)."""

    @property
    def count(self) -> int:
        return int(self.wins.size)

    @property
    def p_win(self) -> float:
        return float(self.wins.mean())

    @property
    def p_win_ci(self) -> tuple[float, float]:
        return wilson(int(self.wins.sum()), self.count)

    @property
    def expected_points(self) -> float:
        return float(self.points.mean())

    @property
    def expected_points_ci(self) -> tuple[float, float]:
        return mean_interval(self.points)

    def difference(self, other: Samples) -> tuple[float, tuple[float, float]]:
        """p_win of this minus ``other``'s, measured shot by shot on the same deals, and its
        95% interval (common random numbers). Pairing removes the deal's share of the variance:
        much of it in double dummy, where the deal is all the randomness; under random play the
        rest of the game differs from card to card, and two cards' wins can even be negatively
        correlated, so the paired interval can be wider than either card's own."""
        delta = self.wins.astype(float) - other.wins.astype(float)
        return float(delta.mean()), mean_interval(delta)


def circuit_samples(
    spec: Endgame,
    first: Card | None,
    shots: int,
    seed: int | None,
    construction,
    scheduler: str | None = None,
    force: bool = False,
    model: str = "random",
) -> Samples:
    """``shots`` ideal-device shots of the game circuit (its card plays weighted by
    ``model``'s policy), decoded into wins and points (the shots are checked by
    :func:`~qcards.execution.shots.sample_game`)."""
    seed = fresh_seed(seed)
    start = time.perf_counter()
    from qcards.execution.shots import sample_game  # the sparse engine: NumPy kernels, Qiskit

    task = GameTask(spec, first, construction, model)
    result = sample_game(task, shots, seed, scheduler, force=force)
    scores = sample_values(spec, result.points, result.tricks, result.matadors)
    return Samples(result.wins(spec), result.points, seed, time.perf_counter() - start, scores)


def pimc_samples(
    spec: Endgame,
    first: Card | None,
    shots: int,
    seed: int | None,
    scheduler: str | None = None,
    force: bool = False,
) -> Samples:
    """Perfect-information Monte Carlo: ``shots`` deals drawn from the prior, each solved
    double dummy; refused up front (unless ``force``) past the time budget, from the measured
    time of a few deals."""
    check_shots(shots)
    check_result_memory(shots, False, 0)
    check_solving_time(
        spec,
        first,
        shots,
        force,
        "solving {count:,} sampled deals",
        ("use fewer {shots}",),
    )
    seed = fresh_seed(seed)
    start = time.perf_counter()
    parts = sweep(partial(pimc_chunk, spec, first, seed), chunks(shots, PIMC_CHUNK), scheduler)
    points, wins, *declared = (np.concatenate(column) for column in zip(*parts, strict=True))
    scores = sample_values(spec, points, *declared) if declared else {}
    return Samples(wins, points, seed, time.perf_counter() - start, scores)
