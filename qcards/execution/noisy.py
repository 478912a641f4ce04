"""Noisy emulation of IBM devices (``--backend fake:<Name>``) that finishes in seconds.

A fake backend from ``qiskit_ibm_runtime.fake_provider`` carries a device's coupling map, basis
gates and calibration (gate errors and durations, T1, T2, readout errors). Aer's noise model built
from it (``NoiseModel.from_backend``) is simulated one shot at a time: on the four-card paper
circuit (15 active qubits, ~3,800 CZ and ~12,000 one-qubit gates on FakeTorino) that costs about
2 s per shot, half an hour for 1000 shots.

:class:`PauliTrajectorySampler` keeps that noise model but

1. **twirls every gate error into a Pauli channel**: the diagonal of the channel's chi matrix
   (:class:`qiskit.quantum_info.Chi`), which is exactly the channel a device shows when its gates
   are Pauli-twirled (what the runtime's ``--twirling`` does on hardware); thermal relaxation,
   depolarizing and coherent parts all enter through the same diagonal. Readout errors are kept
   as they are;
2. **samples noise trajectories**: for each trajectory every gate draws its Pauli (identity
   almost always), the drawn Paulis are inserted into the transpiled circuit, and Aer runs the
   resulting noiseless circuit (fused, truncated to the active qubits) with measurement sampling
   and the device's readout errors, taking ``shots_per_trajectory`` shots from each.

Each shot then has the twirled device distribution; shots of the same trajectory are correlated,
which widens the statistical error by at most a factor ``sqrt(shots_per_trajectory)`` (in
practice far less: noisy game states spread their weight). Aer has no option for "several shots
per noise trajectory", which is the whole speed-up, hence this module. The benchmark
``benchmarks/bench_noise.py`` compares it with Aer's full model shot by shot.
"""

from __future__ import annotations

import math

import numpy as np
from qiskit.circuit import CircuitInstruction, QuantumCircuit
from qiskit.circuit.library import PauliGate
from qiskit.primitives import SamplerPubResult
from qiskit.primitives.containers import BitArray, DataBin
from qiskit.primitives.containers.sampler_pub import SamplerPub
from qiskit.quantum_info import Chi, pauli_basis
from qiskit_aer import AerSimulator
from qiskit_aer.noise import NoiseModel
from qiskit_aer.noise.device.models import basic_device_gate_errors, basic_device_readout_errors

from qcards.errors import ResourceError
from qcards.execution.extras import require
from qcards.execution.local_sampler import LocalSampler
from qcards.progress import step

SHOTS_PER_TRAJECTORY = 10
"""Default shots drawn from each noise trajectory (1000 shots = 100 trajectories)."""


def fake_device(name: str):
    """The fake IBM backend called ``name`` (e.g. ``FakeTorino``), from qiskit-ibm-runtime."""
    require("ibm", f"the fake device {name}")
    from qiskit_ibm_runtime import fake_provider

    cls = getattr(fake_provider, name, None) if name.startswith("Fake") else None
    if cls is None or not isinstance(cls, type) or name == "FakeProviderForBackendV2":
        known = sorted(
            n for n in dir(fake_provider) if n.startswith("Fake") and not n.startswith("FakeProv")
        )
        raise ResourceError(
            f"unknown fake device {name!r} (qiskit_ibm_runtime.fake_provider has e.g. "
            f"{', '.join(n for n in known if not n.endswith('V2'))})"
        )
    return cls()


class PauliChannels:
    """The Pauli-twirled gate errors and the readout errors of one device.

    A gate's error is derived from the device's calibration when a circuit first uses the gate
    on its qubits, not for the whole device up front: Aer's ``basic_device_gate_errors`` takes
    7-17 s for the 832 gates of the 133-qubit FakeTorino, while a transpiled game circuit uses a
    few dozen of them. The error of each gate is Aer's own, computed on a view of the target
    that holds only that gate (:class:`_OneGate`), so the channels are the ones the whole-device
    call gives (a test compares every gate of a small device).
    """

    def __init__(self, backend) -> None:
        self.backend = backend
        self._channels: dict[tuple[str, tuple[int, ...]], tuple[np.ndarray, list[str]] | None]
        self._channels = {}
        self.readout = NoiseModel(basis_gates=list(backend.target.operation_names))
        for qargs, error in basic_device_readout_errors(target=backend.target):
            self.readout.add_readout_error(error, qargs)

    def channel(self, name: str, qargs: tuple[int, ...]) -> tuple[np.ndarray, list[str]] | None:
        """Probabilities of the non-identity Paulis after gate ``name`` on ``qargs``, or None."""
        key = (name, qargs)
        if key not in self._channels:
            self._channels[key] = None
            errors = basic_device_gate_errors(target=_OneGate(self.backend.target, name, qargs))
            for _, _, error in errors:
                probabilities, labels = pauli_twirl(error)
                self._channels[key] = probabilities[1:], labels[1:]  # 0 is the identity
        return self._channels[key]


