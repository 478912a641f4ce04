"""Integer matrices with fixed row and column sums and a lower and upper bound on every cell.

This is the bounded transportation polytope. Its integer points are what the Go Fish referee
reasons about (players x suits deal matrices), and three questions are asked of it: is it
empty, and what are the smallest and largest values each cell takes over its integer points.

Method. Subtracting the lower bounds leaves a bipartite flow problem: rows supply their
(reduced) sums, columns demand theirs, and the cell (i, j) is an arc of capacity
``upper - lower``. The polytope is non-empty exactly when a maximum flow saturates every row
(Gale / Hoffman; the constraint matrix is totally unimodular, so an integer point exists
whenever a real one does). Given one feasible flow ``f``, any other integer point differs from
it by a circulation in the residual graph. So the largest value of cell (i, j) is ``f[i][j]``
plus the maximum flow from column j back to row i that avoids the arc (i, j) itself, and the
smallest is ``f[i][j]`` minus the maximum flow from row i to column j that avoids it. Both
flows are at most 4 in Go Fish, so a few breadth-first augmentations answer each cell.

Why hand-written: the graphs have at most 8 + 8 nodes and every query reuses one residual
flow, so a few dozen lines of Edmonds-Karp on plain lists answer all 2 x 64 cell questions of
an 8-player game in about a millisecond. A general library (networkx is not a dependency of
qcards, and builds a fresh residual graph per call) would cost far more per move.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from itertools import pairwise

Matrix = tuple[tuple[int, ...], ...]
Flow = list[list[int]]


@dataclass(frozen=True)
class CellRanges:
    """The smallest and largest value of every cell over the polytope's integer points."""

    minimum: Matrix
    maximum: Matrix


