"""Work estimated before it starts (issue 21): specs whose play paths would take longer than the
time budget are refused in one error line naming the estimate and what fits, unless forced."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from qcards.analysis.evaluate import evaluate
from qcards.analysis.resources import resource_spec
from qcards.circuits.task import GameTask
from qcards.cli import main
from qcards.errors import ResourceError
from qcards.execution.backends import parse_backend
from qcards.execution.budget import (
    check_memory,
    check_time,
    check_work,
    largest_fitting,
)
from qcards.execution.exact import check_game_cost
from qcards.execution.exact_methods import MPS, SPARSE, STATEVECTOR
from qcards.execution.sparse.cost import engine_seconds
from qcards.plan import current_limits, limits
from qcards.skat.position.spec import Endgame, parse_spec

DECK = [s + r for s in "CSHD" for r in ("7", "8", "9", "10", "J", "Q", "K", "A")]


def spec_text(players, hands, unknown, sizes) -> str:
    text = f'players = {json.dumps(players)}\ntrump = "hearts"\ndeclarer_points = 0\n'
    text += "target = 61\n[hands]\n"
    text += "".join(f"{p} = {json.dumps(h)}\n" for p, h in hands.items())
    text += f"[unknown]\ncards = {json.dumps(unknown)}\n"
    return text + "sizes = { " + ", ".join(f"{k} = {v}" for k, v in sizes.items()) + " }\n"


HUGE = {
    # the three: the full game, 30 unknown cards, two players with 16 cards each
    "full-game": spec_text(
        ["A", "B", "C"], {"A": DECK[:10]}, DECK[10:], {"B": 10, "C": 10, "skat": 2}
    ),
    "thirty-unknown": spec_text(
        ["A", "B", "C"], {"A": DECK[:2]}, DECK[2:], {"A": 8, "B": 10, "C": 10, "skat": 2}
    ),
    "two-by-sixteen": spec_text(["A", "B"], {"A": DECK[:16]}, DECK[16:], {"B": 16}),
}


@pytest.mark.parametrize("name", sorted(HUGE))
@pytest.mark.parametrize("command", ["evaluate", "recommend", "count"])
def test_huge_specs_are_refused_in_one_line(tmp_path, capsys, name, command):
    path = tmp_path / f"{name}.toml"
    path.write_text(HUGE[name])
    extra = ["--method", "classical"] if command == "evaluate" else []
    assert main([command, str(path), *extra]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("error: ")
    assert "--force" in err[0]
    if command != "evaluate":  # the circuit's play paths, at the engine's rate
        assert "play paths" in err[0]
        fits = int(err[0].split("; about ")[1].split(" paths would fit")[0].replace(",", ""))
        limit = current_limits().seconds
        assert engine_seconds(fits) == pytest.approx(limit)
    else:  # the exact referee's positions (issue 31's fast referee)
        assert "the exact referee would take about" in err[0] and "--shots" in err[0]


def test_the_library_refuses_before_any_work_and_force_lets_it_through():
    spec = parse_spec(HUGE["full-game"], "full.toml")
    with pytest.raises(ResourceError, match="the exact referee would take about") as refused:
        evaluate(spec, method="classical")
    assert refused.value.parameters == ("force", "method", "shots")
    assert check_work(spec, force=True) > current_limits().seconds  # estimated, not refused


def test_small_specs_pass_and_force_changes_nothing(capsys):
    argv = ["evaluate", "qcards/specs/six-card.toml", "--first", "CA", "--json"]
    assert main(argv) == 0
    plain = json.loads(capsys.readouterr().out)
    assert main([*argv, "--force"]) == 0
    assert json.loads(capsys.readouterr().out) == plain


# -- each simulator's time model (ExactMethod.seconds) ---------------------------------------


def nine_cards() -> Endgame:
    """Three players with three cards each, the declarer's hand known: 2,075 play paths, 40
    qubits with the paper's construction (Aer MPS did not answer in 12 minutes)."""
    spec = resource_spec(3, skat=False)
    return replace(spec, declarer_points=61 - spec.points_in_play() // 2)


@pytest.mark.parametrize("name", ["statevector", "mps", "ddsim", "sparse"])
def test_each_time_model_grows_with_the_paths_the_width_and_the_gates(name):
    method = parse_backend(name).exact_method
    small = method.seconds(20, 100, 1_000)
    assert method.seconds(20, 10_000, 1_000) >= small > 0
    assert method.seconds(24, 100, 1_000) >= small
    assert method.seconds(20, 100, 5_000) >= small


def test_a_simulation_past_the_budget_is_refused_naming_what_fits():
    with pytest.raises(ResourceError) as refused:
        check_time(MPS, 40, 2_075, 11_541)
    message = str(refused.value)
    assert "mps method would take about" in message and "2,075 play paths" in message
    fits = int(message.split("; about ")[1].split(" play paths at")[0].replace(",", ""))
    limit = current_limits().seconds
    assert MPS.seconds(40, fits, 11_541) <= limit
    assert MPS.seconds(40, fits + 1, 11_541) > limit
    assert refused.value.parameters == ("force", "method", "shots")
    assert check_time(MPS, 40, 2_075, 11_541, force=True) > limit


def test_a_dense_statevector_names_the_widest_circuit_that_fits():
    with pytest.raises(ResourceError, match=r"circuits up to \d+ qubits would fit"):
        check_time(STATEVECTOR, 40, 10, 1_000)


def test_a_memory_refusal_names_the_paths_that_fit():
    with pytest.raises(ResourceError, match=r"which holds at most about [\d,]+ play paths"):
        check_memory(SPARSE, 161, 806_685_264)
    assert largest_fitting(lambda p: 10 * p, 1_000) == 100
    assert largest_fitting(lambda p: 10 * p, 5) == 0


@pytest.mark.parametrize(
    ("argv", "why"),
    [
        # reading 39 qubits' probabilities: Aer builds a dense vector of 2^39 (std::bad_alloc
        # after ten minutes before this guard)
        (["evaluate", "--method", "mps", "--construction", "paper"], "memory"),
        (["recommend", "--method", "mps", "--construction", "paper"], "memory"),
        # sampling reads nothing dense: the time model refuses it
        (["run", "--backend", "mps", "--construction", "paper", "--shots", "10"], "time"),
    ],
)
def test_mps_on_nine_cards_is_refused_up_front(tmp_path, capsys, argv, why):
    path = tmp_path / "nine.toml"
    path.write_text(nine_cards().to_toml())
    assert main([argv[0], str(path), *argv[1:]]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("error: ")
    if why == "time":
        assert "the mps method would take about" in err[0] and "--force" in err[0]
    else:
        assert "the mps method would need about" in err[0]
        assert "the probabilities of 39 qubits alone need 4,096.0 GiB" in err[0]


def test_small_circuits_pass_every_time_model(four_card):
    game = GameTask(four_card, None, "paper").build()
    for method in ("statevector", "mps", "ddsim", "sparse"):
        assert check_game_cost(game, parse_backend(method).exact_method) < current_limits().seconds


@pytest.mark.parametrize(
    ("backend", "shots", "runs"),
    [
        ("fake:FakeTorino", 100_000, "10,000 trajectories"),
        ("fake-aer:FakeTorino", 5_000, "5,000 shots"),
    ],
)
def test_a_long_device_emulation_is_refused_after_transpiling(capsys, backend, shots, runs):
    argv = ["run", "qcards/specs/four-card.toml", "--backend", backend, "--shots", str(shots)]
    assert main([*argv, "--construction", "paper"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("error: ")
    assert f"emulating {backend} ({runs}) would take about" in err[0] and "--force" in err[0]


def test_emulation_time_grows_with_the_shots_and_the_mitigation_circuits():
    from qiskit import QuantumCircuit

    from qcards.execution.backends import parse_backend
    from qcards.execution.run import check_emulation_time

    circuit = QuantumCircuit(20)
    for _ in range(500):
        circuit.cx(0, 1)
    target = parse_backend("fake:FakeTorino")
    check_emulation_time(target, [circuit], 20, 1_000, force=False)  # 100 x 500 gates: fits
    with pytest.raises(ResourceError, match="emulating fake:FakeTorino"):
        check_emulation_time(target, [circuit] * 10, 20, 100_000, force=False)
    check_emulation_time(target, [circuit] * 10, 20, 100_000, force=True)


def test_count_checks_the_simulator_it_samples_for_every_grover_power(capsys):
    # IAE at epsilon 0.01 applies the Grover operator about 160 times: on MPS, the six-card
    # circuit (about 4 s a pass) is planned past the budget
    argv = ["count", "qcards/specs/six-card.toml", "--backend", "mps", "--epsilon", "0.01"]
    assert main(argv) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "the mps method would take about" in err[0]
    assert "--backend" in err[0] and "--force" in err[0]


@pytest.mark.parametrize(
    ("argv", "what", "advice", "memory"),
    [
        # the sparse engine runs the deals in shards, rows in blocks: refused when they cannot fit
        (
            ["evaluate", "--method", "sparse"],
            "sparse engine",
            "give --shots to sample the circuit",
            1,
        ),
        (["evaluate", "--method", "sparse"], "sparse engine", "use --method classical", 1),
        # ten shots' samples fit in 10 kB (2,700 bytes), the state does not
        (
            ["run", "--backend", "aer-mps", "--shots", "10"],
            "mps method",
            "use --backend sparse",
            10**4,
        ),
    ],
)
def test_a_memory_refusal_names_the_right_alternative(capsys, argv, what, advice, memory):
    with limits(memory=memory):  # bytes: the state does not fit, not even one deal
        assert main([argv[0], "qcards/specs/four-card.toml", *argv[1:]]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and f"the {what} would need about" in err[0]
    assert advice in err[0]


def test_run_on_the_sparse_engine_samples_shot_by_shot_when_the_state_does_not_fit(capsys):
    # one memory limit for the state and the samples: the state (2,688 bytes by the engine's
    # model, 6,048 in shards) does not fit in 2,500, eight shots' 2,160 bytes of samples do
    argv = ["run", "qcards/specs/four-card.toml", "--backend", "sparse", "--shots", "8"]
    with limits(memory=2_500):
        assert main(["evaluate", "qcards/specs/four-card.toml", "--method", "sparse"]) == 2
        assert "the sparse engine would need" in capsys.readouterr().err
        assert main([*argv, "--seed", "1", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["sampling"] == "ideal shots" and data["shots"] == 8
    low, high = data["ci"]
    assert low <= 5 / 12 <= high  # the exact 5/12 (seed 1; a 95% interval)
    assert sum(data["points"].values()) == 8
