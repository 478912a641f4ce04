"""Game records (qcards.skat.game_record) and ``qcards score``: the shipped records, the replay
of a played game, and every rule a record can break (one error naming the file and field)."""

from __future__ import annotations

import json

import pytest

from qcards.cli import main
from qcards.errors import GameRecordError
from qcards.skat.game_record import load_record, parse_record, score_files, score_record

from conftest import REPO

RECORDS = REPO / "qcards" / "records"

BASE = """
players = ["A", "B", "C"]
declarer = "B"
game = "grand"
hand = false
announced = []
bid = 18
[deal]
A = ["HA", "H10", "HK", "HQ", "H9", "H8", "H7", "D7", "D8", "D9"]
B = ["CJ", "SJ", "CA", "C10", "CK", "SA", "S10", "SK", "DA", "D10"]
C = ["HJ", "DJ", "CQ", "C9", "C8", "C7", "SQ", "S9", "S8", "S7"]
skat = ["DK", "DQ"]
discard = ["DK", "DQ"]
[result]
declarer_points = 92
declarer_tricks = 8
"""


def edit(text: str, old: str, new: str) -> str:
    assert old in text
    return text.replace(old, new, 1)


def test_shipped_records():
    scores = {p.stem: score_record(load_record(p)).to_json() for p in RECORDS.glob("*.toml")}
    played = scores["grand-played"]
    # with 2, game, Schneider (103 points) = 4 x 24
    assert (played["game_value"], played["won"], played["matadors"]) == (96, True, 2)
    assert played["seeger_fabian"] == {"A": 0, "B": 146, "C": 0}
    hand = scores["clubs-hand-skat-jack"]  # the Skat's spades jack: with 3, not with 1
    assert (hand["matadors"], hand["game_value"], hand["overbid"]) == (3, 60, False)
    over = scores["spades-overbid"]
    assert (over["overbid"], over["won"], over["game_value"], over["list_score"]) == (
        True, False, 33, -66,
    )  # fmt: skip
    null = scores["null-ouvert-hand"]
    assert (null["game_value"], null["list_score"]) == (59, -118)
    assert null["seeger_fabian"] == {"A": 40, "B": -168, "C": 40}
    four = scores["grand-schneider-announced"]
    assert (four["game_value"], four["multiplier"]) == (168, 7)
    assert four["seeger_fabian"] == {"A": 218, "B": 0, "C": 0, "D": 0}


def test_replayed_points_and_tricks():
    record = load_record(RECORDS / "grand-played.toml")
    assert len(record.tricks) == 10
    # the replay's points: the tricks B took plus the discard
    assert record.declarer_points == 103 and record.declarer_tricks == 9
    assert sum(c.value for t in record.tricks for c in t) + 7 == 120


def played_text() -> str:
    return (RECORDS / "grand-played.toml").read_text()


POINTS = "field 'result.declarer_points'"


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        (
            "bid = 18",
            "bid = 19",
            r"field 'bid': 19 is not a Skat bid value \(the nearest are 18 or 20",
        ),
        ("announced = []", 'announced = ["schneider"]', r"field 'announced'.*only in Hand games"),
        (
            'discard = ["DK", "DQ"]',
            'discard = ["DK", "S7"]',
            r"field 'deal.discard': S7 is neither in B's hand nor in the skat",
        ),
        ("hand = false", "hand = true", r"field 'deal.discard': a Hand game .* no discard"),
        ('discard = ["DK", "DQ"]\n', "", r"field 'deal.discard': missing"),
        ('skat = ["DK", "DQ"]', 'skat = ["DK", "D7"]', r"field 'deal.skat': D7 is dealt to A"),
        ('skat = ["DK", "DQ"]', 'skat = ["DK"]', r"field 'deal.skat': must hold 2 cards, got 1"),
        ('declarer = "B"', 'declarer = "D"', r"field 'declarer'"),
        ('game = "grand"', 'game = "ramsch"', r"field 'game': unknown game 'ramsch'"),
        ("declarer_points = 92", "declarer_points = 121", POINTS + ": must lie in 0..120, got 121"),
        (
            "declarer_points = 92",
            "declarer_points = 3",
            POINTS + ": 3 is less than the 7 points of the skat",
        ),
        (
            "declarer_tricks = 8",
            "declarer_tricks = 10",
            POINTS + ": every trick taken, so it must be 120",
        ),
        (
            "declarer_tricks = 8",
            "declarer_tricks = 0",
            POINTS + ": no trick taken, so it must be 7",
        ),
        ("[result]", "[score]", r"field 'score': unknown field"),
        ('"CA", "C10"', '"CA", "X10"', r"field 'deal.B': unknown card 'X10'"),
    ],
)
def test_bad_records(old, new, message):
    with pytest.raises(GameRecordError, match=r"^game\.toml: " + message):
        parse_record(edit(BASE, old, new), source="game.toml")


