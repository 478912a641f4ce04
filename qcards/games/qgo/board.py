"""Points, colours, coordinates, neighbours, groups and liberties of a Go board.

Points are ``(column, row)`` pairs counted from 0 at the bottom-left corner. Written
coordinates follow the usual Go convention: a column letter (``A`` to ``Z`` without ``I``)
then the row number counted from 1 at the bottom, so ``D3`` is ``(3, 2)``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from enum import Enum

Point = tuple[int, int]

COLUMNS = "ABCDEFGHJKLMNOPQRSTUVWXYZ"
"""Column letters; ``I`` is skipped, as on real Go boards."""

MIN_SIZE = 2
MAX_SIZE = len(COLUMNS)


class Colour(Enum):
    """A player (and the colour of her stones); Black moves first."""

    BLACK = "B"
    WHITE = "W"

    @property
    def other(self) -> Colour:
        return Colour.WHITE if self is Colour.BLACK else Colour.BLACK

    @property
    def label(self) -> str:
        return self.name.capitalize()


def check_size(size: int) -> int:
    """Return ``size`` if a board of that many lines can be written down, else raise."""
    if not MIN_SIZE <= size <= MAX_SIZE:
        raise ValueError(f"board size must be {MIN_SIZE} to {MAX_SIZE}, not {size}")
    return size


def parse_point(text: str, size: int) -> Point:
    """Read a coordinate such as ``D3`` (case-insensitive) on a board of ``size`` lines.

    Raises:
        ValueError: not a coordinate, or off the board.
    """
    word = text.strip().upper()
    column = COLUMNS.find(word[:1]) if word else -1
    if column < 0 or not word[1:].isdigit():
        raise ValueError(f"{text!r} is not a point (column letter A-Z without I, then a row)")
    row = int(word[1:]) - 1
    if column >= size or not 0 <= row < size:
        raise ValueError(f"{word} is off the {size}x{size} board")
    return column, row


def format_point(point: Point) -> str:
    """``(3, 2)`` -> ``"D3"``."""
    return f"{COLUMNS[point[0]]}{point[1] + 1}"


def format_points(points: Iterable[Point]) -> str:
    return " ".join(format_point(p) for p in points)


def all_points(size: int) -> list[Point]:
    """Every point, row by row from the bottom, left to right."""
    return [(c, r) for r in range(size) for c in range(size)]


def neighbours(point: Point, size: int) -> list[Point]:
    """The points directly adjacent (up, down, left, right) on the board."""
    c, r = point
    steps = ((c - 1, r), (c + 1, r), (c, r - 1), (c, r + 1))
    return [(x, y) for x, y in steps if 0 <= x < size and 0 <= y < size]


def diagonals(point: Point, size: int) -> list[Point]:
    """The points diagonally adjacent on the board."""
    c, r = point
    steps = ((c - 1, r - 1), (c + 1, r - 1), (c - 1, r + 1), (c + 1, r + 1))
    return [(x, y) for x, y in steps if 0 <= x < size and 0 <= y < size]


def mirror(point: Point, size: int) -> Point:
    """The point symmetric to ``point`` about the centre of the board."""
    return size - 1 - point[0], size - 1 - point[1]


def group(stones: Mapping[Point, Colour], start: Point, size: int) -> set[Point]:
    """The solidly connected stones of one colour that contain ``start``."""
    colour = stones[start]
    seen = {start}
    todo = [start]
    while todo:
        for q in neighbours(todo.pop(), size):
            if q not in seen and stones.get(q) is colour:
                seen.add(q)
                todo.append(q)
    return seen


def liberties(stones: Mapping[Point, Colour], points: Iterable[Point], size: int) -> set[Point]:
    """The empty points adjacent to a set of stones."""
    return {q for p in points for q in neighbours(p, size) if q not in stones}


def dead_groups(stones: Mapping[Point, Colour], colour: Colour, size: int) -> list[set[Point]]:
    """Every group of ``colour`` without a liberty, each once."""
    seen: set[Point] = set()
    dead = []
    for p, c in stones.items():
        if c is colour and p not in seen:
            g = group(stones, p, size)
            seen |= g
            if not liberties(stones, g, size):
                dead.append(g)
    return dead


def regions(occupied: Mapping[Point, Colour], size: int) -> list[tuple[set[Point], set[Colour]]]:
    """The connected regions of points not in ``occupied``, each with the colours bordering it."""
    seen: set[Point] = set()
    found = []
    for start in all_points(size):
        if start in occupied or start in seen:
            continue
        region = {start}
        border: set[Colour] = set()
        todo = [start]
        while todo:
            for q in neighbours(todo.pop(), size):
                if q in occupied:
                    border.add(occupied[q])
                elif q not in region:
                    region.add(q)
                    todo.append(q)
        seen |= region
        found.append((region, border))
    return found
