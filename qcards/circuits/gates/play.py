"""The card-play gate CP_k^n (Eqs. 9-13), with suit following and a dynamic leader.

:class:`CardPlayGate` follows the paper's product over configurations (exponential in the hand
size); :class:`LegalPlayGate` is the polynomial construction with the same action.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass

import numpy as np
from qiskit.circuit import Gate, QuantumCircuit, Qubit
from qiskit.circuit.library import UCRYGate

from qcards.circuits.gates.classical import (
    Rows,
    choose_uniformly,
    classical_domain,
    held_matrix,
    led_suits,
    narrow,
)
from qcards.circuits.gates.codes import copy_play_to_table_bits
from qcards.circuits.gates.cubes import cube_x, on_cube
from qcards.circuits.gates.predicates import (
    decrement,
    increment,
    led_cubes,
    legal_cubes,
    mark_held,
    mark_led_suit,
    mark_void,
    movable_cards,
    mover,
)
from qcards.circuits.gates.states import WStateGate
from qcards.circuits.layout import GameLayout, merge_conditions
from qcards.skat.cards import Card


def _check_play(layout: GameLayout, trick: int, position: int) -> None:
    """Raise ``ValueError`` unless (trick, position) is a card played in this game."""
    layout.check_trick(trick)
    n = len(layout.spec.players)
    if not 0 <= position < n:
        raise ValueError(f"position must be in 0..{n - 1}, got {position}")


@dataclass(frozen=True)
class PlayTerm:
    """One factor of Eq. (12): on the configuration ``cube``, play one of ``legal`` uniformly."""

    cube: dict[Qubit, int]
    player: str
    hand: tuple[Card, ...]
    led: Card | None
    legal: tuple[Card, ...]


class CardPlayGate(Gate):
    """Play the card at ``position`` of trick ``trick`` (position 0 leads), Eqs. (9)-(13).

    Following Eq. (12), the gate is a product over configurations, each conditioned on a cube:
    who leads the trick (``winner_{trick-1}``, when the winner leads), the exact hand
    :math:`\\vec\\alpha` of the player to move (k cards dealt to it and not played before this
    trick), and, for positions after the lead, the card that was led. On each configuration it
    applies the uniform one-hot superposition of Eq. (9) to the trick-``trick`` play qubits of
    the *legal* cards (suit following, trumps and jacks from :class:`qcards.skat.cards.Rules`).

    Args:
        layout: registers of the game circuit.
        trick: 1-based trick number.
        position: 0 for the lead, 1.. for the following players.
        first: force the declarer's first card (the declarer must lead trick 1).
    """

    name_prefix = "cp"

    def __init__(
        self, layout: GameLayout, trick: int, position: int, first: Card | None = None
    ) -> None:
        _check_play(layout, trick, position)
        self.layout = layout
        self.trick = trick
        self.position = position
        self.first = first
        super().__init__(f"{self.name_prefix}_t{trick}_p{position}", layout.num_qubits, [])

    def terms(self) -> list[PlayTerm]:
        """The configurations of Eq. (12) with their legal cards (impossible ones dropped)."""
        layout, spec, t = self.layout, self.layout.spec, self.trick
        rules = spec.rules
        n = len(spec.players)
        k = spec.hand_size - (t - 1)
        out = []
        for leader in layout.possible_leaders(t):
            player = spec.players[(spec.players.index(leader) + self.position) % n]
            lead_cond = layout.leader_condition(t, leader)
            for hand in itertools.combinations(layout.spec.candidates(player), k):
                hand_cond = merge_conditions(
                    lead_cond,
                    *(layout.owner_condition(c, player) for c in hand),
                    *({layout.play[c][s]: 0 for s in range(t - 1)} for c in hand),
                )
                if hand_cond is None:
                    continue
                led_options: list[Card | None] = [None]
                if self.position > 0:
                    led_options = [c for c in spec.candidates(leader) if c not in hand]
                for led in led_options:
                    cube = hand_cond
                    if led is not None:
                        cube = merge_conditions(
                            hand_cond,
                            layout.owner_condition(led, leader),
                            {layout.play[led][t - 1]: 1},
                        )
                        if cube is None:
                            continue
                    legal = rules.legal_cards(hand, led)
                    if self.first is not None and t == 1 and player == spec.declarer:
                        legal = (self.first,)
                    out.append(PlayTerm(cube, player, hand, led, legal))
        return out

    def _define(self) -> None:
        self.definition = _synth_card_play(self)

    def forced_first(self) -> bool:
        """Whether this gate plays the declarer's fixed first card."""
        mover_ = mover(self.layout, self.position, self.layout.spec.leader)
        return self.first is not None and self.trick == 1 and mover_ == self.layout.spec.declarer

    def sparse_apply(self, state, qubits: tuple[int, ...]) -> None:
        """The classical action (:mod:`~qcards.circuits.gates.classical`): per row, the hand
        of the player to move (cards dealt to it and not yet played) and the led card. When
        the hand has the k cards of exactly one term of Eq. (12) -- and one card was led --
        that term's uniform choice among the legal cards is made (Eq. 9, one branch per legal
        card); with fewer cards, or no led card, no term fires. Rows where several terms fire,
        the flag is set or a legal card is already on the table take the definition."""
        rows = Rows(state, self.layout, qubits)
        cards = movable_cards(self.layout, self.trick, self.position)
        legal, inside = self._legal_rows(rows, cards)
        with classical_domain(state, self, qubits, inside) as kept:
            choose_uniformly(rows, narrow(kept, legal), [self._flips(c) for c in cards])

    def _legal_rows(self, rows: Rows, cards: list[Card]) -> tuple[np.ndarray, np.ndarray]:
        """``(legal, inside)`` of :meth:`sparse_apply`: the legal cards of every row (shape
        ``(cards, rows)``) and the rows the action describes. The work arrays are freed when
        it returns, before the state grows (the engine's memory estimate counts on it)."""
        layout, t, position = self.layout, self.trick, self.position
        spec = layout.spec
        rules = spec.rules
        held = held_matrix(rows, layout, t, position, cards)
        size = held.sum(axis=0)
        k = spec.hand_size - (t - 1)
        fires = size == k
        several = size > k
        if position > 0:
            led_count = np.zeros(rows.count, dtype=np.int64)
            led_suit = np.full(rows.count, -1, dtype=np.int64)
            suits = sorted({rules.effective_suit(c) for c in layout.cards})
            for _leader, card, cube in led_cubes(layout, t):
                on = rows.holds(cube)
                led_count += on
                led_suit[on] = suits.index(rules.effective_suit(card))
            several = (several & (led_count > 0)) | ((size >= k) & (led_count > 1))
            fires &= led_count == 1
            follows = np.stack(
                [
                    held[i] & (led_suit == suits.index(rules.effective_suit(c)))
                    for i, c in enumerate(cards)
                ]
            )
            legal = np.where(follows.any(axis=0), follows, held)
        else:
            legal = held.copy()
        if self.forced_first():
            legal[:] = False
            legal[cards.index(self.first)] = True
        legal &= fires
        played = np.stack([rows.holds({layout.play[c][t - 1]: 1}) for c in cards])
        inside = rows.clean(layout.flag) & ~several & ~(legal & played).any(axis=0)
        return legal, inside

    def _flips(self, card: Card) -> list[Qubit]:
        """Qubits flipped when ``card`` is chosen: its play bit, and its code's table bit."""
        layout = self.layout
        flips = [layout.play[card][self.trick - 1]]
        if layout.code is not None:
            flips.append(layout.card[card][layout.code.table_bit])
        return flips


