"""A declared game's double-dummy outcome of one deal: the declarer's level under minimax
(no trick, Schneider, lost, won, Schneider, Schwarz), found by a few searches of
:mod:`qcards.skat.solvers.double_dummy` (a full-window search on points, or null-window probes)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from qcards.errors import ModelError
from qcards.skat.position.spec import Endgame
from qcards.skat.position.stages import check_first
from qcards.skat.rules.cards import Card
from qcards.skat.rules.scoring import SCHNEIDER_LOSS, SCHNEIDER_POINTS, TRICKS, WIN_POINTS
from qcards.skat.solvers.double_dummy.solver import (
    ALL_POINTS,
    Position,
    legal_moves,
    play,
    probe,
    solve_position,
    start_position,
)


def at_least(spec: Endgame, position: Position, forced: Card | None, points: int) -> bool:
    """Whether the declarer can end with at least ``points`` card points, whatever the
    defenders do."""
    goal = points - position.points
    if goal <= 0:
        return True
    if goal > sum(c.value for h in position.hands for c in h) + sum(
        c.value for c in position.trick
    ):
        return False
    return probe(spec, position, forced, goal, False) >= goal


def every_trick(spec: Endgame, position: Position, forced: Card | None) -> bool:
    """Whether the declarer can take every trick still to play, whatever the defenders do."""
    cards = sum(map(len, position.hands)) + len(position.trick)
    return probe(spec, position, forced, cards, True) >= cards


def no_trick(spec: Endgame, position: Position, forced: Card | None) -> bool:
    """Whether the defenders can keep the declarer from taking any trick still to play."""
    return probe(spec, position, forced, 1, True) <= 0


@dataclass(frozen=True)
class DoubleDummyOutcome:
    """The double-dummy outcome of a deal under minimax on a declared game's score.

    Attributes:
        points: the declarer's final card points under minimax on points.
        tricks: the declarer's tricks (:attr:`~qcards.skat.position.spec.Endgame.declarer_tricks`
            included) as the score sees them: all of the game's tricks when the declarer can
            take every one, none when the defenders can keep it from any, else a count in
            between (the exact count does not change a score).
        wins: the minimax value of the win, as :class:`DoubleDummyValue`.
    """

    points: int
    tricks: int
    wins: bool


def deal_outcome(
    spec: Endgame,
    owner: Mapping[Card, str],
    first: Card | None = None,
    points: bool = True,
    opening: Sequence[Card] = (),
) -> DoubleDummyOutcome:
    """The outcome whose ISkO score is the double-dummy value of a deal's score: every score
    of one kind of game (any announcement, bid or matadors; list score or Seeger-Fabian).

    Why a few searches answer every declaration. A score depends on the play only through
    the declarer's *level*: no trick < 30 points or fewer < 31-60 < 61-89 < 90 or more <
    every trick (ISkO 5.2 and 5.3: lost Schwarz, lost Schneider, lost, won, won Schneider, won
    Schwarz), and it never decreases from one level to the next (``tests/test_scoring.py``
    checks it for every declaration). A non-decreasing function commutes with max and min,
    so the minimax score is the score of the minimax level; the middle levels need only the
    minimax of the points: it exceeds the points held before only if the declarer takes a
    trick, and when it does not, the bottom level is searched (the bottom level is lost
    Schwarz whatever the points, up to 60: so the check on ``declarer_points``). The
    top level is a search "the declarer takes every trick" (run only when the points'
    minimax is every point, which it implies), the bottom one "the defenders keep it from
    any trick" (only when the points' minimax adds nothing). Null games score the win alone.

    Args:
        spec: the endgame; in a declared game (:mod:`qcards.skat.position.declaration`) the spec's
            tricks are the game's last ``hand_size`` of ten.
        owner: the deal, as for :func:`solve_deal`.
        first: the declarer's forced first card.
        points: report the minimax card points (a full-window search). ``False``: only the
            level, by null-window searches at 61, then 90 or 31; points then stand for their
            level (30, 60, 61, 90 or 120), the scores and the win are the same (for the ISkO
            target of 61 points; another target searches as ``True``), and a full deal after
            a pick-up is solved about six times faster.
        opening: cards already on the table of the first trick, played in turn from the
            leader (:func:`qcards.skat.position.history.moment`); ``first`` is then the card the
            next seat, declarer or defender, must play.

    Raises:
        ModelError: as :func:`solve_deal`; or the declarer holds more than 60 card points
            without a trick (no game of Skat does).
    """
    taken = spec.declarer_tricks
    position = start_position(spec, owner)
    for card in opening:
        position = play(spec, position, card)
    if not opening and spec.leader == spec.declarer:
        check_first(spec, first)
    elif first is not None and first not in legal_moves(spec, position):
        raise ModelError(f"forced card {first} is not a legal card of the side to move")
    if points or position.finished or spec.target != WIN_POINTS:
        return _outcome_from_points(spec, position, first)
    if spec.is_null:  # the win alone: the boolean search, no points
        wins = taken == 0 and not probe(spec, position, first, 1, False, took=True)
        return DoubleDummyOutcome(position.points, 0 if wins else max(1, taken), wins)
    _check_points_without_trick(position, taken)
    if at_least(spec, position, first, WIN_POINTS):
        level_points = WIN_POINTS
        tricks = max(1, taken)
        if at_least(spec, position, first, SCHNEIDER_POINTS):
            level_points = SCHNEIDER_POINTS
            if taken + spec.hand_size == TRICKS and every_trick(spec, position, first):
                level_points, tricks = ALL_POINTS, TRICKS
        return DoubleDummyOutcome(level_points, tricks, True)
    if taken == 0 and no_trick(spec, position, first):
        return DoubleDummyOutcome(position.points, 0, False)
    reaches = at_least(spec, position, first, SCHNEIDER_LOSS + 1)
    return DoubleDummyOutcome(WIN_POINTS - 1 if reaches else SCHNEIDER_LOSS, max(1, taken), False)


def _check_points_without_trick(position: Position, taken: int) -> None:
    if taken == 0 and position.points > SCHNEIDER_LOSS * 2:
        raise ModelError(
            f"declarer_points: {position.points} card points without a trick (declarer_tricks "
            "= 0) is no game of Skat: before its first trick a declarer holds only the "
            "discard's or the Skat's points, 22 at most"
        )


def _outcome_from_points(
    spec: Endgame, position: Position, first: Card | None
) -> DoubleDummyOutcome:
    """:func:`deal_outcome` from the full-window search on points."""
    value = solve_position(spec, position, first)
    taken = spec.declarer_tricks
    if spec.is_null:
        return DoubleDummyOutcome(value.points, 0 if value.wins else max(1, taken), value.wins)
    _check_points_without_trick(position, taken)
    if position.finished:  # no trick left to play: the tricks are the spec's
        return DoubleDummyOutcome(value.points, taken, value.wins)
    remaining = sum(c.value for h in (*position.hands, position.trick) for c in h)
    tricks = max(1, taken)
    if taken + spec.hand_size == TRICKS and value.points == position.points + remaining:
        if every_trick(spec, position, first):
            tricks = TRICKS
    elif taken == 0 and value.points == position.points and no_trick(spec, position, first):
        tricks = 0
    return DoubleDummyOutcome(value.points, tricks, value.wins)
