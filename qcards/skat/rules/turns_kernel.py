"""The compiled twins of :mod:`qcards.skat.rules.turns`'s seat arithmetic: the same functions,
compiled by numba, for the kernels (the double-dummy search, the fast referee, the best
response's chooser, the heuristic), so that every engine moves play around the table by one
source."""

from __future__ import annotations

from qcards.skat.compiled.jit import njit
from qcards.skat.rules import turns

seat_to_move = njit(turns.seat_to_move)
place_in_trick = njit(turns.place_in_trick)
next_lead = njit(turns.next_lead)
