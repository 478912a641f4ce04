"""The sparse engine on a game circuit in bounded memory: the deals in shards.

A game circuit's state after the deal stage (:attr:`GameCircuit.prefix_lengths` ``[0]``: the
deal gate U_ini, and the hand-code gate when the paper's codes are kept) is
:math:`\\sum_d \\alpha_d |d\\rangle|0\\rangle`, one row per deal ``d`` of the unknown cards,
written into the ``owner_<card>`` registers. Every later gate (card plays, tricks) leaves the
owner registers as they are on every basis state: it reads them (who holds a card is a control
of the card plays and trick takings) and writes only the play, winner, code and workspace
registers. A unitary that never changes some qubits on any basis state is block diagonal in
them, :math:`U = \\sum_d |d\\rangle\\langle d| \\otimes U_d`, so the final state is
:math:`\\sum_d \\alpha_d |d\\rangle U_d|0\\rangle`: the deals never interfere before
measurement, and the probability of any outcome is :math:`\\sum_d |\\alpha_d|^2 P_d`. The deals
can therefore be simulated in blocks (shards), each block through the whole rest of the game,
each reduced at once to its contribution to the measured distribution (the final (points,
tricks) pairs, or the registers' distribution after each stage), and the contributions
summed. ``tests/test_sparse_shards.py`` checks the premise: each post-deal gate, through its
classical action and through its decomposition (which may flip an owner qubit inside the gate,
an X around a control on 0, but restores it), applied to one reached basis state at a time,
keeps the owner bits of every row it makes. It also checks the conclusion: sharded equals
whole on every test spec.

The same holds for the rows of one deal, at any instruction after the deal stage. A row of a
game state is determined by its history registers (owner, play, winner; the paper's codes and
the clean ancillas follow from them), later gates never clear a history bit, and a final row
is a complete record of the game (who was dealt each card, in which trick it was played, who
took each trick), from which the row it came from at any earlier instruction can be read back
(the cards of the earlier tricks, and those the seats that have moved put on the current
one). So two different rows have no final row in common: their supports are disjoint, they
never interfere, and the probability of every later outcome is the sum of the rows' own. A
shard is therefore run depth first (:func:`run_shard`): once its rows pass
:data:`CHUNK_ROWS` after an instruction, they are merged and cut into blocks of at most that
many rows, each taken through the rest of the game on its own and reduced, and the reads
added. Peak memory is then bounded by the
blocks in flight (:func:`peak_rows`), whatever a deal's paths: an eighteen-card deal of 10.9
million paths runs in the memory of a few hundred thousand rows, and the blocks stay near the
caches (measured faster, :data:`CHUNK_ROWS`). ``tests/test_sparse_shards.py`` checks the
premises on the reached rows of every gate (no history bit that was set is cleared, no two
rows share their history) and the conclusion (blocks of three rows equal the whole state) on
the test specs.

A shard whose rows still outgrow its guard (one step of one block past the memory budget) is
split in two and each half run again; a single deal that does not fit is refused
(:class:`~qcards.execution.sparse.state.SparseMemoryError`, which
:func:`~qcards.execution.sparse.cost.sparse_memory_guard` turns into an error naming ``--shots``).

The shards run here one after the other, or as Dask tasks
(:func:`~qcards.execution.sweeps.sweep`; each worker rebuilds the game circuit from its spec
once and keeps it). The blocks depend only on the deals and :data:`SHARD_BYTES`, never on the
number of workers, and the contributions are summed in shard order: the same floats for any
number of workers.
"""

from __future__ import annotations

import pickle
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from qcards.execution.sparse.compiler import Compiler, Step
from qcards.execution.sparse.cost import (
    ENGINE_THREADS,
    SparseMemoryError,
    engine_rate,
    engine_seconds,
    estimate_bytes,
    rows_for_bytes,
)
from qcards.execution.sparse.state import SparseState
from qcards.plan import CLASSICAL, SAMPLE, SMALLER, Plan, check, current_limits

if TYPE_CHECKING:
    from qcards.skat.position.spec import Endgame
    from qcards.skat.rules.cards import Card

SHARD_BYTES = 2**26
"""What one shard is planned to hold at its peak (by
:func:`~qcards.execution.sparse.state.estimate_bytes`): 64 MiB, the fastest of the block sizes
timed on fifteen cards (figures in ``benchmarks/results/cost-notes.md``). Smaller blocks are
faster, not slower, down to that size: a block's work arrays stay nearer the caches, and there
are enough blocks for every Dask worker. A block holds at least one deal, whatever its size.
Fixed, not shared out among workers: the blocks (and so the sums) must not depend on how many
run them."""

