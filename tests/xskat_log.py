"""Parse XSkat's game log (``-log``) and game list (``-list``) into game records.

XSkat (Debian package ``xskat``, 4.0) run as ``xskat -auto N -log LOG -list LIST ...`` lets
three computer players play N games and appends one block per game to LOG::

     Computer1   Computer2   Computer3
    <blank line of 36 spaces>
    ----------------------------------------
      CLUB J      Heart J     Diamond_J      <- trick rows: one per trick, one column per player
      Diamond_A   Diamond 9   CLUB 10           (UPPER CASE = the card that won the trick,
      ...                                       '_' instead of the blank = the trick's leader,
    ---- random_seed 1795869703 0 2 -------     unless it also won: then upper case only)
      CLUB J      HEART J     SPADE J        <- the ten cards each player played (the hands
      CLUB A      Spade A     DIAMOND J         after the Skat exchange), sorted; upper case
      ...                                       here marks the trumps of the game
    ----------------------------------------
    Skat is: Diamond 7,Spade 10              <- the Skat at the end (the discard; in Hand
    Skat was: Spade Q,Club 10                   games the Skat as dealt)  /  as dealt
    Last bid: 18
    Computer3 played Club                    <- Club Spade Heart Diamond Grand Null
    Played Hand                              <- optional: Played Hand | Played ouvert |
    Won with: 88 points                         Played ouvert Hand | Schneider announced |
    ========================================    Schwarz announced
                                             <- Won with / Lost with: N points; null: Won / Lost

A game everyone passed has a single trick row ``_Pass_  Pass  Pass`` (the underscore marks
forehand), the ten hands as dealt and ``Skat is:`` only.

``random_seed S K D``: the run's seed S, the game's number K in that seed's sequence and the
dealer D (1..3 = the log's columns); forehand is the column after the dealer (D mod 3, 0-based),
middlehand the one after that, rearhand the dealer. The first trick's leader always agrees.

LIST is rewritten after every game: three lines of running totals (plain, ``a``, ``t``), ``b``
(Bock state), ``g``/``v`` (games won/lost per player before the list's first entry), then one
``e S R D E G`` line per game in order: S declarer column (0..2; meaningless for a passed game),
R Ramsch flag, D Durchmarsch flag, E the value entered in the list (0 for a passed game; for a
lost game already doubled, see below), G 1 won / 0 lost.  XSkat keeps only the last 360 games in
the list, so one run must not play more than 360 games for LIST and LOG to line up.

With ``-newrules`` (the default) every lost game counts double, Hand games and null games
included (``skat.c`` ``calc_result``: ``if (!handsp || !oldrules) spwert*=2``); an overbid game
is valued at the lowest multiple of its base value that reaches the bid, then doubled.

Pure standard library; no qcards import.
"""

from __future__ import annotations

import gzip
import re
from pathlib import Path
from typing import Any

SEATS = ("A", "B", "C")
"""Our names for the seats of one game, forehand first."""

GAMES = {
    "Club": "clubs",
    "Spade": "spades",
    "Heart": "hearts",
    "Diamond": "diamonds",
    "Grand": "grand",
    "Null": "null",
}
"""XSkat's ``... played <game>`` word -> our game name."""

ANNOUNCEMENT_LINES = {
    # line printed under "... played ..." -> (hand, announcements)
    "Played Hand": (True, []),
    "Schneider announced": (True, ["schneider"]),
    "Schwarz announced": (True, ["schneider", "schwarz"]),
    "Played ouvert": (False, ["ouvert"]),  # only a (non-Hand) null ouvert can be this
    "Played ouvert Hand": (True, ["ouvert"]),
}

_SUITS = {"club": "C", "spade": "S", "heart": "H", "diamond": "D"}
_TRUMP_SUIT = {"clubs": "C", "spades": "S", "hearts": "H", "diamonds": "D"}
_RANKS = ("A", "10", "K", "Q", "J", "9", "8", "7")
_VALUES = {"A": 11, "10": 10, "K": 4, "Q": 3, "J": 2, "9": 0, "8": 0, "7": 0}
_CARD = re.compile(r"(club|spade|heart|diamond)[ _](A|10|K|Q|J|9|8|7)", re.IGNORECASE)
_SEED = re.compile(r"^---- random_seed (-?\d+) (\d+) ([123])( [LR])? -*$")
_SEPARATOR = "-" * 40
_END = "=" * 40
_CELL = 12  # XSkat pads every cell of a row to 12 characters after a 2-blank indent


