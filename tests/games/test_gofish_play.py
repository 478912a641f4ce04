"""Quantum Go Fish in the terminal through scripted streams, and the play/tournament CLI."""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path

import pytest

from qcards.cli import main
from qcards.games.gofish import GoFish, load_record, replay
from qcards.games.gofish.terminal import draw, hints, play_game

DATA = Path(__file__).parent / "data"

# the book's sample game, hot-seat; forced answers (Yael's 3, Xia's 2) are given by the program
BOOK = """\
Yael 1
no
Zoe 2
yes
ask Yael 3
Zoe 1
yes
Xia 3
yes
Xia 2
"""


def play(script: str, **options) -> tuple[GoFish, str]:
    out = io.StringIO()
    game = play_game(inp=io.StringIO(script), out=out, **options)
    return game, out.getvalue()


def test_hot_seat_book_game_writes_a_replayable_record(tmp_path) -> None:
    record = tmp_path / "game.txt"
    names = ["Xia", "Yael", "Zoe"]
    game, out = play(BOOK, players=3, bots=0, names=names, record=record)
    assert game.outcome.winners == ("Zoe",)
    assert (
        "Yael must say yes (no would be a paradox)\n3. Zoe asks Yael for 3: yes (new suit, forced)"
        in out
    )
    assert "Xia, Yael asks you for 2 (yes/no)" not in out  # nobody asked Xia to choose
    assert "Xia must say no (yes would be a paradox)" in out
    assert out.endswith("result: Zoe wins (every hand is determined)\n")
    assert "1. Xia asks Yael for 1: no (new suit)" in out
    expected = replay(load_record(DATA / "book.txt"))
    assert replay(load_record(record)).moves == expected.moves


def test_table_is_drawn_like_the_paperclip_deck() -> None:
    game, _ = play("", players=3, bots=0, names=["A", "B", "C"])
    for m in load_record(DATA / "wikipedia.txt").moves[:3]:
        game.play(m.asker, m.target, m.suit, m.answer)
    assert draw(game, {"B": "greedy bot"}).splitlines() == [
        "> A               [1]@@  #2#    [?1]@@@  in hand: - (5 cards)",
        "  B (greedy bot)  [1]@@  [2]@   [?1]     in hand: @ (4 cards)",
        "  C               #1#    [2]@@  [?1]     in hand: @ (3 cards)",
    ]
    assert hints(game)[0] == "hint: you win whatever the answer: B <new suit>; C <new suit>"


def test_human_against_bots_with_bad_input_hint_and_undo() -> None:
    lines = ["undo", "help", "Bo", "Zed fish", "Bo ?1", "Bo fi:sh", "hint", "ask Bo narwhals"]
    script = "\n".join([*lines, "hint", "undo", "moves", "quit"]) + "\n"
    game, out = play(script, players=3, bots=2, bot="greedy", seed=3)
    assert "  nothing to undo yet\n" in out
    assert "  ask NAME SUIT" in out  # help
    assert "  type NAME SUIT (e.g. Bo narwhals), or help" in out
    assert "  illegal: unknown player 'Zed'" in out
    assert "  illegal: '?1' is not a usable suit name" in out
    assert "  illegal: 'fi:sh': a suit name cannot contain" in out
    assert "  hint: no ask can win at once\n  hint: the greedy bot would ask " in out
    assert "Bo says no\n1. Ann asks Bo for narwhals: no (new suit)\n" in out
    # the bot asks Ann; at her answer prompt she asks for a hint, then takes back her ask
    assert "Ann, Bo asks you for unicorns (yes/no): hint\n  hint: yes: the game goes on\n" in out
    assert "undo\ntook back 1 move(s), from: Ann asks Bo for narwhals: no\n" in out
    assert out.endswith(
        "Ann, ask (NAME SUIT, or help): moves\n  no moves yet\n"
        "Ann, ask (NAME SUIT, or help): quit\n\nquit; game not finished after 0 move(s)\n"
    )
    assert game.moves == ()


def test_undo_takes_back_the_bots_replies_too() -> None:
    game, out = play("Bo fish\nyes\nundo\n", players=3, bots=2, bot="random", seed=1)
    assert "2. Bo asks Ann for narwhals: yes (new suit)\n" in out
    assert "3. Cy asks Ann for fish: yes (forced)\n" in out
    assert "undo\ntook back 3 move(s), from: Ann asks Bo for fish: no\n" in out
    assert game.moves == () and game.turn == "Ann"


