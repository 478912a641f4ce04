"""Ideal-device shots (:mod:`qcards.execution.shots`) and the sampled answers built on them.

What is checked, and against what:

1. Why shots are exact: with a random phase on every basis state after each top-level
   instruction of a game circuit (a measurement of the computational basis, in effect), the
   final distribution of the measured registers is that of the coherent run (to 1e-9), for the
   paper, efficient and hardware constructions; a negative control (H, H) shows the same check
   fails on a circuit whose branches interfere.
2. Each gate's branching as run_shots draws it equals the gate's unitary from its definition
   (chi-square and per-branch z-scores, fixed seeds), and every deal gate's direct draw
   (``sparse_sample``) follows its ``deal_table``.
3. The 95% intervals cover the referee's exact answers in about 95% of seeds (random play:
   Wilson for p_win, the normal interval for expected points; adversarial play: PIMC).
4. Many shots reproduce the exact p_win and the exact distribution of final points.
5. Determinism: a seed fixes every shot; chunks and Dask change nothing.
6. Common random numbers: the first cards of a spec see the same deals shot for shot.
7. The CLI's sampled answers and its refusals.

Statistical checks use fixed seeds, so each either passes or fails for good; each states its
tolerance. Two bugs were found while writing this file and are fixed: ``run_shots`` returned its
rows out of shot order after a gate that permuted them without branching (which broke the
pairing of first cards), and two refusals printed a literal ``{method}``.
"""

from __future__ import annotations

import functools
import json
import math
from collections import Counter
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from qiskit import QuantumCircuit
from scipy import stats

import qcards
from qcards.analysis.evaluate import card_differences, recommend
from qcards.circuits.game import GameCircuit, build_game
from qcards.circuits.gates import DealGate, MultinomialDealGate, Tally, WeightedDealGate
from qcards.circuits.gates.states import deal_index
from qcards.circuits.task import GameTask
from qcards.cli import main
from qcards.errors import ParameterError
from qcards.execution.exact import sparse_final_points
from qcards.execution.shots import (
    CHUNK_SHOTS,
    GameShots,
    game_chunk,
    read_game,
    read_integers,
    run_shots,
    sample_game,
    shot_streams,
)
from qcards.execution.sparse.engine import Compiler, SparseState, simulate_prefixes
from qcards.paper.examples import FOUR_CARD, SIX_CARD
from qcards.skat.deals.sample import chunks, deal_stream, sample_owners
from qcards.skat.position.history import after_history
from qcards.skat.position.spec import Endgame, parse_spec
from qcards.skat.solvers.plain_referee import evaluate

from conftest import REPO, spec_text

SIX_PATH = REPO / "qcards" / "specs" / "six-card.toml"

# ----------------------------------------------------------------------------- specs

GRAND = spec_text("grand")
NULL = spec_text("null")
FOUR_PLAYERS = spec_text("four-players")
SAME_DEALS = spec_text("same-deals")
"""Both first cards of A win on exactly the same deals, whatever the play
(:func:`test_card_differences_pair_the_same_shots` checks this premise deal by deal)."""

SIX_PRIOR = '[prior]\nweight = { B = { C10 = 3, H10 = "1/2" } }\n'
GRAND_PRIOR = '[prior]\nweight = { B = { HJ = 3, D8 = "1/2" } }\n'
HISTORY = "A:CK B:C10 C:C9"


@functools.cache
def spec(name: str) -> Endgame:
    """The specs of this file: the paper's two, a null game and a grand game with a Skat, the
    six-card example with a prior and after a history, a prior with a Skat, four players."""
    six = SIX_CARD.spec()
    if name == "four-card":
        return FOUR_CARD.spec()
    if name == "six-card":
        return six
    if name == "null":
        return parse_spec(NULL, source="null")
    if name == "grand":
        return parse_spec(GRAND, source="grand")
    if name == "prior":
        return parse_spec(six.to_toml() + SIX_PRIOR, source="six-card with a prior")
    if name == "prior-skat":
        return parse_spec(GRAND + GRAND_PRIOR, source="grand with a prior")
    if name == "history":
        return after_history(six, HISTORY)
    if name == "four-players":
        return parse_spec(FOUR_PLAYERS, source="four players")
    if name == "same-deals":
        return parse_spec(SAME_DEALS, source="same deals")
    raise KeyError(name)


CONSTRUCTIONS = ("paper", "efficient", "hardware")

GAME_CASES = [
    ("four-card", None),
    ("six-card", None),
    ("six-card", "CA"),
    ("null", None),
    ("grand", None),
    ("prior-skat", None),
    ("history", None),
    ("four-players", None),
]
"""(spec, fixed first card) of the circuit checks; the hardware construction skips the four
players (its synthesis of 33 qubits builds for over two minutes)."""

HARDWARE_SKIPS = {"four-players"}


