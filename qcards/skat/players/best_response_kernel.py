"""The compiled walk of :mod:`qcards.skat.players.best_response`: the declarer's best response to
uniformly random or heuristic opponents (:mod:`qcards.skat.players.heuristic_kernel`), in floating
point, over every deal at once.

The walk is the one of :func:`qcards.skat.players.best_response.best_response` (the public
histories; the declarer chooses one card for all the deals it cannot tell apart, the other seats
branch
on the card played, each deal weighted by the chance its owner plays it), written for numba:
cards are bits of a 32-bit mask (their index in :data:`~qcards.skat.rules.cards.FULL_DECK`), the
rules are :mod:`qcards.skat.rules.rule_tables`' arrays, the deals are rows of hand masks, and the
objective is a table of its values over (matadors, card points, tricks) built in Python from
the objective's own ``value``. Iterative with an explicit stack, one level a card played (see
:mod:`qcards.skat.compiled.jit` on recursion and numba's cache). Private: the semantics are
:mod:`qcards.skat.players.best_response`'s, and its tests hold this walk to the Fraction walk.
"""

from __future__ import annotations

import numpy as np

from qcards.skat.compiled.bits import lowest_card, popcount
from qcards.skat.compiled.jit import njit
from qcards.skat.players.heuristic_kernel import heuristic_set
from qcards.skat.rules.table_kernel import LEADING, legal_mask, trick_taker
from qcards.skat.rules.turns_kernel import next_lead, seat_to_move

MAX_SEATS = 4


@njit
def _legal(hand, trick0, tlen, eff, suit_mask):
    """The legal cards (a mask) of ``hand`` when the trick's first card is ``trick0``."""
    return legal_mask(hand, eff[trick0] if tlen else LEADING, suit_mask)


@njit
def _terminal(act, wt, count, base, mat, obj, points, tricks):
    total = 0.0
    for i in range(count):
        d = act[i]
        total += wt[i] * obj[mat[d], base[d] + points, tricks]
    return total


@njit
def _merge(acc, maximise, lv, result):
    """A child's value into its parent's: the best for the declarer, else the sum."""
    if maximise[lv]:
        if result > acc[lv]:
            acc[lv] = result
    else:
        acc[lv] += result


@njit
def _open(hands, act, cnt, played, trick, tlen, leader, cand, acc, maximise, lv, n, eff,
          suit_mask):  # fmt: skip
    """Level ``lv``'s moves: the declarer's legal cards (its hand is the same in every deal),
    or every card the seat to move may play in some deal still possible."""
    seat = seat_to_move(leader[lv], tlen[lv], n)
    maximise[lv] = seat == 0
    acc[lv] = -np.inf if seat == 0 else 0.0
    union = np.int64(0)
    for i in range(1 if seat == 0 else cnt[lv]):
        union |= _legal(hands[act[lv, i], seat] & ~played[lv], trick[lv, 0], tlen[lv], eff,
                        suit_mask)  # fmt: skip
    cand[lv] = union


@njit
def _decided(act, count, base, mat, obj, held, points, tricks, gone, tricks_left):
    """Whether the objective of every deal is settled whatever the rest of the play."""
    for i in range(count):
        d = act[i]
        m = mat[d]
        lo = base[d] + points
        hi = lo + held[d] - gone
        v = obj[m, lo, tricks]
        if (obj[m, hi, tricks] != v or obj[m, lo, tricks + tricks_left] != v
                or obj[m, hi, tricks + tricks_left] != v):  # fmt: skip
            return False
    return True


