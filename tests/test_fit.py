"""The variational fit of the softmax play model (issue 39 item 3): each role's fit serves it,
the values it reports are the referee's for the parameters it returns, zero parameters start
from random play, sampled fits repeat with their seed, and bad options are refused."""

from __future__ import annotations

import json

import pytest

from qcards.analysis.evaluate import evaluate
from qcards.analysis.fit import declarer_value, fit
from qcards.cli import main
from qcards.errors import ModelError, ParameterError, ResourceError
from qcards.plan import limits
from qcards.skat.position.spec import parse_spec

from conftest import REPO, TEST_SPECS, spec_text

SPEC = parse_spec(spec_text("skat-two-tricks"))
ZERO = {"declarer": {}, "defender": {}}


def test_each_fit_serves_its_role_and_reports_the_referees_value():
    result = fit(SPEC, rounds=2, maxiter=15)
    assert [r.role for r in result.rounds] == ["declarer", "defender"] * 2
    for r in result.rounds:
        if r.role == "declarer":
            assert r.after >= r.before - 1e-12
        else:
            assert r.after <= r.before + 1e-12
    for a, b in zip(result.rounds, result.rounds[1:], strict=False):
        assert b.before == a.after
    assert result.rounds[-1].after == pytest.approx(declarer_value(SPEC, result.theta), abs=1e-12)


def test_zero_parameters_are_random_play():
    exact = evaluate(SPEC, method="classical").p_win_exact
    assert declarer_value(SPEC, ZERO) == pytest.approx(float(exact), abs=1e-12)
    assert fit(SPEC, rounds=1, maxiter=7, start=ZERO).start == pytest.approx(float(exact))


def test_sampled_fit_repeats_with_its_seed():
    one = fit(SPEC, rounds=1, maxiter=7, shots=200, seed=4)
    two = fit(SPEC, rounds=1, maxiter=7, shots=200, seed=4)
    assert one.method == "monte-carlo" and one.theta == two.theta
    assert [(r.before, r.after) for r in one.rounds] == [(r.before, r.after) for r in two.rounds]


def test_refusals():
    with pytest.raises(ParameterError, match="unknown optimizer 'adam'"):
        fit(SPEC, optimizer="adam")
    with pytest.raises(ParameterError, match="rounds"):
        fit(SPEC, rounds=0)
    with pytest.raises(ParameterError, match="COBYLA needs maxiter of at least 7"):
        fit(SPEC, maxiter=3)
    with pytest.raises(ModelError, match="scores a declared game"):
        fit(SPEC, objective="score")


def test_cli(capsys):
    spec = str(TEST_SPECS / "skat-two-tricks.toml")
    assert main(["fit", spec, "--rounds", "1", "--maxiter", "7", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert [r["role"] for r in data["rounds"]] == ["declarer", "defender"]
    assert set(data["theta"]) == {"declarer", "defender"}
    assert main(["fit", spec, "--shots", "0"]) == 2
    assert capsys.readouterr().err.startswith("error: ")


def test_the_circuit_values_a_policy_as_the_referee_does():
    """The fit's ``circuit`` method values a parameter set by the policy-weighted circuit's
    exact final state: the referee's expectation to 1e-9, so the fit takes the same steps."""
    from qcards.analysis.fit import declarer_value, fit
    from qcards.skat.players.play_models import DEFAULT_THETA
    from qcards.skat.position.spec import load_spec

    spec = load_spec("qcards/specs/six-card.toml")
    theta = {
        "declarer": {"points": -1.0, "wins_now": 2.0},
        "defender": dict(DEFAULT_THETA["defender"]),
    }
    exact = declarer_value(spec, theta, "win")
    assert abs(declarer_value(spec, theta, "win", method="circuit") - exact) < 1e-9
    circuit = fit(spec, rounds=1, maxiter=8, method="circuit")
    referee = fit(spec, rounds=1, maxiter=8)
    assert circuit.method == "circuit" and referee.method == "classical"
    for a, b in zip(circuit.rounds, referee.rounds, strict=True):
        assert abs(a.after - b.after) < 1e-9


def test_fit_method_refusals():
    from qcards.analysis.fit import fit
    from qcards.errors import ParameterError
    from qcards.skat.position.spec import load_spec

    spec = load_spec("qcards/specs/four-card.toml")
    with pytest.raises(ParameterError, match="unknown fit method"):
        fit(spec, method="aer")
    with pytest.raises(ParameterError, match="needs"):
        fit(spec, method="circuit", shots=10)
    with pytest.raises(ParameterError, match="needs"):
        fit(spec, method="monte-carlo")


def test_the_method_refusals_name_the_flags_and_the_method_asked(capsys):
    """Issue 53, item 16: ``--method monte-carlo`` without shots printed a literal ``{shots}``,
    and ``--method circuit --shots N`` was told about monte-carlo."""
    six = str(REPO / "qcards" / "specs" / "six-card.toml")
    assert main(["fit", six, "--method", "monte-carlo"]) == 2
    err = capsys.readouterr().err.strip()
    assert err == "error: --method monte-carlo needs --shots (games a parameter set)", err
    assert main(["fit", six, "--method", "circuit", "--shots", "10"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("error: --method circuit is exact: it needs no --shots"), err
    assert "{" not in err
    with pytest.raises(ParameterError, match="classical is exact") as refused:
        fit(SPEC, method="classical", shots=10)
    assert refused.value.parameters == ("method", "shots")


def test_a_fit_past_the_time_limit_is_refused_unless_forced(capsys):
    """Issue 53, item 10: ``--rounds 100000000`` ran on, unplanned."""
    six = str(REPO / "qcards" / "specs" / "six-card.toml")
    assert main(["fit", six, "--rounds", "100000000"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("error: a fit of about"), err
    assert "--rounds" in err[0] and "--force" in err[0]
    with limits(seconds=1e-6):
        with pytest.raises(ResourceError, match="would take about"):
            fit(SPEC, rounds=1, maxiter=7)
        with pytest.raises(ResourceError, match="shots"):
            fit(SPEC, rounds=1, maxiter=7, shots=50, seed=1)
        forced = fit(SPEC, rounds=1, maxiter=7, force=True)
        assert main(["fit", str(TEST_SPECS / "skat-two-tricks.toml"), "--rounds", "1",
                     "--maxiter", "7", "--force", "--json"]) == 0  # fmt: skip
    assert forced.theta == fit(SPEC, rounds=1, maxiter=7).theta
    assert json.loads(capsys.readouterr().out)["theta"] == {
        r: dict(w) for r, w in forced.theta.items()
    }


def test_sampled_games_past_the_memory_limit_are_refused_before_any_game(capsys):
    """Issue 53, item 10: ``--shots 100000000`` on the full game died of a NumPy allocation."""
    full = str(REPO / "qcards" / "specs" / "full-game.toml")
    assert main(["fit", full, "--shots", "100000000", "--force"]) == 2  # memory is not forced
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("error: --shots 100,000,000 would need"), err
    with limits(memory=2**20), pytest.raises(ResourceError, match="games fit"):
        fit(SPEC, rounds=1, maxiter=7, shots=10_000, seed=1, force=True)
