"""The trick-taking gate TT (Eqs. 14-15): write who took the trick into ``winner_<t>``.

One gate per trick: :class:`TrickTakingGate`. On every game state at the end of its trick it
XORs the seat of the trick's winner (:meth:`qcards.skat.cards.Rules.trick_winner`) into the
trick's ``winner`` register. That is its classical action, written here once for every
construction; its definition is the construction's trick synthesis
(:mod:`qcards.circuits.syntheses`).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from qiskit.circuit import Gate, Qubit

from qcards.circuits.construction import DEFAULT_CONSTRUCTION, Construction, get_construction
from qcards.circuits.gates.classical import Rows, classical_domain, narrow
from qcards.circuits.gates.codes import trick_code_flips
from qcards.circuits.gates.predicates import mover
from qcards.circuits.layout import GameLayout, merge_conditions
from qcards.skat.cards import Card


class TrickTakingGate(Gate):
    """Take trick ``trick``: the seat of its winner is XOR-ed into ``winner_<trick>``.

    The winning card follows from :meth:`qcards.skat.cards.Rules.trick_winner` (trumps, jacks,
    led suit), not from a fixed card order, so any trick of any game kind is handled. The paper
    moves the cards' location bits to the winner's stack instead (Eq. 14); here the stack is
    the trick's ``winner`` register, from which every card's stack follows
    (:meth:`qcards.skat.stages.Snapshot.locations`), and the paper's codes when they are kept.

    Args:
        layout: registers of the game circuit (the construction's layout).
        trick: 1-based trick number.
        construction: whose trick synthesis defines the gate.
        plan: what the construction prepared for this game (:attr:`Construction.plan`).
    """

    def __init__(
        self,
        layout: GameLayout,
        trick: int,
        construction: Construction | str = DEFAULT_CONSTRUCTION,
        plan: Any = None,
    ) -> None:
        layout.check_trick(trick)
        self.layout = layout
        self.trick = trick
        self.construction = get_construction(construction)
        self.plan = plan
        self._winners: dict[int, list[Qubit]] = {}
        self._seating: list | None = None
        super().__init__(f"tt{self.construction.tag}_{trick}", layout.num_qubits, [])

    def seats(self, leader: str) -> list[str]:
        """The players in the order they play to this trick when ``leader`` leads it."""
        return [mover(self.layout, i, leader) for i in range(len(self.layout.spec.players))]

    def flips(self, cards: tuple[Card, ...], seats: list[str]) -> list[Qubit]:
        """The qubits flipped when ``cards`` (in play order, by ``seats``) lie on the table:
        the winner's seat in ``winner_<trick>``, and the cards' codes if kept."""
        layout = self.layout
        winner = seats[layout.spec.rules.trick_winner(cards)]
        register = layout.winner[self.trick]
        seat = layout.spec.players.index(winner)
        flips = [register[b] for b in range(register.size) if (seat >> b) & 1]
        if layout.code is not None:
            flips += trick_code_flips(layout, cards, seats, winner)
        return flips

    def _define(self) -> None:
        self.definition = self.construction.trick(self)

    def sparse_apply(self, state, qubits: tuple[int, ...]) -> None:
        """The classical action (:mod:`~qcards.circuits.gates.classical`), the same for every
        construction: on each row that is a game state at the end of this trick -- ancillas
        clean, exactly one card on the table from each seat -- the table's flips
        (:meth:`flips`) are applied. Distinct tables are few, so each is decided once by the
        rules (and remembered by the gate). Every other row takes the definition."""
        layout = self.layout
        rows = Rows(state, layout, qubits)
        table, inside = self._tables(rows)
        with classical_domain(state, self, qubits, inside) as kept:
            table = narrow(kept, table)
            keys, which = np.unique(table, return_inverse=True)
            flipped: dict[Qubit, np.ndarray] = {}
            for k, key in enumerate(keys.tolist()):
                for q in self._flips_of(int(key)):
                    flipped.setdefault(q, np.zeros(len(keys), dtype=bool))[k] = True
            for q, by_table in flipped.items():
                rows.flip(q, by_table[which])

    def _candidates(self) -> list[tuple[str, list[str], list[list[Card]], list[list[dict]]]]:
        """Per possible leader: the seats in play order, each seat's candidate cards and, for
        each, the cube "this seat put this card on the table" (worked out once per gate: the
        action asks on every call)."""
        if self._seating is None:
            layout, t = self.layout, self.trick
            self._seating = []
            for leader in layout.possible_leaders(t):
                seats = self.seats(leader)
                candidates = [list(layout.spec.candidates(seat)) for seat in seats]
                cubes = [
                    [
                        merge_conditions(
                            layout.owner_condition(c, seat), {layout.play[c][t - 1]: 1}
                        )
                        for c in cards
                    ]
                    for seat, cards in zip(seats, candidates, strict=True)
                ]
                self._seating.append((leader, seats, candidates, cubes))
        return self._seating

    def _tables(self, rows: Rows) -> tuple[np.ndarray, np.ndarray]:
        """``(table, inside)``: every row's table as one integer (leader and each seat's card
        among its candidates) and the game-state rows :meth:`sparse_apply` acts on."""
        layout, t = self.layout, self.trick
        table = np.zeros(rows.count, dtype=np.int64)
        inside = np.zeros(rows.count, dtype=bool)
        on_table = np.zeros(rows.count, dtype=np.int64)
        for c in layout.cards:
            on_table += rows.holds({layout.play[c][t - 1]: 1})
        offset = 0
        for leader, seats, candidates, cubes in self._candidates():
            lead = rows.holds(layout.leader_condition(t, leader))
            one_each = lead & (on_table == len(seats))
            key, stride = np.zeros(rows.count, dtype=np.int64), 1
            for cards, seat_cubes in zip(candidates, cubes, strict=True):
                on = np.stack([rows.holds(cube) for cube in seat_cubes])
                one_each &= on.sum(axis=0) == 1
                key += stride * on.argmax(axis=0)
                stride *= len(cards)
            table[one_each] = offset + key[one_each]
            inside |= one_each
            offset += stride
        return table, inside & rows.clean(layout.ancillas)

    def _flips_of(self, key: int) -> list[Qubit]:
        """The flips of the table numbered ``key`` by :meth:`_tables` (decided once)."""
        if key not in self._winners:
            rest = key
            for _leader, seats, candidates, _cubes in self._candidates():
                size = int(np.prod([len(cards) for cards in candidates]))
                if rest < size:
                    cards = []
                    for cs in candidates:
                        cards.append(cs[rest % len(cs)])
                        rest //= len(cs)
                    self._winners[key] = self.flips(tuple(cards), seats)
                    break
                rest -= size
        return self._winners[key]
