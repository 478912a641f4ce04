"""The values of the fast referee's positions and their memo table (for the search,
:mod:`qcards.skat.solvers.fast_referee.kernel`, and :mod:`qcards.skat.solvers.fast_referee`, which
allocates, grows and prunes the table).

A position's values are three numerators (the win, the future points and the play paths in the
random model; the adversarial model's minimax values in the low words), each a 128-bit
unsigned integer held as a (high, low) pair of 64-bit words: the columns :data:`W_HI` to
:data:`C_LO`, with the arithmetic on them (:func:`add128`, :func:`mul128`). The memo table is
open addressing in one numpy array, a row a position: its two key words, then its
:data:`VALUES` value words. Keys are canonical (:func:`canonical_key`): two positions whose
live cards, suit by suit in order of strength, have the same owners and the same card points
are one key.
"""

from __future__ import annotations

import numpy as np

from qcards.skat.compiled.bits import popcount
from qcards.skat.compiled.jit import njit

# value columns of the accumulators: numerators as (high, low) words
W_HI, W_LO, P_HI, P_LO, C_HI, C_LO = 0, 1, 2, 3, 4, 5
VALUES = 6
KEYS = 2
"""A row of the memo table: the two key words, then the :data:`VALUES` value words (64 bytes,
one cache line: a lookup costs one memory access)."""
EMPTY = np.uint64(2**64 - 1)
"""The first key word of an empty row (a key's first word is below 2^41)."""


@njit
def add128(ahi, alo, bhi, blo):
    """(ahi, alo) + (bhi, blo), 128-bit unsigned."""
    lo = alo + blo
    carry = np.uint64(1) if lo < alo else np.uint64(0)
    return ahi + bhi + carry, lo


@njit
def mul128(hi, lo, m):
    """(hi, lo) * m for an unsigned ``m`` below 2^32, 128-bit unsigned."""
    mask = np.uint64(0xFFFFFFFF)
    p0 = (lo & mask) * m
    p1 = (lo >> np.uint64(32)) * m
    low = p0 + ((p1 & mask) << np.uint64(32))
    carry = np.uint64(1) if low < p0 else np.uint64(0)
    return hi * m + (p1 >> np.uint64(32)) + carry, low


@njit
def canonical_key(alive, seat_of, weak, weak_len, value, suit_mask):
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


@njit
def _slot(k0, k1, mask):
    h = (k0 * _MIX0) ^ (k1 * _MIX1)
    h ^= (h >> 29) & 0x7FFFFFFFF
    return h & mask


@njit
def find_row(table, k0, k1):
    """The row of key (k0, k1): where it is, or the empty row where it would go."""
    mask = table.shape[0] - 1
    i = _slot(k0, k1, mask)
    u0 = np.uint64(k0)
    u1 = np.uint64(k1)
    while True:
        if table[i, 0] == EMPTY or (table[i, 0] == u0 and table[i, 1] == u1):
            return i
        i = (i + 1) & mask


@njit
def lookup(table, alive, lead, st, seat_of, weak, weak_len, value, suit_mask, stats, dest):
    """The key of a position; on a hit its values are copied into ``dest``. Returns the key's
    two words and whether it was found."""
    k0, k1 = canonical_key(alive, seat_of, weak, weak_len, value, suit_mask)
    k0 |= (lead << 32) | (np.int64(st) << 34)
    i = find_row(table, k0, k1)
    if table[i, 0] == EMPTY:
        return k0, k1, False
    stats[2] += 1
    for q in range(VALUES):
        dest[q] = table[i, KEYS + q]
    return k0, k1, True


@njit
def _cards(row0):
    """The live cards of a stored position (its key's first word holds their renamed mask)."""
    return popcount(np.int64(row0 & np.uint64(0xFFFFFFFF)))


@njit
def rehash(table, new):
    """Copy every entry of a table into a larger empty one."""
    for i in range(table.shape[0]):
        if table[i, 0] != EMPTY:
            j = find_row(new, np.int64(table[i, 0]), np.int64(table[i, 1]))
            for q in range(KEYS + VALUES):
                new[j, q] = table[i, q]


@njit
def prune(table, row):
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
            k = find_row(table, np.int64(row[0]), np.int64(row[1]))
            for q in range(KEYS + VALUES):
                table[k, q] = row[q]
    return kept
