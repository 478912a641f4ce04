"""Game records: read, replay, write.

A record is plain text, one item per line; ``#`` starts a comment and blank lines are skipped::

    size 6
    komi 0
    variant weak
    B D3 C2
    W C4 D5
    B D4 C3 keep D3 C4 D4
    W pass
    B pass

The header lines (``size``, default 19; ``komi``, default 0; ``variant NAME``, any number, see
:data:`~qcards.games.qgo.rules.VARIANTS`) come before the first move. A move line is a colour
(``B`` or ``W``) and then ``pass``, ``resign`` or the points of the stones, optionally followed
by ``keep`` and the stones that survive the collapses the move causes.

The record is strict: colours must alternate starting with Black (the rules say so, so a line
with the wrong colour is an error, not a silent skip), and ``keep`` must list the surviving
stone(s) of *every* group that collapses on that move, in any order, even when the choice is
forced; a missing, extra or not allowed stone is an error that names the line and lists the
allowed choices. Replay stops at the first bad line (a :class:`~qcards.games.qgo.errors.QgoError`
reading ``"FILE, line N: ..."``).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from qcards.files import read_text
from qcards.games.qgo.board import Colour, Point, format_points, parse_point
from qcards.games.qgo.collapse import Decision
from qcards.games.qgo.errors import QgoError
from qcards.games.qgo.game import Move, QuantumGo
from qcards.games.qgo.rules import Rules


@dataclass(frozen=True)
class RecordLine:
    """One move of a record: where it was written, the move, and its ``keep`` list."""

    number: int
    move: Move
    keep: tuple[Point, ...] = ()


@dataclass(frozen=True)
class Record:
    """A parsed record: the rules from its header and its moves."""

    name: str
    rules: Rules
    lines: tuple[RecordLine, ...]


def parse_record(text: str, name: str = "<record>") -> Record:
    """Read a record (see the module docstring); syntax errors name ``name`` and the line."""
    header: dict[str, str] = {}
    variants: list[str] = []
    rules: Rules | None = None
    lines: list[RecordLine] = []
    for number, raw in enumerate(text.splitlines(), start=1):
        words = raw.split("#", 1)[0].split()
        if not words:
            continue
        try:
            key = words[0].lower()
            if key in ("size", "komi", "variant"):
                if rules is not None:
                    raise QgoError(f"'{key}' must come before the first move")
                if len(words) != 2:
                    raise QgoError(f"'{key}' takes one value")
                if key == "variant":
                    variants.append(words[1])
                elif key in header:
                    raise QgoError(f"'{key}' given twice")
                else:
                    header[key] = words[1]
                _rules(header, variants)  # check the value on its own line
                continue
            if rules is None:
                rules = _rules(header, variants)
            lines.append(_move_line(number, words, rules.size))
        except QgoError as exc:
            raise QgoError(f"{name}, line {number}: {exc}") from None
    try:
        rules = rules or _rules(header, variants)
    except QgoError as exc:
        raise QgoError(f"{name}: {exc}") from None
    return Record(name, rules, tuple(lines))


def _rules(header: dict[str, str], variants: list[str]) -> Rules:
    try:
        size = int(header.get("size", "19"))
        komi = float(header.get("komi", "0"))
    except ValueError:
        raise QgoError("size must be a whole number and komi a number") from None
    return Rules.from_variants(size, komi, variants)


def _move_line(number: int, words: list[str], size: int) -> RecordLine:
    colour_word = words[0].upper()
    if colour_word not in ("B", "W"):
        raise QgoError(f"expected B or W (or size, komi, variant), not {words[0]!r}")
    colour = Colour(colour_word)
    rest = [w.lower() for w in words[1:]]
    if rest in (["pass"], ["resign"]):
        return RecordLine(number, Move(colour, resign=rest == ["resign"]))
    if "keep" in rest:
        cut = rest.index("keep")
        stones, keep = words[1 : cut + 1], words[cut + 2 :]
        if not keep:
            raise QgoError("'keep' needs at least one point")
    else:
        stones, keep = words[1:], []
    if not stones:
        raise QgoError("a move needs points, 'pass' or 'resign'")
    try:
        points = tuple(parse_point(w, size) for w in stones)
        kept = tuple(parse_point(w, size) for w in keep)
    except ValueError as exc:
        raise QgoError(str(exc)) from None
    return RecordLine(number, Move(colour, points), kept)


def load_record(path: str | Path) -> Record:
    """Read a record file; an unreadable file is a QgoError."""
    text = read_text(path, QgoError, "record")  # a regular file of at most 1 MiB
    return parse_record(text, str(path))


class _KeepList:
    """Answers collapse decisions from a record line's ``keep`` list."""

    def __init__(self, keep: tuple[Point, ...]) -> None:
        self.unused = list(keep)

    def __call__(self, decision: Decision) -> tuple[Point, ...]:
        kept = tuple(p for p in decision.group.points if p in self.unused)
        if kept not in decision.options:
            listed = f"lists {format_points(kept)}" if kept else "lists none of its stones"
            raise QgoError(
                f"{decision.group.describe()} collapses (step {decision.step}): "
                f"{decision.explain()}; the record {listed}"
            )
        for p in kept:
            self.unused.remove(p)
        return kept


def replay(record: Record) -> QuantumGo:
    """Play every line of ``record``; the first illegal line raises QgoError naming it."""
    game = QuantumGo(record.rules)
    for line in record.lines:
        chooser = _KeepList(line.keep)
        try:
            game.play(line.move, chooser)
            if chooser.unused:
                raise QgoError(
                    f"keep {format_points(chooser.unused)}: no group collapsing on this move "
                    "has a stone there"
                )
        except QgoError as exc:
            raise QgoError(f"{record.name}, line {line.number}: {exc}") from None
    return game


def summary(game: QuantumGo) -> dict:
    """The JSON summary of a game: result, score, board (top row first), moves, finished."""
    score = game.score()
    return {
        "result": score.result,
        "score": score.to_json(),
        "board": game.rows(),
        "moves": len(game.turns),
        "finished": game.finished,
    }


def replay_json(path: str | Path) -> dict:
    """Load and replay a record file; return :func:`summary` of the final position."""
    return summary(replay(load_record(path)))


def write_record(game: QuantumGo) -> str:
    """The record of ``game`` (header and one line per move), readable by :func:`parse_record`."""
    rules = game.rules
    komi = int(rules.komi) if float(rules.komi).is_integer() else rules.komi
    lines = [f"size {rules.size}", f"komi {komi}"]
    lines += [f"variant {v}" for v in rules.variants]
    lines += [turn.record_line() for turn in game.turns]
    return "\n".join(lines) + "\n"
