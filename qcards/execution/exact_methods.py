"""The exact methods: how a backend computes a game circuit's exact probabilities, with what it
costs.

Each exact backend of :mod:`qcards.execution.backends` holds one :class:`ExactMethod` record:
its stage probabilities, its peak memory and its time, both estimated before any work from the
circuit's width, gates and play paths (Knuth's estimator,
:func:`qcards.skat.solvers.plain_referee.estimate_paths`). The guards of
:mod:`qcards.execution.budget` refuse by these estimates; nothing else needs to know which method is
which.

Memory: the dense statevector holds all :math:`2^n` amplitudes, the sparse engine and decision
diagrams one entry per nonzero amplitude (a play path: the game state is a sum over (deal,
path) pairs), a matrix product state bonds up to the number of paths. Time: seconds per unit of
work (:attr:`ExactMethod.unit_seconds`), rounded up from the largest ratio measured on the
four-, six-, nine- and twelve-card endgames with both constructions
(``benchmarks/bench_cost_model.py``, ``benchmarks/results/cost_model.md``); the sparse engine
works in proportion to the paths (:func:`~qcards.execution.sparse.cost.engine_seconds`, its
measured rate).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from qcards.execution import isolated
from qcards.execution.extras import require
from qcards.execution.sparse.cost import DECK, engine_seconds, sparse_memory_guard
from qcards.execution.sparse.cost import estimate_bytes as sparse_bytes
from qcards.skat.position.stages import Stage

if TYPE_CHECKING:  # the records are read (costs, names) by commands that never simulate
    from qiskit.circuit import Qubit

    from qcards.circuits.game import GameCircuit

Probabilities = dict[Stage, dict[int, float]]

MPS_TEMPORARIES = 2
"""Factor for Aer MPS's SVD workspace and copies beside the tensors themselves."""

DD_BYTES_PER_NODE = 200
"""A decision-diagram node with its two edges, complex weights and table entries."""


@dataclass(frozen=True)
class ExactMethod:
    """One way of computing exact probabilities, with its cost models.

    Attributes:
        name: the method's name (that of the target offering it).
        state_bytes: ``state_bytes(num_qubits, paths, cards)``: peak bytes of the state of a
            circuit of ``num_qubits`` whose state has about ``paths`` nonzero amplitudes
            (``cards``: the game's cards, which the sparse engine's classical actions work
            with).
        work: ``work(num_qubits, paths, gates)``: the size of one simulation in units of
            :attr:`unit_seconds` (None: :attr:`seconds` is the sparse engine's on the paths,
            :func:`~qcards.execution.sparse.cost.engine_seconds`, gates not counted).
        unit_seconds: seconds per unit of :attr:`work`.
        probabilities: ``probabilities(game, stages, qubits, seconds)``: the exact
            probabilities of ``qubits`` after each of ``stages`` (``seconds``: the estimate,
            for running long native work in a child process).
        dense_read: reading the probabilities of k qubits builds the dense vector of all
            :math:`2^k` (Aer's simulators) before the dictionary.
        width_limited: the state's size is set by the width alone, whatever the paths (the
            refusals then name the widest circuit that fits).
        reads_each_stage: one run per stage read (DDSIM rebuilds its diagram); else one run
            reads every stage.
        samples_at_any_size: when the exact state does not fit, the same target still samples
            the circuit shot by shot (:mod:`qcards.execution.shots`).
        reads_final_rows: the final state's rows can be read directly for the declarer's
            points and tricks (:func:`~qcards.execution.exact.sparse_final_outcomes`), without
            decoding every outcome.
        shards_deals: runs the deals in shards (:mod:`qcards.execution.sparse.shards`), so its
            memory is that of one shard: the guard is the shards' own
            (:func:`~qcards.execution.sparse.shards.check_cost`).
        extra: the optional dependency group it needs.
    """

    name: str
    state_bytes: Callable[[int, float, int], float]
    probabilities: Callable[[GameCircuit, Sequence[Stage], Sequence[Qubit], float], Probabilities]
    work: Callable[[int, float, int], float] | None = None
    unit_seconds: float = 0.0
    dense_read: bool = False
    width_limited: bool = False
    reads_each_stage: bool = False
    samples_at_any_size: bool = False
    reads_final_rows: bool = False
    shards_deals: bool = False
    extra: str | None = None

    def __str__(self) -> str:
        return self.name

    def bytes(
        self, num_qubits: int, paths: float, read_qubits: int = 0, cards: int = DECK
    ) -> float:
        """Peak bytes on a circuit of ``num_qubits`` with about ``paths`` nonzero amplitudes,
        reading the probabilities of ``read_qubits`` qubits."""
        read = 8.0 * 2.0**read_qubits if self.dense_read and read_qubits else 0.0
        return self.state_bytes(num_qubits, paths, cards) + read

    def seconds(self, num_qubits: int, paths: float, gates: int) -> float:
        """Seconds of one simulation (an upper estimate); ``gates``: the game circuit's gates
        one definition level down (:func:`~qcards.execution.exact.gate_count`)."""
        if self.work is None:
            return engine_seconds(paths)
        return self.unit_seconds * self.work(num_qubits, paths, gates)

    @property
    def counts_gates(self) -> bool:
        """Whether :meth:`seconds` depends on the gates (else they need not be counted)."""
        return self.work is not None


