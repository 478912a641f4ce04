"""Logical counts for the fault-tolerant estimate (issue: Sec. IX done right): the cached
call-graph count against the same rules applied to the fully flattened circuit, the rules
themselves, the schedules, the physical estimates and the command."""

from __future__ import annotations

import json
import math

import pytest
from qiskit import QuantumCircuit
from qiskit.circuit.library import MCPhaseGate, MCXGate, QFTGate, RYGate

from qcards.analysis.resources import resource_spec
from qcards.circuits.logical_counts import LogicalCounter, LogicalCounts, flattened, logical_counts
from qcards.circuits.oracle import build_win_circuit
from qcards.cli import main
from qcards.errors import ParameterError, ResourceError
from qcards.estimation.fault_tolerant import (
    IdealAmplitudeSampler,
    circuit_counts,
    grover_iterate_counts,
    schedule,
)
from qcards.estimation.schedules import ScheduledCircuit, eval_qubits_for
from qcards.skat.position.spec import load_spec

from conftest import REPO

# ----------------------------------------------------------------------------- the rules


def counts_of(*ops) -> LogicalCounts:
    qc = QuantumCircuit(max(op.num_qubits for op in ops))
    for op in ops:
        qc.append(op, range(op.num_qubits))
    return logical_counts(qc)


def test_cliffords_are_free_and_t_gates_count():
    qc = QuantumCircuit(3)
    qc.h(0), qc.cx(0, 1), qc.s(2), qc.swap(1, 2), qc.cz(0, 2), qc.t(0), qc.tdg(1)
    counts = logical_counts(qc)
    assert (counts.t_gates, counts.toffoli_class, counts.rotations) == (2, 0, 0)


@pytest.mark.parametrize(
    ("angle", "t", "rotations"),
    [
        (math.pi / 2, 0, 0),
        (math.pi, 0, 0),
        (math.pi / 4, 1, 0),
        (3 * math.pi / 4, 1, 0),
        (0.3, 0, 1),
    ],
)
def test_single_rotations_by_angle(angle, t, rotations):
    counts = counts_of(RYGate(angle))
    assert (counts.t_gates, counts.rotations, counts.rotation_depth) == (t, rotations, rotations)


@pytest.mark.parametrize("controls", [3, 5, 12])
def test_a_many_controlled_x_is_an_and_chain(controls):
    counts = counts_of(MCXGate(controls))
    assert counts.toffolis == 1 and counts.ands == controls - 2
    assert counts.measurements == controls - 2  # uncomputed by measurement
    assert counts.num_qubits == controls + 1 + controls - 2


def test_a_controlled_phase_is_one_rotation_on_an_and():
    counts = counts_of(MCPhaseGate(0.3, 3))
    assert (counts.ands, counts.rotations, counts.toffolis) == (3, 1, 0)


def test_unbound_parameters_are_refused():
    from qiskit.circuit import Parameter

    qc = QuantumCircuit(1)
    qc.ry(Parameter("x"), 0)
    with pytest.raises(ResourceError, match="unbound"):
        logical_counts(qc)


def test_a_gate_without_definition_or_rule_is_refused():
    from qiskit.circuit import Gate

    qc = QuantumCircuit(1)
    qc.append(Gate("mystery", 1, []), [0])
    with pytest.raises(ResourceError, match="mystery"):
        logical_counts(qc)


# ----------------------------------------------------------------------------- flattened


@pytest.mark.parametrize(
    ("construction", "n"),
    # the paper's deal is a dense state preparation: two cards a player flatten in seconds
    [("efficient", 1), ("efficient", 2), ("efficient", 3), ("paper", 1), ("paper", 2)],
)
def test_counts_equal_the_flattened_circuit(construction, n):
    """Every count, the rotation depth included, equals the rules applied gate by gate to the
    flattened circuit of A (game and win oracle)."""
    win = build_win_circuit(resource_spec(n), construction=construction)
    assert logical_counts(win.circuit) == logical_counts(flattened(win.circuit))


