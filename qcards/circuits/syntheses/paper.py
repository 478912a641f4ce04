"""The paper's construction: U_ini by state preparation (Eq. 1), CP and TT as products over
configurations (Eqs. 12 and 15), exponential in the hand size.

Narrow at the paper's sizes (15 qubits for the four-card example): no ancillas but ``flag``,
and the only construction that can keep the paper's card codes (Tables 4 and 6).
"""

from __future__ import annotations

from qiskit.circuit import Gate, QuantumCircuit

from qcards.circuits.gates.card_code_updates import copy_play_to_table_bits
from qcards.circuits.gates.cubes import cube_xor, on_cube
from qcards.circuits.gates.deal import GameDealGate
from qcards.circuits.gates.play import CardPlayGate
from qcards.circuits.gates.states import WStateGate
from qcards.circuits.gates.trick import TrickTakingGate
from qcards.circuits.layout import GameLayout
from qcards.circuits.syntheses.paper_terms import play_terms, trick_terms
from qcards.skat.position.spec import Endgame


def card_play(gate: CardPlayGate) -> QuantumCircuit:
    """Eq. (12): on each configuration's cube (computed into ``flag``), the uniform one-hot
    superposition of Eq. (9) on the play bits of its legal cards."""
    layout = gate.layout
    qc = layout.circuit(gate.name)
    flag = layout.flag[0]
    for term in play_terms(gate):
        targets = [layout.play[c][gate.trick - 1] for c in term.legal]
        w_state = WStateGate(len(targets))
        with on_cube(qc, term.cube, flag) as control:
            if control is None:
                qc.append(w_state, targets)
            else:
                qc.append(w_state.control(1), [control, *targets])
            if layout.code is not None:
                copy_play_to_table_bits(qc, layout, gate.trick, term.legal, control)
    return qc


def trick_taking(gate: TrickTakingGate) -> QuantumCircuit:
    """Eq. (15): on each table's cube, the gate's flips (the winner's seat, the codes)."""
    layout = gate.layout
    qc = layout.circuit(gate.name)
    for term in trick_terms(gate):
        cube_xor(qc, term.cube, gate.flips(term.cards, list(term.seats)), layout.flag[0])
    return qc


def deal(gate: GameDealGate) -> Gate:
    """U_ini as Qiskit's dense state preparation of the deal state (Eq. 1)."""
    return gate.reference


def layout(spec: Endgame, paper_codes: bool) -> GameLayout:
    """The paper's registers (owner, play, winner, flag; the card codes if asked)."""
    return GameLayout(spec, paper_codes)
