"""The sparse engine with the deals in shards (:mod:`qcards.execution.sparse.shards`).

The premise (the deals never interfere: no gate after the deal changes an owner register) is
checked on the decompositions and on the classical actions; the conclusion (sharded equals the
whole state) on every generated spec, here and on a two-worker Dask cluster.
"""

from __future__ import annotations

import importlib

import numpy as np
import pytest

from qcards.circuits.game import build_game
from qcards.errors import ResourceError
from qcards.execution import sweeps
from qcards.execution.sparse.engine import (
    Compiler,
    SparseState,
    estimate_bytes,
    simulate,
    simulate_prefixes,
)
from qcards.execution.sparse.shards import (
    FinalOutcomes,
    check_cost,
    final_outcomes,
    owner_positions,
    plan_shards,
    sharded_final_outcomes,
    sharded_stage_probabilities,
)
from qcards.paper.examples import SIX_CARD
from qcards.plan import limits
from qcards.skat.solvers.plain_referee import estimate_paths

from conftest import generated_specs, random_spec, sampled

SPECS = generated_specs()
TINY = 400
"""Bytes planned per shard in these tests: a deal or two per shard, so every spec is cut."""


def game_of(params, construction="efficient"):
    return build_game(random_spec(*params), None, construction=construction)


def close(a: dict, b: dict, tol: float = 1e-12) -> bool:
    return all(abs(a.get(k, 0.0) - b.get(k, 0.0)) <= tol for k in set(a) | set(b))


@pytest.mark.parametrize("params", sampled(SPECS))
def test_sharded_final_outcomes_equal_the_whole_state(params):
    game = game_of(params)
    whole = final_outcomes(game, simulate(game.circuit))
    paths = estimate_paths(game.spec)
    _, shards = plan_shards(game, FinalOutcomes(), paths, TINY)
    sharded = sharded_final_outcomes(game, paths, shard_bytes=TINY)
    assert close(whole, sharded), params
    assert abs(sum(sharded.values()) - 1) < 1e-12
    if game.layout.owner_width:
        assert len(shards) > 1 or len(shards[0].deals) == 1


@pytest.mark.parametrize("params", SPECS[::3])
def test_sharded_stage_probabilities_equal_the_whole_state(params):
    game = game_of(params, "paper")
    positions = [game.circuit.find_bit(q).index for q in game.layout.measured]
    whole = {
        stage: state.probabilities(positions)
        for stage, state in zip(
            game.stages, simulate_prefixes(game.circuit, game.prefix_lengths), strict=True
        )
    }
    sharded = sharded_stage_probabilities(
        game, game.stages, positions, estimate_paths(game.spec), shard_bytes=TINY
    )
    assert list(sharded) == list(game.stages)
    for stage in game.stages:
        assert close(whole[stage], sharded[stage]), (params, stage)


