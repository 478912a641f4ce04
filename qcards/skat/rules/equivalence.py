"""Cards a player holds that are interchangeable in play: which of them it plays (or puts away)
changes no trick, no card point and no outcome.

Two cards of one hand are *equivalent* when they share a suit for following (an effective
suit) and, in a point game, their card points, and no card another player may hold lies between
them in the game's order. The holder never plays two cards to one trick, so the two never meet;
every comparison of one of them with another player's card comes out the same for the other,
so every trick is taken by the same seat with the same card points, under every play model and
double dummy alike. The declarer's discards (:mod:`qcards.analysis.decisions`) and PIMC's
candidate cards (:mod:`qcards.analysis.advice`) are valued once a class.
"""

from __future__ import annotations

from collections.abc import Sequence

from qcards.skat.rules.cards import Card, Rules


def equivalent_cards(rules: Rules, mine: Sequence[Card], others: Sequence[Card], null: bool):
    """Classes of one hand's cards ``mine`` that are interchangeable against ``others`` (every
    card another player may hold, or that lies in the open trick; listing more only splits
    classes, never merges them wrongly): see the module docstring. ``null``: a null game,
    where card points do not count. Returns card -> class id."""
    classes: dict[Card, int] = {}
    groups: dict[str, list[Card]] = {}
    for c in mine:
        groups.setdefault(rules.effective_suit(c), []).append(c)
    next_id = 0
    for suit, cards in groups.items():
        cards.sort(key=rules.strength, reverse=True)
        for i, c in enumerate(cards):
            if i:
                prev = cards[i - 1]
                between = any(
                    rules.effective_suit(o) == suit
                    and rules.strength(c) < rules.strength(o) < rules.strength(prev)
                    for o in others
                )
                if not between and (null or c.value == prev.value):
                    classes[c] = classes[prev]
                    continue
            classes[c] = next_id
            next_id += 1
    return classes
