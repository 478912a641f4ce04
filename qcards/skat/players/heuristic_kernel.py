"""The ``heuristic`` play model (:func:`qcards.skat.players.heuristic.heuristic`) for the compiled
searches: the same rules on cards as bits of a mask, so that the compiled best response
(:mod:`qcards.skat.players.best_response_kernel`) can play against heuristic opponents.

:func:`heuristic_set` returns the cards the heuristic picks from a seat's view (it plays them
evenly); the rules and their order are the Python function's, which stays the definition:
``tests/test_heuristic_kernel.py`` holds the two equal on thousands of views of suit, grand,
null and no-trump games. Hand-written because numba cannot call the Python policy, and the
Python policy is the bottleneck of a search that weighs every deal by it.
"""

from __future__ import annotations

from qcards.skat.compiled.bits import lowest_card, popcount
from qcards.skat.compiled.jit import njit
from qcards.skat.rules.table_kernel import legal_mask, takes, trick_taker
from qcards.skat.rules.turns_kernel import seat_to_move

NO_CARD = -1


@njit
def _cards(mask):
    """The card indices of ``mask``, lowest first (a list for numba)."""
    out = []
    while mask:
        out.append(lowest_card(mask))
        mask &= mask - 1
    return out


@njit
def _extreme(mask, table, highest):
    """The highest (or lowest) of ``table``'s entries over the cards of ``mask``."""
    best = -(1 << 30) if highest else 1 << 30
    for c in _cards(mask):
        if (table[c] > best) if highest else (table[c] < best):
            best = table[c]
    return best


@njit
def _select(mask, table, target):
    """The cards of ``mask`` whose ``table`` entry is ``target``."""
    chosen = 0
    for c in _cards(mask):
        if table[c] == target:
            chosen |= 1 << c
    return chosen


@njit
def _top(card, out, eff, power, suit_mask):
    """No card of ``out`` beats ``card`` in its own effective suit."""
    s = eff[card]
    for c in _cards(out & suit_mask[s]):
        if takes(c, card, s, power):
            return False
    return True


@njit
def _most_points(mask, value):
    return _select(mask, value, _extreme(mask, value, True))


@njit
def _guards_a_ten(card, hand, out, eff, value, suit_mask, trump_row):
    """Playing ``card`` would leave the ten of its suit unguarded while that suit's ace is out
    (two cards of the suit in hand, one of them the ten, and not the card played)."""
    s = eff[card]
    if s == trump_row:
        return False
    mine = hand & suit_mask[s]
    ten = NO_CARD
    for c in _cards(mine):
        if value[c] == 10:
            ten = c
    if ten == NO_CARD or card == ten or popcount(mine) != 2:
        return False
    for c in _cards(out & suit_mask[s]):
        if value[c] == 11:
            return True
    return False


@njit
def _lowest(mask, hand, out, eff, value, strength, suit_mask, trump_row):
    """The fewest points, keeping a guarded ten when another card of equal points can go,
    then the weakest (every card of that strength)."""
    low = _select(mask, value, _extreme(mask, value, False))
    keep = 0
    for c in _cards(low):
        if not _guards_a_ten(c, hand, out, eff, value, suit_mask, trump_row):
            keep |= 1 << c
    if keep:
        low = keep
    return _select(low, strength, _extreme(low, strength, False))


@njit
def _first_extreme(mask, strength, sort_rank, highest):
    """The first card in the legal cards' order (``sort_rank``) of the highest or lowest
    strength, as Python's ``max``/``min`` over the sorted legal cards picks it."""
    pick = NO_CARD
    for c in _cards(mask):
        if pick == NO_CARD:
            pick = c
            continue
        better = strength[c] > strength[pick] if highest else strength[c] < strength[pick]
        tie = strength[c] == strength[pick] and sort_rank[c] < sort_rank[pick]
        if better or tie:
            pick = c
    return 1 << pick


@njit
def heuristic_set(hand, out, trick, tlen, leader, seat, n, null, eff, power, value, strength,
                  sort_rank, suit_mask, trump_row):  # fmt: skip
    """The cards (a mask) the heuristic picks, evenly, for ``seat`` (0 the declarer) holding
    ``hand``, with ``out`` the cards it cannot see and ``trick[:tlen]`` the current trick led
    by ``leader``; ``null`` for a null game. The rules are those of
    :func:`qcards.skat.players.heuristic.heuristic`, numbered as there."""
    declarer = seat == 0
    legal = hand
    led = -1
    win_seat = -1
    win_card = NO_CARD
    if tlen > 0:
        led = eff[trick[0]]
        legal = legal_mask(hand, led, suit_mask)
        win = trick_taker(trick, tlen, eff, power)
        win_seat = seat_to_move(leader, win, n)
        win_card = trick[win]
    winners = 0
    if tlen > 0:
        for c in _cards(legal):
            if takes(c, win_card, led, power):
                winners |= 1 << c
    if null:
        if declarer:
            if tlen == 0:
                return _first_extreme(legal, strength, sort_rank, False)
            under = legal & ~winners
            if under:
                return _first_extreme(under, strength, sort_rank, True)
            return _first_extreme(legal, strength, sort_rank, False)
        if tlen > 0 and win_seat == 0:
            under = legal & ~winners
            if under:
                return _first_extreme(under, strength, sort_rank, True)
        return _first_extreme(legal, strength, sort_rank, False)
    trumps = legal & suit_mask[trump_row]
    side = legal & ~suit_mask[trump_row]
    if tlen == 0:
        out_trumps = out & suit_mask[trump_row]
        if declarer and trumps and out_trumps and popcount(trumps) >= popcount(out_trumps):
            return _first_extreme(trumps, strength, sort_rank, True)  # 1. draw trumps
        through = (not declarer) and seat_to_move(seat, 1, n) == 0
        sure = 0
        for c in _cards(legal):
            if _top(c, out, eff, power, suit_mask):
                if declarer or through or value[c] >= 10:
                    sure |= 1 << c
        if sure:
            return _most_points(sure, value)  # 2. cash a sure trick
        pool = side if side else legal  # 3.-4. lead low, a side suit first
        return _lowest(pool, hand, out, eff, value, strength, suit_mask, trump_row)
    last = tlen == n - 1
    friend = (win_seat == 0) == declarer
    if last and friend:  # 5. smear
        return _most_points(side if side else legal, value)
    if last and winners:  # 6. take it
        return _most_points(winners, value)
    if not last and not friend:  # 7. win for sure
        sure = 0
        for c in _cards(winners):
            if _top(c, out, eff, power, suit_mask):
                sure |= 1 << c
        if sure:
            return _lowest(sure, hand, out, eff, value, strength, suit_mask, trump_row)
    return _lowest(legal, hand, out, eff, value, strength, suit_mask, trump_row)  # 8.
