"""Cards, card values and the Skat trick-taking rules.

Pure Python (no qiskit): the classical referee and the circuit builders both read the rules from
here, so there is exactly one definition of who wins a trick and which cards may be played.

Conventions: a card is written ``<suit><rank>`` with suits ``C S H D`` (clubs, spades, hearts,
diamonds) and ranks ``A 10 K Q J 9 8 7``; the symbols ``♣ ♠ ♥ ♦`` are accepted on input.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import Enum

SUITS = ("C", "S", "H", "D")
"""Suit letters, highest first (the order of the jacks as trumps)."""

SUIT_NAMES = {"C": "clubs", "S": "spades", "H": "hearts", "D": "diamonds"}
_SUIT_SYMBOLS = {"♣": "C", "♠": "S", "♥": "H", "♦": "D", "♧": "C", "♤": "S", "♡": "H", "♢": "D"}

RANKS = ("A", "10", "K", "Q", "J", "9", "8", "7")
"""Ranks in the order of the paper's Table 2 columns reversed (highest value first)."""

CARD_VALUES = {"A": 11, "10": 10, "K": 4, "Q": 3, "J": 2, "9": 0, "8": 0, "7": 0}
"""Card points, Table 2 of the paper: 30 per suit, 120 in the deck."""

# Strength of the ranks inside a plain (non-trump) suit when jacks are trumps (suit and grand
# games), and in a game without trumps, where the jack keeps its place between queen and nine.
_PLAIN_ORDER_WITHOUT_JACK = ("A", "10", "K", "Q", "9", "8", "7")
_PLAIN_ORDER_WITH_JACK = ("A", "10", "K", "Q", "J", "9", "8", "7")
# Null games (ISkO 2.3.4): no trumps, the jacks rank in their suits and the ten between the jack
# and the nine.
NULL_ORDER = ("A", "K", "Q", "J", "10", "9", "8", "7")


class CardError(ValueError):
    """A card name that cannot be parsed."""


@dataclass(frozen=True, order=True)
class Card:
    """A card of the 32-card Skat deck."""

    suit: str
    rank: str

    def __post_init__(self) -> None:
        if self.suit not in SUITS:
            raise CardError(f"unknown suit {self.suit!r} (expected one of {' '.join(SUITS)})")
        if self.rank not in RANKS:
            raise CardError(f"unknown rank {self.rank!r} (expected one of {' '.join(RANKS)})")
        # the hash, worked out once: cards key the rule tables and every set of cards, and the
        # dataclass's own hash (of the fields' tuple) was a sixth of a learned player's time.
        # The card's place in the deck, so it is the same in every process (a pickled card
        # carries it to a Dask worker) and equal cards hash alike.
        place = SUITS.index(self.suit) * len(RANKS) + RANKS.index(self.rank)
        object.__setattr__(self, "_hash", place)

    def __hash__(self) -> int:
        return self._hash  # type: ignore[attr-defined]

    @classmethod
    def parse(cls, text: str) -> Card:
        """Parse ``"CA"``, ``"h10"``, ``"♠J"`` and similar into a card."""
        known = _PARSED.get(text) if isinstance(text, str) else None
        if known is not None and cls is Card:  # cards are immutable: one object a name
            return known
        if not isinstance(text, str) or len(text.strip()) < 2:
            raise CardError(f"unknown card {text!r}: write <suit><rank>, e.g. CA, H10, SJ")
        raw = text.strip()
        suit = _SUIT_SYMBOLS.get(raw[0], raw[0].upper())
        rank = raw[1:].upper()
        if suit not in SUITS or rank not in RANKS:
            raise CardError(
                f"unknown card {text!r}: write <suit><rank> with suit in C S H D (or ♣ ♠ ♥ ♦) "
                f"and rank in {' '.join(RANKS)}"
            )
        return cls(suit, rank)

    @property
    def value(self) -> int:
        """Card points (Table 2)."""
        return CARD_VALUES[self.rank]

    def __str__(self) -> str:
        return f"{self.suit}{self.rank}"

    def __repr__(self) -> str:
        return f"Card('{self}')"


FULL_DECK: tuple[Card, ...] = tuple(Card(s, r) for s in SUITS for r in RANKS)

_PARSED: dict[str, Card] = {str(c): c for c in FULL_DECK}
"""The cards by their plain names (what records and specs mostly write), parsed once."""


class Trump(Enum):
    """The kinds of game that decide which cards are trumps."""

    CLUBS = "clubs"
    SPADES = "spades"
    HEARTS = "hearts"
    DIAMONDS = "diamonds"
    GRAND = "grand"
    NONE = "none"
    NULL = "null"
    NULL_OUVERT = "null-ouvert"

    @property
    def suit(self) -> str | None:
        """The trump suit letter of a suit game, else ``None``."""
        return {"clubs": "C", "spades": "S", "hearts": "H", "diamonds": "D"}.get(self.value)

    @property
    def is_null(self) -> bool:
        """A null game: the declarer wins by taking no trick at all (ISkO 5.2.7).

        Null ouvert is the same game with the declarer's hand laid open before the first trick;
        an endgame spec knows the declarer's hand anyway, so both evaluate alike.
        """
        return self in (Trump.NULL, Trump.NULL_OUVERT)

    @classmethod
    def parse(cls, text: str) -> Trump:
        try:
            return cls(str(text).lower())
        except ValueError:
            kinds = " | ".join(t.value for t in cls)
            raise ValueError(f"unknown trump {text!r} (expected {kinds})") from None


