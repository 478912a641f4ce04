"""The trick-taking gate TT (Eqs. 14-15): write who took the trick into ``winner_<t>``."""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from qiskit.circuit import Gate, QuantumCircuit, Qubit

from qcards.circuits.gates.classical import Rows, classical_domain, led_suits, narrow
from qcards.circuits.gates.codes import trick_code_flips
from qcards.circuits.gates.cubes import cube_x, cube_xor
from qcards.circuits.gates.predicates import mark_led_suit, mover
from qcards.circuits.layout import GameLayout, merge_conditions
from qcards.skat.cards import TRUMP, Card, Rules


@dataclass(frozen=True)
class TrickTerm:
    """One factor of Eq. (15): on ``cube`` the cards ``cards`` (in play order) lie on the table."""

    cube: dict[Qubit, int]
    leader: str
    cards: tuple[Card, ...]
    seats: tuple[str, ...]
    winner: str


class TrickTakingGate(Gate):
    """Take trick ``trick``: the seat of its winner is XOR-ed into ``winner_<trick>``.

    Like Eq. (15) this is a product over the configurations of the table, each conditioned on a
    cube: who led (``winner_{trick-1}`` when the winner leads) and which card each seat put on
    the table (play bit ``trick`` set, dealt to that seat). The winning card follows from
    :meth:`qcards.skat.cards.Rules.trick_winner` (trumps, jacks, led suit), not from a fixed card
    order, so any trick of any game kind is handled. The paper moves the cards' location bits to
    the winner's stack instead (Eq. 14); here the stack is the trick's ``winner`` register, from
    which every card's stack follows (:meth:`qcards.skat.stages.Snapshot.locations`).

    Args:
        layout: registers of the game circuit.
        trick: 1-based trick number.
    """

    def __init__(self, layout: GameLayout, trick: int) -> None:
        layout.check_trick(trick)
        self.layout = layout
        self.trick = trick
        super().__init__(f"tt_{trick}", layout.num_qubits, [])

    def terms(self) -> list[TrickTerm]:
        layout, spec, t = self.layout, self.layout.spec, self.trick
        rules = spec.rules
        n = len(spec.players)
        out = []
        for leader in layout.possible_leaders(t):
            seats = [mover(layout, i, leader) for i in range(n)]
            for cards in itertools.product(*(spec.candidates(p) for p in seats)):
                if len(set(cards)) < n:
                    continue
                cube = merge_conditions(
                    layout.leader_condition(t, leader),
                    *(layout.owner_condition(c, p) for c, p in zip(cards, seats, strict=True)),
                    *({layout.play[c][t - 1]: 1} for c in cards),
                )
                if cube is None:
                    continue
                winner = seats[rules.trick_winner(cards)]
                out.append(TrickTerm(cube, leader, cards, tuple(seats), winner))
        return out

    def flips(self, term: TrickTerm) -> list[Qubit]:
        """The qubits a term flips: the winner's seat, and the cards' codes if kept."""
        layout = self.layout
        register = layout.winner[self.trick]
        seat = layout.spec.players.index(term.winner)
        flips = [register[b] for b in range(register.size) if (seat >> b) & 1]
        if layout.code is not None:
            flips += trick_code_flips(layout, term.cards, term.seats, term.winner)
        return flips

    def _define(self) -> None:
        self.definition = _synth_trick_taking(self)

    def sparse_apply(self, state, qubits: tuple[int, ...]) -> None:
        """The classical action (:mod:`~qcards.circuits.gates.classical`): on every row, find
        the card each seat put on the table; with exactly one per seat, the one term of
        Eq. (15) whose table it is fires and its flips are applied; with none at some seat no
        term fires. Rows where several terms fire, or the flag is set, take the definition."""
        layout, spec, t = self.layout, self.layout.spec, self.trick
        rows = Rows(state, layout, qubits)
        terms = self.terms()
        n = len(spec.players)
        fired = np.full(rows.count, -1, dtype=np.int64)
        ambiguous = np.zeros(rows.count, dtype=bool)
        for leader in layout.possible_leaders(t):
            lead = rows.holds(layout.leader_condition(t, leader))
            seats = [mover(layout, i, leader) for i in range(n)]
            candidates = [spec.candidates(seat) for seat in seats]
            counts, keys, stride = [], np.zeros(rows.count, dtype=np.int64), 1
            for seat, cards in zip(seats, candidates, strict=True):
                on = np.stack(
                    [
                        rows.holds(
                            merge_conditions(
                                layout.owner_condition(c, seat), {layout.play[c][t - 1]: 1}
                            )
                        )
                        for c in cards
                    ]
                )
                counts.append(on.sum(axis=0))
                keys += stride * on.argmax(axis=0)
                stride *= len(cards)
            one_each = lead & np.all([c == 1 for c in counts], axis=0)
            ambiguous |= lead & np.all([c >= 1 for c in counts], axis=0) & ~one_each
            lookup = np.full(stride, -1, dtype=np.int64)
            for k, term in enumerate(terms):
                if term.leader == leader:
                    key, step = 0, 1
                    for card, cards in zip(term.cards, candidates, strict=True):
                        key += step * cards.index(card)
                        step *= len(cards)
                    lookup[key] = k
            fired[one_each] = lookup[keys[one_each]]
        inside = rows.clean(layout.flag) & ~ambiguous
        with classical_domain(state, self, qubits, inside) as kept:
            fired = narrow(kept, fired)
            hit = fired >= 0
            flipped: dict[Qubit, np.ndarray] = {}
            for k, term in enumerate(terms):
                for q in self.flips(term):
                    flipped.setdefault(q, np.zeros(len(terms) + 1, dtype=bool))[k] = True
            for q, by_term in flipped.items():
                rows.flip(q, hit & by_term[fired])