class XSkatFormatError(ValueError):
    """The log or list does not look like XSkat's output (or fails a sanity check)."""


def read_text(path: str | Path) -> str:
    """A raw log or list file as text (``.gz`` files are decompressed)."""
    path = Path(path)
    data = path.read_bytes()
    if path.suffix == ".gz":
        data = gzip.decompress(data)
    return data.decode("latin-1")


def _card(text: str) -> str:
    m = _CARD.fullmatch(text)
    if not m:
        raise XSkatFormatError(f"not a card: {text!r}")
    return _SUITS[m.group(1).lower()] + m.group(2)


def _cells(line: str) -> list[str]:
    """The three 12-character cells of a trick or hand row (stripped)."""
    if not line.startswith("  ") or len(line.rstrip()) > 2 + 3 * _CELL:
        raise XSkatFormatError(f"not a row of three cells: {line!r}")
    return [line[2 + i * _CELL : 2 + (i + 1) * _CELL].strip() for i in range(3)]


def _is_upper(cell: str) -> bool:
    """Bold (upper case) in an unformatted log: the suit word is all capitals."""
    word = re.split(r"[ _]", cell)[0]
    return word.isalpha() and word.isupper()


# ---------------------------------------------------------------------------------------------
# Trick rules, used only to *check* the parse (nothing stored is computed with them).


def _suit_of(card: str, game: str) -> str:
    """The suit a card belongs to for following: 'T' for trumps."""
    suit, rank = card[0], card[1:]
    if game == "null":
        return suit
    if rank == "J":
        return "T"
    if suit == _TRUMP_SUIT.get(game):
        return "T"
    return suit


def _strength(card: str, game: str, led: str) -> tuple[int, int]:
    suit, rank = card[0], card[1:]
    if game == "null":
        order = ("A", "K", "Q", "J", "10", "9", "8", "7")
        return (1 if suit == led else 0, -order.index(rank))
    s = _suit_of(card, game)
    if s == "T":
        if rank == "J":
            return (3, -"CSHD".index(suit))
        return (2, -("A", "10", "K", "Q", "9", "8", "7").index(rank))
    return (1 if s == led else 0, -("A", "10", "K", "Q", "9", "8", "7").index(rank))


def _winner(trick: list[str], game: str) -> int:
    led = _suit_of(trick[0], game)
    return max(range(3), key=lambda i: _strength(trick[i], game, led))


def _points(cards: list[str]) -> int:
    return sum(_VALUES[c[1:]] for c in cards)


# ---------------------------------------------------------------------------------------------


def _split_blocks(log_text: str) -> list[list[str]]:
    blocks, current = [], []
    for line in log_text.replace("\r\n", "\n").split("\n"):
        if line == _END:
            blocks.append(current)
            current = []
        else:
            current.append(line)
    if any(line.strip() for line in current):
        raise XSkatFormatError("log ends inside a game (no closing '=====' line)")
    return blocks


def _parse_list(list_text: str) -> list[tuple[int, int, int, int, int]]:
    entries = []
    for line in list_text.splitlines():
        if line.startswith("e "):
            parts = line.split()
            if len(parts) != 6:
                raise XSkatFormatError(f"list line {line!r}: expected 'e S R D E G'")
            entries.append(tuple(int(p) for p in parts[1:]))
    return entries


