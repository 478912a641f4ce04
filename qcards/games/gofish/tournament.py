"""Bot leagues: seeded games between the bots of :mod:`qcards.games.gofish.bots`, win rates.

The line-up is the list of bot kinds repeated to fill the seats (``random,greedy`` at four
seats: random, greedy, random, greedy). Every game is played once per *seating*: each rotation
of the line-up and each rotation of the reversed line-up (duplicates dropped), so every bot
asks first equally often and sits both before and after every other bot. With three players and
three bots these are all six orders.

Each bot gets its own seed, drawn from one ``random.Random(seed)``, so a league is repeatable.
A game still going after ``max_moves`` moves stops and counts as a draw (``unfinished``).

A league planned to take longer than the time budget (:mod:`qcards.games.time_budget`) is refused
unless forced: before the first game, by the cost of a move at the opening (the search bot's by
the size of its tree, sampled as Knuth's estimator does, times the time per position of a
one-turn search) at one move per game; then by the time of the games played so far.
"""

from __future__ import annotations

import math
import random
import statistics
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from qcards.files import json_fields
from qcards.games.gofish.bots import (
    BOT_KINDS,
    DEFAULT_DEPTH,
    SearchBot,
    after,
    allowed,
    bot_move,
    check_depth,
    make_bot,
    named,
)
from qcards.games.gofish.errors import RuleError
from qcards.games.gofish.game import MAX_PLAYERS, MIN_PLAYERS, GoFish
from qcards.games.time_budget import Projection, check_planned

DEFAULT_MAX_MOVES = 200


@dataclass(frozen=True)
class Standing:
    """One bot kind's results over all the seats it played.

    Attributes:
        bot: the bot kind.
        seats: seats played (games times the seats it held in each).
        wins: seats that won alone.
        shared: seats that won together with other players.
        paradoxes: paradoxes its answers caused (bots never cause one: should be 0).
        unfinished: seats in games stopped by the move cap (draws).
    """

    bot: str
    seats: int
    wins: int
    shared: int
    paradoxes: int
    unfinished: int

    @property
    def win_rate(self) -> float:
        """Seats that won (alone or shared) per seat played."""
        return (self.wins + self.shared) / self.seats

    @property
    def stderr(self) -> float:
        """Standard error of :attr:`win_rate` (binomial, seats taken as independent)."""
        p = self.win_rate
        return math.sqrt(p * (1 - p) / self.seats)

    def to_json(self) -> dict[str, Any]:
        return json_fields(self, "bot seats wins shared paradoxes unfinished win_rate stderr")


@dataclass(frozen=True)
class League:
    """The result of :func:`tournament`.

    Attributes:
        players: seats per game.
        bots: the bot kinds, as given.
        seatings: the seat orders played, bot kinds by seat.
        games_per_seating: games played for each seating.
        seed: the league's seed.
        no_four: whether the no-four variant was played (always with playing-on).
        lose_a_turn: whether the lose-a-turn variant was played (bots never give an answer it
            refuses, so it changes nothing between bots).
        playing_on: whether the playing-on variant was played.
        max_moves: the move cap.
        depth: the search bot's depth.
        standings: one entry per bot kind, in the order given.
        seat_wins: wins (alone or shared) by seat, whoever sat there: the first-move advantage.
        paradoxes: games that ended in a paradox.
        unfinished: games stopped by the move cap.
        mean_moves: mean game length in moves (capped games count ``max_moves``).
        moves_stderr: standard error of :attr:`mean_moves`.
        seconds: wall-clock time of the whole league.
    """

    players: int
    bots: tuple[str, ...]
    seatings: tuple[tuple[str, ...], ...]
    games_per_seating: int
    seed: int
    no_four: bool
    lose_a_turn: bool
    playing_on: bool
    max_moves: int
    depth: int
    standings: tuple[Standing, ...]
    seat_wins: tuple[int, ...]
    paradoxes: int
    unfinished: int
    mean_moves: float
    moves_stderr: float
    seconds: float

    @property
    def games(self) -> int:
        return len(self.seatings) * self.games_per_seating

    def to_json(self) -> dict[str, Any]:
        """Everything as JSON-ready data (``seconds`` is the only field that varies by run)."""
        return {
            "players": self.players,
            "bots": list(self.bots),
            "seatings": [list(s) for s in self.seatings],
            **json_fields(
                self, "games_per_seating games seed no_four lose_a_turn playing_on max_moves depth"
            ),
            "standings": [s.to_json() for s in self.standings],
            "seat_wins": list(self.seat_wins),
            **json_fields(self, "paradoxes unfinished mean_moves moves_stderr seconds"),
        }


