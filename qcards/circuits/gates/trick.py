"""The trick-taking gate TT (Eqs. 14-15): write who took the trick into ``winner_<t>``.

One gate per trick: :class:`TrickTakingGate`. On every game state at the end of its trick it
XORs the seat of the trick's winner (:meth:`qcards.skat.rules.cards.Rules.trick_winner`) into the
trick's ``winner`` register. That is its classical action, written here once for every
construction; its definition is the construction's trick synthesis
(:mod:`qcards.circuits.syntheses`).
"""

from __future__ import annotations

import math
import threading
from typing import Any

import numpy as np
from qiskit.circuit import Gate, Qubit

from qcards.circuits.gates.card_code_updates import trick_code_flips
from qcards.circuits.gates.classical import classical_domain, narrow
from qcards.circuits.gates.predicates import mover
from qcards.circuits.gates.row_state import RowState
from qcards.circuits.gates.synthesis import GateSyntheses, syntheses_of
from qcards.circuits.layout import GameLayout
from qcards.skat.rules.cards import Card


class TrickTakingGate(Gate):
    """Take trick ``trick``: the seat of its winner is XOR-ed into ``winner_<trick>``.

    The winning card follows from :meth:`qcards.skat.rules.cards.Rules.trick_winner` (trumps, jacks,
    led suit), not from a fixed card order, so any trick of any game kind is handled. The paper
    moves the cards' location bits to the winner's stack instead (Eq. 14); here the stack is
    the trick's ``winner`` register, from which every card's stack follows
    (:meth:`qcards.skat.position.stages.Snapshot.locations`), and the paper's codes when they are
    kept.

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
        construction: GateSyntheses,
        plan: Any = None,
    ) -> None:
        layout.check_trick(trick)
        self.layout = layout
        self.trick = trick
        self.construction = syntheses_of(construction, "TrickTakingGate")
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

    def sparse_apply(self, state: RowState, qubits: tuple[int, ...]) -> None:
        """The classical action (:mod:`~qcards.circuits.gates.classical`), the same for every
        construction: on each row that is a game state at the end of this trick -- ancillas
        clean, exactly one card on the table from each seat -- the table's flips
        (:meth:`flips`) are applied. Distinct tables are few, so each is decided once by the
        rules (and remembered by the gate). Every other row takes the definition. The tables
        are numbered and their flips applied in compiled passes over the rows
        (:mod:`~qcards.circuits.gates.action_kernels`)."""
        from qcards.circuits.gates import action_kernels as kernels  # numba: when it runs

        tables = kernels.placed_tables(self, qubits, state.num_words, _TrickTables)
        keys = np.empty(state.num_rows, dtype=np.int64)
        kernels.trick_keys(state.words, *tables.key_arguments, keys)
        with classical_domain(state, self, qubits, keys >= 0) as kept:
            keys = narrow(kept, keys)
            kernels.xor_rows(state.words, keys, tables.flips_of(keys))

    def _candidates(self) -> list[tuple[str, list[str], list[list[Card]]]]:
        """Per possible leader: the seats in play order and each seat's candidate cards
        (worked out once per gate: the action asks on every call)."""
        if self._seating is None:
            layout = self.layout
            self._seating = []
            for leader in layout.possible_leaders(self.trick):
                seats = self.seats(leader)
                candidates = [list(layout.spec.candidates(seat)) for seat in seats]
                self._seating.append((leader, seats, candidates))
        return self._seating

    def _flips_of(self, key: int) -> list[Qubit]:
        """The flips of the table numbered ``key`` (as :func:`~.action_kernels.trick_keys`
        numbers them; decided once)."""
        if key not in self._winners:
            rest = key
            for _leader, seats, candidates in self._candidates():
                size = math.prod(len(cards) for cards in candidates)
                if rest < size:
                    cards = []
                    for cs in candidates:
                        cards.append(cs[rest % len(cs)])
                        rest //= len(cs)
                    self._winners[key] = self.flips(tuple(cards), seats)
                    break
                rest -= size
        return self._winners[key]


class _TrickTables:
    """A trick taking's classical action as arrays (:func:`~.action_kernels.trick_keys`'
    arguments), and each table's flips as word masks, filled as tables are met."""

    def __init__(self, gate: TrickTakingGate, qubits: tuple[int, ...], num_words: int) -> None:
        from qcards.circuits.gates import action_kernels as kernels  # numba: when it runs

        layout, t = gate.layout, gate.trick
        self.gate = gate
        self.position = dict(zip(layout.qubits, qubits, strict=False))
        self.num_words = num_words
        seating = gate._candidates()
        cards = layout.cards
        seats = len(layout.spec.players)
        candidate = np.full((len(seating), seats, len(cards)), -1, dtype=np.int64)
        radix = np.zeros((len(seating), seats), dtype=np.int64)
        owners: list[dict[Qubit, int] | None] = []
        leads, offsets, offset = [], [], 0
        for k, (leader, seat_names, candidates) in enumerate(seating):
            leads.append(layout.leader_condition(t, leader))
            for s, (seat, each) in enumerate(zip(seat_names, candidates, strict=True)):
                radix[k, s] = len(each)
                for i, c in enumerate(each):
                    candidate[k, s, cards.index(c)] = i
                owners.extend(layout.owner_condition(c, seat) for c in cards)
            offsets.append(offset)
            offset += int(np.prod(radix[k]))
        lead = kernels.Cubes(leads, self.position, num_words)
        owner = kernels.Cubes(owners, self.position, num_words)
        zero = kernels.clean_cube(layout.ancillas, self.position, num_words)
        self.key_arguments = (
            zero.mask,
            zero.value,
            seats,
            lead.mask,
            lead.value,
            *kernels.bit_positions([layout.play[c][t - 1] for c in cards], self.position),
            candidate,
            owner.mask,
            owner.value,
            radix,
            np.array(offsets, dtype=np.int64),
        )
        self.tables = offset
        self.known = np.zeros(offset, dtype=bool)
        self.flips = np.zeros((offset, num_words), dtype=np.uint64)
        self.lock = threading.Lock()

    def flips_of(self, keys: np.ndarray) -> np.ndarray:
        """The flips of every table number, as rows of word masks (shape ``(tables, words)``),
        with those of the tables in ``keys`` decided by the rules (:meth:`_flips_of`). Shards
        run on several threads share these arrays: they are made once, and a table's row is
        written under a lock before the table is marked known, so a thread never reads a row
        another one is still filling (the compiled pass that reads them holds no GIL)."""
        from qcards.circuits.gates import action_kernels as kernels  # numba: when it runs

        met = np.zeros(self.tables, dtype=bool)
        met[keys[keys >= 0]] = True
        if (met & ~self.known).any():
            with self.lock:
                for key in np.flatnonzero(met & ~self.known).tolist():
                    self.flips[key] = kernels.bit_masks(
                        [self.gate._flips_of(key)], self.position, self.num_words
                    )[0]
                    self.known[key] = True
        return self.flips
