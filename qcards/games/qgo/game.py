"""The state of a Quantum Go game: moves, collapse, captures, positional superko and scoring.

Readings of the rules this module enforces:

- Black moves first and the colours alternate; a player may pass at any time; two passes in a
  row, or a resignation, end the game.
- A move places two stones on distinct empty points (one or three in some variants, see
  :mod:`~qcards.games.qgo.rules`), then runs the collapse (:mod:`~qcards.games.qgo.collapse`).
- Captures come after the whole collapse: first every group of the opponent without a liberty
  is removed, then every group of the mover without one. Self-capture is therefore legal (the
  rules capture any surrounded group and say nothing against it; and the mover could not avoid
  it anyway, since the opponent's step-2 choices can take away her liberties).
- Positional superko: the position after a move (collapse and captures included) must differ
  from every position seen before. A position is the classical stones *and* the entangled
  groups with their colours, kinds and points: a pair {x, y} is a different position from two
  stones at x and y, because it can still collapse. Whose turn it is does not count.
- Area scoring: a player's area is her ordinary stones plus the empty regions only her stones
  border; komi goes to White. Stones still entangled at the end of the game occupy nothing:
  their points count as empty (the rules give them no way to be scored, and one stone of a
  pair is not really there).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import cast

from qcards.games.qgo.board import (
    Colour,
    Point,
    all_points,
    dead_groups,
    format_point,
    format_points,
    mirror,
    regions,
)
from qcards.games.qgo.collapse import Chooser, Collapse, Entangled, collapse
from qcards.games.qgo.errors import QgoError
from qcards.games.qgo.rules import Rules

Position = tuple[frozenset, frozenset]
"""Ordinary stones ``{(point, colour)}`` and entangled groups ``{(colour, kind, points)}``."""


@dataclass(frozen=True)
class Move:
    """A move: stones to place (none: a pass), or a resignation."""

    colour: Colour
    points: tuple[Point, ...] = ()
    resign: bool = False

    @property
    def is_pass(self) -> bool:
        return not self.points and not self.resign

    def describe(self) -> str:
        if self.resign:
            return f"{self.colour.value} resign"
        return f"{self.colour.value} {format_points(self.points) or 'pass'}"


@dataclass(frozen=True)
class Turn:
    """A move as played: its number, the collapses it caused and the stones it captured."""

    number: int
    move: Move
    collapses: tuple[Collapse, ...] = ()
    captured: tuple[Point, ...] = ()

    @property
    def kept(self) -> tuple[Point, ...]:
        return tuple(p for c in self.collapses for p in c.kept)

    def record_line(self) -> str:
        """The move in record syntax, e.g. ``B D4 C3 keep D3 C4 D4``."""
        line = self.move.describe()
        return f"{line} keep {format_points(self.kept)}" if self.collapses else line


@dataclass(frozen=True)
class Score:
    """Area of each player (White's including komi) and the result, e.g. ``B+4``."""

    black: Fraction
    white: Fraction
    result: str

    def to_json(self) -> dict:
        return {"black": _number(self.black), "white": _number(self.white)}


def _number(x: Fraction) -> int | float:
    return int(x) if x.denominator == 1 else float(x)


@dataclass
class QuantumGo:
    """A game in progress. :meth:`play` either applies a whole legal move or changes nothing."""

    rules: Rules = field(default_factory=Rules)
    stones: dict[Point, Colour] = field(default_factory=dict)
    entangled: list[Entangled] = field(default_factory=list)
    to_move: Colour = Colour.BLACK
    turns: list[Turn] = field(default_factory=list)
    passes: int = 0
    resigned: Colour | None = None
    history: set[Position] = field(default_factory=set)

    def __post_init__(self) -> None:
        self.history.add(self.position())

    @property
    def size(self) -> int:
        return self.rules.size

    @property
    def finished(self) -> bool:
        return self.passes >= 2 or self.resigned is not None

    def position(self) -> Position:
        """The position for superko (see the module docstring)."""
        return position_of(self.stones, self.entangled)

    def check_shape(self, move: Move) -> None:
        """Raise QgoError unless ``move`` has a legal shape (turn, count, empty points, symmetry).

        Superko and collapse choices are checked by :meth:`play`.
        """
        if self.finished:
            raise QgoError("the game is over")
        if move.colour is not self.to_move:
            raise QgoError(f"{self.to_move.label} is to move, not {move.colour.label}")
        points = move.points
        if not points:
            return
        if len(set(points)) != len(points):
            raise QgoError(f"{format_points(points)}: the stones need distinct points")
        taken = [p for p in points if p in self.stones]
        if taken:
            raise QgoError(f"{format_point(taken[0])} is occupied")
        allowed = self.allowed_counts(move.colour)
        if len(points) not in allowed:
            counts = " or ".join(str(n) for n in allowed)
            raise QgoError(f"{move.colour.label} places {counts} stone(s), not {len(points)}")
        if self.rules.symmetric and allowed != (1,):  # White's lone stones in semi-quantum
            self._check_symmetric(points)

    def allowed_counts(self, colour: Colour) -> tuple[int, ...]:
        """How many stones ``colour`` may place in one move under the rules in force."""
        if self.rules.semi_quantum and colour is Colour.WHITE:
            return (1,)
        if self.rules.symmetric:
            return (2, 1)
        return (2, 3) if self.rules.triplets else (2,)

    def _check_symmetric(self, points: tuple[Point, ...]) -> None:
        first = points[0]
        twin = mirror(first, self.size)
        if len(points) == 2 and points[1] != twin:
            raise QgoError(
                f"symmetric variant: the stone with {format_point(first)} goes on "
                f"{format_point(twin)}, not {format_point(points[1])}"
            )
        if len(points) == 1 and twin != first and twin not in self.stones:
            raise QgoError(
                f"symmetric variant: {format_point(twin)} is free, so {format_point(first)} "
                "needs its pair there"
            )

    def play(self, move: Move, choose: Chooser) -> Turn:
        """Apply ``move``; ``choose`` answers the collapse decisions of both players.

        Raises:
            QgoError: an illegal shape, a collapse choice not allowed, or a superko repetition.
        """
        self.check_shape(move)
        number = len(self.turns) + 1
        if move.resign:
            self.resigned = move.colour
            return self._commit(Turn(number, move))
        if move.is_pass:
            self.passes += 1
            return self._commit(Turn(number, move))
        stones = dict(self.stones)
        entangled = list(self.entangled)
        for p in move.points:
            stones[p] = move.colour
        if len(move.points) > 1:
            # three stones pass check_shape only when the rules allow triplets (of this kind)
            kind = "pair" if len(move.points) == 2 else cast(str, self.rules.triplets)
            entangled.append(Entangled(move.colour, move.points, kind, number))
        collapses = collapse(stones, entangled, move.points, self.rules, choose)
        captured = _capture(stones, entangled, move.colour, self.size)
        if position_of(stones, entangled) in self.history:
            raise QgoError(f"{move.describe()} recreates an earlier position (superko)")
        self.stones, self.entangled = stones, entangled
        self.passes = 0
        self.history.add(self.position())
        return self._commit(Turn(number, move, tuple(collapses), tuple(captured)))

    def _commit(self, turn: Turn) -> Turn:
        self.turns.append(turn)
        self.to_move = self.to_move.other
        return turn

    def score(self) -> Score:
        """Area scoring of the current position (see the module docstring)."""
        classical = ordinary(self.stones, self.entangled)
        area = {Colour.BLACK: Fraction(0), Colour.WHITE: Fraction(komi_fraction(self.rules))}
        for c in classical.values():
            area[c] += 1
        for region, border in regions(classical, self.size):
            if len(border) == 1:
                area[border.pop()] += len(region)
        black, white = area[Colour.BLACK], area[Colour.WHITE]
        if self.resigned is not None:
            result = f"{self.resigned.other.value}+R"
        elif black == white:
            result = "Draw"
        else:
            winner = "B" if black > white else "W"
            result = f"{winner}+{_number(abs(black - white))}"
        return Score(black, white, result)

    def rows(self) -> list[str]:
        """The board top row first: ``B``/``W`` ordinary stones, ``b``/``w`` entangled, ``.``."""
        quantum = {p for g in self.entangled for p in g.points}
        cells = {p: c.value.lower() if p in quantum else c.value for p, c in self.stones.items()}
        return [
            "".join(cells.get((col, row), ".") for col in range(self.size))
            for row in reversed(range(self.size))
        ]

    def empty_points(self) -> list[Point]:
        return [p for p in all_points(self.size) if p not in self.stones]


def ordinary(stones: dict[Point, Colour], entangled: list[Entangled]) -> dict[Point, Colour]:
    """The stones that belong to no entangled group."""
    quantum = {p for g in entangled for p in g.points}
    return {p: c for p, c in stones.items() if p not in quantum}


def position_of(stones: dict[Point, Colour], entangled: list[Entangled]) -> Position:
    """Ordinary stones and entangled groups, as a hashable value."""
    classical = frozenset(ordinary(stones, entangled).items())
    return classical, frozenset((g.colour, g.kind, frozenset(g.points)) for g in entangled)


def komi_fraction(rules: Rules) -> Fraction:
    """Komi as an exact fraction (komi is usually a whole or half number)."""
    return Fraction(str(rules.komi))


def _capture(
    stones: dict[Point, Colour], entangled: list[Entangled], mover: Colour, size: int
) -> list[Point]:
    """Remove the opponent's groups without a liberty, then the mover's; return the points."""
    captured: list[Point] = []
    for colour in (mover.other, mover):
        for g in dead_groups(stones, colour, size):
            for p in sorted(g):
                del stones[p]
                captured.append(p)
    if captured:
        # A captured entangled stone leaves its partners behind: one is an ordinary stone.
        gone = set(captured)
        kept = []
        for e in entangled:
            rest = tuple(p for p in e.points if p not in gone)
            left = e if len(rest) == len(e.points) else (e.after(rest) if rest else None)
            if left is not None:
                kept.append(left)
        entangled[:] = kept
    return captured
