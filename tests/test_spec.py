from __future__ import annotations

import pytest

from qcards.cli import main
from qcards.errors import SpecError
from qcards.skat.position.spec import SKAT, load_spec, parse_spec
from qcards.skat.rules.cards import Card, Trump

from conftest import REPO

GOOD = (REPO / "qcards" / "specs" / "six-card.toml").read_text(encoding="utf-8")
"""The paper's six-card spec, which the bad specs below edit."""


def test_paper_spec_loads(six_card):
    assert six_card.players == ("A", "B", "C")
    assert six_card.trump is Trump.SPADES
    assert six_card.hand_size == 2 and six_card.num_tricks == 2
    assert six_card.receivers == ("B", "C")
    assert [str(c) for c in six_card.cards] == ["CA", "C10", "CK", "C9", "C8", "H10"]
    assert six_card.owner_of_known(Card("C", "A")) == "A"
    assert six_card.owner_of_known(Card("C", "9")) is None


def test_to_toml_round_trips(six_card, four_card):
    for spec in (six_card, four_card):
        assert parse_spec(spec.to_toml()) == spec


def test_defaults():
    spec = parse_spec('players = ["A", "B"]\n[hands]\nA = ["CA"]\nB = ["C7"]\n')
    assert spec.leader == "A" and spec.winner_leads and spec.target == 61
    assert spec.trump is Trump.SPADES and spec.declarer_points == 0


def bad(replace_from: str, replace_to: str) -> str:
    assert replace_from in GOOD
    return GOOD.replace(replace_from, replace_to)


@pytest.mark.parametrize(
    "text,field,message",
    [
        (bad('trump = "spades"', 'trump = "spades'), None, "TOML syntax error"),
        (bad('"C9"', '"C1"'), "unknown.cards", "unknown card 'C1'"),
        (bad('"C9"', '"CA"'), "unknown.cards", "duplicate card CA"),
        (bad('A = ["CA", "CK"]', 'A = ["CA", "CA"]'), "hands.A", "duplicate card CA (twice)"),
        (bad("C = 2", "C = 1"), "unknown.sizes", "add up to 3 but 4"),
        (bad("B = 2, C = 2", "B = 3, C = 1"), "hands", "same number of cards"),
        (bad('leader = "A"', 'leader = "Z"'), "leader", "unknown player 'Z'"),
        (bad("B = 2, C = 2", "B = 2, Q = 2"), "unknown.sizes.Q", "unknown player 'Q'"),
        (bad('A = ["CA", "CK"]', 'A = ["CA", "CK"]\nX = []'), "hands.X", "unknown player"),
        (bad("target = 61", "target = 121"), "target", "0..120"),
        (bad("target = 61", "target = -1"), "target", "0..120"),
        (bad("target = 61", 'target = "61"'), "target", "whole number"),
        (bad("declarer_points = 40", "declarer_points = 100"), "declarer_points", "exceed 120"),
        (bad('trump = "spades"', 'trump = "nullo"'), "trump", "unknown trump"),
        (bad("winner_leads = true", "winner_leads = 1"), "winner_leads", "true or false"),
        (bad('players = ["A", "B", "C"]', 'players = ["A"]'), "players", "2 to 4"),
        (bad('players = ["A", "B", "C"]', 'players = ["A", "A", "C"]'), "players", "distinct"),
        (bad("target = 61", "target = 61\ncolour = 1"), "colour", "unknown field"),
    ],
)
def test_errors_name_file_and_field(tmp_path, text, field, message):
    path = tmp_path / "endgame.toml"
    path.write_text(text)
    with pytest.raises(SpecError) as info:
        load_spec(path)
    text = str(info.value)
    assert str(path) in text
    assert message in text
    if field is not None:
        assert f"field '{field}'" in text


def test_toml_syntax_error_names_line(tmp_path):
    path = tmp_path / "broken.toml"
    path.write_text('players = ["A", "B"]\ntrump = \n')
    with pytest.raises(SpecError, match=r"broken.toml: TOML syntax error: .*line 2"):
        load_spec(path)


