"""Exact double-dummy (perfect-information minimax) solver for Skat deals.

The referee's ``adversarial`` model (:func:`qcards.skat.referee.evaluate`) plays every deal open:
the declarer (seat 0) maximises, the defenders (every other seat) minimise, once for the win and
once for the declarer's card points. The referee enumerates every play path, which is
exponential; this module computes the same two numbers for one deal with alpha-beta search and
is fast enough for a full game (ten cards a hand, 30 cards played).

Semantics, equal to the referee's:

* Points: the declarer's final card points (``declarer_points``, the Skat and the tricks it
  takes) under minimax on points.
* Win, suit/grand/no-trump games: ``declarer_wins(points)`` is monotone (non-decreasing) in the
  points, and a monotone function commutes with max and min, so the minimax of the win equals
  the win of the minimax points; no second search is needed.
* Win, null games: a separate search on the boolean "the declarer takes a trick" (the declarer
  avoids, the defenders force); a null game with ``declarer_tricks >= 1`` is already lost.

Design (measured on full deals: three players, ten cards each, two in the Skat):

* Cards are bits of a 32-bit mask (their index in :data:`~qcards.skat.cards.FULL_DECK`);
  a deal is one mask per seat, a position the mask of the cards still in hand, the leader and
  the current trick. The rules come only from :class:`~qcards.skat.cards.Rules`: the tables of
  :func:`_rule_tables` (effective suit, strength, card points, the "power" of a card against
  each led suit that decides tricks) are built from ``Rules.effective_suit`` and
  ``Rules.strength`` once per kind of game, and the tests check them against
  ``Rules.trick_winner`` on every three-card trick and ``Rules.legal_cards`` on random hands.
* Fail-soft alpha-beta on the declarer's *future* points: the value of a subgame does not
  depend on the points already taken, so the transposition table holds lower and upper bounds
  of future points, keyed at trick boundaries on (cards still in hand, leader). Since the deal
  is fixed, the cards in hand determine every hand. The table is open addressing in numpy
  arrays (key, lower, upper, best card); a key carries a generation number, so a new deal
  needs no clearing, and solving positions of the same deal (a principal variation) reuses it.
* Equivalent cards: cards of one effective suit in one hand with equal card points and no
  still-unplayed card between them (in a hand or in the current trick; the Skat's and played
  cards do not separate) are one move. The null search on tricks ignores card points there.
* Move ordering: the table's best card first; leads of a card that tops its suit (points
  first), else low cards; followers take a trick with the cheapest taker that brings points,
  add points to a partner's trick, else discard low (:func:`_ordered_moves`). Measured on 50
  full deals per kind of game, this order needs 0.6 (suit, null) to 0.8 (grand) times the
  mean nodes of "strongest card first" leads and takers.
* One full-window search. MTD(f) (null-window probes reusing the table, first guess 30 or
  half the points) was measured on the same 150 deals: 0-20 % fewer nodes on average but not
  consistently (a grand deal needed 2.2 s instead of 1.2 s), and no faster in time, so it is
  not used; the full window also makes the root's best card exact (the principal variation).
* Compiled with numba (``@njit(cache=True)``): about 10^7 nodes a second. The searches are
  iterative with an explicit stack, because numba's on-disk cache breaks recursive functions.
  Without numba the same functions run as Python (:data:`HAVE_NUMBA` is then false), about 150
  times slower (6*10^4 nodes a second): a full deal then takes seconds to minutes.

Measured (two shared cores; a full deal: three players, ten cards each and two in the Skat,
the declarer leads, the winner leads; 100 random deals per kind): compiling takes about 3.5 s
once (0.3 s to load the cache afterwards); a suit game (clubs) takes 0.04 s median, 0.09 s
mean, 0.8 s at most (4*10^5 nodes median, 10^7 at most); grand 0.03 / 0.11 / 1.4 s; null
(both searches) 0.02 / 0.04 / 0.2 s. Deals with a strong declarer (six trumps or more, clubs)
take longer: 0.15 s median, 1.2 s at most of 20.
"""

from __future__ import annotations

import threading
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache

import numpy as np

from qcards.errors import ModelError
from qcards.skat.cards import FULL_DECK, SUITS, TRUMP, Card, Rules, Trump
from qcards.skat.spec import SKAT, Endgame
from qcards.skat.stages import check_first

try:  # numba compiles the search; without it the same code runs as (slow) Python
    from numba import njit as _numba_njit

    def _njit(function):
        return _numba_njit(cache=True)(function)

    HAVE_NUMBA = True
except ImportError:  # pragma: no cover - numba is installed wherever qcards is tested

    def _njit(function):
        return function

    HAVE_NUMBA = False

