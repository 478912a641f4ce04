"""The compiled core of :mod:`qcards.skat.fast_referee`: a memoized depth-first search over the
positions of a game at trick boundaries, for both models of play.

Everything here is numba-compiled (``@njit(cache=True)``, the decorator of
:mod:`qcards.skat.double_dummy`, whose rule tables it reads) and iterative with an explicit
stack (numba's on-disk cache breaks recursive functions). The module is private: the exact
semantics, the arithmetic and the measurements are in :mod:`qcards.skat.fast_referee`.

Layout of a search:

* A *frame* is a position at a trick boundary (the cards each seat still holds, as one mask of
  live cards and the deal's fixed owner of each card, the leader, and the status of the win).
  Inside a frame the trick is enumerated position by position, an odometer over the legal
  cards of each seat; a completed trick leads to a child frame, looked up in the memo first.
* Equal moves: cards of one hand, one effective suit and equal points with no live card
  between them (the cards still held anywhere or played to the current trick) lead to the same
  future; the trick enumeration plays one of them with a multiplicity.
* Memo keys are canonical (:func:`_canon`): two positions whose live cards, suit by suit in
  order of strength, have the same owners and the same card points are the same game, whatever
  the printed ranks; both map to one key.
* Random model, exact: a frame with ``h`` cards in each hand stores integer numerators over
  the fixed denominator ``D(h)`` (:func:`qcards.skat.fast_referee.denominators`), held as two
  unsigned 64-bit words (:func:`_add`, :func:`_mul`); every multiplier is a small integer.
* Adversarial model: the same frames with the declarer maximising and the defenders minimising
  the future points (and, in null games, the tricks the declarer is forced to take).
"""

from __future__ import annotations

import numpy as np

from qcards.skat.double_dummy import _njit

MAX_FRAMES = 20
"""Rows of the frame stack: one per trick (hands hold at most 16 cards)."""
MAX_SEATS = 4
MAX_MOVES = 16

# value columns of the accumulators: numerators as (high, low) words
W_HI, W_LO, P_HI, P_LO, C_HI, C_LO = 0, 1, 2, 3, 4, 5
VALUES = 6
KEYS = 2
"""A row of the memo table: the two key words, then the :data:`VALUES` value words (64 bytes,
one cache line: a lookup costs one memory access)."""
EMPTY = np.uint64(2**64 - 1)
"""The first key word of an empty row (a key's first word is below 2^41)."""

FULL = -1
"""Return code: the memo table is full (grow it and call again from ``done[0]``)."""
OVER_BUDGET = -2
"""Return code: more frames than the caller's budget allows."""

_DEBRUIJN = np.array(
    [0, 1, 28, 2, 29, 14, 24, 3, 30, 22, 20, 15, 25, 17, 4, 8,
     31, 27, 13, 23, 21, 19, 16, 7, 26, 12, 18, 6, 11, 5, 10, 9],
    dtype=np.int64,
)  # fmt: skip


@_njit
def _bit_index(bit, debruijn):
    """Index of the single set bit of a card mask (bits 0..31)."""
    return debruijn[((bit * 0x077CB531) & 0xFFFFFFFF) >> 27]


@_njit
def _add(ahi, alo, bhi, blo):
    """(ahi, alo) + (bhi, blo), 128-bit unsigned."""
    lo = alo + blo
    carry = np.uint64(1) if lo < alo else np.uint64(0)
    return ahi + bhi + carry, lo


@_njit
def _mul(hi, lo, m):
    """(hi, lo) * m for an unsigned ``m`` below 2^32, 128-bit unsigned."""
    mask = np.uint64(0xFFFFFFFF)
    p0 = (lo & mask) * m
    p1 = (lo >> np.uint64(32)) * m
    low = p0 + ((p1 & mask) << np.uint64(32))
    carry = np.uint64(1) if low < p0 else np.uint64(0)
    return hi * m + (p1 >> np.uint64(32)) + carry, low


