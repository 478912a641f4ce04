"""Exact probabilities of a game circuit's registers after each stage.

The target decides how (:mod:`qcards.execution.targets`): qcards' sparse engine runs the
circuit once and reads every stage on the way; Aer's statevector or MPS simulator saves the
probabilities of every stage in one run; DDSIM reads them from its decision diagram, one run per
stage. Every method first checks that the state fits the memory budget
(:mod:`qcards.execution.budget`).
"""

from __future__ import annotations

from collections.abc import Sequence

from qiskit.circuit import QuantumCircuit, Qubit

from qcards.circuits.game import GameCircuit
from qcards.errors import ParameterError, ResourceError
from qcards.execution import aer, isolated
from qcards.execution.budget import check_memory, check_time, sparse_memory_guard
from qcards.execution.extras import require
from qcards.execution.targets import EXACT_TARGETS, parse_target
from qcards.skat.referee import estimate_paths
from qcards.skat.stages import Stage

_AER_METHOD = {"statevector": "statevector", "mps": "matrix_product_state"}


def exact_stage_probabilities(
    game: GameCircuit,
    stages: Sequence[Stage] | None = None,
    qubits: Sequence[Qubit] | None = None,
    method: str = "statevector",
    force: bool = False,
) -> dict[Stage, dict[int, float]]:
    """Exact probabilities of ``qubits`` after each stage, from one simulator run.

    Args:
        game: the game circuit.
        stages: stages to report (default: all).
        qubits: the qubits whose joint distribution is reported (default: every register but
            the flag, :attr:`GameLayout.measured`); outcome bit i is ``qubits[i]``.
        method: an exact target: ``sparse`` (qcards' engine, :mod:`qcards.execution.sparse`),
            ``statevector`` (dense, exact to rounding), ``mps`` (Aer's
            matrix product state simulator: exact up to SVD rounding, about 1e-11 here, for
            wide circuits) or ``ddsim`` (decision diagrams,
            :func:`~qcards.execution.ddsim.dd_probabilities`; one run per stage).
        force: run even when the simulation is estimated to take longer than
            :data:`~qcards.execution.budget.TIME_BUDGET` (memory refusals stand).
    """
    target = parse_target(method, "method")
    if target.exact_method is None:
        raise ParameterError(
            "method",
            f"method {method!r} samples; an exact method is one of {' | '.join(EXACT_TARGETS)}",
        )
    target.check_capacity(game.num_qubits)
    wanted = list(stages or game.stages)
    qubits = list(qubits or game.layout.measured)
    # DDSIM rebuilds its diagram for each stage read; the others read every stage in one run
    runs = len(wanted) if target.exact_method == "ddsim" else 1
    seconds = check_game_cost(game, target.exact_method, force, runs, len(qubits))
    if target.exact_method == "sparse":
        return sparse_stage_probabilities(game, wanted, qubits)
    if target.exact_method == "ddsim":
        require("ddsim", "the ddsim method")
        from qcards.execution.ddsim import dd_probabilities

        return {
            stage: isolated.call(
                dd_probabilities, game.upto(stage), qubits, expected_seconds=seconds / runs
            )
            for stage in wanted
        }
    qc = game.layout.circuit("game_snapshots")
    done = 0
    for stage, length in zip(game.stages, game.prefix_lengths, strict=True):
        for instruction in game.circuit.data[done:length]:
            qc.append(instruction)
        done = length
        if stage in wanted:
            qc.save_probabilities_dict(qubits, label=stage.name)
    data = isolated.call(
        aer.saved_data, _AER_METHOD[target.exact_method], qc, expected_seconds=seconds
    )
    out = {}
    for stage in wanted:
        out[stage] = {_outcome(k): float(v) for k, v in data[stage.name].items()}
    return out


def sparse_stage_probabilities(
    game: GameCircuit, stages: Sequence[Stage], qubits: Sequence[Qubit]
) -> dict[Stage, dict[int, float]]:
    """Exact probabilities of ``qubits`` after each of ``stages``, from one pass of the sparse
    engine over the game circuit (:func:`qcards.execution.sparse.simulate_prefixes`)."""
    from qcards.execution.sparse import simulate_prefixes

    positions = [game.circuit.find_bit(q).index for q in qubits]
    wanted = set(stages)
    last = max(game.stages.index(s) for s in wanted)
    reached = list(zip(game.stages[: last + 1], game.prefix_lengths[: last + 1], strict=True))
    out = {}
    with sparse_memory_guard():
        states = simulate_prefixes(game.circuit, [length for _, length in reached])
        for (stage, _), state in zip(reached, states, strict=True):
            if stage in wanted:
                out[stage] = state.probabilities(positions)
    return out


