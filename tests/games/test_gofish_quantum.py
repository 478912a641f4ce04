"""The quantum view of Quantum Go Fish: the circuit's consistent branch against brute force,
exactly, and quantum counting against the exact count."""

from __future__ import annotations

import math
import random
from collections import Counter
from dataclasses import replace
from pathlib import Path

import gofish_brute as brute
import pytest

from qcards.errors import ModelError
from qcards.execution.ddsim import dd_amplitudes
from qcards.games.gofish import GoFish, Knowledge, parse_record
from qcards.games.gofish.quantum import (
    DEFAULT_OPTIONS,
    KINDS,
    DealConstraints,
    build_deal_circuit,
    count_deals,
    count_with_circuit,
    exact_fraction,
    record_constraints,
)
from qcards.games.gofish.randomplay import random_move

DATA = Path(__file__).parent / "data"


def _random_game(players: int, moves: int, seed: int, no_four: bool = False) -> GoFish:
    rng = random.Random(seed)
    game = GoFish([f"P{k}" for k in range(players)], no_four=no_four)
    while not game.over and len(game.moves) < moves:
        random_move(game, rng)
    return game


def _consistent_initial_deals(game: GoFish) -> list:
    states = brute.replay_moves(
        len(game.players), game.moves, list(game.players), list(game.suits), game.no_four
    )
    return [initial for initial, _ in states]


def _weight(matrix) -> int:
    """Deals of the physical cards with this count matrix: a multinomial per suit."""
    n = len(matrix)
    out = 1
    for s in range(n):
        out *= math.factorial(4) // math.prod(math.factorial(matrix[p][s]) for p in range(n))
    return out


@pytest.mark.parametrize("players, no_four", [(2, False), (3, False), (3, True), (4, False)])
def test_exact_count_matches_brute_force(players, no_four):
    for seed in range(12 if players < 4 else 4):
        game = _random_game(players, moves=seed % 6, seed=seed, no_four=no_four)
        if game.outcome.status == "paradox":
            continue
        constraints = DealConstraints.from_knowledge(game.knowledge)
        deals = _consistent_initial_deals(game)
        assert count_deals(constraints, "hands") == len(deals)
        assert count_deals(constraints, "cards") == sum(_weight(m) for m in deals)


def _flagged(game: GoFish, kind: str):
    """The circuit's objective-1 branch, decoded: count matrix -> list of amplitudes."""
    constraints = DealConstraints.from_knowledge(game.knowledge)
    circuit = build_deal_circuit(constraints, kind)
    qubits = [circuit.circuit.qubits[i] for owner in circuit.owners for i in owner]
    qubits.append(circuit.circuit.qubits[circuit.objective])
    amplitudes = dd_amplitudes(circuit.circuit, qubits)
    width = len(circuit.owners[0]) if circuit.owners else 0
    flagged: dict = {}
    probability = 0.0
    for key, amplitude in amplitudes.items():
        if not key >> (len(qubits) - 1):
            continue
        probability += abs(amplitude) ** 2
        counts = [list(row) for row in circuit.placed]
        for card, suit in enumerate(circuit.suits):
            counts[(key >> (card * width)) & ((1 << width) - 1)][suit] += 1
        flagged.setdefault(tuple(map(tuple, counts)), []).append(amplitude)
    return constraints, circuit, flagged, probability


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("players, seeds", [(2, range(6)), (3, range(3))])
def test_the_flagged_branch_is_the_uniform_superposition_of_consistent_deals(kind, players, seeds):
    """Exact amplitudes from the decision diagram: every consistent deal (and nothing else)
    carries amplitude 1/sqrt(N_total) next to objective 1; P(1) = N / N_total to 1e-9."""
    for seed in seeds:
        game = _random_game(players, moves=2 + seed, seed=seed)
        if game.outcome.status == "paradox":
            continue
        constraints, circuit, flagged, probability = _flagged(game, kind)
        expected = Counter(
            {m: (_weight(m) if kind == "cards" else 1) for m in _consistent_initial_deals(game)}
        )
        assert {m: len(a) for m, a in flagged.items()} == dict(expected)
        amplitudes = [a for amps in flagged.values() for a in amps]
        phase = amplitudes[0] / abs(amplitudes[0])  # the deal gate may add a global phase
        for a in amplitudes:
            assert abs(a / phase - 1 / math.sqrt(circuit.total)) < 1e-9
        assert abs(probability - float(exact_fraction(constraints, kind))) < 1e-9


def test_counting_pins_the_two_player_card_deals():
    """Seeded IAE (epsilon 0.002, 95 % interval): the interval holds one whole number, the
    exact count."""
    game = _random_game(2, moves=2, seed=4)
    constraints = DealConstraints.from_knowledge(game.knowledge)
    result = count_with_circuit(
        constraints, "cards", replace(DEFAULT_OPTIONS, epsilon=0.002, seed=11)
    )
    assert result.total == 70
    assert result.ci[0] <= result.exact <= result.ci[1]
    assert result.resolved and result.rounded == result.exact


def test_counting_pins_the_sample_game_of_seed_000():
    """The three-player sample game ends determined: one count matrix is left, and counting
    over the 90 arrangements of the uncommitted cards finds it."""
    record = parse_record((DATA / "wikipedia.txt").read_text(), "wikipedia.txt")
    constraints = record_constraints(record)
    result = count_with_circuit(
        constraints, "hands", replace(DEFAULT_OPTIONS, epsilon=0.002, seed=3)
    )
    assert (result.exact, result.total) == (1, 90)
    assert result.ci[0] <= result.exact <= result.ci[1]
    assert result.resolved and result.rounded == 1


def test_a_paradox_has_no_quantum_view():
    """Holding none and at least one of a suit at once: no deal is consistent."""
    knowledge = Knowledge.start(2).holds_none(0, 0).holds_some(0, 0)
    assert not knowledge.feasible
    with pytest.raises(ModelError, match="paradox"):
        DealConstraints.from_knowledge(knowledge)


def test_unknown_kind_is_refused():
    with pytest.raises(ModelError, match="kind"):
        build_deal_circuit(DealConstraints(2, {}), "suits")


def test_a_full_first_hand_is_dealt_nothing(tmp_path):
    """Every card of the first seat committed: the deal gives it no card (an empty receiver of
    the multinomial deal gate), and counting still pins the single consistent matrix."""
    record = parse_record(
        "players A B C\n"
        "A asks B for narwhals: no\n"
        "B asks A for unicorns: yes\n"
        "C asks A for unicorns: yes\n"
        "A asks C for narwhals: yes\n"
        "B asks A for radishes: yes\n",
        "full-hand",
    )
    constraints = record_constraints(record)
    circuit = build_deal_circuit(constraints, "hands")
    assert sum(circuit.placed[0]) == 4
    result = count_with_circuit(
        constraints, "hands", replace(DEFAULT_OPTIONS, epsilon=0.01, seed=1)
    )
    assert result.exact == count_deals(constraints, "hands")
    assert result.ci[0] <= result.exact <= result.ci[1] and result.rounded == result.exact