TRUMP = "T"
"""Pseudo-suit of all trumps: in suit and grand games the jacks follow trump, not their suit."""


class Rules:
    """Trick-taking rules for one kind of game.

    Args:
        trump: which cards are trumps. Suit game: the four jacks (clubs > spades > hearts >
            diamonds) then the trump suit A 10 K Q 9 8 7. Grand: only the jacks. ``none``: no
            trumps, every suit ranks A 10 K Q J 9 8 7. ``null`` and ``null-ouvert``: no trumps,
            every suit ranks A K Q J 10 9 8 7 (ISkO 2.3.4: in null games the jacks belong to
            their suits and the ten sits between the jack and the nine).
    """

    def __init__(self, trump: Trump) -> None:
        self.trump = trump
        # every card's trump flag, suit for following and strength, looked up rather than
        # worked out: the circuits' tables and the decisions ask millions of times
        self._trump = {c: self._is_trump(c) for c in FULL_DECK}
        self._suit = {c: TRUMP if self._trump[c] else c.suit for c in FULL_DECK}
        self._strength = {c: self._rank(c) for c in FULL_DECK}

    def _is_trump(self, card: Card) -> bool:
        if self.trump is Trump.NONE or self.trump.is_null:
            return False
        return card.rank == "J" or card.suit == self.trump.suit

    def is_trump(self, card: Card) -> bool:
        return self._trump[card]

    def effective_suit(self, card: Card) -> str:
        """The suit a card belongs to for following suit: :data:`TRUMP` or its printed suit."""
        return self._suit[card]

    def strength(self, card: Card) -> int:
        """Rank of a card inside its effective suit; higher beats lower."""
        return self._strength[card]

    def _rank(self, card: Card) -> int:
        if self.trump is Trump.NONE:
            return len(_PLAIN_ORDER_WITH_JACK) - _PLAIN_ORDER_WITH_JACK.index(card.rank)
        if self.trump.is_null:
            return len(NULL_ORDER) - NULL_ORDER.index(card.rank)
        if card.rank == "J":
            return 100 + (len(SUITS) - SUITS.index(card.suit))
        return len(_PLAIN_ORDER_WITHOUT_JACK) - _PLAIN_ORDER_WITHOUT_JACK.index(card.rank)

    def beats(self, challenger: Card, best: Card, led_suit: str) -> bool:
        """Whether ``challenger`` takes the trick from the card ``best`` currently winning it."""
        c_suit, b_suit = self.effective_suit(challenger), self.effective_suit(best)
        if c_suit == b_suit:
            return self.strength(challenger) > self.strength(best)
        return c_suit == TRUMP or (c_suit == led_suit and b_suit != TRUMP and b_suit != led_suit)

    def stronger(self, card: Card, cards: Iterable[Card]) -> tuple[Card, ...]:
        """Cards of ``cards`` that beat ``card`` whenever both lie on the table of one trick:
        those that :meth:`beats` it when its own suit was led (higher cards of its effective
        suit, and every trump when it is a plain card)."""
        suit = self.effective_suit(card)
        return tuple(other for other in cards if self.beats(other, card, suit))

    def trick_winner(self, cards_in_play_order: Sequence[Card]) -> int:
        """Index (in play order) of the card that takes the trick; the first card was led."""
        return _trick_winner(self.trump, tuple(cards_in_play_order))

    def _trick_winner(self, cards_in_play_order: Sequence[Card]) -> int:
        led = self.effective_suit(cards_in_play_order[0])
        best = 0
        for i in range(1, len(cards_in_play_order)):
            if self.beats(cards_in_play_order[i], cards_in_play_order[best], led):
                best = i
        return best

    def legal_cards(self, hand: Iterable[Card], led: Card | None) -> tuple[Card, ...]:
        """Cards of ``hand`` that may be played: follow the led (effective) suit if possible."""
        cards = tuple(sorted(hand, key=self.sort_key))
        if led is None:
            return cards
        suit = self.effective_suit(led)
        following = tuple(c for c in cards if self.effective_suit(c) == suit)
        return following or cards

    def may_play(self, hand: Iterable[Card], led: Card, card: Card) -> bool:
        """Whether ``card`` of ``hand`` may go to a trick led by ``led``: it follows the led
        (effective) suit, or the hand has none of it (:meth:`legal_cards` without the sort)."""
        suit = self.effective_suit(led)
        return self.effective_suit(card) == suit or all(
            self.effective_suit(c) != suit for c in hand
        )

    def sort_key(self, card: Card) -> tuple[int, int]:
        """Paper order (Fig. 3 chains): trumps first, then C S H D, strongest first in each."""
        suit = self.effective_suit(card)
        group = 0 if suit == TRUMP else 1 + SUITS.index(suit)
        return (group, -self.strength(card))

    def sorted(self, cards: Iterable[Card]) -> tuple[Card, ...]:
        return tuple(sorted(cards, key=self.sort_key))


def points(cards: Iterable[Card]) -> int:
    return sum(c.value for c in cards)


@functools.cache
def rules_of(trump: Trump) -> Rules:
    """The one :class:`Rules` of a kind of game (it holds no state beyond its tables)."""
    return Rules(trump)


@functools.lru_cache(maxsize=2**18)
def _trick_winner(trump: Trump, cards: tuple[Card, ...]) -> int:
    """:meth:`Rules.trick_winner`, remembered: the same tables recur across plays and specs."""
    return rules_of(trump)._trick_winner(cards)
