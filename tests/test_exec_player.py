"""Outside programs in a seat of a match (``--player exec:COMMAND``,
:mod:`qcards.analysis.exec_player`), with the toy programs of ``tests/players``."""

from __future__ import annotations

import json
import os
import pickle
import shlex
import sys
from pathlib import Path

import pytest

from qcards.analysis import exec_player
from qcards.analysis.match import match, plan_match
from qcards.analysis.match_players import game_seconds, parse_player
from qcards.cli import main
from qcards.errors import PlayerError
from qcards.skat.records.game_record import load_record, score_record
from qcards.skat.rules.cards import points

PLAYERS = Path(__file__).parent / "players"


def command(script: str, *args: str) -> str:
    """``exec:`` the toy program ``script`` with this Python."""
    return "exec:" + shlex.join([sys.executable, str(PLAYERS / script), *args])


def gone(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    return False


def test_an_outside_program_plays_the_cards_it_answers_and_is_told_what_its_seat_knows(tmp_path):
    log = tmp_path / "requests.jsonl"
    records = tmp_path / "records"
    player = command("first_legal.py", str(log))
    result = match([player, "heuristic", "heuristic"], 2, seed=0, records=records)
    assert result.players[0].label == player
    lines = [json.loads(line) for line in log.read_text().splitlines()]
    assert gone(lines[0]["pid"])  # ended with the match
    requests = lines[1:]
    played = [g for g in result.games if g.declarer is not None]
    cards = [r for r in requests if r["type"] == "card"]
    assert played and len(cards) == 10 * len(played)
    assert [r["type"] for r in requests if r["type"] != "card"] == ["start", "end"] * len(played)
    assert all(r["protocol"] == exec_player.PROTOCOL for r in requests)
    for r in cards:
        record = load_record(records / f"deal-{r['deal']:04d}-r{r['rotation']}.toml")
        assert r["position"] == -r["rotation"] % 3  # P1, the first player, rotated
        declarer = r["declarer"] == r["position"]
        assert (r["seat"] == "declarer") == (record.declarer == "P1") == declarer
        trick = record.tricks[r["trick_number"] - 1]
        assert r["trick"] == [str(c) for c in trick[: len(r["trick"])]]
        assert (r["position"] - r["leader"]) % 3 == len(r["trick"])  # its turn
        assert str(trick[len(r["trick"])]) == r["legal"][0]  # the card the program answered
        done = record.tricks[: r["trick_number"] - 1]
        assert [t["cards"] for t in r["tricks"]] == [[str(c) for c in t] for t in done]
        assert sum(r["points"].values()) == sum(points(t) for t in done)
        winners = [t["winner"] for t in r["tricks"]]
        assert winners == [t["leader"] for t in r["tricks"][1:]] + [r["leader"]][: len(winners)]
        mine = {t["cards"][(r["position"] - t["leader"]) % 3] for t in r["tricks"]}
        assert "P1" != record.declarer or r["discard"] == [str(c) for c in record.discard]
        if r["seat"] == "defender":
            assert "discard" not in r
            assert set(r["hand"]) == {str(c) for c in record.deal["P1"]} - mine
    for g in played:  # the records replay to the match's scores
        score = score_record(load_record(records / f"deal-{g.deal + 1:04d}-r{g.rotation}.toml"))
        assert [score.seeger_fabian[f"P{i + 1}"] for i in range(3)] == list(g.points)
    ends = [r for r in requests if r["type"] == "end"]
    assert [r["score"] for r in ends] == [g.points[0] for g in played]


def test_the_same_seed_gives_the_same_match_with_an_outside_program():
    players = [command("first_legal.py"), "heuristic", "random"]
    first, again = match(players, 2, seed=3), match(players, 2, seed=3)
    assert [g.record for g in first.games] == [g.record for g in again.games]


@pytest.mark.parametrize(
    ("mode", "wrong"),
    [
        ("garbage", "the answer 'this is not json' is not JSON"),
        ("list", "is not a JSON object"),
        ("nocard", 'has no "card" string'),
        ("unknown", "the answer's card 'X11' is not a card"),
        ("illegal", "is not legal here (legal: "),
        ("exit", "the program has exited without answering (exit status 3)"),
        ("hang", "no answer within 0.5 s (QCARDS_EXEC_TIMEOUT sets another)"),
    ],
)
def test_a_wrong_answer_is_one_error_line_naming_the_request(mode, wrong, tmp_path, capsys,
                                                             monkeypatch):  # fmt: skip
    monkeypatch.setenv(exec_player.TIMEOUT_VARIABLE, "0.5")
    pid_file = tmp_path / "pid"
    player = command("broken.py", mode, str(pid_file))
    argv = ["match", "--player", player, "--player", "heuristic", "--player", "heuristic",
            "--deals", "2"]  # fmt: skip
    assert main(argv) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1, err
    assert err[0].startswith(f"error: --player {player}: the card request of deal 1, rotation 0, "
                             "trick 1: ")  # fmt: skip
    assert wrong in err[0]
    assert gone(int(pid_file.read_text())) and not exec_player._live


@pytest.mark.parametrize(
    ("text", "wrong"),
    [
        ("exec:", "no command after exec:"),
        ("exec:python 'a", "the command cannot be split"),
        ("exec:qcards-no-such-program --x", "'qcards-no-such-program' cannot be started"),
    ],
)
def test_a_command_that_cannot_start_is_refused_before_any_game(text, wrong, capsys):
    with pytest.raises(PlayerError, match=wrong):
        parse_player(text)
    argv = ["match", "--player", text, "--player", "heuristic", "--player", "heuristic"]
    assert main(argv) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("error: --player ") and wrong in err[0]


@pytest.mark.parametrize("value", ["x", "0", "-1", "inf", "nan"])
def test_a_bad_timeout_is_refused_before_any_game(value, monkeypatch):
    monkeypatch.setenv(exec_player.TIMEOUT_VARIABLE, value)
    with pytest.raises(PlayerError, match=exec_player.TIMEOUT_VARIABLE):
        parse_player(command("first_legal.py"))


def test_an_outside_player_pickles_plans_at_its_assumed_pace_and_starts_lazily():
    player = parse_player(command("first_legal.py"))
    assert pickle.loads(pickle.dumps(player)) == player
    assert not exec_player._live  # parsing starts no program
    assert game_seconds(player) == exec_player.DECISION_SECONDS * 12
    plan = plan_match([player, parse_player("heuristic"), parse_player("heuristic")], 10)
    assert plan.seconds == pytest.approx(10 * 3 * (game_seconds(player) + 2 * 0.005))


def test_ctrl_c_during_a_match_ends_the_program(tmp_path, monkeypatch):
    import qcards.analysis.match_players as players_module

    log = tmp_path / "requests.jsonl"

    def interrupted(*args):
        raise KeyboardInterrupt

    monkeypatch.setattr(players_module, "policy_card", interrupted)  # a heuristic seat's card
    with pytest.raises(KeyboardInterrupt):
        match([command("first_legal.py", str(log)), "heuristic", "heuristic"], 2, seed=0)
    lines = [json.loads(line) for line in log.read_text().splitlines()]
    assert lines[1]["type"] == "start"  # the program was running
    assert gone(lines[0]["pid"]) and not exec_player._live