def test_undo_at_an_answer_prompt() -> None:
    # hot-seat: Bo cancels Ann's pending ask; then against a bot, Ann's answer prompt takes
    # back her own ask and the bot's move after it
    game, out = play("Bo fish\nundo\nCy fish\nyes\n", players=3, bots=0)
    assert "Bo, Ann asks you for fish (yes/no): undo\nAnn's ask taken back\n" in out
    assert [m.target for m in game.moves] == ["Cy"]
    assert out.endswith("input ended; game not finished after 1 move(s)\n")


def test_end_of_input_mid_answer_and_hints_option(tmp_path) -> None:
    record = tmp_path / "unfinished.txt"
    game, out = play("Bo fish\n", players=2, bots=0, show_hints=True, record=record)
    assert "  hint: yes: the game goes on\n  hint: no: " in out
    assert out.endswith("input ended; game not finished after 0 move(s)\n")
    assert record.read_text() == "players Ann Bo\n"


def test_bots_only_game_and_no_four_record(tmp_path) -> None:
    record = tmp_path / "bots.txt"
    game, out = play("", players=3, bots=3, bot="search", seed=2, no_four=True, record=record)
    assert game.over and f"result: {game.outcome.describe()}" in out
    text = record.read_text()
    assert text.startswith("# variant: no-four")
    assert replay(load_record(record), no_four=True).outcome == game.outcome


def run_cli(monkeypatch, capsys, script: str, *argv: str) -> tuple[int, str, str]:
    monkeypatch.setattr(sys, "stdin", io.StringIO(script))
    code = main(["gofish", *argv])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_cli_play(monkeypatch, capsys, tmp_path) -> None:
    record = tmp_path / "g.txt"
    argv = ("play", "--players", "3", "--bots", "0", "--names", "Xia", "Yael", "Zoe")
    code, out, _ = run_cli(monkeypatch, capsys, BOOK, *argv, "--record", str(record))
    assert code == 0 and "result: Zoe wins" in out
    code, out, _ = run_cli(monkeypatch, capsys, "", "replay", str(record))
    assert code == 0 and "result: Zoe wins (every hand is determined)" in out
    code, out, _ = run_cli(monkeypatch, capsys, "quit\n", "play", "--bot", "random")
    assert code == 0 and "Bo (random bot)" in out and "Cy (random bot)" in out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (("play", "--players", "3", "--bots", "4"), "--bots 4: between 0 and --players (3)"),
        (("play", "--bot", "clever"), "unknown bot 'clever'"),
        (("play", "--names", "A", "B"), "--names gives 2 name(s) for 3 players"),
        (("play", "--names", "A", "B#", "C"), "name 'B#'"),
        (("play", "--players", "9", "--bots", "1"), "--players 9: the game needs 2 to 8"),
        (("tournament", "--bots", "random,greedy,search", "--players", "2"), "3 bots for 2"),
        (("tournament", "--games", "0"), "at least one game"),
        (("tournament", "--bots", "random,x"), "unknown bot 'x'"),
    ],
)
def test_cli_bad_options(monkeypatch, capsys, argv, message) -> None:
    code, out, err = run_cli(monkeypatch, capsys, "", *argv)
    assert code == 2 and out == ""
    assert err.startswith("error: ") and message in err and err.count("\n") == 1


def test_cli_tournament(monkeypatch, capsys) -> None:
    argv = ("tournament", "--games", "2", "--seed", "5", "--bots", "random,greedy", "--json")
    code, out, _ = run_cli(monkeypatch, capsys, "", *argv)
    data = json.loads(out)
    assert code == 0 and data["games"] == 2 * len(data["seatings"]) and data["paradoxes"] == 0
    assert [s["bot"] for s in data["standings"]] == ["random", "greedy"]
    code, out, _ = run_cli(monkeypatch, capsys, "", *argv[:-1])
    lines = out.splitlines()
    assert lines[0].split()[:4] == ["bot", "seats", "wins", "shared"]
    assert lines[2].split()[0] == "random" and "0 paradoxes" in lines[-2]
    assert lines[-1].startswith("wins by seat (first asker first): ")
