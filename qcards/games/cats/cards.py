"""The Philosopher Cats deck: 52 cards and two jokers, their colours and who dominates whom.

Cards are written rank first, as players say them: ``7H``, ``AS``, ``10D``, ``QC`` and
``JOKER``; suit letters ``C S H D`` (or the symbols), any case. Hearts and diamonds are red,
clubs and spades black. A joker has no colour of its own: it takes the colour the dealer did
*not* call.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum

from qcards.games.cats.errors import CatsError
from qcards.skat.rules.cards import SUITS

RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
"""Ranks from low to high; the ace also sits above the king (the order is cyclic)."""

_SYMBOLS = {"♣": "C", "♠": "S", "♥": "H", "♦": "D", "♧": "C", "♤": "S", "♡": "H", "♢": "D"}
JOKER_NAME = "JOKER"
JOKERS_IN_DECK = 2


class Colour(StrEnum):
    """A card colour, which is also what a player guesses and what the dealer calls."""

    RED = "red"
    BLACK = "black"

    @property
    def other(self) -> Colour:
        return Colour.BLACK if self is Colour.RED else Colour.RED


COLOURS = (Colour.RED, Colour.BLACK)
_SUIT_COLOURS = {"C": Colour.BLACK, "S": Colour.BLACK, "H": Colour.RED, "D": Colour.RED}


@dataclass(frozen=True)
class CatCard:
    """One card: a rank and a suit, or a joker (both ``None``)."""

    rank: str | None
    suit: str | None

    def __post_init__(self) -> None:
        if (self.rank is None) != (self.suit is None):
            raise CatsError("a card has both a rank and a suit, or neither (a joker)")
        if self.rank is not None and (self.rank not in RANKS or self.suit not in SUITS):
            raise CatsError(f"no such card: rank {self.rank!r}, suit {self.suit!r}")

    @classmethod
    def parse(cls, text: str) -> CatCard:
        """Parse ``"7H"``, ``"10d"``, ``"A♠"`` or ``"JOKER"``."""
        raw = text.strip().upper() if isinstance(text, str) else ""
        if raw == JOKER_NAME:
            return JOKER
        rank, suit = raw[:-1], _SYMBOLS.get(raw[-1:], raw[-1:])
        if rank not in RANKS or suit not in SUITS:
            raise CatsError(
                f"unknown card {text!r}: write <rank><suit> with rank in {' '.join(RANKS)} and "
                f"suit in {' '.join(SUITS)} (e.g. 7H, AS, 10D), or JOKER"
            )
        return cls(rank, suit)

    @property
    def is_joker(self) -> bool:
        return self.rank is None

    @property
    def colour(self) -> Colour | None:
        """The printed colour; ``None`` for a joker (see :meth:`colour_under`)."""
        return None if self.suit is None else _SUIT_COLOURS[self.suit]

    def colour_under(self, call: Colour) -> Colour:
        """The colour that counts once the dealer has called ``call`` (a joker: the other one)."""
        return self.colour or call.other

    def dominates(self, other: CatCard) -> bool:
        """Whether this cat dominates ``other``: the same rank in another suit, or one rank
        lower in the same suit, the ace both above the king and below the two. Jokers neither
        dominate nor are dominated (the rules give them no rank)."""
        if self.is_joker or other.is_joker or self == other:
            return False
        if self.rank == other.rank:
            return True
        step = (RANKS.index(self.rank) - RANKS.index(other.rank)) % len(RANKS)
        return self.suit == other.suit and step == 1

    def __str__(self) -> str:
        return JOKER_NAME if self.is_joker else f"{self.rank}{self.suit}"


JOKER = CatCard(None, None)
DECK: tuple[CatCard, ...] = (
    tuple(CatCard(r, s) for s in SUITS for r in RANKS) + (JOKER,) * JOKERS_IN_DECK
)
"""The full deck, one entry per physical card (so the joker appears twice)."""


def parse_cards(texts: Iterable[str]) -> tuple[CatCard, ...]:
    """Parse cards dealt from one deck: no card twice, at most two jokers."""
    cards = tuple(CatCard.parse(t) for t in texts)
    check_deal(cards)
    return cards


def check_deal(cards: Sequence[CatCard]) -> None:
    """Raise :class:`CatsError` unless ``cards`` could come from one deck."""
    if not cards:
        raise CatsError("no cards: give one card per player (besides the dealer)")
    for card in set(cards):
        limit = JOKERS_IN_DECK if card.is_joker else 1
        if cards.count(card) > limit:
            raise CatsError(f"{card} dealt {cards.count(card)} times; the deck has {limit}")


def colours_under(cards: Sequence[CatCard], call: Colour) -> tuple[Colour, ...]:
    """Every player's colour once ``call`` is made (jokers take the colour not called)."""
    return tuple(card.colour_under(call) for card in cards)


def true_calls(cards: Sequence[CatCard]) -> tuple[Colour, ...]:
    """The calls the dealer may make: colours printed on at least one card (a joker never
    makes "at least one of you is X" true, since it counts as the colour not called)."""
    return tuple(c for c in COLOURS if any(card.colour is c for card in cards))
