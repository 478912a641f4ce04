"""The compiled search of the double-dummy solver (:mod:`qcards.skat.solvers.double_dummy`, whose
docstring has the design and the measurements).

It holds the transposition table's hash (:func:`_tt_index`), the reduced and ordered moves of
the side to move (:func:`_ordered_moves`: equivalent cards as one move, the table's best card
first), the layout of a search node (one row of the ``node`` array a ply: the explicit stack of
the iterative search) and :func:`search`, one depth-first search over those nodes for both
values the solver needs: the declarer's future card points (fail-soft alpha-beta) and, in null
games, whether the defenders can force the declarer to take a trick (a boolean search). The
rules arrive as the arrays of :func:`qcards.skat.rules.rule_tables.rule_tables`, the table and the
scratch arrays from the caller's workspace.
"""

from __future__ import annotations

import numpy as np

from qcards.skat.compiled.jit import njit
from qcards.skat.rules.table_kernel import LEADING, legal_mask, takes
from qcards.skat.rules.turns_kernel import next_lead, seat_to_move

INF = 10_000
"""Beyond any card points: the root's window and the first best value of a node."""

# Fields of a search node (one row of the ``node`` array per ply): numba reads module-level
# integers as constants.
_REM, _PTS, _LEADER, _NTRICK, _LED, _WIN, _TPTS, _TMASK = 0, 1, 2, 3, 4, 5, 6, 7
_ALPHA, _BETA, _ALPHA0, _BETA0, _KEY, _SLOT, _BEST, _BESTC = 8, 9, 10, 11, 12, 13, 14, 15
_COUNT, _IDX, _CUR, _GAIN = 16, 17, 18, 19
NODE_FIELDS = 20
"""Columns of the ``node`` array."""


@njit
def _tt_index(key, bits_mask):
    # multiplicative hash of the low 35 bits (cards, leader, kind) by a 27-bit odd factor, so
    # the product stays below 2^63 (no overflow, the same in Python); the generation is mixed in
    h = (key & 0x7FFFFFFFF) * 0x5BD1E99
    return ((h >> 17) ^ ((key >> 35) * 0x27D4EB2F)) & bits_mask


@njit
def _ordered_moves(
    rem, legal, tmask, mover, ntrick, nplayers, led, win, for_took, best_hint,
    seat_of, rules, moves, scores,
):  # fmt: skip
    """Write the reduced, ordered moves of the side to move into ``moves``; return how many.

    Equivalent cards (same effective suit and hand, equal points unless ``for_took``, no live
    card between them) keep only their strongest. The score orders the moves best first.
    ``rules`` is :attr:`~qcards.skat.rules.rule_tables.RuleTables.packed`.
    """
    power, eff, value, suit_mask, order, order_len = rules
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
    # Scores, best first (chosen by the nodes they save, benchmarks/results/cost-notes.md; the
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
        wins = takes(c, win, led, power)
        if wins:
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


# ----------------------------------------------------------------------------- the search