def seatings(players: int, bots: Sequence[str]) -> tuple[tuple[str, ...], ...]:
    """The seat orders a league plays: rotations of the line-up and of its reverse."""
    lineup = [bots[k % len(bots)] for k in range(players)]
    out: list[tuple[str, ...]] = []
    for order in (lineup, lineup[::-1]):
        for k in range(players):
            seating = tuple(order[k:] + order[:k])
            if seating not in out:
                out.append(seating)
    return tuple(out)


def tournament(
    players: int = 3,
    games: int = 10,
    bots: Sequence[str] = BOT_KINDS,
    seed: int = 0,
    no_four: bool = False,
    max_moves: int = DEFAULT_MAX_MOVES,
    depth: int = DEFAULT_DEPTH,
    lose_a_turn: bool = False,
    playing_on: bool = False,
    force: bool = False,
) -> League:
    """Play ``games`` games per seating and count each bot kind's results.

    The variant options are those of :class:`~.game.GoFish`. Playing-on games may never end:
    the move cap stops them.

    Raises:
        RuleError: for an unknown bot, more bot kinds than seats, a player count outside 2..8,
            fewer than one game, move, or search turn, a search deeper than the recursion
            allows (:func:`~.bots.max_depth`), or (unless ``force``) a league planned to take
            longer than the time budget (see the module docstring).
    """
    bots = tuple(bots)
    _check(players, games, bots, max_moves, depth)
    order = seatings(players, bots)
    total = len(order) * games
    what = f"a league of {total:,} games of {players} players ({', '.join(bots)})"
    variants = {"no_four": no_four, "lose_a_turn": lose_a_turn, "playing_on": playing_on}
    if not force:
        _refuse(opening_move_seconds(order[0], depth, variants) * total, what, force)
    projection = Projection(total, what, force, lambda s, w: _refuse(s, w, force))
    rng = random.Random(seed)
    tally = {kind: [0, 0, 0, 0, 0] for kind in bots}  # seats, wins, shared, paradoxes, capped
    lengths: list[int] = []
    seat_wins = [0] * players
    paradoxes = unfinished = 0
    start = time.perf_counter()
    for seating in order:
        names = [f"{kind}{seat + 1}" for seat, kind in enumerate(seating)]
        kinds = dict(zip(names, seating, strict=True))
        for _ in range(games):
            seats = {n: make_bot(k, rng.randrange(2**32), depth) for n, k in kinds.items()}
            game = GoFish(names, no_four, lose_a_turn, playing_on)
            while not game.over and len(game.moves) < max_moves:
                bot_move(game, seats)
                projection.partial()
            projection.done()
            lengths.append(len(game.moves))
            outcome = game.outcome
            paradoxes += outcome.status == "paradox"
            unfinished += not game.over
            if outcome.status == "paradox":
                tally[kinds[game.moves[-1].target]][3] += 1
            for seat, (name, kind) in enumerate(kinds.items()):
                seat_wins[seat] += name in outcome.winners
                counts = tally[kind]
                counts[0] += 1
                counts[4] += not game.over
                if name in outcome.winners:
                    counts[1 if len(outcome.winners) == 1 else 2] += 1
    seconds = time.perf_counter() - start
    return League(
        players=players,
        bots=bots,
        seatings=order,
        games_per_seating=games,
        seed=seed,
        no_four=no_four or playing_on,
        lose_a_turn=lose_a_turn,
        playing_on=playing_on,
        max_moves=max_moves,
        depth=depth,
        standings=tuple(Standing(kind, *tally[kind]) for kind in bots),
        seat_wins=tuple(seat_wins),
        paradoxes=paradoxes,
        unfinished=unfinished,
        mean_moves=statistics.fmean(lengths),
        moves_stderr=_stderr(lengths),
        seconds=seconds,
    )


