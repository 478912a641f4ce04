"""Game records (qcards.skat.records.game_record) and ``qcards score``: the shipped records, the
replay of a played game, and every rule a record can break (one error naming the file and field)."""

from __future__ import annotations

import json
import re

import pytest

from qcards.cli import main
from qcards.errors import GameRecordError
from qcards.skat.records.game_record import load_record, parse_record, score_files, score_record

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
        (
            "hand = false\nannounced = []",
            "hand = true\nannounced = 5",
            r"field 'announced': must be a list such as \[\"schneider\"\], got 5",
        ),
        (
            "hand = false\nannounced = []",
            "hand = true\nannounced = {schneider = true}",
            r"field 'announced': must be a list such as \[\"schneider\"\], got \{",
        ),
        ('discard = ["DK", "DQ"]', "discard = 0", r"field 'deal.discard': must be a list of cards"),
        (
            "declarer_points = 92\ndeclarer_tricks = 8",
            "declarer_points = 20\ndeclarer_tricks = 9",
            POINTS + r": 20 does not fit 9 tricks: 27 of the 30 cards played hold 80..113 points, "
            r"so with the 7 of the skat the declarer has 87..120$",
        ),
        (
            "declarer_points = 92\ndeclarer_tricks = 8",
            "declarer_points = 41\ndeclarer_tricks = 1",
            POINTS + r": 41 does not fit 1 trick: .* the declarer has 7..40$",
        ),
        ("[result]", "[score]", r"field 'score': unknown field"),
        ('"CA", "C10"', '"CA", "X10"', r"field 'deal.B': unknown card 'X10'"),
    ],
)
def test_bad_records(old, new, message):
    with pytest.raises(GameRecordError, match=r"^game\.toml: " + message):
        parse_record(edit(BASE, old, new), source="game.toml")


OVERBID = (RECORDS / "spades-overbid.toml").read_text()
SEATS = 'players = ["A", "B", "C"]'