def test_missing_file(tmp_path):
    with pytest.raises(SpecError, match="no such file"):
        load_spec(tmp_path / "absent.toml")


WITH_SKAT = GOOD.replace('"H10"]', '"H10", "D7", "DA"]').replace("C = 2 }", "C = 2, skat = 2 }")


def test_skat_receiver():
    spec = parse_spec(WITH_SKAT)
    assert dict(spec.sizes) == {"B": 2, "C": 2, "skat": 2}
    assert list(spec.sizes) == ["B", "C", "skat"]
    assert spec.receivers == ("B", "C", "skat")
    assert spec.skat_size == 2 and spec.hand_size == 2 and spec.num_tricks == 2
    assert spec.candidates("A") == spec.hands["A"]
    assert len(spec.candidates("B")) == len(spec.unknown) == 6
    assert spec.points_in_play() == 46  # the Skat's D7 and DA included
    assert parse_spec(spec.to_toml()) == spec
    assert parse_spec(GOOD).skat_size == 0 and SKAT not in parse_spec(GOOD).receivers


def test_skat_listed_first_keeps_seat_order():
    spec = parse_spec(WITH_SKAT.replace("B = 2, C = 2, skat = 2", "skat = 2, C = 2, B = 2"))
    assert list(spec.sizes) == ["B", "C", "skat"] and spec.receivers == ("B", "C", "skat")


def test_skat_of_size_zero_is_no_skat():
    spec = parse_spec(GOOD.replace("C = 2 }", "C = 2, skat = 0 }"))
    assert spec.skat_size == 0 and spec.receivers == ("B", "C")


@pytest.mark.parametrize(
    "text,field,message",
    [
        (GOOD.replace('"C"]', '"skat"]').replace("C = 2", "skat = 2"), "players", "reserved"),
        (GOOD.replace("C = 2 }", "C = 2, skat = 1 }"), "unknown.sizes", "add up to 5 but 4"),
        (WITH_SKAT.replace("skat = 2", "skat = 1"), "unknown.sizes", "add up to 5 but 6"),
        (WITH_SKAT.replace("skat = 2", "Skat = 2"), "unknown.sizes.Skat", "unknown player 'Skat'"),
        (WITH_SKAT.replace("skat = 2", "skat = -1"), "unknown.sizes.skat", "whole number >= 0"),
        (
            WITH_SKAT.replace('A = ["CA", "CK"]', 'A = ["CA", "CK"]\nskat = []'),
            "hands.skat",
            "unknown",
        ),
        (
            WITH_SKAT.replace("B = 2, C = 2, skat = 2", "B = 3, C = 2, skat = 1"),
            "hands",
            "same number",
        ),
        (
            WITH_SKAT.replace("declarer_points = 40", "declarer_points = 80"),
            "declarer_points",
            "80 plus the 46 points in play exceed 120",
        ),
    ],
)
def test_skat_errors(text, field, message):
    with pytest.raises(SpecError) as info:
        parse_spec(text, source="skat.toml")
    assert f"skat.toml: field '{field}'" in str(info.value)
    assert message in str(info.value)


@pytest.mark.parametrize(
    "text,message",
    [
        ("x = " + "[" * 1000 + "]" * 1000 + "\n", "nested too deeply"),
        ("declarer_points = " + "9" * 5000 + "\n", "cannot be read"),
    ],
    ids=["nested-1000-deep", "5000-digit-integer"],
)
def test_toml_the_parser_cannot_read_is_one_error_line(tmp_path, capsys, text, message):
    """Found by fuzzing (issue 21): the parser's RecursionError and int-conversion ValueError."""
    path = tmp_path / "hostile.toml"
    path.write_text(text)
    with pytest.raises(SpecError, match=rf"hostile.toml: TOML .*{message}"):
        load_spec(path)
    assert main(["evaluate", str(path)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("error: ") and "hostile.toml" in err[0]