@functools.cache
def game(name: str, first: str | None, construction: str) -> GameCircuit:
    s = spec(name)
    card = None if first is None else next(c for c in s.hands[s.declarer] if str(c) == first)
    return build_game(s, card, construction=construction)


def game_or_skip(name: str, first: str | None, construction: str) -> GameCircuit:
    if construction == "hardware" and name in HARDWARE_SKIPS:
        pytest.skip("the hardware synthesis of this spec takes minutes")
    try:
        return game(name, first, construction)
    except ParameterError as exc:  # the hardware construction refuses large stages
        pytest.skip(f"{construction} refuses {name}: {exc}")


SLOW_CASES = {("four-players", "paper")}
"""The paper construction's four-player gates run through their definitions for 5-10 s."""


def circuit_cases() -> list:
    out = []
    for name, first in GAME_CASES:
        for construction in CONSTRUCTIONS:
            marks = [pytest.mark.slow] if (name, construction) in SLOW_CASES else []
            case_id = f"{name}-{first or 'any'}-{construction}"
            out.append(pytest.param(name, first, construction, marks=marks, id=case_id))
    return out


CIRCUIT_CASES = circuit_cases()


def max_difference(a: dict[int, float], b: dict[int, float]) -> float:
    return max(abs(a.get(k, 0.0) - b.get(k, 0.0)) for k in set(a) | set(b))


# ----------------------------------------------------------------------------- 1. no interference


def run_by_instruction(
    circuit: QuantumCircuit, dephase: np.random.Generator | None, classical_actions: bool = True
) -> SparseState:
    """The circuit run one top-level instruction at a time; with ``dephase``, every basis
    state's amplitude is then multiplied by an independent random phase (rows merged first, so
    each basis state gets one phase)."""
    index = {q: i for i, q in enumerate(circuit.qubits)}
    state = SparseState(circuit.num_qubits)
    compiler = Compiler(classical_actions)
    for instruction in circuit.data:
        qubits = tuple(index[q] for q in instruction.qubits)
        state.run(compiler.placed(instruction.operation, qubits))
        if dephase is not None:
            state.merge()
            phases = np.exp(2j * np.pi * dephase.random(state.num_rows))
            state.set_rows(state.bits.copy(), state.amps * phases)
    return state


@pytest.mark.parametrize("name,first,construction", CIRCUIT_CASES)
def test_random_phases_between_instructions_change_no_outcome(name, first, construction):
    """A random phase on every basis state after each instruction (a computational-basis
    measurement) leaves the measured registers' distribution as it was: tolerance 1e-9 per
    outcome. Branches of the game never meet again, so keeping one per shot is exact. The
    paper and efficient circuits run twice: through the gates' classical actions and through
    their definitions."""
    g = game_or_skip(name, first, construction)
    index = {q: i for i, q in enumerate(g.circuit.qubits)}
    measured = [index[q] for q in g.layout.measured]
    modes = (True,) if construction == "hardware" else (True, False)
    for actions in modes:
        coherent = run_by_instruction(g.circuit, None, actions)
        dephased = run_by_instruction(g.circuit, np.random.default_rng(17), actions)
        expected = coherent.probabilities(measured)
        got = dephased.probabilities(measured)
        assert abs(sum(expected.values()) - 1) < 1e-9
        assert max_difference(expected, got) < 1e-9, (name, construction, actions)
        # the phases did act: the amplitudes themselves differ
        amps = coherent.amplitudes()
        if len(amps) > 1:
            other = dephased.amplitudes()
            assert max(abs(amps[k] - other.get(k, 0)) for k in amps) > 1e-3


def test_random_phases_change_an_interfering_circuit():
    """Negative control: H then H on one qubit gives |0> for sure; a random phase between them
    (as above) leaves P(0) = cos^2(phi/2), so the check above would fail by far more than 1e-9
    on a circuit whose branches interfere."""
    qc = QuantumCircuit(1)
    qc.h(0)
    qc.h(0)
    coherent = run_by_instruction(qc, None).probabilities([0])
    dephased = run_by_instruction(qc, np.random.default_rng(17)).probabilities([0])
    assert abs(coherent.get(0, 0) - 1) < 1e-12
    assert max_difference(coherent, dephased) > 0.05


# ----------------------------------------------------------------------------- 2. branching

BRANCH_SHOTS = 4000
"""Shots of each basis state fed to a gate."""

ROWS_PER_GATE = 3
"""Reached basis states tried before each instruction (chosen with a fixed seed)."""

MAX_Z = 5.0
"""Largest allowed |count - K p| / sqrt(K p (1 - p)) of any branch."""

MIN_P_VALUE = 1e-4
"""Smallest allowed p-value of the pooled chi-square statistic of a circuit's branchings."""


def basis_value(row: np.ndarray) -> int:
    return sum(int(w) << (64 * i) for i, w in enumerate(row.tolist()))


