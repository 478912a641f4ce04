"""The compiled core of :mod:`qcards.skat.solvers.fast_referee`: a memoized depth-first search over
the positions of a game at trick boundaries, for both models of play.

This module holds the search itself (:func:`solve_deals`: the frame stack, the enumeration of
each trick, the memo's use); a trick's pieces are :mod:`qcards.skat.solvers.fast_referee.tricks`,
the values and the memo table :mod:`qcards.skat.solvers.fast_referee.memo`, the rules the arrays of
:mod:`qcards.skat.rules.rule_tables`. Everything is numba-compiled
(:func:`qcards.skat.compiled.jit.njit`) and iterative with an explicit stack (numba's on-disk cache
breaks recursive functions). The modules are private: the exact semantics, the arithmetic and the
measurements are in
:mod:`qcards.skat.solvers.fast_referee`.

Layout of a search:

* A *frame* is a position at a trick boundary (the cards each seat still holds, as one mask of
  live cards and the deal's fixed owner of each card, the leader, and the status of the win).
  Inside a frame the trick is enumerated position by position, an odometer over the legal
  cards of each seat; a completed trick leads to a child frame, looked up in the memo first.
* Equal moves: cards of one hand, one effective suit and equal points with no live card
  between them (the cards still held anywhere or played to the current trick) lead to the same
  future; the trick enumeration plays one of them with a multiplicity.
* Memo keys are canonical (:func:`~qcards.skat.solvers.fast_referee.memo.canonical_key`): two
  positions whose live cards, suit by suit in order of strength, have the same owners and the
  same card points are the same game, whatever the printed ranks; both map to one key.
* Random model, exact: a frame with ``h`` cards in each hand stores integer numerators over
  the fixed denominator ``D(h)`` (:func:`qcards.skat.solvers.referee_cost.denominators`), held as
  two unsigned 64-bit words (:func:`~qcards.skat.solvers.fast_referee.memo.mul128` and ``add128``);
  every multiplier is a small integer.
* Adversarial model: the same frames with the declarer maximising and the defenders minimising
  the future points (and, in null games, the tricks the declarer is forced to take).
"""

from __future__ import annotations

import numpy as np

from qcards.skat.compiled.jit import njit
from qcards.skat.rules.table_kernel import legal_mask, takes
from qcards.skat.rules.turns_kernel import next_lead, seat_to_move
from qcards.skat.solvers.fast_referee import memo, tricks
from qcards.skat.solvers.fast_referee.memo import C_HI, C_LO, KEYS, P_HI, P_LO, VALUES, W_HI, W_LO

MAX_FRAMES = 20
"""Rows of the frame stack: one per trick (hands hold at most 16 cards)."""
MAX_SEATS = 4
MAX_MOVES = 16

FULL = -1
"""Return code: the memo table is full (grow it and call again from ``done[0]``)."""
OVER_BUDGET = -2
"""Return code: more frames than the caller's budget allows."""


@njit
def _decided(values, dec, h, dhi, dlo, adversarial):
    """A start position whose win is already decided: the win's numerator is D(h) or 0."""
    if dec >= 0 and not adversarial:
        values[W_HI] = dhi[h] if dec == 1 else np.uint64(0)
        values[W_LO] = dlo[h] if dec == 1 else np.uint64(0)