def test_a_shard_that_outgrows_its_guard_is_split():
    """A guard of half the whole state's rows: the one planned block is split, and the sum is
    the same."""
    game = build_game(SIX_CARD.spec(), None)
    whole = final_outcomes(game, simulate(game.circuit))
    paths = estimate_paths(game.spec)
    rows = simulate(game.circuit).num_rows
    guard = estimate_bytes(rows // 2, game.num_qubits, len(game.layout.cards))
    _, shards = plan_shards(game, FinalOutcomes(), paths, 10**9, guard)
    assert len(shards) == 1 and len(shards[0].deals) > 2  # planned as one block
    split = sharded_final_outcomes(game, paths, shard_bytes=10**9, max_bytes=guard)
    assert close(whole, split)


# ----------------------------------------------------------------------------- the premise


def post_deal_games():
    for params in SPECS[::4]:
        for construction in ("efficient", "paper"):
            yield game_of(params, construction)


def history_positions(game) -> list[int]:
    """The state's qubits of the history registers: owner, play and winner."""
    index = {q: i for i, q in enumerate(game.circuit.qubits)}
    layout = game.layout
    registers = [*layout.owner.values(), *layout.play.values(), *layout.winner.values()]
    return [index[q] for r in registers for q in r]


@pytest.mark.parametrize("classical_actions", [True, False])
def test_every_gate_after_the_deal_keeps_each_rows_deal_and_history(classical_actions):
    """The premises of the shards and of the blocks of rows. Each later gate, through its
    classical action and through its decomposition, run on one reached basis state at a time:
    leaves the owner bits of every resulting row as they were (it is block diagonal in the
    deal; a decomposition may flip an owner qubit inside the gate, an X around a control on 0,
    but restores it), and keeps every history bit (owner, play, winner) that was set. And no
    two reached rows share their history bits. So different rows have different descendants
    to the end, and never interfere."""
    for game in post_deal_games():
        owners, history = owner_positions(game), history_positions(game)
        mask = np.zeros(max(1, -(-game.num_qubits // 64)), dtype=np.uint64)
        for q in history:
            mask[q // 64] |= np.uint64(1 << (q % 64))
        compiler = Compiler(classical_actions)
        index = {q: i for i, q in enumerate(game.circuit.qubits)}
        state = SparseState(game.num_qubits)
        for k, inst in enumerate(game.circuit.data):
            steps = compiler.placed(inst.operation, tuple(index[q] for q in inst.qubits))
            if k >= game.prefix_lengths[0]:
                state.merge()
                distinct = np.unique(state.bits & mask, axis=0).shape[0]
                assert distinct == state.num_rows, game.spec.source
                for row in range(0, state.num_rows, max(1, state.num_rows // 7)):
                    one = SparseState(game.num_qubits)
                    one.set_rows(state.bits[row : row + 1], state.amps[row : row + 1])
                    deal = one.read(owners)[0] if owners else None
                    was_set = [q for q in history if one.read([q])[0]]
                    one.run(steps)
                    if owners:
                        assert (one.read(owners) == deal).all(), (game.spec.source, inst)
                    for q in was_set:
                        assert (one.read([q]) == 1).all(), (game.spec.source, inst)
            state.run(steps)


@pytest.mark.parametrize("params", sampled(SPECS))
def test_rows_run_in_blocks_of_three_equal_the_whole_state(params, monkeypatch):
    """The depth-first run with blocks of at most three rows gives the whole state's final
    (points, tricks) distribution, and (paper construction) its stage probabilities."""
    from qcards.execution.sparse import shards as sparse_shards

    game = game_of(params)
    whole = final_outcomes(game, simulate(game.circuit))
    paths = estimate_paths(game.spec)
    monkeypatch.setattr(sparse_shards, "CHUNK_ROWS", 3)
    assert close(whole, sharded_final_outcomes(game, paths)), params
    paper = game_of(params, "paper")
    positions = [paper.circuit.find_bit(q).index for q in paper.layout.measured]
    states = simulate_prefixes(paper.circuit, paper.prefix_lengths)
    blocks = sharded_stage_probabilities(paper, paper.stages, positions, paths)
    for stage, state in zip(paper.stages, states, strict=True):
        assert close(state.probabilities(positions), blocks[stage]), (params, stage)


# ----------------------------------------------------------------------------- guards


def test_the_guard_refuses_only_when_the_deals_and_the_blocks_cannot_fit_and_names_shots():
    game = build_game(SIX_CARD.spec(), None)
    with limits(memory=10**6):  # the whole state would not need it; a deal fits
        check_cost(game)
    with limits(memory=100), pytest.raises(ResourceError, match="deal state") as info:
        check_cost(game)
    assert "shots" in info.value.parameters


def test_the_memory_a_shard_needs_is_bounded_by_its_blocks_not_by_its_deals_paths():
    """Eighteen cards: 861 million paths, the largest deal 13.8 million; the bound is the deal
    rows plus the blocks in flight, far below one deal's paths."""
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
    from bench_scale import scale_spec

    from qcards.execution.sparse.shards import CHUNK_ROWS, peak_rows

    game = build_game(scale_spec(6), None)
    rows = peak_rows(game, 924, estimate_paths(game.spec))
    assert rows == 924 + 18 * 6 * CHUNK_ROWS
    assert rows < 10_900_000
    check_cost(game, force=True)  # no memory refusal at eighteen cards


# ----------------------------------------------------------------------------- Dask


@pytest.fixture(scope="module")
def scheduler():
    """A two-worker local cluster shared by the module's Dask tests."""
    distributed = pytest.importorskip("distributed")
    cluster = sweeps.local_cluster(n_workers=2)
    with cluster, distributed.Client(cluster) as client:
        client.run(importlib.import_module, "qcards.execution.sparse.shards")
        yield cluster.scheduler_address


@pytest.mark.parametrize("params", SPECS[::5])
def test_dask_gives_the_same_floats_as_one_process(params, scheduler):
    game = game_of(params)
    paths = estimate_paths(game.spec)
    here = sharded_final_outcomes(game, paths, shard_bytes=TINY)
    there = sharded_final_outcomes(game, paths, scheduler=scheduler, shard_bytes=TINY)
    assert here == there  # the same blocks, summed in the same order


@pytest.mark.parametrize("params", SPECS[::5])
def test_threads_give_the_same_floats_as_one_thread(params, monkeypatch):
    from qcards.execution.sparse import shards as sparse_shards

    game = game_of(params)
    paths = estimate_paths(game.spec)
    monkeypatch.setattr(sparse_shards, "THREADS", 1)
    one = sharded_final_outcomes(game, paths, shard_bytes=TINY)
    monkeypatch.setattr(sparse_shards, "THREADS", 3)
    assert sharded_final_outcomes(game, paths, shard_bytes=TINY) == one


# ----------------------------------------------------------------------------- fifteen cards


@pytest.mark.slow
def test_fifteen_cards_sharded_equal_the_fast_referee():
    """Three players with five cards each (252 deals, 7.3 million play paths; some 5-25 s on a
    local Dask cluster, its start included): the sharded engine against the memoized referee.
    (All of eighteen cards, 861 million paths, takes six to nine minutes on two cores: the
    scale and sharded studies measure it; the test below checks its first shard.)"""
    import sys
    from pathlib import Path

    from qcards.skat.solvers.fast_referee.solver import evaluate

    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
    from bench_scale import scale_spec

    spec = scale_spec(5)
    game = build_game(spec, None)
    outcomes = sharded_final_outcomes(game, check_cost(game, force=True), scheduler="local")
    referee = evaluate(spec, "random", None)
    p_win = sum(p for (v, t), p in outcomes.items() if spec.declarer_wins(v, t))
    points = sum(p * v for (v, _t), p in outcomes.items())
    assert abs(p_win - float(referee.p_win)) < 1e-9
    assert abs(points - float(referee.expected_points)) < 1e-7


@pytest.mark.slow
def test_eighteen_cards_first_shard_equals_the_fast_referee_deal_by_deal():
    """Eighteen cards (924 deals, 861 million play paths: six to nine minutes in all on two
    cores), the sharded engine on its first planned shard, against the memoized referee on each
    of that shard's deals laid open: the shard's (points, tricks) distribution is the deals'
    own, weighted by their probability. The first shard is a deal of 10.9 million paths (11.7
    times the average; the largest has 13.8 million), so its rows run in some 170 blocks (some
    10-20 s; the whole endgame is the studies', not CI's)."""
    import sys
    from pathlib import Path

    import numpy as np
    from test_prior import open_spec

    from qcards.execution.sparse.shards import FinalOutcomes, plan_shards, run_shard
    from qcards.skat.solvers.fast_referee.solver import evaluate

    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
    from bench_scale import scale_spec

    spec = scale_spec(6)
    game = build_game(spec, None)
    _, shards = plan_shards(game, FinalOutcomes(), estimate_paths(spec))
    assert len(shards) > 100  # the plan covers every deal, a few at a time
    shard = shards[0]
    (outcomes,) = run_shard(shard)
    index = {q: i for i, q in enumerate(game.circuit.qubits)}
    p_win = points = weight = 0.0
    for row in shard.deals:  # each deal is one row at the deal stage
        bits = shard.bits[row]
        outcome = sum(
            int((bits[index[q] // 64] >> np.uint64(index[q] % 64)) & np.uint64(1)) << k
            for k, q in enumerate(game.layout.measured)
        )
        deal = game.layout.decode(outcome, game.stages[0])
        probability = abs(shard.amps[row]) ** 2
        referee = evaluate(open_spec(spec, dict(deal.owner)), "random", None)
        assert referee.num_deals == 1
        p_win += probability * float(referee.p_win)
        points += probability * float(referee.expected_points)
        weight += probability
    assert abs(sum(outcomes.values()) - weight) < 1e-12
    wins = sum(p for (v, t), p in outcomes.items() if spec.declarer_wins(v, t))
    assert abs(wins - p_win) < 1e-12
    assert abs(sum(p * v for (v, _t), p in outcomes.items()) - points) < 1e-9
