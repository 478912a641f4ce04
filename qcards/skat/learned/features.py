"""The features of the ``learned`` play model: one fixed-length vector per legal card of a
seat's view (:func:`card_features`, the names in :data:`FEATURE_NAMES`).

Every feature depends only on what the seat sees
(:class:`~qcards.skat.position.seat_view.SeatView`): the card's effective suit and its order among
the live cards, never its printed rank or suit. So, as for the ``softmax`` model's features,
renaming a card that no live card separates from another (of the same points outside null) changes
nothing, and the equivalent-card pruning of
:mod:`qcards.analysis.decisions` stays exact for this policy. Card points are 0 in null games,
where they do not count.

Version 2 adds what the view's record of the finished tricks
(:attr:`~qcards.skat.position.seat_view.SeatView.tricks`: who played which card) tells: the suits
each other seat has shown it lacks and the points each side has taken. A view that records no
tricks (an engine that started mid-game, or a position written without them) reads as a
game with nothing shown. What the view still lacks: the Skat the declarer put away (the
declarer's view counts it as unseen), and the tricks of an endgame spec before its start.

Bump :data:`FEATURE_VERSION` whenever a feature changes: a model file records the version it
was trained on (:data:`FEATURE_NAMES_BY_VERSION` gives each version's names, the first columns
of the latest's) and is refused under any other (:mod:`qcards.skat.learned.network`).
"""

from __future__ import annotations

import numpy as np

from qcards.skat.position.seat_view import SeatView
from qcards.skat.rules.cards import TRUMP, Card
from qcards.skat.rules.turns import seat_to_move

FEATURE_VERSION = 2

FEATURE_NAMES_V1 = (
    # the card
    "points",  # its points / 11 (0 in null)
    "strength",  # its rank among the live cards of its effective suit, 0 (lowest) to 1
    "strength_in_hand",  # its rank among the hand's cards of its effective suit, 0 to 1
    "trump",
    "top",  # no unseen card beats it in its suit
    "wins_now",  # it takes the trick from the current winner (leading: 1)
    "follows",  # it follows the led suit
    "ruffs",  # a trump on a plain suit led
    "sluffs",  # neither following nor a trump, on a card led
    "suit_in_hand",  # the hand's cards of its effective suit / 10
    "suit_unseen",  # the unseen cards of its effective suit / 11
    "suit_played",  # the finished tricks' cards of its effective suit / 11
    "friend_winning_points",  # its points when the mover's side wins the trick so far
    # the trick
    "leads",
    "second",
    "third",
    "table_points",  # the points of the trick so far / 30 (0 in null)
    "friend_winning",
    "foe_winning",
    "foe_after",  # a seat of the other side plays after the mover in this trick
    # the seat and the game
    "declarer",
    "suit_game",
    "grand",
    "null",
    "hand_size",  # / 10
    "trumps_in_hand",  # / 11
    "trumps_unseen",  # / 11
    "tricks_played",  # / 10
    "points_played",  # the finished tricks' points / 120 (0 in null)
)

FEATURE_NAMES = (
    *FEATURE_NAMES_V1,
    # what the finished tricks and the open one show (version 2)
    "foes_void",  # the share of the other side's seats shown void in the card's suit
    "friend_void",  # the mover's partner is shown void in the card's suit (defenders only)
    "foe_after_void",  # a seat of the other side still to play this trick is void in it
    "foes_void_trump",  # the share of the other side's seats shown void in trump
    "friend_void_trump",
    "own_points",  # the points the mover's side took in the recorded tricks / 120 (0 in null)
    "foe_points",  # the other side's / 120 (0 in null)
    "declarer_tricks",  # the tricks the declarer took in the recorded tricks / 10
)
"""The features, in the order of :func:`card_features`' columns."""

FEATURE_NAMES_BY_VERSION = {1: FEATURE_NAMES_V1, 2: FEATURE_NAMES}
"""Each feature version's names: a model of an earlier version reads the first columns."""

NUM_FEATURES = len(FEATURE_NAMES)
_INDEX = {name: i for i, name in enumerate(FEATURE_NAMES)}


def card_features(
    view: SeatView, legal: tuple[Card, ...] | None = None, version: int = FEATURE_VERSION
) -> np.ndarray:
    """The features of each of ``legal`` (default: the view's legal cards) for the mover:
    an array of shape ``(len(legal), features)``, float64, columns as the names of
    ``version`` in :data:`FEATURE_NAMES_BY_VERSION`."""
    names = FEATURE_NAMES_BY_VERSION[version]
    legal = view.legal if legal is None else legal
    return _features(view, legal, history=version >= 2)[:, : len(names)]