SHARD_SKEW = 2.0
"""How many times the average deal's paths a block of deals is planned for. It sizes the blocks
for sharing the work out, not for memory: a block's rows are run :data:`CHUNK_ROWS` at a time
(deals differ by more than this: one eighteen-card deal has 11.7 times the average's paths)."""

CHUNK_ROWS = 2**16
"""Rows past which a shard's state is cut into blocks run one after the other through the rest
of the game (:func:`run_shard`). Blocks of 2^16 rows run a large eighteen-card deal about as
fast as blocks of 2^18 and far faster than the whole deal at once (figures in
``benchmarks/results/cost-notes.md`` and ``benchmarks/results/sharded.md``); the smaller bound
keeps the blocks in flight small (:func:`peak_rows`)."""

READ_ROWS = 2**18
"""Final rows read at a time (:func:`final_outcomes`): the registers' sums of a block, about
20 int64 per row, stay at tens of MiB beside a shard of a GiB."""

THREADS = ENGINE_THREADS
"""Threads that run the shards when no Dask scheduler is given
(:data:`~qcards.execution.sparse.cost.ENGINE_THREADS`)."""

MAX_SHARDS = 4096
"""Blocks are at least ``deals / MAX_SHARDS`` deals, so that the gates' fixed cost per call is
paid at most this many times."""


@dataclass(frozen=True)
class GameKey:
    """What a worker rebuilds a game circuit from (the circuit itself is not shipped)."""

    spec: Endgame
    first: Card | None
    construction: str
    paper_codes: bool
    model: str = "random"

    @classmethod
    def of(cls, game) -> GameKey:
        return cls(
            game.spec,
            game.first,
            game.construction.name,
            game.layout.code is not None,
            game.model,
        )

    def token(self) -> bytes:
        return pickle.dumps(self)


_GAMES: dict[bytes, tuple[object, Compiler]] = {}


_GAMES_LOCK = threading.Lock()


def _game(key: GameKey):
    """The game circuit of ``key`` and its compiler, built once per process (under a lock: the
    shards of one process run on several threads)."""
    token = key.token()
    with _GAMES_LOCK:
        hit = _GAMES.get(token)
        if hit is None:
            from qcards.circuits.game import build_game

            game = build_game(key.spec, key.first, key.paper_codes, key.construction, key.model)
            hit = _GAMES[token] = (game, Compiler())
            while len(_GAMES) > 4:
                del _GAMES[next(iter(_GAMES))]
    return hit


def _segment(game, compiler: Compiler, start: int, stop: int) -> list[Step]:
    """The steps of the game circuit's instructions ``start:stop``."""
    return [step for steps in _instruction_steps(game, compiler)[start:stop] for step in steps]


def _instruction_steps(game, compiler: Compiler) -> list[list[Step]]:
    """The steps of each instruction of the game circuit (compiled once per game and
    compiler: the deal stage takes its own, the depth-first run asks for the rest once per
    block of rows)."""
    cached = getattr(compiler, "instruction_steps", None)
    if cached is None or cached[0] is not game:
        index = {q: i for i, q in enumerate(game.circuit.qubits)}
        steps = [
            compiler.placed(inst.operation, tuple(index[q] for q in inst.qubits))
            for inst in game.circuit.data
        ]
        compiler.instruction_steps = cached = (game, steps)
    return cached[1]


# ------------------------------------------------------------------------- reductions
@dataclass(frozen=True)
class FinalOutcomes:
    """Reduce a shard to the distribution of the declarer's final (points, tricks)."""

    def stops(self, game) -> tuple[int, ...]:
        return (len(game.circuit.data),)

    def read(self, game, state: SparseState, stop: int) -> dict:
        return final_outcomes(game, state)


@dataclass(frozen=True)
class StageProbabilities:
    """Reduce a shard to the distribution of the qubits ``positions`` after each stage of
    ``stages`` (indices into ``game.stages``, deal stage excluded)."""

    stages: tuple[int, ...]
    positions: tuple[int, ...]

    def stops(self, game) -> tuple[int, ...]:
        return tuple(game.prefix_lengths[s] for s in self.stages)

    def read(self, game, state: SparseState, stop: int) -> dict:
        return state.probabilities(self.positions)


