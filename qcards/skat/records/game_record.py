"""Records of finished Skat games (TOML) and their scores by the ISkO.

A record says who played what and how it ended::

    players = ["A", "B", "C"]          # seat order, forehand first
    declarer = "B"
    game = "grand"                     # clubs | spades | hearts | diamonds | grand | null
    hand = false                       # true: played without picking up the Skat
    announced = []                     # schneider, schwarz, ouvert (Hand; null: ouvert)
    bid = 18
    table = ["A", "B", "C", "D"]       # optional: everyone at the table (a fourth player sits out)
    [deal]                             # the cards as dealt: ten each and the Skat
    A = [...]; B = [...]; C = [...]
    skat = ["C10", "SJ"]
    discard = ["HQ", "SA"]             # the two cards put away (not in Hand games)
    [result]                           # how the play ended ...
    declarer_points = 92               # card points, the Skat (or the discard) included,
                                       # within what the tricks can hold (null: 0, not counted)
    declarer_tricks = 8
    [play]                             # ... or every trick, leader's card first, replayed
    tricks = [["CJ", "SJ", "D7"], ...] # and checked card by card

:func:`score_record` settles a record through :func:`qcards.skat.rules.scoring.settle`; every
problem is a :class:`~qcards.errors.GameRecordError` naming the file and the field (a trick
of ``[play]``: its number and the card).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, cast

from qcards.errors import GameRecordError, IllegalPlay
from qcards.files import parse_toml, read_text
from qcards.skat.rules.cards import Card, CardError, Rules, Trump, points, rules_of
from qcards.skat.rules.scoring import (
    TRICKS,
    Declaration,
    ScoringError,
    Settlement,
    matadors,
    settle,
)
from qcards.skat.rules.table import Table

FIELDS = frozenset(
    {"players", "declarer", "game", "hand", "announced", "bid", "table", "deal", "result", "play"}
)
"""The top-level fields of a record (any other is refused, naming it)."""

HAND_SIZE = 10
SKAT_SIZE = 2
SKAT = "skat"
DISCARD = "discard"
RESERVED = (SKAT, DISCARD)
"""Names no player may have: they are fields of ``[deal]`` beside the players' hands."""
PLAYERS = 3


def game_rules(declaration: Declaration) -> Rules:
    """The trick-taking rules of a declared game (a null game's order for null and ouvert)."""
    if declaration.is_null:
        return rules_of(Trump.NULL_OUVERT if declaration.ouvert else Trump.NULL)
    return rules_of(Trump(declaration.game))


@dataclass(frozen=True)
class GameRecord:
    """A validated record of one finished game.

    Attributes:
        players: the three seats in order, forehand (who leads the first trick) first.
        declarer: the declaring player.
        declaration: the game, Hand, announcements and bid.
        deal: each player's ten cards and the Skat (key ``"skat"``), as dealt.
        discard: the two cards the declarer put away (empty in Hand games).
        declarer_points: card points of the declarer at the end (the Skat or discard included).
        declarer_tricks: tricks the declarer took.
        tricks: every trick played (leader's card first), when the record has ``[play]``.
        table: everyone at the table (the players, and a fourth who sat out, if any).
        source: where the record came from, for messages.
    """

    players: tuple[str, ...]
    declarer: str
    declaration: Declaration
    deal: Mapping[str, tuple[Card, ...]]
    discard: tuple[Card, ...]
    declarer_points: int
    declarer_tricks: int
    tricks: tuple[tuple[Card, ...], ...] | None = None
    table: tuple[str, ...] = ()
    source: str = "<record>"

    @property
    def declarer_cards(self) -> tuple[Card, ...]:
        """The declarer's twelve cards: the ten dealt and the Skat (the matadors' cards)."""
        return self.deal[self.declarer] + self.deal[SKAT]

    @property
    def matadors(self) -> int:
        return matadors(self.declarer_cards, self.declaration.game)

    def settle(self) -> Settlement:
        """The ISkO settlement of the game (:func:`qcards.skat.rules.scoring.settle`)."""
        return settle(self.declaration, self.matadors, self.declarer_points, self.declarer_tricks)


@dataclass(frozen=True)
class RecordScore:
    """What ``qcards score`` prints for one record."""

    source: str
    declarer: str
    game: str
    settlement: Settlement
    seeger_fabian: Mapping[str, int]

    def to_json(self) -> dict[str, Any]:
        s = self.settlement
        return {
            "record": self.source,
            "declarer": self.declarer,
            "game": self.game,
            "game_value": s.game_value,
            "won": s.won,
            "overbid": s.overbid,
            "matadors": s.matadors,
            "multiplier": s.multiplier,
            "list_score": s.list_score,
            "seeger_fabian": dict(self.seeger_fabian),
        }


