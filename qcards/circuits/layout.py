"""The register layout of qcards' game circuits (:class:`GameLayout`) and its workspace.

The game layout is what the circuits actually act on (the paper's card codes, Tables 1, 4 and 6,
are views of it: :mod:`qcards.circuits.card_codes`). A card's location
is not a reversible function of the game's history (e.g. different play orders end with the same
stacks), so a unitary evolution must keep the history. The paper keeps it in auxiliary qubits
(Sec. VI.2-VI.4); qcards keeps it explicitly and minimally, with named registers:

``owner_<card>``
    who was dealt the card, as an index into the receivers of unknown cards (the players, then
    the Skat: :attr:`qcards.skat.position.spec.Endgame.receivers`; only for unknown cards, and only
    if there is more than one receiver); written by U_ini. A card dealt into the Skat is never
    played.
``play_<card>``
    one qubit per trick: bit ``t-1`` is set when the card is played in trick ``t`` (the paper's
    table qubit q_t, one per trick); written by the card-play gates CP.
``winner_<t>``
    the seat of the player who took trick ``t`` (the paper's extra "who took the first trick"
    qubit of Sec. VII.2, generalised); written by the trick-taking gates TT. It also says who
    leads trick ``t+1`` when the winner leads.
``flag``
    one clean ancilla for multi-controlled operations, always returned to ``|0>``.
``held``, ``led``, ``count``, ``scratch`` (only with a :class:`Workspace`)
    clean ancillas of the polynomial construction (:class:`Workspace`), always returned to
    ``|0>`` at the end of every gate and never measured.
``card_<card>`` (only with ``paper_codes=True``)
    the card's state in the paper's own code (Table 4 for two players, Table 6 for three,
    Table 1 otherwise), bit i of the register = the i-th printed bit. The gates keep it up to
    date exactly as the paper describes: playing flips the table bit (Eq. 26), taking a trick
    rewrites the code to the winner's stack (Eqs. 28-29). The history registers above are what
    keeps this evolution unitary: the card codes alone merge different plays. Tables 4 and 6
    have no code for the Skat (nor has Table 1 beside four players), so a spec with a Skat is
    built without these registers.

From these registers every card's location (hand, table, whose stack) follows, see
:meth:`GameLayout.decode` and :meth:`qcards.skat.position.stages.Snapshot.locations`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import cast

import numpy as np
from qiskit.circuit import QuantumCircuit, QuantumRegister, Qubit

from qcards.circuits.card_codes import CardCode, paper_code
from qcards.circuits.register_sizes import (
    effective_suits,
    history_registers,
    owner_width,
    winner_width,
    workspace_registers,
)
from qcards.skat.position.spec import SKAT, Endgame
from qcards.skat.position.stages import Snapshot, Stage
from qcards.skat.rules.cards import Card

# ----------------------------------------------------------------------------- game layout


class InvalidOutcome(ValueError):
    """A measured outcome that no game state encodes (only noise can produce one)."""


class Workspace:
    """Clean ancillas of the polynomial gates, with one job per register.

    ``held``
        during card play, ``held[i]`` says that the i-th card the player to move may hold is in
        its hand; also the deal's ancillas.
    ``led``
        ``led[s]``: the card led to the trick has effective suit s.
    ``count``
        how many legal cards are still to be passed in the uniform choice.
    ``scratch``
        ``void`` (cannot follow suit), ``done`` (a card was chosen), ``pick`` (choose this
        card now; in trick taking: this card takes the trick).
    """

    def __init__(self, spec: Endgame, deal_ancillas: int = 0) -> None:
        self.suits: tuple[str, ...] = effective_suits(spec)
        sizes = workspace_registers(spec, deal_ancillas)
        self.held, self.led, self.count, self.scratch = (
            QuantumRegister(sizes[name], name) for name in ("held", "led", "count", "scratch")
        )
        self.void, self.done, self.pick = self.scratch
        self.registers = [self.held, self.led, self.count, self.scratch]

    def of_suit(self, suit: str) -> Qubit:
        """The qubit of ``led`` for effective suit ``suit``."""
        return self.led[self.suits.index(suit)]

    @property
    def num_qubits(self) -> int:
        return sum(r.size for r in self.registers)

    @property
    def qubits(self) -> list[Qubit]:
        return [q for r in self.registers for q in r]


class GameLayout:
    """Named registers of a game circuit for one spec (see the module docstring).

    Args:
        spec: the endgame.
        paper_codes: also keep the paper's card codes in ``card_<c>`` registers.
        workspace: the clean ancillas of the polynomial construction, if it is used.
    """

    def __init__(
        self, spec: Endgame, paper_codes: bool = False, workspace: Workspace | None = None
    ) -> None:
        self.spec = spec
        self.cards = spec.cards
        self.num_tricks = spec.num_tricks
        self.receivers = spec.receivers
        self.owner_width = owner_width(spec)
        self.winner_width = winner_width(spec)
        self.code = paper_code(spec) if paper_codes else None
        # the registers, as register_sizes tables them (the width a record reports unbuilt)
        named = {
            name: QuantumRegister(size, name)
            for name, size in history_registers(spec, paper_codes).items()
        }
        self.card: dict[Card, QuantumRegister] = {
            c: named[f"card_{c}"] for c in self.cards if f"card_{c}" in named
        }
        self.owner: dict[Card, QuantumRegister] = {
            c: named[f"owner_{c}"] for c in spec.unknown if f"owner_{c}" in named
        }
        self.play = {c: named[f"play_{c}"] for c in self.cards}
        self.winner = {t: named[f"winner_{t}"] for t in range(1, self.num_tricks + 1)}
        self.flag = named["flag"]
        self.work = workspace
        history: list[QuantumRegister] = [
            *self.card.values(),
            *self.owner.values(),
            *self.play.values(),
            *self.winner.values(),
        ]
        self.registers: list[QuantumRegister] = [
            *history,
            self.flag,
            *(self.work.registers if self.work else []),
        ]
        self.measured: list[Qubit] = [q for r in history for q in r]
        self.card_qubits: list[Qubit] = [q for r in self.card.values() for q in r]

    def code_label(self, outcome: int) -> str:
        """Read the paper's card codes straight from an outcome of :attr:`card_qubits`."""
        codes = []
        for k in range(len(self.cards)):
            width = cast(CardCode, self.code).width  # a layout built with the paper's codes
            codes.append("".join(str((outcome >> (k * width + i)) & 1) for i in range(width)))
        return " ".join(codes)

    @property
    def num_qubits(self) -> int:
        return sum(r.size for r in self.registers)

    def circuit(self, name: str = "game") -> QuantumCircuit:
        """An empty circuit holding every register of the layout."""
        return QuantumCircuit(*self.registers, name=name)

    @property
    def qubits(self) -> list[Qubit]:
        return [q for r in self.registers for q in r]

    @property
    def ancillas(self) -> list[Qubit]:
        """The clean ancillas: ``flag`` and the workspace's, 0 on every game state."""
        return [*self.flag, *(self.work.qubits if self.work is not None else [])]

    # -- conditions as cubes: {qubit: required bit}; None when impossible -------------------

    def owner_condition(self, card: Card, player: str) -> dict[Qubit, int] | None:
        """Condition "``card`` was dealt to ``player``"."""
        known = self.spec.owner_of_known(card)
        if known is not None:
            return {} if known == player else None
        if player not in self.receivers:
            return None
        if not self.owner_width:
            return {}
        index = self.receivers.index(player)
        return {q: (index >> b) & 1 for b, q in enumerate(self.owner[card])}

    def leader_condition(self, trick: int, player: str) -> dict[Qubit, int] | None:
        """Condition "``player`` leads trick ``trick``"."""
        if trick == 1 or not self.spec.winner_leads:
            return {} if player == self.spec.leader else None
        seat = self.spec.players.index(player)
        return {q: (seat >> b) & 1 for b, q in enumerate(self.winner[trick - 1])}

    def check_trick(self, trick: int) -> None:
        """Raise ``ValueError`` unless ``trick`` is a trick number of this game (1-based)."""
        if not isinstance(trick, int) or not 1 <= trick <= self.num_tricks:
            raise ValueError(f"trick must be in 1..{self.num_tricks}, got {trick!r}")

    def require_workspace(self, gate: str) -> None:
        """Raise ``ValueError`` unless the layout has the polynomial gates' workspace."""
        if self.work is None:
            raise ValueError(f"{gate} needs a layout with a Workspace (construction='efficient')")

    def possible_leaders(self, trick: int) -> tuple[str, ...]:
        if trick == 1 or not self.spec.winner_leads:
            return (self.spec.leader,)
        return self.spec.players

    # -- decoding ----------------------------------------------------------------------------

    def decode(self, outcome: int, stage: Stage) -> Snapshot:
        """Turn a measured outcome of :attr:`measured` (bit i = qubit i) into a snapshot."""
        bit = {q: (outcome >> i) & 1 for i, q in enumerate(self.measured)}

        def value(reg: Iterable[Qubit]) -> int:
            return sum(bit[q] << b for b, q in enumerate(reg))

        owner = {}
        for c in self.cards:
            known = self.spec.owner_of_known(c)
            if known is not None:
                owner[c] = known
            elif self.owner_width:
                index = value(self.owner[c])
                if index >= len(self.receivers):
                    raise InvalidOutcome(f"owner register of {c} holds no receiving player")
                owner[c] = self.receivers[index]
            else:
                owner[c] = self.receivers[0]
        played = {}
        for c in self.cards:
            v = value(self.play[c])
            if v & (v - 1):
                raise InvalidOutcome(f"card {c} is marked as played in several tricks")
            played[c] = v.bit_length()
        seats = [value(self.winner[t]) for t in range(1, stage.tricks_taken + 1)]
        if any(s >= len(self.spec.players) for s in seats):
            raise InvalidOutcome("a trick winner register holds no player's seat")
        winners = tuple(self.spec.players[s] for s in seats)
        return Snapshot(
            owner=tuple((c, owner[c]) for c in self.cards),
            played=tuple((c, played[c]) for c in self.cards),
            winners=winners,
        )

    def final_declarer_outcome(
        self, sums: Callable[[list[list[tuple[Qubit, int]]]], np.ndarray]
    ) -> tuple[np.ndarray, np.ndarray]:
        """The declarer's points and tricks after the last trick, for many basis states at once.

        ``sums(groups)`` gives, for each group of ``(qubit, weight)`` pairs, the sum of weight
        times the qubit's value in every basis state (shape ``(groups, states)``): a register is
        a group weighted 1, 2, 4, ...; a trick's card points the group of its play qubits
        weighted by the cards' values. This is :meth:`decode` at the final stage followed by
        :meth:`~qcards.skat.position.stages.Snapshot.declarer_points` and ``declarer_tricks``,
        vectorised (the exact engine reads millions of final states this way, through one
        compiled pass: ``SparseState.weighted_bits``); the tests check that they agree on every
        outcome. The states must be valid game states: a card is played in at most one trick,
        and a card in the Skat in none.
        """
        declarer = self.spec.players.index(self.spec.declarer)
        tricks = sorted(self.winner)
        valued = [c for c in self.cards if c.value]
        owned = [c for c in valued if self.spec.owner_of_known(c) is None and self.owner_width]
        groups = [[(q, 1 << b) for b, q in enumerate(self.winner[t])] for t in tricks]
        groups += [[(self.play[c][t - 1], c.value) for c in valued] for t in tricks]
        groups += [[(q, 1 << b) for b, q in enumerate(self.owner[c])] for c in owned]
        values = sums(groups)
        won = values[: len(tricks)] == declarer
        points = np.int64(self.spec.declarer_points) + (
            won * values[len(tricks) : 2 * len(tricks)]
        ).sum(axis=0)
        skat = [i for i, r in enumerate(self.receivers) if r == SKAT]
        owners = iter(values[2 * len(tricks) :])
        for c in valued:
            known = self.spec.owner_of_known(c)
            if known is not None:
                points = points + c.value * (known == SKAT)
            elif self.owner_width:
                points = points + c.value * np.isin(next(owners), skat)
            else:
                points = points + c.value * (self.receivers[0] == SKAT)
        return points, np.int64(self.spec.declarer_tricks) + won.sum(axis=0)

    def final_matadors(
        self, sums: Callable[[list[list[tuple[Qubit, int]]]], np.ndarray], states: int
    ) -> np.ndarray:
        """The declarer's matadors in each of ``states`` basis states: fixed by the spec's
        declaration, or, in a Hand game whose Skat is dealt among the unknown cards, counted
        from the cards each state deals into the Skat (read through ``sums`` as in
        :meth:`final_declarer_outcome`). 0 without a declaration and in null games."""
        declared = self.spec.declaration
        if declared is None or declared.declaration.is_null:
            return np.zeros(states, dtype=np.int64)
        if not declared.per_deal:
            return np.full(states, declared.matadors_of(), dtype=np.int64)
        # only the unknown cards can lie in the Skat; a Skat of the one receiver is fixed
        cards = [c for c in self.cards if self.spec.owner_of_known(c) is None]
        if not self.owner_width:
            return np.full(states, declared.matadors_of(tuple(cards)), dtype=np.int64)
        skat = [i for i, r in enumerate(self.receivers) if r == SKAT]
        owners = sums([[(q, 1 << b) for b, q in enumerate(self.owner[c])] for c in cards])
        in_skat = np.isin(np.asarray(owners).reshape(len(cards), -1), skat)
        # one code per state (which unknown cards lie in the Skat), each distinct one counted once
        codes = np.zeros(in_skat.shape[1], dtype=object)
        for k in range(len(cards)):
            codes = codes + in_skat[k].astype(object) * (1 << k)
        distinct, where = np.unique(codes, return_inverse=True)
        values = np.array(
            [
                declared.matadors_of(tuple(c for k, c in enumerate(cards) if (int(code) >> k) & 1))
                for code in distinct
            ],
            dtype=np.int64,
        )
        return np.broadcast_to(values[where.ravel()], (states,)).copy()

    def final_declarer_points(self, bit: Callable[[Qubit], np.ndarray]) -> np.ndarray:
        """:meth:`final_declarer_outcome`'s points, reading the states through ``bit(q)`` (qubit
        ``q``'s value, 0/1 integers, in every basis state)."""
        return self.final_declarer_outcome(_sums_of_bits(bit))[0]

    def final_declarer_tricks(self, bit: Callable[[Qubit], np.ndarray]) -> np.ndarray:
        """:meth:`final_declarer_outcome`'s tricks, reading the states through ``bit(q)``."""
        return self.final_declarer_outcome(_sums_of_bits(bit))[1]

    def unset_bits(self, stage: Stage) -> int:
        """Outcome bits that are 0 in every game state at ``stage``: the winner registers of
        the tricks not yet taken (which :meth:`decode` does not read)."""
        index = {q: i for i, q in enumerate(self.measured)}
        return sum(
            1 << index[q]
            for t, register in self.winner.items()
            if t > stage.tricks_taken
            for q in register
        )

    def encode(self, snapshot: Snapshot) -> int:
        """The outcome of :attr:`measured` that holds ``snapshot`` (inverse of :meth:`decode`)."""
        index = {q: i for i, q in enumerate(self.measured)}
        out = 0

        def put(reg: Iterable[Qubit], value: int) -> None:
            nonlocal out
            for b, q in enumerate(reg):
                out |= ((value >> b) & 1) << index[q]

        for card, player in snapshot.owner:
            if card in self.owner:
                put(self.owner[card], self.receivers.index(player))
        for card, trick in snapshot.played:
            put(self.play[card], (1 << (trick - 1)) if trick else 0)
        for t, player in enumerate(snapshot.winners, start=1):
            put(self.winner[t], self.spec.players.index(player))
        return out

    def register_sizes(self) -> Mapping[str, int]:
        return {r.name: r.size for r in self.registers}


def merge_conditions(*conds: dict[Qubit, int] | None) -> dict[Qubit, int] | None:
    """Conjunction of cubes; ``None`` if any is impossible or two disagree on a qubit."""
    out: dict[Qubit, int] = {}
    for cond in conds:
        if cond is None:
            return None
        for q, v in cond.items():
            if out.setdefault(q, v) != v:
                return None
    return out


def _sums_of_bits(bit: Callable[[Qubit], np.ndarray]):
    """The ``sums`` of :meth:`GameLayout.final_declarer_outcome` from one qubit read at a time."""

    def sums(groups: list[list[tuple[Qubit, int]]]) -> np.ndarray:
        parts = [sum((w * bit(q).astype(np.int64) for q, w in g), np.int64(0)) for g in groups]
        return np.stack(np.broadcast_arrays(*parts)) if parts else np.zeros((0, 1), np.int64)

    return sums
