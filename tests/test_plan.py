"""One plan per request (qcards.plan): one Limits value, one refusal writer, one rate per engine."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest

import qcards
from qcards.errors import QcardsError, ResourceError
from qcards.plan import (
    CLASSICAL,
    DEFAULT_LIMITS,
    FORCE,
    SAMPLE,
    SMALLER,
    Limits,
    Plan,
    check,
    current_limits,
    instead,
    limits,
)

from conftest import REPO

HANG_GUARD = 300
"""Seconds after which a child script counts as hung (a guard, not a timing)."""


def test_limits_nest_and_restore():
    assert current_limits() == DEFAULT_LIMITS
    assert DEFAULT_LIMITS.seconds == 600
    with qcards.limits(seconds=60) as outer:
        assert current_limits() is outer and outer.memory == DEFAULT_LIMITS.memory
        with limits(memory=1_000) as inner:
            assert (inner.seconds, inner.memory) == (60, 1_000)
        assert current_limits() is outer
        with limits(value=Limits(seconds=5, memory=7)):
            assert current_limits() == Limits(5, 7)
    assert current_limits() == DEFAULT_LIMITS


@pytest.mark.parametrize("field", ["seconds", "memory"])
@pytest.mark.parametrize("value", [0, -1, float("nan"), True, "600"])
def test_limits_refuse_a_value_that_is_not_a_positive_number(field, value):
    with pytest.raises(ValueError, match=f"limits: {field} must be a positive number"):
        Limits(**{field: value})


def test_a_time_refusal_names_the_estimate_the_sizes_what_fits_and_the_ways_out():
    plan = Plan(
        "the engine",
        seconds=3600,
        size="about 5 paths",
        time_fits="about 1 path",
        ways=(SAMPLE, CLASSICAL, SMALLER),
    )
    with pytest.raises(ResourceError) as refused:
        check(plan)
    error = refused.value
    assert error.reason == (
        "the engine would take about 60 minutes (about 5 paths), more than the 10 minutes "
        "qcards plans for; about 1 path would fit"
    )
    assert error.advice == instead((SAMPLE, CLASSICAL, SMALLER, FORCE))
    assert error.parameters == ("force", "method", "shots")
    assert error.render({"shots": "--shots", "force": "--force", "method": "--method"}).endswith(
        "use --method classical, a smaller spec or --force to run it anyway"
    )
    assert check(plan, force=True) is plan
    with limits(seconds=7200):
        assert check(plan) is plan


def test_a_memory_refusal_stands_even_when_forced():
    plan = Plan("the state", bytes=3 * 2**30, memory_fits="about 2 rows fit", ways=())
    with limits(memory=2**30), pytest.raises(ResourceError) as refused:
        check(plan, force=True)
    assert str(refused.value) == (
        "the state would need about 3.0 GiB; the budget is 1.0 GiB, about 2 rows fit"
    )
    assert refused.value.advice is None and refused.value.parameters == ()
    with limits(memory=1_500):
        with pytest.raises(ResourceError, match=r"about 2\.9 KiB; the budget is 1\.5 KiB"):
            check(Plan("the state", bytes=3_000))


def test_a_game_names_its_own_error():
    class GameError(QcardsError):
        pass

    with pytest.raises(GameError) as refused:
        check(Plan("a league", seconds=1e9, ways=("fewer {games}",)), error=GameError)
    message = refused.value.args[0]  # the markers unrendered
    assert message.startswith("a league would take about 32 years")
    assert message.endswith("; fewer {games} or {force} to run it anyway")
    assert refused.value.parameters == ("force", "games")


def test_instead_joins_the_ways_once_each():
    assert instead(()) == ""
    assert instead(("a",)) == "a"
    assert instead(("a", "b", "a", "c")) == "a, b or c"


def test_a_time_refusal_names_force_once_whatever_the_ways_say():
    """Issue 53 item 16: the double-dummy refusals' ways already named {force}, and the
    refusal added its own: "... or --force or --force to run it anyway"."""
    flags = {"shots": "--shots", "force": "--force"}
    for ways in (("use fewer {shots}",), ("give {shots} to sample", "{force} to solve them")):
        with pytest.raises(ResourceError) as refused:
            check(Plan("the solver", seconds=1e6, ways=ways))
        assert refused.value.render(flags).count("--force") == 1, ways
        assert refused.value.parameters == ("force", "shots")


def test_the_double_dummy_refusals_name_force_once():
    from qcards.analysis.sampled import pimc_samples
    from qcards.skat.position.spec import load_spec
    from qcards.skat.solvers import minimax

    spec = load_spec(REPO / "qcards" / "specs" / "six-card.toml")
    flags = {"shots": "--shots", "force": "--force", "method": "--method"}
    with limits(seconds=1e-9):
        for work in (
            lambda: minimax.average(spec),
            lambda: minimax.levels(spec),
            lambda: pimc_samples(spec, None, 1000, 1),
        ):
            with pytest.raises(ResourceError) as refused:
                work()
            assert refused.value.render(flags).count("--force") == 1, str(refused.value)


def test_a_child_process_plans_against_the_callers_limits(tmp_path):
    """The command line runs long simulations in a spawned child (qcards.execution.isolated):
    the limits in force go with the call."""
    script = tmp_path / "child.py"
    script.write_text(
        textwrap.dedent(
            """
            import os

            from qcards.execution import isolated
            from qcards.plan import current_limits, limits


            def report():
                return os.getpid(), current_limits()


            if __name__ == "__main__":
                with isolated.enabled(), limits(seconds=123, memory=4567):
                    pid, seen = isolated.call(report, expected_seconds=60)
                print(pid != os.getpid(), seen)
            """
        )
    )
    proc = subprocess.run(
        [sys.executable, str(script)], capture_output=True, text=True, timeout=HANG_GUARD
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "True Limits(seconds=123, memory=4567)"


def test_the_eighteen_card_plan_is_within_two_times_the_measured_time():
    """Issue 40: one rate per engine. The sparse engine's plan for the eighteen-card endgame
    against the 362.6 s measured for all its shards on two Dask workers
    (benchmarks/results/sharded.md, 2026-11-27); two guards said 5,378 s and 585 s before."""
    sys.path.insert(0, str(REPO / "benchmarks"))
    from bench_scale import scale_spec

    from qcards.circuits.game import build_game
    from qcards.execution.sparse.shards import engine_plan

    plan = engine_plan(build_game(scale_spec(6), None))
    assert 0.5 <= plan.seconds / 362.6 <= 2.0, plan.seconds
    assert not plan.over_time() and not plan.over_memory()  # evaluate runs it unforced
