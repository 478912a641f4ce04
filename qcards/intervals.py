"""95% intervals of sampled answers: a win rate, a mean, and a paired difference (below all
layers: plain arithmetic with numpy).

A win probability from n shots gets Wilson's score interval (it stays inside [0, 1] and keeps
its coverage near 0 and 1, where the normal interval's collapses); a mean (expected points) and
the difference of two answers measured on the same shots (common random numbers) get the normal
interval of the sample mean, mean +- z s / sqrt(n). The tests check the coverage over many
seeds (``tests/test_shots.py``).
"""

from __future__ import annotations

import math

import numpy as np

Z95 = 1.959963984540054
"""The two-sided 95% quantile of the standard normal distribution."""


def wilson(successes: float, trials: float, z: float = Z95) -> tuple[float, float]:
    """Wilson's score interval of a binomial proportion (of shots counted fractionally too,
    as the readout correction leaves them)."""
    if trials <= 0:
        raise ValueError("an interval needs at least one trial")
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    return max(0.0, centre - half), min(1.0, centre + half)


def mean_interval(values: np.ndarray, z: float = Z95) -> tuple[float, float]:
    """The normal interval of the mean of ``values`` (zero width for a constant sample)."""
    values = np.asarray(values, dtype=float)
    mean = float(values.mean())
    if values.size < 2:
        return mean, mean
    half = z * float(values.std(ddof=1)) / math.sqrt(values.size)
    return mean - half, mean + half