def test_result_or_play():
    with pytest.raises(GameRecordError, match="give either \\[result\\] or \\[play\\]"):
        parse_record(BASE.split("[result]")[0])
    both = played_text() + "[result]\ndeclarer_points = 92\ndeclarer_tricks = 8\n"
    with pytest.raises(GameRecordError, match="not both"):
        parse_record(both)


def test_illegal_play_names_the_trick_and_card():
    deal = BASE.split("[result]")[0]

    def play(*tricks: str) -> str:
        return deal + "[play]\ntricks = [" + ", ".join(tricks) + "]\n"

    # A leads the hearts ace; B and C hold no heart (the hearts jack is a trump in a grand)
    with pytest.raises(
        GameRecordError,
        match=r"^g.toml: field 'play.tricks\[1\]': B plays CQ, "
        r"which B does not hold$",
    ):
        parse_record(play('["HA", "CQ", "S7"]'), "g.toml")
    # B's clubs jack takes the first trick; B leads the spades ace and C, holding spades, trumps
    with pytest.raises(
        GameRecordError,
        match=r"^g.toml: field 'play.tricks\[2\]': C plays HJ but "
        r"must follow suit with one of SQ S9 S8$",
    ):
        parse_record(play('["HA", "CJ", "S7"]', '["SA", "HJ", "D7"]'), "g.toml")
    # the leader's card first: after B took trick 1, a trick led by A's card is refused
    with pytest.raises(GameRecordError, match=r"play.tricks\[2\]': B plays D7, which B does not"):
        parse_record(play('["HA", "CJ", "S7"]', '["D7", "DA", "SQ"]'), "g.toml")
    # a played game cut short is refused (not a null game)
    with pytest.raises(GameRecordError, match=r"1 tricks: a game is played to the last"):
        parse_record(play('["HA", "CJ", "S7"]'))
    # a null game ends at the declarer's first trick
    null = edit(edit(deal, 'game = "grand"', 'game = "null"'), "bid = 18", "bid = 23")
    ended = parse_record(null + '[play]\ntricks = [["HA", "CA", "HJ"], ["D7", "DA", "DJ"]]\n')
    assert ended.declarer_tricks == 1 and not ended.settle().won


def test_score_files_keeps_going(tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text(edit(BASE, "bid = 18", "bid = 17"))
    good = tmp_path / "good.toml"
    good.write_text(BASE)
    results = score_files([bad, good, tmp_path / "missing.toml"])
    assert isinstance(results[0], GameRecordError) and "bad.toml: field 'bid'" in str(results[0])
    assert results[1].settlement.game_value == 96  # with 2, schneider: 4 x 24
    assert "missing.toml: cannot read game record: no such file" in str(results[2])


def test_cli_score_json(capsys):
    paths = sorted(str(p) for p in RECORDS.glob("*.toml"))
    assert main(["score", *paths, "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert [r["record"] for r in data["records"]] == paths
    first = data["records"][0]
    assert set(first) == {
        "record", "declarer", "game", "game_value", "won", "overbid", "matadors", "multiplier",
        "list_score", "seeger_fabian",
    }  # fmt: skip
    totals = data["seeger_fabian_totals"]
    for player in totals:
        assert totals[player] == sum(r["seeger_fabian"].get(player, 0) for r in data["records"])


def test_cli_score_table_and_errors(capsys, tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text(edit(BASE, "announced = []", 'announced = ["schwarz"]'))
    good = str(RECORDS / "grand-played.toml")
    assert main(["score", good, str(bad)]) == 2
    out, err = capsys.readouterr()
    assert "grand-played.toml" in out and "96" in out  # the good record is still scored
    assert err.count("\n") == 1 and err.startswith("error: ")
    assert f"{bad}: field 'announced'" in err