@pytest.mark.parametrize("name", ["four-card", "six-card"])
def test_packaged_specs_equal_the_flattened_circuit(name):
    spec = load_spec(REPO / "qcards" / "specs" / f"{name}.toml")
    win = build_win_circuit(spec)
    assert logical_counts(win.circuit) == logical_counts(flattened(win.circuit))


def test_a_shared_counter_counts_each_gate_once_and_answers_the_same():
    win = build_win_circuit(resource_spec(2))
    counter = LogicalCounter()
    first = counter.count(win.circuit)
    cached = len(counter._cache)
    assert counter.count(win.circuit) == first and len(counter._cache) == cached


# ----------------------------------------------------------------------------- iterates


def test_the_grover_iterate_is_two_a_and_a_reflection():
    """Against the circuit built the way qcards' phase estimation builds one (A, its inverse
    and the multi-controlled reflection), counted flat."""
    from qiskit.synthesis import synth_mcx_1_clean_kg24

    win = build_win_circuit(resource_spec(1))
    counter = LogicalCounter()
    a = counter.count(win.circuit)
    iterate = grover_iterate_counts(counter, a, win.num_qubits)
    width = win.num_qubits
    qc = QuantumCircuit(width + 1)
    qc.append(win.circuit.to_gate().inverse(), range(width))
    qc.x(range(width)), qc.h(width - 1)
    qc.compose(synth_mcx_1_clean_kg24(width - 1), range(width + 1), inplace=True)
    qc.h(width - 1), qc.x(range(width))
    qc.append(win.circuit.to_gate(), range(width))
    flat = logical_counts(flattened(qc))
    assert iterate.toffoli_class == flat.toffoli_class and iterate.t_gates == flat.t_gates
    assert iterate.rotations == flat.rotations and iterate.measurements == flat.measurements
    assert iterate.rotation_depth >= flat.rotation_depth  # depths of a sequence add
    assert iterate.num_qubits == max(a.num_qubits, width + 1)


def test_a_phase_estimation_circuit_adds_its_register_and_inverse_qft():
    win = build_win_circuit(resource_spec(1))
    counter = LogicalCounter()
    a = counter.count(win.circuit)
    plain = circuit_counts(counter, a, win.num_qubits, ScheduledCircuit(3, 1))
    estimating = circuit_counts(counter, a, win.num_qubits, ScheduledCircuit(7, 1, 3))
    assert estimating.num_qubits == a.num_qubits + 3
    qft = logical_counts(QuantumCircuit(3).compose(QFTGate(3).inverse()))
    assert estimating.rotations > plain.rotations + qft.rotations  # 7 > 3 iterates


# ----------------------------------------------------------------------------- schedules


@pytest.mark.parametrize("epsilon", [1e-2, 1e-3])
@pytest.mark.parametrize("algorithm", ["iae", "mlae", "canonical"])
def test_schedules_reach_their_epsilon(algorithm, epsilon):
    plan = schedule(algorithm, epsilon)
    assert plan.half_width <= epsilon
    assert plan.oracle_calls == sum(c.powers * c.shots for c in plan.circuits) > 0


def test_phase_estimation_qubits_follow_the_bound():
    assert eval_qubits_for(0.01) == 9  # pi/512 + pi^2/512^2 < 0.01 < pi/256
    assert eval_qubits_for(1e-4) == 15


