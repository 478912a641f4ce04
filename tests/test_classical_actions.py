"""Gates that state their classical action (``sparse_apply``) act exactly as their decomposition.

Every gate of the game circuits (deal, card play, trick taking, code bookkeeping, win oracle;
every construction) is applied to the same sparse state twice: once through its
``sparse_apply`` and once through its Qiskit definition (the engine's generic path). The two
results must agree amplitude for amplitude, on

* the states the game circuit reaches just before the gate (where the action does its work),
* random basis states and small superpositions with clean ancillas (unreachable game states
  on which the action either still applies or must hand the row to the definition), and
* fully random basis states (dirty ancillas: the definition's domain).

The hardware construction's definitions are synthesised for the basis states the circuit
reaches only (its care set; anything may happen elsewhere), so it is checked on reached states.

So the exact engine still simulates the circuit, not the referee.
"""

from __future__ import annotations

import random
import sys
import threading

import numpy as np
import pytest
from qiskit import QuantumCircuit
from qiskit.circuit import Gate

from qcards.circuits.construction import construction_names
from qcards.circuits.game import build_game
from qcards.circuits.gates import DealGate, MultinomialDealGate
from qcards.circuits.gates.states import enumerate_deals
from qcards.circuits.oracle import WinOracleGate
from qcards.execution.sparse.engine import SparseState, compile_circuit, simulate, simulate_prefixes
from qcards.paper.examples import CA, FOUR_CARD, SIX_CARD

from conftest import generated_specs, random_spec

ACTION_CONSTRUCTIONS = construction_names()
"""Every registered construction: one classical action serves them all."""

EVERYWHERE = ("paper", "efficient")
"""Constructions whose definitions are the gates' unitaries on every basis state (not only on
the reached ones, as the hardware construction's)."""

HOOKED = ("GameDealGate", "HandCodesGate", "CardPlayGate", "TrickTakingGate")


def game_cases() -> list[tuple[str, object]]:
    specs = [("four", FOUR_CARD.spec()), ("six", SIX_CARD.spec())]
    specs += [(f"gen{k}", random_spec(*p)) for k, p in enumerate(generated_specs(skat=True)[:6])]
    specs += [(f"plain{k}", random_spec(*p)) for k, p in enumerate(generated_specs()[::7])]
    out = []
    for name, spec in specs:
        for construction in ACTION_CONSTRUCTIONS:
            out.append((f"{name}-{construction}", build_game(spec, construction=construction)))
    out.append(("four-codes", build_game(FOUR_CARD.spec(), paper_codes=True, construction="paper")))
    for construction in ACTION_CONSTRUCTIONS:
        game = build_game(SIX_CARD.spec(), CA, construction=construction)
        out.append((f"six-first-{construction}", game))
    return out


GAMES = game_cases()


def _apply_hooked(state: SparseState, gate: Gate, qubits: tuple[int, ...]) -> SparseState:
    qc = QuantumCircuit(state.num_qubits)
    qc.append(gate, list(qubits))
    out = state.copy()
    out.run(compile_circuit(qc))
    return out


def _apply_definition(state: SparseState, gate: Gate, qubits: tuple[int, ...]) -> SparseState:
    out = state.copy()
    out.run_definition(gate, qubits)
    return out


def assert_same(a: SparseState, b: SparseState, where: str) -> None:
    """Equal amplitudes to 1e-9 (a decomposition leaves ~1e-14 on a few other states)."""
    x, y = a.amplitudes(), b.amplitudes()
    for key in set(x) | set(y):
        assert abs(x.get(key, 0) - y.get(key, 0)) < 1e-9, (where, key)


def assert_action_matches(state: SparseState, gate: Gate, qubits, where: str) -> None:
    assert callable(getattr(gate, "sparse_apply", None)), f"{type(gate).__name__} has no action"
    assert_same(_apply_hooked(state, gate, qubits), _apply_definition(state, gate, qubits), where)


