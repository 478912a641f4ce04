"""The bounded transportation solver against enumeration, on small random polytopes."""

from __future__ import annotations

import itertools
import random

import pytest

from qcards.games.gofish.transport import Transport


def compositions(total: int, parts: int):
    if parts == 1:
        yield (total,)
        return
    for x in range(total + 1):
        for rest in compositions(total - x, parts - 1):
            yield (x, *rest)


def points(rows, cols, lower, upper):
    m = len(cols)
    for matrix in itertools.product(*(list(compositions(r, m)) for r in rows)):
        if all(sum(row[j] for row in matrix) == c for j, c in enumerate(cols)) and all(
            lo <= x <= hi
            for row, lrow, urow in zip(matrix, lower, upper, strict=True)
            for x, lo, hi in zip(row, lrow, urow, strict=True)
        ):
            yield matrix


@pytest.mark.parametrize("seed", range(4))
def test_ranges_match_enumeration(seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(250):
        n, m = rng.randint(1, 4), rng.randint(1, 4)
        rows = [rng.randint(0, 4) for _ in range(n)]
        cols = [0] * m
        for _ in range(sum(rows) + rng.choice([0, 0, 0, 1, -1])):
            cols[rng.randrange(m)] += 1
        lower = [[rng.choice([0, 0, 0, 1, 2]) for _ in range(m)] for _ in range(n)]
        upper = [[rng.choice([5, 4, 4, 3, 2, 1, 0]) for _ in range(m)] for _ in range(n)]
        found = list(points(rows, cols, lower, upper))
        solver = Transport(rows, cols, lower, upper)
        assert solver.feasible == bool(found)
        if not found:
            assert solver.point() is None
            with pytest.raises(ValueError):
                solver.cell_range(0, 0)
            continue
        assert solver.point() in found
        ranges = solver.ranges()
        for i, j in itertools.product(range(n), range(m)):
            values = [p[i][j] for p in found]
            assert (ranges.minimum[i][j], ranges.maximum[i][j]) == (min(values), max(values))