def one_gate_shots(
    circuit: QuantumCircuit, k: int, row: np.ndarray, shots: int, seed: tuple[int, ...]
) -> Counter:
    """``shots`` shots of basis state ``row`` through instruction ``k`` of ``circuit`` by
    :func:`run_shots` (X gates prepare the row; they do not branch): the outcomes' counts."""
    qc = circuit.copy_empty_like()
    qc.global_phase = 0
    value = basis_value(row)
    for q in range(circuit.num_qubits):
        if value >> q & 1:
            qc.x(q)
    qc.append(circuit.data[k])
    state = run_shots(
        qc, shots, np.random.default_rng([*seed, 0]), np.random.default_rng([*seed, 1])
    )
    assert state.num_rows == shots
    assert sorted(state.bits[:, -1].tolist()) == list(range(shots))  # one row per shot
    return Counter(read_integers(state, range(circuit.num_qubits)))


def definition_probabilities(circuit: QuantumCircuit, k: int, row: np.ndarray) -> dict[int, float]:
    """|<out|U|row>|^2 of instruction ``k`` from its definition (no classical action)."""
    index = {q: i for i, q in enumerate(circuit.qubits)}
    instruction = circuit.data[k]
    state = SparseState(circuit.num_qubits)
    # a copy: set_rows keeps a one-word bits array without copying it, and the gate edits it
    state.set_rows(row[None, :].copy(), np.ones(1, dtype=complex))
    state.run_definition(instruction.operation, tuple(index[q] for q in instruction.qubits))
    return {key: abs(a) ** 2 for key, a in state.amplitudes().items() if abs(a) ** 2 > 1e-12}


class BranchTally:
    """Pooled chi-square and the largest branch z-score over several branching experiments."""

    def __init__(self) -> None:
        self.chi2 = 0.0
        self.dof = 0
        self.max_z = 0.0
        self.branching = 0

    def add(self, counts: Counter, probabilities: dict[int, float], shots: int, where) -> None:
        impossible = set(counts) - set(probabilities)
        assert not impossible, f"{where}: outcomes the unitary never gives: {sorted(impossible)}"
        if len(probabilities) < 2:
            return
        keys = sorted(probabilities)
        p = np.array([probabilities[x] for x in keys])
        p = p / p.sum()
        observed = np.array([counts.get(x, 0) for x in keys], dtype=float)
        expected = shots * p
        self.chi2 += float(((observed - expected) ** 2 / expected).sum())
        self.dof += len(keys) - 1
        z = np.abs(observed - expected) / np.sqrt(expected * (1 - p))
        self.max_z = max(self.max_z, float(z.max()))
        self.branching += 1

    def check(self, where) -> None:
        p_value = stats.chi2.sf(self.chi2, self.dof) if self.dof else 1.0
        assert p_value > MIN_P_VALUE, f"{where}: chi2 {self.chi2:.1f} on {self.dof} dof"
        assert self.max_z < MAX_Z, f"{where}: a branch is {self.max_z:.1f} sigma off"


@pytest.mark.parametrize("name,first,construction", CIRCUIT_CASES)
def test_each_gate_branches_as_its_unitary(name, first, construction):
    """Before every instruction, up to three basis states the game reaches are each sent
    through it as 4000 shots by ``run_shots`` (one branch kept per shot; deal gates draw their
    deal directly). Every outcome must have nonzero probability under the gate's definition,
    and the counts must fit |<out|U|in>|^2: pooled chi-square p-value > 1e-4 and every branch
    within 5 binomial standard deviations (fixed seeds)."""
    g = game_or_skip(name, first, construction)
    circuit = g.circuit
    lengths = list(range(len(circuit.data)))
    tally = BranchTally()
    for k, state in zip(lengths, simulate_prefixes(circuit, lengths), strict=True):
        bits = state.bits.copy()
        rng = np.random.default_rng(k)
        for j in rng.choice(len(bits), min(ROWS_PER_GATE, len(bits)), replace=False):
            row = bits[j]
            counts = one_gate_shots(circuit, k, row, BRANCH_SHOTS, (k, int(j)))
            where = f"{name} {construction} {circuit.data[k].operation.name} row {int(j)}"
            tally.add(counts, definition_probabilities(circuit, k, row), BRANCH_SHOTS, where)
    assert tally.branching >= 1  # at least the deal branched (after a history, only it)
    tally.check(f"{name} {construction}")


DEAL_TALLIES = (
    Tally(0, frozenset({0, 1, 3}), (0, 1, 1)),  # receiver 0 holds at least one of cards 0, 1, 3
    Tally(2, frozenset({2, 4}), (Fraction(1, 2), Fraction(1, 3), Fraction(1, 4))),
)
DEAL_WEIGHTS = [[1, 2, Fraction(1, 3)], [0, 1, 1], [2, 1, 1], [1, Fraction(7, 3), 0], [1, 1, 2]]


