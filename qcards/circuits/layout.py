"""Card-state encodings: the paper's tables and the register layout of qcards' game circuits.

Two different things live here.

**The paper's card codes** (Tables 1, 4 and 6) say where one card is with a few bits. They are
*views*: qcards decodes every measured outcome into card locations and can print it in the
paper's code, so histograms carry the same labels as the paper's figures.

**The game layout** (:class:`GameLayout`) is what the circuits actually act on. A card's location
is not a reversible function of the game's history (e.g. different play orders end with the same
stacks), so a unitary evolution must keep the history. The paper keeps it in auxiliary qubits
(Sec. VI.2-VI.4); qcards keeps it explicitly and minimally, with named registers:

``owner_<card>``
    who was dealt the card, as an index into the receivers of unknown cards (the players, then
    the Skat: :attr:`qcards.spec.Endgame.receivers`; only for unknown cards, and only if there
    is more than one receiver); written by U_ini. A card dealt into the Skat is never played.
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
:meth:`GameLayout.decode` and :meth:`qcards.classical.Snapshot.locations`.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from qiskit.circuit import QuantumCircuit, QuantumRegister, Qubit

from qcards.cards import Card
from qcards.classical import Snapshot, Stage
from qcards.errors import SpecError
from qcards.spec import SKAT, Endgame

Location = tuple[str, str]
"""``("hand" | "table" | "stack", player)``; Table 6's team stack is ``("stack", "team")``, a
card in the Skat is at ``(SKAT, SKAT)``."""


# ----------------------------------------------------------------------------- paper codes


@dataclass(frozen=True)
class CardCode:
    """One of the paper's card-state tables: a location <-> a short bit string.

    Attributes:
        name: the table it comes from.
        width: bits per card.
        players: how many players the table is made for.
    """

    name: str
    width: int
    players: int

    @property
    def title(self) -> str:
        """The table's name as the paper prints it, e.g. ``Table 6``."""
        return f"Table {self.name.removeprefix('table')}"

    def has_skat_code(self, spec: Endgame) -> bool:
        """Whether this table can say "in the Skat" for ``spec``'s players.

        Only Table 1 has a Skat code (player bits 11), and only while no fourth player uses them.
        """
        return self.name == "table1" and len(spec.players) <= 3

    def check_skat(self, spec: Endgame) -> None:
        """Raise :class:`~qcards.errors.SpecError` if ``spec`` has a Skat this table cannot show."""
        if spec.skat_size and not self.has_skat_code(spec):
            beside = " beside four players" if self.name == "table1" else ""
            raise SpecError(
                f"{spec.source}: field 'unknown.sizes.{SKAT}': the paper's {self.title} has no "
                f"code for the skat{beside}; build without paper codes"
            )

    def encode(self, location: Location, spec: Endgame) -> str:
        kind, who = location
        if kind == SKAT:
            if not self.has_skat_code(spec):
                raise ValueError(f"the paper's {self.title} has no code for the skat")
            return "11000"  # Table 1: player bits 11 (the Skat), action 000 (not played)
        seat = spec.players.index(who) if who in spec.players else None
        if self.name == "table4":
            # j0: player A/B; j1 j2: location 00 hand, 10 table, 11 stack (Table 4).
            loc = {"hand": "00", "table": "10", "stack": "11"}[kind]
            return f"{seat}{loc}"
        if self.name == "table6":
            # Table 6: 000/100/010 hand of A/B/C, 001/101/011 table of A/B/C,
            # 111 the declarer's (solo) stack, 110 the defenders' (team) stack.
            if kind == "stack":
                return "111" if who == spec.declarer else "110"
            player_bits = ("00", "10", "01")[seat]
            return player_bits + ("0" if kind == "hand" else "1")
        # Table 1: j0 j1 the player (fore-, middle-, rearhand, skat), j2 j3 j4 the action:
        # hand 000, table 010, stack 110 (the suit-following qubit j4 is left at 0).
        action = {"hand": "000", "table": "010", "stack": "110"}[kind]
        return format(seat, "02b") + action

    def decode(self, bits: str, spec: Endgame) -> Location:
        if len(bits) != self.width:
            raise ValueError(f"{self.name} codes have {self.width} bits, got {bits!r}")
        if self.name == "table4":
            kind = {"00": "hand", "10": "table", "11": "stack"}.get(bits[1:])
            if kind is None:
                raise ValueError(f"{bits!r} is not a Table 4 card state")
            return kind, spec.players[int(bits[0])]
        if self.name == "table6":
            if bits == "111":
                return "stack", spec.declarer
            if bits == "110":
                return "stack", "team"
            seat = ("00", "10", "01").index(bits[:2])
            return ("hand" if bits[2] == "0" else "table"), spec.players[seat]
        kind = {"000": "hand", "010": "table", "110": "stack"}.get(bits[2:])
        if kind is None:
            raise ValueError(f"{bits!r} is not a Table 1 card state")
        if bits[:2] == "11" and self.has_skat_code(spec):
            if kind != "hand":
                raise ValueError(f"{bits!r} is not a Table 1 card state (the Skat is not played)")
            return SKAT, SKAT
        return kind, spec.players[int(bits[:2], 2)]

    @property
    def table_bit(self) -> int:
        """The one bit that changes when a card goes from its owner's hand to the table."""
        return {"table4": 1, "table6": 2, "table1": 3}[self.name]

    def normalise(self, location: Location, spec: Endgame) -> Location:
        """The location as this code can tell it (Table 6 merges the defenders' stacks)."""
        if self.name == "table6" and location[0] == "stack" and location[1] != spec.declarer:
            return "stack", "team"
        return location