def score_record(record: GameRecord) -> RecordScore:
    """A record's settlement and every player's Seeger-Fabian points."""
    s = record.settle()
    d = record.declaration
    name = d.game
    if d.is_null and d.ouvert:
        name = "null ouvert"
    if d.hand:
        name += " hand"
    return RecordScore(
        record.source, record.declarer, name, s, s.seeger_fabian(record.declarer, record.table)
    )


def score_files(paths: Iterable[str | Path]) -> list[RecordScore | GameRecordError]:
    """Score each record file in order; a bad record's :class:`GameRecordError` stands in its
    place, and the others are scored all the same."""
    out: list[RecordScore | GameRecordError] = []
    for path in paths:
        try:
            out.append(score_record(load_record(path)))
        except GameRecordError as exc:
            out.append(exc)
    return out


def load_record(path: str | Path) -> GameRecord:
    """Read and validate a record file (TOML)."""
    text = read_text(path, GameRecordError, "game record")
    return parse_record(text, source=str(path))


def parse_record(text: str, source: str = "<record>") -> GameRecord:
    """Parse and validate record text (TOML)."""
    return record_from_dict(parse_toml(text, source, GameRecordError), source)


def record_from_dict(data: Mapping[str, Any], source: str = "<record>") -> GameRecord:
    """Validate an already-parsed record table."""
    return _Reader(data, source).record()


