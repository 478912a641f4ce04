"""Exact probabilities of a game circuit's registers after each stage.

The backend's exact method decides how (:mod:`qcards.execution.exact_methods`): qcards' sparse
engine runs the circuit once and reads every stage on the way; Aer's statevector or MPS
simulator saves the probabilities of every stage in one run; DDSIM reads them from its decision
diagram, one run per stage. Every method first checks that the state fits the memory budget and
the time budget (:mod:`qcards.execution.budget`).
"""

from __future__ import annotations

from collections.abc import Sequence

from qiskit.circuit import QuantumCircuit, Qubit

from qcards.circuits.game import GameCircuit
from qcards.errors import ParameterError, ResourceError
from qcards.execution.backends import EXACT_BACKENDS, parse_backend
from qcards.execution.budget import check_memory, check_time
from qcards.execution.exact_methods import ExactMethod
from qcards.execution.extras import require
from qcards.execution.sparse.cost import sparse_memory_guard
from qcards.skat.position.stages import Stage
from qcards.skat.solvers.plain_referee import estimate_paths


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
            the time limit (:mod:`qcards.plan`; memory refusals stand).
    """
    target = parse_backend(method, "method")
    exact = target.exact_method
    if exact is None:
        raise ParameterError(
            "method",
            f"method {method!r} samples; an exact method is one of {' | '.join(EXACT_BACKENDS)}",
        )
    target.check_capacity(game.num_qubits)
    wanted = list(stages or game.stages)
    qubits = list(qubits or game.layout.measured)
    runs = len(wanted) if exact.reads_each_stage else 1
    seconds = check_game_cost(game, exact, force, runs, len(qubits), sharded=True)
    if exact.extra:
        require(exact.extra, f"the {exact} method")
    return exact.probabilities(game, wanted, qubits, seconds)


def check_game_cost(
    game: GameCircuit,
    method: ExactMethod,
    force: bool = False,
    runs: float = 1.0,
    read_qubits: int = 0,
    alternative: str = "method",
    sharded: bool = False,
) -> float:
    """Refuse before any work when ``method`` would not fit this game's state (and the
    probabilities of ``read_qubits`` qubits) in memory, or (unless ``force``) would take longer
    than the time budget over ``runs`` runs (:mod:`qcards.execution.budget`; paths by Knuth's
    estimator); ``alternative`` is the parameter that picks another simulator. ``sharded``:
    the method runs the deals in shards where it can (exact probabilities), so the memory is
    one shard's (:func:`~qcards.execution.sparse.shards.check_cost`). Returns the estimated
    seconds."""
    paths = estimate_paths(game.spec, game.first)
    cards = len(game.layout.cards)
    if sharded and method.shards_deals:  # memory of one shard, time at the measured rate
        from qcards.execution.sparse.shards import check_cost

        check_cost(game, force)
    else:
        check_memory(method, game.num_qubits, paths, read_qubits, alternative, cards)
    return check_circuit_time(
        game.circuit, game.num_qubits, paths, method, force, runs, alternative
    )


def check_circuit_time(
    circuit: QuantumCircuit,
    num_qubits: int,
    paths: float,
    method: ExactMethod,
    force: bool = False,
    runs: float = 1.0,
    alternative: str = "method",
) -> float:
    """:func:`~qcards.execution.budget.check_time` of ``runs`` runs of ``circuit`` on
    ``method`` (a model of the paths alone, as the sparse engine's, needs no gate count).
    Returns the estimated seconds."""
    gates = gate_count(circuit) if method.counts_gates else 0
    return check_time(method, num_qubits, paths, gates, force, runs, None, alternative)


def gate_count(circuit: QuantumCircuit) -> int:
    """A game circuit's gates one definition level down: each stage gate counts as the gates
    it is made of (a cheap proxy for the simulators' work, :mod:`qcards.execution.budget`; the
    paper's construction has about eight times the efficient one's on twelve cards)."""
    return sum(
        1 if op.definition is None else len(op.definition.data)
        for op in (instruction.operation for instruction in circuit.data)
    )


def sparse_final_outcomes(
    game: GameCircuit, force: bool = False, scheduler: str | None = None
) -> dict[tuple[int, ...], float]:
    """The exact distribution of the declarer's final (points, tricks) (and matadors in a
    declared Hand game whose Skat is unknown), from the sparse engine
    with the deals in shards (:mod:`qcards.execution.sparse.shards`: peak memory set by a
    shard; ``scheduler`` runs the shards as Dask tasks, the same result for any number of
    workers): each shard's final rows are read with
    :meth:`~qcards.circuits.layout.GameLayout.final_declarer_outcome` (vectorised, one compiled
    pass) instead of decoding every outcome.
    :meth:`~qcards.skat.position.spec.Endgame.declarer_wins` of a pair says
    whether it is a win."""
    from qcards.execution.sparse.shards import check_cost, sharded_final_outcomes
    from qcards.execution.sparse.state import AncillaError

    paths = check_cost(game, force)
    with sparse_memory_guard():
        try:
            return sharded_final_outcomes(game, paths, scheduler)
        except AncillaError:
            raise ResourceError(
                "an ancilla does not return to |0>: the circuit is not clean"
            ) from None


def sparse_final_points(game: GameCircuit, force: bool = False) -> dict[int, float]:
    """The exact distribution of the declarer's final points (:func:`sparse_final_outcomes`
    summed over the tricks)."""
    out: dict[int, float] = {}
    for (points, *_rest), p in sparse_final_outcomes(game, force).items():
        out[points] = out.get(points, 0.0) + p
    return out
