"""The compiled twin of :class:`qcards.skat.rules.table.Table`'s transition, for the numba searches.

The searches hold cards as bits of a mask (:data:`qcards.skat.rules.rule_tables.CARD_INDEX`) and the
rules as :class:`~qcards.skat.rules.rule_tables.RuleTables`; these functions are the table's two
rules on that encoding (which cards may be played, which card takes the trick), so that every
compiled search asks them rather than spelling them again. A test plays random games on
:class:`~qcards.skat.rules.table.Table` and holds these equal to it on every legal move.
"""

from __future__ import annotations

from qcards.skat.compiled.jit import njit

LEADING = -1
"""The led suit row of a trick not yet led: every card of the hand may be played."""


@njit
def legal_mask(hand, led, suit_mask):
    """The cards of ``hand`` (a mask) that may be played to a trick whose led effective suit
    is row ``led`` (:data:`LEADING` for a lead): those of that suit, or every card when the
    hand has none (:meth:`qcards.skat.rules.cards.Rules.legal_cards`)."""
    if led < 0:
        return hand
    follow = hand & suit_mask[led]
    return follow if follow != 0 else hand


@njit
def takes(card, winning, led, power):
    """Whether ``card`` takes the trick from ``winning``, the card winning it so far, when
    effective suit row ``led`` was led (:meth:`qcards.skat.rules.cards.Rules.beats`)."""
    return power[led, card] > power[led, winning]


@njit
def trick_taker(cards, count, eff, power):
    """Where in play order the card that takes the trick ``cards[:count]`` lies (the first
    was led; :meth:`qcards.skat.rules.cards.Rules.trick_winner`)."""
    led = eff[cards[0]]
    best = 0
    for i in range(1, count):
        if takes(cards[i], cards[best], led, power):
            best = i
    return best
