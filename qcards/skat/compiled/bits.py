"""Cards as bits of a mask in the compiled searches (:mod:`qcards.skat.rules.rule_tables` gives each
card its bit): counting the cards of a mask, and finding the lowest one."""

from __future__ import annotations

from qcards.skat.compiled.jit import njit


@njit
def popcount(x):
    """The number of cards (set bits) of the int64 mask ``x`` (the SWAR bit count)."""
    x = x - ((x >> 1) & 0x5555555555555555)
    x = (x & 0x3333333333333333) + ((x >> 2) & 0x3333333333333333)
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0F
    return (x * 0x0101010101010101) >> 56


@njit
def lowest_card(mask):
    """The index of the lowest card (bit) of a non-empty ``mask``."""
    return popcount((mask & -mask) - 1)