def deal_gates() -> list[tuple[str, object]]:
    return [
        ("uniform-212", DealGate((2, 1, 2), 2)),
        ("uniform-wide", DealGate((1, 2, 0, 2), 3)),
        ("weighted", DealGate((2, 1, 2), 2, weights=DEAL_WEIGHTS, tallies=DEAL_TALLIES)),
        ("multinomial-212", MultinomialDealGate((2, 1, 2), 2)),
        ("multinomial-wide", MultinomialDealGate((1, 2, 0, 2), 3)),
        ("multinomial-two", MultinomialDealGate((3, 2), 1)),
        ("weighted-poly", WeightedDealGate((2, 1, 2), 2, DEAL_WEIGHTS, DEAL_TALLIES)),
        ("weighted-poly-wide", WeightedDealGate((2, 1, 2), 3, DEAL_WEIGHTS, DEAL_TALLIES)),
    ]


DEAL_GATES = deal_gates()
DEAL_SHOTS = 20_000


@pytest.mark.parametrize("name,gate", DEAL_GATES, ids=[n for n, _ in DEAL_GATES])
def test_deal_gates_draw_their_deal_table(name, gate):
    """``run_shots`` of a deal gate (placed after an idle qubit) draws each deal d with
    probability P(d) = |amplitude|^2 of ``gate.deal_table()``: 20,000 shots, no deal outside
    the table, ancillas and the idle qubit left 0, pooled chi-square p-value > 1e-4 and every
    deal within 5 binomial standard deviations (fixed seed)."""
    assert callable(getattr(gate, "sparse_sample", None))
    qc = QuantumCircuit(gate.num_qubits + 1)
    qc.append(gate, range(1, gate.num_qubits + 1))
    state = run_shots(qc, DEAL_SHOTS, np.random.default_rng(5), np.random.default_rng(6))
    assert state.num_rows == DEAL_SHOTS
    owners = sum(gate.sizes) * gate.width
    values = read_integers(state, range(qc.num_qubits))
    assert all(v & 1 == 0 and v >> (owners + 1) == 0 for v in values), "dirty idle/ancilla"
    counts = Counter(v >> 1 for v in values)
    deals, amps = gate.deal_table()
    table = dict(zip(deal_index(deals, gate.width).tolist(), (amps**2).tolist(), strict=True))
    assert abs(sum(table.values()) - 1) < 1e-12
    tally = BranchTally()
    tally.add(counts, table, DEAL_SHOTS, name)
    tally.check(name)


# ----------------------------------------------------------------------------- 3. coverage

COVERAGE_SEEDS = 200
COVERAGE_SHOTS = 400
NOMINAL = 0.95


def coverage_bounds(runs: int) -> tuple[float, float]:
    """0.95 +- 3 binomial standard deviations of the observed coverage of ``runs`` runs."""
    sd = math.sqrt(NOMINAL * (1 - NOMINAL) / runs)
    return NOMINAL - 3 * sd, NOMINAL + 3 * sd


def assert_covered(
    s: Endgame, exact, seeds: int, method: str, count: int | None = None, **options
) -> None:
    """Over ``seeds`` seeds of ``qcards.evaluate(s, **options)``, each answered by ``method`` (from
    ``count`` samples, when given), the intervals of p_win and of the expected points cover
    ``exact``'s values (with 0 < p_win < 1) in a fraction of runs within
    :func:`coverage_bounds`."""
    p, points = float(exact.p_win), float(exact.expected_points)
    assert 0 < exact.p_win < 1
    low, high = coverage_bounds(seeds)
    covered_p = covered_points = 0
    for seed in range(seeds):
        report = qcards.evaluate(s, seed=seed, **options)
        assert report.method == method and (count is None or report.samples.count == count)
        lo, hi = report.samples.p_win_ci
        covered_p += lo <= p <= hi
        lo, hi = report.samples.expected_points_ci
        covered_points += lo <= points <= hi
    assert low <= covered_p / seeds <= high, ("p_win", covered_p)
    assert low <= covered_points / seeds <= high, ("points", covered_points)


COVERAGE_SPECS = [
    "four-card",
    "six-card",
    "null",
    "grand",
    "prior",
    "history",
    "four-players",
]


@pytest.mark.parametrize("name", COVERAGE_SPECS)
def test_sampled_intervals_cover_the_exact_answer(name):
    """Over 200 seeds of 400 shots, Wilson's 95% interval of p_win covers the referee's exact
    p_win, and the normal interval of the mean covers the exact expected points, each in a
    fraction of runs within 3 binomial standard deviations of 0.95 (0.904 .. 0.996). The specs
    have 0 < p_win < 1 (checked), so coverage is not trivial: 2 and 4 players, a null and a
    grand game with a Skat, a prior, the posterior after a history."""
    s = spec(name)
    assert_covered(s, evaluate(s), COVERAGE_SEEDS, "shots", COVERAGE_SHOTS, shots=COVERAGE_SHOTS)


