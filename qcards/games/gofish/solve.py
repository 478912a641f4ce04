"""Who can force a win at Quantum Go Fish: retrograde analysis of the whole game graph.

The referee (:mod:`qcards.games.gofish.knowledge`) keeps bounds on the initial deal and never
lists deals, because a game of eight players has far too many. Solving a small game asks for
the opposite trade: a position here *is* the set of count matrices still consistent with the
play (current counts, players by suits), together with whose turn it is and how many suits
have names. Two histories that leave the same set behave the same from then on, so the graph
of positions is small: 9 positions for two players, about 16,000 for three.

Positions repeat (a card can travel back and forth), so a depth-first game-tree search would
not end. Instead every reachable position is listed once, and "can the team T force that one
of its members wins?" is the least fixed point of retrograde analysis: T wins at a position if
a member is to choose (ask, or answer when asked) and some choice wins, or an opponent is to
choose and every choice wins; a finished game wins if one of the winners is in T. Positions
outside the fixed point are those from which the others can keep T from winning for ever, so
when no player can force a win, optimal play goes on for ever and the game is a draw by
repetition.

With more than two players "optimal play" needs a convention; the one used here gives provable
statements: each player (and each team) against all the others together. Answers that would
make the game inconsistent are never chosen: the sources count a paradox as an illegal move
by which everybody loses. Named suits are interchangeable labels, so positions are stored up
to a permutation of the named suits.
"""

from __future__ import annotations

import itertools
from collections import deque
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace

from qcards.files import json_fields
from qcards.games.gofish.knowledge import CARDS_PER_SUIT, HAND_SIZE

Matrix = tuple[tuple[int, ...], ...]
"""Counts: ``matrix[player][suit]``."""


@dataclass(frozen=True)
class Position:
    """The start of a turn: the consistent count matrices, the seat to ask, the named suits,
    and whether the game is played on (variant: fours are laid down, an empty hand wins)."""

    deals: frozenset[Matrix]
    turn: int
    named: int
    playing_on: bool = False


@dataclass(frozen=True)
class Result:
    """What an answer leads to: a finished game (``winners`` non-empty) or the next position."""

    winners: tuple[int, ...] = ()
    reason: str | None = None
    position: Position | None = None


@dataclass(frozen=True)
class AskOption:
    """One ask of the player to move and the consistent answers to it."""

    target: int
    suit: int
    answers: tuple[tuple[str, Result], ...]


def all_deals(players: int, no_four: bool = False) -> frozenset[Matrix]:
    """Every initial count matrix: rows and columns sum to 4 (at most 3 per cell with
    ``no_four``)."""
    top = CARDS_PER_SUIT - 1 if no_four else CARDS_PER_SUIT
    columns = [c for c in itertools.product(range(top + 1), repeat=players) if sum(c) == 4]
    out: set[Matrix] = set()

    def build(chosen: list[tuple[int, ...]], room: list[int]) -> None:
        if len(chosen) == players:
            if not any(room):
                out.add(tuple(zip(*chosen, strict=True)))
            return
        for column in columns:
            if all(c <= r for c, r in zip(column, room, strict=True)):
                build([*chosen, column], [r - c for r, c in zip(room, column, strict=True)])

    build([], [HAND_SIZE] * players)
    return frozenset(out)


def start(players: int, no_four: bool = False, playing_on: bool = False) -> Position:
    """The position before the first ask (playing on implies no-four, as in the referee)."""
    return Position(all_deals(players, no_four or playing_on), 0, 0, playing_on)


