"""Hypothesis strategies for Skat endgame specs: valid small ones, and mutations of them.

A spec is generated as the table :func:`qcards.skat.position.spec.spec_from_dict` reads (a
``dict``), then written as TOML by :func:`fuzzlib.toml_text`. The rules a valid spec keeps are those
of
``qcards/skat/position/spec.py``: 2 to 4 distinct players (none called ``skat``), a trump of
:class:`~qcards.skat.rules.cards.Trump` (any letter case), a leader among the players, distinct
cards
of the 32-card deck, every player holding the same number of cards (known plus dealt), sizes
that add up to the unknown cards, an optional ``skat`` receiver, ``declarer_points`` and
``target`` in 0..120 with the declarer's points plus the points in play at most 120.

Each mutation returns ``(table, expect, what)``: ``expect`` is ``"error"`` when the mutated spec
breaks one of those rules (the CLI must refuse it) and ``"any"`` when it may still be valid.
"""

from __future__ import annotations

import copy
from typing import Any

from hypothesis import strategies as st

from qcards.skat.position.spec import FIELDS, SKAT
from qcards.skat.rules.cards import FULL_DECK, Card, CardError, Trump, points

PLAIN_NAMES = ("A", "B", "C", "D")
TRUMPS = tuple(t.value for t in Trump)
_SYMBOL = {"C": "♣", "S": "♠", "H": "♥", "D": "♦"}


def _card_text(draw, card: Card) -> str:
    """A card written any way :meth:`Card.parse` reads: ``CA``, ``ca``, ``♣A``, `` CA ``."""
    style = draw(st.sampled_from(("plain", "plain", "lower", "symbol", "padded")))
    if style == "lower":
        return str(card).lower()
    if style == "symbol":
        return _SYMBOL[card.suit] + card.rank
    if style == "padded":
        return f" {card} "
    return str(card)


def player_names(n: int, unicode: bool) -> st.SearchStrategy[list[str]]:
    if not unicode:
        return st.just(list(PLAIN_NAMES[:n]))
    name = st.text(min_size=1, max_size=6).filter(lambda s: s != SKAT)
    return st.lists(name, min_size=n, max_size=n, unique=True)


@st.composite
def valid_specs(
    draw,
    max_tricks: int = 2,
    max_unknown: int = 6,
    unicode_names: bool | None = None,
    skat: bool | None = None,
) -> dict[str, Any]:
    """A valid spec table with at most ``max_tricks`` cards a hand and ``max_unknown`` unknown
    cards (the Skat's included)."""
    n = draw(st.integers(2, 4))
    if unicode_names is None:
        unicode_names = draw(st.booleans())
    players = draw(player_names(n, unicode_names))
    tricks = draw(st.integers(1, max_tricks))
    # cards dealt at random to each player (the rest of a hand is known), in a random order so
    # that no seat is favoured by the budget
    budget = max_unknown
    dealt = {}
    for p in draw(st.permutations(players)):
        dealt[p] = draw(st.integers(0, min(tricks, budget)))
        budget -= dealt[p]
    with_skat = draw(st.booleans()) if skat is None else skat
    skat_size = draw(st.integers(1, min(2, budget))) if with_skat and budget else 0
    n_unknown = sum(dealt.values()) + skat_size
    cards = draw(
        st.lists(
            st.sampled_from(FULL_DECK),
            min_size=n * tricks + skat_size,
            max_size=n * tricks + skat_size,
            unique=True,
        )
    )
    unknown, known = cards[:n_unknown], cards[n_unknown:]
    hands = {}
    for p in players:
        k = tricks - dealt[p]
        hands[p], known = known[:k], known[k:]
    in_play = points(cards)

    table: dict[str, Any] = {"players": players}
    trump = draw(st.sampled_from(TRUMPS))
    if draw(st.booleans()):
        table["trump"] = draw(st.sampled_from((trump, trump.upper(), trump.capitalize())))
    elif trump != "spades":  # the default
        table["trump"] = trump
    # the declarer leads half of the time (recommend needs that)
    leader = players[0] if draw(st.booleans()) else draw(st.sampled_from(players))
    if leader != players[0] or draw(st.booleans()):
        table["leader"] = leader
    table["winner_leads"] = draw(st.booleans())
    table["declarer_points"] = draw(st.integers(0, 120 - in_play))
    if not trump.startswith("null"):  # a null game is won by taking no trick: no target
        table["target"] = draw(st.integers(0, 120))
    table["hands"] = {
        p: [_card_text(draw, c) for c in hands[p]]
        for p in players
        if hands[p] or draw(st.booleans())
    }
    if n_unknown or draw(st.booleans()):
        sizes = {p: dealt[p] for p in players if dealt[p] or draw(st.booleans())}
        if skat_size:
            sizes[SKAT] = skat_size
        table["unknown"] = {"cards": [_card_text(draw, c) for c in unknown], "sizes": sizes}
    return table