TABLE1 = CardCode("table1", 5, 4)
TABLE4 = CardCode("table4", 3, 2)
TABLE6 = CardCode("table6", 3, 3)


def paper_code(spec: Endgame) -> CardCode:
    """The paper's code for a spec: Table 4 for two players, Table 6 for three, else Table 1.

    Raises:
        SpecError: the spec has a Skat, which that table cannot represent.
    """
    code = {2: TABLE4, 3: TABLE6}.get(len(spec.players), TABLE1)
    code.check_skat(spec)
    return code


def paper_label(snapshot: Snapshot, spec: Endgame, code: CardCode | None = None) -> str:
    """The outcome written as the paper writes it: one code per card, in the paper's card order."""
    code = code or paper_code(spec)
    where = snapshot.locations()
    return " ".join(code.encode(where[c], spec) for c in spec.cards)


def readable_label(snapshot: Snapshot, spec: Endgame) -> str:
    """The outcome in words: hands, table, stacks and the Skat.

    For example ``A:CK | table B:C9 | stack A:CA | skat:C7,D8``.
    """
    where = snapshot.locations()
    parts = []
    for kind, title in (("hand", ""), ("table", "table "), ("stack", "stack ")):
        groups = []
        for p in spec.players:
            cards = [str(c) for c in spec.cards if where[c] == (kind, p)]
            if cards:
                groups.append(f"{p}:{','.join(cards)}")
        if groups:
            parts.append(title + " ".join(groups))
    skat = [str(c) for c in spec.cards if where[c] == (SKAT, SKAT)]
    if skat:
        parts.append(f"{SKAT}:{','.join(skat)}")
    return " | ".join(parts)


# ----------------------------------------------------------------------------- game layout


class InvalidOutcome(ValueError):
    """A measured outcome that no game state encodes (only noise can produce one)."""


def _bits_for(count: int) -> int:
    return max(1, math.ceil(math.log2(count))) if count > 1 else 0


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
        rules = spec.rules
        self.suits: tuple[str, ...] = tuple(
            dict.fromkeys(rules.effective_suit(c) for c in spec.cards)
        )
        self.held = QuantumRegister(max(len(spec.cards), deal_ancillas), "held")
        self.led = QuantumRegister(len(self.suits), "led")
        self.count = QuantumRegister(max(1, spec.hand_size.bit_length()), "count")
        self.scratch = QuantumRegister(3, "scratch")
        self.void, self.done, self.pick = self.scratch
        self.registers = [self.held, self.led, self.count, self.scratch]

    def of_suit(self, suit: str) -> Qubit:
        """The qubit of ``led`` for effective suit ``suit``."""
        return self.led[self.suits.index(suit)]

    @property
    def num_qubits(self) -> int:
        return sum(r.size for r in self.registers)


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
        self.owner_width = self.owner_width_for(spec)
        self.winner_width = _bits_for(len(spec.players))
        self.owner: dict[Card, QuantumRegister] = {}
        if self.owner_width:
            for c in spec.unknown:
                self.owner[c] = QuantumRegister(self.owner_width, f"owner_{c}")
        self.play = {c: QuantumRegister(self.num_tricks, f"play_{c}") for c in self.cards}
        self.winner = {
            t: QuantumRegister(self.winner_width, f"winner_{t}")
            for t in range(1, self.num_tricks + 1)
        }
        self.flag = QuantumRegister(1, "flag")
        self.code = paper_code(spec) if paper_codes else None
        self.card: dict[Card, QuantumRegister] = {}
        if self.code is not None:
            self.card = {c: QuantumRegister(self.code.width, f"card_{c}") for c in self.cards}
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

    @staticmethod
    def owner_width_for(spec: Endgame) -> int:
        """Qubits per owner register: enough to index the players receiving unknown cards."""
        return _bits_for(len(spec.receivers))

    def code_label(self, outcome: int) -> str:
        """Read the paper's card codes straight from an outcome of :attr:`card_qubits`."""
        codes = []
        for k in range(len(self.cards)):
            width = self.code.width
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