def ask_options(position: Position) -> Iterator[AskOption]:
    """Every legal ask at ``position``, with the result of each consistent answer.

    The rules are the referee's (:class:`qcards.games.gofish.game.GoFish`), restated on sets
    of count matrices; the tests play random games through both and compare.
    """
    deals, mover, named = position.deals, position.turn, position.named
    players = len(next(iter(deals)))
    for suit in range(min(named + 1, players)):
        holding = [m for m in deals if m[mover][suit] >= 1]  # asking commits the asker
        if not holding:
            continue
        now_named = max(named, suit + 1)
        for target in range(players):
            if target == mover:
                continue
            answers = []
            gave = [_transfer(m, target, mover, suit) for m in holding if m[target][suit] >= 1]
            if gave:
                answers.append(("yes", _result(frozenset(gave), position, now_named)))
            kept = [m for m in holding if m[target][suit] == 0]
            if kept:
                answers.append(("no", _result(frozenset(kept), position, now_named)))
            yield AskOption(target, suit, tuple(answers))


def _transfer(matrix: Matrix, giver: int, receiver: int, suit: int) -> Matrix:
    rows = [list(row) for row in matrix]
    rows[giver][suit] -= 1
    rows[receiver][suit] += 1
    return tuple(tuple(row) for row in rows)


def _laid_down(matrix: Matrix, player: int, suit: int) -> Matrix:
    """The matrix after ``player`` lays down the four cards of ``suit`` they hold."""
    rows = [list(row) for row in matrix]
    rows[player][suit] = 0
    return tuple(tuple(row) for row in rows)


def _result(deals: frozenset[Matrix], before: Position, named: int) -> Result:
    """Win checks in the referee's order: everything determined, then four of a suit. Playing
    on, provable fours are laid down instead, and only an empty hand wins."""
    asker = before.turn
    players = len(next(iter(deals)))
    fours = [
        (p, s)
        for p in range(players)
        for s in range(players)
        if all(m[p][s] == CARDS_PER_SUIT for m in deals)
    ]
    if before.playing_on:
        for p, s in fours:
            deals = frozenset(_laid_down(m, p, s) for m in deals)
    elif len(deals) == 1:
        return Result((asker,), "determined")
    elif fours:
        return Result(tuple(sorted({p for p, _ in fours})), "four")
    sizes = [sum(row) for row in next(iter(deals))]  # the same in every consistent matrix
    if before.playing_on and (empty := tuple(p for p in range(players) if sizes[p] == 0)):
        return Result(empty, "empty")
    turn = next(
        s for k in range(1, players + 1) if sizes[s := (asker + k) % players] > 0
    )  # players without cards cannot ask
    return Result(position=Position(deals, turn, named, before.playing_on))


def canonical(position: Position) -> Position:
    """The least relabelling of the named suits (by the sorted matrices), so that positions
    differing only by suit names coincide. Unnamed suits are symmetric already."""
    deals, named = position.deals, position.named
    players = len(next(iter(deals)))
    best = None
    for order in itertools.permutations(range(named)):
        columns = [*order, *range(named, players)]
        key = tuple(sorted(tuple(tuple(row[c] for c in columns) for row in m) for m in deals))
        if best is None or key < best:
            best = key
    return Position(frozenset(best or ()), position.turn, named, position.playing_on)


@dataclass(frozen=True)
class GameGraph:
    """Every position reachable from ``root`` and its ask options (complete unless cut off)."""

    root: Position
    options: dict[Position, tuple[AskOption, ...]]
    complete: bool


def explore(
    players: int, no_four: bool = False, limit: int | None = None, playing_on: bool = False
) -> GameGraph:
    """List the reachable positions breadth first; stop after ``limit`` of them if given.

    Positions are stored in :func:`canonical` form, and so are the results in their options.
    """
    root = canonical(start(players, no_four, playing_on))
    options: dict[Position, tuple[AskOption, ...]] = {}
    queue, seen = deque([root]), {root}
    while queue:
        if limit is not None and len(options) >= limit:
            return GameGraph(root, options, complete=False)
        position = queue.popleft()
        found = tuple(_canonical_results(o) for o in ask_options(position))
        options[position] = found
        for option in found:
            for _, result in option.answers:
                nxt = result.position
                if nxt is not None and nxt not in seen:
                    seen.add(nxt)
                    queue.append(nxt)
    return GameGraph(root, options, complete=True)


