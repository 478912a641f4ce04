"""Fuzzing the other games' commands: Go Fish and Quantum Go records mutated line by line and
token by token (starting from the real records in ``tests/games/data``), and generated
arguments of ``cats deduce``; every call keeps the CLI's contract."""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest
from fuzzlib import examples, run_checked, write
from hypothesis import given
from hypothesis import strategies as st

from qcards.games.cats.cards import DECK
from qcards.games.cats.referee import MAX_PLAYERS as CATS_MAX_PLAYERS
from qcards.games.qgo.board import COLUMNS

DATA = Path(__file__).resolve().parents[1] / "games" / "data"
GOFISH_RECORDS = {p.name: p.read_text(encoding="utf-8") for p in sorted(DATA.glob("*.txt"))}
QGO_RECORD = GOFISH_RECORDS.pop("qgo_ranchin_6x6.txt")

JUNK = st.one_of(
    st.text(max_size=8),
    st.sampled_from(["#", ":", "?", "?1", "yes", "no", "YES", "maybe", "", " ", "\t", "players"]),
)


def lines_mutation(text: str, token: st.SearchStrategy[str], data: st.DataObject) -> str:
    """One to three edits of a record: a line dropped, repeated, moved or inserted; a token
    replaced, dropped or repeated; the text cut."""
    lines = text.splitlines()
    for _ in range(data.draw(st.integers(1, 3), label="edits")):
        kind = data.draw(
            st.sampled_from(
                ["drop", "repeat", "move", "insert", "token", "drop token", "double token", "cut"]
            ),
            label="edit",
        )
        if not lines:
            lines = [""]
        i = data.draw(st.integers(0, len(lines) - 1), label="line")
        if kind == "drop":
            del lines[i]
        elif kind == "repeat":
            lines.insert(i, lines[i])
        elif kind == "move":
            line = lines.pop(i)
            lines.insert(data.draw(st.integers(0, len(lines)), label="to"), line)
        elif kind == "insert":
            words = data.draw(st.lists(token, max_size=8), label="new line")
            lines.insert(i, " ".join(words))
        elif kind == "cut":
            lines = lines[:i]
        else:
            words = lines[i].split(" ")
            j = data.draw(st.integers(0, len(words) - 1), label="token")
            if kind == "token":
                words[j] = data.draw(token, label="replacement")
            elif kind == "drop token":
                del words[j]
            else:
                words.insert(j, words[j])
            lines[i] = " ".join(words)
    return "\n".join(lines) + "\n"


# -- Go Fish ------------------------------------------------------------------------------------

GOFISH_TOKENS = st.one_of(
    st.sampled_from(["Xia", "Yael", "Zoe", "A", "B", "C", "D", "E", "asks", "for", "players"]),
    st.sampled_from(["1", "2", "3", "x", "y", "z", "w", "1:", "x:", "yes", "no", "Yes", "NO"]),
    JUNK,
)
GOFISH_FLAGS = st.lists(
    st.sampled_from(["--no-four", "--lose-a-turn", "--playing-on"]), unique=True, max_size=3
)


def gofish_replay(path: Path, flags: list[str], expect: str = "any"):
    data = run_checked(["gofish", "replay", path, *flags, "--json"], expect)
    if data is not None:
        lines = [m["line"] for m in data["moves"]]
        assert lines == sorted(set(lines)), lines
        assert set(data["hands"]) == set(data["players"])
    return data


@examples(1.25)
@given(st.sampled_from(sorted(GOFISH_RECORDS)), GOFISH_FLAGS, st.data())
def test_gofish_records_keep_the_contract(name, flags, data):
    text = lines_mutation(GOFISH_RECORDS[name], GOFISH_TOKENS, data)
    with tempfile.TemporaryDirectory() as tmp:
        gofish_replay(write(Path(tmp), "game.txt", text), flags)


@pytest.mark.parametrize("name", sorted(GOFISH_RECORDS))
def test_gofish_real_records_replay(name):
    """The unmutated records replay (the mutations start from valid input)."""
    with tempfile.TemporaryDirectory() as tmp:
        gofish_replay(write(Path(tmp), "game.txt", GOFISH_RECORDS[name]), [], "ok")


def test_qgo_real_record_replays():
    with tempfile.TemporaryDirectory() as tmp:
        assert qgo_replay(write(Path(tmp), "game.txt", QGO_RECORD), "ok")["result"] == "B+4"