_INDEX = {card: i for i, card in enumerate(FULL_DECK)}
_SUITS5 = (*SUITS, TRUMP)
"""Effective suits as table rows: the four printed suits, then the trumps."""
_MAX_DEPTH = 40
"""Rows of the per-depth scratch arrays (one per card played from the root, at most 32)."""
_TT_BITS = 20
"""log2 of the transposition table's entries (2^20: 13 MB; a full deal stores 10^4 to a few
10^5 positions; a table of 2^24 saves under 10 % of the nodes and runs slower)."""
_INF = 10_000


# ----------------------------------------------------------------------------- public records


@dataclass(frozen=True)
class DoubleDummyValue:
    """The double-dummy value of a deal or a position.

    Attributes:
        points: the declarer's final card points under minimax on points (``declarer_points``,
            the Skat and the tricks already taken included).
        wins: the minimax value of the win (the declarer maximises, the defenders minimise).
        nodes: search nodes visited (cards tried), for cost reporting.
    """

    points: int
    wins: bool
    nodes: int


@dataclass(frozen=True)
class Position:
    """A position inside one deal's game.

    Attributes:
        hands: the cards each seat still holds, by seat (``spec.players`` order).
        trick: the cards of the current trick so far, in play order.
        leader: the seat that led the current trick.
        points: the declarer's card points so far (``declarer_points`` and the Skat included).
        took: whether the declarer has taken a trick in this endgame.
    """

    hands: tuple[frozenset[Card], ...]
    trick: tuple[Card, ...]
    leader: int
    points: int
    took: bool

    @property
    def to_move(self) -> int:
        """The seat whose turn it is."""
        return (self.leader + len(self.trick)) % len(self.hands)

    @property
    def finished(self) -> bool:
        return not self.trick and not any(self.hands)


# ----------------------------------------------------------------------------- rule tables


@dataclass(frozen=True)
class _Tables:
    """The rules of one kind of game as arrays for the compiled search (:func:`_rule_tables`)."""

    power: np.ndarray  # [led suit, card]: 0 cannot take the trick, else higher takes
    eff: np.ndarray  # [card]: effective suit row (index into _SUITS5)
    value: np.ndarray  # [card]: card points
    suit_mask: np.ndarray  # [suit row]: mask of the cards of that effective suit
    order: np.ndarray  # [suit row, k]: cards of the suit, strongest first
    order_len: np.ndarray  # [suit row]


@cache
def _rule_tables(trump: Trump) -> _Tables:
    """Tables of one kind of game, read from :class:`Rules` (``effective_suit``, ``strength``).

    A trick goes to the card of highest *power* against the led suit: trumps above cards of the
    led suit above everything else (power 0, which never takes a trick), strength deciding
    inside each group; this is ``Rules.beats`` applied card by card.
    """
    rules = Rules(trump)
    eff = np.array([_SUITS5.index(rules.effective_suit(c)) for c in FULL_DECK], dtype=np.int64)
    value = np.array([c.value for c in FULL_DECK], dtype=np.int64)
    strength = [rules.strength(c) for c in FULL_DECK]
    span = max(strength) + 1
    trump_row = _SUITS5.index(TRUMP)
    power = np.zeros((len(_SUITS5), len(FULL_DECK)), dtype=np.int64)
    for led in range(len(_SUITS5)):
        for i in range(len(FULL_DECK)):
            if eff[i] == trump_row:
                power[led, i] = 2 * span + strength[i]
            elif eff[i] == led:
                power[led, i] = span + strength[i]
    suit_mask = np.zeros(len(_SUITS5), dtype=np.int64)
    order = np.full((len(_SUITS5), len(FULL_DECK)), -1, dtype=np.int64)
    order_len = np.zeros(len(_SUITS5), dtype=np.int64)
    for row in range(len(_SUITS5)):
        members = sorted(
            (i for i in range(len(FULL_DECK)) if eff[i] == row), key=lambda i: -strength[i]
        )
        for k, i in enumerate(members):
            suit_mask[row] |= 1 << i
            order[row, k] = i
        order_len[row] = len(members)
    return _Tables(power, eff, value, suit_mask, order, order_len)


# ----------------------------------------------------------------------------- compiled search


@_njit
def _tt_index(key, bits_mask):
    # multiplicative hash of the low 35 bits (cards, leader, kind) by a 27-bit odd factor, so
    # the product stays below 2^63 (no overflow, the same in Python); the generation is mixed in
    h = (key & 0x7FFFFFFFF) * 0x5BD1E99
    return ((h >> 17) ^ ((key >> 35) * 0x27D4EB2F)) & bits_mask


