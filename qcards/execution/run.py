"""Run a spec's game circuit on a named target: transpile, report its size, sample, decode.

The circuit is transpiled to the backend with Qiskit's preset pass manager
(:mod:`qcards.execution.transpile`), its two-qubit gate count and depth are reported *before*
it runs, and the measured outcomes are decoded into game states (:mod:`qcards.circuits.decode`).
"""

from __future__ import annotations

import math

import numpy as np

from qcards.circuits.construction import Construction
from qcards.circuits.decode import outcome_labels, regroup
from qcards.circuits.lowering import lower
from qcards.circuits.task import GameTask, as_task
from qcards.errors import ResourceError
from qcards.execution import isolated
from qcards.execution.backends import check_seed, parse_backend
from qcards.execution.budget import check_shot_memory, check_time
from qcards.execution.exact import check_game_cost
from qcards.execution.exact_methods import STATEVECTOR
from qcards.execution.mitigation import Mitigation, mitigated_report, mitigation_circuits
from qcards.execution.results import RunReport
from qcards.execution.shots import sample_game
from qcards.execution.transpile import (
    measured_circuit,
    outcome_counts,
    transpile_to,
    transpiled_size,
)
from qcards.intervals import wilson
from qcards.skat.deals.sample import fresh_seed
from qcards.skat.position.spec import Endgame
from qcards.skat.rules.cards import Card


def run(
    game: GameTask | Endgame,
    backend: str = "aer",
    shots: int = 1000,
    seed: int | None = None,
    on_transpiled=None,
    mitigate: str = "none",
    force: bool = False,
    *,
    first: Card | None = None,
    construction: Construction | str | None = None,
) -> RunReport:
    """Sample the final game state of a game on ``backend`` and decode the outcomes.

    ``ibm:NAME`` runs on IBM hardware (:func:`qcards.execution.ibm.run_on_ibm`: the job is
    recorded in the job store before waiting; ``mitigate="all"`` also turns on the runtime's
    twirling and dynamical decoupling).

    Args:
        game: a :class:`GameTask`, or a spec with ``first`` and ``construction``
            (:func:`~qcards.circuits.task.as_task`, as for ``evaluate`` and ``count``).
        backend: where the circuit runs (:func:`~qcards.execution.backends.parse_backend`).
        on_transpiled: called with the :class:`TranspiledSize` before the circuit runs.
        mitigate: one of :data:`~qcards.execution.mitigation.MITIGATIONS`
            (:mod:`qcards.execution.mitigation`); zne runs the circuit once per noise scale,
            readout adds two calibration runs.
        force: run even when the simulation is estimated to take longer than
            the time limit (:mod:`qcards.plan`; refused otherwise, before any work).
    """
    task = as_task(game, first, construction)
    mitigation = Mitigation.parse(mitigate)
    mitigation.require()
    target = parse_backend(backend)
    check_seed(seed)
    if target.is_hardware:
        from qcards.execution.ibm import run_on_ibm

        return run_on_ibm(task, backend, shots, seed, on_transpiled, mitigate=mitigation.name)
    built = task.build()
    check_shot_memory(shots, len(built.layout.measured))  # before any work
    seconds = 0.0
    if not target.is_device:
        target.check_capacity(built.num_qubits)
        # a local simulator computes the state once and samples it: its exact method's cost
        try:
            seconds = check_game_cost(built, target.simulated_method, force, alternative="backend")
        except ResourceError:
            if not target.simulated_method.samples_at_any_size or mitigation.name != "none":
                raise
            # the exact state does not fit: the sparse engine samples the circuit shot by shot
            return ideal_shots_report(task, built, backend, shots, seed, on_transpiled)
    transpile_target, sampler = target.sampler(seed)
    emulated = target.is_emulated
    if transpile_target is None:
        # a backend that runs circuits as built (the sparse engine): the size reported is that
        # of the same circuit lowered to {cx, u}, for comparison with the other backends
        transpiled = measured_circuit(built)
        size = transpiled_size(lower(transpiled))
    else:
        transpiled = transpile_to(
            measured_circuit(built), transpile_target, seed, "qubits" if emulated else None
        )
        size = transpiled_size(transpiled)
    # refusals come before the size is announced: a refused run prints one error line
    if emulated:
        target.check_capacity(size.num_qubits)  # Aer keeps only the active device qubits
    circuits = mitigation_circuits(transpiled, mitigation, seed, transpile_target)
    check_shot_memory(shots, max(c.num_clbits for c in circuits), len(circuits))
    if emulated:
        check_emulation_time(target, circuits, size.num_qubits, shots, force)
    if on_transpiled is not None:
        on_transpiled(size)
    if target.is_device or transpile_target is None:
        # the sparse engine runs in Python, the emulation in many short Aer runs: Ctrl-C stops
        # them between steps
        counts = sampled_counts(sampler, circuits, shots)
    else:  # one Aer run holding the interpreter lock: a long one runs in a child process
        counts = isolated.call(sample_on, backend, seed, circuits, shots, expected_seconds=seconds)
    return mitigated_report(task.spec, built, backend, size, counts, mitigation, seed)


