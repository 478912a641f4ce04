"""Playing Quantum Go in a terminal: the board as text, human players, and the game loop.

On the board, ``X`` and ``O`` are Black's and White's ordinary stones and ``.`` an empty point;
an entangled stone is drawn ``x`` or ``o`` followed by the number of the move that placed it,
so the two (or three) stones of one group carry the same label (``x7 ... x7``).

A human types a move as the points of her stones (``D3 C2``), ``pass`` or ``resign``; when one
of her groups collapses she types the stone(s) to keep, unless only one choice is allowed
(then the program says so and keeps it). Input and output are streams, so a scripted game is
a test; input that is not a terminal is echoed, and its end stops the game where it is.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Protocol, TextIO

from qcards.games.qgo.board import COLUMNS, Colour, Point, format_points, parse_point
from qcards.games.qgo.collapse import Decision
from qcards.games.qgo.errors import QgoError
from qcards.games.qgo.game import Move, QuantumGo, Turn
from qcards.games.terminal_io import read_line

SYMBOLS = {Colour.BLACK: "X", Colour.WHITE: "O"}


class Player(Protocol):
    """Anything that can move and answer collapse decisions for one colour."""

    def move(self, game: QuantumGo) -> Move: ...

    def choose(self, game: QuantumGo, decision: Decision) -> tuple[Point, ...]: ...


class EndOfInput(Exception):
    """The human's input stream ended: the game stops unfinished."""


def draw(game: QuantumGo) -> str:
    """The board as text, top row first, with coordinates on all four sides."""
    labels = {p: f"{SYMBOLS[g.colour].lower()}{g.label}" for g in game.entangled for p in g.points}
    cells = {p: labels.get(p, SYMBOLS[c]) for p, c in game.stones.items()}
    width = max([2, *(len(v) + 1 for v in cells.values())])
    size = game.size
    letters = "    " + "".join(c.ljust(width) for c in COLUMNS[:size])
    lines = [letters.rstrip()]
    for row in reversed(range(size)):
        line = "".join(cells.get((col, row), ".").ljust(width) for col in range(size))
        lines.append(f"{row + 1:>2}  {line}{row + 1}")
    lines.append(letters.rstrip())
    return "\n".join(lines)


def describe_turn(turn: Turn) -> list[str]:
    """What a move did, in short lines: the move, each collapse, the captures."""
    lines = [f"{turn.number}. {turn.move.describe()}"]
    for c in turn.collapses:
        gone = f", removes {format_points(c.removed)}" if c.removed else ""
        lines.append(f"   step {c.step}: {c.group.describe()} keeps {format_points(c.kept)}{gone}")
    if turn.captured:
        lines.append(f"   captured: {format_points(turn.captured)}")
    return lines


class Human:
    """A player at the terminal, reading from ``inp`` and writing to ``out``."""

    def __init__(self, colour: Colour, inp: TextIO, out: TextIO) -> None:
        self.colour = colour
        self.inp = inp
        self.out = out

    def _ask(self, prompt: str) -> str:
        return read_line(self.inp, self.out, prompt, EndOfInput())

    def move(self, game: QuantumGo) -> Move:
        while True:
            text = self._ask(f"{self.colour.label} ({SYMBOLS[self.colour]}) to move: ")
            word = text.lower()
            if word in ("pass", "resign"):
                return Move(self.colour, resign=word == "resign")
            try:
                move = Move(self.colour, tuple(parse_point(w, game.size) for w in text.split()))
                game.check_shape(move)
                return move
            except (ValueError, QgoError) as exc:
                self.out.write(f"  illegal: {exc}\n")

    def choose(self, game: QuantumGo, decision: Decision) -> tuple[Point, ...]:
        head = f"{decision.group.describe()} collapses (step {decision.step})"
        if len(decision.options) == 1:
            (only,) = decision.options
            self.out.write(f"{head}: {format_points(only)} stays (the only choice)\n")
            return only
        while True:
            text = self._ask(f"{head}: {decision.explain()}? ")
            try:
                kept = tuple(sorted(parse_point(w, game.size) for w in text.split()))
            except ValueError as exc:
                self.out.write(f"  {exc}\n")
                continue
            for option in decision.options:
                if tuple(sorted(option)) == kept:
                    return option
            self.out.write(f"  not allowed: {decision.explain()}\n")


def play_terminal(
    game: QuantumGo,
    players: Mapping[Colour, Player],
    out: TextIO,
    on_end: Callable[[QuantumGo], None] | None = None,
) -> QuantumGo:
    """Run ``game`` to its end (or until a human's input ends), drawing it on ``out``.

    Args:
        game: the game to continue (usually a new one).
        players: who plays each colour; a player also answers for its own collapsing groups.
        out: where the board and the moves are written.
        on_end: called with the finished game (e.g. to save it); not called when input ends.
    """
    try:
        while not game.finished:
            out.write(draw(game) + "\n")
            player = players[game.to_move]
            move = player.move(game)
            try:
                turn = game.play(move, lambda d: players[d.colour].choose(game, d))
            except QgoError as exc:
                out.write(f"  illegal: {exc}\n")
                continue
            out.write("\n".join(describe_turn(turn)) + "\n")
    except EndOfInput:
        out.write("\ninput ended; game not finished\n")
        return game
    score = game.score()
    out.write(draw(game) + "\n")
    out.write(
        f"Game over: {score.result} (Black {float(score.black):g}, "
        f"White {float(score.white):g} with komi {game.rules.komi:g})\n"
    )
    if on_end is not None:
        on_end(game)
    return game