def _parse_block(lines: list[str], index: int) -> dict[str, Any]:
    """One game's block, raw (XSkat's own columns and words)."""
    where = f"game {index + 1} of the log"
    try:
        names = lines[0].split()
        if len(names) != 3 or lines[2] != _SEPARATOR:
            raise XSkatFormatError("header (three player names, blank line, dashes) not found")
        seed_at = next(i for i, line in enumerate(lines) if line.startswith("---- random_seed"))
        m = _SEED.match(lines[seed_at])
        if not m:
            raise XSkatFormatError(f"unreadable seed line {lines[seed_at]!r}")
        trick_rows = [_cells(line) for line in lines[3:seed_at]]
        hand_rows = [_cells(line) for line in lines[seed_at + 1 : seed_at + 11]]
        if len(hand_rows) != 10 or lines[seed_at + 11] != _SEPARATOR:
            raise XSkatFormatError("the ten rows of hands are not followed by dashes")
        tail = [line for line in lines[seed_at + 12 :] if line]
        fields: dict[str, Any] = {}
        for line in tail:
            key, _, value = line.partition(": ")
            if key in ("Skat is", "Skat was"):
                fields[key] = [_card(c) for c in value.split(",")]
            elif key == "Last bid":
                fields[key] = int(value)
            elif key in ("Won with", "Lost with"):
                mm = re.fullmatch(r"(\d+) points", value)
                if not mm:
                    raise XSkatFormatError(f"unreadable result {line!r}")
                fields["result"] = line
                fields["won"] = key == "Won with"
                fields["points"] = int(mm.group(1))
            elif line in ("Won", "Lost"):
                fields["result"] = line
                fields["won"] = line == "Won"
                fields["points"] = None  # XSkat prints no card points for null games
            elif line in ANNOUNCEMENT_LINES:
                fields["announcement_line"] = line
            elif (mm := re.fullmatch(r"(\S+) played (\w+)", line)) and mm.group(1) in names:
                if mm.group(2) not in GAMES:
                    raise XSkatFormatError(f"unknown game in {line!r}")
                fields["declarer_column"] = names.index(mm.group(1))
                fields["game_word"] = mm.group(2)
            else:
                raise XSkatFormatError(f"unexpected line {line!r}")
    except (StopIteration, IndexError):
        raise XSkatFormatError(f"{where}: truncated block") from None
    except XSkatFormatError as exc:
        raise XSkatFormatError(f"{where}: {exc}") from None
    hands = [[_card(row[col]) for row in hand_rows] for col in range(3)]
    return {
        "names": names,
        "seed": int(m.group(1)),
        "game_number": int(m.group(2)),
        "dealer_column": int(m.group(3)) - 1,
        "rotate": (m.group(4) or "").strip() or None,
        "trick_rows": trick_rows,
        "hands": hands,
        **fields,
    }


def _tricks(raw: dict[str, Any], where: str) -> tuple[list[list[str]], list[int], list[int]]:
    """The tricks actually played, by column, with each trick's leader and winner column.

    A real trick row has exactly one upper-case (winning) card.  Rows without one are not
    tricks: in a null game that XSkat ended early as a sure win, it lists the cards left in
    the hands (sorted) in rows that are not played tricks; a null game ended by the declarer's
    first trick shows only the tricks played.
    """
    columns, leaders, winners = [], [], []
    done = False
    for row in raw["trick_rows"]:
        upper = [i for i, cell in enumerate(row) if _is_upper(cell)]
        under = [i for i, cell in enumerate(row) if "_" in cell]
        if not upper:
            if under:
                raise XSkatFormatError(f"{where}: a leader mark in a row without a winner: {row}")
            done = True
            continue
        if done or len(upper) != 1 or len(under) > 1 or (under and under == upper):
            raise XSkatFormatError(f"{where}: unreadable trick row {row}")
        columns.append([_card(c) for c in row])
        winners.append(upper[0])
        leaders.append(under[0] if under else upper[0])
    return columns, leaders, winners


