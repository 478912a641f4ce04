"""One trick of the fast referee's search (:mod:`qcards.skat.solvers.fast_referee.kernel`): the
moves of a seat as classes of equal cards (:func:`move_classes`), the status of the win after a
trick (:func:`child_status`), what a completed trick brings its frame (:func:`contribution`), how a
move class's values enter its level (:func:`deliver`: summed in the random model, folded by max
or min in the adversarial one), and the last two tricks played out rather than memoized
(:func:`endgame`).
"""

from __future__ import annotations

import numpy as np

from qcards.skat.compiled.jit import njit
from qcards.skat.rules.table_kernel import legal_mask, takes
from qcards.skat.rules.turns_kernel import next_lead, seat_to_move
from qcards.skat.solvers.fast_referee.memo import C_HI, C_LO, P_HI, P_LO, W_HI, W_LO, add128, mul128

DEBRUIJN = np.array(
    [0, 1, 28, 2, 29, 14, 24, 3, 30, 22, 20, 15, 25, 17, 4, 8,
     31, 27, 13, 23, 21, 19, 16, 7, 26, 12, 18, 6, 11, 5, 10, 9],
    dtype=np.int64,
)  # fmt: skip
"""The de Bruijn sequence's table of :func:`_bit_index`."""


@njit
def _bit_index(bit, debruijn):
    """Index of the single set bit of a card mask (bits 0..31)."""
    return debruijn[((bit * 0x077CB531) & 0xFFFFFFFF) >> 27]


@njit
def move_classes(moves, mult, alive, legal, order, order_len, value, suit_mask):
    """The legal cards as classes of equal moves (strongest first in each suit), their
    multiplicities in ``mult``; returns (classes, legal cards)."""
    count = 0
    total = 0
    for s in range(5):
        if (legal & suit_mask[s]) == 0:
            continue
        prev = False
        prev_value = -1
        for j in range(order_len[s]):
            c = order[s, j]
            if ((alive >> c) & 1) == 0:
                continue  # played or in the Skat: does not separate equal cards
            if (legal >> c) & 1:
                if prev and value[c] == prev_value:
                    mult[count - 1] += 1
                else:
                    moves[count] = c
                    mult[count] = 1
                    count += 1
                prev = True
                prev_value = value[c]
                total += 1
            else:
                prev = False
    return count, total


@njit
def deliver(acc, f, q, first, maximise, adversarial, m, x):
    """Add (random) or fold by max/min (adversarial) the values ``x`` of one move class of
    multiplicity ``m`` into level ``q`` of frame ``f``; paths always add up."""
    mm = np.uint64(m)
    if adversarial:
        if first:
            acc[f, q, P_LO] = x[P_LO]
            acc[f, q, W_LO] = x[W_LO]
        elif maximise:  # the declarer: most points, fewest forced tricks
            acc[f, q, P_LO] = max(acc[f, q, P_LO], x[P_LO])
            acc[f, q, W_LO] = min(acc[f, q, W_LO], x[W_LO])
        else:
            acc[f, q, P_LO] = min(acc[f, q, P_LO], x[P_LO])
            acc[f, q, W_LO] = max(acc[f, q, W_LO], x[W_LO])
    else:
        hi, lo = mul128(x[W_HI], x[W_LO], mm)
        acc[f, q, W_HI], acc[f, q, W_LO] = add128(acc[f, q, W_HI], acc[f, q, W_LO], hi, lo)
        hi, lo = mul128(x[P_HI], x[P_LO], mm)
        acc[f, q, P_HI], acc[f, q, P_LO] = add128(acc[f, q, P_HI], acc[f, q, P_LO], hi, lo)
    hi, lo = mul128(x[C_HI], x[C_LO], mm)
    acc[f, q, C_HI], acc[f, q, C_LO] = add128(acc[f, q, C_HI], acc[f, q, C_LO], hi, lo)


@njit
def child_status(st, gain, declarer_took, rem, ch, is_null, adversarial):
    """(status, decided win) of the position after a trick.

    Status: point games the points still needed to win (0: decided), null games 1 while the
    declarer has taken no trick (0: decided); always 0 in the adversarial model. Decided win:
    1 won, 0 lost, -1 not decided (the child's own value counts)."""
    if adversarial or st == 0:
        return 0, 0
    if is_null:
        if declarer_took:
            return 0, 0
        if ch == 0:
            return 0, 1
        return 1, -1
    need = st - gain
    if need <= 0:
        return 0, 1
    if need > rem:
        return 0, 0
    return need, -1


@njit
def contribution(x, v, gain, dec, declarer_took, ch, dhi, dlo, adversarial):
    """Into ``x``: what a completed trick brings its frame, from the child's values ``v``."""
    if adversarial:
        x[P_LO] = np.uint64(gain) + v[P_LO]
        x[W_LO] = np.uint64(1) if declarer_took else v[W_LO]
        x[W_HI] = np.uint64(0)
        x[P_HI] = np.uint64(0)
    else:
        if dec == 1:
            x[W_HI] = dhi[ch]
            x[W_LO] = dlo[ch]
        elif dec == 0:
            x[W_HI] = np.uint64(0)
            x[W_LO] = np.uint64(0)
        else:
            x[W_HI] = v[W_HI]
            x[W_LO] = v[W_LO]
        hi, lo = mul128(dhi[ch], dlo[ch], np.uint64(gain))
        x[P_HI], x[P_LO] = add128(hi, lo, v[P_HI], v[P_LO])
    x[C_HI] = v[C_HI]
    x[C_LO] = v[C_LO]