class _OneGate:
    """The members of a device's ``Target`` that Aer's ``basic_device_gate_errors`` reads
    (``items``, ``operation_from_name``, ``qubit_properties``), showing one gate on one tuple
    of qubits. Aer has no call for a single gate's error; this view gives it one without
    copying its derivation."""

    def __init__(self, target, name: str, qargs: tuple[int, ...]):
        self._target = target
        self._name = name
        self._qargs = qargs
        self.qubit_properties = target.qubit_properties
        self.operation_from_name = target.operation_from_name

    def items(self):
        """The one gate and its calibration, or nothing if the device has no such gate."""
        if self._name not in self._target.operation_names:
            return
        properties = self._target[self._name] or {}
        if self._qargs in properties:
            yield self._name, {self._qargs: properties[self._qargs]}


_CHANNELS: dict[str, PauliChannels] = {}
"""The channels built so far, by device name (the four most recent)."""


def device_channels(backend) -> PauliChannels:
    """:class:`PauliChannels` of a fake device, kept per device name, so that the gate errors
    derived for one run serve the next. Keyed by the name alone: every :func:`fake_device` call
    makes a new backend object of the same device (a cache keyed by the object missed on every
    run)."""
    channels = _CHANNELS.get(backend.name)
    if channels is None:
        channels = _CHANNELS[backend.name] = PauliChannels(backend)
        while len(_CHANNELS) > 4:
            del _CHANNELS[next(iter(_CHANNELS))]
    return channels


def pauli_twirl(error) -> tuple[np.ndarray, list[str]]:
    """The Pauli channel a twirl makes of ``error``: probabilities of all Paulis, identity first.

    They are the diagonal of the channel's chi matrix in the Pauli basis, divided by 2**n.
    """
    n = error.num_qubits
    probabilities = np.clip(Chi(error.to_quantumchannel()).data.diagonal().real, 0, None)
    return probabilities / probabilities.sum(), pauli_basis(n).to_labels()


def sample_trajectories(
    circuit: QuantumCircuit, channels: PauliChannels, count: int, rng: np.random.Generator
) -> list[QuantumCircuit]:
    """``count`` copies of the transpiled ``circuit``, each with its own drawn Pauli errors."""
    inserts: list[list[tuple[int, str, tuple]]] = [[] for _ in range(count)]
    for index, inst in enumerate(circuit.data):
        qargs = tuple(circuit.find_bit(q).index for q in inst.qubits)
        found = channels.channel(inst.operation.name, qargs)
        if found is None:
            continue
        probabilities, labels = found
        cumulative = np.cumsum(probabilities)
        draws = rng.random(count)
        for t in np.flatnonzero(draws < cumulative[-1]):
            choice = int(np.searchsorted(cumulative, draws[t], side="right"))
            inserts[t].append((index, labels[min(choice, len(labels) - 1)], inst.qubits))
    out = []
    for errors in inserts:
        trajectory = circuit.copy()
        for index, label, qubits in reversed(errors):
            trajectory.data.insert(index + 1, CircuitInstruction(PauliGate(label), qubits))
        out.append(trajectory)
    return out


class PauliTrajectorySampler(LocalSampler):
    """A ``BaseSamplerV2`` emulating ``backend``'s noise by Pauli trajectories (module doc)."""

    def __init__(
        self,
        backend,
        default_shots: int = 1024,
        seed: int | None = None,
        shots_per_trajectory: int = SHOTS_PER_TRAJECTORY,
        threads: int = 0,
    ):
        if shots_per_trajectory < 1:
            raise ResourceError("shots_per_trajectory must be at least 1")
        self.backend = backend
        self.default_shots = default_shots
        self.shots_per_trajectory = shots_per_trajectory
        self._rng = np.random.default_rng(seed)
        self._channels = device_channels(backend)
        self._simulator = AerSimulator(
            method="statevector",
            noise_model=self._channels.readout,
            seed_simulator=None if seed is None else seed + 1,
            max_parallel_threads=threads,
        )

    def _run_pub(self, pub: SamplerPub) -> SamplerPubResult:
        if pub.parameter_values.num_parameters:
            raise ResourceError("the Pauli trajectory sampler takes circuits without parameters")
        circuit = pub.circuit
        count = math.ceil(pub.shots / self.shots_per_trajectory)
        # one Aer run for all trajectories (Aer seeds each experiment of a run): a spinner
        with step(f"noisy emulation: {count} trajectories of {self.shots_per_trajectory} shots"):
            trajectories = sample_trajectories(circuit, self._channels, count, self._rng)
            result = self._simulator.run(
                trajectories, shots=self.shots_per_trajectory, memory=True
            ).result()
        memory = [shot for index in range(count) for shot in result.get_memory(index)]
        memory = memory[: pub.shots]  # the last trajectory may give more than needed
        data = {
            creg.name: BitArray.from_samples(_register_bits(memory, circuit, creg), creg.size)
            for creg in circuit.cregs
        }
        metadata = {"shots": pub.shots, "trajectories": count, "noise": "pauli-twirled device"}
        return SamplerPubResult(DataBin(**data), metadata=metadata)


def _register_bits(memory: list[str], circuit: QuantumCircuit, creg) -> list[str]:
    """The bits of classical register ``creg`` from Aer's memory strings (all clbits, MSB first)."""
    width = circuit.num_clbits
    positions = [circuit.find_bit(bit).index for bit in creg]
    return [
        "".join(shot.replace(" ", "")[width - 1 - p] for p in reversed(positions))
        for shot in memory
    ]
