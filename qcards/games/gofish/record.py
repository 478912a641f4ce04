"""Game records: read them, and replay them through the referee.

A record is plain text, one statement a line::

    players Ann Bo Cy
    Ann asks Bo for narwhals: yes
    Bo asks Cy for narwhals: no

Blank lines are skipped and ``#`` starts a comment (so names cannot contain ``#``). Names and
suits are single tokens; suits also cannot contain ``:`` nor start with ``?`` (the referee's mark
for suits not named yet). Answers are ``yes`` or ``no`` in any
letter case. Reading checks the syntax only; :func:`replay` checks the rules, and stops at the
first win or paradox (later moves are listed as ignored, not checked).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any, TypeVar

from qcards.files import read_text
from qcards.games.gofish.errors import RecordError, RuleError
from qcards.games.gofish.game import ANSWERS, GoFish, Hand, Move, Outcome
from qcards.games.gofish.knowledge import Knowledge

_MOVE = re.compile(r"(\S+)\s+asks\s+(\S+)\s+for\s+([^\s:]+)\s*:\s*(\S+)")
T = TypeVar("T")
_SHAPES = "'players NAME NAME ...' or 'NAME asks NAME for SUIT: yes|no'"


@dataclass(frozen=True)
class RecordedMove:
    """One move line of a record."""

    line: int
    asker: str
    target: str
    suit: str
    answer: str


@dataclass(frozen=True)
class Record:
    """A parsed record: the players (and the line naming them) and the moves in order."""

    source: str
    players: tuple[str, ...]
    players_line: int
    moves: tuple[RecordedMove, ...]


@dataclass(frozen=True)
class Replay:
    """A replayed record: every move played, with the answers that were allowed.

    Attributes:
        players: names in seat order.
        suits: suit names in the order they were named.
        moves: the moves played (up to the end of the game).
        lines: the record line of each move.
        outcome: how the game stands after the last move played.
        hands: what is provable about each hand at that point (after a paradox: just before
            the paradoxical answer).
        ignored: lines of moves after the end of the game, not replayed.
        knowledge: the exact knowledge at that point (bounds on the initial deal).
        variants: the variants in force (``"no-four"``, ``"lose-a-turn"``, ``"playing-on"``).
        skips: turns each player still has to sit out (variant lose-a-turn).
    """

    players: tuple[str, ...]
    suits: tuple[str, ...]
    moves: tuple[Move, ...]
    lines: tuple[int, ...]
    outcome: Outcome
    hands: dict[str, Hand]
    ignored: tuple[int, ...]
    knowledge: Knowledge
    variants: tuple[str, ...] = ()
    skips: dict[str, int] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        """The JSON form documented in the README.

        The keys of the standard and no-four games are fixed. Under lose-a-turn each move also
        has ``refused`` and ``applied`` and the top level ``skips``; under playing-on each move
        has ``laid_down``; under either the top level has ``variants``.
        """
        lose, on = "lose-a-turn" in self.variants, "playing-on" in self.variants
        data: dict[str, Any] = {
            "players": list(self.players),
            "suits": list(self.suits),
            "moves": [
                _move_json(line, m, lose, on)
                for line, m in zip(self.lines, self.moves, strict=True)
            ],
            "result": {
                "status": self.outcome.status,
                "winners": list(self.outcome.winners),
                "reason": self.outcome.reason,
            },
            "hands": {
                name: {
                    "size": h.size,
                    "known": dict(h.known),
                    "excluded": list(h.excluded),
                    "unknown": h.unknown,
                }
                for name, h in self.hands.items()
            },
        }
        if lose or on:
            data["variants"] = list(self.variants)
        if lose:
            data["skips"] = dict(self.skips)
        return data


def _move_json(line: int, move: Move, lose_a_turn: bool, playing_on: bool) -> dict[str, Any]:
    """One move of :meth:`Replay.to_json`, with the keys of the variants in force."""
    data: dict[str, Any] = {
        "line": line,
        "asker": move.asker,
        "target": move.target,
        "suit": move.suit,
        "answer": move.answer,
        "allowed": list(move.allowed),
    }
    if lose_a_turn:
        data["refused"] = move.refused
        data["applied"] = move.applied
    if playing_on:
        data["laid_down"] = [{"player": p, "suit": s} for p, s in move.laid_down]
    return data


def parse_record(text: str, source: str = "<record>") -> Record:
    """Read a record's text (syntax only).

    Raises:
        RecordError: ``"SOURCE, line N: ..."`` for a line that cannot be read.
    """
    players: tuple[str, ...] | None = None
    players_line = 0
    moves = []
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        where = f"{source}, line {number}"
        words = line.split()
        match = _MOVE.fullmatch(line)  # first, so that a player may be called "players"
        if match is None and words[0] == "players":
            if players is not None:
                raise RecordError(
                    f"{where}: a second 'players' line (the first is line {players_line})"
                )
            players, players_line = tuple(words[1:]), number
            continue
        if match is None:
            raise RecordError(f"{where}: cannot read {line!r}; expected {_SHAPES}")
        if players is None:
            raise RecordError(f"{where}: a move before the 'players' line")
        asker, target, suit, answer = match.groups()
        if answer.lower() not in ANSWERS:
            raise RecordError(f"{where}: the answer must be 'yes' or 'no', not {answer!r}")
        moves.append(RecordedMove(number, asker, target, suit, answer.lower()))
    if players is None:
        raise RecordError(f"{source}: no 'players' line")
    return Record(source, players, players_line, tuple(moves))


def load_record(path: str | Path) -> Record:
    """Read and parse a record file (the path as given names it in errors).

    Raises:
        RecordError: if the file cannot be read or parsed.
    """
    text = read_text(path, RecordError, "record")  # a regular file of at most 1 MiB
    return parse_record(text, source=str(path))


def replay(
    record: Record,
    no_four: bool = False,
    lose_a_turn: bool = False,
    playing_on: bool = False,
) -> Replay:
    """Play a record through the referee, stopping at the first win or paradox.

    The variant options are those of :class:`~.game.GoFish`. Under lose-a-turn a refused
    answer stays as written in the record; the move says it was refused.

    Raises:
        RecordError: ``"SOURCE, line N: ..."`` for a move (or player list) that breaks a rule.
    """
    game = _at_line(
        record,
        record.players_line,
        lambda: GoFish(record.players, no_four, lose_a_turn, playing_on),
    )
    played, ignored = [], []
    for m in record.moves:
        if game.over:
            ignored.append(m.line)
            continue
        _at_line(record, m.line, partial(game.play, m.asker, m.target, m.suit, m.answer))
        played.append(m.line)
    return Replay(
        players=game.players,
        suits=game.suits,
        moves=game.moves,
        lines=tuple(played),
        outcome=game.outcome,
        hands=game.hands(),
        ignored=tuple(ignored),
        knowledge=game.knowledge,
        variants=game.variant_names,
        skips=game.skips,
    )


def replay_json(
    record: Record,
    no_four: bool = False,
    lose_a_turn: bool = False,
    playing_on: bool = False,
) -> dict[str, Any]:
    """:func:`replay` in its JSON form."""
    return replay(record, no_four, lose_a_turn, playing_on).to_json()


def move_line(move: Move) -> str:
    """A move as a record line: ``"Ann asks Bo for narwhals: yes"``."""
    return f"{move.asker} asks {move.target} for {move.suit}: {move.answer}"


def write_record(game: GoFish) -> str:
    """The record of ``game`` so far, replayable by :func:`replay`. The variants in force are
    named in a first comment (the record must be replayed with them); a refused answer is
    written as it was given."""
    names = game.variant_names
    lines = []
    if names:
        flags = " ".join(f"--{name}" for name in names)
        plural = "s" if len(names) > 1 else ""
        lines.append(f"# variant{plural}: {' '.join(names)} (replay with {flags})")
    lines.append("players " + " ".join(game.players))
    lines += [move_line(m) for m in game.moves]
    return "\n".join(lines) + "\n"


def _at_line(record: Record, line: int, step: Callable[[], T]) -> T:
    """Run ``step``; a RuleError becomes a RecordError naming the record's line."""
    try:
        return step()
    except RuleError as exc:
        raise RecordError(f"{record.source}, line {line}: {exc}") from None
