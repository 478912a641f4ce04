"""The card-play gate CP_k^n (Eqs. 9-13), with suit following and a dynamic leader.

One gate per card played: :class:`CardPlayGate`. On every game state of its stage it makes the
player to move play one of its legal cards (:meth:`qcards.skat.rules.cards.Rules.legal_cards`),
uniformly (the one-hot superposition of Eq. 9). That is its classical action, written here once
for every construction; its definition is the construction's play synthesis
(:mod:`qcards.circuits.syntheses`): the paper's product over configurations (Eq. 12), the
polynomial sequential choice, or the hardware one.

With a play model's policy (``policy``) the gate is the paper's parameterised
CP_k^n(c_1, ..., c_k) of Sec. X.1: each legal card gets the amplitude sqrt(pi(card | view))
(:mod:`qcards.circuits.gates.policy_play`), and its definition is the weighted care-set
synthesis the game supplies (``weighted``), whatever the construction.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, cast

import numpy as np
from qiskit.circuit import Gate, Qubit

from qcards.circuits.gates.classical import Rows, classical_domain, narrow, trick_suits
from qcards.circuits.gates.policy_play import weighted_choice
from qcards.circuits.gates.predicates import (
    held_cubes_by_leader,
    led_cubes_by_leader,
    movable_cards,
    mover,
)
from qcards.circuits.gates.row_state import RowState
from qcards.circuits.gates.synthesis import GateSyntheses, syntheses_of
from qcards.circuits.layout import GameLayout
from qcards.skat.position.seat_view import Policy
from qcards.skat.rules.cards import Card


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
    :class:`~qcards.skat.rules.cards.Rules` says -- uniformly, which sets that card's play bit of
    this trick (and its code's table bit when the paper's codes are kept).

    Args:
        layout: registers of the game circuit (the construction's layout).
        trick: 1-based trick number.
        position: 0 for the lead, 1.. for the following players.
        first: force the declarer's first card (the declarer must lead trick 1).
        construction: whose play synthesis defines the gate.
        plan: what the construction prepared for this game (:attr:`Construction.plan`).
        policy: a play model's policy (:mod:`qcards.skat.players.play_models`), or None for the
            uniform choice of Eq. (9).
        policy_name: the model's name, in the gate's name (``cp_t1_p0_heuristic``).
        weighted: with ``policy``, the definition of the weighted gate: a function of the
            gate returning a circuit on the whole layout (the game's care-set synthesis).
    """

    def __init__(
        self,
        layout: GameLayout,
        trick: int,
        position: int,
        first: Card | None,
        construction: GateSyntheses,
        plan: Any = None,
        policy: Policy | None = None,
        policy_name: str = "",
        weighted: Callable[[CardPlayGate], Any] | None = None,
    ) -> None:
        _check_play(layout, trick, position)
        if policy is not None and weighted is None:
            raise ValueError("a policy-weighted card play needs its definition (weighted=)")
        self.layout = layout
        self.trick = trick
        self.position = position
        self.first = first
        self.construction = syntheses_of(construction, "CardPlayGate")
        self.plan = plan
        self.policy = policy
        self.weighted = weighted
        name = f"cp{self.construction.tag}_t{trick}_p{position}"
        if policy is not None:
            name += f"_{policy_name or 'policy'}"
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
        if self.policy is not None:
            weighted = cast("Callable[[CardPlayGate], Any]", self.weighted)  # given with a policy
            self.definition = weighted(self)
        else:
            self.definition = self.construction.play(self)

    def sparse_apply(self, state: RowState, qubits: tuple[int, ...]) -> None:
        """The classical action (:mod:`~qcards.circuits.gates.classical`), the same for every
        construction: on each row that is a game state of this stage -- ancillas clean, the
        player to move holding exactly its k cards, one card led (after the lead) and none of
        the mover's cards on the table yet -- one row per legal card, that card played, each
        with amplitude :math:`1/\\sqrt{m}` (Eq. 9), or with a policy
        :math:`\\sqrt{\\pi(c)}` (cards of weight 0 get no row). Every other row takes the
        definition. Both steps are compiled passes over the rows
        (:mod:`~qcards.circuits.gates.action_kernels`); a policy's weights are computed per
        view in Python (:func:`~qcards.circuits.gates.policy_play.weighted_choice`)."""
        from qcards.circuits.gates import action_kernels as kernels  # numba: when it runs

        tables = kernels.placed_tables(self, qubits, state.num_words, _PlayTables)
        legal = np.empty(state.num_rows, dtype=np.uint64)
        inside = np.empty(state.num_rows, dtype=bool)
        kernels.play_legal(state.words, *tables.legal_arguments, legal, inside)
        with classical_domain(state, self, qubits, inside) as kept:
            legal = narrow(kept, legal)
            factors = None
            if self.policy is not None:
                rows = Rows(state, self.layout, qubits)
                legal, factors = weighted_choice(
                    rows, self.layout, self.trick, self.position, self.cards, legal,
                    self.policy, self.forced_card,
                )  # fmt: skip
            total = kernels.play_children(legal)
            state.check_rows(total)
            words = np.empty((state.num_words, total), dtype=np.uint64)
            amps = np.empty(total, dtype=complex)
            kernels.play_expand(state.words, state.amps, legal, tables.flips, words, amps)
            if factors is not None:
                amps *= factors
            state.replace_rows(words, amps)


class _PlayTables:
    """A card play's classical action as arrays (:func:`~.action_kernels.play_legal`'s
    arguments and each card's flips), for one placement of the gate."""

    def __init__(self, gate: CardPlayGate, qubits: tuple[int, ...], num_words: int) -> None:
        from qcards.circuits.gates import action_kernels as kernels  # numba: when it runs

        layout, t = gate.layout, gate.trick
        position = dict(zip(layout.qubits, qubits, strict=False))
        cards = gate.cards
        if len(cards) > 64:
            raise ValueError(f"a card play chooses among at most 64 cards, got {len(cards)}")
        rules = layout.spec.rules
        suits = trick_suits(layout)
        by_leader = held_cubes_by_leader(layout, t, gate.position, cards)
        lead = kernels.Cubes([cube for _leader, cube, _each in by_leader], position, num_words)
        held, held_card, held_starts = kernels.grouped_cubes(
            [list(enumerate(each)) for _leader, _cube, each in by_leader], position, num_words
        )
        led_by_leader = led_cubes_by_leader(layout, t) if gate.position else []  # none led yet
        led, led_suit, led_starts = kernels.grouped_cubes(
            [
                [(suits.index(rules.effective_suit(c)), cube) for c, cube in each]
                for _leader, _cube, each in led_by_leader
            ],
            position,
            num_words,
        )
        suit_cards = np.zeros(len(suits), dtype=np.uint64)
        for i, c in enumerate(cards):
            suit_cards[suits.index(rules.effective_suit(c))] |= np.uint64(1 << i)
        zero = kernels.clean_cube(layout.ancillas, position, num_words)
        forced = gate.forced_card
        self.legal_arguments = (
            zero.mask,
            zero.value,
            lead.mask,
            lead.value,
            held_starts,
            held.mask,
            held.value,
            held_card,
            layout.spec.hand_size - t + 1,
            led_starts,
            led.mask,
            led.value,
            led_suit,
            suit_cards,
            *kernels.bit_positions([layout.play[c][t - 1] for c in cards], position),
            cards.index(forced) if forced is not None else -1,
        )
        self.flips = kernels.bit_masks([gate.flips(c) for c in cards], position, num_words)