@njit
def walk(
    hands, base, mat, obj, held, prune, act0, w0, played0, trick0, tlen0, leader0, points0,
    tricks0, remaining, forced, n, eff, power, value, suit_mask, winner_leads, fixed_leader,
    heuristic_opponents, start, skat, null, strength, sort_rank, trump_row,
):  # fmt: skip
    """The best response's expected objective from one position, and the nodes visited.

    ``hands[d, s]``: seat ``s``'s cards in deal ``d`` before any card of ``played0`` left
    them; ``act0``/``w0``: the deals still possible and their weights; ``played0``: every
    card played so far (the current trick's included); ``trick0[:tlen0]``: the current
    trick; ``points0``/``tricks0``: what the declarer took in this walk so far (its table
    index adds ``base[d]``); ``remaining``: the cards still to be played; ``forced``: the
    declarer's card at the first decision, or -1. Seat 0 is the declarer, whose hand is the
    same in every deal of ``act0``.

    ``prune`` (the objective is monotone in the points and in the tricks, checked by the
    caller): at a trick boundary where, for every deal, the objective has the same value at the
    four corners of what the declarer can still reach (``held[d]``: the points of the hands'
    cards at the start), that value is the node's, without a walk below it.

    ``heuristic_opponents``: the other seats play the heuristic, which reads the cards a seat
    cannot see (the hands still held, ``start[d]`` less the cards played, and the Skat
    ``skat[d]``; the rest of the arguments are the tables of
    :func:`~qcards.skat.players.heuristic_kernel.heuristic_set`); else they play uniformly among
    their legal cards.
    """
    levels = remaining + 1
    deals = act0.shape[0]
    act = np.empty((levels, max(deals, 1)), dtype=np.int64)
    wt = np.empty((levels, max(deals, 1)), dtype=np.float64)
    cnt = np.zeros(levels, dtype=np.int64)
    played = np.zeros(levels, dtype=np.int64)
    trick = np.zeros((levels, MAX_SEATS), dtype=np.int64)
    tlen = np.zeros(levels, dtype=np.int64)
    leader = np.zeros(levels, dtype=np.int64)
    points = np.zeros(levels, dtype=np.int64)
    tricks = np.zeros(levels, dtype=np.int64)
    cand = np.zeros(levels, dtype=np.int64)
    acc = np.zeros(levels, dtype=np.float64)
    maximise = np.zeros(levels, dtype=np.bool_)
    gone = np.zeros(levels, dtype=np.int64)  # the points of the cards played
    nodes = 1

    for i in range(deals):
        act[0, i] = act0[i]
        wt[0, i] = w0[i]
    cnt[0] = deals
    played[0] = played0
    for q in range(tlen0):
        trick[0, q] = trick0[q]
    tlen[0] = tlen0
    leader[0] = leader0
    points[0] = points0
    tricks[0] = tricks0
    rest = played0
    while rest:
        low = rest & -rest
        gone[0] += value[lowest_card(low)]
        rest ^= low
    if remaining == 0:
        return _terminal(act[0], wt[0], cnt[0], base, mat, obj, points0, tricks0), nodes

    _open(hands, act, cnt, played, trick, tlen, leader, cand, acc, maximise, 0, n, eff,
          suit_mask)  # fmt: skip
    if forced >= 0 and maximise[0]:
        cand[0] = np.int64(1) << forced

    lv = 0
    while True:
        if cand[lv] == 0:
            result = acc[lv]
            if lv == 0:
                return result, nodes
            lv -= 1
            _merge(acc, maximise, lv, result)
            continue
        bit = cand[lv] & -cand[lv]
        cand[lv] ^= bit
        card = lowest_card(bit)
        seat = seat_to_move(leader[lv], tlen[lv], n)
        child = lv + 1
        # the deals in which this card is played, and their weights
        if seat == 0:
            for i in range(cnt[lv]):
                act[child, i] = act[lv, i]
                wt[child, i] = wt[lv, i]
            cnt[child] = cnt[lv]
        else:
            k = 0
            for i in range(cnt[lv]):
                d = act[lv, i]
                hand = hands[d, seat] & ~played[lv]
                if not heuristic_opponents:
                    chosen = _legal(hand, trick[lv, 0], tlen[lv], eff, suit_mask)
                else:
                    out = ((start[d] & ~played[lv]) | skat[d]) & ~hand
                    chosen = heuristic_set(hand, out, trick[lv], tlen[lv], leader[lv], seat, n,
                                           null, eff, power, value, strength, sort_rank,
                                           suit_mask, trump_row)  # fmt: skip
                if chosen & bit:
                    act[child, k] = d
                    wt[child, k] = wt[lv, i] / popcount(chosen)
                    k += 1
            cnt[child] = k
            if k == 0:
                continue
        nodes += 1
        played[child] = played[lv] | bit
        gone[child] = gone[lv] + value[card]
        for q in range(tlen[lv]):
            trick[child, q] = trick[lv, q]
        trick[child, tlen[lv]] = card
        t = tlen[lv] + 1
        pts = points[lv]
        tks = tricks[lv]
        lead = leader[lv]
        if t == n:
            win = trick_taker(trick[child], n, eff, power)
            gain = 0
            for q in range(n):
                gain += value[trick[child, q]]
            winner = seat_to_move(lead, win, n)
            if winner == 0:
                pts += gain
                tks += 1
            lead = next_lead(winner, winner_leads, fixed_leader)
            t = 0
        tlen[child] = t
        leader[child] = lead
        points[child] = pts
        tricks[child] = tks
        if child == remaining or (prune and t == 0 and _decided(
            act[child], cnt[child], base, mat, obj, held, pts, tks, gone[child],
            (remaining - child) // n)):  # fmt: skip
            result = _terminal(act[child], wt[child], cnt[child], base, mat, obj, pts, tks)
            _merge(acc, maximise, lv, result)
            continue
        _open(hands, act, cnt, played, trick, tlen, leader, cand, acc, maximise, child, n, eff,
              suit_mask)  # fmt: skip
        lv = child
