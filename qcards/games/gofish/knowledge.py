"""What the table knows about the hidden cards of a Quantum Go Fish game, exactly.

The hidden state is a count matrix: how many cards of each suit each player holds. Players and
suits are indices ``0..n-1`` (as many suits as players, four cards of each, four cards per
player at the start). Only the *initial* deal matrix ``D`` is unknown: every card that changed
hands did so in public, so the current matrix is ``C = D + T`` with ``T`` the known net
transfers (cards received minus cards given, per player and suit).

Each public event constrains one cell of ``D``, because the count at the time of the event was
``D[p][s] + T_then[p][s]`` and ``T_then`` is known:

- asking for ``s``, or answering "yes" about ``s``, means ``D[p][s] >= 1 - T_then[p][s]``;
- answering "no" about ``s`` means ``D[p][s] == -T_then[p][s]``;
- the ``no_four`` variant caps every ``D[p][s]`` at 3 from the start.

A lay-down (the "playing on" variant) is a known transfer too: four cards of one suit leave
the game, ``T[p][s] -= 4``. It is only made when ``C[p][s] == 4`` in every consistent deal,
so it adds no constraint on ``D``: the consistent deals stay the same, and only the current
counts shift.

Counts never go negative in between: they drop only when a card is handed over, which
requires the "yes" constraint just before. So the consistent deals are exactly the integer
points of a bounded transportation polytope (rows and columns sum to 4, one interval per
cell), and :mod:`qcards.games.gofish.transport` answers feasibility and the exact range of
every cell by flows, without enumerating deals. Ranges of ``C`` are those of ``D`` shifted by
``T``.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import cached_property

from qcards.games.gofish.transport import CellRanges, Matrix, Transport

CARDS_PER_SUIT = 4
HAND_SIZE = 4


@dataclass(frozen=True)
class Knowledge:
    """The public constraints on the deal, and what they imply (immutable).

    Attributes:
        size: number of players, which is also the number of suits.
        no_four: whether no hand may start with four cards of one suit.
        lower: lower bound on each cell of the initial deal matrix.
        upper: upper bound on each cell of the initial deal matrix.
        moved: net cards received (negative: given) by each player in each suit so far.
    """

    size: int
    no_four: bool
    lower: Matrix
    upper: Matrix
    moved: Matrix

    @classmethod
    def start(cls, size: int, no_four: bool = False) -> Knowledge:
        """Nothing known yet: any deal of ``size`` suits to ``size`` players."""
        top = CARDS_PER_SUIT - 1 if no_four else CARDS_PER_SUIT
        return cls(
            size=size,
            no_four=no_four,
            lower=_filled(size, 0),
            upper=_filled(size, top),
            moved=_filled(size, 0),
        )

    # -- events --------------------------------------------------------------------------

    def holds_some(self, player: int, suit: int) -> Knowledge:
        """The player has at least one card of the suit now (an ask, or a "yes" before giving)."""
        bound = max(self.lower[player][suit], 1 - self.moved[player][suit])
        return replace(self, lower=_set(self.lower, player, suit, bound))

    def holds_none(self, player: int, suit: int) -> Knowledge:
        """The player has no card of the suit now (a "no" answer)."""
        exact = -self.moved[player][suit]
        return replace(
            self,
            lower=_set(self.lower, player, suit, max(self.lower[player][suit], exact)),
            upper=_set(self.upper, player, suit, min(self.upper[player][suit], exact)),
        )

    def gives(self, giver: int, receiver: int, suit: int) -> Knowledge:
        """A "yes": the giver had a card of the suit and hands one to the receiver."""
        had = self.holds_some(giver, suit)
        moved = _set(had.moved, giver, suit, had.moved[giver][suit] - 1)
        moved = _set(moved, receiver, suit, moved[receiver][suit] + 1)
        return replace(had, moved=moved)

    def lay_down(self, player: int, suit: int) -> Knowledge:
        """The player lays down four cards of the suit, which leave the game.

        Only call it when the player provably holds all four (see :meth:`fours`): then the
        consistent deals do not change and the exact knowledge stays exact.

        Raises:
            ValueError: if the player does not provably hold four cards of the suit.
        """
        if self.count_range(player, suit)[0] < CARDS_PER_SUIT:
            raise ValueError(f"player {player} does not provably hold four of suit {suit}")
        moved = _set(self.moved, player, suit, self.moved[player][suit] - CARDS_PER_SUIT)
        return replace(self, moved=moved)

    def answer(self, asker: int, target: int, suit: int, yes: bool) -> Knowledge:
        """The state after ``target`` answers ``asker``'s ask for ``suit``."""
        return self.gives(target, asker, suit) if yes else self.holds_none(target, suit)

    # -- what follows --------------------------------------------------------------------

    def hand_size(self, player: int) -> int:
        """Cards the player holds now."""
        return HAND_SIZE + sum(self.moved[player])

    @cached_property
    def _deals(self) -> Transport:
        sums = [CARDS_PER_SUIT] * self.size
        return Transport(sums, sums, self.lower, self.upper)

    @property
    def feasible(self) -> bool:
        """Whether some deal agrees with everything that happened (False: a paradox)."""
        return self._deals.feasible

    def count_range(self, player: int, suit: int) -> tuple[int, int]:
        """Provable minimum and maximum of the player's current count of the suit.

        Raises:
            ValueError: if the knowledge is inconsistent.
        """
        lo, hi = self._deals.cell_range(player, suit)
        shift = self.moved[player][suit]
        return lo + shift, hi + shift

    @cached_property
    def counts(self) -> CellRanges:
        """Provable minimum and maximum of every current count (raises ValueError if infeasible)."""
        initial = self._deals.ranges()
        return CellRanges(
            minimum=_shifted(initial.minimum, self.moved),
            maximum=_shifted(initial.maximum, self.moved),
        )

    @property
    def determined(self) -> bool:
        """Whether every current count is provable (one count matrix remains)."""
        counts = self.counts
        return counts.minimum == counts.maximum

    def excluded(self, player: int) -> tuple[int, ...]:
        """Suits the player provably holds no card of."""
        return tuple(s for s, hi in enumerate(self.counts.maximum[player]) if hi == 0)

    def unknown(self, player: int) -> int:
        """Cards in the player's hand whose suit is not provable (size minus the minimums)."""
        return self.hand_size(player) - sum(self.counts.minimum[player])

    def fours(self) -> tuple[int, ...]:
        """Players who provably hold all four cards of some suit, in seat order."""
        return tuple(dict.fromkeys(p for p, _ in self.four_cells()))

    def four_cells(self) -> tuple[tuple[int, int], ...]:
        """Every (player, suit) where the player provably holds all four cards of the suit."""
        return tuple(
            (p, s)
            for p, row in enumerate(self.counts.minimum)
            for s, x in enumerate(row)
            if x >= CARDS_PER_SUIT
        )


def _filled(size: int, value: int) -> Matrix:
    return tuple((value,) * size for _ in range(size))


def _set(matrix: Matrix, row: int, col: int, value: int) -> Matrix:
    changed = matrix[row][:col] + (value,) + matrix[row][col + 1 :]
    return matrix[:row] + (changed,) + matrix[row + 1 :]


def _shifted(matrix: Matrix, shift: Matrix) -> Matrix:
    return tuple(
        tuple(x + d for x, d in zip(row, drow, strict=True))
        for row, drow in zip(matrix, shift, strict=True)
    )
