"""The paper's card codes (Tables 1, 4 and 6) and the labels of decoded outcomes.

A card code says where one card is with a few bits. Codes are *views*: qcards decodes every
measured outcome into card locations (:meth:`qcards.circuits.layout.GameLayout.decode`) and can
print it in the paper's code, so histograms carry the same labels as the paper's figures. The
circuits themselves act on the registers of :mod:`qcards.circuits.layout`; only the paper
construction with ``paper_codes=True`` also keeps these codes in ``card_<c>`` registers.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import cast

from qcards.errors import SpecError
from qcards.skat.position.spec import SKAT, Endgame
from qcards.skat.position.stages import Snapshot

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
            player_bits = ("00", "10", "01")[cast(int, seat)]  # a hand or table: a player's
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