PIMC_SEEDS = 200
PIMC_SHOTS = 60


@pytest.mark.parametrize("name", ["four-card", "grand", "history"])
def test_pimc_intervals_cover_the_adversarial_value(name):
    """Perfect-information Monte Carlo: over 200 seeds of 60 sampled deals, the intervals
    cover the referee's adversarial p_win and expected points in a fraction of runs within
    3 binomial standard deviations of 0.95 (0.904 .. 0.996); specs with 0 < p_win < 1 under
    adversarial play (checked). (PIMC solves each deal open, the referee's adversarial model.)"""
    s = spec(name)
    exact = evaluate(s, "adversarial")
    assert_covered(s, exact, PIMC_SEEDS, "pimc", model="adversarial", shots=PIMC_SHOTS)


# ----------------------------------------------------------------------------- 4. exactness

MANY_SHOTS = 200_000


@pytest.mark.parametrize("construction", ["paper", "efficient"])
def test_many_shots_reproduce_the_exact_distribution(construction):
    """200,000 shots of the six-card example (seed 11): |p_win - exact| < 5 standard errors;
    the final points' distribution is within total variation 0.01 of the exact one
    (``sparse_final_points``; the expected sampling TV is about 0.002) and each value's
    frequency within 5 standard errors of its probability."""
    s = spec("six-card")
    task = GameTask(s, None, construction)
    result = sample_game(task, MANY_SHOTS, seed=11)
    assert result.shots == MANY_SHOTS
    p = float(evaluate(s).p_win)
    se = math.sqrt(p * (1 - p) / MANY_SHOTS)
    assert abs(result.wins(s).mean() - p) < 5 * se
    exact = sparse_final_points(task.build())
    values, counts = np.unique(result.points, return_counts=True)
    sampled = dict(zip(values.tolist(), (counts / MANY_SHOTS).tolist(), strict=True))
    assert set(sampled) <= set(exact)
    assert 0.5 * sum(abs(sampled.get(v, 0) - q) for v, q in exact.items()) < 0.01
    for v, q in exact.items():
        assert abs(sampled.get(v, 0) - q) < 5 * math.sqrt(q * (1 - q) / MANY_SHOTS), v


# ----------------------------------------------------------------------------- 5. determinism


def assert_same_shots(a: GameShots, b: GameShots) -> None:
    assert np.array_equal(a.points, b.points)
    assert np.array_equal(a.tricks, b.tricks)
    assert a.outcomes == b.outcomes


def test_a_seed_fixes_every_shot():
    """Same seed: identical per-shot points, tricks and outcomes; another seed: different."""
    task = GameTask(spec("six-card"), None, "paper")
    a = sample_game(task, 3000, seed=5, outcomes=True)
    assert_same_shots(a, sample_game(task, 3000, seed=5, outcomes=True))
    other = sample_game(task, 3000, seed=6, outcomes=True)
    assert not np.array_equal(a.points, other.points)
    report = qcards.evaluate(task.spec, shots=3000, seed=5, construction="paper")
    assert report.p_win == float(a.wins(task.spec).mean())
    assert report.samples.seed == 5


def test_shots_are_their_chunks_in_order():
    """25,000 shots are three chunks (10,000, 10,000, 5,000), and equal the concatenation of
    ``game_chunk`` of each, shot for shot."""
    task = GameTask(spec("six-card"))
    parts = chunks(25_000, CHUNK_SHOTS)
    assert parts == [(0, 10_000), (1, 10_000), (2, 5_000)]
    whole = sample_game(task, 25_000, seed=9, outcomes=True)
    joined = GameShots.join([game_chunk(task, 9, part, outcomes=True) for part in parts])
    assert_same_shots(whole, joined)
    assert whole.shots == 25_000
    assert sum(whole.counts().values()) == 25_000


@pytest.mark.slow
def test_dask_gives_the_plain_run():
    """``scheduler="local"`` (a local Dask cluster) gives the same shots as the plain loop."""
    task = GameTask(spec("six-card"))
    plain = sample_game(task, 25_000, seed=4, outcomes=True)
    assert_same_shots(plain, sample_game(task, 25_000, seed=4, scheduler="local", outcomes=True))


# ----------------------------------------------------------------------------- 6. common numbers


def shots_in_order(state: SparseState, values: np.ndarray) -> np.ndarray:
    """``values`` (one per row of a run_shots state) rearranged by the rows' shot index."""
    order = np.argsort(state.bits[:, -1], kind="stable")
    return np.asarray(values)[order]


def owner_matrix(g: GameCircuit, state: SparseState) -> np.ndarray:
    """Each shot's receiver index of every unknown card (shots in shot order)."""
    index = {q: i for i, q in enumerate(g.circuit.qubits)}
    columns = [state.read([index[q] for q in g.layout.owner[card]]) for card in g.spec.unknown]
    return shots_in_order(state, np.stack(columns, axis=1))