class Transport:
    """One bounded transportation polytope; cell ranges are computed on demand and cached.

    Args:
        rows: required sum of each row.
        cols: required sum of each column.
        lower: lower bound of each cell (rows x cols).
        upper: upper bound of each cell (rows x cols).
    """

    def __init__(
        self,
        rows: Sequence[int],
        cols: Sequence[int],
        lower: Sequence[Sequence[int]],
        upper: Sequence[Sequence[int]],
    ) -> None:
        self._n, self._m = len(rows), len(cols)
        self._lower = lower
        self._cap = [
            [u - lo for lo, u in zip(lr, ur, strict=True)]
            for lr, ur in zip(lower, upper, strict=True)
        ]
        supply = [r - sum(lr) for r, lr in zip(rows, lower, strict=True)]
        demand = [c - sum(lr[j] for lr in lower) for j, c in enumerate(cols)]
        self._flow = self._initial_flow(supply, demand)
        # Swapping two rows (columns) with the same sum and bounds maps the polytope onto
        # itself, so such cells share their range: one computation per pair of classes.
        self._row_class = _classes(
            [(rows[i], tuple(lower[i]), tuple(upper[i])) for i in range(self._n)]
        )
        self._col_class = _classes(
            [
                (cols[j], tuple(lr[j] for lr in lower), tuple(ur[j] for ur in upper))
                for j in range(self._m)
            ]
        )
        self._cache: dict[tuple[int, int], tuple[int, int]] = {}

    @property
    def feasible(self) -> bool:
        """Whether any integer matrix meets the sums and the bounds."""
        return self._flow is not None

    def point(self) -> Matrix | None:
        """One integer point of the polytope (None if it is empty)."""
        if self._flow is None:
            return None
        return tuple(
            tuple(x + lo for x, lo in zip(fr, lr, strict=True))
            for fr, lr in zip(self._flow, self._lower, strict=True)
        )

    def cell_range(self, i: int, j: int) -> tuple[int, int]:
        """The smallest and largest value of cell (i, j) over the integer points.

        Raises:
            ValueError: if the polytope is empty.
        """
        if self._flow is None:
            raise ValueError("the polytope is empty")
        key = (self._row_class[i], self._col_class[j])
        if key not in self._cache:
            f = self._flow[i][j]
            col = self._n + j
            up = self._reroute(col, i, (i, j), self._cap[i][j] - f)
            down = self._reroute(i, col, (i, j), f)
            self._cache[key] = (f - down + self._lower[i][j], f + up + self._lower[i][j])
        return self._cache[key]

    def ranges(self) -> CellRanges:
        """Every cell's range (raises ValueError if the polytope is empty)."""
        cells = [[self.cell_range(i, j) for j in range(self._m)] for i in range(self._n)]
        return CellRanges(
            minimum=tuple(tuple(lo for lo, _ in row) for row in cells),
            maximum=tuple(tuple(hi for _, hi in row) for row in cells),
        )

    # -- flows ---------------------------------------------------------------------------
    # Nodes 0..n-1 are rows, n..n+m-1 columns. Residual arcs: row i -> column j while
    # flow[i][j] < cap[i][j]; column j -> row i while flow[i][j] > 0.

    def _initial_flow(self, supply: list[int], demand: list[int]) -> Flow | None:
        if any(x < 0 for x in supply) or any(x < 0 for x in demand):
            return None
        if any(c < 0 for row in self._cap for c in row) or sum(supply) != sum(demand):
            return None
        flow = [[0] * self._m for _ in range(self._n)]
        for i in range(self._n):  # a greedy fill leaves few augmentations to do
            for j in range(self._m):
                t = min(supply[i], demand[j], self._cap[i][j])
                flow[i][j], supply[i], demand[j] = t, supply[i] - t, demand[j] - t
        while any(supply):
            starts = [i for i in range(self._n) if supply[i]]
            path = self._path(flow, starts, lambda v: v >= self._n and demand[v - self._n] > 0)
            if path is None:
                return None
            i0, j1 = path[0], path[-1] - self._n
            delta = min(supply[i0], demand[j1], self._bottleneck(flow, path))
            self._push(flow, path, delta)
            supply[i0] -= delta
            demand[j1] -= delta
        return flow

    def _reroute(self, start: int, goal: int, skip: tuple[int, int], limit: int) -> int:
        """Maximum flow (at most ``limit``) from ``start`` to ``goal`` avoiding cell ``skip``."""
        if limit <= 0:
            return 0
        assert self._flow is not None  # cell_range, the only caller, has checked
        flow = [row[:] for row in self._flow]
        moved = 0
        while moved < limit:
            path = self._path(flow, [start], lambda v: v == goal, skip)
            if path is None:
                break
            delta = min(limit - moved, self._bottleneck(flow, path))
            self._push(flow, path, delta)
            moved += delta
        return moved

    def _path(
        self,
        flow: Flow,
        starts: list[int],
        is_goal: Callable[[int], bool],
        skip: tuple[int, int] | None = None,
    ) -> list[int] | None:
        """A shortest residual path from any of ``starts`` to a node passing ``is_goal``."""
        n, m, cap = self._n, self._m, self._cap
        parent = {s: -1 for s in starts}
        queue = deque(starts)
        while queue:
            v = queue.popleft()
            if v < n:
                nexts = (n + j for j in range(m) if flow[v][j] < cap[v][j] and (v, j) != skip)
            else:
                j = v - n
                nexts = (i for i in range(n) if flow[i][j] > 0 and (i, j) != skip)
            for w in nexts:
                if w in parent:
                    continue
                parent[w] = v
                if is_goal(w):
                    path = [w]
                    while parent[path[-1]] != -1:
                        path.append(parent[path[-1]])
                    return path[::-1]
                queue.append(w)
        return None

    def _arcs(self, path: list[int]) -> Iterator[tuple[int, int, int]]:
        """(row, column, +1 forward / -1 backward) for each arc of a path."""
        n = self._n
        for v, w in pairwise(path):
            yield (v, w - n, 1) if v < n else (w, v - n, -1)

    def _bottleneck(self, flow: Flow, path: list[int]) -> int:
        return min(
            self._cap[i][j] - flow[i][j] if sign > 0 else flow[i][j]
            for i, j, sign in self._arcs(path)
        )

    def _push(self, flow: Flow, path: list[int], delta: int) -> None:
        for i, j, sign in self._arcs(path):
            flow[i][j] += sign * delta


def _classes(keys: list[tuple]) -> list[int]:
    """The index of each key's first occurrence (equal keys share a class)."""
    first: dict = {}
    return [first.setdefault(key, len(first)) for key in keys]