@_njit
def _ordered_moves(
    rem, legal, tmask, mover, ntrick, nplayers, led, win, for_took, best_hint,
    seat_of, power, eff, value, suit_mask, order, order_len, moves, scores,
):  # fmt: skip
    """Write the reduced, ordered moves of the side to move into ``moves``; return how many.

    Equivalent cards (same effective suit and hand, equal points unless ``for_took``, no live
    card between them) keep only their strongest. The score orders the moves best first.
    """
    alive = rem | tmask
    count = 0
    for s in range(5):
        mine = legal & suit_mask[s]
        if mine == 0:
            continue
        prev_mine = False
        prev_value = -1
        for k in range(order_len[s]):
            c = order[s, k]
            bit = np.int64(1) << c
            if (alive & bit) == 0:
                continue  # played or in the Skat: does not separate equivalent cards
            if mine & bit:
                if not (prev_mine and (for_took or value[c] == prev_value)):
                    moves[count] = c
                    count += 1
                prev_mine = True
                prev_value = value[c]
            else:
                prev_mine = False
    # Scores, best first (measured on 50 full deals per kind of game against other orders; the
    # table's best card always goes first). Lead: a card that tops its suit among the live cards
    # (likely to take the trick) with points first, else a low card (points are not given
    # away). Follow: take the trick with points but the cheapest taker (within the led suit
    # before trumping); on a partner's trick add points; else discard the lowest.
    last = ntrick == nplayers - 1
    for i in range(count):
        c = moves[i]
        if c == best_hint:
            scores[i] = 100_000
            continue
        if for_took:
            # null: lowest first, for the declarer (ducking) and the defenders (staying under)
            if ntrick == 0:
                scores[i] = -power[eff[c], c]
            else:
                scores[i] = -power[led, c]
            continue
        if ntrick == 0:
            s = eff[c]
            top = -1
            for k in range(order_len[s]):
                if (alive >> order[s, k]) & 1:
                    top = order[s, k]
                    break
            if top == c:
                scores[i] = 2000 + 10 * value[c] + power[s, c]
            else:
                scores[i] = -10 * value[c] + power[s, c]
            continue
        takes = power[led, c] > power[led, win]
        if takes:
            if last:  # the trick is decided: the most points
                scores[i] = 1000 + value[c]
            else:
                scores[i] = 1000 + value[c] - power[led, c]
        elif (seat_of[win] == 0) == (mover == 0):
            scores[i] = 500 + value[c]
        else:
            scores[i] = -value[c] - power[led, c]
    # insertion sort, best first (at most 16 moves)
    for i in range(1, count):
        m = moves[i]
        s = scores[i]
        j = i - 1
        while j >= 0 and scores[j] < s:
            moves[j + 1] = moves[j]
            scores[j + 1] = scores[j]
            j -= 1
        moves[j + 1] = m
        scores[j + 1] = s
    return count


# Fields of a search node (one row of the ``node`` array per ply): numba reads module-level
# integers as constants. The searches are iterative, with an explicit stack, because numba's
# on-disk cache breaks recursive functions (numba issues #6061 and #6713: a segfault on the
# second run).
_REM, _PTS, _LEADER, _NTRICK, _LED, _WIN, _TPTS, _TMASK = 0, 1, 2, 3, 4, 5, 6, 7
_ALPHA, _BETA, _ALPHA0, _BETA0, _KEY, _SLOT, _BEST, _BESTC = 8, 9, 10, 11, 12, 13, 14, 15
_COUNT, _IDX, _CUR, _GAIN = 16, 17, 18, 19
_FIELDS = 20


