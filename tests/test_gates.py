"""Consistency checks run over example instances of every gate (Qualtran style)."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from qiskit import QuantumCircuit, transpile
from qiskit.quantum_info import Operator, Statevector
from qiskit_aer import AerSimulator

from qcards.circuits.construction import get_construction
from qcards.circuits.gates import CardPlayGate, DealGate, TrickTakingGate, WStateGate
from qcards.circuits.layout import GameLayout
from qcards.circuits.syntheses.paper_terms import play_terms, trick_terms
from qcards.paper.examples import FOUR_CARD, SIX_CARD

from conftest import breadth

PAPER = get_construction("paper")


def w_reference(k):
    vec = np.zeros(2**k)
    for i in range(k):
        vec[1 << i] = 1
    return vec / np.sqrt(k)


@pytest.mark.parametrize("k", [1, 2, 3, 4, 5])
def test_w_state_gate_prepares_eq9(k):
    state = Statevector(WStateGate(k).definition)
    assert np.allclose(state.data, w_reference(k), atol=1e-9)


@pytest.mark.parametrize("k", [1, 3])
def test_w_state_gate_inverse_is_identity(k):
    qc = QuantumCircuit(k)
    qc.append(WStateGate(k), range(k))
    qc.append(WStateGate(k).inverse(), range(k))
    assert Operator(qc).equiv(Operator(np.eye(2**k)))


@pytest.mark.parametrize("bad", [0, -1, 2.5])
def test_w_state_gate_rejects_bad_sizes(bad):
    with pytest.raises(ValueError, match="at least one qubit"):
        WStateGate(bad)


DEAL_EXAMPLES = [((2, 2), 1), ((1, 1, 1), 2), ((3, 0), 1), ((2, 1), 1)]


@pytest.mark.parametrize("sizes,width", DEAL_EXAMPLES)
def test_deal_gate_prepares_uniform_deals(sizes, width):
    gate = DealGate(sizes, width)
    state = Statevector(gate.definition)
    assert np.allclose(state.data, gate.reference_state(), atol=1e-9)
    assert gate.num_qubits == sum(sizes) * width
    assert np.count_nonzero(np.abs(state.data) > 1e-9) == gate.num_deals
    qc = QuantumCircuit(gate.num_qubits)
    qc.append(gate, range(gate.num_qubits))
    qc.append(gate.inverse(), range(gate.num_qubits))
    assert Operator(qc).equiv(Operator(np.eye(2**gate.num_qubits)))


def test_deal_gate_rejects_bad_input():
    with pytest.raises(ValueError):
        DealGate((2, -1), 1)
    with pytest.raises(ValueError, match="cannot index"):
        DealGate((1, 1, 1), 1)


def layout_examples():
    return [GameLayout(FOUR_CARD.spec()), GameLayout(SIX_CARD.spec())]


def game_gate_examples():
    out = []
    for layout in layout_examples():
        for t in range(1, layout.num_tricks + 1):
            players = range(len(layout.spec.players))
            out += [CardPlayGate(layout, t, i, None, PAPER) for i in players]
            out.append(TrickTakingGate(layout, t, PAPER))
    return out


@pytest.mark.parametrize("gate", game_gate_examples(), ids=lambda g: g.name)
def test_game_gate_width_matches_layout(gate):
    assert gate.num_qubits == gate.layout.num_qubits
    assert gate.definition.num_qubits == gate.layout.num_qubits


def _basis_round_trip(gate, outcomes):
    """Gate then its inverse maps each given basis state back to itself (flag clean)."""
    sim = AerSimulator(method="statevector")
    n = gate.num_qubits
    for outcome in outcomes:
        qc = QuantumCircuit(n)
        for i in range(n):
            if (outcome >> i) & 1:
                qc.x(i)
        qc.append(gate, range(n))
        qc.append(gate.inverse(), range(n))
        qc.save_statevector()
        state = sim.run(transpile(qc, sim)).result().get_statevector()
        assert abs(abs(state[outcome]) - 1) < 1e-9


FOUR_CARD_GATES = [
    g for g in game_gate_examples() if g.layout.spec.source.endswith("four-card.toml")
]


@pytest.mark.parametrize(
    "gate", breadth(FOUR_CARD_GATES, FOUR_CARD_GATES[:2]), ids=lambda g: g.name
)
def test_game_gate_followed_by_inverse_is_identity(gate):
    # basis states of the register part (flag = 0): a spread of configurations
    n_measured = len(gate.layout.measured)
    outcomes = list(itertools.islice(range(0, 2**n_measured, 977), 12))
    _basis_round_trip(gate, outcomes)


def test_card_play_gate_terms_follow_suit():
    layout = GameLayout(SIX_CARD.spec())
    gate = CardPlayGate(layout, 1, 1, None, PAPER)  # B follows A's lead in trick 1
    for term in play_terms(gate):
        led_suit = layout.spec.rules.effective_suit(term.led)
        following = [c for c in term.hand if layout.spec.rules.effective_suit(c) == led_suit]
        assert set(term.legal) == set(following or term.hand)


def test_trick_taking_terms_pick_rule_winner():
    layout = GameLayout(SIX_CARD.spec())
    gate = TrickTakingGate(layout, 1, PAPER)
    for term in trick_terms(gate):
        winner = term.seats[layout.spec.rules.trick_winner(term.cards)]
        seat = layout.spec.players.index(winner)
        register = layout.winner[1]
        assert gate.flips(term.cards, list(term.seats)) == [
            register[b] for b in range(register.size) if (seat >> b) & 1
        ]


@pytest.mark.parametrize("bad", [0, 3])
def test_game_gates_reject_bad_trick(bad):
    layout = GameLayout(FOUR_CARD.spec())
    with pytest.raises(ValueError, match="trick must be"):
        TrickTakingGate(layout, bad, PAPER)
    with pytest.raises(ValueError, match="trick must be"):
        CardPlayGate(layout, bad, 0, None, PAPER)
    with pytest.raises(ValueError, match="position must be"):
        CardPlayGate(layout, 1, 2, None, PAPER)


def test_game_gates_take_a_record_not_a_name():
    """The gates never look a construction up: a name is refused, saying how to get the record."""
    layout = GameLayout(FOUR_CARD.spec())
    with pytest.raises(TypeError, match=r"get_construction\('paper'\)"):
        TrickTakingGate(layout, 1, "paper")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="CardPlayGate takes a construction record"):
        CardPlayGate(layout, 1, 0, None, "paper")  # type: ignore[arg-type]


def test_hand_codes_gate_needs_paper_layout():
    from qcards.circuits.gates.card_code_updates import HandCodesGate

    with pytest.raises(ValueError, match="paper_codes=True"):
        HandCodesGate(GameLayout(FOUR_CARD.spec()))
    gate = HandCodesGate(GameLayout(FOUR_CARD.spec(), paper_codes=True))
    assert gate.definition.num_qubits == 27