def _game(raw: dict[str, Any], entry: tuple[int, ...], where: str) -> dict[str, Any]:
    names = raw["names"]
    forehand = (raw["dealer_column"] + 1) % 3
    order = [(forehand + i) % 3 for i in range(3)]  # columns in seat order, forehand first
    seat = {col: SEATS[i] for i, col in enumerate(order)}
    declarer_col = raw["declarer_column"]
    game = GAMES[raw["game_word"]]
    hand, announced = ANNOUNCEMENT_LINES.get(raw.get("announcement_line"), (False, []))
    skat_is, skat_was = raw["Skat is"], raw["Skat was"]
    hands = raw["hands"]  # after the exchange: the cards each player played

    # The deal: the declarer held his ten cards at the end plus the discard, less the Skat he
    # picked up.  (Hand game: "Skat is" == "Skat was" and the hands are as dealt.)
    if hand:
        if sorted(skat_is) != sorted(skat_was):
            raise XSkatFormatError(f"{where}: Hand game but the Skat changed")
        discard: list[str] = []
        dealt = {col: list(hands[col]) for col in range(3)}
    else:
        discard = list(skat_is)
        twelve = hands[declarer_col] + skat_is
        if not set(skat_was) <= set(twelve):
            raise XSkatFormatError(f"{where}: the Skat picked up is not in the declarer's cards")
        dealt = {col: list(hands[col]) for col in range(3)}
        dealt[declarer_col] = [c for c in hands[declarer_col] if c not in skat_was] + [
            c for c in skat_is if c not in skat_was
        ]
    deal = {seat[col]: dealt[col] for col in order}
    deal["skat"] = list(skat_was)

    # Sanity 1: 32 distinct cards, ten a hand, two in the Skat.
    everything = [c for who in (*SEATS, "skat") for c in deal[who]]
    full_deck = {s + r for s in "CSHD" for r in _RANKS}
    if len(everything) != 32 or set(everything) != full_deck:
        raise XSkatFormatError(f"{where}: the deal is not the 32 cards once each")
    if any(len(deal[s]) != 10 for s in SEATS):
        raise XSkatFormatError(f"{where}: a hand does not hold ten cards")

    # The tricks, in play order (leader first; then the next column, then the one after).
    columns, leaders, winners = _tricks(raw, where)
    if not columns:
        raise XSkatFormatError(f"{where}: a played game without tricks")
    play = [
        [row[(lead + i) % 3] for i in range(3)] for row, lead in zip(columns, leaders, strict=True)
    ]
    # Sanity 2: the first leader is forehand, every later one won the trick before; the marked
    # winner is the card that wins under the rules of the game; every card played is in the
    # player's hand, and a player who did not follow suit had none of it left.
    left = {col: list(hands[col]) for col in range(3)}
    for t, (lead, win) in enumerate(zip(leaders, winners, strict=True)):
        expected = forehand if t == 0 else winners[t - 1]
        if lead != expected:
            raise XSkatFormatError(f"{where}: trick {t + 1} led by column {lead}, not {expected}")
        trick = play[t]
        if (lead + _winner(trick, game)) % 3 != win:
            raise XSkatFormatError(f"{where}: trick {t + 1} {trick}: the marked winner is wrong")
        led_suit = _suit_of(trick[0], game)
        for i, card in enumerate(trick):
            col = (lead + i) % 3
            if card not in left[col]:
                raise XSkatFormatError(f"{where}: trick {t + 1}: {card} is not in the hand")
            if (
                i
                and _suit_of(card, game) != led_suit
                and any(_suit_of(c, game) == led_suit for c in left[col])
            ):
                raise XSkatFormatError(f"{where}: trick {t + 1}: {card} does not follow suit")
            left[col].remove(card)
    complete = len(play) == 10
    if complete and any(left.values()):
        raise XSkatFormatError(f"{where}: the tricks are not the three hands")
    if not complete and not (game == "null"):
        raise XSkatFormatError(f"{where}: {len(play)} tricks in a {game} game")

    # Derived from the tricks (XSkat prints neither for every game): tricks the declarer took,
    # and his card points = the Skat ("Skat is": discard, or the Skat as dealt in Hand games)
    # plus the cards of the tricks he took.
    taken = [trick for trick, w in zip(play, winners, strict=True) if w == declarer_col]
    tricks_taken = len(taken)
    counted_points = _points(skat_is) + _points([c for t in taken for c in t])
    won = raw["won"]
    if raw["points"] is not None:
        # Sanity 3: XSkat's "Won with/Lost with: N points" is the declarer's card points, Skat
        # included, and is what the tricks add up to.
        if raw["points"] != counted_points:
            raise XSkatFormatError(
                f"{where}: log says {raw['points']} points, the tricks give {counted_points}"
            )
        declarer_points = raw["points"]  # as printed
    else:
        # null: XSkat prints no points, and a record of its game says 0 (not counted: in a
        # null game card points decide nothing); what the tricks give is in xskat.counted_points
        declarer_points = 0
    if game == "null" and won != (tricks_taken == 0):
        raise XSkatFormatError(f"{where}: null game {raw['result']} with {tricks_taken} tricks")

    s, r, d, e, g = entry
    # Sanity 4: the list entry belongs to this game.
    if s != declarer_col or r or d or bool(g) != won or e <= 0:
        raise XSkatFormatError(f"{where}: list entry e {s} {r} {d} {e} {g} does not match")

    record: dict[str, Any] = {
        "players": list(SEATS),
        "declarer": seat[declarer_col],
        "game": game,
        "hand": hand,
        "announced": announced,
        "bid": raw["Last bid"],
        "deal": deal,
        "discard": discard,
    }
    # A won null game that XSkat stopped early (declarer sure to take no trick) has no
    # complete play; a lost null game stops at the declarer's first trick (kept: the record
    # format accepts that).
    if complete or (game == "null" and not won):
        record["play"] = play
    record["result"] = {
        "declarer_points": declarer_points,
        "declarer_tricks": tricks_taken,  # derived: counted from the trick winners
    }
    xskat = {
        "won": won,  # "Won"/"Won with" in the log (= G of the list entry)
        "list_value": e,  # E of the list entry, exactly as printed
        "list_score": e if won else -e,  # how XSkat's list books it (sign from G)
        # derived: XSkat's value of the game, undoubled; with -newrules every lost game is
        # entered doubled, so this is E/2 for a lost game.
        "game_value": e if won else e // 2,
        "log_result": raw["result"],  # the last line of the log block, verbatim
        "log_points": raw["points"],  # None for null games (XSkat prints none)
        "counted_points": counted_points,  # derived: the Skat and the tricks taken
        "bid": raw["Last bid"],
        "announcement_line": raw.get("announcement_line"),
        "tricks_played": len(play),
        "skat_was": skat_was,
        "skat_is": skat_is,
        "list_entry": list(entry),
        "seed": raw["seed"],
        "game_number": raw["game_number"],
        "dealer": seat[raw["dealer_column"]],  # always "C" (rearhand)
        "seat_names": [names[col] for col in order],  # XSkat's players, forehand first
        "declarer_name": names[declarer_col],
    }
    if e % 2 and not won:
        raise XSkatFormatError(f"{where}: lost game with an odd list value {e}")
    return {"record": record, "xskat": xskat}


