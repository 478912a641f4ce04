"""The backend registry: every simulator and device qcards runs a circuit on, by one name.

*Backend* is qcards' one word for where a circuit runs, in the library (``backend=`` of
:func:`qcards.execution.run.run`, :class:`~qcards.estimation.options.EstimationOptions`) and on
the command line (``--backend``). (Qiskit's ``Target``, a device's description for the
transpiler, is a different thing: the transpile target below.) ``evaluate``'s ``method`` is
how a question is answered: the classical referee, double dummy, shots, or an exact backend of
:data:`EXACT_BACKENDS` running the circuit.

Each built-in backend is one :class:`BackendKind` record in :data:`BACKEND_KINDS` (the way sinter
keeps its built-in decoders in one table): its sampler factory, what it transpiles for, the
exact method it offers (if any) and the widest circuit it holds. :func:`parse_backend` turns a
name into a :class:`Backend`; every command and function asks it, so a name means the same
everywhere:

``statevector``
    Aer's dense statevector: exact probabilities, and samples of them.
``mps``
    Aer's matrix-product-state simulator (exact up to SVD rounding, about 1e-11 here); also
    called ``aer-mps``.
``sparse``
    qcards' exact sparse-state engine (:mod:`qcards.execution.sparse`): work in proportion to
    the nonzero amplitudes (the game's paths) times the gates, no width limit, a memory guard.
``ddsim``
    MQT DDSIM's decision diagrams (:mod:`qcards.execution.ddsim`); needs ``qcards[ddsim]``.
``aer``
    Aer's sampler with its automatic method choice (a statevector for the game circuits).
``fake:<Device>``
    a fake IBM device emulated with Pauli noise trajectories (:mod:`qcards.execution.noisy`).
``fake-aer:<Device>``
    the same device with Aer's full noise model, shot by shot (the slow reference).
``ibm:<Device>``
    IBM Quantum hardware through qiskit-ibm-runtime (:mod:`qcards.execution.ibm`); needs
    ``qcards[ibm]``.

A new simulator is one more record here; nothing else names it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from numbers import Integral
from typing import cast

from qcards.errors import ParameterError, ResourceError
from qcards.execution.backend_names import FAKE_AER_PREFIX, FAKE_PREFIX, IBM_PREFIX
from qcards.execution.exact_methods import DDSIM, MPS, SPARSE, STATEVECTOR, ExactMethod
from qcards.execution.extras import require


@dataclass(frozen=True)
class BackendKind:
    """One entry of the registry.

    Attributes:
        name: the backend's name, or the prefix of a device family (``fake:``).
        description: one line for help texts.
        max_qubits: widest circuit the backend accepts (for devices: the active qubits an
            emulation may keep; ``None``: the device's own size decides).
        exact_method: how the backend computes exact probabilities, with its memory and time
            estimates (:class:`~qcards.execution.exact_methods.ExactMethod`), or ``None`` if it
            only samples.
        make_sampler: ``(backend, seed, shots) -> (transpile target, BaseSamplerV2)``; the
            transpile target is ``None`` for a sampler that takes circuits as built.
        aliases: other names of the same backend.
        extra: the optional dependency group it needs (``pip install qcards[<extra>]``).
        device: a family of devices (``fake:<Device>``), whose circuits are transpiled to the
            device's coupling map and gates.
        emulated: a device emulated locally on Aer (only its active qubits are simulated).
        hardware: real hardware: jobs go to the job store before waiting.
        trajectories: the emulation samples noise trajectories, each run for several shots
            (else every shot is one noisy run).
    """

    name: str
    description: str
    max_qubits: int | None
    exact_method: ExactMethod | None
    make_sampler: Callable
    aliases: tuple[str, ...] = ()
    extra: str | None = None
    emulated: bool = False
    hardware: bool = False
    trajectories: bool = False

    @property
    def is_family(self) -> bool:
        return self.name.endswith(":")


@dataclass(frozen=True)
class Backend:
    """A parsed backend name: the registry entry and, for a device family, the device."""

    kind: BackendKind
    device: str | None = None

    @property
    def name(self) -> str:
        return self.kind.name + (self.device or "")

    @property
    def max_qubits(self) -> int | None:
        return self.kind.max_qubits

    @property
    def exact_method(self) -> ExactMethod | None:
        return self.kind.exact_method

    @property
    def simulated_method(self) -> ExactMethod:
        """The exact method whose cost a local simulation on this backend has: its own, or a
        dense statevector for Aer's automatic choice (what it picks for the game circuits)."""
        return self.exact_method or STATEVECTOR

    @property
    def is_device(self) -> bool:
        """A fake or real IBM device: circuits are transpiled to its coupling map and gates."""
        return self.kind.is_family

    @property
    def is_emulated(self) -> bool:
        """A fake device emulated on Aer (only the device's active qubits are simulated)."""
        return self.kind.emulated

    @property
    def is_hardware(self) -> bool:
        return self.kind.hardware

    def check_capacity(self, num_qubits: int) -> None:
        """Refuse, before any work, a circuit wider than the backend holds."""
        check_capacity(num_qubits, self.kind.name.rstrip(":"), self.max_qubits)

    def sampler(self, seed: int | None = None, shots: int = 1024):
        """``(transpile target, BaseSamplerV2)``; ``shots`` is the sampler's default."""
        check_seed(seed)
        if self.kind.extra:
            require(self.kind.extra, self.name)
        return self.kind.make_sampler(self, seed, shots)


MAX_SEED = 2**63 - 1
"""The largest seed every sampler takes (Aer's are signed 64-bit; numpy's must be >= 0)."""


def check_seed(seed: int | None) -> None:
    """:class:`ParameterError` unless ``seed`` is ``None`` or a whole number in 0..MAX_SEED
    (numpy refuses negative seeds and Aer larger ones, each with its own traceback)."""
    if seed is None:
        return
    if isinstance(seed, bool) or not isinstance(seed, Integral) or not 0 <= seed <= MAX_SEED:
        raise ParameterError(
            "seed", f"{{seed}} must be a whole number in 0..{MAX_SEED} (2**63 - 1), got {seed!r}"
        )


def check_capacity(num_qubits: int, method: str, limit: int | None) -> None:
    """:class:`ResourceError` when ``num_qubits`` exceeds ``limit`` (``None``: no limit)."""
    if limit is not None and num_qubits > limit:
        raise ResourceError(
            f"the circuit needs {num_qubits} qubits; the {method} method holds at most {limit} "
            "(use {method} classical, or a smaller spec)",
            parameters=("method",),
        )


def _aer_sampler(aer_method: str) -> Callable:
    def make(backend: Backend, seed: int | None, shots: int):
        from qiskit_aer import AerSimulator
        from qiskit_aer.primitives import SamplerV2

        from qcards.execution import aer

        options = aer.backend_options(aer_method)
        sampler = SamplerV2(default_shots=shots, seed=seed, options={"backend_options": options})
        return AerSimulator(**options), sampler

    return make


def _sparse_sampler(backend: Backend, seed: int | None, shots: int):
    from qcards.execution.sparse.sampler import SparseSampler

    return None, SparseSampler(default_shots=shots, seed=seed)  # no transpilation: gates whole


def _ddsim_sampler(backend: Backend, seed: int | None, shots: int):
    from mqt.ddsim import DDSIMProvider
    from mqt.ddsim.primitives import Sampler as DDSIMSampler

    return DDSIMProvider().get_backend("qasm_simulator"), DDSIMSampler(
        default_shots=shots, seed=-1 if seed is None else seed
    )


def _trajectory_sampler(backend: Backend, seed: int | None, shots: int):
    from qcards.execution import aer
    from qcards.execution.noisy import PauliTrajectorySampler, fake_device

    device = fake_device(cast(str, backend.device))  # a device backend's
    sampler = PauliTrajectorySampler(
        device, default_shots=shots, seed=seed, threads=aer.AER_MAX_THREADS or 0
    )
    return device, sampler


def _device_noise_sampler(backend: Backend, seed: int | None, shots: int):
    from qiskit_aer.noise import NoiseModel
    from qiskit_aer.primitives import SamplerV2

    from qcards.execution import aer
    from qcards.execution.noisy import fake_device

    device = fake_device(cast(str, backend.device))  # a device backend's
    options = {
        **aer.backend_options("statevector"),
        "noise_model": NoiseModel.from_backend(device),
    }
    sampler = SamplerV2(default_shots=shots, seed=seed, options={"backend_options": options})
    return device, sampler


def _ibm_sampler(backend: Backend, seed: int | None, shots: int):
    from qcards.execution import ibm

    device = ibm.ibm_backend(backend.name)
    return device, ibm.make_sampler(device, ibm.Suppression(), seed)


DENSE_LIMIT = 28
"""2**28 amplitudes are 4 GiB of the machine's 24 GiB."""


BACKEND_KINDS: dict[str, BackendKind] = {
    kind.name: kind
    for kind in (
        BackendKind(
            "statevector",
            "Aer's dense statevector (exact)",
            DENSE_LIMIT,
            STATEVECTOR,
            _aer_sampler("statevector"),
        ),
        BackendKind(
            "mps",
            "Aer's matrix product states (exact to SVD rounding)",
            # the state is stored by its entanglement, not its width (the game states are
            # sums of few orthogonal paths), up to Aer's limit of 63 qubits
            63,
            MPS,
            _aer_sampler("matrix_product_state"),
            aliases=("aer-mps",),
        ),
        BackendKind(
            "sparse",
            "qcards' sparse exact engine (paths x gates; no width limit)",
            None,  # the engine refuses a state too large for memory before allocating it
            SPARSE,
            _sparse_sampler,
        ),
        BackendKind(
            "ddsim",
            "MQT DDSIM decision diagrams (exact)",
            # a decision diagram's size follows the number of paths, not the width; 200 is a
            # guard (the widest circuit simulated in the benchmarks has 87 qubits)
            200,
            DDSIM,
            _ddsim_sampler,
            extra="ddsim",
        ),
        BackendKind(
            "aer",
            "Aer's sampler, automatic method (shots)",
            DENSE_LIMIT,
            None,
            _aer_sampler("automatic"),
        ),
        BackendKind(
            FAKE_PREFIX,
            "a fake IBM device, Pauli-twirled noise by trajectories (fast)",
            DENSE_LIMIT,
            None,
            _trajectory_sampler,
            extra="ibm",
            emulated=True,
            trajectories=True,
        ),
        BackendKind(
            FAKE_AER_PREFIX,
            "a fake IBM device, Aer's full noise model shot by shot (slow reference)",
            DENSE_LIMIT,
            None,
            _device_noise_sampler,
            extra="ibm",
            emulated=True,
        ),
        BackendKind(
            IBM_PREFIX,
            "IBM Quantum hardware (qiskit-ibm-runtime)",
            None,
            None,
            _ibm_sampler,
            extra="ibm",
            hardware=True,
        ),
    )
}

_ALIASES = {alias: kind.name for kind in BACKEND_KINDS.values() for alias in kind.aliases}

LOCAL_BACKENDS = tuple(k.name for k in BACKEND_KINDS.values() if not k.is_family)
"""The simulators of this machine, by name."""

EXACT_BACKENDS = tuple(k.name for k in BACKEND_KINDS.values() if k.exact_method)
"""The backends that compute exact probabilities."""


def backend_names(local_only: bool = False) -> tuple[str, ...]:
    """Every name :func:`parse_backend` accepts (devices as ``prefix<Device>``), for help texts."""
    kinds = BACKEND_KINDS.values()
    return tuple(
        k.name + ("<Device>" if k.is_family else "")
        for k in kinds
        if not (local_only and k.is_family)
    )


def parse_backend(name: str, parameter: str = "backend") -> Backend:
    """The :class:`Backend` called ``name``; an unknown name raises :class:`ParameterError`."""
    name = _ALIASES.get(name, name)
    kind = BACKEND_KINDS.get(name)
    if kind is not None and not kind.is_family:
        return Backend(kind)
    for kind in BACKEND_KINDS.values():
        if kind.is_family and name.startswith(kind.name):
            device = name.removeprefix(kind.name)
            if not device:
                raise ParameterError(
                    parameter, f"{parameter} {name!r} names no device (e.g. {kind.name}FakeTorino)"
                )
            return Backend(kind, device)
    raise ParameterError(
        parameter, f"unknown {parameter} {name!r} (expected {' | '.join(backend_names())})"
    )