@_njit
def _search_points(
    rem, rem_pts, leader, ntrick, led, win, tpts, tmask, forced, alpha, beta,
    seat_mask, seat_of, nplayers, winner_leads, leader0,
    power, eff, value, suit_mask, order, order_len,
    tt_key, tt_lo, tt_hi, tt_best, bits_mask, gen, moves, scores, node, stats,
):  # fmt: skip
    """The declarer's future card points (the current trick's included) from a position.

    Fail-soft alpha-beta: the declarer (seat 0) maximises, the defenders minimise; a node's
    result ``v <= alpha`` is an upper bound, ``v >= beta`` a lower bound, else exact. The root
    is searched with the full window and without table cut-offs, so its best card, written to
    ``stats[1]``, is truly best; ``stats[0]`` counts the nodes. ``forced >= 0`` fixes the
    root's card.
    """
    node[0, _REM] = rem
    node[0, _PTS] = rem_pts
    node[0, _LEADER] = leader
    node[0, _NTRICK] = ntrick
    node[0, _LED] = led
    node[0, _WIN] = win
    node[0, _TPTS] = tpts
    node[0, _TMASK] = tmask
    node[0, _ALPHA] = alpha
    node[0, _BETA] = beta
    sp = 0
    entering = True
    returning = False
    vret = np.int64(0)
    while True:
        if entering:
            entering = False
            stats[0] += 1
            rem = node[sp, _REM]
            ntrick = node[sp, _NTRICK]
            leader = node[sp, _LEADER]
            alpha = node[sp, _ALPHA]
            beta = node[sp, _BETA]
            upper = node[sp, _TPTS] + node[sp, _PTS]
            if upper <= alpha:
                vret = upper
                returning = True
            elif beta <= 0:
                vret = np.int64(0)
                returning = True
            else:
                hint = -1
                key = np.int64(-1)
                slot = np.int64(0)
                if ntrick == 0 and not (sp == 0 and forced >= 0):
                    key = rem | (leader << 32) | (gen << 35)
                    slot = _tt_index(key, bits_mask)
                    if tt_key[slot] == key:
                        lo = np.int64(tt_lo[slot])
                        hi = np.int64(tt_hi[slot])
                        hint = np.int64(tt_best[slot])
                        if sp > 0:  # the root keeps its full window (see the docstring)
                            if lo >= beta:
                                vret = lo
                                returning = True
                            elif hi <= alpha:
                                vret = hi
                                returning = True
                            elif lo == hi:
                                vret = lo
                                returning = True
                            else:
                                alpha = max(alpha, lo)
                                beta = min(beta, hi)
                if not returning:
                    node[sp, _ALPHA] = alpha
                    node[sp, _BETA] = beta
                    node[sp, _ALPHA0] = alpha
                    node[sp, _BETA0] = beta
                    node[sp, _KEY] = key
                    node[sp, _SLOT] = slot
                    mover = (leader + ntrick) % nplayers
                    node[sp, _BEST] = -_INF if mover == 0 else _INF
                    node[sp, _BESTC] = -1
                    node[sp, _IDX] = 0
                    if sp == 0 and forced >= 0:
                        moves[0, 0] = forced
                        node[0, _COUNT] = 1
                    else:
                        hand = rem & seat_mask[mover]
                        legal = hand
                        if ntrick > 0:
                            follow = hand & suit_mask[node[sp, _LED]]
                            if follow != 0:
                                legal = follow
                        node[sp, _COUNT] = _ordered_moves(
                            rem, legal, node[sp, _TMASK], mover, ntrick, nplayers,
                            node[sp, _LED], node[sp, _WIN], False, hint, seat_of, power, eff,
                            value, suit_mask, order, order_len, moves[sp], scores[sp],
                        )  # fmt: skip
        if returning:
            returning = False
            if sp == 0:
                return vret
            sp -= 1
            v = vret + node[sp, _GAIN]
            if (node[sp, _LEADER] + node[sp, _NTRICK]) % nplayers == 0:
                if v > node[sp, _BEST]:
                    node[sp, _BEST] = v
                    node[sp, _BESTC] = node[sp, _CUR]
                    if v > node[sp, _ALPHA]:
                        node[sp, _ALPHA] = v
            elif v < node[sp, _BEST]:
                node[sp, _BEST] = v
                node[sp, _BESTC] = node[sp, _CUR]
                if v < node[sp, _BETA]:
                    node[sp, _BETA] = v
        # the next move of node sp, or its result
        if node[sp, _ALPHA] >= node[sp, _BETA] or node[sp, _IDX] >= node[sp, _COUNT]:
            best = node[sp, _BEST]
            key = node[sp, _KEY]
            if key >= 0:
                slot = node[sp, _SLOT]
                lo = np.int64(-1)
                hi = np.int64(255)
                if tt_key[slot] == key:  # merge with what an earlier search proved
                    lo = np.int64(tt_lo[slot])
                    hi = np.int64(tt_hi[slot])
                if node[sp, _ALPHA0] < best < node[sp, _BETA0]:
                    lo = best
                    hi = best
                elif best <= node[sp, _ALPHA0]:
                    hi = min(hi, best)
                else:
                    lo = max(lo, best)
                tt_key[slot] = key
                tt_lo[slot] = lo
                tt_hi[slot] = hi
                tt_best[slot] = node[sp, _BESTC]
            if sp == 0:
                stats[1] = node[0, _BESTC]
            vret = best
            returning = True
            continue
        c = moves[sp, node[sp, _IDX]]
        node[sp, _IDX] += 1
        node[sp, _CUR] = c
        bit = np.int64(1) << c
        ntrick = node[sp, _NTRICK]
        nrem = node[sp, _REM] & ~bit
        ntp = node[sp, _TPTS] + value[c]
        if ntrick == 0:
            nled = eff[c]
            nwin = c
        else:
            nled = node[sp, _LED]
            nwin = node[sp, _WIN]
            if power[nled, c] > power[nled, nwin]:
                nwin = c
        child = sp + 1
        node[child, _REM] = nrem
        node[child, _PTS] = node[sp, _PTS] - value[c]
        if ntrick + 1 == nplayers:
            wseat = seat_of[nwin]
            gained = ntp if wseat == 0 else 0
            node[sp, _GAIN] = gained
            if nrem == 0:  # the last trick: its value comes straight back
                sp = child
                vret = np.int64(0)
                returning = True
                continue
            node[child, _LEADER] = wseat if winner_leads else leader0
            node[child, _NTRICK] = 0
            node[child, _LED] = 0
            node[child, _WIN] = 0
            node[child, _TPTS] = 0
            node[child, _TMASK] = 0
            node[child, _ALPHA] = node[sp, _ALPHA] - gained
            node[child, _BETA] = node[sp, _BETA] - gained
        else:
            node[sp, _GAIN] = 0
            node[child, _LEADER] = node[sp, _LEADER]
            node[child, _NTRICK] = ntrick + 1
            node[child, _LED] = nled
            node[child, _WIN] = nwin
            node[child, _TPTS] = ntp
            node[child, _TMASK] = node[sp, _TMASK] | bit
            node[child, _ALPHA] = node[sp, _ALPHA]
            node[child, _BETA] = node[sp, _BETA]
        sp = child
        entering = True


