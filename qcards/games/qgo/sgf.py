"""SGF export of a game, readable by ordinary Go software.

SGF has no move with two stones, so every move becomes a *setup* node that adds and removes
stones (``AB``, ``AW``, ``AE``) to show the board after the move, collapse and captures done.
Stones still entangled carry a triangle mark (``TR``); the node's comment (``C``) holds the
move in record syntax (:mod:`~qcards.games.qgo.record`), so the game can be read back exactly.
The root gives the size, komi, rules (``RU[Quantum Go ...]``) and result.
"""

from __future__ import annotations

from collections.abc import Iterator

from qcards.games.qgo.board import Colour, Point
from qcards.games.qgo.collapse import Decision
from qcards.games.qgo.game import QuantumGo, Turn


def _sgf_point(point: Point, size: int) -> str:
    # SGF counts columns from the left and rows from the top, with letters a, b, ...
    return (
        "abcdefghijklmnopqrstuvwxyz"[point[0]] + "abcdefghijklmnopqrstuvwxyz"[size - 1 - point[1]]
    )


def _escape(text: str) -> str:
    return text.replace("\\", "\\\\").replace("]", "\\]")


def _prop(name: str, points: list[Point], size: int) -> str:
    if not points:
        return ""
    return name + "".join(f"[{v}]" for v in sorted(_sgf_point(p, size) for p in points))


def replayed(game: QuantumGo) -> Iterator[tuple[Turn, QuantumGo]]:
    """Play ``game``'s moves again from the start, yielding each turn with the game after it."""
    again = QuantumGo(game.rules)
    for turn in game.turns:
        kept = {c.group.points: c.kept for c in turn.collapses}

        def choose(decision: Decision, kept=kept) -> tuple[Point, ...]:
            return kept[decision.group.points]

        again.play(turn.move, choose)
        yield turn, again


def to_sgf(game: QuantumGo) -> str:
    """The game as one SGF game tree (see the module docstring)."""
    size = game.size
    rules = " ".join(("Quantum Go", *game.rules.variants))
    komi = f"{game.rules.komi:g}"
    nodes = [
        f"(;GM[1]FF[4]CA[UTF-8]AP[qcards]SZ[{size}]KM[{komi}]RU[{_escape(rules)}]"
        f"RE[{game.score().result if game.finished else '?'}]"
        "GC[Quantum Go: each node shows the board after one move; triangles mark "
        "entangled stones; comments hold the moves in qcards record syntax]"
    ]
    before: dict[Point, Colour] = {}
    for turn, after in replayed(game):
        now = dict(after.stones)
        black = [p for p, c in now.items() if c is Colour.BLACK and before.get(p) is not c]
        white = [p for p, c in now.items() if c is Colour.WHITE and before.get(p) is not c]
        empty = [p for p in before if p not in now]
        quantum = [p for g in after.entangled for p in g.points]
        nodes.append(
            ";"
            + _prop("AB", black, size)
            + _prop("AW", white, size)
            + _prop("AE", empty, size)
            + _prop("TR", quantum, size)
            + f"PL[{after.to_move.value}]C[{_escape(turn.record_line())}]"
        )
        before = now
    return "\n".join(nodes) + ")\n"