def test_first_cards_see_the_same_deals_shot_by_shot():
    """Six-card example, first card CA or CK, one seed: every shot (by its shot index) holds
    the same deal in both circuits, and the same deal as perfect-information Monte Carlo draws
    for that chunk (``sample_owners`` on ``deal_stream``). Another seed deals otherwise."""
    s = spec("six-card")
    shots = 2000
    deals = []
    for first in ("CA", "CK"):
        g = game("six-card", first, "efficient")
        state = run_shots(g.circuit, shots, *shot_streams(3, 0))
        deals.append(owner_matrix(g, state))
    assert np.array_equal(deals[0], deals[1])
    receivers = s.receivers
    pimc = sample_owners(s, deal_stream(3, 0), shots)
    by_pimc = np.array([[receivers.index(o[c]) for c in s.unknown] for o in pimc])
    assert np.array_equal(deals[0], by_pimc)
    g = game("six-card", "CA", "efficient")
    other = owner_matrix(g, run_shots(g.circuit, shots, *shot_streams(4, 0)))
    assert not np.array_equal(deals[0], other)


@pytest.mark.parametrize("first", [None, "CA"])
def test_run_shots_returns_one_row_per_shot_in_shot_order(first):
    """The final state holds one row per shot, row i being shot i (run_shots' docstring)."""
    g = game("six-card", first, "efficient")
    state = run_shots(g.circuit, 1000, *shot_streams(3, 0))
    assert state.bits[:, -1].tolist() == list(range(1000))


def test_card_differences_pair_the_same_shots():
    """A spec where both first cards win on exactly the same deals, whatever the play (checked
    deal by deal with the referee): on common deals every shot's difference is 0, so
    ``card_differences`` must report a zero difference with a zero-width interval, narrower
    than either card's own interval."""
    s = spec("same-deals")
    hand = s.hands[s.declarer]
    for b_cards in (["DA", "DQ"], ["DA", "C8"], ["DQ", "C8"]):
        holds = "[prior]\nholds = { B = [" + ", ".join(f'"{c}"' for c in b_cards) + "] }\n"
        one_deal = parse_spec(s.to_toml() + holds)
        values = {evaluate(one_deal, first=c).p_win for c in hand}
        assert len(values) == 1 and values <= {0, 1}, b_cards
    ranked = recommend(s, shots=2000, seed=2)
    for (_card, report), (delta, (lo, hi)) in zip(ranked, card_differences(ranked), strict=True):
        own = report.samples.p_win_ci
        assert own[1] - own[0] > 0.02
        assert delta == 0 and lo == hi == 0


def test_paired_difference_interval_covers_the_exact_difference():
    """Six-card example: CA and CK first both win with exactly 2/3, so their difference is 0.
    Over 100 seeds of 1000 shots, the paired interval of ``Samples.difference`` covers 0 in a
    fraction of runs within 3 binomial standard deviations of 0.95 (0.885 .. 1)."""
    s = spec("six-card")
    ca, ck = s.hands[s.declarer]
    assert evaluate(s, first=ca).p_win == evaluate(s, first=ck).p_win
    covered = 0
    seeds = 100
    for seed in range(seeds):
        a = qcards.evaluate(s, ca, shots=1000, seed=seed).samples
        b = qcards.evaluate(s, ck, shots=1000, seed=seed).samples
        _delta, (lo, hi) = a.difference(b)
        covered += lo <= 0 <= hi
    low, _high = coverage_bounds(seeds)
    assert low <= covered / seeds, covered


def test_paired_difference_is_the_difference_of_shot_ordered_wins():
    """What ``Samples.difference`` measures, rebuilt from ``run_shots`` in shot order: its mean
    is the difference of the two p_wins whatever the order (checked exactly), so a wrong
    pairing shows only in the interval (the shot-order tests above)."""
    s = spec("six-card")
    wins = []
    for first in ("CA", "CK"):
        g = game("six-card", first, "efficient")
        state = run_shots(g.circuit, 4000, *shot_streams(7, 0))
        wins.append(shots_in_order(state, read_game(g, state, False).wins(s)).astype(float))
    ca, ck = s.hands[s.declarer]
    a = qcards.evaluate(s, ca, shots=4000, seed=7).samples
    b = qcards.evaluate(s, ck, shots=4000, seed=7).samples
    assert a.wins.sum() == wins[0].sum() and b.wins.sum() == wins[1].sum()
    delta, _ = a.difference(b)
    assert delta == pytest.approx(float((wins[0] - wins[1]).mean()), abs=1e-12)


# ----------------------------------------------------------------------------- 7. CLI

FULL_GAME = spec_text("full-game-strong")
FULL_DEAL = spec_text("full-deal-strong")