@_njit
def _search_took(
    rem, leader, ntrick, led, win, tmask, forced,
    seat_mask, seat_of, nplayers, winner_leads, leader0,
    power, eff, value, suit_mask, order, order_len,
    tt_key, tt_lo, tt_hi, tt_best, bits_mask, gen, moves, scores, node, stats,
):  # fmt: skip
    """1 if the defenders can force the declarer to take a trick (the declarer avoids it), else 0.

    A boolean game: a node is decided by its first move that reaches the mover's goal, and
    every value is exact, so the table stores it as equal bounds, under keys of their own (bit
    34). ``stats[0]`` counts the nodes; ``forced >= 0`` fixes the root's card.
    """
    node[0, _REM] = rem
    node[0, _LEADER] = leader
    node[0, _NTRICK] = ntrick
    node[0, _LED] = led
    node[0, _WIN] = win
    node[0, _TMASK] = tmask
    sp = 0
    entering = True
    returning = False
    vret = np.int64(0)
    while True:
        if entering:
            entering = False
            stats[0] += 1
            rem = node[sp, _REM]
            ntrick = node[sp, _NTRICK]
            leader = node[sp, _LEADER]
            mover = (leader + ntrick) % nplayers
            key = np.int64(-1)
            slot = np.int64(0)
            if ntrick == 0 and (rem & seat_mask[0]) == 0:
                vret = np.int64(0)  # the declarer has no card left: it takes no more tricks
                returning = True
            elif ntrick == 0 and not (sp == 0 and forced >= 0):
                key = rem | (leader << 32) | (np.int64(1) << 34) | (gen << 35)
                slot = _tt_index(key, bits_mask)
                if tt_key[slot] == key:
                    vret = np.int64(tt_lo[slot])
                    returning = True
            if not returning:
                node[sp, _KEY] = key
                node[sp, _SLOT] = slot
                node[sp, _BEST] = 1 if mover == 0 else 0
                node[sp, _IDX] = 0
                if sp == 0 and forced >= 0:
                    moves[0, 0] = forced
                    node[0, _COUNT] = 1
                else:
                    hand = rem & seat_mask[mover]
                    legal = hand
                    if ntrick > 0:
                        follow = hand & suit_mask[node[sp, _LED]]
                        if follow != 0:
                            legal = follow
                    node[sp, _COUNT] = _ordered_moves(
                        rem, legal, node[sp, _TMASK], mover, ntrick, nplayers,
                        node[sp, _LED], node[sp, _WIN], True, -1, seat_of, power, eff,
                        value, suit_mask, order, order_len, moves[sp], scores[sp],
                    )  # fmt: skip
        if returning:
            returning = False
            if sp == 0:
                return vret
            sp -= 1
            declarer = (node[sp, _LEADER] + node[sp, _NTRICK]) % nplayers == 0
            if declarer and vret == 0:
                node[sp, _BEST] = 0
                node[sp, _IDX] = node[sp, _COUNT]  # an escape: no need to look further
            elif not declarer and vret == 1:
                node[sp, _BEST] = 1
                node[sp, _IDX] = node[sp, _COUNT]
        if node[sp, _IDX] >= node[sp, _COUNT]:
            vret = node[sp, _BEST]
            key = node[sp, _KEY]
            if key >= 0:
                slot = node[sp, _SLOT]
                tt_key[slot] = key
                tt_lo[slot] = vret
                tt_hi[slot] = vret
                tt_best[slot] = -1
            returning = True
            continue
        c = moves[sp, node[sp, _IDX]]
        node[sp, _IDX] += 1
        bit = np.int64(1) << c
        ntrick = node[sp, _NTRICK]
        nrem = node[sp, _REM] & ~bit
        if ntrick == 0:
            nled = eff[c]
            nwin = c
        else:
            nled = node[sp, _LED]
            nwin = node[sp, _WIN]
            if power[nled, c] > power[nled, nwin]:
                nwin = c
        child = sp + 1
        node[child, _REM] = nrem
        if ntrick + 1 == nplayers:
            wseat = seat_of[nwin]
            if wseat == 0 or nrem == 0:  # decided: the declarer took this trick, or the last
                sp = child
                vret = np.int64(1 if wseat == 0 else 0)
                returning = True
                continue
            node[child, _LEADER] = wseat if winner_leads else leader0
            node[child, _NTRICK] = 0
            node[child, _LED] = 0
            node[child, _WIN] = 0
            node[child, _TMASK] = 0
        else:
            node[child, _LEADER] = node[sp, _LEADER]
            node[child, _NTRICK] = ntrick + 1
            node[child, _LED] = nled
            node[child, _WIN] = nwin
            node[child, _TMASK] = node[sp, _TMASK] | bit
        sp = child
        entering = True


