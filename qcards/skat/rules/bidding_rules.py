"""A rule-of-thumb bidder for matches: which game a ten-card hand would play, how high it bids,
the auction, and the game and discard after picking up the Skat.

Why rules and not :func:`qcards.analysis.decisions.bid`: a match plays thousands of games, and
the expected-score decision costs seconds (random play) to minutes (PIMC) a hand; a match
compares card play, so every player bids and declares by the same rules below and only the play
differs (:mod:`qcards.analysis.match`). The rules follow the usual club advice:

* a suit game is playable with at least five trumps (jacks included), or four with two jacks
  among them, and at least six trumps and side aces together;
* a grand with three jacks and two aces, all four jacks and an ace, or two jacks with seven
  jacks, aces and tens guarded by their ace together;
* a null game when no suit or grand is playable and every card is a nine or lower, or a suit's
  seven guards it (at most one card above the nine, which the seven sits under);
* the hand plays a playable grand, else its strongest playable suit (the most trumps and side
  aces; the higher base value on a tie), and bids up to that game's value (matadors counted
  on its ten cards: the Skat is unseen); with none playable it passes.

The auction (ISkO 3.2): middlehand bids to forehand, the higher limit wins, forehand on a tie;
then rearhand to the winner, who holds on a tie. The declarer's bid is the lowest bid value above
the runner-up's limit (18 when the others passed). Everyone passing ends the deal unplayed.
After the pick-up the declarer puts away two cards for each game (side cards that are not aces,
short suits first and, within them, the most points) and declares, among the games whose value
reaches the bid, the one it would have chosen before (a grand, else the strongest suit); when
none reaching the bid is playable, the strongest game that reaches it (overbidding is the
last resort).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from qcards.skat.rules.cards import Card, Trump, rules_of
from qcards.skat.rules.scoring import BASE_VALUES, BID_VALUES, NULL_VALUES, matadors

SUIT_GAMES = ("clubs", "spades", "hearts", "diamonds")


@dataclass(frozen=True)
class Plan:
    """A hand's game and the value it bids up to."""

    game: str
    value: int


def _is_jack(card: Card) -> bool:
    return card.rank == "J"


def _trumps(cards: Sequence[Card], game: str) -> list[Card]:
    rules = rules_of(Trump(game))
    return [c for c in cards if rules.is_trump(c)]


def _side_aces(cards: Sequence[Card], game: str) -> int:
    rules = rules_of(Trump(game))
    return sum(1 for c in cards if c.rank == "A" and not rules.is_trump(c))


def suit_playable(cards: Sequence[Card], game: str) -> bool:
    trumps = _trumps(cards, game)
    jacks = sum(map(_is_jack, trumps))
    strength = len(trumps) + _side_aces(cards, game)
    return strength >= 6 and (len(trumps) >= 5 or (len(trumps) >= 4 and jacks >= 2))


def grand_playable(cards: Sequence[Card]) -> bool:
    jacks = sum(map(_is_jack, cards))
    aces = [c.suit for c in cards if c.rank == "A"]
    guarded_tens = sum(1 for c in cards if c.rank == "10" and c.suit in aces)
    return (
        (jacks >= 3 and len(aces) >= 2)
        or (jacks == 4 and len(aces) >= 1)
        or (jacks >= 2 and jacks + len(aces) + guarded_tens >= 7)
    )


NULL_LOW = ("7", "8", "9")


def null_playable(cards: Sequence[Card]) -> bool:
    by_suit: dict[str, list[str]] = {}
    for c in cards:
        by_suit.setdefault(c.suit, []).append(c.rank)
    for ranks in by_suit.values():
        high = [r for r in ranks if r not in NULL_LOW]
        if len(high) > 1 or (high and "7" not in ranks):
            return False
    return True


def game_value(cards: Sequence[Card], game: str) -> int:
    """The value of a suit game or grand on these cards, matadors counted on them."""
    return BASE_VALUES[game] * (abs(matadors(cards, game)) + 1)