def spec_size(table: dict[str, Any]) -> tuple[int, int]:
    """(unknown cards, cards a hand) of a valid spec table."""
    unknown = len(table.get("unknown", {}).get("cards", []))
    players = table["players"]
    hand = len(table.get("hands", {}).get(players[0], []))
    hand += table.get("unknown", {}).get("sizes", {}).get(players[0], 0)
    return unknown, hand


# -- mutations ---------------------------------------------------------------------------------

ANY_VALUE = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(2**70), 2**70),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=8),
    st.lists(st.one_of(st.integers(-5, 40), st.text(max_size=4)), max_size=4),
    st.dictionaries(st.text(max_size=4), st.integers(-3, 10), max_size=3),
    st.dates(),
    st.datetimes(),
    st.times(),
).filter(lambda v: v is not None)
"""Any value TOML can hold (``None`` has no TOML form and is filtered out)."""

BAD_CARD = st.one_of(
    st.sampled_from(["C1", "X9", "", " ", "CA10", "JOKER", "10C", "A", "C 10", "S11", "HH"]),
    st.text(max_size=5),
).filter(lambda s: not _parses(s))


def _parses(text: str) -> bool:
    try:
        Card.parse(text)
    except CardError:
        return False
    return True


def _locations(table: dict[str, Any]) -> list[tuple[str, str | None]]:
    """Every card list of a table: ``("hands", player)`` and ``("unknown", None)``."""
    where = [("hands", p) for p in table.get("hands", {})]
    if "unknown" in table:
        where.append(("unknown", None))
    return where


def _cards_at(table: dict[str, Any], where: tuple[str, str | None]) -> list:
    kind, player = where
    return table["hands"][player] if kind == "hands" else table["unknown"]["cards"]


def _ensure_unknown(table: dict[str, Any]) -> dict:
    return table.setdefault("unknown", {"cards": [], "sizes": {}})


REFUSED_KINDS = (
    "duplicate card",
    "sizes off",
    "bad card",
    "leader not a player",
    "player count",
    "duplicate player",
    "player named skat",
    "points out of range",
    "points over 120",
    "unknown field",
    "unknown unknown-field",
    "wrong type",
    "size for a stranger",
    "hand for a stranger",
    "bad trump",
    "negative size",
    "unequal hands",
)
"""The rules :func:`refused_mutations` breaks, one at a time."""