class _Reader:
    """Reads one record table, raising :class:`GameRecordError` at the first broken rule."""

    def __init__(self, data: Mapping[str, Any], source: str) -> None:
        self.data = data
        self.source = source

    def fail(self, field: str, message: str) -> GameRecordError:
        return GameRecordError(f"{self.source}: field '{field}': {message}")

    def cards(self, value: Any, field: str, size: int | None = None) -> tuple[Card, ...]:
        if not isinstance(value, list):
            raise self.fail(field, 'must be a list of cards like ["CA", "H10"]')
        try:
            cards = tuple(Card.parse(v) for v in value)
        except CardError as exc:
            raise self.fail(field, str(exc)) from None
        if size is not None and len(cards) != size:
            raise self.fail(field, f"must hold {size} cards, got {len(cards)}")
        if len(set(cards)) != len(cards):
            raise self.fail(field, "a card is listed twice")
        return cards

    def names(
        self, field: str, value: Any, low: int, high: int | None = None
    ) -> tuple[str, ...] | None:
        """``value`` as ``low`` to ``high`` (default ``low``) player names, or None when it is
        not a list of that many non-empty strings; names that repeat or that are a field of
        ``[deal]`` besides the players' (:data:`RESERVED`) are refused here, naming ``field``."""
        high = low if high is None else high
        if (
            not isinstance(value, list)
            or not low <= len(value) <= high
            or not all(isinstance(p, str) and p for p in value)
        ):
            return None
        if len(set(value)) != len(value):
            raise self.fail(field, f"names must be distinct, got {', '.join(value)}")
        for name in value:
            if name in RESERVED:
                raise self.fail(
                    field, f"{name!r} cannot be a player: it is a field of [deal] "
                    f"(reserved: {', '.join(RESERVED)})",
                )  # fmt: skip
        return tuple(value)

    def whole(self, field: str, value: Any, low: int, high: int, what: str) -> int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise self.fail(field, f"must be a whole number of {what}, got {value!r}")
        if not low <= value <= high:
            raise self.fail(field, f"must lie in {low}..{high}, got {value}")
        return value

    def record(self) -> GameRecord:
        data = self.data
        extra = sorted(set(data) - FIELDS)
        if extra:
            raise self.fail(extra[0], f"unknown field (allowed: {', '.join(sorted(FIELDS))})")
        players = self.names("players", data.get("players"), PLAYERS)
        if players is None:
            raise self.fail("players", 'must list the three seats, forehand first: ["A", "B", "C"]')
        declarer = data.get("declarer")
        if declarer not in players:
            raise self.fail("declarer", f"must be one of the players ({', '.join(players)})")
        declarer = cast(str, declarer)  # one of the players, all names
        table = self.names("table", data.get("table", list(players)), PLAYERS, PLAYERS + 1)
        if table is None or not set(players) <= set(table):
            raise self.fail(
                "table", "must list the three players and at most one more, once each, "
                'as a list of names: ["A", "B", "C", "D"]',
            )  # fmt: skip
        for field in ("game", "bid"):
            if field not in data:
                raise self.fail(field, "missing")
        try:
            declaration = Declaration.make(
                data["game"], data.get("hand", False), data.get("announced", []), data["bid"]
            )
        except ScoringError as exc:
            raise self.fail(exc.field, exc.reason) from None
        deal = self.deal(players)
        discard = self.discard(declaration, deal, declarer)
        rules = game_rules(declaration)
        skat_cards = discard if discard else deal[SKAT]
        has_play, has_result = "play" in data, "result" in data
        if has_play == has_result:
            raise self.fail("result", "give either [result] or [play] (every trick), not both")
        tricks = None
        if has_play:
            hands = {p: list(deal[p]) for p in players}
            if discard:
                hands[declarer] = [c for c in (*deal[declarer], *deal[SKAT]) if c not in discard]
            tricks, won = self.replay(rules, players, hands, declarer, declaration)
            taken_cards = [c for t, w in zip(tricks, won, strict=True) if w == declarer for c in t]
            pts = points(skat_cards) + points(taken_cards)
            taken = sum(w == declarer for w in won)
        else:
            pts, taken = self.result(declaration, deal, skat_cards)
        return GameRecord(
            players=players,
            declarer=declarer,
            declaration=declaration,
            deal=deal,
            discard=discard,
            declarer_points=pts,
            declarer_tricks=taken,
            tricks=tricks,
            table=table,
            source=self.source,
        )

    def deal(self, players: tuple[str, ...]) -> dict[str, tuple[Card, ...]]:
        raw = self.data.get("deal")
        if not isinstance(raw, dict):
            raise self.fail("deal", "must be a table of the ten cards of each player and the skat")
        extra = sorted(set(raw) - {*players, *RESERVED})
        if extra:
            raise self.fail(f"deal.{extra[0]}", "unknown (a player, skat or discard)")
        deal = {}
        seen: dict[Card, str] = {}
        for who in (*players, SKAT):
            size = SKAT_SIZE if who == SKAT else HAND_SIZE
            if who not in raw:
                raise self.fail(f"deal.{who}", "missing")
            deal[who] = self.cards(raw[who], f"deal.{who}", size)
            for c in deal[who]:
                if c in seen:
                    raise self.fail(f"deal.{who}", f"{c} is dealt to {seen[c]} as well")
                seen[c] = who
        return deal

    def discard(
        self, declaration: Declaration, deal: Mapping[str, tuple[Card, ...]], declarer: str
    ) -> tuple[Card, ...]:
        raw = self.data["deal"].get(DISCARD)
        if declaration.hand:
            if raw is not None:
                raise self.fail(
                    "deal.discard",
                    f"a Hand game is played without picking up the Skat: no discard (got {raw!r})",
                )
            return ()
        if raw is None:
            raise self.fail("deal.discard", "missing: the two cards put away after the pick-up")
        discard = self.cards(raw, "deal.discard", SKAT_SIZE)
        twelve = set(deal[declarer]) | set(deal[SKAT])
        for c in discard:
            if c not in twelve:
                raise self.fail(
                    "deal.discard", f"{c} is neither in {declarer}'s hand nor in the skat"
                )
        return discard

    def result(
        self,
        declaration: Declaration,
        deal: Mapping[str, tuple[Card, ...]],
        skat_cards: tuple[Card, ...],
    ) -> tuple[int, int]:
        """The ``[result]``: the declarer's card points and tricks, the points checked against
        what the tricks can hold (:func:`points_bounds`). In a null game the card points
        decide nothing: 0 there means "not counted" and is accepted with any tricks."""
        raw = self.data["result"]
        if not isinstance(raw, dict):
            raise self.fail("result", "must be a table with declarer_points and declarer_tricks")
        extra = sorted(set(raw) - {"declarer_points", "declarer_tricks"})
        if extra:
            raise self.fail(f"result.{extra[0]}", "unknown (declarer_points, declarer_tricks)")
        for key in ("declarer_points", "declarer_tricks"):
            if key not in raw:
                raise self.fail(f"result.{key}", "missing")
        pts = self.whole("result.declarer_points", raw["declarer_points"], 0, 120, "card points")
        taken = self.whole("result.declarer_tricks", raw["declarer_tricks"], 0, TRICKS, "tricks")
        if declaration.is_null and pts == 0:
            return pts, taken
        own = points(skat_cards)
        if pts < own:
            raise self.fail(
                "result.declarer_points",
                f"{pts} is less than the {own} points of the skat, which count for the declarer",
            )
        if taken == 0 and pts != own:
            raise self.fail("result.declarer_points", f"no trick taken, so it must be {own}")
        if taken == TRICKS and pts != 120:
            raise self.fail("result.declarer_points", "every trick taken, so it must be 120")
        played = [c for cards in deal.values() for c in cards if c not in skat_cards]
        low, high = points_bounds(played, taken)
        if not own + low <= pts <= own + high:
            tricks = f"{taken} trick" + ("" if taken == 1 else "s")
            raise self.fail(
                "result.declarer_points",
                f"{pts} does not fit {tricks}: {PLAYERS * taken} of the {len(played)} cards "
                f"played hold {low}..{high} points, so with the {own} of the skat the declarer "
                f"has {own + low}..{own + high}",
            )
        return pts, taken

    def replay(
        self,
        rules: Rules,
        players: tuple[str, ...],
        hands: dict[str, list[Card]],
        declarer: str,
        declaration: Declaration,
    ) -> tuple[tuple[tuple[Card, ...], ...], list[str]]:
        raw = self.data["play"]
        if not isinstance(raw, dict) or set(raw) != {"tricks"}:
            raise self.fail("play", "must be a table with one field, tricks = [[...], ...]")
        raw_tricks = raw["tricks"]
        if not isinstance(raw_tricks, list) or not raw_tricks:
            raise self.fail("play.tricks", "must be a list of tricks, each a list of three cards")
        tricks, winners = [], []
        table = Table.deal(rules, [hands[who] for who in players], 0)
        for number, raw_trick in enumerate(raw_tricks, 1):
            field = f"play.tricks[{number}]"
            if number > TRICKS:
                raise self.fail(field, f"a game has {TRICKS} tricks")
            trick = self.cards(raw_trick, field, PLAYERS)
            for card in trick:
                who = players[table.to_move]
                try:
                    table = table.play(card)
                except IllegalPlay as illegal:
                    if not illegal.held:
                        message = f"{who} plays {card}, which {who} does not hold"
                        raise self.fail(field, message) from None
                    raise self.fail(
                        field, f"{who} plays {card} but must follow suit with one of "
                        f"{' '.join(str(c) for c in illegal.legal)}",
                    ) from None  # fmt: skip
            tricks.append(trick)
            winners.append(players[table.leader])
        if len(tricks) < TRICKS:
            ended = declaration.is_null and declarer in winners
            if not ended:
                raise self.fail(
                    "play.tricks",
                    f"{len(tricks)} tricks: a game is played to the last of its {TRICKS} tricks "
                    "(only a null game ends at the declarer's first trick); give [result] for a "
                    "game that was conceded",
                )
        return tuple(tricks), winners


