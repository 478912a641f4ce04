"""The hand evaluator: a network's estimate of how a declared game ends, from the declarer's
cards alone, and the expected score of every game, discard, Hand or pick-up and bid built on it.

The network (:mod:`qcards.skat.learned.network`, kind :data:`HAND`) reads a declarer's game
(suit, grand or null), the ten cards it plays with, the two cards out of play that count for it
(the discard after a pick-up, the Skat in a Hand game) and its seat (forehand leads the first
trick), and gives the probabilities of the six outcomes of :data:`OUTCOMES` (the declarer's card
points and tricks in classes: lost Schwarz, lost Schneider, lost, won, won Schneider, won
Schwarz; a null game is won or lost). The cards are encoded relative to the game
(:func:`slot_order`): trumps from the clubs jack down, then the side suits longest first, so
the four suit games share one network and a hand's suits are interchangeable where the rules
make them so.

From the outcome probabilities, :func:`utilities` gives the score each outcome is worth at a
bid (ISkO 4-5 through :func:`~qcards.skat.rules.scoring.settle`, overbidding included), in
Seeger-Fabian points relative to a defender: the declarer's points minus the 40 a defender gets
when it loses (the difference between two players, which a duplicate match compares).
:class:`HandEvaluator` maximises the expected score: after a pick-up over every game and every
discard of the twelve cards; before it, averaged over :data:`SKATS` sampled Skats (the unseen
cards), for bidding (:meth:`HandEvaluator.limit`: the highest bid whose expected score is
positive) and for the choice between a Hand game and a pick-up (:meth:`HandEvaluator.declare`).

The network is trained on games played out by a card player (``qcards train-bidder``,
:mod:`qcards.analysis.train_bidder`, with ``heuristic`` play in every seat), so its estimates
are the outcomes under that play; a Hand game is valued as the pick-up game with the Skat
kept, which it is, except that the declarer plays without knowing the Skat's two cards.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from functools import cache, lru_cache
from pathlib import Path

import numpy as np

from qcards.skat.learned.network import Network, NetworkKind, load_network
from qcards.skat.learned.network import model_file as network_file
from qcards.skat.rules.bidding_rules import SUIT_GAMES, Plan
from qcards.skat.rules.cards import FULL_DECK, SUITS, Card, Trump
from qcards.skat.rules.scoring import (
    BID_VALUES,
    DEFENDER_BONUS,
    Declaration,
    matadors,
    settle,
)

OUTCOMES = ("lost schwarz", "lost schneider", "lost", "won", "won schneider", "won schwarz")
"""The outcome classes of a suit or grand game by the declarer's card points P (the discard
or Skat included) and tricks T: T = 0, P <= 30, P <= 60, P <= 89, P >= 90 with T < 10, T = 10.
A null game is ``won`` (no trick) or ``lost``."""

OUTCOME_PLAY = ((0, 0), (20, 2), (45, 4), (75, 6), (100, 8), (120, 10))
"""A (points, tricks) of each outcome class, which :func:`settle` scores as the class's every
member (a null game's outcome is scored by its tricks: 0 in ``won`` and above, else 1)."""

WON = OUTCOMES.index("won")
GAMES = (*SUIT_GAMES, "grand", "null")
KINDS = ("suit", "grand", "null")
SEATS = ("forehand", "middlehand", "rearhand")
SLOTS = 32

HAND_FORMAT = "qcards-hand-value"
HAND_FEATURE_VERSION = 1
FEATURE_NAMES = (
    *(f"kept_{i}" for i in range(SLOTS)),
    *(f"away_{i}" for i in range(SLOTS)),
    *(f"kind_{k}" for k in KINDS),
    *(f"seat_{s}" for s in SEATS),
)
HAND = NetworkKind(HAND_FORMAT, HAND_FEATURE_VERSION, FEATURE_NAMES, len(OUTCOMES),
                   "qcards train-bidder")  # fmt: skip
"""The hand evaluator's model files."""

ENVIRONMENT = "QCARDS_HAND_MODEL"
"""The environment variable naming the hand evaluator's model file."""
SHIPPED = Path(__file__).with_name("hand_model.npz")

SKATS = 16
"""The Skats sampled from the unseen cards when a ten-card hand is valued (bidding, and Hand
or pick-up)."""

_SIDE_RANKS = ("A", "10", "K", "Q", "9", "8", "7")  # a suit's order without its jack
_NULL_RANKS = ("A", "K", "Q", "J", "10", "9", "8", "7")
_INDEX = {c: i for i, c in enumerate(FULL_DECK)}


def kind(game: str) -> str:
    """The network's kind of ``game``: ``suit``, ``grand`` or ``null``."""
    return game if game in ("grand", "null") else "suit"


def outcome_class(game: str, points: int, tricks: int) -> int:
    """The class of :data:`OUTCOMES` of a finished game with the declarer's ``points`` (the
    discard or Skat included) and ``tricks``."""
    if game == "null":
        return WON if tricks == 0 else WON - 1
    if tricks == 0:
        return 0
    if tricks == 10:
        return 5
    return 1 if points <= 30 else 2 if points <= 60 else 3 if points <= 89 else 4


@cache
def _slots(game: str, side_order: tuple[str, ...]) -> np.ndarray:
    """The slot of each card of :data:`FULL_DECK` (by its index) when the side suits (every
    suit in null) come in ``side_order``."""
    if game == "null":
        order = [Card(s, r) for s in side_order for r in _NULL_RANKS]
    else:
        order = [Card(s, "J") for s in SUITS]
        if game != "grand":
            order += [Card(str(Trump(game).suit), r) for r in _SIDE_RANKS]
        order += [Card(s, r) for s in side_order for r in _SIDE_RANKS]
    slots = np.empty(SLOTS, dtype=np.int64)
    for slot, card in enumerate(order):
        slots[_INDEX[card]] = slot
    return slots


def _side_order(game: str, kept, away=()) -> tuple[str, ...]:
    """The side suits (every suit in null; a jack belongs to no side suit outside null), the
    most cards of ``kept`` first, ties broken by the cards held and then by those of ``away``
    (the highest first), so that suits of the same cards in other colours come in an order
    that makes their encodings equal."""
    ranks = _NULL_RANKS if game == "null" else _SIDE_RANKS
    side = [s for s in SUITS if game == "null" or s != Trump(game).suit]
    held: dict[str, list[int]] = {s: [] for s in side}
    out: dict[str, list[int]] = {s: [] for s in side}
    for cards, into in ((kept, held), (away, out)):
        for c in cards:
            if c.suit in into and c.rank in ranks:
                into[c.suit].append(ranks.index(c.rank))
    return tuple(sorted(side, key=lambda s: (-len(held[s]), sorted(held[s]), sorted(out[s]))))


def slot_order(game: str, kept, away=()) -> list[Card]:
    """The 32 cards in the network's order for ``game`` with the cards ``kept``: in a suit
    game the four jacks and the trump suit's seven, then the side suits (most cards held
    first) from the ace down; in a grand the jacks, then the four suits; in null the four
    suits from the ace down (jacks in their suit)."""
    slots = _slots(game, _side_order(game, kept, away))
    order: list[Card] = [FULL_DECK[0]] * SLOTS
    for index, slot in enumerate(slots):
        order[slot] = FULL_DECK[index]
    return order


def features(rows) -> np.ndarray:
    """The network's inputs (rows, :data:`FEATURE_NAMES`) of ``rows``, each ``(game, kept,
    away, seat)``: the game's name, the ten cards played, the two out of play that count for
    the declarer, its seat (0 forehand)."""
    x = np.zeros((len(rows), len(FEATURE_NAMES)))
    for i, (game, kept, away, seat) in enumerate(rows):
        slots = _slots(game, _side_order(game, kept, away))
        x[i, slots[[_INDEX[c] for c in kept]]] = 1.0
        x[i, SLOTS + slots[[_INDEX[c] for c in away]]] = 1.0
        x[i, 2 * SLOTS + KINDS.index(kind(game))] = 1.0
        x[i, 2 * SLOTS + len(KINDS) + seat] = 1.0
    return x


@cache
def utilities(game: str, matadors: int, hand: bool, bid: int) -> np.ndarray:
    """The score of each outcome class of ``game`` declared at ``bid`` (Hand or not) with
    ``matadors``: the declarer's Seeger-Fabian points minus a defender's (the
    :data:`~qcards.skat.rules.scoring.DEFENDER_BONUS` when it loses, else 0), the difference between
    two players that a match's comparison counts."""
    declaration = Declaration.make(game, hand, (), bid)
    out = np.empty(len(OUTCOMES))
    for c, (points, tricks) in enumerate(OUTCOME_PLAY):
        if game == "null":
            tricks = 0 if c >= WON else 1
        s = settle(declaration, matadors, points, tricks)
        out[c] = s.declarer_seeger_fabian - (0 if s.won else DEFENDER_BONUS[3])
    return out


@cache
def _table(game: str, matadors: int, hand: bool, bids: tuple[int, ...]) -> np.ndarray:
    """:func:`utilities` at each bid of ``bids``: shape (bids, outcomes)."""
    return np.stack([utilities(game, matadors, hand, bid) for bid in bids])


@lru_cache(maxsize=1024)
def _limit(evaluator: HandEvaluator, hand, seat: int, _file: Path) -> Plan | None:
    """:meth:`HandEvaluator.limit`, cached by the hand, the seat and the model file."""
    return evaluator._limit(hand, seat)


def model_file(path: str | Path | None = None) -> Path:
    """The hand evaluator's model file: ``path``, else the one :data:`ENVIRONMENT` names,
    else :data:`SHIPPED`."""
    return network_file(path, ENVIRONMENT, SHIPPED)


@cache
def _network(path: Path) -> Network:
    return load_network(path, HAND)


def probabilities(net: Network, x: np.ndarray) -> np.ndarray:
    """The outcome probabilities (rows, :data:`OUTCOMES`) of the inputs ``x``: the softmax of
    the network's outputs."""
    z = net.outputs(x)
    e = np.exp(z - z.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


@dataclass(frozen=True)
class Choice:
    """A declarer's choice and its expected score (:func:`utilities`): the game, Hand or not,
    and the two cards out of play (the discard; the Skat in a Hand game, unseen at the
    choice)."""

    game: str
    hand: bool
    away: tuple[Card, ...]
    score: float


@dataclass(frozen=True)
class HandEvaluator:
    """qcards' own bidding and declaring from the hand evaluator's network (``path``: the
    model file, default :func:`model_file`; read at the first use), valuing a ten-card hand on
    ``skats`` sampled Skats. Holds only the path and the count, so it pickles.

    Raises:
        ModelError: at a use, the model file is bad.
    """

    path: str | None = None
    skats: int = SKATS

    @property
    def network(self) -> Network:
        return _network(model_file(self.path).resolve())

    def best_pick_up(self, twelve, bid: int, seat: int) -> Choice:
        """The best game and discard after picking up (``twelve``: the hand and the Skat) at
        ``bid``."""
        return self._pick_ups([tuple(twelve)], seat, (bid,))[0][0]

    def _pick_ups(self, twelves, seat: int, bids: tuple[int, ...]) -> list[list[Choice]]:
        """For each twelve cards, the best pick-up choice at each bid of ``bids``."""
        pairs = [list(itertools.combinations(twelve, 2)) for twelve in twelves]
        rows = [(game, tuple(c for c in twelve if c not in away), away, seat)
                for twelve, aways in zip(twelves, pairs, strict=True)
                for game in GAMES for away in aways]  # fmt: skip
        p = probabilities(self.network, features(rows))
        p = p.reshape(len(twelves), len(GAMES), len(pairs[0]), len(OUTCOMES))
        out = []
        for t, twelve in enumerate(twelves):
            table = np.stack([_table(g, matadors(twelve, g), False, bids) for g in GAMES])
            scores = np.einsum("gdc,gbc->bgd", p[t], table).reshape(len(bids), -1)
            best = scores.argmax(axis=1)
            out.append([
                Choice(GAMES[k // len(pairs[t])], False, pairs[t][k % len(pairs[t])],
                       float(scores[b, k]))
                for b, k in enumerate(best)
            ])  # fmt: skip
        return out

    def _skats(self, hand, seat: int) -> list[tuple[Card, Card]]:
        """The Skats the hand is valued on: drawn from the unseen cards, seeded by the hand and
        seat (the same hand is valued the same way every time)."""
        unseen = [c for c in FULL_DECK if c not in set(hand)]
        seed = [seat, *sorted(_INDEX[c] for c in hand)]
        rng = np.random.default_rng(seed)
        pairs = list(itertools.combinations(unseen, 2))
        picks = rng.choice(len(pairs), size=min(self.skats, len(pairs)), replace=False)
        return [pairs[int(i)] for i in sorted(picks)]

    def values(self, hand, seat: int, bids=BID_VALUES) -> tuple[list[Choice], list[Choice]]:
        """The ten-card ``hand``'s best pick-up and best Hand choice at each bid of ``bids``,
        their expected scores averaged over the sampled Skats (a pick-up chooses its game and
        discard after seeing the Skat; a Hand game is chosen before; the pick-up's ``away`` is
        that of the first sampled Skat, for show)."""
        hand, bids = tuple(hand), tuple(bids)
        skats = self._skats(hand, seat)
        picked = self._pick_ups([hand + s for s in skats], seat, bids)
        rows = [(game, hand, s, seat) for s in skats for game in GAMES]
        p = probabilities(self.network, features(rows)).reshape(len(skats), len(GAMES), -1)
        table = np.stack(
            [np.stack([_table(g, matadors(hand + s, g), True, bids) for g in GAMES]) for s in skats]
        )  # fmt: skip  (skats, games, bids, outcomes)
        hand_scores = np.einsum("kgc,kgbc->bg", p, table) / len(skats)
        pick_ups, hands = [], []
        for b in range(len(bids)):
            mean = float(np.mean([row[b].score for row in picked]))
            pick_ups.append(Choice(picked[0][b].game, False, picked[0][b].away, mean))
            g = int(np.argmax(hand_scores[b]))
            hands.append(Choice(GAMES[g], True, (), float(hand_scores[b, g])))
        return pick_ups, hands

    def limit(self, hand, seat: int) -> Plan | None:
        """The game the ten-card ``hand`` at ``seat`` bids with and the highest bid whose
        expected score (the better of a pick-up and a Hand game) is positive (``None``:
        pass). Remembered for the last hands asked (a match asks for each deal's hands in
        each of its three rotations)."""
        return _limit(self, tuple(hand), seat, model_file(self.path).resolve())

    def _limit(self, hand, seat: int) -> Plan | None:
        pick_ups, hands = self.values(hand, seat)
        best = None
        for bid, p, h in zip(BID_VALUES, pick_ups, hands, strict=True):
            choice = max(p, h, key=lambda c: c.score)
            if choice.score > 0:
                best = Plan(choice.game, bid)
        return best

    def declare(self, hand, skat, bid: int, seat: int) -> Choice:
        """The declarer's choice at ``bid``: a Hand game when its expected score (over sampled
        Skats) beats picking up, else the best game and discard of the ten cards and the real
        ``skat``."""
        pick_ups, hands = self.values(hand, seat, (bid,))
        if hands[0].score > pick_ups[0].score:
            return Choice(hands[0].game, True, tuple(skat), hands[0].score)
        return self.best_pick_up((*hand, *skat), bid, seat)