@st.composite
def refused_mutations(
    draw, table: dict[str, Any], kind: str | None = None
) -> tuple[dict[str, Any], str]:
    """A mutation that breaks a rule of the spec (one of :data:`REFUSED_KINDS`, or ``kind``):
    the CLI must refuse it. Returns ``(table, what was done)``.
    """
    t = copy.deepcopy(table)
    players = t["players"]
    all_cards = [c for w in _locations(t) for c in _cards_at(t, w)]
    kind = kind or draw(st.sampled_from(REFUSED_KINDS))
    if kind == "duplicate card":
        if not all_cards:
            kind = "bad card"
        else:
            card = draw(st.sampled_from(all_cards))
            where = draw(st.sampled_from([*_locations(t), ("hands", players[0])]))
            if where[0] == "hands":
                t.setdefault("hands", {}).setdefault(where[1], [])
            _cards_at(t, where).append(Card.parse(card).suit + Card.parse(card).rank)
            return t, f"{kind}: {card} again in {where}"
    if kind == "sizes off":
        sizes = _ensure_unknown(t).setdefault("sizes", {})
        receiver = draw(st.sampled_from([*players, SKAT]))
        delta = draw(st.sampled_from([1, 2, 5, 10**6, 2**63, 10**30]))
        if sizes.get(receiver, 0) >= delta and draw(st.booleans()):
            delta = -delta
        sizes[receiver] = sizes.get(receiver, 0) + delta
        return t, f"{kind}: {receiver} {delta:+d}"
    if kind == "bad card":
        bad = draw(BAD_CARD)
        where = draw(st.sampled_from([*_locations(t), ("hands", players[-1])]))
        if where[0] == "hands":
            t.setdefault("hands", {}).setdefault(where[1], [])
        cards = _cards_at(t, where)
        if cards and draw(st.booleans()):
            cards[draw(st.integers(0, len(cards) - 1))] = bad
        else:
            cards.append(bad)
        return t, f"{kind}: {bad!r} in {where}"
    if kind == "leader not a player":
        t["leader"] = draw(st.one_of(st.text(max_size=5), st.just(SKAT)).filter(_stranger(t)))
        return t, f"{kind}: {t['leader']!r}"
    if kind == "player count":
        if draw(st.booleans()):
            t["players"] = players[:1]
        else:
            extra = draw(
                st.lists(
                    st.text(min_size=1, max_size=3).filter(_stranger(t)),
                    min_size=5 - len(players),
                    max_size=8 - len(players),
                    unique=True,
                )
            )
            t["players"] = players + extra
        return t, f"{kind}: {t['players']!r}"
    if kind == "duplicate player":
        t["players"] = [*players, draw(st.sampled_from(players))][-4:]
        if len(set(t["players"])) == len(t["players"]):  # the duplicate was cut off
            t["players"] = [players[0], players[0], *players[1:]][:4]
        return t, f"{kind}: {t['players']!r}"
    if kind == "player named skat":
        t["players"] = [*players[:-1], SKAT]
        return t, kind
    if kind == "points out of range":
        name = draw(st.sampled_from(["target", "declarer_points"]))
        t[name] = draw(st.one_of(st.integers(-(2**70), -1), st.integers(121, 2**70)))
        return t, f"{kind}: {name} = {t[name]}"
    if kind == "points over 120":
        in_play = sum(Card.parse(c).value for c in all_cards)
        if in_play == 0:  # nothing to exceed with: out of range instead
            t["declarer_points"] = 121
        else:
            t["declarer_points"] = draw(st.integers(121 - in_play, 120))
        return t, f"{kind}: {t['declarer_points']} + {in_play}"
    if kind == "unknown field":
        name = draw(st.text(min_size=1, max_size=8).filter(lambda s: s not in FIELDS and s != ""))
        t[name] = draw(ANY_VALUE)
        return t, f"{kind}: {name!r}"
    if kind == "unknown unknown-field":
        name = draw(st.text(min_size=1, max_size=8).filter(lambda s: s not in ("cards", "sizes")))
        _ensure_unknown(t)[name] = draw(ANY_VALUE)
        return t, f"{kind}: {name!r}"
    if kind == "wrong type":
        return _wrong_type(draw, t)
    if kind == "size for a stranger":
        name = draw(st.text(min_size=1, max_size=5).filter(_stranger(t, skat_ok=False)))
        _ensure_unknown(t).setdefault("sizes", {})[name] = draw(st.integers(0, 3))
        return t, f"{kind}: {name!r}"
    if kind == "hand for a stranger":
        name = draw(st.one_of(st.just(SKAT), st.text(min_size=1, max_size=5)).filter(_stranger(t)))
        t.setdefault("hands", {})[name] = draw(st.sampled_from([[], ["CA"], ["ZZ"]]))
        return t, f"{kind}: {name!r}"
    if kind == "bad trump":
        t["trump"] = draw(
            st.one_of(
                st.sampled_from(["nullo", "", "spade", "trumps", "clubs ", "NONE!"]),
                st.text(max_size=8),
            ).filter(lambda s: s.lower() not in TRUMPS)
        )
        return t, f"{kind}: {t['trump']!r}"
    if kind == "negative size":
        receiver = draw(st.sampled_from([*players, SKAT]))
        value = draw(st.integers(-(2**70), -1))
        _ensure_unknown(t).setdefault("sizes", {})[receiver] = value
        return t, f"{kind}: {receiver} = {value}"
    # unequal hands: one known card changes hands (sizes still add up, hand sizes differ)
    holders = [p for p, cards in t.get("hands", {}).items() if cards]
    if not holders:
        t["target"] = -1
        return t, "points out of range: target = -1 (no known card to move)"
    giver = draw(st.sampled_from(holders))
    taker = draw(st.sampled_from([p for p in players if p != giver]))
    card = t["hands"][giver].pop()
    t["hands"].setdefault(taker, []).append(card)
    return t, f"{kind}: {card} from {giver} to {taker}"