@njit
def _last_trick(alive, lead, n, seat_mask, seat_of, eff, power, value, debruijn):
    """The last trick, one card a hand: (its points, whether the declarer takes it)."""
    win = -1
    points = 0
    led = 0
    for q in range(n):
        c = _bit_index(alive & seat_mask[seat_to_move(lead, q, n)], debruijn)
        points += value[c]
        if q == 0:
            led = eff[c]
            win = c
        elif takes(c, win, led, power):
            win = c
    return points, seat_of[win] == 0


@njit
def _two_cards(mask, pick, p, k, debruijn):
    """The (one or two) cards of ``mask`` into ``pick[p]``, their number into ``k[p]``."""
    low = mask & -mask
    pick[p, 0] = _bit_index(low, debruijn)
    rest = mask ^ low
    if rest:
        pick[p, 1] = _bit_index(rest & -rest, debruijn)
        k[p] = 2
    else:
        k[p] = 1


@njit
def endgame(
    v, alive, rem, st, dec, h, n, lead, winner_leads, leader0, seat_mask, seat_of, is_null,
    adversarial, eff, power, value, suit_mask, debruijn, leaf, pick, k,
):  # fmt: skip
    """Into ``v``: the values of a position with ``h`` <= 2 cards a hand, played out.

    Two cards a hand: every leader's card, then every combination of the followers' legal
    cards (at most two each), as bits of an index; the followers' levels fold from the last
    (sums weighted by 2/k, or max/min), then the leader's. D(2) = 2^n, D(1) = D(0) = 1.
    """
    v[:] = 0
    if h == 0:
        v[C_LO] = 1
        return
    if h == 1:
        points, took = _last_trick(alive, lead, n, seat_mask, seat_of, eff, power, value, debruijn)
        gain = points if took else 0
        v[P_LO] = np.uint64(gain)
        v[C_LO] = 1
        if adversarial:
            v[W_LO] = np.uint64(1) if took else np.uint64(0)
        elif dec == -1:
            v[W_LO] = np.uint64(child_status(st, gain, took, rem - points, 0, is_null, False)[1])
        return
    # h == 2; leaf[a, combo] = (win or forced trick, points, paths) for leader's card a;
    # pick[p] the legal cards of position p (k[p] of them)
    lead_hand = alive & seat_mask[lead]
    _two_cards(lead_hand, pick, 0, k, debruijn)
    for a in range(2):
        c0 = pick[0, a]
        led = eff[c0]
        for p in range(1, n):
            hand = alive & seat_mask[seat_to_move(lead, p, n)]
            _two_cards(legal_mask(hand, led, suit_mask), pick, p, k, debruijn)
        for combo in range(1 << (n - 1)):
            valid = True
            win = c0
            points = value[c0]
            tmask = np.int64(1) << c0
            weight = 1
            for p in range(1, n):
                b = (combo >> (p - 1)) & 1
                if b >= k[p]:
                    valid = False
                    break
                c = pick[p, b]
                points += value[c]
                tmask |= np.int64(1) << c
                if takes(c, win, led, power):
                    win = c
                weight *= 2 // k[p]
            if not valid:
                leaf[a, combo, 2] = 0
                continue
            took = seat_of[win] == 0
            gain = points if took else 0
            wseat = seat_of[win]
            rest = alive & ~tmask
            points2, took2 = _last_trick(
                rest, next_lead(wseat, winner_leads, leader0), n, seat_mask, seat_of, eff, power,
                value, debruijn,
            )  # fmt: skip
            gain2 = points2 if took2 else 0
            leaf[a, combo, 2] = 1
            if adversarial:
                leaf[a, combo, 0] = 1 if (took or took2) else 0
                leaf[a, combo, 1] = gain + gain2
            else:
                won = 0
                if dec == -1:
                    st1, won = child_status(st, gain, took, rem - points, 1, is_null, False)
                    if won == -1:
                        won = child_status(
                            st1, gain2, took2, rem - points - points2, 0, is_null, False
                        )[1]
                leaf[a, combo, 0] = weight * won
                leaf[a, combo, 1] = weight * (gain + gain2)
        # fold the followers, the last first
        for p in range(n - 1, 0, -1):
            maximise = seat_to_move(lead, p, n) == 0
            half = 1 << (p - 1)
            for combo in range(half):
                if k[p] < 2:
                    continue
                other = combo | half
                if adversarial:
                    if maximise:
                        leaf[a, combo, 0] = min(leaf[a, combo, 0], leaf[a, other, 0])
                        leaf[a, combo, 1] = max(leaf[a, combo, 1], leaf[a, other, 1])
                    else:
                        leaf[a, combo, 0] = max(leaf[a, combo, 0], leaf[a, other, 0])
                        leaf[a, combo, 1] = min(leaf[a, combo, 1], leaf[a, other, 1])
                else:
                    leaf[a, combo, 0] += leaf[a, other, 0]
                    leaf[a, combo, 1] += leaf[a, other, 1]
                leaf[a, combo, 2] += leaf[a, other, 2]
    if adversarial:
        if lead == 0:
            v[W_LO] = np.uint64(min(leaf[0, 0, 0], leaf[1, 0, 0]))
            v[P_LO] = np.uint64(max(leaf[0, 0, 1], leaf[1, 0, 1]))
        else:
            v[W_LO] = np.uint64(max(leaf[0, 0, 0], leaf[1, 0, 0]))
            v[P_LO] = np.uint64(min(leaf[0, 0, 1], leaf[1, 0, 1]))
    else:
        v[W_LO] = np.uint64(leaf[0, 0, 0] + leaf[1, 0, 0])
        v[P_LO] = np.uint64(leaf[0, 0, 1] + leaf[1, 0, 1])
    v[C_LO] = np.uint64(leaf[0, 0, 2] + leaf[1, 0, 2])