# ----------------------------------------------------------------------------- workspace


class _Workspace:
    """The transposition table and scratch arrays of one thread.

    A table entry holds the value of the cards in its key's mask, so it is valid for every
    position in which those cards have the same owners, under the same rules and players. The
    workspace remembers the owners its entries were stored under (``owners``, by card index;
    -1 for cards no entry holds) and starts a new generation only when a position contradicts
    them: the positions of one deal (a principal variation) share the table, a new deal does
    not.
    """

    def __init__(self, bits: int = _TT_BITS) -> None:
        size = 1 << bits
        self.bits_mask = size - 1
        self.tt_key = np.full(size, -1, dtype=np.int64)
        self.tt_lo = np.zeros(size, dtype=np.int16)
        self.tt_hi = np.zeros(size, dtype=np.int16)
        self.tt_best = np.zeros(size, dtype=np.int8)
        self.moves = np.zeros((_MAX_DEPTH, 32), dtype=np.int64)
        self.scores = np.zeros((_MAX_DEPTH, 32), dtype=np.int64)
        self.node = np.zeros((_MAX_DEPTH, _FIELDS), dtype=np.int64)
        self.stats = np.zeros(2, dtype=np.int64)
        self.gen = 0
        self.context: tuple | None = None
        self.owners = np.full(32, -1, dtype=np.int64)

    def generation(self, context: tuple, seat_of: np.ndarray) -> int:
        """The generation for a position whose live cards have the owners ``seat_of``."""
        live = seat_of >= 0
        known = self.owners[live]
        if context != self.context or np.any((known >= 0) & (known != seat_of[live])):
            self.context = context
            self.owners.fill(-1)
            self.gen += 1
            if self.gen >= 1 << 27:  # the key holds 28 bits of generation: start over
                self.tt_key.fill(-1)
                self.gen = 1
        self.owners[live] = seat_of[live]
        return self.gen


_LOCAL = threading.local()


def _workspace() -> _Workspace:
    ws = getattr(_LOCAL, "workspace", None)
    if ws is None:
        ws = _LOCAL.workspace = _Workspace()
    return ws


# ----------------------------------------------------------------------------- positions


def start_position(spec: Endgame, owner: Mapping[Card, str]) -> Position:
    """The position before the first card of a deal.

    Args:
        spec: the endgame.
        owner: card -> player name or :data:`~qcards.skat.spec.SKAT`, for every card of the
            spec (as :func:`qcards.skat.referee.deals` yields them).

    Raises:
        ModelError: ``owner`` is not a deal of ``spec``.
    """
    cards = set(spec.cards)
    if set(owner) != cards:
        missing = sorted(cards - set(owner))
        extra = sorted(set(owner) - cards)
        raise ModelError(
            f"owner must map exactly the spec's cards (missing: "
            f"{' '.join(map(str, missing)) or 'none'}; not in the spec: "
            f"{' '.join(map(str, extra)) or 'none'})"
        )
    receivers = {*spec.players, SKAT}
    hands: dict[str, set[Card]] = {p: set() for p in spec.players}
    skat = 0
    for card, who in owner.items():
        if who not in receivers:
            raise ModelError(f"card {card} is dealt to {who!r}, not a player or {SKAT!r}")
        if who == SKAT:
            skat += card.value
        else:
            hands[who].add(card)
    for p in spec.players:
        if len(hands[p]) != spec.hand_size or not set(spec.hands[p]) <= hands[p]:
            raise ModelError(
                f"the deal gives {p} {len(hands[p])} cards; the spec needs {spec.hand_size}, "
                "its known hand included"
            )
    return Position(
        hands=tuple(frozenset(hands[p]) for p in spec.players),
        trick=(),
        leader=spec.players.index(spec.leader),
        points=spec.declarer_points + skat,
        took=False,
    )


