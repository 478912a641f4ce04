"""Brute force for Quantum Go Fish: every initial deal, replayed card by card.

The referee reasons about bounds on the initial deal; this helper does not. It keeps each
consistent deal together with its current count matrix, moves cards as the answers say, and
drops a deal as soon as an ask or an answer contradicts its counts at that moment.
"""

from __future__ import annotations

from collections.abc import Iterable

Matrix = tuple[tuple[int, ...], ...]
State = tuple[Matrix, Matrix]  # (initial deal, current counts)


def deals(n: int, no_four: bool = False) -> list[Matrix]:
    """Every n x n count matrix with all rows and columns summing to 4."""
    top = 3 if no_four else 4

    def rows(total: int, parts: int) -> Iterable[tuple[int, ...]]:
        if parts == 1:
            if total <= top:
                yield (total,)
            return
        for x in range(min(total, top) + 1):
            for rest in rows(total - x, parts - 1):
                yield (x, *rest)

    out: list[Matrix] = []

    def build(prefix: list[tuple[int, ...]], cols: list[int]) -> None:
        if len(prefix) == n:
            if all(c == 4 for c in cols):
                out.append(tuple(prefix))
            return
        for row in rows(4, n):
            if all(c + x <= 4 for c, x in zip(cols, row, strict=True)):
                build([*prefix, row], [c + x for c, x in zip(cols, row, strict=True)])

    build([], [0] * n)
    return out


def start(n: int, no_four: bool = False) -> list[State]:
    return [(d, d) for d in deals(n, no_four)]


def step(states: list[State], asker: int, target: int, suit: int, answer: str) -> list[State]:
    """The states that survive an ask and its answer, with the card moved on a yes."""
    out = []
    for initial, now in states:
        if now[asker][suit] < 1:
            continue
        if answer == "no":
            if now[target][suit] == 0:
                out.append((initial, now))
        elif now[target][suit] >= 1:
            rows = [list(r) for r in now]
            rows[target][suit] -= 1
            rows[asker][suit] += 1
            out.append((initial, tuple(map(tuple, rows))))
    return out


def allowed(states: list[State], asker: int, target: int, suit: int) -> tuple[str, ...]:
    return tuple(a for a in ("yes", "no") if step(states, asker, target, suit, a))


def legal(states: list[State], asker: int, suit: int) -> bool:
    return any(now[asker][suit] >= 1 for _, now in states)


def ranges(states: list[State]) -> tuple[Matrix, Matrix]:
    """Cell-wise minimum and maximum of the current counts."""
    nows = [now for _, now in states]
    n = len(nows[0])
    low = tuple(tuple(min(m[p][s] for m in nows) for s in range(n)) for p in range(n))
    high = tuple(tuple(max(m[p][s] for m in nows) for s in range(n)) for p in range(n))
    return low, high


def replay_moves(n: int, moves, players, suits, no_four: bool = False) -> list[State]:
    """The states after a sequence of moves (objects with asker/target/suit/answer)."""
    states = start(n, no_four)
    for m in moves:
        states = step(
            states, players.index(m.asker), players.index(m.target), suits.index(m.suit), m.answer
        )
    return states
