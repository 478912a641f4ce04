"""How long a game's long command would take, estimated as it starts, and the refusal.

The games' referees are pure Python, so their work is estimated the plain way: a little of the
real work is timed and the rate multiplied by the work asked for (a Go Fish league by the cost
of a move at the opening and then by its first games, a Philosopher Cats study by its first
hands). Work planned past the time limit (:mod:`qcards.plan`: ten minutes, as for the Skat
commands) is refused unless forced, with the game's own error naming the parameters
that make it smaller.
"""

from __future__ import annotations

import time

from qcards.errors import QcardsError
from qcards.plan import Plan, check

CALIBRATION_SECONDS = 0.2
"""Seconds of real work a study runs before its rate is measured (less if it ends sooner)."""


def check_planned(
    seconds: float, what: str, force: bool, error: type[QcardsError], smaller: str
) -> float:
    """Refuse (``error``) ``what``, planned to take ``seconds``, past the time limit
    (:func:`qcards.plan.check`) unless ``force``. ``smaller`` says how to ask for less work,
    naming its parameters as ``{name}`` markers (the CLI writes them as flags). Returns
    ``seconds``."""
    return check(Plan(what, seconds=seconds, ways=(smaller,)), force, error).seconds


class Projection:
    """The time of ``units`` units of work (hands, games), projected from the first ones.

    Call :meth:`done` after each unit (and :meth:`partial` inside a long one); once
    :data:`CALIBRATION_SECONDS` have passed, or the work is over, the projection is checked
    with :func:`check_planned` (on every later call too while a unit is still running, so a
    unit that turns out long is refused early). With ``force`` nothing is checked.
    """

    def __init__(self, units: int, what: str, force: bool, refuse) -> None:
        self.units = units
        self.what = what
        self.force = force
        self.refuse = refuse  # (seconds, what) -> None: check_planned with the game's words
        self.start = time.perf_counter()
        self.finished = 0
        self.checked = False

    def done(self) -> None:
        """One more unit finished."""
        self.finished += 1
        if self.force or self.checked:
            return
        elapsed = time.perf_counter() - self.start
        if elapsed >= CALIBRATION_SECONDS or self.finished == self.units:
            self.refuse(elapsed / self.finished * self.units, self.what)
            self.checked = True

    def partial(self) -> None:
        """Inside a unit: refuse once the units left, each taking at least as long as the
        finished ones on average (or as this one so far, before any has finished), would take
        the work past the budget."""
        if self.force:
            return
        elapsed = time.perf_counter() - self.start
        if self.finished:
            per_unit = elapsed / (self.finished + 1)  # this unit counted as one of them
        else:
            per_unit = elapsed
        if elapsed > CALIBRATION_SECONDS:
            self.refuse(elapsed + per_unit * (self.units - self.finished - 1), self.what)