@examples(0.5)
@given(
    st.sampled_from(sorted(GOFISH_RECORDS)),
    st.sampled_from(["stranger asks", "asks a stranger", "asks self", "players count", "twice"]),
    st.data(),
)
def test_gofish_broken_records_are_refused(name, kind, data):
    """Records broken before any move could end the game must be refused: a first move by or
    to someone not playing, a player asking herself, too few or too many players, a second
    'players' line."""
    lines = GOFISH_RECORDS[name].splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith("players"))
    players = lines[at].split()[1:]
    first = next(i for i in range(at + 1, len(lines)) if " asks " in lines[i])
    asker, _, target, *rest = lines[first].split()
    stranger = data.draw(
        st.text(
            st.characters(exclude_characters="#:", exclude_categories=["Z", "C"]),
            min_size=1,
            max_size=6,
        ).filter(lambda s: s not in players and s != "players"),
        label="stranger",
    )
    if kind == "stranger asks":
        lines[first] = " ".join([stranger, "asks", target, *rest])
    elif kind == "asks a stranger":
        lines[first] = " ".join([asker, "asks", stranger, *rest])
    elif kind == "asks self":
        lines[first] = " ".join([asker, "asks", asker, *rest])
    elif kind == "players count":
        n = data.draw(st.sampled_from([0, 1, 9, 12]), label="players")
        lines[at] = " ".join(["players", *(f"P{k}" for k in range(n))])
    else:
        lines.insert(first, lines[at])
    with tempfile.TemporaryDirectory() as tmp:
        path = write(Path(tmp), "game.txt", "\n".join(lines) + "\n")
        gofish_replay(path, data.draw(GOFISH_FLAGS, label="flags"), "error")


# -- Quantum Go ---------------------------------------------------------------------------------


def _point(column: int, row: int) -> str:
    return f"{COLUMNS[column % len(COLUMNS)]}{row}"


QGO_POINTS = st.one_of(
    st.builds(_point, st.integers(0, 6), st.integers(1, 7)),
    st.builds(_point, st.integers(0, 30), st.integers(-2, 30)),
    st.sampled_from(["I3", "A0", "A-1", "A²", "a1", "Z99", "D", "3D", "AA1"]),
)
QGO_TOKENS = st.one_of(
    QGO_POINTS,
    st.sampled_from(["B", "W", "b", "w", "pass", "resign", "keep", "size", "komi", "variant"]),
    st.sampled_from(["weak", "symmetric", "semi-quantum", "triplets-ghz", "triplets-w", "x"]),
    st.sampled_from(["0", "1", "2", "6", "25", "26", "-1", "0.5", "nan", "inf", "-inf", "1e400"]),
    st.sampled_from(["1" + "0" * 40, "0x10", "7.5", "-7.5", "1_000"]),
    JUNK,
)


def qgo_replay(path: Path, expect: str = "any"):
    data = run_checked(["qgo", "replay", path, "--json"], expect)
    if data is not None:
        size = len(data["board"])
        assert all(len(row) == size for row in data["board"])
        assert isinstance(data["moves"], int) and data["moves"] >= 0
    return data


@examples(1.25)
@given(st.data())
def test_qgo_records_keep_the_contract(data):
    text = lines_mutation(QGO_RECORD, QGO_TOKENS, data)
    with tempfile.TemporaryDirectory() as tmp:
        qgo_replay(write(Path(tmp), "game.txt", text))


@st.composite
def qgo_records(draw) -> str:
    """A short record from scratch on a small board: header lines, then random moves."""
    lines = []
    if draw(st.booleans()):
        lines.append(f"size {draw(st.integers(1, 8))}")
    if draw(st.booleans()):
        komi = draw(st.one_of(st.integers(-10, 10), st.floats(allow_nan=True)))
        lines.append(f"komi {komi}")
    for variant in draw(
        st.lists(st.sampled_from(["weak", "symmetric", "semi-quantum", "triplets-ghz"]), max_size=2)
    ):
        lines.append(f"variant {variant}")
    colour = "B"
    for _ in range(draw(st.integers(0, 12))):
        if draw(st.integers(0, 9)) == 0:
            colour = draw(st.sampled_from("BW"))  # sometimes out of turn
        stones = draw(st.lists(QGO_POINTS, min_size=0, max_size=3))
        words = [colour, *(stones or [draw(st.sampled_from(["pass", "resign"]))])]
        if draw(st.booleans()):
            words += ["keep", *draw(st.lists(QGO_POINTS, min_size=1, max_size=3))]
        lines.append(" ".join(words))
        colour = "W" if colour == "B" else "B"
    return "\n".join(lines) + "\n"


@examples(1.0)
@given(qgo_records())
def test_generated_qgo_records_keep_the_contract(text):
    with tempfile.TemporaryDirectory() as tmp:
        qgo_replay(write(Path(tmp), "game.txt", text))


