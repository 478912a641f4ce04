"""Noisy emulation of fake IBM devices by Pauli trajectories (``--backend fake:<Name>``)."""

from __future__ import annotations

import numpy as np
import pytest
from qiskit.circuit import QuantumCircuit
from qiskit.transpiler import generate_preset_pass_manager
from qiskit_aer import AerSimulator
from qiskit_aer.noise import NoiseModel, depolarizing_error, pauli_error, thermal_relaxation_error

from qcards.circuits.decode import INVALID_LABEL
from qcards.circuits.task import GameTask
from qcards.errors import ResourceError
from qcards.execution.backends import parse_backend
from qcards.execution.noisy import PauliChannels, PauliTrajectorySampler, fake_device, pauli_twirl
from qcards.execution.run import run
from qcards.paper.examples import FOUR_CARD


def test_twirl_of_a_pauli_channel_is_itself():
    error = pauli_error([("XZ", 0.1), ("YY", 0.05), ("II", 0.85)])
    probabilities, labels = pauli_twirl(error)
    got = dict(zip(labels, probabilities, strict=True))
    assert got["II"] == pytest.approx(0.85) and got["XZ"] == pytest.approx(0.1)
    assert got["YY"] == pytest.approx(0.05) and sum(got.values()) == pytest.approx(1)


def test_twirl_of_depolarizing_and_relaxation():
    p = 0.03
    probabilities, labels = pauli_twirl(depolarizing_error(p, 1))
    assert labels == ["I", "X", "Y", "Z"]
    assert probabilities == pytest.approx([1 - 3 * p / 4, p / 4, p / 4, p / 4])
    # Pauli twirling approximation of amplitude and phase damping (T1, T2, time t)
    t1, t2, t = 100e3, 80e3, 500.0
    probabilities, _ = pauli_twirl(thermal_relaxation_error(t1, t2, t))
    px = (1 - np.exp(-t / t1)) / 4
    pz = (1 - np.exp(-t / t2)) / 2 - px
    assert probabilities[1:] == pytest.approx([px, px, pz], rel=1e-6)


def _deep_circuit():
    """Three qubits, many noisy gates, a nontrivial ideal distribution."""
    qc = QuantumCircuit(3)
    qc.h(0)
    qc.ry(0.7, 1)
    for _ in range(15):
        qc.cx(0, 1)
        qc.cx(1, 2)
        qc.cx(0, 2)
    qc.measure_all()
    return qc


def _twirled_model(channels: PauliChannels, circuit) -> NoiseModel:
    """The same Pauli channels and readout errors as an Aer noise model (the reference)."""
    model = channels.readout
    seen = set()
    for inst in circuit.data:
        qargs = tuple(circuit.find_bit(q).index for q in inst.qubits)
        key = (inst.operation.name, qargs)
        found = channels.channel(*key)
        if found is None or key in seen:
            continue
        seen.add(key)
        probabilities, labels = found
        terms = [(label, float(w)) for label, w in zip(labels, probabilities, strict=True)]
        terms.append(("I" * len(qargs), 1 - float(probabilities.sum())))
        model.add_quantum_error(pauli_error(terms), key[0], qargs)
    return model


@pytest.mark.slow
def test_trajectories_sample_the_twirled_device_distribution():
    device = fake_device("FakeManilaV2")
    pm = generate_preset_pass_manager(optimization_level=0, backend=device, seed_transpiler=0)
    circuit = pm.run(_deep_circuit())
    shots = 20_000
    sampler = PauliTrajectorySampler(device, seed=11, shots_per_trajectory=10)
    counts = sampler.run([circuit], shots=shots).result()[0].data.meas.get_counts()
    assert sum(counts.values()) == shots
    reference = AerSimulator(
        method="density_matrix", noise_model=_twirled_model(PauliChannels(device), circuit)
    )
    exact = reference.run(circuit, shots=2_000_000, seed_simulator=3).result().get_counts()
    ideal = AerSimulator().run(circuit, shots=2_000_000, seed_simulator=3).result().get_counts()
    keys = set(exact) | set(counts) | set(ideal)
    sampled = {k: counts.get(k, 0) / shots for k in keys}
    want = {k: exact.get(k, 0) / 2_000_000 for k in keys}
    clean = {k: ideal.get(k, 0) / 2_000_000 for k in keys}
    # seed fixed; 5 sigma of 20,000 shots, widened by sqrt(10) for the shots that share a
    # trajectory (the worst case)
    for k in keys:
        sigma = max(want[k] * (1 - want[k]), 1e-4) ** 0.5 / shots**0.5 * 10**0.5
        assert abs(sampled[k] - want[k]) < 5 * sigma, k
    assert sum(abs(clean[k] - want[k]) for k in keys) > 0.05  # the noise is visible


def test_unknown_fake_device_is_named():
    with pytest.raises(ResourceError, match="FakeNowhere.*FakeTorino"):
        fake_device("FakeNowhere")


def test_fake_aer_is_the_full_noise_model():
    device, sampler = parse_backend("fake-aer:FakeManilaV2").sampler(seed=1)
    assert device.name == "fake_manila"
    assert sampler.options.backend_options["noise_model"].noise_qubits


@pytest.mark.slow
def test_four_card_on_a_fake_device():
    shots = 200
    report = run(
        GameTask(FOUR_CARD.spec(), construction="paper"), "fake:FakeTorino", shots=shots, seed=4
    )
    assert report.shots == shots and sum(report.counts.values()) == shots
    assert 15 <= report.transpiled.num_qubits <= 28  # the game qubits, maybe a routing one
    # ~3,800 CZ at ~0.3% error each: most shots end in no game state and p_win falls far
    # below the exact 5/12 (the noise study in benchmarks/bench_noise.py has the figures)
    assert report.counts.get(INVALID_LABEL, 0) > shots / 4
    assert report.p_win < 5 / 12 - 0.1


def test_gate_errors_derived_one_gate_at_a_time_equal_the_whole_devices():
    """The channels are derived per gate on first use; Aer's whole-device derivation gives the
    same channel for every gate of a small device, and no channel where it gives no error."""
    from qiskit_aer.noise.device.models import basic_device_gate_errors

    device = fake_device("FakeManilaV2")
    whole = {
        (name, tuple(qargs)): pauli_twirl(error)
        for name, qargs, error in basic_device_gate_errors(target=device.target)
    }
    channels = PauliChannels(device)
    target = device.target
    gates = [(name, qargs) for name in target.operation_names for qargs in target[name]]
    assert len(whole) > 20
    for name, qargs in gates + [("cz", (0, 4)), ("no_such_gate", (0,))]:
        found = channels.channel(name, qargs)
        if (name, qargs) not in whole:
            assert found is None, (name, qargs)
            continue
        probabilities, labels = whole[name, qargs]
        assert found is not None and found[1] == labels[1:]
        np.testing.assert_allclose(found[0], probabilities[1:], rtol=0, atol=1e-15)
    assert set(whole) <= set(gates)


def test_a_devices_channels_are_built_once_per_device_name():
    """Every run makes a new fake backend object; the channels (seconds of Aer's work on a
    133-qubit device) are kept by the device's name, not by the object."""
    from qcards.execution.noisy import device_channels

    first = device_channels(fake_device("FakeTorino"))
    assert device_channels(fake_device("FakeTorino")) is first
    assert device_channels(fake_device("FakeBrisbane")) is not first
