"""Ideal-device sampling of a game circuit, shot by shot, at any size.

What a fault-tolerant quantum computer returns for a game circuit is one measured basis state
per shot. This module draws exactly those samples without holding the state: each shot is one
row of a :class:`~qcards.execution.sparse.state.SparseState` that follows a single basis state
through the circuit, instruction by instruction. A gate that branches (the deal, a card play)
first acts as the exact engine applies it -- every branch with its amplitude -- and the shot
then keeps one branch, drawn with probability :math:`|a|^2` of its amplitude (``collapse``).
The deal gates skip the expansion: they draw the shot's deal directly with its probability
:math:`P(d)` (``sparse_sample``, :func:`~qcards.circuits.gates.states.deal_sample_action`),
since the full game deals its 22 unknown cards in about 4.3e7 ways.

Why this is exact: keeping one branch is a measurement of the computational basis after the
gate. It leaves the final distribution of the measured qubits unchanged when the branches never
interfere later, which holds for the game circuits: every card play writes the card into a
register that no later gate erases, so two branches of a shot never reach the same basis state
again (the deals likewise differ in their owner registers for ever). The tests check it per
construction: the exact engine with a basis measurement after every instruction gives the same
distribution as without (``tests/test_shots.py``). Inside one instruction nothing is cut short:
a gate run through its definition keeps all its branches, and rows of the same shot holding the
same basis state add up before the draw (the shot's index is part of the row's key).

Cost: per shot, the circuit's instructions times the branches of each (at most the cards in a
hand), whatever the number of play paths. Shots run in chunks of :data:`CHUNK_SHOTS`, each with
its own random streams derived from ``(seed, chunk)``, so the samples of a seed are the same
however the chunks are spread over Dask workers. A deal's draw has a stream of its own, so two
circuits with the same deal gate (the first cards of ``recommend``, the game types of
``declare``) see the same deals shot for shot: common random numbers.
"""

from __future__ import annotations

import functools
import json
import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import cast

import numpy as np
from qiskit.circuit import QuantumCircuit

from qcards.circuits.game import GameCircuit
from qcards.circuits.task import GameTask
from qcards.execution.budget import check_result_memory, check_shots
from qcards.execution.sparse.engine import Compiler, SparseState
from qcards.execution.sweeps import sweep
from qcards.plan import Plan, check, current_limits
from qcards.skat.deals.sample import chunks, deal_stream, fresh_seed

CHUNK_SHOTS = 10_000
"""Shots simulated together (one Dask task each); fixed, so a seed's samples do not depend on
the number of workers."""


def shot_streams(seed: int, chunk: int) -> tuple[np.random.Generator, np.random.Generator]:
    """The random streams of one chunk: the deals'
    (:func:`~qcards.skat.deals.sample.deal_stream`, shared with every sampled method), then the
    card plays'."""
    return deal_stream(seed, chunk), np.random.default_rng([seed, chunk, 1])


def run_shots(
    circuit: QuantumCircuit,
    shots: int,
    deal_rng: np.random.Generator,
    play_rng: np.random.Generator,
) -> SparseState:
    """Follow ``shots`` shots through ``circuit`` (no measurements); one row per shot at the
    end, in shot order. The state is ``circuit.num_qubits`` qubits wide plus one 64-bit word
    holding each row's shot index (:func:`shot_word`)."""
    n = circuit.num_qubits
    word = shot_word(n)
    state = SparseState(64 * (word + 1))
    bits = np.zeros((shots, word + 1), dtype=np.uint64)
    bits[:, word] = np.arange(shots, dtype=np.uint64)
    state.set_rows(bits, np.ones(shots, dtype=complex))
    compiler = Compiler()
    index = {q: i for i, q in enumerate(circuit.qubits)}
    for instruction in circuit.data:
        op = instruction.operation
        qubits = tuple(index[q] for q in instruction.qubits)
        draw = getattr(op, "sparse_sample", None)
        if callable(draw):
            state.fold()
            draw(state, qubits, deal_rng)
        else:
            state.run(compiler.placed(op, qubits))
        if state.num_rows != shots:
            collapse(state, shots, play_rng)
    # a gate may reorder rows without branching (the forced plays of the last trick): put the
    # shots back in order, so that shot k of two circuits run on one seed is the same deal
    order = np.argsort(state.bits[:, word], kind="stable")
    state.set_rows(state.bits[order], state.amps[order])
    return state


def shot_word(num_qubits: int) -> int:
    """The word of a shot state that holds the shot index (the one after the circuit's)."""
    return max(1, math.ceil(num_qubits / 64))


def collapse(state: SparseState, shots: int, rng: np.random.Generator) -> None:
    """Keep one row per shot, drawn with probability :math:`|a|^2` among the shot's rows
    (after rows of one shot holding the same basis state are summed); amplitudes become 1."""
    state.merge()
    bits = state.bits
    amps = state.amps
    shot = bits[:, -1]
    order = np.argsort(shot, kind="stable")
    sorted_shot = shot[order]
    starts = np.flatnonzero(np.concatenate(([True], sorted_shot[1:] != sorted_shot[:-1])))
    if starts.size != shots:
        raise AssertionError(f"{shots - starts.size} shots lost all their amplitude")
    ends = np.append(starts[1:], order.size)
    weight = (amps.real**2 + amps.imag**2)[order]
    cumulative = np.cumsum(weight)
    before = np.concatenate(([0.0], cumulative))[starts]
    total = cumulative[ends - 1] - before
    point = before + rng.random(shots) * total
    pick = np.clip(np.searchsorted(cumulative, point, side="right"), starts, ends - 1)
    kept = order[pick]
    state.set_rows(bits[kept], np.ones(shots, dtype=complex))


