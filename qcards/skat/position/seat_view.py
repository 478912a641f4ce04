"""What the seat to move sees, and policies over it: the interface every play model's policy
implements (:mod:`qcards.skat.players.play_models`), and the one the searches that weigh plays by a
policy call (:mod:`qcards.skat.solvers.outcome_distributions`,
:mod:`qcards.skat.solvers.monte_carlo`, :mod:`qcards.skat.players.best_response`)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property

from qcards.skat.rules.cards import Card, Rules
from qcards.skat.rules.table import Table, shown_voids
from qcards.skat.rules.turns import seat_to_move, winner_seat


@dataclass(frozen=True)
class SeatView:
    """What the seat to move knows when it chooses a card.

    Attributes:
        rules: the game's rules.
        seat: the seat to move (0 is the declarer).
        players: the number of seats.
        hand: the seat's cards.
        trick: the cards of the current trick so far, in play order.
        leader: the seat that led the current trick.
        played: the cards of the finished tricks.
        out: the cards the seat cannot see: the other hands and the Skat it does not know.
        tricks: the finished tricks in the order they were played, each its leader and its
            cards in play order: who played which card of :attr:`played`, as far as the
            engine that built the view has seen the game (an endgame spec's engines see it
            from the spec's first trick; a match from the game's). Empty for a view built
            without them (:func:`seat_view` with no ``tricks``); policies that read it say so
            (:func:`reads_history`).
    """

    rules: Rules
    seat: int
    players: int
    hand: frozenset[Card]
    trick: tuple[Card, ...]
    leader: int
    played: frozenset[Card]
    out: frozenset[Card]
    tricks: tuple[tuple[int, tuple[Card, ...]], ...] = ()

    @property
    def legal(self) -> tuple[Card, ...]:
        return self.rules.legal_cards(self.hand, self.trick[0] if self.trick else None)

    @property
    def declarer(self) -> bool:
        return self.seat == 0

    @property
    def last(self) -> bool:
        """Whether the seat plays the trick's last card."""
        return len(self.trick) == self.players - 1

    def winning(self) -> tuple[int, Card] | None:
        """The seat and card that win the current trick so far (``None`` when leading)."""
        if not self.trick:
            return None
        index = self.rules.trick_winner(self.trick)
        return seat_to_move(self.leader, index, self.players), self.trick[index]

    def friend(self, seat: int) -> bool:
        """Whether ``seat`` plays on the mover's side (the declarer alone, or the defenders)."""
        return (seat == 0) == self.declarer

    def wins_now(self, card: Card) -> bool:
        """Whether ``card`` would take the trick from its current winner."""
        won = self.winning()
        if won is None:
            return True
        return self.rules.beats(card, won[1], self.rules.effective_suit(self.trick[0]))

    def plays(self) -> tuple[tuple[int, Card], ...]:
        """Every card of :attr:`tricks` and of the open trick with the seat that played it, in
        order."""
        n = self.players
        tricks = (*self.tricks, (self.leader, self.trick))
        return tuple((seat_to_move(leader, i, n), c) for leader, cards in tricks
                     for i, c in enumerate(cards))  # fmt: skip

    def voids(self) -> frozenset[tuple[int, str]]:
        """The (seat, effective suit) pairs a seat has shown it lacks in :meth:`plays`
        (:func:`qcards.skat.rules.table.shown_voids`)."""
        return shown_voids(self.rules, self.plays(), self.players)

    @cached_property
    def winners(self) -> tuple[int, ...]:
        """The seat that took each trick of :attr:`tricks`."""
        return tuple(winner_seat(self.rules, leader, cards, self.players)
                     for leader, cards in self.tricks)  # fmt: skip

    def taken(self) -> tuple[int, int]:
        """The card points of :attr:`tricks` taken by the mover's side and by the other
        side."""
        own = other = 0
        for (_leader, cards), winner in zip(self.tricks, self.winners, strict=True):
            points = sum(c.value for c in cards)
            if self.friend(winner):
                own += points
            else:
                other += points
        return own, other

    def top(self, card: Card) -> bool:
        """Whether no card the seat cannot see beats ``card`` in its own suit: led, it takes
        the trick unless a player without the suit trumps it."""
        return not self.rules.stronger(card, [c for c in self.out if self.rules.effective_suit(c)
                                              == self.rules.effective_suit(card)])  # fmt: skip


def seat_view(
    rules: Rules,
    cards: frozenset[Card],
    hands: tuple[frozenset[Card], ...],
    leader: int,
    trick: tuple[Card, ...],
    skat: frozenset[Card],
    tricks: tuple[tuple[int, tuple[Card, ...]], ...] = (),
) -> SeatView:
    """The view of the seat to move, from a position of a deal: ``cards`` every card of the
    game still in the hands, the tricks or the Skat; ``hands`` each seat's cards at the start
    of the current trick (the trick's cards still among them); ``skat`` the Skat's cards,
    which no seat sees; ``tricks`` the finished tricks seen (:attr:`SeatView.tricks`)."""
    seat = seat_to_move(leader, len(trick), len(hands))
    held = frozenset().union(*hands)
    finished = cards - held - skat
    hand = hands[seat]
    return SeatView(rules, seat, len(hands), hand, trick, leader, finished,
                    cards - hand - finished - frozenset(trick), tricks)  # fmt: skip


def table_view(
    table: Table, cards: frozenset[Card], skat: frozenset[Card], order: Sequence[int] | None = None
) -> SeatView:
    """The view of the seat to move at ``table`` (:func:`seat_view` with the table's closed
    tricks): ``order`` lists the table's seat of each view seat (view seat 0 the declarer;
    default: the same numbering)."""
    hands = table.hands_at_trick_start()
    tricks = table.tricks()
    leader = table.leader
    if order is not None:
        where = {seat: i for i, seat in enumerate(order)}
        hands = tuple(hands[seat] for seat in order)
        tricks = tuple((where[first], cards) for first, cards in tricks)
        leader = where[leader]
    return seat_view(table.rules, cards, hands, leader, table.trick, skat, tricks)


Weights = Mapping[Card, Fraction | float]
Policy = Callable[[SeatView], Weights]


def reads_history(policy: Policy | None) -> bool:
    """Whether ``policy`` reads :attr:`SeatView.tricks` (who played which card): the
    searches that share a position's value between the orders of play reaching it then keep
    them apart. A policy says so with a true ``reads_history`` attribute."""
    return bool(getattr(policy, "reads_history", False))


def uniform(view: SeatView) -> dict[Card, Fraction]:
    """Every legal card with the same weight: the paper's CP_k^n (Eq. 9)."""
    legal = view.legal
    return {c: Fraction(1, len(legal)) for c in legal}