@examples(0.5)
@given(
    st.sampled_from(["off the board", "size", "white first", "komi"]),
    st.data(),
)
def test_qgo_broken_records_are_refused(kind, data):
    """Records that cannot be a game must be refused: a stone off the board (any line), a
    board size outside 2..25, White moving first, a komi that is not a finite number."""
    lines = QGO_RECORD.splitlines()
    moves = [i for i, line in enumerate(lines) if line[:2] in ("B ", "W ")]
    if kind == "off the board":
        i = data.draw(st.sampled_from(moves), label="line")
        column, row = data.draw(
            st.one_of(
                st.tuples(st.integers(6, 24), st.integers(1, 6)),
                st.tuples(st.integers(0, 5), st.integers(7, 99)),
            ),
            label="point",
        )
        words = lines[i].split()
        words.insert(1, _point(column, row))
        lines[i] = " ".join(words)
    elif kind == "size":
        size = data.draw(st.one_of(st.integers(-(10**20), 1), st.integers(26, 10**20)))
        lines = [f"size {size}" if line.startswith("size") else line for line in lines]
    elif kind == "white first":
        header = [line for line in lines if line[:2] not in ("B ", "W ")]
        lines = header + [line for line in lines if line.startswith("W ")][:3]
    else:
        komi = data.draw(st.sampled_from(["nan", "inf", "-inf", "1e400", "NaN", "-Infinity"]))
        lines = [f"komi {komi}" if line.startswith("komi") else line for line in lines]
    with tempfile.TemporaryDirectory() as tmp:
        qgo_replay(write(Path(tmp), "game.txt", "\n".join(lines) + "\n"), "error")


# -- Philosopher Cats ---------------------------------------------------------------------------

_SYMBOLS = {"C": "♣", "S": "♠", "H": "♥", "D": "♦"}


@st.composite
def cat_card_text(draw) -> str:
    card = draw(st.sampled_from(DECK))
    text = str(card)
    style = draw(st.sampled_from(["plain", "lower", "symbol", "padded"]))
    if style == "lower":
        return text.lower()
    if style == "symbol" and not card.is_joker:
        return text[:-1] + _SYMBOLS[text[-1]]
    if style == "padded":
        return f" {text} "
    return text


CAT_JUNK = st.one_of(
    st.sampled_from(["1H", "11S", "KX", "joker ", "JOKERS", "10", "H7", "", "-", "--json"]),
    st.text(max_size=4),
)


def cats_deduce(cards: list[str], call: str, expect: str = "any"):
    argv = ["cats", "deduce", "--call", call, "--json", "--cards", *cards]
    data = run_checked(argv, expect)
    if data is not None:
        assert len(data["guesses"]) == len(data["cards"]) == len(data["points"])
        assert data["rounds"] and all(r["worlds_left"] >= 1 for r in data["rounds"])
    return data


@examples(1.25)
@given(
    st.lists(st.one_of(cat_card_text(), cat_card_text(), CAT_JUNK), max_size=16),
    st.sampled_from(["red", "black", "RED", "green", ""]),
)
def test_cats_deduce_keeps_the_contract(cards, call):
    cats_deduce(cards, call)


@examples(0.5)
@given(
    st.lists(st.integers(0, len(DECK) - 1), min_size=1, max_size=CATS_MAX_PLAYERS, unique=True),
    st.sampled_from(["red", "black"]),
    st.data(),
)
def test_cats_impossible_deals_are_refused(deal, call, data):
    """A deal no deck gives (a card twice, three jokers), a call no card makes true, or more
    players than the deduction holds: one error line, not a hand."""
    cards = [str(DECK[i]) for i in deal]  # dealt from one deck
    kind = data.draw(st.sampled_from(["card twice", "three jokers", "false call", "too many"]))
    if kind == "card twice":
        plain = [c for c in cards if c != "JOKER"]
        if plain:
            cards.insert(data.draw(st.integers(0, len(cards))), data.draw(st.sampled_from(plain)))
        else:
            cards += ["7H", "7H"]
    elif kind == "three jokers":
        cards += ["JOKER"] * 3
    elif kind == "false call":
        # every card black (or joker) and the call red, or the other way round
        suits = "CS" if call == "red" else "HD"
        cards = [c if c == "JOKER" else c[:-1] + suits[k % 2] for k, c in enumerate(cards)]
        cards = list(dict.fromkeys(cards))  # no card twice
    else:
        # cards of both colours (every third card of the deck), one player too many or more
        cards = [str(c) for c in DECK[::3][: CATS_MAX_PLAYERS + data.draw(st.integers(1, 6))]]
    cats_deduce(cards, call, "error")