def _synth_card_play(gate: CardPlayGate) -> QuantumCircuit:
    layout = gate.layout
    qc = layout.circuit(gate.name)
    flag = layout.flag[0]
    for term in gate.terms():
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


class LegalPlayGate(CardPlayGate):
    """CP in polynomial size: the player to move plays one of its legal cards, uniformly.

    The same map as :class:`CardPlayGate` on every game state (the tests compare both), built
    without enumerating hands: the workspace (:class:`~qcards.circuits.layout.Workspace`) receives
    which cards the player holds, the led suit and whether the player is void in it
    (:mod:`qcards.circuits.gates.predicates`), a counter receives how many cards are legal, and the
    cards are then passed in order, each chosen
    with probability 1/(legal cards not yet passed) unless one was chosen already -- the
    sequential form of the uniform one-hot superposition of Eq. (9). The counter ends at 0 and
    every other ancilla is uncomputed, so the gate needs
    :math:`O(|\\text{cards}| \\cdot |\\text{players}|)` multi-controlled gates.

    Args:
        layout: registers of the game circuit, with a workspace.
        trick: 1-based trick number.
        position: 0 for the lead, 1.. for the following players.
        first: force the declarer's first card (the declarer must lead trick 1).
    """

    name_prefix = "cp_poly"

    def __init__(
        self, layout: GameLayout, trick: int, position: int, first: Card | None = None
    ) -> None:
        layout.require_workspace("LegalPlayGate")
        super().__init__(layout, trick, position, first)

    def _define(self) -> None:
        self.definition = _synth_legal_play(self)

    def sparse_apply(self, state, qubits: tuple[int, ...]) -> None:
        """The classical action (:mod:`~qcards.circuits.gates.classical`): the workspace's
        facts (``held``, ``led``, ``void``) and the legal cubes are evaluated on every row; a
        row with m >= 1 legal cards becomes m rows, one per legal card played (the sequential
        choice of the definition gives each amplitude 1/sqrt(m)), a row with none only has
        ``done`` flipped, as the definition leaves it. Rows with a dirty workspace, a card
        matched by both legal cubes, a counter overflow or a legal card already on the table
        take the definition."""
        layout, t = self.layout, self.trick
        rows = Rows(state, layout, qubits)
        if self.first is not None and t == 1 and self.position == 0:
            rows.flip(layout.play[self.first][0])
            return
        cards = movable_cards(layout, t, self.position)
        legal, none, inside = self._legal_rows(rows, cards)
        with classical_domain(state, self, qubits, inside) as kept:
            rows.flip(layout.work.done, narrow(kept, none))
            choose_uniformly(rows, narrow(kept, legal), [[layout.play[c][t - 1]] for c in cards])

    def _legal_rows(
        self, rows: Rows, cards: list[Card]
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """``(legal, none, inside)`` of :meth:`sparse_apply`: the legal cards of every row
        (shape ``(cards, rows)``), the rows with none, and the rows the action describes. The
        work arrays are freed when it returns, before the state grows (the engine's memory
        estimate counts on it)."""
        layout, t, position = self.layout, self.trick, self.position
        work = layout.work
        rules = layout.spec.rules
        held = held_matrix(rows, layout, t, position, cards)
        if position > 0:
            led = led_suits(rows, layout, t)
            void = np.zeros(rows.count, dtype=bool)
            for suit in work.suits:
                of_suit = [i for i, c in enumerate(cards) if rules.effective_suit(c) == suit]
                void ^= led[suit] & ~held[of_suit].any(axis=0)
            suit_led = [led[rules.effective_suit(c)] for c in cards]
            by_suit = np.stack([held[i] & on for i, on in enumerate(suit_led)])
            by_void = held & void
            twice = (by_suit & by_void).any(axis=0)  # a card counted by both legal cubes
            legal = by_suit | by_void
        else:
            legal, twice = held, np.zeros(rows.count, dtype=bool)
        m = legal.sum(axis=0)
        counter = (layout.spec.hand_size - t + 1).bit_length()
        played = np.stack([rows.holds({layout.play[c][t - 1]: 1}) for c in cards])
        inside = rows.clean(work.qubits) & ~twice & (m < 2**counter) & ~(legal & played).any(axis=0)
        return legal, m == 0, inside


def _synth_legal_play(gate: LegalPlayGate) -> QuantumCircuit:
    layout, t, position = gate.layout, gate.trick, gate.position
    work = layout.work
    qc = layout.circuit(gate.name)
    if gate.first is not None and t == 1 and position == 0:
        qc.x(layout.play[gate.first][0])
        return qc
    cards = movable_cards(layout, t, position)
    following = position > 0
    compute = layout.circuit("legal_cards")
    mark_held(compute, layout, t, position, cards)
    if following:
        mark_led_suit(compute, layout, t)
        mark_void(compute, layout, cards)
    qc.compose(compute, inplace=True)
    counter = work.count[: (layout.spec.hand_size - t + 1).bit_length()]
    legal = [legal_cubes(layout, cards, i, following) for i in range(len(cards))]
    for cubes in legal:
        for cube in cubes:
            increment(qc, cube, counter)
    # angle index = pick + 2 * counter: choose the card with probability 1/counter when picking.
    angles = [0.0] * 2 ** (len(counter) + 1)
    for remaining in range(1, 2 ** len(counter)):
        angles[1 + 2 * remaining] = 2 * math.asin(math.sqrt(1 / remaining))
    for c, cubes in zip(cards, legal, strict=True):
        play = layout.play[c][t - 1]
        for cube in cubes:
            cube_x(qc, {**cube, work.done: 0}, work.pick)
        qc.append(UCRYGate(angles), [play, work.pick, *counter])
        for cube in cubes:
            cube_x(qc, {**cube, work.done: 0}, work.pick)
        # Only a legal card's play bit: cards led earlier in the trick have theirs set too.
        for cube in cubes:
            cube_x(qc, {**cube, play: 1}, work.done)
            decrement(qc, cube, counter)
    # Exactly one card was chosen on every game state: "done" is 1 everywhere.
    qc.x(work.done)
    qc.compose(compute.inverse(), inplace=True)
    return qc