def _canonical_results(option: AskOption) -> AskOption:
    answers = tuple(
        (
            answer,
            replace(result, position=canonical(result.position)) if result.position else result,
        )
        for answer, result in option.answers
    )
    return replace(option, answers=answers)


def forced_wins(graph: GameGraph, team: Sequence[int]) -> dict[Position, int]:
    """Positions from which ``team`` forces that one of its members wins, with the number of
    turns that takes at most (least fixed point; needs a complete graph to be exact)."""
    members = frozenset(team)
    turns: dict[Position, int] = {}

    def wins(result: Result) -> bool:
        if result.winners:
            return bool(members & set(result.winners))
        return result.position in turns

    def ask_wins(option: AskOption) -> bool:
        outcomes = [wins(r) for _, r in option.answers]
        return any(outcomes) if option.target in members else all(outcomes)

    rounds = 0
    while True:
        rounds += 1
        new = [
            position
            for position, options in graph.options.items()
            if position not in turns
            and (any if position.turn in members else all)(ask_wins(o) for o in options)
        ]
        if not new:
            return turns
        turns.update(dict.fromkeys(new, rounds))


@dataclass(frozen=True)
class TeamResult:
    """Whether ``team`` can force one of its members to win from the start, and how fast.

    Attributes:
        team: seats (0 asks first).
        forced: the team wins whatever the others do.
        turns: turns needed at most when ``forced``.
        share: fraction of all positions from which the team can force a win.
    """

    team: tuple[int, ...]
    forced: bool
    turns: int | None
    share: float


@dataclass(frozen=True)
class Solution:
    """Optimal play from the start of a game (see the module docstring for the convention)."""

    players: int
    no_four: bool
    playing_on: bool
    initial_deals: int
    positions: int
    teams: tuple[TeamResult, ...]

    @property
    def winners(self) -> tuple[int, ...]:
        """Seats that can force a win alone."""
        return tuple(t.team[0] for t in self.teams if len(t.team) == 1 and t.forced)

    @property
    def verdict(self) -> str:
        if self.winners:
            seats = ", ".join(f"seat {s + 1}" for s in self.winners)
            return f"{seats} can force a win"
        if self.players == 2:
            return "draw: neither player can force a win, so optimal play repeats for ever"
        return "no player can force a win against the others together"

    def to_json(self) -> dict:
        return {
            **json_fields(self, "players no_four playing_on initial_deals positions verdict"),
            "teams": [
                {
                    "team": [s + 1 for s in t.team],
                    "forced": t.forced,
                    "turns": t.turns,
                    "share": t.share,
                }
                for t in self.teams
            ],
        }


def solve(
    players: int, no_four: bool = False, limit: int | None = None, playing_on: bool = False
) -> Solution:
    """Solve the game for every single player and every team of two or more (but not all).

    Raises:
        ValueError: if the graph has more than ``limit`` positions (the analysis would not be
            exact: a cut-off graph proves nothing about the positions beyond the cut).
    """
    no_four = no_four or playing_on
    graph = explore(players, no_four, limit, playing_on)
    if not graph.complete:
        raise ValueError(
            f"{players} players: more than {limit} positions; the search did not finish"
        )
    teams = [
        team for size in range(1, players) for team in itertools.combinations(range(players), size)
    ]
    results = []
    for team in teams:
        turns = forced_wins(graph, team)
        results.append(
            TeamResult(
                team=team,
                forced=graph.root in turns,
                turns=turns.get(graph.root),
                share=len(turns) / len(graph.options),
            )
        )
    return Solution(
        players=players,
        no_four=no_four,
        playing_on=playing_on,
        initial_deals=len(all_deals(players, no_four)),
        positions=len(graph.options),
        teams=tuple(results),
    )