def _stranger(table: dict[str, Any], skat_ok: bool = True):
    """A filter: names that are not players (``skat`` only if ``skat_ok``)."""
    players = set(table["players"])
    return lambda name: name not in players and (skat_ok or name != SKAT)


def _wrong_type(draw, t: dict[str, Any]) -> tuple[dict[str, Any], str]:
    """A field given a value of a type it never takes."""
    not_int = ANY_VALUE.filter(lambda v: isinstance(v, bool) or not isinstance(v, int))
    not_list_of_names = ANY_VALUE.filter(
        lambda v: not (isinstance(v, list) and all(isinstance(x, str) and x for x in v))
    )
    field = draw(
        st.sampled_from(
            [
                "players",
                "winner_leads",
                "declarer_points",
                "target",
                "hands",
                "unknown",
                "sizes",
                "size value",
                "cards",
            ]
        )
    )
    if field == "players":
        t["players"] = draw(not_list_of_names)
    elif field == "winner_leads":
        t["winner_leads"] = draw(ANY_VALUE.filter(lambda v: not isinstance(v, bool)))
    elif field in ("declarer_points", "target"):
        t[field] = draw(not_int)
    elif field == "hands":
        t["hands"] = draw(ANY_VALUE.filter(lambda v: not isinstance(v, dict)))
    elif field == "unknown":
        t["unknown"] = draw(ANY_VALUE.filter(lambda v: not isinstance(v, dict)))
    elif field == "sizes":
        _ensure_unknown(t)["sizes"] = draw(ANY_VALUE.filter(lambda v: not isinstance(v, dict)))
    elif field == "size value":
        receiver = draw(st.sampled_from([*t["players"], SKAT]))
        _ensure_unknown(t).setdefault("sizes", {})[receiver] = draw(not_int)
    else:
        _ensure_unknown(t)["cards"] = draw(
            ANY_VALUE.filter(
                lambda v: not isinstance(v, list) or any(not isinstance(x, str) for x in v)
            ).filter(lambda v: v != [])
        )
    return t, f"wrong type: {field}"