@dataclass(frozen=True)
class GameShots:
    """Per-shot results of a game circuit: the declarer's final points and tricks (and, when
    asked for, the measured outcome of each shot as an integer, bit k = ``layout.measured[k]``).
    """

    points: np.ndarray
    tricks: np.ndarray
    outcomes: tuple[int, ...] | None = field(default=None, repr=False)
    matadors: np.ndarray | None = field(default=None, repr=False)

    @property
    def shots(self) -> int:
        return int(self.points.size)

    def wins(self, spec) -> np.ndarray:
        """Whether the declarer won, shot by shot
        (:meth:`~qcards.skat.position.spec.Endgame.declarer_wins` of each distinct outcome)."""
        pairs, where = np.unique(np.stack([self.points, self.tricks]), axis=1, return_inverse=True)
        won = np.array([spec.declarer_wins(int(p), int(t)) for p, t in pairs.T], dtype=bool)
        return won[where.ravel()]

    def counts(self) -> dict[int, int]:
        """The measured outcomes' counts (as a sampler's ``get_int_counts``)."""
        if self.outcomes is None:
            raise ValueError("these shots kept no outcomes")
        values, counts = np.unique(np.array(self.outcomes, dtype=object), return_counts=True)
        return {int(v): int(c) for v, c in zip(values, counts, strict=True)}

    @staticmethod
    def join(parts: Sequence[GameShots]) -> GameShots:
        outcomes = matadors = None
        if parts and parts[0].outcomes is not None:
            # the parts of one run all keep their outcomes, or none does
            outcomes = tuple(o for part in parts for o in cast("tuple[int, ...]", part.outcomes))
        if parts and parts[0].matadors is not None:
            matadors = np.concatenate([p.matadors for p in parts])
        return GameShots(
            np.concatenate([p.points for p in parts]),
            np.concatenate([p.tricks for p in parts]),
            outcomes,
            matadors,
        )


def game_chunk(
    task: GameTask, seed: int, chunk: tuple[int, int], outcomes: bool = False
) -> GameShots:
    """The shots of chunk ``chunk = (index, shots)`` of ``task``'s game circuit (module level,
    so Dask can run it)."""
    index, shots = chunk
    game = _built(json.dumps(task.to_json(), sort_keys=True))
    state = run_shots(game.circuit, shots, *shot_streams(seed, index))
    return read_game(game, state, outcomes)


@functools.lru_cache(maxsize=2)
def _built(task_json: str) -> GameCircuit:
    """The game circuit of a task, built once per process for all its chunks (the paper
    construction's gates also cache their terms on first use)."""
    return GameTask.from_json(json.loads(task_json)).build()


def read_game(game: GameCircuit, state: SparseState, outcomes: bool) -> GameShots:
    """The final points and tricks of every shot (and the measured outcomes if asked)."""
    position = {q: i for i, q in enumerate(game.circuit.qubits)}

    rows = (state.num_rows,)
    sums = state.sums_of(position)
    points, tricks = (
        np.broadcast_to(x, rows).astype(np.int64) for x in game.layout.final_declarer_outcome(sums)
    )
    measured = None
    if outcomes:
        measured = read_integers(state, [position[q] for q in game.layout.measured])
    matadors = None
    if game.spec.declaration is not None:
        matadors = game.layout.final_matadors(sums, state.num_rows)
    return GameShots(points, tricks, measured, matadors)


def read_integers(state: SparseState, qubits: Sequence[int]) -> tuple[int, ...]:
    """The integer held by ``qubits`` (bit k = qubits[k]) on every row, of any width."""
    values = [0] * state.num_rows
    for start in range(0, len(qubits), 63):
        part = state.read(qubits[start : start + 63]).tolist()
        values = [v | (p << start) for v, p in zip(values, part, strict=True)]
    return tuple(values)


SECONDS_PER_WORD_STEP = 3e-7
"""Seconds a shot takes per instruction per 64-bit word of its row, rounded up from the full-game
benchmark (130-180 ns measured at 4 to 10 cards per player, ``benchmarks/results/full_game.md``)."""


def check_shot_time(shots: int, circuit: QuantumCircuit, force: bool = False) -> float:
    """Refuse (unless ``force``; naming ``shots`` and ``force``) shots planned to take longer
    than the time budget: shots x instructions x words x :data:`SECONDS_PER_WORD_STEP`.
    Returns the estimated seconds."""
    per_shot = len(circuit.data) * (shot_word(circuit.num_qubits) + 1) * SECONDS_PER_WORD_STEP
    seconds = shots * per_shot
    plan = Plan(
        f"{shots:,} shots of this circuit",
        seconds=seconds,
        size=f"{per_shot * 1e6:.0f} microseconds a shot",
        time_fits=f"about {int(current_limits().seconds / per_shot):,} shots",
        ways=("use fewer {shots}",),
    )
    return check(plan, force).seconds


def sample_game(
    task: GameTask,
    shots: int,
    seed: int | None = None,
    scheduler: str | None = None,
    outcomes: bool = False,
    force: bool = False,
) -> GameShots:
    """``shots`` ideal-device shots of ``task``'s game circuit, in chunks (on Dask with a
    ``scheduler``: the same samples for the same seed). Refused up front when the results
    would not fit in memory, or (unless ``force``) the shots would take over the time budget."""
    check_shots(shots)
    game = _built(json.dumps(task.to_json(), sort_keys=True))  # the chunks' build, once
    declared = game.spec.declaration is not None
    check_result_memory(shots, outcomes, len(game.layout.measured), declared)
    check_shot_time(shots, game.circuit, force)
    seed = fresh_seed(seed)
    fn = partial(game_chunk, task, seed, outcomes=outcomes)
    return GameShots.join(sweep(fn, chunks(shots, CHUNK_SHOTS), scheduler, "shot chunks"))