def points_bounds(played: Sequence[Card], tricks: int) -> tuple[int, int]:
    """The fewest and the most card points ``tricks`` tricks can hold, of the ``played``
    cards (everything dealt but the Skat or the discard): the sum of the ``3 * tricks``
    lowest-valued cards and of the ``3 * tricks`` highest. A necessary bound, not a tight one:
    it does not ask whether the play could bring those cards together."""
    values = sorted(c.value for c in played)
    n = PLAYERS * tricks
    return sum(values[:n]), sum(values[len(values) - n :])


def record_toml(
    players: Sequence[str],
    declarer: str,
    declaration: Declaration,
    deal: Mapping[str, Sequence[Card]],
    skat: Sequence[Card],
    discard: Sequence[Card],
    tricks: Sequence[Sequence[Card]],
    comment: str = "",
) -> str:
    """A finished game as a record (the format :func:`parse_record` reads, every trick under
    ``[play]``): the inverse of the reader, for games qcards plays itself (matches)."""

    def cards(cs: Sequence[Card]) -> str:
        return "[" + ", ".join(f'"{c}"' for c in cs) + "]"

    lines = [f"# {comment}"] if comment else []
    lines += [
        "players = [" + ", ".join(f'"{p}"' for p in players) + "]",
        f'declarer = "{declarer}"',
        f'game = "{declaration.game}"',
        f"hand = {'true' if declaration.hand else 'false'}",
        "announced = [" + ", ".join(f'"{a}"' for a in declaration.announced) + "]",
        f"bid = {declaration.bid}",
        "",
        "[deal]",
        *(f"{p} = {cards(deal[p])}" for p in players),
        f"{SKAT} = {cards(skat)}",
    ]
    if discard:
        lines.append(f"discard = {cards(discard)}")
    lines += ["", "[play]", "tricks = ["]
    lines += [f"  {cards(t)}," for t in tricks]
    lines.append("]")
    return "\n".join(lines) + "\n"


def seeger_fabian_totals(scores: Sequence[RecordScore]) -> dict[str, int]:
    """Every player's Seeger-Fabian total over a list of scored games (a match)."""
    totals: dict[str, int] = {}
    for s in scores:
        for player, value in s.seeger_fabian.items():
            totals[player] = totals.get(player, 0) + value
    return totals