def _synth_trick_taking(gate: TrickTakingGate) -> QuantumCircuit:
    layout = gate.layout
    qc = layout.circuit(gate.name)
    for term in gate.terms():
        cube_xor(qc, term.cube, gate.flips(term), layout.flag[0])
    return qc


def stronger_cards(rules: Rules, card: Card, cards: Sequence[Card]) -> list[Card]:
    """Cards of ``cards`` that beat ``card`` whenever both lie on the table of one trick.

    A trump is beaten by higher trumps only; a plain card by every trump and the higher cards of
    its suit (whether it may win at all depends on the led suit, checked separately).
    """
    suit = rules.effective_suit(card)
    out = []
    for other in cards:
        other_suit = rules.effective_suit(other)
        if other_suit == suit and rules.strength(other) > rules.strength(card):
            out.append(other)
        elif other_suit == TRUMP and suit != TRUMP:
            out.append(other)
    return out


class TrickWinnerGate(Gate):
    """TT in polynomial size: the seat of the trick's winner is XOR-ed into ``winner_<trick>``.

    The same map as :class:`TrickTakingGate`, built per card instead of per table: card c takes
    the trick exactly when it lies on the table, no card that beats it does
    (:func:`stronger_cards`), and -- unless c is a trump -- its suit was led (``led`` in the
    workspace). That fact is computed into the ``pick`` ancilla, the winner's seat is copied
    from the owner of c, and the fact is uncomputed: :math:`O(|\\text{cards}|)`
    multi-controlled gates.

    Args:
        layout: registers of the game circuit, with a workspace.
        trick: 1-based trick number.
    """

    def __init__(self, layout: GameLayout, trick: int) -> None:
        layout.require_workspace("TrickWinnerGate")
        layout.check_trick(trick)
        self.layout = layout
        self.trick = trick
        super().__init__(f"tt_poly_{trick}", layout.num_qubits, [])

    def _define(self) -> None:
        self.definition = _synth_trick_winner(self)

    def sparse_apply(self, state, qubits: tuple[int, ...]) -> None:
        """The classical action (:mod:`~qcards.circuits.gates.classical`): card c takes the
        trick where it is on the table, no stronger card is, and it is a trump or its suit
        was led (the parity the definition leaves in ``led``); the seat of c's owner is
        XOR-ed into the winner register for every such c. Exact on every row whose ``led``,
        ``pick`` and flag start clean; other rows take the definition."""
        layout, t = self.layout, self.trick
        spec, work = layout.spec, layout.work
        rules = spec.rules
        rows = Rows(state, layout, qubits)
        inside = rows.clean([*work.led, work.pick, *layout.flag])
        with classical_domain(state, self, qubits, inside):
            led = led_suits(rows, layout, t)
            on = {c: rows.holds({layout.play[c][t - 1]: 1}) for c in layout.cards}
            delta = np.zeros(rows.count, dtype=np.int64)
            for c in layout.cards:
                takes = on[c].copy()
                for other in stronger_cards(rules, c, layout.cards):
                    takes &= ~on[other]
                if not rules.is_trump(c):
                    takes &= led[rules.effective_suit(c)]
                for player in spec.players:
                    seat = spec.players.index(player)
                    owner = layout.owner_condition(c, player)
                    if owner is not None and seat:
                        delta ^= seat * (takes & rows.holds(owner))
            rows.xor(layout.winner[t], delta)


def _synth_trick_winner(gate: TrickWinnerGate) -> QuantumCircuit:
    layout, t = gate.layout, gate.trick
    work, spec = layout.work, layout.spec
    rules = spec.rules
    qc = layout.circuit(gate.name)
    led = layout.circuit("led_suit")
    mark_led_suit(led, layout, t)
    qc.compose(led, inplace=True)
    on_table = {c: layout.play[c][t - 1] for c in layout.cards}
    register = layout.winner[t]
    for c in layout.cards:
        takes = {on_table[c]: 1}
        takes.update({on_table[o]: 0 for o in stronger_cards(rules, c, layout.cards)})
        if not rules.is_trump(c):
            takes[work.of_suit(rules.effective_suit(c))] = 1
        cube_x(qc, takes, work.pick)
        for player in spec.players:
            owner = layout.owner_condition(c, player)
            seat = spec.players.index(player)
            flips = [register[b] for b in range(register.size) if (seat >> b) & 1]
            if owner is not None and flips:
                cube_xor(qc, {work.pick: 1, **owner}, flips, layout.flag[0])
        cube_x(qc, takes, work.pick)
    qc.compose(led.inverse(), inplace=True)
    return qc
