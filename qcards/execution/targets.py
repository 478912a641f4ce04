"""Where circuits run: exact statevector snapshots and shot sampling on Aer.

Every function refuses up front a circuit wider than the method can hold, with the number of
qubits it needs (:class:`~qcards.errors.ResourceError`), instead of swapping for minutes.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from qiskit import transpile
from qiskit.circuit import ClassicalRegister, QuantumCircuit, Qubit
from qiskit_aer import AerSimulator
from qiskit_aer.primitives import SamplerV2

from qcards.classical import Stage
from qcards.errors import ResourceError
from qcards.game import GameCircuit

MAX_QUBITS = {"statevector": 28, "aer": 28, "mps": 63, "ddsim": 200}
"""Widest circuit each method accepts. 2**28 amplitudes are 4 GiB of the machine's 24 GiB. The
matrix-product-state simulator stores the state by its entanglement, not its width (the game
states are sums of few orthogonal paths), up to Aer's limit of 63 qubits. A decision diagram's
size follows the number of paths too, and DDSIM has no such width limit; 200 is a guard (the
widest circuit simulated in the benchmarks has 87 qubits)."""

_AER_METHOD = {"statevector": "statevector", "aer": "statevector", "mps": "matrix_product_state"}
EXACT_METHODS = ("statevector", "mps", "ddsim")

AER_MAX_THREADS: int | None = None
"""Threads each Aer simulation of this process may use (``None``: Aer's default, every core).
:mod:`qcards.sweeps` sets 1 on its Dask workers, which run side by side and would otherwise
each start a thread per core."""


def check_capacity(num_qubits: int, method: str) -> None:
    limit = MAX_QUBITS[method]
    if num_qubits > limit:
        raise ResourceError(
            f"the circuit needs {num_qubits} qubits; the {method} method holds at most {limit} "
            f"(use --method classical, or a smaller spec)"
        )


def _simulator(method: str = "statevector", seed: int | None = None) -> AerSimulator:
    return AerSimulator(seed_simulator=seed, **backend_options(method))


def aer_thread_options() -> dict:
    """``max_parallel_threads`` for Aer when :data:`AER_MAX_THREADS` is set, else nothing."""
    return {} if AER_MAX_THREADS is None else {"max_parallel_threads": AER_MAX_THREADS}


def backend_options(method: str) -> dict:
    """Aer options for a qcards method name (with :func:`aer_thread_options`)."""
    options: dict = {"method": _AER_METHOD[method], **aer_thread_options()}
    if method == "mps":
        # Aer's up-front memory estimate for MPS assumes worst-case entanglement and refuses
        # even the 39-qubit six-card circuit (it asks for 3e8 MB). A game state is a sum of at
        # most (number of play paths) orthogonal basis states, so its bond dimension is bounded
        # by that count and the real footprint is megabytes; the estimate is switched off.
        options["max_memory_mb"] = 2**62
    return options


def _run(sim: AerSimulator, circuit):
    result = sim.run(transpile(circuit, sim), shots=1).result()
    if not result.success:
        raise ResourceError(f"the simulator failed: {result.status}")
    return result


def exact_stage_probabilities(
    game: GameCircuit,
    stages: Sequence[Stage] | None = None,
    qubits: Sequence[Qubit] | None = None,
    method: str = "statevector",
) -> dict[Stage, dict[int, float]]:
    """Exact probabilities of ``qubits`` after each stage, from one simulator run.

    Args:
        game: the game circuit.
        stages: stages to report (default: all).
        qubits: the qubits whose joint distribution is reported (default: every register but
            the flag, :attr:`GameLayout.measured`); outcome bit i is ``qubits[i]``.
        method: ``statevector`` (dense, exact to rounding), ``mps`` (Aer's matrix product
            state simulator: exact up to SVD rounding, about 1e-11 here, for wide circuits) or
            ``ddsim`` (decision diagrams, :func:`dd_probabilities`; one run per stage).
    """
    check_capacity(game.num_qubits, method)
    wanted = list(stages or game.stages)
    qubits = list(qubits or game.layout.measured)
    if method == "ddsim":
        return {stage: dd_probabilities(game.upto(stage), qubits) for stage in wanted}
    qc = game.layout.circuit("game_snapshots")
    done = 0
    for stage, length in zip(game.stages, game.prefix_lengths, strict=True):
        for instruction in game.circuit.data[done:length]:
            qc.append(instruction)
        done = length
        if stage in wanted:
            qc.save_probabilities_dict(qubits, label=stage.name)
    data = _run(_simulator(method), qc).data(0)
    out = {}
    for stage in wanted:
        out[stage] = {_outcome(k): float(v) for k, v in data[stage.name].items()}
    return out


CERTIFIED_MASS = 1 - 1e-10
""":func:`dd_probabilities` stops once the outcomes found carry this much probability."""


def dd_probabilities(
    circuit: QuantumCircuit, qubits: Sequence[Qubit], **options
) -> dict[int, float]:
    """Exact outcome probabilities of ``qubits`` (see :func:`dd_amplitudes`)."""
    return {k: abs(a) ** 2 for k, a in dd_amplitudes(circuit, qubits, **options).items()}


def dd_amplitudes(
    circuit: QuantumCircuit,
    qubits: Sequence[Qubit],
    seed: int = 1,
    shots: int = 4096,
    max_shots: int = 2**24,
) -> dict[int, complex]:
    """Exact nonzero amplitudes of a sparse state, from MQT DDSIM's decision diagram.

    DDSIM keeps the state as a decision diagram, whose size follows the number of game paths
    rather than the width. Its Python API gives the amplitude of one basis state
    (``VectorDD.get_amplitude``) but no walk over the nonzero ones, so the support is read from
    the diagram's Graphviz export (every path from the root to the terminal is one basis state
    with a nonzero amplitude; :func:`_dd_support`) and each amplitude is then taken exactly from
    the diagram. Should the export not parse (a format change), the support is found by
    sampling the diagram instead, with 8x the shots until enough is found. Either way the
    outcomes must carry :data:`CERTIFIED_MASS` of the probability: the result is exact (to
    rounding) and certified complete, not an estimate.

    Args:
        circuit: a circuit without measurements; the qubits outside ``qubits`` must end in
            ``|0>`` (clean ancillas; checked).
        qubits: the qubits reported; outcome bit i is ``qubits[i]``.
        seed, shots, max_shots: the sampling fallback.
    """
    from mqt.core.plugins.qiskit import qiskit_to_mqt
    from mqt.ddsim import CircuitSimulator, DDSIMProvider

    target = DDSIMProvider().get_backend("qasm_simulator")
    lowered = qiskit_to_mqt(transpile(circuit, target, optimization_level=0))
    n = circuit.num_qubits
    simulator = CircuitSimulator(lowered, seed=seed)
    simulator.simulate(shots=1)
    diagram = simulator.get_constructed_dd()
    found: dict[str, complex] = {}

    def add(decisions) -> float:
        for d in decisions:
            if d not in found:
                found[d] = complex(diagram.get_amplitude(n, d))
        return sum(abs(a) ** 2 for a in found.values())

    total = add(_dd_support(diagram, n) or ())
    while total < CERTIFIED_MASS:
        if shots > max_shots:
            raise ResourceError(
                f"decision-diagram sampling found only {total:.12f} of the probability in "
                f"{max_shots} shots; the state has too many small-probability outcomes"
            )
        simulator = CircuitSimulator(lowered, seed=seed)
        # keys print qubit n-1 first; decisions start at qubit 0
        total = add(key[::-1] for key in simulator.simulate(shots=shots))
        diagram = simulator.get_constructed_dd()
        shots *= 8
        seed += 1
    position = [circuit.find_bit(q).index for q in qubits]
    others = sorted(set(range(n)) - set(position))
    out: dict[int, complex] = {}
    for bits, amplitude in found.items():
        if any(bits[i] == "1" for i in others):
            if abs(amplitude) ** 2 > 1e-12:
                raise ResourceError("an ancilla does not return to |0>: the circuit is not clean")
            continue
        out[sum(1 << k for k, i in enumerate(position) if bits[i] == "1")] = amplitude
    return out


_DOT_NODE = re.compile(r"^(\d+)\[.*?q<sub><font[^>]*>(\d+)</font></sub>", re.MULTILINE)
_DOT_EDGE = re.compile(r"^(\w+)(?::(\d):\w+)?->(\w+)\[", re.MULTILINE)


def _dd_support(diagram, num_qubits: int) -> list[str] | None:
    """Every basis state with a nonzero amplitude, as decision strings (qubit 0 first).

    Read from ``VectorDD.to_dot()``: nodes name their qubit, and an edge is drawn for every
    nonzero successor. Returns ``None`` if the export does not have the expected shape.
    """
    dot = diagram.to_dot(colored=False, edge_labels=False, classic=True, memory=False)
    level = {node: int(q) for node, q in _DOT_NODE.findall(dot)}
    children: dict[str, list[tuple[int, str]]] = {}
    root = None
    for parent, port, child in _DOT_EDGE.findall(dot):
        if parent == "root":
            root = child
        elif parent in level and port:
            children.setdefault(parent, []).append((int(port), child))
    if root is None or (root != "t" and root not in level):
        return None
    out = []
    stack = [(root, ["0"] * num_qubits, num_qubits)]
    while stack:
        node, bits, above = stack.pop()
        if node == "t":
            if above != 0:
                return None  # a skipped level: the walk would be ambiguous
            out.append("".join(bits))
            continue
        q = level.get(node)
        if q is None or q != above - 1:
            return None
        for port, child in children.get(node, ()):
            branch = bits.copy()
            branch[q] = str(port)
            stack.append((child, branch, q))
    return out


RUN_BACKENDS = ("statevector", "aer", "aer-mps", "ddsim")
"""Local backends by name; ``fake:<Name>``, ``fake-aer:<Name>`` and ``ibm:<Name>`` besides."""

FAKE_PREFIXES = ("fake:", "fake-aer:")
"""Backends that emulate a fake IBM device on Aer (only the device's active qubits count)."""

DEVICE_PREFIXES = (*FAKE_PREFIXES, "ibm:")


def named_backend(name: str, seed: int | None = None, shots: int = 1024):
    """The backend (transpilation target) and a ``BaseSamplerV2`` for a backend name.

    ``statevector`` samples Aer's exact statevector, ``aer`` lets Aer pick its method,
    ``aer-mps`` is Aer's matrix-product-state simulator, ``ddsim`` MQT DDSIM's decision diagrams.
    ``fake:<Name>`` emulates the fake IBM device ``<Name>`` with Pauli noise trajectories
    (:mod:`qcards.noisy`), ``fake-aer:<Name>`` with Aer's full device noise model shot by shot
    (the slow reference). ``ibm:<Name>`` runs through :mod:`qcards.ibm` instead.
    ``shots`` is the sampler's default.
    """
    if name.startswith("fake:"):
        from qcards.noisy import PauliTrajectorySampler, fake_device

        device = fake_device(name.removeprefix("fake:"))
        sampler = PauliTrajectorySampler(
            device, default_shots=shots, seed=seed, threads=AER_MAX_THREADS or 0
        )
        return device, sampler
    if name.startswith("fake-aer:"):
        from qiskit_aer.noise import NoiseModel

        from qcards.noisy import fake_device

        device = fake_device(name.removeprefix("fake-aer:"))
        options = {
            "method": "statevector",
            "noise_model": NoiseModel.from_backend(device),
            **aer_thread_options(),
        }
        sampler = SamplerV2(default_shots=shots, seed=seed, options={"backend_options": options})
        return device, sampler
    if name.startswith("ibm:"):
        raise ResourceError(f"backend {name!r}: IBM hardware runs through qcards run (qcards.ibm)")
    if name not in RUN_BACKENDS:
        expected = " | ".join((*RUN_BACKENDS, *(f"{p}<Name>" for p in DEVICE_PREFIXES)))
        raise ResourceError(f"unknown backend {name!r} (expected {expected})")
    if name == "ddsim":
        from mqt.ddsim import DDSIMProvider
        from mqt.ddsim.primitives import Sampler as DDSIMSampler

        return DDSIMProvider().get_backend("qasm_simulator"), DDSIMSampler(
            default_shots=shots, seed=-1 if seed is None else seed
        )
    method = {"statevector": "statevector", "aer": "aer", "aer-mps": "mps"}[name]
    options = (
        backend_options(method)
        if method != "aer"
        else {"method": "automatic", **aer_thread_options()}
    )
    sampler = SamplerV2(default_shots=shots, seed=seed, options={"backend_options": options})
    return AerSimulator(**options), sampler


def sample_stages(
    game: GameCircuit, stages: Sequence[Stage], shots: int = 1000, seed: int | None = None
) -> dict[Stage, dict[int, int]]:
    """Measure the registers after each stage, ``shots`` times per stage, with Aer's sampler."""
    check_capacity(game.num_qubits, "aer")
    circuits = []
    for stage in stages:
        qc = game.upto(stage)
        qc.add_register(_creg(len(game.layout.measured)))
        qc.measure(game.layout.measured, qc.clbits)
        circuits.append(transpile(qc, _simulator("aer")))
    sampler = SamplerV2(seed=seed, options={"backend_options": aer_thread_options()})
    results = sampler.run(circuits, shots=shots).result()
    out = {}
    for stage, res in zip(stages, results, strict=True):
        counts = res.data.outcome.get_int_counts()
        out[stage] = {int(k): int(v) for k, v in counts.items()}
    return out


def _outcome(key: str | int) -> int:
    return int(key, 16) if isinstance(key, str) else int(key)


def _creg(size: int) -> ClassicalRegister:
    return ClassicalRegister(size, "outcome")