def refused(tmp_path, capsys, text: str, field: str) -> str:
    """``text`` as a record file is refused naming ``field``, by the library (a
    GameRecordError naming the file) and by ``qcards score`` (one error line, exit 2)."""
    path = tmp_path / "r.toml"
    path.write_text(text)
    with pytest.raises(GameRecordError, match=rf"^{re.escape(str(path))}: field '{field}': "):
        load_record(path)
    assert main(["score", str(path)]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.startswith(f"error: {path}: field '{field}': ")
    assert err.count("\n") == 1
    return err


@pytest.mark.parametrize(
    "table",
    [
        "5",  # was a TypeError (issue 53 item 2)
        '[["A"], "B", "C"]',  # was: unhashable type: 'list' (item 2)
        '"ABCD"',  # was split into four players (item 11)
        "{A = 1, B = 2, C = 3}",  # was read as its keys
        '["A", "B", "C", 5]',  # scored a player named 5
        '["A", "B", "C", ""]',
        '["A", "B", "C", "skat"]',
        '["A", "B", "C", "discard"]',  # a name of [deal] (item 15)
        '["A", "B"]',
        '["A", "B", "C", "D", "E"]',
        '["A", "B", "C", "C"]',
        '["A", "B", "D"]',
    ],
)
def test_bad_tables(tmp_path, capsys, table):
    refused(tmp_path, capsys, edit(OVERBID, SEATS, f"{SEATS}\ntable = {table}"), "table")


@pytest.mark.parametrize(
    "players",
    ['["A", "B", "discard"]', '["A", "B", "skat"]', '["A", "B", "B"]', '"ABC"', '["A", "B", 3]'],
)
def test_bad_players(tmp_path, capsys, players):
    """A player named ``discard`` collides with ``[deal] discard`` (issue 53 item 15)."""
    refused(tmp_path, capsys, edit(OVERBID, SEATS, f"players = {players}"), "players")


def test_a_table_of_four_is_scored():
    record = parse_record(edit(OVERBID, SEATS, f'{SEATS}\ntable = ["D", "A", "B", "C"]'))
    assert record.table == ("D", "A", "B", "C")
    assert score_record(record).seeger_fabian == {"D": 30, "A": 30, "B": 30, "C": -116}


@pytest.mark.parametrize(
    ("result", "message"),
    [
        ((110, 1), "110 does not fit 1 trick: 3 of the 30 cards played hold 0..33 points, so "
         "with the 3 of the skat the declarer has 3..36"),
        ((3, 9), "3 does not fit 9 tricks: 27 of the 30 cards played hold 84..117 points, so "
         "with the 3 of the skat the declarer has 87..120"),
        ((37, 1), "37 does not fit 1 trick"),
        ((86, 9), "86 does not fit 9 tricks"),
    ],
)  # fmt: skip
def test_points_must_fit_the_tricks(tmp_path, capsys, result, message):
    """Issue 53 item 13: points no play of the cards dealt can give with that many tricks."""
    points, tricks = result
    text = edit(
        OVERBID,
        "declarer_points = 75\ndeclarer_tricks = 6",
        f"declarer_points = {points}\ndeclarer_tricks = {tricks}",
    )
    assert message in refused(tmp_path, capsys, text, "result.declarer_points")


@pytest.mark.parametrize("result", [(36, 1), (3, 1), (87, 9), (120, 9)])
def test_points_at_the_bounds_are_accepted(result):
    points, tricks = result
    text = edit(
        OVERBID,
        "declarer_points = 75\ndeclarer_tricks = 6",
        f"declarer_points = {points}\ndeclarer_tricks = {tricks}",
    )
    record = parse_record(text)
    assert (record.declarer_points, record.declarer_tricks) == result


def null_won() -> str:
    """The shipped null ouvert Hand, the Skat holding the clubs jack and the diamonds queen (5
    points), won: no trick taken, and no card points counted, as XSkat writes it."""
    text = (RECORDS / "null-ouvert-hand.toml").read_text()
    for old, new in [
        ('A = ["CJ",', 'A = ["H9",'),
        ('"DK", "DQ"]', '"DK", "DA"]'),
        ('skat = ["H9", "DA"]', 'skat = ["DQ", "CJ"]'),
        ("declarer_points = 11\ndeclarer_tricks = 1", "declarer_points = 0\ndeclarer_tricks = 0"),
    ]:
        text = edit(text, old, new)
    return text


def test_won_null_game_with_no_points_counted():
    """Issue 53 item 1: a null game's card points decide nothing, and XSkat writes 0 for them
    (here the Skat alone holds 5): accepted with any tricks, won at no trick."""
    won = null_won()
    score = score_record(parse_record(won))
    assert (score.game, score.settlement.won, score.settlement.game_value) == (
        "null ouvert hand", True, 59,
    )  # fmt: skip
    lost = score_record(parse_record(edit(won, "declarer_tricks = 0", "declarer_tricks = 1")))
    assert (lost.settlement.won, lost.settlement.list_score) == (False, -118)
    # points that are given must still fit the tricks
    assert parse_record(edit(won, "declarer_points = 0", "declarer_points = 5"))
    with pytest.raises(GameRecordError, match=r"'result.declarer_points': no trick taken, so it "):
        parse_record(edit(won, "declarer_points = 0", "declarer_points = 110"))


@pytest.mark.parametrize("discard", ["0", "[]", '["DK"]', '"DK DQ"', '["DK", "DQ"]'])
def test_no_discard_in_a_hand_game(discard):
    """Issue 53 item 15: any discard given in a Hand game is refused (``0`` and ``[]`` were
    taken for none)."""
    hand = edit(BASE, "hand = false", "hand = true")
    with pytest.raises(
        GameRecordError,
        match=r"^g.toml: field 'deal.discard': a Hand game .* no discard \(got "
        + re.escape(discard[:2].replace('"', "'")),
    ):
        parse_record(edit(hand, 'discard = ["DK", "DQ"]', f"discard = {discard}"), "g.toml")


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


def test_cli_score_table_fits_100_columns(capsys, tmp_path):
    """Issue 53 item 21: the records' names in full (relative to their directory), every line
    within 100 columns; a directory stands for its records in name order."""
    assert main(["score", str(RECORDS)]) == 0
    out = capsys.readouterr().out
    assert max(len(line) for line in out.splitlines()) <= 100
    lines = out.splitlines()
    names = sorted(p.name for p in RECORDS.glob("*.toml"))
    assert [line.split()[0] for line in lines[2 : 2 + len(names)]] == names
    paths = [str(RECORDS / n) for n in names]
    assert main(["score", *paths]) == 0 and capsys.readouterr().out == out
    assert main(["score", *paths, "--json"]) == 0
    totals = json.loads(capsys.readouterr().out)["seeger_fabian_totals"]
    total = next(line for line in lines if line.startswith("total"))
    assert total.split()[1:] == [f"{v:+d}" for v in totals.values()]
    # records of different directories: paths below the directory they share
    other = tmp_path / "other"
    other.mkdir()
    (other / "g.toml").write_text(BASE)
    assert main(["score", str(other / "g.toml"), paths[0]]) == 0
    shown = [line.split()[0] for line in capsys.readouterr().out.splitlines()[2:4]]
    assert shown == [str(other / "g.toml"), paths[0]]  # absolute paths sharing only "/"
    assert main(["score", str(other / "g.toml"), str(tmp_path / "other" / ".." / "g.toml")]) == 2
    assert capsys.readouterr().out.splitlines()[2].startswith("g.toml  ")
    empty = tmp_path / "empty"
    empty.mkdir()
    assert main(["score", str(empty)]) == 2
    assert capsys.readouterr().err == f"error: {empty}: a directory without records (*.toml)\n"


@pytest.mark.parametrize(
    ("sources", "names"),
    [
        (["a/b/x.toml"], ["x.toml"]),
        (["a/b/x.toml", "a/b/y.toml"], ["x.toml", "y.toml"]),
        (["a/b/x.toml", "a/c/y.toml"], ["b/x.toml", "c/y.toml"]),
        (["a/x.toml", "b/y.toml"], ["a/x.toml", "b/y.toml"]),
        (["x.toml", "./y.toml"], ["x.toml", "y.toml"]),
    ],
)
def test_record_names(sources, names):
    from qcards.cli.score import record_names

    assert record_names(sources) == names