def final_outcomes(game, state: SparseState) -> dict[tuple[int, ...], float]:
    """The (points, tricks) distribution of the final rows of ``state``, read with
    :meth:`~qcards.circuits.layout.GameLayout.final_declarer_outcome` (one compiled pass); in a
    declared Hand game whose matadors vary with the deal, (points, tricks, matadors), each
    row's matadors read from its Skat
    (:meth:`~qcards.circuits.layout.GameLayout.final_matadors`). Raises
    :class:`~qcards.execution.sparse.state.AncillaError` if an ancilla is not clean."""
    state.merge()
    index = {q: i for i, q in enumerate(game.circuit.qubits)}
    measured = set(game.layout.measured)
    state.check_clean([i for q, i in index.items() if q not in measured], atol=0.0)

    if not state.num_rows:
        return {}
    declared = game.spec.declaration
    per_deal = declared is not None and declared.per_deal
    points = np.empty(state.num_rows, dtype=np.int64)
    tricks = np.empty(state.num_rows, dtype=np.int64)
    matadors = np.zeros(state.num_rows, dtype=np.int64)
    for lo in range(0, state.num_rows, READ_ROWS):
        rows = slice(lo, min(lo + READ_ROWS, state.num_rows))
        sums = state.sums_of(index, rows)
        points[rows], tricks[rows] = game.layout.final_declarer_outcome(sums)
        if per_deal:
            matadors[rows] = game.layout.final_matadors(sums, rows.stop - rows.start)
    amps = state.amps
    probabilities = amps.real**2 + amps.imag**2
    # one integer per outcome, counted without sorting (np.unique over pairs sorted the rows
    # as structured values: most of a shard's time)
    columns = [points, tricks, matadors] if per_deal else [points, tricks]
    lows = [int(c.min()) for c in columns]
    spans = [int(c.max()) - low + 1 for c, low in zip(columns, lows, strict=True)]
    key: np.ndarray = np.zeros(state.num_rows, dtype=np.int64)
    for c, low, span in zip(columns, lows, spans, strict=True):
        key = key * span + (c - low)
    present = np.flatnonzero(np.bincount(key))
    sums = np.bincount(key, weights=probabilities)[present]
    out = {}
    for k, x in zip(present.tolist(), sums, strict=True):
        digits = []
        for low, span in zip(reversed(lows), reversed(spans), strict=True):
            k, digit = divmod(k, span)
            digits.append(low + digit)
        out[tuple(reversed(digits))] = float(x)
    return out


