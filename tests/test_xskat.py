"""ISkO scoring against an independent program: every game of the XSkat fixture
(tests/data/xskat, 2,389 games XSkat played and scored, and 671 rarer ones: null, lost Hand
games, declarers held to 30 points) scored by qcards from its record, replayed trick by trick
and from its result alone, must equal XSkat's value and verdict. A slow test lets XSkat play
fresh games where it is installed (Debian package xskat; CI installs it).

XSkat never announces, overbids or plays a suit ouvert: test_scoring.py tests those rules
case by case from the ISkO text.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from qcards.skat.game_record import record_from_dict, score_record

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from xskat_log import to_game_record  # noqa: E402
from xskat_regen import find_xskat, generate  # noqa: E402

FIXTURE = HERE / "data" / "xskat"


def load(name: str) -> list[dict]:
    lines = (FIXTURE / name).read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines if line.strip()]


def disagreements(games: list[dict], with_play: bool) -> list[str]:
    """Every game whose qcards score differs from XSkat's, described."""
    out = []
    for k, game in enumerate(games):
        record = record_from_dict(to_game_record(game, with_play), source=f"game {k + 1}")
        s = score_record(record).settlement
        x = game["xskat"]
        ours = (s.game_value, s.won, s.list_score)
        theirs = (x["game_value"], x["won"], x["list_score"])
        if ours != theirs:
            out.append(f"game {k + 1}: qcards {ours}, XSkat {theirs}")
    return out


@pytest.mark.parametrize("name", ["games.jsonl", "rare.jsonl"])
@pytest.mark.parametrize("with_play", [True, False], ids=["replayed", "result"])
def test_every_fixture_game_scores_as_xskat_does(name, with_play):
    games = load(name)
    assert len(games) >= (2000 if name == "games.jsonl" else 500)
    assert disagreements(games, with_play) == []


def test_replay_gives_xskat_card_points():
    for k, game in enumerate(load("games.jsonl")):
        record = record_from_dict(to_game_record(game, True), source=f"game {k + 1}")
        result = game["record"]["result"]
        assert (record.declarer_points, record.declarer_tricks) == (
            result["declarer_points"],
            result["declarer_tricks"],
        ), k


def test_fixture_covers_the_rules():
    games = load("games.jsonl") + load("rare.jsonl")
    kinds = {g["record"]["game"] for g in games}
    assert kinds == {"clubs", "spades", "hearts", "diamonds", "grand", "null"}
    assert any(g["record"]["hand"] for g in games)
    assert any(not g["xskat"]["won"] for g in games)
    assert any(g["record"]["result"]["declarer_points"] <= 30 for g in games)
    assert any(g["record"]["result"]["declarer_tricks"] == 10 for g in games)
    assert any("ouvert" in g["record"]["announced"] for g in games)


@pytest.mark.slow
def test_fresh_xskat_games(tmp_path):
    exe = find_xskat()
    if exe is None:
        pytest.skip("xskat is not installed (Debian package xskat)")
    games = generate(600, tmp_path, seed=None)
    assert len(games) >= 550
    assert disagreements(games, True) == []
    assert disagreements(games, False) == []
