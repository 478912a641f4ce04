"""The table's state during card play: the one transition every engine in Python shares.

A :class:`Table` holds what lies on the table at one moment of play: each seat's cards, the
open trick and who led it, the points and tricks each seat has taken, and every card played
and by whom. :meth:`Table.legal` gives the cards the seat to move may play (follow the led
suit when it can, ISkO 3.2.3 / 4.1.1) and :meth:`Table.play` the position after one of them:
when the trick is complete it is closed, credited to the seat whose card takes it
(:meth:`qcards.skat.rules.cards.Rules.trick_winner`) and the next leader found (the winner, or the
fixed leader of the paper's variant, :func:`qcards.skat.rules.turns.next_lead`). The compiled
searches read the same rules from bit masks; :mod:`qcards.skat.rules.table_kernel` is their twin of
this transition, and a test holds the two equal on every legal move of random games.

Seats are numbered in playing order, 0 the declarer, as in :mod:`qcards.skat.rules.turns`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Protocol

from qcards.errors import IllegalPlay
from qcards.skat.rules.cards import Card, Rules
from qcards.skat.rules.turns import Seating, next_lead, seat_to_move, winner_seat


class Dealt(Seating, Protocol):
    """What :meth:`Table.from_owner` reads of a game besides its seating: its rules (an
    endgame spec, :class:`qcards.skat.position.spec.Endgame`)."""

    @property
    def rules(self) -> Rules: ...


@dataclass(frozen=True, slots=True)
class Table:
    """One moment of card play (immutable: :meth:`play` returns the next one).

    Attributes:
        rules: the game's rules.
        hands: each seat's cards (a card on the open trick is no longer in its hand).
        leader: the seat that led the open trick (or leads the next one when none is open).
        trick: the open trick's cards in play order (empty between tricks).
        taken: the card points each seat has taken in tricks at this table.
        won: the tricks each seat has taken at this table.
        plays: every card played at this table and its seat, in order.
        winner_leads: whether a trick's winner leads the next one (ISkO 3.1.1); false in the
            paper's fixed-leader variant, where ``fixed_leader`` leads every trick.
        fixed_leader: the seat that leads every trick when ``winner_leads`` is false.
    """

    rules: Rules
    hands: tuple[frozenset[Card], ...]
    leader: int
    trick: tuple[Card, ...] = ()
    taken: tuple[int, ...] = ()
    won: tuple[int, ...] = ()
    plays: tuple[tuple[int, Card], ...] = ()
    winner_leads: bool = True
    fixed_leader: int = 0

    @classmethod
    def deal(
        cls,
        rules: Rules,
        hands: Sequence[Iterable[Card]],
        leader: int = 0,
        *,
        winner_leads: bool = True,
    ) -> Table:
        """The table before its first card: ``hands`` by seat, seat ``leader`` to lead (and to
        lead every trick when ``winner_leads`` is false)."""
        held = tuple(frozenset(hand) for hand in hands)
        if not 0 <= leader < len(held):
            raise ValueError(f"leader {leader} is not one of the {len(held)} seats")
        zeros = (0,) * len(held)
        return cls(rules, held, leader, (), zeros, zeros, (), winner_leads, leader)

    @classmethod
    def from_owner(cls, spec: Dealt, owner: Mapping[Card, str]) -> Table:
        """The table of an endgame spec's deal ``owner`` (card -> player or the Skat): the
        players' hands in the spec's seat order, its leader to lead, its leading rule."""
        players = spec.players
        hands = [[c for c, p in owner.items() if p == player] for player in players]
        return cls.deal(spec.rules, hands, players.index(spec.leader),
                        winner_leads=spec.winner_leads)  # fmt: skip

    @property
    def seats(self) -> int:
        return len(self.hands)

    @property
    def to_move(self) -> int:
        """The seat whose card is next."""
        return seat_to_move(self.leader, len(self.trick), len(self.hands))

    @property
    def over(self) -> bool:
        """Whether every card is played (no card in any hand, no open trick)."""
        return not self.trick and not any(self.hands)

    def legal(self) -> tuple[Card, ...]:
        """The cards the seat to move may play, in :meth:`Rules.sort_key` order (the order
        :meth:`Rules.legal_cards` gives: random play draws an index into it)."""
        led = self.trick[0] if self.trick else None
        return self.rules.legal_cards(self.hands[self.to_move], led)

    def play(self, card: Card) -> Table:
        """The table after the seat to move plays ``card``; a completed trick is closed,
        credited and the next leader found. Raises :class:`~qcards.errors.IllegalPlay` for a
        card the seat may not play."""
        seat = self.to_move
        hand = self.hands[seat]
        if card not in hand or (self.trick and not self.rules.may_play(hand, self.trick[0], card)):
            raise IllegalPlay(seat, card, self.legal() if hand else (), card in hand)
        hands = self.hands[:seat] + (hand - {card},) + self.hands[seat + 1 :]
        trick = (*self.trick, card)
        plays = (*self.plays, (seat, card))
        rules, leader, taken, won = self.rules, self.leader, self.taken, self.won
        if len(trick) == len(hands):
            winner = winner_seat(rules, leader, trick, len(hands))
            gain = sum(c.value for c in trick)
            taken = taken[:winner] + (taken[winner] + gain,) + taken[winner + 1 :]
            won = won[:winner] + (won[winner] + 1,) + won[winner + 1 :]
            leader = next_lead(winner, self.winner_leads, self.fixed_leader)
            trick = ()
        # built field by field rather than by dataclasses.replace, which costs a Monte Carlo
        # game several times its play
        return Table(rules, hands, leader, trick, taken, won, plays, self.winner_leads,
                     self.fixed_leader)  # fmt: skip

    def hands_at_trick_start(self) -> tuple[frozenset[Card], ...]:
        """Each seat's cards when the open trick was led (the open trick's cards given back to
        the seats that played them): what :func:`qcards.skat.position.seat_view.seat_view` reads."""
        if not self.trick:
            return self.hands
        back = {seat_to_move(self.leader, i, self.seats): c for i, c in enumerate(self.trick)}
        return tuple(hand | {back[s]} if s in back else hand for s, hand in enumerate(self.hands))

    def tricks(self) -> tuple[tuple[int, tuple[Card, ...]], ...]:
        """The closed tricks: each one's leader and cards in play order."""
        n = self.seats
        closed = len(self.plays) - len(self.trick)
        return tuple((self.plays[i][0], tuple(c for _, c in self.plays[i : i + n]))
                     for i in range(0, closed, n))  # fmt: skip

    def voids(self) -> frozenset[tuple[int, str]]:
        """The (seat, effective suit) pairs a seat has shown it lacks: it played another suit
        to a trick led in that one (every trick, the open one too)."""
        return shown_voids(self.rules, self.plays, self.seats)


def shown_voids(
    rules: Rules, plays: Sequence[tuple[int, Card]], seats: int
) -> frozenset[tuple[int, str]]:
    """The (seat, effective suit) pairs that ``plays`` (each seat and card, in order, from a
    trick's first card, ``seats`` to a trick) show a seat lacks: it played another suit to a
    trick led in that one."""
    shown = set[tuple[int, str]]()
    for start in range(0, len(plays), seats):
        trick = plays[start : start + seats]
        led = rules.effective_suit(trick[0][1])
        shown.update((seat, led) for seat, card in trick[1:] if rules.effective_suit(card) != led)
    return frozenset(shown)