@pytest.mark.parametrize("name,game", GAMES, ids=[n for n, _ in GAMES])
def test_every_game_gate_acts_as_its_decomposition_on_reached_states(name, game, monkeypatch):
    circuit = game.circuit
    definitions = []
    real = SparseState.run_definition

    def counted(self, op, qubits):
        definitions.append(op.name)
        real(self, op, qubits)

    monkeypatch.setattr(SparseState, "run_definition", counted)
    index = {q: i for i, q in enumerate(circuit.qubits)}
    lengths = list(range(len(circuit.data)))
    seen = set()
    for length, state in zip(lengths, simulate_prefixes(circuit, lengths), strict=True):
        inst = circuit.data[length]
        gate = inst.operation
        seen.add(type(gate).__name__)
        qubits = tuple(index[q] for q in inst.qubits)
        before = len(definitions)
        hooked = _apply_hooked(state, gate, qubits)
        # every reached row lies in the action's domain: nothing fell back to the definition
        assert len(definitions) == before, f"{name}: {gate.name} fell back on a reached state"
        assert_same(hooked, _apply_definition(state, gate, qubits), f"{name} before {gate.name}")
    assert seen <= set(HOOKED)


def _random_states(num_qubits: int, free: list[int], seed: int) -> list[SparseState]:
    """Basis states with random bits on ``free`` (others 0), and superpositions of a few."""
    rng = random.Random(seed)
    out = []
    for branching in (0, 0, 2, 4):
        qc = QuantumCircuit(num_qubits)
        for q in free:
            if rng.random() < 0.5:
                qc.x(q)
        for q in rng.sample(free, min(branching, len(free))):
            qc.ry(rng.uniform(0.3, 2.8), q)
        out.append(simulate(qc))
    return out


EVERYWHERE_GAMES = [(n, g) for n, g in GAMES if str(g.construction) in EVERYWHERE][:8]


@pytest.mark.parametrize("name,game", EVERYWHERE_GAMES, ids=[n for n, _ in EVERYWHERE_GAMES])
def test_every_game_gate_acts_as_its_decomposition_on_random_states(name, game):
    circuit = game.circuit
    index = {q: i for i, q in enumerate(circuit.qubits)}
    history = [index[q] for q in game.layout.measured]
    everything = list(range(circuit.num_qubits))
    for k, inst in enumerate(circuit.data):
        qubits = tuple(index[q] for q in inst.qubits)
        gate = inst.operation
        for free in (history, everything):
            for j, state in enumerate(_random_states(circuit.num_qubits, free, seed=31 * k)):
                where = f"{name} {gate.name} free={len(free)} state {j}"
                assert_action_matches(state, gate, qubits, where)


def oracle_examples() -> list[tuple[str, Gate]]:
    out = []
    for name, game in GAMES[:8]:
        for subtract in (False, True):
            out.append((f"win_oracle-{name}-{subtract}", WinOracleGate(game.layout, subtract)))
    return out


ORACLES = oracle_examples()


@pytest.mark.parametrize("name,gate", ORACLES, ids=[n for n, _ in ORACLES])
def test_win_oracle_action_equals_decomposition(name, gate):
    qubits = tuple(range(gate.num_qubits))
    for k, state in enumerate(_random_states(gate.num_qubits, list(qubits), seed=len(name))):
        assert_action_matches(state, gate, qubits, f"{name} state {k}")


@pytest.mark.parametrize("name,gate", ORACLES[:4], ids=[n for n, _ in ORACLES[:4]])
def test_inverse_undoes_the_gate(name, gate):
    qubits = list(range(gate.num_qubits))
    prep = _random_states(gate.num_qubits, qubits, seed=3)[2]
    qc = QuantumCircuit(gate.num_qubits)
    qc.append(gate, qubits)
    qc.append(gate.inverse(), qubits)
    after = prep.copy()
    after.run(compile_circuit(qc))
    assert_same(after, prep, name)