def test_the_ideal_sampler_matches_the_sparse_engine_on_phase_estimation():
    """The stand-in's phase-estimation distribution (Fejer kernel) against qcards' sparse
    engine on a one-qubit problem of the same amplitude."""
    from qiskit_algorithms import EstimationProblem

    from qcards.execution.sparse.sampler import SparseSampler

    amplitude = 0.3
    prep = QuantumCircuit(1)
    prep.ry(2 * math.asin(math.sqrt(amplitude)), 0)
    engine = SparseSampler().for_problem(EstimationProblem(prep, objective_qubits=[0]))
    ideal = IdealAmplitudeSampler(amplitude)
    for m in (2, 4):
        expected = engine._phase_distribution(m)
        got = ideal.phase_distribution(m)
        assert all(abs(got[y] - expected.get(y, 0.0)) < 1e-9 for y in range(2**m))
    for k in (0, 1, 5):
        assert abs(ideal.power_distribution(k)[1] - engine._distribution(k).get(1, 0.0)) < 1e-9


def test_schedule_input_errors_name_the_field():
    with pytest.raises(ParameterError, match="epsilon"):
        schedule("iae", 0.7)
    with pytest.raises(ParameterError, match="algorithm"):
        schedule("nope", 0.01)


# ----------------------------------------------------------------------------- physical and CLI


def test_physical_estimates_grow_with_the_work():
    pytest.importorskip("qdk", reason="qcards[estimate] is part of the test install")
    from qcards.execution.physical import physical_estimates

    small, large = physical_estimates(
        [LogicalCounts(num_qubits=50, toffolis=1000), LogicalCounts(num_qubits=50, toffolis=10**8)],
        ["gate_ns_e3"],
    )
    assert large[0].runtime_seconds > 1000 * small[0].runtime_seconds
    assert large[0].code_distance >= small[0].code_distance
    with pytest.raises(ParameterError, match="qubit model"):
        physical_estimates([LogicalCounts(num_qubits=2, toffolis=1)], ["nope"])


def test_cli_fault_tolerant_json(capsys):
    assert main(["resources", "--cards-per-player", "2", "--fault-tolerant", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["construction"] == "efficient" and data["epsilon"] == 0.01
    assert {a["algorithm"] for a in data["algorithms"]} == {"canonical", "iae", "mlae"}
    for entry in [data["a"], *data["algorithms"]]:
        assert entry["logical_qubits"] > 0 and entry["toffoli_ccz"] > 0 and entry["rotations"] > 0
    for algorithm in data["algorithms"]:
        models = {m["qubit_model"] for m in algorithm["qubit_models"]}
        assert models == {"gate_us_e3", "gate_ns_e3", "maj_ns_e4"}
        for model in algorithm["qubit_models"]:
            assert model["code_distance"] > 0 and model["physical_qubits"] > 0
            assert model["runtime_seconds"] > 0


def test_cli_fault_tolerant_spec_table(capsys):
    path = str(REPO / "qcards" / "specs" / "four-card.toml")
    args = ["resources", path, "--fault-tolerant", "--qubit-model", "maj_ns_e4"]
    assert main([*args, "--algorithm", "iae"]) == 0
    out = capsys.readouterr().out
    assert "Grover iterate" in out and "maj_ns_e4" in out and "iae" in out


@pytest.mark.parametrize(
    ("argv", "fragment"),
    [
        (["resources"], "--cards-per-player"),
        (["resources", "--cards-per-player", "2", "--fault-tolerant", "--epsilon", "0"], "epsilon"),
        (["resources", "--cards-per-player", "11", "--fault-tolerant"], "1..10"),
    ],
)
def test_cli_errors(capsys, argv, fragment):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and fragment in err and "Traceback" not in err


def test_runtimes_past_584_years_do_not_wrap():
    """The estimator's runtime is an integer of nanoseconds that wraps at 2^64; qcards
    recomputes it from the logical depth, so a thousand times the work is about a thousand
    times the time."""
    pytest.importorskip("qdk", reason="qcards[estimate] is part of the test install")
    from qcards.execution.physical import physical_estimates

    counts = [LogicalCounts(num_qubits=461, toffolis=10**k) for k in (12, 15)]
    (small,), (large,) = physical_estimates(counts, ["maj_ns_e4"])
    assert large.runtime_seconds > 584 * 365 * 86400
    assert 500 < large.runtime_seconds / small.runtime_seconds < 2000
