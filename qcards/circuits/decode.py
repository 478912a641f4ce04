"""Measured outcomes back into game states: the decoding every backend's results go through.

:meth:`qcards.circuits.layout.GameLayout.decode` turns one outcome of the measured registers
into a :class:`~qcards.skat.position.stages.Snapshot`; this module sums weights (exact
probabilities, fractions or shot counts) over the decoded states, labels them for people, and counts
the declarer's wins.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import TypeVar

from qcards.circuits.card_codes import readable_label
from qcards.circuits.game import GameCircuit
from qcards.circuits.layout import InvalidOutcome
from qcards.skat.position.consistency import violation
from qcards.skat.position.spec import Endgame
from qcards.skat.position.stages import Stage

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


def decode_distribution(game: GameCircuit, stage: Stage, outcomes: Mapping[int, float]) -> dict:
    """Sum outcome weights (probabilities or counts) by decoded :class:`Snapshot`."""
    return regroup(outcomes, lambda outcome: game.layout.decode(outcome, stage))


@dataclass(frozen=True)
class Decoded:
    """Sampled outcomes decoded: readable labels with their counts, and the sampled p_win.

    ``kept`` is the number of outcomes the win probability is computed from: all of them
    without detection, the consistent ones with it (:func:`decode_counts`).
    """

    counts: dict[str, int]
    p_win: float
    shots: int
    kept: int | float | None = None

    @property
    def kept_fraction(self) -> float:
        total = self.shots
        return (self.kept if self.kept is not None else total) / total if total else 0.0


def outcome_verdicts(
    spec: Endgame, game: GameCircuit, outcomes, stage: Stage | None = None
) -> dict[int, tuple[str, bool, bool]]:
    """For each outcome: (readable label, declarer wins, consistent with the rules).

    Consistent means it decodes to a game state that breaks none of the game's invariants
    (:func:`qcards.skat.position.consistency.violation`); undecodable outcomes are labelled
    :data:`INVALID_LABEL`, count as losses and are inconsistent.
    """
    stage = game.stages[-1] if stage is None else stage
    unset = game.layout.unset_bits(stage)
    out = {}
    for outcome in outcomes:
        try:
            snap = game.layout.decode(outcome, stage)
        except InvalidOutcome:
            out[outcome] = (INVALID_LABEL, False, False)
            continue
        consistent = not outcome & unset and violation(spec, snap, stage, game.first) is None
        won = snap.declarer_won(spec)
        out[outcome] = (readable_label(snap, spec), won, consistent)
    return out


def outcome_labels(game: GameCircuit, outcomes, stage: Stage | None = None) -> dict[int, str]:
    """The readable label of each outcome (:data:`INVALID_LABEL` for one that encodes no game
    state): :func:`outcome_verdicts` without the rules' checks, for an ideal device's shots."""
    stage = game.stages[-1] if stage is None else stage
    out = {}
    for outcome in outcomes:
        try:
            out[outcome] = readable_label(game.layout.decode(outcome, stage), game.spec)
        except InvalidOutcome:
            out[outcome] = INVALID_LABEL
    return out


def decode_counts(
    spec: Endgame,
    game: GameCircuit,
    raw: Mapping[int, int],
    stage: Stage | None = None,
    detect: bool = False,
) -> Decoded:
    """Decode integer outcomes of the ``outcome`` register into game states after ``stage``.

    Outcomes that encode no game state (noise on hardware) are counted under
    :data:`INVALID_LABEL` and as losses. ``shots`` is the number of outcomes sampled, which
    can exceed the number asked for (the runtime's twirling rounds it up). ``p_win`` counts the
    declarer's points at ``stage`` (default: the last stage, where it is the win probability).
    With ``detect``, ``p_win`` is computed over the outcomes consistent with the rules only
    (error detection, :mod:`qcards.skat.position.consistency`); ``kept`` says how many those are.
    """
    verdicts = outcome_verdicts(spec, game, raw, stage)
    shots = sum(raw.values())
    counts = regroup(raw, lambda outcome: verdicts[outcome][0])
    kept = shots
    if detect:
        kept = sum(n for o, n in raw.items() if verdicts[o][2])
    wins = sum(n for o, n in raw.items() if verdicts[o][1] and (verdicts[o][2] or not detect))
    return Decoded(dict(sorted(counts.items())), wins / kept if kept else 0.0, shots, kept)