@pytest.mark.parametrize("sizes,width", [((2, 2), 1), ((2, 1, 1), 2), ((1, 2, 0, 2), 2)])
def test_deal_gates_act_as_their_decomposition(sizes, width):
    for gate in (DealGate(sizes, width), MultinomialDealGate(sizes, width)):
        qubits = tuple(range(gate.num_qubits))
        for k, state in enumerate(_random_states(gate.num_qubits, list(qubits), seed=len(sizes))):
            assert_action_matches(state, gate, qubits, f"{gate.name} {sizes} state {k}")
        assert_action_matches(SparseState(gate.num_qubits), gate, qubits, f"{gate.name} fresh")


def test_enumerate_deals_lists_each_deal_once_in_order():
    deals = enumerate_deals((2, 1, 2))
    assert deals.shape == (30, 5)
    rows = [tuple(r) for r in deals.tolist()]
    assert rows == sorted(set(rows))
    assert all(np.bincount(r, minlength=3).tolist() == [2, 1, 2] for r in deals)
    assert enumerate_deals(()).shape == (1, 0)


def test_simulate_without_classical_actions_gives_the_same_state():
    game = build_game(SIX_CARD.spec())
    with_actions = simulate(game.circuit)
    without = simulate(game.circuit, classical_actions=False)
    assert_same(with_actions, without, "six-card efficient")


def test_trick_tables_filled_by_many_threads_give_every_thread_its_rows():
    """Shards on several threads share a trick gate's tables: each thread must get back the
    flips of every table it asks for, whatever the others do meanwhile (a race here once gave
    a wrong p_win on fifteen cards)."""
    from qcards.analysis.resources import resource_spec
    from qcards.circuits.gates.trick import TrickTakingGate, _TrickTables

    game = build_game(resource_spec(4, skat=False), None)  # twelve cards: 256 tables in trick 1
    gate = next(i.operation for i in game.circuit.data if isinstance(i.operation, TrickTakingGate))
    qubits = tuple(range(gate.num_qubits))
    reference = _TrickTables(gate, qubits, 3)
    expected = reference.flips_of(np.arange(reference.tables))
    failures = []
    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)  # threads switch between any two bytecodes: races show
    try:
        run_threads(gate, qubits, expected, failures)
    finally:
        sys.setswitchinterval(interval)
    assert not failures


def run_threads(gate, qubits, expected, failures) -> None:
    """Twenty times: eight threads ask one fresh table for every other table number at once,
    and note the threads that got a wrong row back."""
    from qcards.circuits.gates.trick import _TrickTables

    for _ in range(20):
        tables = _TrickTables(gate, qubits, 3)
        barrier = threading.Barrier(8)

        def ask(k, tables=tables, barrier=barrier):
            keys = np.arange(k % 2, tables.tables, 2)
            barrier.wait()
            got = tables.flips_of(keys)
            if not (got[keys] == expected[keys]).all():
                failures.append(k)

        threads = [threading.Thread(target=ask, args=(k,)) for k in range(8)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()


def test_the_engines_state_is_the_row_state_the_gates_are_written_against():
    """Every member of :class:`RowState` exists on the sparse engine's state with the same
    parameters (the type checker proves the types in ``qcards/execution/sparse/state.py``)."""
    import inspect

    from qcards.circuits.gates.row_state import RowState

    state = SparseState(70)
    assert isinstance(state, RowState)
    members = [
        name
        for name, value in vars(RowState).items()
        if not name.startswith("_") and (callable(value) or isinstance(value, property))
    ]
    assert {"match", "read", "write", "expand", "split_off", "absorb", "words"} <= set(members)
    for name in members:
        theirs = getattr(SparseState, name)
        mine = vars(RowState)[name]
        if isinstance(mine, property):
            assert isinstance(theirs, property), name
            continue
        assert list(inspect.signature(theirs).parameters) == list(
            inspect.signature(mine).parameters
        ), name
    assert state.num_words == 2 and "num_words" in RowState.__annotations__