@st.composite
def any_mutations(draw, table: dict[str, Any]) -> tuple[dict[str, Any], str]:
    """A mutation that may or may not leave the spec valid (``expect="any"``)."""
    t = copy.deepcopy(table)
    kind = draw(
        st.sampled_from(
            ["drop", "retype", "rename player", "shuffle sizes", "swap cards", "case", "twice"]
        )
    )
    if kind == "drop":
        paths = [(k,) for k in t] + [("unknown", k) for k in t.get("unknown", {})]
        paths += [("hands", p) for p in t.get("hands", {})]
        path = draw(st.sampled_from(paths))
        parent = t if len(path) == 1 else t[path[0]]
        del parent[path[-1]]
        return t, f"drop {'.'.join(map(str, path))}"
    if kind == "retype":
        name = draw(st.sampled_from(sorted(t)))
        t[name] = draw(ANY_VALUE)
        return t, f"retype {name} = {t[name]!r}"
    if kind == "rename player":
        old = draw(st.sampled_from(t["players"]))
        new = draw(st.text(min_size=1, max_size=6))
        t["players"] = [new if p == old else p for p in t["players"]]
        if t.get("leader") == old:
            t["leader"] = new
        if old in t.get("hands", {}):
            t["hands"][new] = t["hands"].pop(old)
        sizes = t.get("unknown", {}).get("sizes", {})
        if old in sizes:
            sizes[new] = sizes.pop(old)
        return t, f"rename {old!r} to {new!r}"
    if kind == "shuffle sizes":
        sizes = t.get("unknown", {}).get("sizes")
        if sizes:
            keys = list(sizes)
            values = draw(st.permutations(list(sizes.values())))
            t["unknown"]["sizes"] = dict(zip(keys, values, strict=True))
        return t, "shuffle sizes"
    if kind == "swap cards":
        # a known card and an unknown one trade places: still valid
        known = [(p, i) for p, cs in t.get("hands", {}).items() for i in range(len(cs))]
        unknown = t.get("unknown", {}).get("cards", [])
        if known and unknown:
            p, i = draw(st.sampled_from(known))
            j = draw(st.integers(0, len(unknown) - 1))
            t["hands"][p][i], unknown[j] = unknown[j], t["hands"][p][i]
        return t, "swap a known and an unknown card"
    if kind == "case":
        t = {k.upper() if draw(st.booleans()) else k: v for k, v in t.items()}
        return t, "field names upper-cased"
    # "twice": a card list repeated (a duplicate unless the list is empty)
    where = draw(st.sampled_from(_locations(t) or [("hands", t["players"][0])]))
    if where[0] == "hands":
        t.setdefault("hands", {}).setdefault(where[1], [])
    cards = _cards_at(t, where)
    cards.extend(list(cards))
    return t, f"card list {where} twice"


def text_mutation(text: str, data: st.DataObject) -> str | bytes:
    """A mutation of the spec's text: a line dropped or repeated, a cut, an insertion, a
    character replaced, or bytes that are not UTF-8."""
    kind = data.draw(
        st.sampled_from(["drop line", "repeat line", "cut", "insert", "replace", "bytes"]),
        label="text mutation",
    )
    lines = text.splitlines(keepends=True)
    if kind == "drop line":
        del lines[data.draw(st.integers(0, len(lines) - 1))]
        return "".join(lines)
    if kind == "repeat line":
        i = data.draw(st.integers(0, len(lines) - 1))
        lines.insert(i, lines[i])
        return "".join(lines)
    if kind == "cut":
        return text[: data.draw(st.integers(0, len(text)))]
    if kind == "insert":
        i = data.draw(st.integers(0, len(text)))
        piece = data.draw(
            st.one_of(st.text(max_size=6), st.sampled_from(["[", "]", '"', "=", "\n[hands]\n"]))
        )
        return text[:i] + piece + text[i:]
    if kind == "replace":
        i = data.draw(st.integers(0, max(0, len(text) - 1)))
        return text[:i] + data.draw(st.characters()) + text[i + 1 :]
    raw = text.encode("utf-8")
    i = data.draw(st.integers(0, len(raw)))
    return (
        raw[:i] + data.draw(st.sampled_from([b"\xff", b"\xc3", b"\x00", b"\xed\xa0\x80"])) + raw[i:]
    )