def check_game_cost(
    game: GameCircuit,
    method: str,
    force: bool = False,
    runs: float = 1.0,
    read_qubits: int = 0,
    alternative: str = "method",
) -> float:
    """Refuse before any work when ``method`` would not fit this game's state (and the
    probabilities of ``read_qubits`` qubits) in memory, or (unless ``force``) would take longer
    than the time budget over ``runs`` runs (:mod:`qcards.execution.budget`; paths by Knuth's
    estimator); ``alternative`` is the parameter that picks another simulator. Returns the
    estimated seconds."""
    paths = estimate_paths(game.spec, game.first)
    cards = len(game.layout.cards)
    check_memory(method, game.num_qubits, paths, None, read_qubits, alternative, cards)
    return check_circuit_time(
        game.circuit, game.num_qubits, paths, method, force, runs, alternative
    )


def check_circuit_time(
    circuit: QuantumCircuit,
    num_qubits: int,
    paths: float,
    method: str,
    force: bool = False,
    runs: float = 1.0,
    alternative: str = "method",
) -> float:
    """:func:`~qcards.execution.budget.check_time` of ``runs`` runs of ``circuit`` on
    ``method`` (the sparse engine's model is the paths alone, so its gates are not counted).
    Returns the estimated seconds."""
    gates = 0 if method == "sparse" else gate_count(circuit)
    return check_time(method, num_qubits, paths, gates, force, runs, None, alternative)


def gate_count(circuit: QuantumCircuit) -> int:
    """A game circuit's gates one definition level down: each stage gate counts as the gates
    it is made of (a cheap proxy for the simulators' work, :mod:`qcards.execution.budget`; the
    paper's construction has about eight times the efficient one's on twelve cards)."""
    return sum(
        1 if op.definition is None else len(op.definition.data)
        for op in (instruction.operation for instruction in circuit.data)
    )


def sparse_final_outcomes(game: GameCircuit, force: bool = False) -> dict[tuple[int, int], float]:
    """The exact distribution of the declarer's final (points, tricks), from the sparse engine:
    the final state's rows are read with
    :meth:`~qcards.circuits.layout.GameLayout.final_declarer_points` and
    :meth:`~qcards.circuits.layout.GameLayout.final_declarer_tricks` (vectorised) instead of
    decoding every outcome. :meth:`~qcards.skat.spec.Endgame.declarer_wins` of a pair says
    whether it is a win."""
    import numpy as np

    from qcards.execution.sparse import AncillaError, simulate

    check_game_cost(game, "sparse", force)
    with sparse_memory_guard():
        state = simulate(game.circuit)
    index = {q: i for i, q in enumerate(game.circuit.qubits)}
    measured = set(game.layout.measured)
    try:
        state.check_clean([i for q, i in index.items() if q not in measured], atol=0.0)
    except AncillaError:
        raise ResourceError("an ancilla does not return to |0>: the circuit is not clean") from None

    def bit(q):
        return state.read([index[q]])

    rows = (state.num_rows,)
    points = np.broadcast_to(game.layout.final_declarer_points(bit), rows)
    tricks = np.broadcast_to(game.layout.final_declarer_tricks(bit), rows)
    probabilities = np.abs(state.amps) ** 2
    pairs, where = np.unique(np.stack([points, tricks], axis=1), axis=0, return_inverse=True)
    sums = np.bincount(where.ravel(), weights=probabilities, minlength=len(pairs))
    return {(int(p), int(t)): float(x) for (p, t), x in zip(pairs, sums, strict=True)}


def sparse_final_points(game: GameCircuit, force: bool = False) -> dict[int, float]:
    """The exact distribution of the declarer's final points (:func:`sparse_final_outcomes`
    summed over the tricks)."""
    out: dict[int, float] = {}
    for (points, _tricks), p in sparse_final_outcomes(game, force).items():
        out[points] = out.get(points, 0.0) + p
    return out


def _outcome(key: str | int) -> int:
    return int(key, 16) if isinstance(key, str) else int(key)