def ideal_shots_report(
    task: GameTask, game, backend: str, shots: int, seed, on_transpiled
) -> RunReport:
    """The run of ``task`` as an ideal device would return it, shot by shot
    (:mod:`qcards.execution.shots`): decoded counts, p_win with Wilson's 95% interval and the
    declarer's final points. The paper construction's size is not reported: at sizes where the
    state does not fit, its deal and card-play syntheses are exponential (``qcards resources``
    counts them by formula)."""
    size = None
    if not task.construction.grows_exponentially:
        size = transpiled_size(lower(measured_circuit(game)))
    if on_transpiled is not None:
        on_transpiled(size)
    result = sample_game(task, shots, fresh_seed(seed), outcomes=True)
    raw = result.counts()
    labels = outcome_labels(game, raw)
    wins = result.wins(task.spec)
    points, counts = np.unique(result.points, return_counts=True)
    p_win = float(wins.mean())
    return RunReport(
        backend,
        result.shots,
        dict(sorted(regroup(raw, labels.__getitem__).items())),
        p_win,
        size,
        p_win_raw=p_win,
        ci=wilson(int(wins.sum()), result.shots),
        sampling="ideal shots",
        points={int(p): int(c) for p, c in zip(points, counts, strict=True)},
    )


def sampled_counts(sampler, circuits, shots: int) -> list[dict]:
    """The outcome counts of each circuit, sampled ``shots`` times."""
    return [outcome_counts(r) for r in sampler.run(circuits, shots=shots).result()]


def sample_on(backend: str, seed: int | None, circuits, shots: int) -> list[dict]:
    """:func:`sampled_counts` on a fresh sampler of the backend ``backend`` (module level, for
    :func:`qcards.execution.isolated.call`)."""
    _, sampler = parse_backend(backend).sampler(seed)
    return sampled_counts(sampler, circuits, shots)


def check_emulation_time(target, circuits, active_qubits: int, shots: int, force: bool) -> None:
    """Refuse (unless ``force``) a device emulation planned past the time budget: a dense
    simulation of the active qubits per noise trajectory (``fake:``, one per
    :data:`~qcards.execution.noisy.SHOTS_PER_TRAJECTORY` shots) or per shot (``fake-aer:``),
    for each circuit the mitigation runs."""
    from qcards.execution.noisy import SHOTS_PER_TRAJECTORY

    trajectory = target.kind.trajectories
    runs = math.ceil(shots / SHOTS_PER_TRAJECTORY) if trajectory else shots
    gates = sum(circuit.size() for circuit in circuits)
    check_time(
        STATEVECTOR,
        active_qubits,
        0,
        gates,
        force,
        runs,
        f"emulating {target.name} ({runs:,} {'trajectories' if trajectory else 'shots'})",
        "backend",
    )