@_njit
def _canon(alive, seat_of, weak, weak_len, value, suit_mask):
    """The canonical key words of the live cards ``alive`` with owners ``seat_of``.

    Suit by suit, the live cards are renamed, weakest first, to the weakest card of their suit
    with the same points above the previous renamed one (a greedy that depends only on the
    sequence of points): positions whose live cards have the same owners and points in the same
    order map to the same renamed mask. Returns (renamed mask, owners two bits a card in the
    renamed order)."""
    cal = np.int64(0)
    owners = np.int64(0)
    for s in range(5):
        rest = alive & suit_mask[s]
        q = 0
        k = 0
        while rest != 0:
            c = weak[s, k]
            k += 1
            if (rest >> c) & 1:
                rest ^= np.int64(1) << c
                v = value[c]
                while value[weak[s, q]] != v:
                    q += 1
                cal |= np.int64(1) << weak[s, q]
                owners = (owners << 2) | seat_of[c]
                q += 1
    return cal, owners


_MIX0 = 0x9E3779B97F4A7C15 - (1 << 64)  # odd multipliers of the hash, as signed 64-bit
_MIX1 = 0x2545F4914F6CDD1D


@_njit
def _slot(k0, k1, mask):
    h = (k0 * _MIX0) ^ (k1 * _MIX1)
    h ^= (h >> 29) & 0x7FFFFFFFF
    return h & mask


@_njit
def _find(table, k0, k1):
    """The row of key (k0, k1): where it is, or the empty row where it would go."""
    mask = table.shape[0] - 1
    i = _slot(k0, k1, mask)
    u0 = np.uint64(k0)
    u1 = np.uint64(k1)
    while True:
        if table[i, 0] == EMPTY or (table[i, 0] == u0 and table[i, 1] == u1):
            return i
        i = (i + 1) & mask


@_njit
def _lookup(table, alive, lead, st, seat_of, weak, weak_len, value, suit_mask, stats, dest):
    """The key of a position; on a hit its values are copied into ``dest``. Returns the key's
    two words and whether it was found."""
    k0, k1 = _canon(alive, seat_of, weak, weak_len, value, suit_mask)
    k0 |= (lead << 32) | (np.int64(st) << 34)
    i = _find(table, k0, k1)
    if table[i, 0] == EMPTY:
        return k0, k1, False
    stats[2] += 1
    for q in range(VALUES):
        dest[q] = table[i, KEYS + q]
    return k0, k1, True


@_njit
def _decided(values, dec, h, dhi, dlo, adversarial):
    """A start position whose win is already decided: the win's numerator is D(h) or 0."""
    if dec >= 0 and not adversarial:
        values[W_HI] = dhi[h] if dec == 1 else np.uint64(0)
        values[W_LO] = dlo[h] if dec == 1 else np.uint64(0)


@_njit
def _popcount(x):
    x = x - ((x >> 1) & 0x5555555555555555)
    x = (x & 0x3333333333333333) + ((x >> 2) & 0x3333333333333333)
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0F
    return (x * 0x0101010101010101) >> 56


@_njit
def _cards(row0):
    """The live cards of a stored position (its key's first word holds their renamed mask)."""
    return _popcount(np.int64(row0 & np.uint64(0xFFFFFFFF)))


@_njit
def rehash(table, new):
    """Copy every entry of a table into a larger empty one."""
    for i in range(table.shape[0]):
        if table[i, 0] != EMPTY:
            j = _find(new, np.int64(table[i, 0]), np.int64(table[i, 1]))
            for q in range(KEYS + VALUES):
                new[j, q] = table[i, q]


