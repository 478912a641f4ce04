"""Brute force for Quantum Go Fish: every initial deal, replayed card by card.

The referee reasons about bounds on the initial deal; this helper does not. It keeps each
consistent deal together with its current count matrix, moves cards as the answers say, and
drops a deal as soon as an ask or an answer contradicts its counts at that moment.

The variants are replayed literally too: under lose-a-turn an answer no deal survives is
replaced by the other one, and under playing-on every cell that is 4 in all surviving deals
loses its four cards (:func:`lay_down`).
"""

from __future__ import annotations

from collections.abc import Iterable

from qcards.games.gofish import GoFish

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


def lay_down(states: list[State]) -> tuple[list[State], tuple[tuple[int, int], ...]]:
    """Every (player, suit) holding four in all states, and the states with those cards gone."""
    if not states:
        return states, ()
    n = len(states[0][1])
    cells = tuple(
        (p, s) for p in range(n) for s in range(n) if all(now[p][s] == 4 for _, now in states)
    )
    out = []
    for initial, now in states:
        rows = [list(r) for r in now]
        for p, s in cells:
            rows[p][s] -= 4
        out.append((initial, tuple(map(tuple, rows))))
    return out, cells


def play(
    states: list[State],
    asker: int,
    target: int,
    suit: int,
    answer: str,
    lose_a_turn: bool = False,
    playing_on: bool = False,
) -> tuple[list[State], bool, tuple[tuple[int, int], ...]]:
    """One move under the variants: the surviving states, whether the answer was refused, and
    the cells laid down."""
    after = step(states, asker, target, suit, answer)
    refused = lose_a_turn and not after
    if refused:
        after = step(states, asker, target, suit, "yes" if answer == "no" else "no")
    laid: tuple[tuple[int, int], ...] = ()
    if playing_on:
        after, laid = lay_down(after)
    return after, refused, laid


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


def replay_moves(
    n: int,
    moves,
    players,
    suits,
    no_four: bool = False,
    lose_a_turn: bool = False,
    playing_on: bool = False,
) -> list[State]:
    """The states after a sequence of moves (objects with asker/target/suit/answer)."""
    states = start(n, no_four or playing_on)
    for m in moves:
        a, t, s = players.index(m.asker), players.index(m.target), suits.index(m.suit)
        states = play(states, a, t, s, m.answer, lose_a_turn, playing_on)[0]
    return states


def outcome(
    players, states: list[State], asker: str, playing_on: bool = False
) -> tuple[str, tuple[str, ...]]:
    """The (status, winners) the rules give after a move that left ``states``."""
    if not states:
        return "paradox", ()
    if playing_on:
        empty = tuple(p for p, row in zip(players, states[0][1], strict=True) if not sum(row))
        return ("win", empty) if empty else ("ongoing", ())
    low, high = ranges(states)
    if low == high:
        return "win", (asker,)
    four = tuple(p for p, row in zip(players, low, strict=True) if max(row) == 4)
    return ("win", four) if four else ("ongoing", ())


def check_state(game: GoFish, states: list[State]) -> None:
    """Assert that the referee's knowledge, hands, legal asks and allowed answers agree with
    brute force over ``states``."""
    counts = game.knowledge.counts
    low, high = ranges(states)
    assert counts.minimum == low and counts.maximum == high
    labels = [*game.suits, *(f"?{k + 1}" for k in range(len(game.players) - len(game.suits)))]
    for p, hand in enumerate(game.hands().values()):
        assert hand.known == {lab: x for lab, x in zip(labels, low[p], strict=True) if x}
        assert hand.excluded == tuple(lab for lab, x in zip(labels, high[p], strict=True) if not x)
        assert hand.unknown == hand.size - sum(low[p])
    if game.over:
        return
    a = game.players.index(game.turn)
    n = len(game.players)
    named = len(game.suits)
    expected = set()
    for s in range(min(named + 1, n)):  # the named suits and one representative new suit
        if legal(states, a, s):
            expected |= {(t, s) for t in range(n) if t != a}
    got = {
        (game.players.index(x.target), named if x.suit is None else game.suits.index(x.suit))
        for x in game.legal_asks()
    }
    assert got == expected
    for t, s in sorted(expected):
        suit = game.suits[s] if s < named else "fresh"
        assert game.allowed_answers(game.turn, game.players[t], suit) == frozenset(
            allowed(states, a, t, s)
        )
