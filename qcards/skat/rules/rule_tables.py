"""The rules of one kind of game as numpy tables, for the compiled searches.

Both compiled solvers (:mod:`qcards.skat.solvers.double_dummy` and
:mod:`qcards.skat.solvers.fast_referee`) read cards as bits of a 32-bit mask (their index in
:data:`~qcards.skat.rules.cards.FULL_DECK`) and the rules only through these tables: effective suit,
card points, the cards of each effective suit in order of strength, and the "power" of a card
against each led suit that decides tricks. They are built from
:class:`~qcards.skat.rules.cards.Rules` (``effective_suit``, ``strength``) once per kind of game;
the tests check them against ``Rules.trick_winner`` on every three-card trick and
``Rules.legal_cards`` on random hands.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import numpy as np

from qcards.skat.rules.cards import FULL_DECK, SUITS, TRUMP, Card, Rules, Trump

CARD_INDEX: dict[Card, int] = {card: i for i, card in enumerate(FULL_DECK)}
"""Each card's bit in the compiled searches' masks (its index in ``FULL_DECK``)."""


def card_mask(cards) -> int:
    """The mask of ``cards``: bit :data:`CARD_INDEX` of each set."""
    return sum(1 << CARD_INDEX[c] for c in cards)


SUIT_ROWS = (*SUITS, TRUMP)
"""Effective suits as table rows: the four printed suits, then the trumps."""
TRUMP_ROW = SUIT_ROWS.index(TRUMP)


@dataclass(frozen=True)
class RuleTables:
    """The rules of one kind of game as arrays for the compiled searches (:func:`rule_tables`)."""

    power: np.ndarray  # [led suit, card]: 0 cannot take the trick, else higher takes
    eff: np.ndarray  # [card]: effective suit row (index into SUIT_ROWS)
    value: np.ndarray  # [card]: card points
    suit_mask: np.ndarray  # [suit row]: mask of the cards of that effective suit
    order: np.ndarray  # [suit row, k]: cards of the suit, strongest first
    order_len: np.ndarray  # [suit row]
    strength: np.ndarray  # [card]: Rules.strength, the rank inside its effective suit
    sort_rank: np.ndarray  # [card]: the position in Rules.sort_key's order (legal cards' order)

    @property
    def packed(self) -> tuple[np.ndarray, ...]:
        """The one rule argument of the compiled searches (the double-dummy search, the fast
        referee): ``(power, eff, value, suit_mask, order, order_len)``, which a kernel
        unpacks in that order."""
        return (self.power, self.eff, self.value, self.suit_mask, self.order, self.order_len)


@cache
def rule_tables(trump: Trump) -> RuleTables:
    """Tables of one kind of game, read from :class:`Rules` (``effective_suit``, ``strength``).

    A trick goes to the card of highest *power* against the led suit: trumps above cards of the
    led suit above everything else (power 0, which never takes a trick), strength deciding
    inside each group; this is ``Rules.beats`` applied card by card.
    """
    rules = Rules(trump)
    eff = np.array([SUIT_ROWS.index(rules.effective_suit(c)) for c in FULL_DECK], dtype=np.int64)
    value = np.array([c.value for c in FULL_DECK], dtype=np.int64)
    strength = [rules.strength(c) for c in FULL_DECK]
    span = max(strength) + 1
    trump_row = TRUMP_ROW
    power = np.zeros((len(SUIT_ROWS), len(FULL_DECK)), dtype=np.int64)
    for led in range(len(SUIT_ROWS)):
        for i in range(len(FULL_DECK)):
            if eff[i] == trump_row:
                power[led, i] = 2 * span + strength[i]
            elif eff[i] == led:
                power[led, i] = span + strength[i]
    suit_mask = np.zeros(len(SUIT_ROWS), dtype=np.int64)
    order = np.full((len(SUIT_ROWS), len(FULL_DECK)), -1, dtype=np.int64)
    order_len = np.zeros(len(SUIT_ROWS), dtype=np.int64)
    for row in range(len(SUIT_ROWS)):
        members = sorted(
            (i for i in range(len(FULL_DECK)) if eff[i] == row), key=lambda i: -strength[i]
        )
        for k, i in enumerate(members):
            suit_mask[row] |= 1 << i
            order[row, k] = i
        order_len[row] = len(members)
    sort_rank = np.empty(len(FULL_DECK), dtype=np.int64)
    for k, card in enumerate(sorted(FULL_DECK, key=rules.sort_key)):
        sort_rank[CARD_INDEX[card]] = k
    return RuleTables(power, eff, value, suit_mask, order, order_len,
                      np.array(strength, dtype=np.int64), sort_rank)  # fmt: skip