def legal_moves(spec: Endgame, position: Position) -> tuple[Card, ...]:
    """The cards the side to move may play (``Rules.legal_cards``)."""
    if position.finished:
        return ()
    led = position.trick[0] if position.trick else None
    return spec.rules.legal_cards(position.hands[position.to_move], led)


def play(spec: Endgame, position: Position, card: Card) -> Position:
    """The position after the side to move plays ``card`` (which must be legal).

    Raises:
        ModelError: the game is over or ``card`` is not a legal card of the side to move.
    """
    if position.finished:
        raise ModelError("the game is over: no card can be played")
    seat = position.to_move
    if card not in legal_moves(spec, position):
        raise ModelError(
            f"{card} is not a legal card for {spec.players[seat]} here (legal: "
            f"{' '.join(map(str, legal_moves(spec, position)))})"
        )
    hands = tuple(h - {card} if i == seat else h for i, h in enumerate(position.hands))
    trick = (*position.trick, card)
    n = len(spec.players)
    if len(trick) < n:
        return Position(hands, trick, position.leader, position.points, position.took)
    winner = (position.leader + spec.rules.trick_winner(trick)) % n
    points = position.points + (sum(c.value for c in trick) if winner == 0 else 0)
    leader = winner if spec.winner_leads else spec.players.index(spec.leader)
    return Position(hands, (), leader, points, position.took or winner == 0)


def _check_position(spec: Endgame, position: Position) -> None:
    n = len(spec.players)
    if len(position.hands) != n:
        raise ModelError(f"the position has {len(position.hands)} hands for {n} players")
    if not 0 <= position.leader < n or len(position.trick) >= n:
        raise ModelError("the position's leader or trick does not fit the players")
    seen: set[Card] = set(position.trick)
    if len(seen) != len(position.trick):
        raise ModelError("a card appears twice in the trick")
    for hand in position.hands:
        if seen & hand:
            raise ModelError("a card appears in two places of the position")
        seen |= hand
    if len(seen) > 32:  # pragma: no cover - the deck has 32 cards
        raise ModelError("more than 32 cards: the solver's bitboards hold one deck")
    played = {(position.leader + i) % n for i in range(len(position.trick))}
    sizes = {len(h) + (1 if i in played else 0) for i, h in enumerate(position.hands)}
    if len(sizes) != 1:
        raise ModelError("the hands' sizes do not fit the cards played in the current trick")


def _kernel_args(spec: Endgame, position: Position):
    """The deal-, rules- and table-dependent arguments of the compiled searches."""
    tables = _rule_tables(spec.trump)
    n = len(spec.players)
    seat_mask = np.zeros(4, dtype=np.int64)
    seat_of = np.full(32, -1, dtype=np.int64)
    for seat, hand in enumerate(position.hands):
        for card in hand:
            seat_mask[seat] |= 1 << _INDEX[card]
            seat_of[_INDEX[card]] = seat
    for i, card in enumerate(position.trick):
        seat_of[_INDEX[card]] = (position.leader + i) % n
    leader0 = spec.players.index(spec.leader)
    ws = _workspace()
    gen = ws.generation((spec.trump, n, spec.winner_leads, leader0), seat_of)
    return tables, seat_mask, seat_of, leader0, ws, gen


def _trick_state(tables: _Tables, position: Position):
    """(led suit row, winning card, trick points, trick mask) of the current trick."""
    if not position.trick:
        return 0, 0, 0, 0
    led = int(tables.eff[_INDEX[position.trick[0]]])
    win = _INDEX[position.trick[0]]
    tmask = 0
    for card in position.trick:
        i = _INDEX[card]
        tmask |= 1 << i
        if tables.power[led, i] > tables.power[led, win]:
            win = i
    return led, win, sum(c.value for c in position.trick), tmask