# ------------------------------------------------------------------------- shards
@dataclass(frozen=True)
class Shard:
    """One block of deals: rows (bits, amplitudes) of the state after the deal stage, what to
    reduce them to, and the shard's row guard."""

    game: GameKey
    bits: np.ndarray
    amps: np.ndarray
    deals: np.ndarray  # row index where each deal of the block starts
    reduction: FinalOutcomes | StageProbabilities
    max_rows: int

    def halves(self) -> tuple[Shard, Shard]:
        middle = int(self.deals[len(self.deals) // 2])
        low = Shard(
            self.game,
            self.bits[:middle],
            self.amps[:middle],
            self.deals[: len(self.deals) // 2],
            self.reduction,
            self.max_rows,
        )
        high = Shard(
            self.game,
            self.bits[middle:],
            self.amps[middle:],
            self.deals[len(self.deals) // 2 :] - middle,
            self.reduction,
            self.max_rows,
        )
        return low, high


def run_shard(shard: Shard) -> list[dict]:
    """Simulate one block of deals through the rest of the game and reduce it: one dictionary
    per stop of its reduction. A block that outgrows its guard is split in two and the halves'
    contributions added (low half first); one deal that does not fit raises
    :class:`~qcards.execution.sparse.state.SparseMemoryError`."""
    game, compiler = _game(shard.game)
    try:
        return _run(game, compiler, shard)
    except SparseMemoryError:
        if len(shard.deals) < 2:
            raise
    low, high = shard.halves()
    return [add(a, b) for a, b in zip(run_shard(low), run_shard(high), strict=True)]


def _run(game, compiler: Compiler, shard: Shard) -> list[dict]:
    state = SparseState(game.num_qubits, max_rows=shard.max_rows)
    state.set_rows(shard.bits, shard.amps)
    stops = shard.reduction.stops(game)
    out: list[dict] = [{} for _ in stops]
    _descend(game, _instruction_steps(game, compiler), shard, state, game.prefix_lengths[0], out)
    return out


def _descend(
    game, steps: list[list[Step]], shard: Shard, state: SparseState, done: int, out: list[dict]
) -> None:
    """Run ``state`` from instruction ``done`` to the last stop of the shard's reduction, adding
    its reads into ``out``; once the rows pass :data:`CHUNK_ROWS`, each block of that many rows
    goes on alone (the rows never interfere: the module docstring)."""
    stops = shard.reduction.stops(game)
    while done < stops[-1]:
        state.run(steps[done])
        done += 1
        if done in stops:
            k = stops.index(done)
            out[k] = add(out[k], shard.reduction.read(game, state, done))  # reads merge first
        if state.num_rows > CHUNK_ROWS and done < stops[-1]:
            state.merge()  # rows of one basis state (a decomposition's branches) stay together
            bits, amps = state.bits, state.amps
            del state
            for lo in range(0, amps.shape[0], CHUNK_ROWS):
                block = SparseState(game.num_qubits, max_rows=shard.max_rows)
                block.set_rows(bits[lo : lo + CHUNK_ROWS], amps[lo : lo + CHUNK_ROWS])
                _descend(game, steps, shard, block, done, out)
            return


def peak_rows(game, deals: int, paths: float) -> int:
    """Rows held at once, at most, by the ``deals`` deal rows and a shard run depth first:
    each block in flight was cut from a state of at most :data:`CHUNK_ROWS` rows times the most
    cards a play branches into (the hand size), and blocks nest at most once per card play; nor
    can the rows of play outnumber the ``paths``."""
    spec = game.spec
    plays = spec.num_tricks * len(spec.players)
    return deals + int(min(paths, plays * spec.hand_size * CHUNK_ROWS))


def add(a: dict, b: dict) -> dict:
    """``a + b`` as distributions (keys of ``a`` first, then the new ones of ``b``)."""
    out = dict(a)
    for k, v in b.items():
        out[k] = out.get(k, 0.0) + v
    return out


def deal_state(game, max_rows: int | None = None) -> SparseState:
    """The state after the deal stage (merged): one row per deal."""
    compiler = _game_compiler(game)
    state = SparseState(game.num_qubits, max_rows=max_rows)
    if game.circuit.global_phase:
        state.global_phase(float(game.circuit.global_phase))
    state.run(_segment(game, compiler, 0, game.prefix_lengths[0]))
    state.merge()
    return state


def _game_compiler(game) -> Compiler:
    key = GameKey.of(game)
    token = key.token()
    hit = _GAMES.get(token)
    if hit is None or hit[0] is not game:
        _GAMES[token] = hit = (game, Compiler())
    return hit[1]


def owner_positions(game) -> list[int]:
    """The state's qubits of the owner registers (the deal)."""
    index = {q: i for i, q in enumerate(game.circuit.qubits)}
    return [index[q] for r in game.layout.owner.values() for q in r]


def plan_shards(
    game,
    reduction: FinalOutcomes | StageProbabilities,
    paths: float,
    shard_bytes: int = SHARD_BYTES,
    max_bytes: int | None = None,
) -> tuple[SparseState, list[Shard]]:
    """The deal state and its rows cut into blocks of whole deals (rows sorted by the owner
    registers' value), each planned to hold ``SHARD_SKEW`` times the average deal's share of
    ``paths`` within ``shard_bytes``; a block's guard is ``max_bytes`` (default: the memory
    limit in force, :func:`qcards.plan.current_limits`), beyond which it is split."""
    cards = len(game.layout.cards)
    planned = rows_for_bytes(shard_bytes, game.num_qubits, cards)
    max_rows = rows_for_bytes(
        int(max(shard_bytes, current_limits().memory if max_bytes is None else max_bytes)),
        game.num_qubits,
        cards,
    )
    state = deal_state(game)
    bits, amps = state.bits, state.amps
    key = _owner_values(bits, owner_positions(game))
    order = np.lexsort(key[::-1])
    bits, amps, key = bits[order], amps[order], key[:, order]
    starts = np.flatnonzero(
        np.concatenate(([True], np.any(key[:, 1:] != key[:, :-1], axis=0)))
        if key.shape[1]
        else np.zeros(0, dtype=bool)
    )
    deals = max(1, starts.size)
    per_deal = SHARD_SKEW * paths / deals
    per_shard = max(1, int(planned // max(per_deal, 1.0)), -(-deals // MAX_SHARDS))
    token = GameKey.of(game)
    shards = []
    for i in range(0, starts.size, per_shard):
        lo = int(starts[i])
        hi = int(starts[i + per_shard]) if i + per_shard < starts.size else bits.shape[0]
        shards.append(
            Shard(
                token,
                np.ascontiguousarray(bits[lo:hi]),
                amps[lo:hi].copy(),
                starts[i : i + per_shard] - lo,
                reduction,
                max_rows,
            )
        )
    return state, shards


def _owner_values(bits: np.ndarray, positions: Sequence[int]) -> np.ndarray:
    """The owner registers' bits of every row (``bits`` rows-major), packed words-major."""
    out = np.zeros((max(1, -(-len(positions) // 64)), bits.shape[0]), dtype=np.uint64)
    for k, q in enumerate(positions):
        w, b = divmod(q, 64)
        out[k // 64] |= ((bits[:, w] >> np.uint64(b)) & np.uint64(1)) << np.uint64(k % 64)
    return out


def run_shards(shards: Sequence[Shard], scheduler: str | None = None) -> list[dict]:
    """Every shard's contribution, summed in shard order (one dictionary per stop): on the
    Dask ``scheduler``, or without one on :data:`THREADS` threads of this process."""
    from qcards.execution.sweeps import sweep

    threads = THREADS if scheduler is None else 1
    parts = sweep(run_shard, shards, scheduler, "deal shards", threads)
    total: list[dict] | None = None
    for part in parts:
        total = part if total is None else [add(a, b) for a, b in zip(total, part, strict=True)]
    return total or []


def sharded_final_outcomes(
    game,
    paths: float,
    scheduler: str | None = None,
    shard_bytes: int = SHARD_BYTES,
    max_bytes: int | None = None,
) -> dict[tuple[int, ...], float]:
    """The exact distribution of the declarer's final (points, tricks) from the game circuit,
    the deals in shards (``paths``: the estimated (deal, play path) pairs, for the blocks'
    size; ``scheduler`` as in :func:`~qcards.execution.sweeps.sweep`; ``shard_bytes`` and
    ``max_bytes`` as in :func:`plan_shards`)."""
    _, shards = plan_shards(game, FinalOutcomes(), paths, shard_bytes, max_bytes)
    (outcomes,) = run_shards(shards, scheduler)
    return dict(sorted(outcomes.items()))


def sharded_stage_probabilities(
    game,
    stages: Sequence,
    positions: Sequence[int],
    paths: float,
    scheduler: str | None = None,
    shard_bytes: int = SHARD_BYTES,
    max_bytes: int | None = None,
) -> dict:
    """The distribution of the qubits ``positions`` after each of ``stages`` (stage objects
    of ``game``), the deals in shards; the deal stage is read from the deal state itself."""
    wanted = sorted({game.stages.index(s) for s in stages})
    later = tuple(i for i in wanted if i > 0)
    reduction = StageProbabilities(later, tuple(positions))
    state, shards = plan_shards(game, reduction, paths, shard_bytes, max_bytes)
    out = {}
    if 0 in wanted:
        out[game.stages[0]] = state.probabilities(list(positions))
    if later:
        for i, dist in zip(later, run_shards(shards, scheduler), strict=True):
            out[game.stages[i]] = dict(sorted(dist.items()))
    return out


def engine_plan(game) -> Plan:
    """The sparse engine's plan for ``game`` with the deals in shards: its (deal, play path)
    pairs by Knuth's estimate, the seconds at the engine's one rate (:func:`engine_seconds`),
    and the memory of the deal state (one row a deal) and of the blocks of rows each of
    :data:`THREADS` shards holds in flight (:func:`peak_rows`). How many paths a deal has does
    not matter for memory: its rows run :data:`CHUNK_ROWS` at a time."""
    from qcards.skat.deals.count import num_deals
    from qcards.skat.solvers.plain_referee import estimate_paths

    paths = estimate_paths(game.spec, game.first)
    deals = num_deals(game.spec)
    rows = deals + THREADS * (peak_rows(game, deals, paths) - deals)
    return Plan(
        "the sparse engine",
        seconds=engine_seconds(paths, THREADS),
        bytes=estimate_bytes(rows, game.num_qubits, len(game.layout.cards)),
        paths=paths,
        states=rows,
        size=f"about {paths:,.0f} play paths at about {engine_rate(THREADS):,.0f} a second; the "
        f"deal state's {deals:,} rows, one a deal, and up to {rows - deals:,} rows of play in "
        f"flight; {game.num_qubits} qubits; the deals in shards on {THREADS} thread(s), the "
        f"rows of a shard {CHUNK_ROWS:,} at a time",
        ways=(SAMPLE, CLASSICAL, SMALLER),
    )


def check_cost(game, force: bool = False) -> float:
    """Refuse :func:`engine_plan` past the limits in force (:func:`qcards.plan.check`: memory
    always, nothing smaller can run; time unless ``force``). Returns the estimated (deal, play
    path) pairs."""
    return check(engine_plan(game), force).paths


__all__ = [
    "SHARD_BYTES",
    "FinalOutcomes",
    "Shard",
    "StageProbabilities",
    "CHUNK_ROWS",
    "check_cost",
    "engine_plan",
    "final_outcomes",
    "peak_rows",
    "plan_shards",
    "run_shard",
    "run_shards",
    "sharded_final_outcomes",
    "sharded_stage_probabilities",
]
