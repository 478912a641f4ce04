"""The card-play gate CP_k^n (Eqs. 9-13), with suit following and a dynamic leader.

One gate per card played: :class:`CardPlayGate`. On every game state of its stage it makes the
player to move play one of its legal cards (:meth:`qcards.skat.cards.Rules.legal_cards`),
uniformly (the one-hot superposition of Eq. 9). That is its classical action, written here once
for every construction; its definition is the construction's play synthesis
(:mod:`qcards.circuits.syntheses`): the paper's product over configurations (Eq. 12), the
polynomial sequential choice, or the hardware one.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from qiskit.circuit import Gate, Qubit

from qcards.circuits.construction import DEFAULT_CONSTRUCTION, Construction, get_construction
from qcards.circuits.gates.classical import (
    Rows,
    choose_uniformly,
    classical_domain,
    held_matrix,
    led_cards,
    legal_matrix,
    narrow,
)
from qcards.circuits.gates.predicates import movable_cards, mover
from qcards.circuits.layout import GameLayout
from qcards.skat.cards import Card


def _check_play(layout: GameLayout, trick: int, position: int) -> None:
    """Raise ``ValueError`` unless (trick, position) is a card played in this game."""
    layout.check_trick(trick)
    n = len(layout.spec.players)
    if not 0 <= position < n:
        raise ValueError(f"position must be in 0..{n - 1}, got {position}")


class CardPlayGate(Gate):
    """Play the card at ``position`` of trick ``trick`` (position 0 leads), Eqs. (9)-(13).

    The player to move is the one ``position`` seats after the trick's leader (the winner of
    the previous trick, when the winner leads: ``winner_{trick-1}``). It plays one of its legal
    cards -- following the led suit when it can, trumps and jacks as
    :class:`~qcards.skat.cards.Rules` says -- uniformly, which sets that card's play bit of
    this trick (and its code's table bit when the paper's codes are kept).

    Args:
        layout: registers of the game circuit (the construction's layout).
        trick: 1-based trick number.
        position: 0 for the lead, 1.. for the following players.
        first: force the declarer's first card (the declarer must lead trick 1).
        construction: whose play synthesis defines the gate.
        plan: what the construction prepared for this game (:attr:`Construction.plan`).
    """

    def __init__(
        self,
        layout: GameLayout,
        trick: int,
        position: int,
        first: Card | None = None,
        construction: Construction | str = DEFAULT_CONSTRUCTION,
        plan: Any = None,
    ) -> None:
        _check_play(layout, trick, position)
        self.layout = layout
        self.trick = trick
        self.position = position
        self.first = first
        self.construction = get_construction(construction)
        self.plan = plan
        name = f"cp{self.construction.tag}_t{trick}_p{position}"
        super().__init__(name, layout.num_qubits, [])

    def seat(self, leader: str) -> str:
        """The player to move when ``leader`` leads the trick."""
        return mover(self.layout, self.position, leader)

    @property
    def forced_card(self) -> Card | None:
        """The card this gate must play on every game state: the declarer's fixed first card
        when the declarer moves at this stage of trick 1, else None."""
        spec = self.layout.spec
        if self.first is None or self.trick != 1:
            return None
        return self.first if self.seat(spec.leader) == spec.declarer else None

    @property
    def cards(self) -> tuple[Card, ...]:
        """Cards the player to move may hold (over every possible leader), in layout order."""
        return movable_cards(self.layout, self.trick, self.position)

    def flips(self, card: Card) -> list[Qubit]:
        """Qubits flipped when ``card`` is played: its play bit, and its code's table bit."""
        layout = self.layout
        flips = [layout.play[card][self.trick - 1]]
        if layout.code is not None:
            flips.append(layout.card[card][layout.code.table_bit])
        return flips

    def _define(self) -> None:
        self.definition = self.construction.play(self)

    def sparse_apply(self, state, qubits: tuple[int, ...]) -> None:
        """The classical action (:mod:`~qcards.circuits.gates.classical`), the same for every
        construction: on each row that is a game state of this stage -- ancillas clean, the
        player to move holding exactly its k cards, one card led (after the lead) and none of
        the mover's cards on the table yet -- one row per legal card, that card played, each
        with amplitude :math:`1/\\sqrt{m}` (Eq. 9). Every other row takes the definition."""
        rows = Rows(state, self.layout, qubits)
        cards = self.cards
        legal, inside = self._legal_rows(rows, cards)
        with classical_domain(state, self, qubits, inside) as kept:
            choose_uniformly(rows, narrow(kept, legal), [self.flips(c) for c in cards])

    def _legal_rows(self, rows: Rows, cards: list[Card]) -> tuple[np.ndarray, np.ndarray]:
        """``(legal, inside)`` of :meth:`sparse_apply`: the legal cards of every row (shape
        ``(cards, rows)``) and the game-state rows the action describes. The work arrays are
        freed when it returns, before the state grows (the engine's memory estimate counts on
        it)."""
        layout, t, position = self.layout, self.trick, self.position
        held = held_matrix(rows, layout, t, position, cards)
        inside = rows.clean(layout.ancillas) & (held.sum(axis=0) == layout.spec.hand_size - t + 1)
        if position > 0:
            led_count, led_suit = led_cards(rows, layout, t)
            inside &= led_count == 1
            legal = legal_matrix(layout, cards, held, led_suit)
        else:
            legal = held
        forced = self.forced_card
        if forced is not None:
            legal = np.zeros_like(held)
            legal[cards.index(forced)] = True
        played = np.stack([rows.holds({layout.play[c][t - 1]: 1}) for c in cards])
        inside &= ~(held & played).any(axis=0)
        return legal, inside
