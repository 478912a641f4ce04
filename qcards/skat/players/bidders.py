"""The bidders of a match: how a seat bids and, as the declarer, declares.

A bidder answers two questions: :meth:`Bidder.limit`, the game a ten-card hand bids with and
the highest bid it makes (``None``: pass), and :meth:`Bidder.declare`, the declarer's choice
at the bid it won: Hand or a pick-up, the game and the discard. Two are built in
(:data:`BIDDERS`):

``rules``
    the club rules of :mod:`qcards.skat.rules.bidding_rules` (always a pick-up);
``qcards``
    qcards' own: the hand evaluator's expected score (:class:`~qcards.skat.learned.hand_value.
    HandEvaluator`), Hand games included.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from qcards.errors import ParameterError
from qcards.skat.learned.hand_value import Choice, HandEvaluator
from qcards.skat.rules import bidding_rules
from qcards.skat.rules.bidding_rules import Plan
from qcards.skat.rules.cards import Card

RULES = "rules"
QCARDS = "qcards"


class Bidder(Protocol):
    def limit(self, hand: tuple[Card, ...], seat: int) -> Plan | None:
        """The game ``hand`` (ten cards, at ``seat``: 0 forehand) bids with and its highest
        bid; ``None`` to pass."""
        ...

    def declare(
        self, hand: tuple[Card, ...], skat: tuple[Card, ...], bid: int, seat: int
    ) -> Choice:
        """The declarer's choice at ``bid``: a Hand game (``skat`` unseen, its cards the
        choice's ``away``) or the game and discard after picking ``skat`` up."""
        ...


@dataclass(frozen=True)
class RulesBidder:
    """The club rules (:mod:`qcards.skat.rules.bidding_rules`): always a pick-up."""

    def limit(self, hand, seat: int) -> Plan | None:
        return bidding_rules.limit(hand)

    def declare(self, hand, skat, bid: int, seat: int) -> Choice:
        game, discard = bidding_rules.declare((*hand, *skat), bid)
        return Choice(game, False, discard, float("nan"))


BIDDERS: dict[str, Bidder] = {RULES: RulesBidder(), QCARDS: HandEvaluator()}


def get_bidder(name: str) -> Bidder:
    """The bidder called ``name`` (:class:`ParameterError` naming ``bidding`` otherwise)."""
    if name not in BIDDERS:
        raise ParameterError(
            "bidding", f"{{bidding}} {name!r}: unknown bidder (expected {', '.join(BIDDERS)})"
        )
    return BIDDERS[name]
