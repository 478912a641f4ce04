"""The plain Monte Carlo of random play (the classical side of the fault-tolerant crossover)
against the exact referee: seeded, within five standard errors."""

from __future__ import annotations

import pytest

from qcards.skat.position.spec import load_spec
from qcards.skat.solvers import plain_referee as referee
from qcards.skat.solvers.monte_carlo import monte_carlo

from conftest import REPO


@pytest.mark.parametrize(
    "path",
    [
        "qcards/specs/four-card.toml",
        "qcards/specs/six-card.toml",
        "docs/examples/six-card-prior.toml",
    ],
)
def test_monte_carlo_agrees_with_the_referee(path):
    """Uniform deals and a prior's weighted deals."""
    spec = load_spec(REPO / path)
    exact = referee.evaluate(spec, "random")
    samples = 4000
    result = monte_carlo(spec, samples, seed=3)
    p = float(exact.p_win)
    assert abs(result.p_win - p) <= 5 * max(p * (1 - p), 1e-4) ** 0.5 / samples**0.5
    assert abs(result.points - float(exact.expected_points)) <= 5 * 60 / samples**0.5
    assert result.ci[0] <= result.p_win <= result.ci[1]


def test_monte_carlo_is_seeded():
    spec = load_spec(REPO / "qcards" / "specs" / "six-card.toml")
    assert monte_carlo(spec, 500, seed=9) == monte_carlo(spec, 500, seed=9)
    assert monte_carlo(spec, 500, seed=9) != monte_carlo(spec, 500, seed=10)