@_njit
def _prune(table, row):
    """Drop the positions with the fewest live cards until at most a third of the table is
    left, in place: the deletions, then every survivor moved to where a lookup finds it (from
    an empty slot on, so that no run of entries wraps around the start). Returns how many are
    left."""
    capacity = table.shape[0]
    counts = np.zeros(33, dtype=np.int64)
    for i in range(capacity):
        if table[i, 0] != EMPTY:
            counts[_cards(table[i, 0])] += 1
    kept = counts.sum()
    min_cards = 0
    while kept > capacity // 3:
        kept -= counts[min_cards]
        min_cards += 1
    start = -1
    for i in range(capacity):
        if table[i, 0] != EMPTY and _cards(table[i, 0]) < min_cards:
            table[i, 0] = EMPTY
        if table[i, 0] == EMPTY and start < 0:
            start = i
    mask = capacity - 1
    for j in range(capacity):
        i = (start + j) & mask
        if table[i, 0] != EMPTY:
            for q in range(KEYS + VALUES):
                row[q] = table[i, q]
            table[i, 0] = EMPTY
            k = _find(table, np.int64(row[0]), np.int64(row[1]))
            for q in range(KEYS + VALUES):
                table[k, q] = row[q]
    return kept


@_njit
def _moves(moves, mult, alive, legal, order, order_len, value, suit_mask):
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


@_njit
def _deliver(acc, f, q, first, maximise, adversarial, m, x):
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
        hi, lo = _mul(x[W_HI], x[W_LO], mm)
        acc[f, q, W_HI], acc[f, q, W_LO] = _add(acc[f, q, W_HI], acc[f, q, W_LO], hi, lo)
        hi, lo = _mul(x[P_HI], x[P_LO], mm)
        acc[f, q, P_HI], acc[f, q, P_LO] = _add(acc[f, q, P_HI], acc[f, q, P_LO], hi, lo)
    hi, lo = _mul(x[C_HI], x[C_LO], mm)
    acc[f, q, C_HI], acc[f, q, C_LO] = _add(acc[f, q, C_HI], acc[f, q, C_LO], hi, lo)


@_njit
def _child_status(st, gain, declarer_took, rem, ch, is_null, adversarial):
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


@_njit
def _contribution(x, v, gain, dec, declarer_took, ch, dhi, dlo, adversarial):
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
        hi, lo = _mul(dhi[ch], dlo[ch], np.uint64(gain))
        x[P_HI], x[P_LO] = _add(hi, lo, v[P_HI], v[P_LO])
    x[C_HI] = v[C_HI]
    x[C_LO] = v[C_LO]


@_njit
def _last_trick(alive, lead, n, seat_mask, seat_of, eff, power, value, debruijn):
    """The last trick, one card a hand: (its points, whether the declarer takes it)."""
    win = -1
    points = 0
    led = 0
    for q in range(n):
        c = _bit_index(alive & seat_mask[(lead + q) % n], debruijn)
        points += value[c]
        if q == 0:
            led = eff[c]
            win = c
        elif power[led, c] > power[led, win]:
            win = c
    return points, seat_of[win] == 0


@_njit
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