@njit
def solve_deals(
    deal_seat, deal_points, out, start, n, leader0, winner_leads, forced, is_null, goal,
    adversarial, rules, weak, weak_len, dhi, dlo, lcm, table, stats, budget, inline, can_grow,
):  # fmt: skip
    """Solve the deals ``start..`` of ``deal_seat`` (a row of seat masks each) into ``out``.

    ``out[d]``: the numerators of the win and of the future points over ``D(h)`` and the play
    paths (random model), or the minimax future points, forced tricks and paths (adversarial).
    ``inline``: positions with at most this many cards a hand (1 or 2) are played out
    (:func:`~qcards.skat.solvers.fast_referee.tricks.endgame`) instead of memoized. ``goal``: the
    target in point games; in null games the tricks the declarer took before.
    ``stats``: [entries in the memo, frames expanded, memo hits, the deal to resume from,
    entries ever stored, prunes]. When the memo is two thirds full it returns :data:`FULL`
    if ``can_grow`` (grow it and call again from ``stats[3]``), else it drops its smallest
    positions (:func:`~qcards.skat.solvers.fast_referee.memo.prune`) and goes on. Returns the number
    of deals done, :data:`FULL` or :data:`OVER_BUDGET` (more than ``budget`` frames were expanded).
    """
    power, eff, value, suit_mask, order, order_len = rules
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
    debruijn = tricks.DEBRUIJN
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
            k0, k1, hit = memo.lookup(
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
            f_cnt[0, 0], f_k[0, 0] = tricks.move_classes(
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
                    if takes(c, win, led, power):
                        win = c
                    tpts = f_tpts[sp, p - 1] + value[c]
                f_card[sp, p] = c
                f_win[sp, p] = win
                f_tpts[sp, p] = tpts
                if p < n - 1:
                    seat = seat_to_move(f_leader[sp], p + 1, n)
                    hand = f_alive[sp] & seat_mask[seat]
                    legal = legal_mask(hand, led, suit_mask)
                    f_cnt[sp, p + 1], f_k[sp, p + 1] = tricks.move_classes(
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
                nlead = next_lead(wseat, winner_leads, leader0)
                cst, dec = tricks.child_status(
                    f_status[sp], gain, took, crem, ch, is_null, adversarial
                )
                mult = f_mult[sp, p, f_idx[sp, p] - 1]
                maximise = seat_to_move(f_leader[sp], p, n) == 0
                first = f_idx[sp, p] == 1
                if ch <= inline:  # the last tricks are played out, not memoized
                    tricks.endgame(
                        v, calive, crem, cst, dec, ch, n, nlead, winner_leads, leader0,
                        seat_mask, seat_of, is_null, adversarial, eff, power, value, suit_mask,
                        debruijn, leaf, pick, kk,
                    )  # fmt: skip
                    tricks.contribution(x, v, gain, dec, took, ch, dhi, dlo, adversarial)
                    tricks.deliver(acc, sp, p, first, maximise, adversarial, mult, x)
                    continue
                k0, k1, hit = memo.lookup(
                    table, calive, nlead, cst, seat_of, weak, weak_len, value, suit_mask, stats, v
                )
                if hit:
                    tricks.contribution(x, v, gain, dec, took, ch, dhi, dlo, adversarial)
                    tricks.deliver(acc, sp, p, first, maximise, adversarial, mult, x)
                    continue
                if stats[0] + sp + 1 >= limit:
                    if can_grow:
                        stats[3] = d
                        return FULL
                    stats[0] = memo.prune(table, row)
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
                f_cnt[sp, 0], f_k[sp, 0] = tricks.move_classes(
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
                    x[W_HI], x[W_LO] = memo.mul128(acc[sp, p, W_HI], acc[sp, p, W_LO], m)
                    x[P_HI], x[P_LO] = memo.mul128(acc[sp, p, P_HI], acc[sp, p, P_LO], m)
                    x[C_HI] = acc[sp, p, C_HI]
                    x[C_LO] = acc[sp, p, C_LO]
                mult = f_mult[sp, p - 1, f_idx[sp, p - 1] - 1]
                maximise = seat_to_move(f_leader[sp], p - 1, n) == 0
                first = f_idx[sp, p - 1] == 1
                tricks.deliver(acc, sp, p - 1, first, maximise, adversarial, mult, x)
                f_pos[sp] = p - 1
                continue
            # the frame is solved
            if adversarial:
                for q in range(VALUES):
                    v[q] = acc[sp, 0, q]
            else:
                m = np.uint64(h // f_k[sp, 0])
                v[W_HI], v[W_LO] = memo.mul128(acc[sp, 0, W_HI], acc[sp, 0, W_LO], m)
                v[P_HI], v[P_LO] = memo.mul128(acc[sp, 0, P_HI], acc[sp, 0, P_LO], m)
                v[C_HI] = acc[sp, 0, C_HI]
                v[C_LO] = acc[sp, 0, C_LO]
            if sp > 0 or memo_root:
                i = memo.find_row(table, f_key0[sp], f_key1[sp])
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
            tricks.contribution(x, v, f_gain[sp], f_dec[sp], f_took[sp], ch, dhi, dlo, adversarial)
            mult = f_mult[sp, p, f_idx[sp, p] - 1]
            maximise = seat_to_move(f_leader[sp], p, n) == 0
            first = f_idx[sp, p] == 1
            tricks.deliver(acc, sp, p, first, maximise, adversarial, mult, x)
    stats[3] = ndeals
    return ndeals
