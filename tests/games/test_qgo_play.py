"""Terminal play through scripted streams: hot-seat, against the bot, bot against bot."""

from __future__ import annotations

import io
import sys

import pytest

from qcards.cli import main
from qcards.games.qgo.board import Colour
from qcards.games.qgo.bots import SimpleBot
from qcards.games.qgo.game import QuantumGo
from qcards.games.qgo.record import load_record, parse_record, replay, summary, write_record
from qcards.games.qgo.rules import VARIANTS, Rules
from qcards.games.qgo.terminal import Human, draw, play_terminal

HOT_SEAT = """\
A1 A1
Z9 A1
A1 E5
A2 C3
A1
B2 D4
B2
pass
A3 E1
A3
pass
pass
"""


def play_cli(monkeypatch, capsys, script: str, *argv: str) -> str:
    monkeypatch.setattr(sys, "stdin", io.StringIO(script))
    assert main(["qgo", "play", *argv]) == 0
    return capsys.readouterr().out


def test_hot_seat_game(monkeypatch, capsys, tmp_path):
    record, sgf = tmp_path / "game.txt", tmp_path / "game.sgf"
    argv = ("--size", "5", "--bot", "none", "--record", str(record), "--sgf", str(sgf))
    out = play_cli(monkeypatch, capsys, HOT_SEAT, *argv)
    assert "illegal: A1 A1: the stones need distinct points" in out
    assert "Black (X) to move: Z9 A1\n  illegal: Z9 is off the 5x5 board" in out
    # the first pair is drawn with its label on both points
    assert " 5  .  .  .  .  x1 5" in out and " 1  x1 .  .  .  .  1" in out
    assert "Black pair A1 E5 collapses (step 2): keep A1 or E5? " in out
    assert "White pair A2 C3 collapses (step 3): A2 stays (the only choice)" in out
    assert "   step 2: Black pair A1 E5 keeps A1, removes E5" in out
    assert "   captured: A2" in out
    assert out.rstrip().endswith("Game over: B+25 (Black 25, White 0 with komi 0)")
    game = replay(load_record(record))
    assert summary(game)["result"] == "B+25" and len(game.turns) == 7
    assert sgf.read_text().count("\n;") == 7


def test_human_against_the_bot(monkeypatch, capsys):
    out = play_cli(monkeypatch, capsys, "C3 C2\nC3\nresign\n", "--size", "5", "--seed", "3")
    assert "keep C3 or C2? C3\n1. B C3 C2\n" in out
    assert "\n2. W " in out  # the bot answered
    assert "Black (X) to move: resign\n3. B resign\n" in out
    assert "Game over: W+R" in out


def test_input_ending_leaves_the_game_unfinished():
    out = io.StringIO()
    game = QuantumGo(Rules(size=4))
    players = {c: Human(c, io.StringIO("A1 D4\n"), out) for c in Colour}
    play_terminal(game, players, out)
    assert not game.finished and len(game.turns) == 1
    assert out.getvalue().endswith("input ended; game not finished\n")


def test_bots_finish_a_game_that_replays_to_the_same_result(tmp_path):
    out = io.StringIO()
    saved = {}
    game = QuantumGo(Rules(size=5, komi=0.5))
    bots = {c: SimpleBot(c, seed=7 + i) for i, c in enumerate(Colour)}
    play_terminal(game, bots, out, on_end=lambda g: saved.setdefault("game", g))
    assert game.finished and saved["game"] is game
    assert f"Game over: {game.score().result}" in out.getvalue()
    again = replay(parse_record(write_record(game)))
    assert summary(again) == summary(game)
    assert draw(again) == draw(game)


@pytest.mark.parametrize("variant", VARIANTS)
def test_bots_play_every_variant(variant):
    game = QuantumGo(Rules.from_variants(4, 0, [variant]))
    bots = {c: SimpleBot(c, seed=1 + i, candidates=6) for i, c in enumerate(Colour)}
    play_terminal(game, bots, io.StringIO())
    assert game.finished
    assert summary(replay(parse_record(write_record(game)))) == summary(game)