@_njit
def _endgame(
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
            v[W_LO] = np.uint64(_child_status(st, gain, took, rem - points, 0, is_null, False)[1])
        return
    # h == 2; leaf[a, combo] = (win or forced trick, points, paths) for leader's card a;
    # pick[p] the legal cards of position p (k[p] of them)
    lead_hand = alive & seat_mask[lead]
    _two_cards(lead_hand, pick, 0, k, debruijn)
    for a in range(2):
        c0 = pick[0, a]
        led = eff[c0]
        for p in range(1, n):
            hand = alive & seat_mask[(lead + p) % n]
            follow = hand & suit_mask[led]
            _two_cards(follow if follow != 0 else hand, pick, p, k, debruijn)
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
                if power[led, c] > power[led, win]:
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
                rest, wseat if winner_leads else leader0, n, seat_mask, seat_of, eff, power,
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
                    st1, won = _child_status(st, gain, took, rem - points, 1, is_null, False)
                    if won == -1:
                        won = _child_status(
                            st1, gain2, took2, rem - points - points2, 0, is_null, False
                        )[1]
                leaf[a, combo, 0] = weight * won
                leaf[a, combo, 1] = weight * (gain + gain2)
        # fold the followers, the last first
        for p in range(n - 1, 0, -1):
            maximise = (lead + p) % n == 0
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


@_njit
def solve_deals(
    deal_seat, deal_points, out, start, n, leader0, winner_leads, forced, is_null, goal,
    adversarial, power, eff, value, suit_mask, order, order_len, weak, weak_len, dhi, dlo, lcm,
    table, stats, budget, inline, can_grow,
):  # fmt: skip
    """Solve the deals ``start..`` of ``deal_seat`` (a row of seat masks each) into ``out``.

    ``out[d]``: the numerators of the win and of the future points over ``D(h)`` and the play
    paths (random model), or the minimax future points, forced tricks and paths (adversarial).
    ``inline``: positions with at most this many cards a hand (1 or 2) are played out
    (:func:`_endgame`) instead of memoized. ``goal``: the target in point games; in null games
    the tricks the declarer took before.
    ``stats``: [entries in the memo, frames expanded, memo hits, the deal to resume from,
    entries ever stored, prunes]. When the memo is two thirds full it returns :data:`FULL`
    if ``can_grow`` (grow it and call again from ``stats[3]``), else it drops its smallest
    positions (:func:`_prune`) and goes on. Returns the number of deals
    done, :data:`FULL` or :data:`OVER_BUDGET` (more than ``budget`` frames were expanded).
    """
    F, S, M = MAX_FRAMES, MAX_SEATS, MAX_MOVES
    f_alive = np.zeros(F, dtype=np.int64)
    f_rem = np.zeros(F, dtype=np.int64)
    f_leader = np.zeros(F, dtype=np.int64)
    f_status = np.zeros(F, dtype=np.int64)
    f_h = np.zeros(F, dtype=np.int64)
    f_key0 = np.zeros(F, dtype=np.int64)
    f_key1 = np.zeros(F, dtype=np.int64)
    f_pos = np.zeros(F, dtype=np.int64)
    f_led = np.zeros(F, dtype=np.int64)
    f_gain = np.zeros(F, dtype=np.int64)  # of the trick whose child is being solved
    f_dec = np.zeros(F, dtype=np.int64)
    f_took = np.zeros(F, dtype=np.bool_)
    f_moves = np.zeros((F, S, M), dtype=np.int64)
    f_mult = np.zeros((F, S, M), dtype=np.int64)
    f_cnt = np.zeros((F, S), dtype=np.int64)
    f_k = np.zeros((F, S), dtype=np.int64)
    f_idx = np.zeros((F, S), dtype=np.int64)
    f_card = np.zeros((F, S), dtype=np.int64)
    f_win = np.zeros((F, S), dtype=np.int64)
    f_tpts = np.zeros((F, S), dtype=np.int64)
    acc = np.zeros((F, S, VALUES), dtype=np.uint64)
    v = np.zeros(VALUES, dtype=np.uint64)
    x = np.zeros(VALUES, dtype=np.uint64)
    seat_of = np.full(32, -1, dtype=np.int64)
    seat_mask = np.zeros(S, dtype=np.int64)
    leaf = np.zeros((2, 1 << (S - 1), 3), dtype=np.int64)
    pick = np.zeros((S, 2), dtype=np.int64)
    kk = np.zeros(S, dtype=np.int64)
    row = np.zeros(KEYS + VALUES, dtype=np.uint64)
    debruijn = _DEBRUIJN
    capacity = table.shape[0]
    limit = capacity - capacity // 3  # grow at two thirds full
    ndeals = deal_seat.shape[0]
    for d in range(start, ndeals):
        seat_of[:] = -1
        alive = np.int64(0)
        for s in range(n):
            seat_mask[s] = deal_seat[d, s]
            alive |= deal_seat[d, s]
            for c in range(32):
                if (deal_seat[d, s] >> c) & 1:
                    seat_of[c] = s
        h0 = 0
        for c in range(32):
            if (seat_mask[0] >> c) & 1:
                h0 += 1
        rem0 = np.int64(0)
        for c in range(32):
            if (alive >> c) & 1:
                rem0 += value[c]
        # the status of the win before the first card
        dec0 = 0
        st0 = 0
        if not adversarial:
            if is_null:
                st0 = 1 if goal == 0 else 0
                dec0 = -1 if st0 == 1 else 0
            else:
                need = goal - deal_points[d]
                if need <= 0:
                    dec0 = 1
                elif need > rem0:
                    dec0 = 0
                else:
                    st0 = need
                    dec0 = -1
        # the root frame
        sp = 0
        f_alive[0] = alive
        f_rem[0] = rem0
        f_leader[0] = leader0
        f_status[0] = st0
        f_h[0] = h0
        memo_root = forced < 0
        if memo_root:
            k0, k1, hit = _lookup(
                table, alive, leader0, st0, seat_of, weak, weak_len, value, suit_mask, stats,
                out[d],
            )  # fmt: skip
            if hit:
                _decided(out[d], dec0, h0, dhi, dlo, adversarial)
                continue
            f_key0[0] = k0
            f_key1[0] = k1
        # position 0 of the root
        if forced >= 0:
            f_moves[0, 0, 0] = forced
            f_mult[0, 0, 0] = 1
            f_cnt[0, 0] = 1
            f_k[0, 0] = 1
        else:
            hand = alive & seat_mask[leader0]
            f_cnt[0, 0], f_k[0, 0] = _moves(
                f_moves[0, 0], f_mult[0, 0], alive, hand, order, order_len, value, suit_mask
            )
        f_idx[0, 0] = 0
        f_pos[0] = 0
        acc[0, 0, :] = 0
        stats[1] += 1
        while True:
            p = f_pos[sp]
            if f_idx[sp, p] < f_cnt[sp, p]:
                c = f_moves[sp, p, f_idx[sp, p]]
                f_idx[sp, p] += 1
                if p == 0:
                    led = eff[c]
                    f_led[sp] = led
                    win = c
                    tpts = value[c]
                else:
                    led = f_led[sp]
                    win = f_win[sp, p - 1]
                    if power[led, c] > power[led, win]:
                        win = c
                    tpts = f_tpts[sp, p - 1] + value[c]
                f_card[sp, p] = c
                f_win[sp, p] = win
                f_tpts[sp, p] = tpts
                if p < n - 1:
                    seat = (f_leader[sp] + p + 1) % n
                    hand = f_alive[sp] & seat_mask[seat]
                    follow = hand & suit_mask[led]
                    legal = follow if follow != 0 else hand
                    f_cnt[sp, p + 1], f_k[sp, p + 1] = _moves(
                        f_moves[sp, p + 1], f_mult[sp, p + 1], f_alive[sp], legal, order,
                        order_len, value, suit_mask,
                    )  # fmt: skip
                    f_idx[sp, p + 1] = 0
                    f_pos[sp] = p + 1
                    acc[sp, p + 1, :] = 0
                    continue
                # the trick is complete
                tmask = np.int64(0)
                for q in range(n):
                    tmask |= np.int64(1) << f_card[sp, q]
                wseat = seat_of[win]
                took = wseat == 0
                gain = tpts if took else 0
                calive = f_alive[sp] & ~tmask
                crem = f_rem[sp] - tpts
                ch = f_h[sp] - 1
                nlead = wseat if winner_leads else leader0
                cst, dec = _child_status(f_status[sp], gain, took, crem, ch, is_null, adversarial)
                mult = f_mult[sp, p, f_idx[sp, p] - 1]
                maximise = (f_leader[sp] + p) % n == 0
                first = f_idx[sp, p] == 1
                if ch <= inline:  # the last tricks are played out, not memoized
                    _endgame(
                        v, calive, crem, cst, dec, ch, n, nlead, winner_leads, leader0,
                        seat_mask, seat_of, is_null, adversarial, eff, power, value, suit_mask,
                        debruijn, leaf, pick, kk,
                    )  # fmt: skip
                    _contribution(x, v, gain, dec, took, ch, dhi, dlo, adversarial)
                    _deliver(acc, sp, p, first, maximise, adversarial, mult, x)
                    continue
                k0, k1, hit = _lookup(
                    table, calive, nlead, cst, seat_of, weak, weak_len, value, suit_mask, stats, v
                )
                if hit:
                    _contribution(x, v, gain, dec, took, ch, dhi, dlo, adversarial)
                    _deliver(acc, sp, p, first, maximise, adversarial, mult, x)
                    continue
                if stats[0] + sp + 1 >= limit:
                    if can_grow:
                        stats[3] = d
                        return FULL
                    stats[0] = _prune(table, row)
                    stats[5] += 1
                if stats[1] >= budget:
                    stats[3] = d
                    return OVER_BUDGET
                stats[1] += 1
                f_gain[sp] = gain
                f_dec[sp] = dec
                f_took[sp] = took
                sp += 1
                f_alive[sp] = calive
                f_rem[sp] = crem
                f_leader[sp] = nlead
                f_status[sp] = cst
                f_h[sp] = ch
                f_key0[sp] = k0
                f_key1[sp] = k1
                hand = calive & seat_mask[nlead]
                f_cnt[sp, 0], f_k[sp, 0] = _moves(
                    f_moves[sp, 0], f_mult[sp, 0], calive, hand, order, order_len, value, suit_mask
                )
                f_idx[sp, 0] = 0
                f_pos[sp] = 0
                acc[sp, 0, :] = 0
                continue
            # position p is exhausted
            h = f_h[sp]
            if p > 0:
                # fold level p into the move being played at level p - 1
                if adversarial:
                    for q in range(VALUES):
                        x[q] = acc[sp, p, q]
                else:
                    m = np.uint64(lcm[h] // f_k[sp, p])
                    x[W_HI], x[W_LO] = _mul(acc[sp, p, W_HI], acc[sp, p, W_LO], m)
                    x[P_HI], x[P_LO] = _mul(acc[sp, p, P_HI], acc[sp, p, P_LO], m)
                    x[C_HI] = acc[sp, p, C_HI]
                    x[C_LO] = acc[sp, p, C_LO]
                mult = f_mult[sp, p - 1, f_idx[sp, p - 1] - 1]
                maximise = (f_leader[sp] + p - 1) % n == 0
                first = f_idx[sp, p - 1] == 1
                _deliver(acc, sp, p - 1, first, maximise, adversarial, mult, x)
                f_pos[sp] = p - 1
                continue
            # the frame is solved
            if adversarial:
                for q in range(VALUES):
                    v[q] = acc[sp, 0, q]
            else:
                m = np.uint64(h // f_k[sp, 0])
                v[W_HI], v[W_LO] = _mul(acc[sp, 0, W_HI], acc[sp, 0, W_LO], m)
                v[P_HI], v[P_LO] = _mul(acc[sp, 0, P_HI], acc[sp, 0, P_LO], m)
                v[C_HI] = acc[sp, 0, C_HI]
                v[C_LO] = acc[sp, 0, C_LO]
            if sp > 0 or memo_root:
                i = _find(table, f_key0[sp], f_key1[sp])
                table[i, 0] = np.uint64(f_key0[sp])
                table[i, 1] = np.uint64(f_key1[sp])
                for q in range(VALUES):
                    table[i, KEYS + q] = v[q]
                stats[0] += 1
                stats[4] += 1
            if sp == 0:
                for q in range(VALUES):
                    out[d, q] = v[q]
                _decided(out[d], dec0, h0, dhi, dlo, adversarial)
                break
            ch = f_h[sp]
            sp -= 1
            p = n - 1
            _contribution(x, v, f_gain[sp], f_dec[sp], f_took[sp], ch, dhi, dlo, adversarial)
            mult = f_mult[sp, p, f_idx[sp, p] - 1]
            maximise = (f_leader[sp] + p) % n == 0
            first = f_idx[sp, p] == 1
            _deliver(acc, sp, p, first, maximise, adversarial, mult, x)
    stats[3] = ndeals
    return ndeals
