"""Keep the paper's card codes (Tables 4 and 6) in ``card_<c>`` registers up to date.

Only used when a layout is built with ``paper_codes=True``. Each helper adds to a gate's
definition the code changes of one step of the game:

* the deal writes every card's "in the hand of X" code (U_ini, Eq. 25);
* playing flips the card's table bit (Eq. 26), copied from the card's play qubit;
* taking a trick XORs each trick card's code from "on the table, played by X" to "in the stack
  of the winner" (the paper's D gates, Eqs. 28-29), on the same configuration cube as TT.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import cast

from qiskit.circuit import Gate, QuantumCircuit, Qubit

from qcards.circuits.card_codes import CardCode
from qcards.circuits.gates.classical import Rows, classical_domain
from qcards.circuits.gates.cubes import cube_xor
from qcards.circuits.gates.row_state import RowState
from qcards.circuits.layout import GameLayout
from qcards.skat.rules.cards import Card


def _code(layout: GameLayout) -> CardCode:
    """The layout's card code: these gates write the paper's codes, so it has one."""
    return cast(CardCode, layout.code)


def code_flips(layout: GameLayout, card: Card, before, after) -> list[Qubit]:
    """Qubits of ``card_<card>`` that differ between the codes of two locations."""
    a = _code(layout).encode(before, layout.spec)
    b = _code(layout).encode(after, layout.spec)
    return [layout.card[card][i] for i in range(len(a)) if a[i] != b[i]]


class HandCodesGate(Gate):
    """After U_ini: write every card's "in the hand of X" code into ``card_<c>`` (Eq. 25).

    Known cards get a constant code; an unknown card's code is controlled by its ``owner``
    register. Acts on the whole layout (which must have ``paper_codes=True``).
    """

    def __init__(self, layout: GameLayout) -> None:
        if layout.code is None:
            raise ValueError("HandCodesGate needs a layout built with paper_codes=True")
        self.layout = layout
        super().__init__("hand_codes", layout.num_qubits, [])

    def _define(self) -> None:
        self.definition = _synth_hand_codes(self.layout)

    def sparse_apply(self, state: RowState, qubits: tuple[int, ...]) -> None:
        """The classical action (:mod:`~qcards.circuits.gates.classical`): each card's hand
        code XOR-ed in on the rows where its owner holds it; rows with the flag set take the
        definition."""
        layout = self.layout
        rows = Rows(state, layout, qubits)
        with classical_domain(state, self, qubits, rows.clean(layout.flag)):
            for _card, cube, flips in _hand_code_terms(layout):
                where = rows.holds(cube)
                for q in flips:
                    rows.flip(q, where)


def _hand_code_terms(layout: GameLayout):
    """(card, cube, flips): on ``cube`` the card is in the hand whose code sets ``flips``."""
    for card in layout.cards:
        known = layout.spec.owner_of_known(card)
        for owner in [known] if known is not None else list(layout.receivers):
            flips = _ones(layout, card, ("hand", owner))
            if flips:
                cube = {} if known is not None else layout.owner_condition(card, owner)
                yield card, cube, flips


def _synth_hand_codes(layout: GameLayout) -> QuantumCircuit:
    qc = layout.circuit("hand_codes")
    for _card, cube, flips in _hand_code_terms(layout):
        cube_xor(qc, cube, flips, layout.flag[0])
    return qc


def copy_play_to_table_bits(
    qc: QuantumCircuit,
    layout: GameLayout,
    trick: int,
    cards: Sequence[Card],
    control: Qubit | None,
) -> None:
    """After a card of ``cards`` was played in ``trick``: that card's code moves to the table.

    Only the cards the current player could play are touched (cards played earlier in the
    trick also have their play bit set); ``control`` is the flag of the configuration.
    """
    for card in cards:
        play_bit = layout.play[card][trick - 1]
        table_bit = layout.card[card][_code(layout).table_bit]
        if control is None:
            qc.cx(play_bit, table_bit)
        else:
            qc.ccx(control, play_bit, table_bit)


def trick_code_flips(
    layout: GameLayout, cards: Sequence[Card], seats: Sequence[str], winner: str
) -> list[Qubit]:
    """Code changes of a taken trick: table of each card's player -> stack of the winner."""
    flips: list[Qubit] = []
    for card, seat in zip(cards, seats, strict=True):
        flips += code_flips(layout, card, ("table", seat), ("stack", winner))
    return flips


def _ones(layout: GameLayout, card: Card, location) -> list[Qubit]:
    bits = _code(layout).encode(location, layout.spec)
    return [layout.card[card][i] for i, b in enumerate(bits) if b == "1"]
