"""How play moves around the table: one home for the seat arithmetic every engine shares.

Seats are numbered in playing order (0 to ``n - 1``); a trick's cards are in the order they
were played, the first one led. The trick's winner leads the next trick (ISkO 3.1.1). The
referee, the history, the beliefs, the outcome distributions, the Monte Carlo, the double-dummy
search, the best response, the stages, the OpenSpiel game and the circuits' layout all ask
these questions; the compiled kernels call the same functions compiled
(:mod:`qcards.skat.rules.turns_kernel`), and a test holds every engine to them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Protocol, TypeVar

# imported, not only named for the checker: the API reference resolves the annotations to
# these classes
from qcards.skat.rules.cards import Card, Rules

if TYPE_CHECKING:
    import numpy as np

# a seat, or an array of seats (a circuit's rows, vectorised: qcards.circuits.gates)
Seats = TypeVar("Seats", int, "np.ndarray")


class Seating(Protocol):
    """What the turn order reads of a game: its players in seat order, the first trick's
    leader and whether a trick's winner leads the next (an endgame spec,
    :class:`qcards.skat.position.spec.Endgame`, which sits above the rules and is read here
    through this Protocol)."""

    @property
    def players(self) -> tuple[str, ...]: ...
    @property
    def leader(self) -> str: ...
    @property
    def winner_leads(self) -> bool: ...


def seat_to_move(leader: Seats, played: int, n: int) -> Seats:
    """The seat that plays a trick's card number ``played`` (0: the lead) when seat ``leader``
    led it, of ``n`` seats."""
    return (leader + played) % n


def place_in_trick(seat: int, leader: int, n: int) -> int:
    """Where in a trick led by ``leader`` seat ``seat`` plays (0: it leads); the inverse of
    :func:`seat_to_move`."""
    return (seat - leader) % n


def winner_seat(rules: Rules, leader: int, trick: Sequence[Card], n: int) -> int:
    """The seat that takes ``trick`` (complete, led by seat ``leader``)."""
    return seat_to_move(leader, rules.trick_winner(trick), n)


def leads_next(spec: Seating, winner: int) -> int:
    """The seat that leads the next trick after seat ``winner`` took one: the winner, or the
    spec's leader again in the paper's fixed-leader variant (``winner_leads`` false)."""
    return next_lead(winner, spec.winner_leads, spec.players.index(spec.leader))


def next_lead(winner: int, winner_leads: bool, fixed_leader: int) -> int:
    """:func:`leads_next` on plain numbers, as the compiled kernels hold the spec."""
    return winner if winner_leads else fixed_leader


def hands_after(
    hands: Sequence[frozenset[Card]], trick: Sequence[Card], leader: int
) -> tuple[frozenset[Card], ...]:
    """Every seat's hand once ``trick`` (complete, led by ``leader``) is played: each seat
    without the card it put on the table."""
    n = len(hands)
    return tuple(hand - {trick[place_in_trick(seat, leader, n)]} for seat, hand in enumerate(hands))


def player_to_move(spec: Seating, leader: str, played: int) -> str:
    """:func:`seat_to_move` by the players' names: who plays card number ``played`` of a trick
    that ``leader`` led."""
    players = spec.players
    return players[seat_to_move(players.index(leader), played, len(players))]


def player_leads_next(spec: Seating, winner: str) -> str:
    """:func:`leads_next` by the players' names."""
    return winner if spec.winner_leads else spec.leader