def _features(view: SeatView, legal: tuple[Card, ...], history: bool) -> np.ndarray:
    """The columns of :data:`FEATURE_NAMES` for the cards ``legal``; those of version 2 (read
    from the finished tricks) only with ``history``, zero otherwise."""
    rules = view.rules
    null = rules.trump.is_null
    suit_of = rules.effective_suit
    strength = rules.strength
    live: dict[str, list[int]] = {}
    mine: dict[str, list[int]] = {}
    unseen: dict[str, int] = {}
    played: dict[str, int] = {}
    for c in view.hand:
        live.setdefault(suit_of(c), []).append(strength(c))
        mine.setdefault(suit_of(c), []).append(strength(c))
    best_unseen: dict[str, int] = {}  # the strongest unseen card of each effective suit
    for c in view.out:
        suit, s = suit_of(c), strength(c)
        live.setdefault(suit, []).append(s)
        unseen[suit] = unseen.get(suit, 0) + 1
        best_unseen[suit] = max(best_unseen.get(suit, s), s)
    for c in view.played:
        played[suit_of(c)] = played.get(suit_of(c), 0) + 1
    won = view.winning()
    friend_winning = won is not None and view.friend(won[0])
    position = len(view.trick)
    # the seats still to play this trick after the mover
    after = [seat_to_move(view.seat, k, view.players) for k in range(1, view.players - position)]
    led = suit_of(view.trick[0]) if view.trick else None
    worth = 0.0 if null else 1.0

    common = np.zeros(NUM_FEATURES)
    common[_INDEX[("leads", "second", "third")[min(position, 2)]]] = 1.0
    common[_INDEX["table_points"]] = worth * sum(c.value for c in view.trick) / 30
    common[_INDEX["friend_winning"]] = float(friend_winning)
    common[_INDEX["foe_winning"]] = float(won is not None and not friend_winning)
    common[_INDEX["foe_after"]] = float(any(not view.friend(s) for s in after))
    common[_INDEX["declarer"]] = float(view.declarer)
    grand = rules.trump.value == "grand"
    common[_INDEX["suit_game"]] = float(not null and not grand)
    common[_INDEX["grand"]] = float(grand)
    common[_INDEX["null"]] = float(null)
    common[_INDEX["hand_size"]] = len(view.hand) / 10
    common[_INDEX["trumps_in_hand"]] = len(mine.get(TRUMP, ())) / 11
    common[_INDEX["trumps_unseen"]] = unseen.get(TRUMP, 0) / 11
    common[_INDEX["tricks_played"]] = len(view.played) / view.players / 10
    common[_INDEX["points_played"]] = worth * sum(c.value for c in view.played) / 120

    out = np.tile(common, (len(legal), 1))
    for row, card in zip(out, legal, strict=True):
        suit, s = suit_of(card), strength(card)
        same, held = live[suit], mine[suit]
        row[_INDEX["points"]] = worth * card.value / 11
        row[_INDEX["strength"]] = _rank(s, same)
        row[_INDEX["strength_in_hand"]] = _rank(s, held)
        row[_INDEX["trump"]] = float(rules.is_trump(card))
        row[_INDEX["top"]] = float(s > best_unseen.get(suit, -1))  # SeatView.top, from the table
        row[_INDEX["wins_now"]] = float(view.wins_now(card))
        if led is not None:
            row[_INDEX["follows"]] = float(suit == led)
            row[_INDEX["ruffs"]] = float(suit == TRUMP and led != TRUMP)
            row[_INDEX["sluffs"]] = float(suit != led and suit != TRUMP)
        row[_INDEX["suit_in_hand"]] = len(held) / 10
        row[_INDEX["suit_unseen"]] = unseen.get(suit, 0) / 11
        row[_INDEX["suit_played"]] = played.get(suit, 0) / 11
        row[_INDEX["friend_winning_points"]] = worth * card.value / 11 if friend_winning else 0.0
    if history:
        _history_columns(view, legal, out, after, worth)
    return out


def _history_columns(
    view: SeatView, legal: tuple[Card, ...], out: np.ndarray, after: list[int], worth: float
) -> None:
    """Fill version 2's columns of ``out`` (a row per card of ``legal``) from the finished
    tricks: the voids shown (``after``: the seats still to play this trick), the points each
    side took (``worth`` 0 in null) and the declarer's tricks."""
    voids = view.voids()
    foes = [s for s in range(view.players) if not view.friend(s)]
    friends = [s for s in range(view.players) if s != view.seat and view.friend(s)]
    foes_after = [s for s in after if not view.friend(s)]

    def share(seats, suit: str) -> float:
        return sum((s, suit) in voids for s in seats) / len(seats) if seats else 0.0

    own, other = view.taken()
    out[:, _INDEX["foes_void_trump"]] = share(foes, TRUMP)
    out[:, _INDEX["friend_void_trump"]] = share(friends, TRUMP)
    out[:, _INDEX["own_points"]] = worth * own / 120
    out[:, _INDEX["foe_points"]] = worth * other / 120
    out[:, _INDEX["declarer_tricks"]] = view.winners.count(0) / 10
    for row, card in zip(out, legal, strict=True):
        suit = view.rules.effective_suit(card)
        row[_INDEX["foes_void"]] = share(foes, suit)
        row[_INDEX["friend_void"]] = share(friends, suit)
        row[_INDEX["foe_after_void"]] = float(share(foes_after, suit) > 0)


def _rank(value: int, values: list[int]) -> float:
    """The place of ``value`` among ``values`` (which hold it), 0 the lowest to 1 the highest."""
    if len(values) < 2:
        return 1.0
    return sum(v < value for v in values) / (len(values) - 1)