def cli_json(capsys, argv: list[str]) -> dict:
    assert main(argv) == 0
    return json.loads(capsys.readouterr().out)


def cli_error(capsys, argv: list[str]) -> str:
    """The one ``error:`` line of a refused command (exit 2)."""
    assert main(argv) == 2
    captured = capsys.readouterr()
    lines = captured.err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), captured.err
    return lines[0]


def test_cli_evaluate_with_shots(capsys):
    out = cli_json(capsys, ["evaluate", str(SIX_PATH), "--shots", "2000", "--seed", "1", "--json"])
    for key in ("p_win", "ci", "expected_points", "expected_points_ci", "shots", "method", "seed"):
        assert key in out, key
    assert out["method"] == "shots" and out["shots"] == 2000 and out["seed"] == 1
    lo, hi = out["ci"]
    assert lo <= out["p_win"] <= hi and hi - lo < 0.1
    lo, hi = out["expected_points_ci"]
    assert lo <= out["expected_points"] <= hi
    again = cli_json(
        capsys, ["evaluate", str(SIX_PATH), "--shots", "2000", "--seed", "1", "--json"]
    )
    assert again["p_win"] == out["p_win"] and again["ci"] == out["ci"]


def test_cli_evaluate_adversarial_with_shots_is_pimc(capsys):
    argv = ["evaluate", str(SIX_PATH), "--model", "adversarial", "--shots", "20", "--seed", "1"]
    out = cli_json(capsys, [*argv, "--json"])
    assert out["method"] == "pimc" and out["shots"] == 20 and out["seed"] == 1
    assert out["model"] == "adversarial" and len(out["ci"]) == 2


REFUSALS = [
    pytest.param(
        ["--method", "classical", "--shots", "10"],
        ("--shots", "--method"),
        id="exact-method-with-shots",
    ),
    pytest.param(["--method", "shots"], ("--shots",), id="shots-method-without-shots"),
    pytest.param(
        ["--model", "adversarial", "--method", "sparse"],
        ("--method",),
        id="adversarial-on-a-circuit",
    ),
    pytest.param(["--shots", "0"], ("--shots",), id="zero-shots"),
    pytest.param(
        ["--method", "double-dummy"], ("--method", "--model"), id="double-dummy-on-random-play"
    ),
    pytest.param(
        ["--model", "adversarial", "--method", "classical", "--shots", "10"],
        ("--shots", "--method"),
        id="adversarial-exact-method-with-shots",
    ),
]


@pytest.mark.parametrize("extra,flags", REFUSALS)
def test_cli_refusals_are_one_error_line(capsys, extra, flags):
    """Exit 2 with one ``error:`` line naming the flags (never a silent other method)."""
    line = cli_error(capsys, ["evaluate", str(SIX_PATH), *extra])
    for flag in flags:
        assert flag in line, (flag, line)


@pytest.mark.parametrize("command", ["recommend", "declare"])
@pytest.mark.parametrize("method", ["sparse", "statevector", "shots", "aer"])
def test_cli_recommend_and_declare_refuse_a_circuit_for_the_adversarial_model(
    capsys, command, method
):
    """The adversarial model is classical only in every command, never a silent fallback."""
    line = cli_error(capsys, [command, str(SIX_PATH), "--model", "adversarial", "--method", method])
    assert "--method" in line and "not --model adversarial" in line, line


@pytest.mark.parametrize("method", ["classical", "double-dummy"])
def test_cli_adversarial_runs_the_method_asked(capsys, method):
    """``classical`` is the fast referee's minimax and ``double-dummy`` the solver on every
    deal: each is reported as itself (``classical`` once ran the solver and said so), with
    the same exact numbers."""
    argv = ["evaluate", str(SIX_PATH), "--model", "adversarial", "--method", method, "--json"]
    out = cli_json(capsys, argv)
    assert out["method"] == method
    assert (out["p_win_exact"], out["num_deals"]) == ("1/1", 6)
    assert out["expected_points"] == pytest.approx(197 / 3, abs=1e-9)


FULL_DEAL_PATH = Path(__file__).resolve().parents[1] / "qcards" / "specs" / "full-deal.toml"


def test_cli_classical_that_cannot_answer_names_what_can(capsys):
    """``classical`` never falls back; where the referee cannot answer (a full deal: its
    numerators would pass 128 bits), the refusal names the method that can, and that
    method answers (the advice used to be ``--shots``, which ``classical`` refuses)."""
    argv = ["evaluate", str(FULL_DEAL_PATH), "--model", "adversarial"]
    line = cli_error(capsys, [*argv, "--method", "classical"])
    assert "128 bits" in line and "--method double-dummy solves every deal exactly" in line
    out = cli_json(capsys, [*argv, "--method", "double-dummy", "--json"])
    assert out["method"] == "double-dummy" and out["p_win_exact"] in ("0/1", "1/1")
    line = cli_error(capsys, ["evaluate", str(FULL_DEAL_PATH), "--method", "classical"])
    assert "--method shots with --shots" in line and "{" not in line