def parse_xskat(
    log_text: str, list_text: str, stats: dict[str, int] | None = None
) -> list[dict[str, Any]]:
    """Every game of one XSkat run that was played (passed-in games are skipped).

    ``log_text`` and ``list_text`` are the ``-log`` and ``-list`` files of the same run (the
    list must hold an entry for every game of the log: at most 360 games a run).  If ``stats``
    is given, it receives the counts ``games``, ``passed`` and ``played``.

    Each game is ``{"record": {...}, "xskat": {...}}``: ``record`` in the shape of our game
    record (seats A, B, C = forehand, middlehand, rearhand of that game; cards as ``<suit><rank>``
    with suits C S H D), ``xskat`` the figures XSkat printed (see :func:`_game`).  Every game
    is checked (32 distinct cards; tricks consistent with the hands, leaders and winners; card
    points as printed; list entry matching) and :class:`XSkatFormatError` raised otherwise.
    """
    blocks = _split_blocks(log_text)
    entries = _parse_list(list_text)
    if len(entries) != len(blocks):
        raise XSkatFormatError(
            f"the log has {len(blocks)} games, the list {len(entries)} entries (XSkat keeps only "
            "the last 360 games in its list: run at most 360 games per log, each with a new list)"
        )
    games, passed = [], 0
    for index, (lines, entry) in enumerate(zip(blocks, entries, strict=True)):
        raw = _parse_block(lines, index)
        where = f"game {index + 1} of the log (random_seed {raw['seed']} {raw['game_number']})"
        if "Last bid" not in raw:  # everyone passed (and -noramsch): nothing was played
            if entry[3] != 0 or len(raw["trick_rows"]) != 1:
                raise XSkatFormatError(f"{where}: a passed game with a value or tricks")
            if sorted(c for row in raw["trick_rows"] for c in row) != ["Pass", "Pass", "_Pass_"]:
                raise XSkatFormatError(f"{where}: no bid, yet not passed in")
            passed += 1
            continue
        for key in ("Skat was", "declarer_column", "result"):
            if key not in raw:
                raise XSkatFormatError(f"{where}: no {key!r} line")
        games.append(_game(raw, entry, where))
    if stats is not None:
        stats.update(games=len(blocks), passed=passed, played=len(games))
    return games


def to_game_record(game: dict[str, Any], with_play: bool = True) -> dict[str, Any]:
    """A fixture game as the table ``qcards.skat.records.game_record.record_from_dict`` reads.

    That format keeps the discard under ``deal``, the tricks as ``play = {tricks = [...]}``,
    and takes *either* ``play`` *or* ``result``: the play when there is one and ``with_play``,
    else the result.
    """
    rec = game["record"]
    out = {k: rec[k] for k in ("players", "declarer", "game", "hand", "announced", "bid")}
    out["deal"] = dict(rec["deal"])
    if rec["discard"]:
        out["deal"]["discard"] = list(rec["discard"])
    if with_play and "play" in rec:
        out["play"] = {"tricks": rec["play"]}
    else:
        out["result"] = dict(rec["result"])
    return out
