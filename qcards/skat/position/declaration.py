"""A spec's ``[declaration]``: how the game in play was declared, so that it can be scored.

::

    trump = "grand"                  # the game is the spec's trump
    [declaration]
    hand = true                      # played without picking up the Skat
    announced = ["schneider"]        # Hand games only (null: "ouvert")
    bid = 24
    cards = [...]                    # the declarer's ten cards at the first trick (default:
                                     # its hand, when the spec starts at the first trick): its
                                     # hand and the cards it has played, none of them unknown,
                                     # in another hand or put away
    discard = ["HQ", "SA"]           # the two cards put away (not Hand): out of play, their
                                     # points count for the declarer
    matadors = -2                    # instead of cards: "with"/"without" N, when known

The matadors (:func:`qcards.skat.rules.scoring.matadors`) count over the declarer's twelve cards:
the
ten dealt and the Skat. After a pick-up they are ``cards`` and ``discard``; in a Hand game the
Skat is never seen, so when it is among the spec's unknown cards the matadors are a property of
each deal (:meth:`SpecDeclaration.matadors_of`), and an expected score averages over them.

Pure Python; :mod:`qcards.skat.position.spec` reads the table through :func:`parse_declaration`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from qcards.errors import SpecError
from qcards.skat.rules.cards import Card, CardError, Trump, points
from qcards.skat.rules.scoring import TRICKS, Declaration, ScoringError, matadors

FIELDS = frozenset({"hand", "announced", "bid", "cards", "discard", "matadors"})

GAME_OF_TRUMP = {
    Trump.CLUBS: "clubs",
    Trump.SPADES: "spades",
    Trump.HEARTS: "hearts",
    Trump.DIAMONDS: "diamonds",
    Trump.GRAND: "grand",
    Trump.NULL: "null",
    Trump.NULL_OUVERT: "null",
}
"""The ISkO game each kind of game of a spec is (``none``, no trumps, is no Skat game)."""


@dataclass(frozen=True)
class SpecDeclaration:
    """The declaration of a spec's game and what its matadors are made of.

    Attributes:
        declaration: game, Hand, announcements and bid
            (:class:`~qcards.skat.rules.scoring.Declaration`).
        cards: the declarer's ten cards as dealt (empty when ``fixed`` is given instead).
        discard: the two cards put away after the pick-up (empty in Hand games).
        fixed: the matadors when given directly (``None``: counted from the cards).
        skat_unknown: the Skat is among the spec's unknown cards (a Hand game): the matadors
            are counted per deal.
    """

    declaration: Declaration
    cards: tuple[Card, ...] = ()
    discard: tuple[Card, ...] = ()
    fixed: int | None = None
    skat_unknown: bool = False

    @property
    def per_deal(self) -> bool:
        """Whether the matadors depend on the deal (the unknown Skat's cards count)."""
        return self.fixed is None and self.skat_unknown

    def matadors_of(self, skat: Sequence[Card] = ()) -> int:
        """The matadors when the Skat holds ``skat`` (used only when :attr:`per_deal`)."""
        if self.fixed is not None:
            return self.fixed
        return matadors((*self.cards, *self.discard, *skat), self.declaration.game)

    def to_toml_lines(self) -> list[str]:
        d = self.declaration

        def cards(cs: Sequence[Card]) -> str:
            return "[" + ", ".join(f'"{c}"' for c in cs) + "]"

        announced = [a for a in d.announced if not (d.is_null and a == "ouvert")]
        lines = [
            "[declaration]",
            f"hand = {'true' if d.hand else 'false'}",
            "announced = [" + ", ".join(f'"{a}"' for a in announced) + "]",
            f"bid = {d.bid}",
        ]
        if self.fixed is not None:
            lines.append(f"matadors = {self.fixed}")
        else:
            lines.append(f"cards = {cards(self.cards)}")
        if self.discard:
            lines.append(f"discard = {cards(self.discard)}")
        return lines


def parse_declaration(
    raw: Any,
    spec: Any,
    fail: Callable[[str, str], SpecError],
) -> SpecDeclaration:
    """Read a spec's ``[declaration]`` table against the spec (an
    :class:`~qcards.skat.position.spec.Endgame` without its declaration); every problem is
    ``fail(field, message)``."""
    if not isinstance(raw, dict):
        raise fail("declaration", "must be a table (hand, announced, bid, cards, discard, ...)")
    extra = sorted(set(raw) - FIELDS)
    if extra:
        raise fail(
            f"declaration.{extra[0]}", f"unknown field (allowed: {', '.join(sorted(FIELDS))})"
        )
    game = GAME_OF_TRUMP.get(spec.trump)
    if game is None:
        raise fail("trump", f"{spec.trump.value} is no Skat game: a declaration needs one of "
                   "clubs, spades, hearts, diamonds, grand, null, null-ouvert")  # fmt: skip
    if len(spec.players) != 3:
        raise fail("players", "a declared game is scored by the ISkO, for three players")
    announced = raw.get("announced", [])
    if spec.trump is Trump.NULL_OUVERT and isinstance(announced, list):
        announced = [*announced, "ouvert"] if "ouvert" not in announced else announced
    try:
        declaration = Declaration.make(game, raw.get("hand", False), announced, raw.get("bid", 18))
    except ScoringError as exc:
        raise fail(f"declaration.{exc.field}", exc.reason) from None
    if spec.trump is Trump.NULL and declaration.ouvert:
        raise fail("declaration.announced", 'a null ouvert is trump = "null-ouvert"')

    def card_list(field: str, size: int | None) -> tuple[Card, ...]:
        value = raw[field]
        if not isinstance(value, list):
            raise fail(f"declaration.{field}", 'must be a list of cards like ["CA", "H10"]')
        try:
            cards = tuple(Card.parse(v) for v in value)
        except CardError as exc:
            raise fail(f"declaration.{field}", str(exc)) from None
        if len(set(cards)) != len(cards):
            raise fail(f"declaration.{field}", "a card is listed twice")
        if size is not None and len(cards) != size:
            raise fail(f"declaration.{field}", f"must list {size} cards")
        return cards

    in_play = set(spec.unknown) | {c for p in spec.players for c in spec.hands[p]}
    discard: tuple[Card, ...] = ()
    skat_unknown = spec.skat_size > 0
    if declaration.hand:
        if "discard" in raw:
            raise fail("declaration.discard", "a Hand game is played without picking up the "
                       "Skat, so nothing is put away")  # fmt: skip
    else:
        if skat_unknown:
            raise fail(
                "unknown.sizes.skat",
                "the game is not Hand, so the declarer has picked up the Skat and knows the "
                "two cards put away: give them as declaration.discard instead of unknown Skat "
                "cards",
            )
        if "discard" in raw:
            discard = card_list("discard", 2)
            for c in discard:
                if c in in_play:
                    raise fail("declaration.discard", f"{c} is put away, so it is not in play")
    fixed = raw.get("matadors")
    if fixed is not None:
        if isinstance(fixed, bool) or not isinstance(fixed, int):
            raise fail("declaration.matadors", f"must be a whole number, got {fixed!r}")
        if declaration.is_null:
            raise fail("declaration.matadors", "a null game has no matadors")
        top = 4 if game == "grand" else 11
        if not 1 <= abs(fixed) <= top:
            raise fail("declaration.matadors", f"must be +N (with) or -N (without), N in 1..{top}")
        if "cards" in raw:
            raise fail("declaration.matadors", "give cards or matadors, not both")
    cards: tuple[Card, ...] = ()
    if "cards" in raw:
        cards = card_list("cards", None)
        if not set(spec.hands[spec.declarer]) <= set(cards) or len(cards) > TRICKS:
            raise fail(
                "declaration.cards",
                f"must list the declarer's cards at the first trick ({TRICKS} in a game of "
                "Skat; fewer in a smaller model game), its hand among them",
            )
        # beyond its hand, the cards the declarer has played: out of play, and not put away
        elsewhere = {c: "unknown.cards" for c in spec.unknown}
        for p in spec.players:
            if p != spec.declarer:
                elsewhere |= {c: f"hands.{p}" for c in spec.hands[p]}
        elsewhere |= {c: "declaration.discard" for c in discard}
        for c in cards:
            if c in elsewhere:
                raise fail(
                    "declaration.cards",
                    f"{c} is in {elsewhere[c]} as well: the declarer's cards at the first trick "
                    "are its hand and the cards it has played since",
                )
    elif spec.hand_size == TRICKS and spec.sizes.get(spec.declarer, 0) == 0:
        cards = spec.hands[spec.declarer]  # the spec starts at the first trick
    if fixed is None and not declaration.is_null:
        # the twelve cards: the ten at the first trick and the discard, or (Hand) the Skat
        if not cards:
            raise fail(
                "declaration.matadors",
                "missing: the spec does not start at the first trick, so the declarer's cards "
                "are not all known; give cards (its ten at the first trick) or matadors = N "
                "(with) or -N (without)",
            )
        if not declaration.hand and not discard:
            raise fail("declaration.discard", "missing: the matadors count the two cards put "
                       "away; give them, or matadors = N (with) or -N (without)")  # fmt: skip
        if declaration.hand and not skat_unknown:
            raise fail(
                "declaration.matadors",
                "missing: a Hand game counts the Skat's cards as matadors, and this spec deals "
                "no Skat; give matadors = N (with) or -N (without)",
            )
    if spec.declarer_tricks > TRICKS - spec.hand_size:
        raise fail(
            "declarer_tricks",
            f"{spec.declarer_tricks} tricks taken, but only {TRICKS - spec.hand_size} of the "
            f"{TRICKS} have been played (a declared game counts every trick for Schwarz)",
        )
    return SpecDeclaration(declaration, cards, discard, fixed, skat_unknown)


def discard_points(declaration: SpecDeclaration | None) -> int:
    """Card points the discard adds to the declarer's (0 without a declaration)."""
    return points(declaration.discard) if declaration else 0


def deal_matadors(declared: SpecDeclaration | None, owner: Mapping[Card, str]) -> int:
    """A declared game's matadors on one deal (card -> receiver): the Skat's cards count in a
    Hand game whose Skat is unknown; 0 in null games and without a declaration."""
    if declared is None or declared.declaration.is_null:
        return 0
    return declared.matadors_of(skat_of(owner))


def skat_of(owner: Mapping[Card, str], skat: str = "skat") -> tuple[Card, ...]:
    """The cards a deal (card -> receiver) puts into the Skat."""
    return tuple(c for c, who in owner.items() if who == skat)