def test_cli_adversarial_double_dummy_with_shots_samples_deals(capsys):
    argv = ["evaluate", str(SIX_PATH), "--model", "adversarial", "--method", "double-dummy"]
    out = cli_json(capsys, [*argv, "--shots", "20", "--seed", "1", "--json"])
    assert out["method"] == "pimc" and out["shots"] == 20


@pytest.mark.parametrize(
    "extra", [["--method", "classical", "--shots", "10"], ["--method", "shots"]]
)
def test_cli_refusals_render_every_flag(capsys, extra):
    """No parameter marker such as ``{method}`` is left in a refusal."""
    line = cli_error(capsys, ["evaluate", str(SIX_PATH), *extra])
    assert "{" not in line, line


def test_cli_recommend_with_shots(capsys):
    out = cli_json(capsys, ["recommend", str(SIX_PATH), "--shots", "1000", "--seed", "2", "--json"])
    assert out["shots"] == 1000 and out["seed"] == 2
    cards = out["cards"]
    assert sorted(c["card"] for c in cards) == ["CA", "CK"]
    assert [c["p_win"] for c in cards] == sorted((c["p_win"] for c in cards), reverse=True)
    for c in cards:
        assert c["method"] == "shots"
        assert c["ci"][0] <= c["p_win"] <= c["ci"][1]
        assert c["delta_ci"][0] <= c["delta_vs_best"] <= c["delta_ci"][1]
        assert c["delta_vs_best"] == pytest.approx(c["p_win"] - cards[0]["p_win"], abs=1e-12)
    assert cards[0]["delta_vs_best"] == 0 and cards[0]["delta_ci"] == [0, 0]


def test_cli_declare_with_shots(capsys):
    out = cli_json(capsys, ["declare", str(SIX_PATH), "--shots", "500", "--seed", "3", "--json"])
    games = out["games"]
    assert {g["game"] for g in games} == {"clubs", "spades", "hearts", "diamonds", "grand", "null"}
    played = [g for g in games if "refused" not in g]
    assert played and all(g["method"] == "shots" and g["seed"] == 3 for g in played)
    assert all(g["shots"] == 500 and len(g["ci"]) == 2 for g in played)
    ranks = [(g["p_win"], g["expected_points"]) for g in played]
    assert ranks == sorted(ranks, reverse=True)
    assert games[: len(played)] == played  # refused variants come last


def test_cli_full_game_needs_shots(capsys, tmp_path):
    """A full game from the first trick (22 unknown cards, about 4.3e7 deals): sampled with
    ``--shots``; refused without, naming ``--shots``."""
    path = tmp_path / "full.toml"
    path.write_text(FULL_GAME)
    out = cli_json(capsys, ["evaluate", str(path), "--shots", "2000", "--seed", "1", "--json"])
    assert out["method"] == "shots" and out["shots"] == 2000
    assert out["num_deals"] == math.comb(22, 10) * math.comb(12, 10)
    assert out["ci"][0] <= out["p_win"] <= out["ci"][1]
    assert 0 <= out["expected_points_ci"][0] <= out["expected_points"] <= 120
    line = cli_error(capsys, ["evaluate", str(path)])
    assert "--shots" in line


def test_cli_full_deal_double_dummy(capsys, tmp_path):
    """Every hand of a full game known (only the Skat unknown: one deal): the adversarial
    model answers exactly with the double-dummy solver."""
    path = tmp_path / "deal.toml"
    path.write_text(FULL_DEAL)
    out = cli_json(capsys, ["evaluate", str(path), "--model", "adversarial", "--json"])
    assert out["method"] == "double-dummy" and out["num_deals"] == 1
    assert out["p_win_exact"] in ("0/1", "1/1")
    assert out["p_win"] == float(Fraction(out["p_win_exact"]))


FULL_GAME_FILE = Path(__file__).resolve().parents[1] / "qcards" / "specs" / "full-game.toml"


@pytest.mark.parametrize(
    ("argv", "fragments"),
    [
        (["--shots", "1000000000"], ("GiB (their results", "--shots")),
        (["--shots", "100000000"], ("would take about", "--shots", "--force")),
        (["--model", "adversarial", "--shots", "1000000"], ("sampled deals", "--force")),
        (["--model", "adversarial"], ("solving all 42,678,636 deals", "give --shots")),
    ],
)
def test_sampling_past_the_budgets_is_refused_up_front(capsys, argv, fragments):
    """Shots whose results would not fit in memory, or that would take over ten minutes
    (estimated from the instructions and the row's width, or for double dummy from a few
    solved deals), are one error line naming what to change, before any work."""
    assert main(["evaluate", str(FULL_GAME_FILE), *argv]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("error: "), err
    assert all(f in err[0] for f in fragments), err[0]