def _solve(
    spec: Endgame, position: Position, forced: Card | None, need_win: bool = True
) -> tuple[DoubleDummyValue, Card | None]:
    """The position's value and a best card of the side to move (``None`` when finished)."""
    _check_position(spec, position)
    if position.finished:
        tricks = spec.declarer_tricks + int(position.took)
        wins = spec.declarer_wins(position.points, tricks)
        return DoubleDummyValue(position.points, wins, 0), None
    if forced is not None and forced not in legal_moves(spec, position):
        raise ModelError(f"forced card {forced} is not a legal card of the side to move")
    tables, seat_mask, seat_of, leader0, ws, gen = _kernel_args(spec, position)
    rem = int(seat_mask.sum())
    rem_pts = sum(c.value for h in position.hands for c in h)
    led, win, tpts, tmask = _trick_state(tables, position)
    forced_index = _INDEX[forced] if forced is not None else -1
    n = len(spec.players)
    winner_leads = bool(spec.winner_leads)
    ws.stats[:] = (0, -1)
    future = _search_points(
        rem, rem_pts, position.leader, len(position.trick), led, win, tpts, tmask,
        forced_index, -1, _INF, seat_mask, seat_of, n, winner_leads, leader0,
        tables.power, tables.eff, tables.value, tables.suit_mask, tables.order, tables.order_len,
        ws.tt_key, ws.tt_lo, ws.tt_hi, ws.tt_best, ws.bits_mask, gen, ws.moves, ws.scores,
        ws.node, ws.stats,
    )  # fmt: skip
    nodes = int(ws.stats[0])
    best = FULL_DECK[int(ws.stats[1])] if ws.stats[1] >= 0 else None
    points = position.points + int(future)
    if not spec.is_null:
        wins = spec.declarer_wins(points, spec.declarer_tricks)
    elif spec.declarer_tricks or position.took or not need_win:
        wins = False
    else:
        ws.stats[0] = 0
        takes = _search_took(
            rem, position.leader, len(position.trick), led, win, tmask, forced_index,
            seat_mask, seat_of, n, winner_leads, leader0,
            tables.power, tables.eff, tables.value, tables.suit_mask, tables.order,
            tables.order_len, ws.tt_key, ws.tt_lo, ws.tt_hi, ws.tt_best, ws.bits_mask, gen,
            ws.moves, ws.scores, ws.node, ws.stats,
        )  # fmt: skip
        nodes += int(ws.stats[0])
        wins = not takes
    return DoubleDummyValue(points, bool(wins), nodes), best


# ----------------------------------------------------------------------------- public API


def solve_position(
    spec: Endgame, position: Position, forced: Card | None = None
) -> DoubleDummyValue:
    """The double-dummy value of a position.

    Args:
        spec: the endgame (its rules, players, leading rule, target and ``declarer_tricks``).
        position: where the game stands (:func:`start_position`, :func:`play`).
        forced: a card the side to move must play next (it must be legal).

    Raises:
        ModelError: an inconsistent position or an illegal ``forced`` card.
    """
    return _solve(spec, position, forced)[0]


def solve_deal(
    spec: Endgame, owner: Mapping[Card, str], first: Card | None = None
) -> DoubleDummyValue:
    """The double-dummy value of one deal: what the referee's adversarial model gives it.

    Args:
        spec: the endgame.
        owner: card -> player name or :data:`~qcards.skat.spec.SKAT` for every card of the
            spec (a deal of :func:`qcards.skat.referee.deals` or ``random_deal``).
        first: the declarer's forced first card (as for :func:`qcards.skat.referee.evaluate`).

    Raises:
        ModelError: ``owner`` is not a deal of ``spec``, or ``first`` cannot be forced.
    """
    check_first(spec, first)
    position = start_position(spec, owner)
    if first is not None and first not in position.hands[0]:  # pragma: no cover - check_first
        raise ModelError(f"first card {first} is not in the declarer's hand")
    return _solve(spec, position, first)[0]


def best_card(spec: Endgame, position: Position) -> Card | None:
    """A best card of the side to move under minimax on points (``None`` when finished)."""
    return _solve(spec, position, None, need_win=False)[1]


def principal_variation(
    spec: Endgame, owner: Mapping[Card, str], first: Card | None = None
) -> list[Card]:
    """The cards played along the points-minimax line, a best card at every turn.

    Ties between equally good cards go to the first one the search tries. ``first`` forces the
    declarer's first card.
    """
    check_first(spec, first)
    position = start_position(spec, owner)
    line: list[Card] = []
    forced = first
    while not position.finished:
        card = _solve(spec, position, forced, need_win=False)[1]
        assert card is not None
        line.append(card)
        position = play(spec, position, card)
        forced = None
    return line