def _check(players: int, games: int, bots: tuple[str, ...], max_moves: int, depth: int) -> None:
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise RuleError(
            f"{{players}} {players}: the game needs {MIN_PLAYERS} to {MAX_PLAYERS}",
            parameters=("players",),
        )
    if not bots:
        raise RuleError("no bots given")
    unknown = [b for b in bots if b not in BOT_KINDS]
    if unknown:
        raise RuleError(f"unknown bot {unknown[0]!r} (choose from {', '.join(BOT_KINDS)})")
    if len(set(bots)) < len(bots):
        raise RuleError(f"bot {next(b for b in bots if bots.count(b) > 1)!r} is listed twice")
    if len(bots) > players:
        raise RuleError(f"{len(bots)} bots for {players} seats: list at most {players}")
    if games < 1:
        raise RuleError(
            f"{{games}} {games}: play at least one game per seating", parameters=("games",)
        )
    if max_moves < 1:
        raise RuleError(
            f"{{max_moves}} {max_moves}: allow at least one move", parameters=("max_moves",)
        )
    if depth < 1:
        raise RuleError(f"{{depth}} {depth}: search at least one turn", parameters=("depth",))
    if "search" in bots:
        check_depth(depth)


def _refuse(seconds: float, what: str, force: bool) -> None:
    check_planned(
        seconds,
        what,
        force,
        RuleError,
        "fewer {games}, fewer {players}, or a smaller {depth} for search bots",
    )


KNUTH_PROBES = 16
"""Random descents of the search tree that estimate its size (Knuth's estimator)."""

WIDEST = 1e15
"""A level of the search tree this wide ends a descent: the estimate is past any budget."""


def opening_move_seconds(seating: Sequence[str], depth: int, variants: dict) -> float:
    """Seconds of a move at the opening, averaged over the seats of ``seating`` (bot kinds):
    one move of each kind timed, a search bot's as its tree's estimated positions
    (:func:`search_positions`) times the time per position of a one-turn search."""
    names = [f"{kind}{seat + 1}" for seat, kind in enumerate(seating)]
    game = GoFish(names, **variants)
    cost = {}
    for kind in dict.fromkeys(seating):
        start = time.perf_counter()
        if kind == "search":
            SearchBot(0, 1).choose_ask(game)
            per_position = (time.perf_counter() - start) / max(1, search_positions(game, 1))
            cost[kind] = per_position * search_positions(game, depth)
        else:
            make_bot(kind, 0, depth).choose_ask(game)
            cost[kind] = time.perf_counter() - start
    return statistics.fmean(cost[kind] for kind in seating)


def search_positions(game: GoFish, depth: int, seed: int = 0) -> float:
    """The positions a search of ``depth`` turns from ``game`` reaches, estimated by Knuth's
    estimator: random descents, each counting a level as the product of the branching factors
    (asks times their consistent answers) above it; exact for one turn."""
    rng = random.Random(seed)
    total = 0.0
    for _ in range(1 if depth == 1 else KNUTH_PROBES):
        position, width = game, 1.0
        for _ in range(depth):
            if position.over:
                break
            options = [
                (ask, answer)
                for ask in (named(position, a) for a in position.legal_asks())
                for answer in allowed(position, ask)
            ]
            width *= len(options)
            total += width
            if width > WIDEST:
                break  # far past any budget already
            position = after(position, *rng.choice(options))
    return total / (1 if depth == 1 else KNUTH_PROBES)


def _stderr(values: Sequence[int]) -> float:
    """Standard error of the mean (0 for a single value)."""
    if len(values) < 2:
        return 0.0
    return statistics.stdev(values) / math.sqrt(len(values))