# ----------------------------------------------------------------------------- memory models


def _dense_bytes(num_qubits: int, paths: float, cards: int) -> float:
    return 2.0 * 16 * 2.0**num_qubits  # the state, and Aer's copy for the results


def _sparse_bytes(num_qubits: int, paths: float, cards: int) -> float:
    return float(sparse_bytes(int(paths), num_qubits, cards))


def _dd_bytes(num_qubits: int, paths: float, cards: int) -> float:
    return DD_BYTES_PER_NODE * paths * num_qubits


def _mps_bytes(num_qubits: int, paths: float, cards: int) -> float:
    # the bond across cut k is at most min(2^k, 2^(n-k), paths): a sum of `paths` basis states
    # has Schmidt rank at most `paths`; site k holds 2 x bond_k x bond_k+1 numbers
    bond = [min(2.0**k, 2.0 ** (num_qubits - k), paths) for k in range(num_qubits + 1)]
    numbers = sum(2 * bond[k] * bond[k + 1] for k in range(num_qubits))
    return MPS_TEMPORARIES * 16 * numbers


# ----------------------------------------------------------------------------- time models


def _dense_work(num_qubits: int, paths: float, gates: int) -> float:
    """Each gate sweeps the 2^n amplitudes."""
    return gates * 2.0**num_qubits


def _mps_work(num_qubits: int, paths: float, gates: int) -> float:
    """A gate costs up to bond^3, bond = min(2^(n/2), paths)."""
    return gates * min(2.0 ** (num_qubits // 2), paths) ** 3


def _dd_work(num_qubits: int, paths: float, gates: int) -> float:
    """Each gate rebuilds a diagram of about paths x n nodes."""
    return gates * paths * num_qubits


# ----------------------------------------------------------------------------- probabilities


def _outcome(key: str | int) -> int:
    return int(key, 16) if isinstance(key, str) else int(key)


def _aer_probabilities(aer_method: str):
    """Aer saves the probabilities of every stage in one run."""

    def probabilities(game, stages, qubits, seconds) -> Probabilities:
        from qcards.execution import aer  # also gives QuantumCircuit Aer's save instructions

        qc = game.layout.circuit("game_snapshots")
        done = 0
        for stage, length in zip(game.stages, game.prefix_lengths, strict=True):
            for instruction in game.circuit.data[done:length]:
                qc.append(instruction)
            done = length
            if stage in stages:
                qc.save_probabilities_dict(list(qubits), label=stage.name)
        data = isolated.call(aer.saved_data, aer_method, qc, expected_seconds=seconds)
        return {
            stage: {_outcome(k): float(v) for k, v in data[stage.name].items()} for stage in stages
        }

    return probabilities


def _dd_probabilities(game, stages, qubits, seconds) -> Probabilities:
    """DDSIM reads one stage per run (:func:`~qcards.execution.ddsim.dd_probabilities`)."""
    require("ddsim", "the ddsim method")
    from qcards.execution.ddsim import dd_probabilities

    return {
        stage: isolated.call(
            dd_probabilities, game.upto(stage), list(qubits), expected_seconds=seconds / len(stages)
        )
        for stage in stages
    }


def sparse_stage_probabilities(
    game: GameCircuit, stages: Sequence[Stage], qubits: Sequence[Qubit], seconds: float = 0.0
) -> Probabilities:
    """Exact probabilities of ``qubits`` after each of ``stages``, from the sparse engine with
    the deals in shards (:func:`qcards.execution.sparse.shards.sharded_stage_probabilities`:
    peak memory set by a shard, not by the whole state)."""
    from qcards.execution.sparse.shards import sharded_stage_probabilities
    from qcards.skat.solvers.plain_referee import estimate_paths

    positions = [game.circuit.find_bit(q).index for q in qubits]
    paths = estimate_paths(game.spec, game.first)
    with sparse_memory_guard():
        return sharded_stage_probabilities(game, stages, positions, paths)


# ----------------------------------------------------------------------------- the methods

STATEVECTOR = ExactMethod(
    "statevector",
    _dense_bytes,
    _aer_probabilities("statevector"),
    _dense_work,
    2e-9,
    dense_read=True,
    width_limited=True,
)
MPS = ExactMethod(
    "mps", _mps_bytes, _aer_probabilities("matrix_product_state"), _mps_work, 2e-7, dense_read=True
)
SPARSE = ExactMethod(
    "sparse",
    _sparse_bytes,
    sparse_stage_probabilities,
    samples_at_any_size=True,
    reads_final_rows=True,
    shards_deals=True,
)
DDSIM = ExactMethod(
    "ddsim", _dd_bytes, _dd_probabilities, _dd_work, 1e-8, reads_each_stage=True, extra="ddsim"
)