def strength(cards: Sequence[Card], game: str) -> int:
    """Trumps and side aces: what the rules rank suit games by."""
    return len(_trumps(cards, game)) + _side_aces(cards, game)


def plans(cards: Sequence[Card]) -> list[Plan]:
    """Every playable game of the hand with its value, the one it plays first: a grand, then
    the strongest suit (:func:`strength`; the higher base value on a tie), null last."""
    suits = sorted(
        (g for g in SUIT_GAMES if suit_playable(cards, g)),
        key=lambda g: (-strength(cards, g), -BASE_VALUES[g]),
    )
    out = [Plan(g, game_value(cards, g)) for g in suits]
    if grand_playable(cards):
        out.insert(0, Plan("grand", game_value(cards, "grand")))
    if not out and null_playable(cards):
        out.append(Plan("null", NULL_VALUES[(False, False)]))
    return out


def limit(cards: Sequence[Card]) -> Plan | None:
    """The game a ten-card hand bids with and the highest bid it makes (``None``: pass)."""
    found = plans(cards)
    if not found or found[0].value < BID_VALUES[0]:
        return None
    return found[0]


def auction(limits: Sequence[Plan | None]) -> tuple[int, int] | None:
    """The declarer's seat (0 forehand, 1 middlehand, 2 rearhand) and its bid, or ``None``
    when everyone passes."""

    def value(seat: int) -> int:
        limit = limits[seat]
        return limit.value if limit is not None else 0

    first = 0 if value(0) >= value(1) else 1  # middlehand bids to forehand, who holds on a tie
    winner = 2 if value(2) > value(first) else first  # rearhand to the winner
    if value(winner) == 0:
        return None
    runner_up = max(value(s) for s in range(3) if s != winner)
    bid = next((b for b in BID_VALUES if b > runner_up), BID_VALUES[0])
    return winner, min(bid, value(winner)) if runner_up else BID_VALUES[0]


def declare(twelve: Sequence[Card], bid: int) -> tuple[str, tuple[Card, ...]]:
    """After the pick-up: the game and the two cards put away."""
    options = []
    for game in (*SUIT_GAMES, "grand", "null"):
        discard = put_away(twelve, game)
        kept = [c for c in twelve if c not in discard]
        if game == "null":
            playable, value, rank = null_playable(kept), NULL_VALUES[(False, False)], -1
        else:
            playable = grand_playable(kept) if game == "grand" else suit_playable(kept, game)
            value = game_value(twelve, game)  # matadors count the Skat's cards too
            rank = 99 if game == "grand" and playable else strength(kept, game)
        options.append(((value >= bid, playable, rank, BASE_VALUES.get(game, 0)), game, discard))
    _key, game, discard = max(options, key=lambda o: o[0])
    return game, discard


def put_away(twelve: Sequence[Card], game: str) -> tuple[Card, ...]:
    """The two cards put away for ``game``: in null the two highest; else side cards other
    than aces, from the shortest suits first, the most points first (a bare ten is safe in
    the Skat); trumps only when nothing else is left, the lowest."""
    if game == "null":
        rules = rules_of(Trump.NULL)
        return tuple(sorted(twelve, key=lambda c: -rules.strength(c))[:2])
    rules = rules_of(Trump(game))
    side = [c for c in twelve if not rules.is_trump(c)]
    length = {s: sum(1 for c in side if c.suit == s) for s in {c.suit for c in side}}
    choices = sorted(
        (c for c in side if c.rank != "A"), key=lambda c: (length[c.suit], -c.value, c.rank)
    )
    if len(choices) < 2:
        choices += sorted((c for c in twelve if c not in choices and c.rank != "J"),
                          key=lambda c: (not rules.is_trump(c), c.value))  # fmt: skip
        choices += sorted((c for c in twelve if c not in choices), key=rules.strength)
    return tuple(choices[:2])