@njit
def search(
    took, rem, rem_pts, leader, ntrick, led, win, tpts, tmask, forced, alpha, beta,
    seat_mask, seat_of, nplayers, winner_leads, leader0, rules,
    tt_key, tt_lo, tt_hi, tt_best, bits_mask, gen, moves, scores, node, stats,
):  # fmt: skip
    """The value of a position: ``took`` false, the declarer's future card points (the current
    trick's included); ``took`` true, 1 if the defenders can force the declarer to take a trick
    (the declarer avoids it), else 0.

    Points: fail-soft alpha-beta in the window (``alpha``, ``beta``); the declarer (seat 0)
    maximises, the defenders minimise; a node's result ``v <= alpha`` is an upper bound,
    ``v >= beta`` a lower bound, else exact. The root is searched with the full window and
    without table cut-offs, so its best card, written to ``stats[1]``, is truly best.

    Took: a boolean game; a node is decided by its first move that reaches the mover's goal,
    and every value is exact, so the table stores it as equal bounds, under keys of their own
    (bit 34). ``rem_pts``, ``tpts``, ``alpha`` and ``beta`` do not matter (the points' fields
    of the nodes are kept up but not read).

    Both: the same nodes, moves and tricks (one search, so one skeleton); ``stats[0]`` counts
    the nodes; ``forced >= 0`` fixes the root's card. ``rules`` is the game's rule tables,
    :attr:`~qcards.skat.rules.rule_tables.RuleTables.packed`.
    """
    power, eff, value, suit_mask, order, order_len = rules
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
            probe = ntrick == 0 and not (sp == 0 and forced >= 0)
            hint = -1
            key = np.int64(-1)
            slot = np.int64(0)
            if took:
                if ntrick == 0 and (rem & seat_mask[0]) == 0:
                    vret = np.int64(0)  # the declarer has no card left: it takes no more tricks
                    returning = True
                elif probe:
                    key = rem | (leader << 32) | (np.int64(1) << 34) | (gen << 35)
                    slot = _tt_index(key, bits_mask)
                    if tt_key[slot] == key:
                        vret = np.int64(tt_lo[slot])
                        returning = True
            else:
                alpha = node[sp, _ALPHA]
                beta = node[sp, _BETA]
                upper = node[sp, _TPTS] + node[sp, _PTS]
                if upper <= alpha:
                    vret = upper
                    returning = True
                elif beta <= 0:
                    vret = np.int64(0)
                    returning = True
                elif probe:
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
                mover = seat_to_move(leader, ntrick, nplayers)
                node[sp, _KEY] = key
                node[sp, _SLOT] = slot
                if took:
                    node[sp, _BEST] = 1 if mover == 0 else 0
                else:
                    node[sp, _ALPHA] = alpha
                    node[sp, _BETA] = beta
                    node[sp, _ALPHA0] = alpha
                    node[sp, _BETA0] = beta
                    node[sp, _BEST] = -INF if mover == 0 else INF
                    node[sp, _BESTC] = -1
                node[sp, _IDX] = 0
                if sp == 0 and forced >= 0:
                    moves[0, 0] = forced
                    node[0, _COUNT] = 1
                else:
                    suit_led = node[sp, _LED] if ntrick > 0 else LEADING
                    legal = legal_mask(rem & seat_mask[mover], suit_led, suit_mask)
                    node[sp, _COUNT] = _ordered_moves(
                        rem, legal, node[sp, _TMASK], mover, ntrick, nplayers,
                        node[sp, _LED], node[sp, _WIN], took, hint, seat_of, rules,
                        moves[sp], scores[sp],
                    )  # fmt: skip
        if returning:
            returning = False
            if sp == 0:
                return vret
            sp -= 1
            declarer = seat_to_move(node[sp, _LEADER], node[sp, _NTRICK], nplayers) == 0
            if took:
                if vret == (0 if declarer else 1):  # the mover's goal: no need to look further
                    node[sp, _BEST] = vret
                    node[sp, _IDX] = node[sp, _COUNT]
            else:
                v = vret + node[sp, _GAIN]
                if declarer:
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
        if node[sp, _IDX] >= node[sp, _COUNT] or (not took and node[sp, _ALPHA] >= node[sp, _BETA]):
            best = node[sp, _BEST]
            key = node[sp, _KEY]
            if key >= 0:
                slot = node[sp, _SLOT]
                if took:
                    lo = best
                    hi = best
                    best_card = np.int64(-1)
                else:
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
                    best_card = node[sp, _BESTC]
                tt_key[slot] = key
                tt_lo[slot] = lo
                tt_hi[slot] = hi
                tt_best[slot] = best_card
            if sp == 0 and not took:
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
            if takes(c, nwin, nled, power):
                nwin = c
        child = sp + 1
        node[child, _REM] = nrem
        node[child, _PTS] = node[sp, _PTS] - value[c]
        if ntrick + 1 == nplayers:
            wseat = seat_of[nwin]
            gained = ntp if wseat == 0 else 0
            node[sp, _GAIN] = gained
            # decided: the last trick (its points come straight back), or, for took, a trick
            # the declarer takes
            if nrem == 0 or (took and wseat == 0):
                sp = child
                vret = np.int64(1 if took and wseat == 0 else 0)
                returning = True
                continue
            node[child, _LEADER] = next_lead(wseat, winner_leads, leader0)
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
