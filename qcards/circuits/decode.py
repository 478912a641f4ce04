"""Measured outcomes back into game states: the decoding every target's results go through.

:meth:`qcards.circuits.layout.GameLayout.decode` turns one outcome of the measured registers
into a :class:`~qcards.skat.stages.Snapshot`; this module sums weights (exact probabilities,
fractions or shot counts) over the decoded states, labels them for people, and counts the
declarer's wins.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import TypeVar

from qcards.circuits.card_codes import readable_label
from qcards.circuits.game import GameCircuit
from qcards.circuits.layout import InvalidOutcome
from qcards.skat.spec import Endgame
from qcards.skat.stages import Stage

K = TypeVar("K")
T = TypeVar("T")
W = TypeVar("W", int, float, Fraction)

OUTCOME_REGISTER = "outcome"
"""The classical register the measured game registers are read into."""

INVALID_LABEL = "(no game state)"
"""The label of measured outcomes that encode no game state (only noise produces them)."""


def regroup(weights: Mapping[K, W], key: Callable[[K], T]) -> dict[T, W]:
    """Sum weights (probabilities, fractions or counts) over the items with the same key."""
    out: dict = {}
    for item, weight in weights.items():
        k = key(item)
        out[k] = out.get(k, 0) + weight
    return out


def decode_distribution(game: GameCircuit, stage: Stage, outcomes: dict[int, float]) -> dict:
    """Sum outcome weights (probabilities or counts) by decoded :class:`Snapshot`."""
    return regroup(outcomes, lambda outcome: game.layout.decode(outcome, stage))


@dataclass(frozen=True)
class Decoded:
    """Sampled outcomes decoded: readable labels with their counts, and the sampled p_win."""

    counts: dict[str, int]
    p_win: float
    shots: int


def decode_counts(
    spec: Endgame, game: GameCircuit, raw: Mapping[int, int], stage: Stage | None = None
) -> Decoded:
    """Decode integer outcomes of the ``outcome`` register into game states after ``stage``.

    Outcomes that encode no game state (noise on hardware) are counted under
    :data:`INVALID_LABEL` and as losses. ``shots`` is the number of outcomes sampled, which
    can exceed the number asked for (the runtime's twirling rounds it up). ``p_win`` counts the
    declarer's points at ``stage`` (default: the last stage, where it is the win probability).
    """
    stage = game.stages[-1] if stage is None else stage

    def label_and_win(outcome: int) -> tuple[str, bool]:
        try:
            snap = game.layout.decode(outcome, stage)
        except InvalidOutcome:
            return INVALID_LABEL, False
        return readable_label(snap, spec), snap.declarer_points(spec) >= spec.target

    decoded = regroup(raw, label_and_win)
    shots = sum(decoded.values())
    wins = sum(n for (_label, won), n in decoded.items() if won)
    counts = regroup(decoded, lambda key: key[0])
    return Decoded(dict(sorted(counts.items())), wins / shots if shots else 0.0, shots)
