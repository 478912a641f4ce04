"""Records: the two sources' sample games replayed (checked against what the sources state and
against brute force), and every kind of bad record."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from pathlib import Path

import gofish_brute as brute
import pytest

from qcards.games.gofish import Outcome, load_record, parse_record, replay, replay_json
from qcards.games.gofish.errors import RecordError

DATA = Path(__file__).parent / "data"
WIKIPEDIA = DATA / "wikipedia.txt"
BOOK = DATA / "book.txt"

# What the Wikipedia-style source writes after each move: per player, the cards it calls
# determined (one digit a card) and how many stay open. Its suit "3" is not named until the
# last move, so before then it is our first unnamed suit, "?1".
WIKIPEDIA_STATES = [
    {"A": ("11", 3), "B": ("", 3), "C": ("", 4)},
    {"A": ("11", 3), "B": ("11", 2), "C": ("", 3)},
    {"A": ("11333", 0), "B": ("112", 1), "C": ("22", 1)},
    {"A": ("11333", 0), "B": ("1123", 0), "C": ("222", 0)},
]


def brute_of(result, no_four: bool = False):
    return brute.replay_moves(
        len(result.players), result.moves, list(result.players), list(result.suits), no_four
    )


def with_line(path: Path, old: str, new: str) -> str:
    text = path.read_text()
    assert old in text
    return text.replace(old, new)


def test_wikipedia_game_states_and_winner() -> None:
    record = load_record(WIKIPEDIA)
    assert record.players == ("A", "B", "C") and len(record.moves) == 4
    for k, stated in enumerate(WIKIPEDIA_STATES, start=1):
        prefix = replay(replace(record, moves=record.moves[:k]))
        rename = {"3": "?1"} if len(prefix.suits) < 3 else {}
        for name, (cards, open_cards) in stated.items():
            hand = prefix.hands[name]
            assert hand.known == {rename.get(c, c): n for c, n in Counter(cards).items()}
            assert hand.unknown == open_cards
    result = replay(record)
    assert result.outcome == Outcome("win", ("A",), "determined")
    low, high = brute.ranges(brute_of(result))
    assert low == high
    assert all(len(m.allowed) == 2 for m in result.moves)  # every answer in it was free


def test_book_game_forced_answers_and_winner() -> None:
    result = replay(load_record(BOOK))
    assert [m.allowed for m in result.moves] == [
        ("yes", "no"),
        ("yes", "no"),
        ("yes",),  # "Yael must say yes"
        ("yes", "no"),
        ("yes", "no"),
        ("no",),  # Zoe holds the last 2
    ]
    assert (result.outcome.winners, result.outcome.reason) == (("Zoe",), "determined")
    states = brute_of(result)
    low, high = brute.ranges(states)
    assert low == high
    assert result.hands["Xia"].known == {"1": 4}  # ends with all four 1's ...
    xia, ones = 0, 0
    assert {initial[xia][ones] for initial, _ in states} == {3}  # ... having started with three
    # the source's footnote says Xia gained that 1 from Yael; the record says Zoe gave it
    gave_one = [m.target for m in result.moves if m.asker == "Xia" and m.answer == "yes"]
    assert gave_one == ["Zoe"]


def test_book_game_yael_saying_no_is_a_paradox() -> None:
    text = with_line(BOOK, "Zoe asks Yael for 3: yes", "Zoe asks Yael for 3: no")
    result = replay(parse_record(text, source="book-no"))
    assert result.outcome.status == "paradox" and result.outcome.winners == ()
    assert len(result.moves) == 3 and len(result.ignored) == 3
    assert brute_of(result) == []


def test_book_game_footnote_on_zoes_answer() -> None:
    text = with_line(BOOK, "Xia asks Zoe for 1: yes", "Xia asks Zoe for 1: no")
    # "If Zoe says no ... Xia would have them all, and could claim victory"
    standard = replay(parse_record(text, source="book-zoe-no"))
    assert (standard.outcome.winners, standard.outcome.reason) == (("Xia",), "four")
    assert standard.hands["Xia"].known["1"] == 4
    # Under no-four the source says Zoe's "yes" would be the paradox; brute force says the
    # "no" is (Xia would have started with all four 1's) and the "yes" is forced.
    variant = replay(parse_record(text, source="book-zoe-no"), no_four=True)
    assert variant.outcome.status == "paradox"
    assert variant.moves[-1].allowed == ("yes",)
    assert brute_of(variant, no_four=True) == []
    played = replay(load_record(BOOK), no_four=True)
    assert played.moves[3].allowed == ("yes",) and played.outcome.winners == ("Zoe",)
    assert brute_of(played, no_four=True)


def test_comments_blank_lines_and_answer_case() -> None:
    text = "# a game\n\nplayers Ann Bo Cy   # seats\n  Ann asks Bo for narwhals : YES\n"
    record = parse_record(text, source="mem")
    assert record.players == ("Ann", "Bo", "Cy") and record.players_line == 3
    move = record.moves[0]
    assert (move.line, move.asker, move.target, move.suit, move.answer) == (
        4,
        "Ann",
        "Bo",
        "narwhals",
        "yes",
    )
    data = replay_json(record)
    assert data["suits"] == ["narwhals"] and data["result"]["status"] == "ongoing"


def test_a_player_may_be_called_players() -> None:
    record = parse_record("players players B\nplayers asks B for x: no\n", source="mem")
    assert record.players == ("players", "B") and record.moves[0].asker == "players"


def test_moves_after_the_end_are_ignored_unchecked() -> None:
    text = BOOK.read_text() + "Nobody asks Xia for 9: no\n"  # no such player
    result = replay(parse_record(text, source="long"))
    assert result.outcome.winners == ("Zoe",) and len(result.ignored) == 1


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("players A B\nA asks B for x yes\n", "r, line 2: cannot read 'A asks B for x yes'"),
        ("A asks B for x: yes\nplayers A B\n", "r, line 1: a move before the 'players' line"),
        ("players A B\n\nplayers A B\n", "r, line 3: a second 'players' line"),
        ("# nothing\n", "r: no 'players' line"),
        ("players A B\nA asks B for x: maybe\n", "r, line 2: the answer must be 'yes' or 'no'"),
    ],
)
def test_syntax_errors(text: str, message: str) -> None:
    with pytest.raises(RecordError, match="^" + message.replace("(", r"\(")):
        parse_record(text, source="r")


@pytest.mark.parametrize(
    ("moves", "message"),
    [
        ("B asks A for x: yes", "line 3: it is A's turn, not B's"),
        ("A asks Dee for x: yes", "line 3: unknown player 'Dee'"),
        ("A asks A for x: yes", "line 3: A asks themselves"),
        ("A asks B for ?1: yes", "line 3: '\\?1' is not a usable suit name"),
        ("A asks B for x: no\nB asks C for x: no", "line 4: B provably holds no x"),
        (
            "A asks B for x: yes\nB asks C for y: yes\nC asks A for z: yes\nA asks B for w: no",
            "line 6: 'w' would be a new suit, but all 3 suits are named",
        ),
    ],
)
def test_rule_errors_name_the_line(moves: str, message: str) -> None:
    record = parse_record(f"# header\nplayers A B C\n{moves}\n", source="game.txt")
    with pytest.raises(RecordError, match=f"^game.txt, {message}"):
        replay(record)


@pytest.mark.parametrize(("players", "message"), [("A", "1 players"), ("A B A", "listed twice")])
def test_bad_player_lines(players: str, message: str) -> None:
    record = parse_record(f"\nplayers {players}\n", source="p.txt")
    with pytest.raises(RecordError, match=f"^p.txt, line 2: .*{message}"):
        replay(record)


def test_unreadable_file(tmp_path) -> None:
    with pytest.raises(RecordError, match="cannot read"):
        load_record(tmp_path / "missing.txt")
    binary = tmp_path / "binary.txt"
    binary.write_bytes(b"\xff\xfe players")
    with pytest.raises(RecordError, match="not UTF-8"):
        load_record(binary)


def test_two_players_can_win_by_four_at_once() -> None:
    result = replay(load_record(DATA / "shared-four.txt"))
    assert result.outcome == Outcome("win", ("A", "C"), "four")
    assert [m.forced for m in result.moves] == [False] * 5 + [True] * 3 + [False]
    low, high = brute.ranges(brute_of(result))
    assert low[0][0] == 4 and low[2][2] == 4 and low != high
