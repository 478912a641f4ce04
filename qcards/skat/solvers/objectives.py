"""What an evaluation scores: objectives as records in one registry.

An :class:`Objective` turns a game's outcome
(:data:`qcards.skat.solvers.outcome_distributions.Outcome`: the declarer's card points, tricks and
matadors) into a number, and an evaluation averages it over
the deals and the play. ``win`` is the paper's P_fav (Eq. 18's win indicator); ``score`` and
``seeger-fabian`` score a declared game (:mod:`qcards.skat.position.declaration`) by the ISkO
(:func:`qcards.skat.rules.scoring.settle`): the declarer's list score, and its Seeger-Fabian points.
Nothing outside this module compares objective names: callers look a record up with
:func:`get_objective` and ask it. Third parties add objectives through the entry-point group
``qcards.objectives`` (an entry point named like its :class:`Objective`); one that needs a
declaration is reported by every evaluation of a declared game beside the built-in scores,
and ``--objective`` ranks by it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from typing import TYPE_CHECKING, cast

import numpy as np

from qcards.errors import ModelError, ParameterError
from qcards.plugins import load_group, lookup
from qcards.skat.position.spec import Endgame
from qcards.skat.rules.scoring import TRICKS, Settlement, settle

if TYPE_CHECKING:
    from qcards.skat.position.declaration import SpecDeclaration


@dataclass(frozen=True)
class Objective:
    """One thing an evaluation can average.

    Attributes:
        name: what ``--objective`` calls it.
        report: the evaluation report's field for its expectation.
        needs_declaration: only a spec with ``[declaration]`` can be scored by it.
        value: its value for one outcome of a spec's game.
    """

    name: str
    report: str
    needs_declaration: bool
    value: Callable[[Endgame, int, int, int], int]
    description: str


def _settlement(spec: Endgame, points: int, tricks: int, matadors: int) -> Settlement:
    declared = cast("SpecDeclaration", spec.declaration)  # only objectives that need one
    return settle(declared.declaration, matadors, points, tricks, TRICKS)


ENTRY_POINT_GROUP = "qcards.objectives"

OBJECTIVES: dict[str, Objective] = {
    o.name: o
    for o in (
        Objective(
            "win",
            "p_win",
            False,
            lambda spec, p, t, m: int(spec.declarer_wins(p, t)),
            "the declarer's chance to win the play (the paper's P_fav)",
        ),
        Objective(
            "score",
            "expected_score",
            True,
            lambda spec, p, t, m: _settlement(spec, p, t, m).list_score,
            "the declarer's ISkO list score: the game value, minus twice it when lost",
        ),
        Objective(
            "seeger-fabian",
            "expected_seeger_fabian",
            True,
            lambda spec, p, t, m: _settlement(spec, p, t, m).declarer_seeger_fabian,
            "the declarer's Seeger-Fabian points: the list score plus 50 won, minus 50 lost",
        ),
    )
}
"""The built-in objectives by name (:func:`registry` adds the plugins')."""


@cache
def registry() -> dict[str, Objective]:
    """Every objective by name: the built-ins, then the entry points of
    :data:`ENTRY_POINT_GROUP` (each must load an :class:`Objective` of its own name; a name
    taken twice is a :class:`~qcards.errors.PluginError`, :mod:`qcards.plugins`)."""
    return load_group(ENTRY_POINT_GROUP, OBJECTIVES.values(), Objective)


def objective_names() -> tuple[str, ...]:
    return tuple(registry())


def get_objective(name: str | Objective) -> Objective:
    """The objective called ``name`` (a record is returned as it is; :class:`ParameterError`
    naming the choices)."""
    return lookup(
        registry(), name, Objective,
        lambda: ParameterError(
            "objective", f"unknown objective {name!r} (expected {' | '.join(registry())})"
        ),
    )  # fmt: skip


def check_objective(spec: Endgame, name: str) -> Objective:
    """The objective, refused for a spec it cannot score (no ``[declaration]``)."""
    objective = get_objective(name)
    if objective.needs_declaration and spec.declaration is None:
        raise ModelError(
            f"{{objective}} {name} scores a declared game: give the spec a [declaration] "
            "table (hand, announced, bid; see the scoring page)",
            parameters=("objective",),
        )
    return objective


def scored_objectives(spec: Endgame) -> tuple[Objective, ...]:
    """The score objectives a spec's evaluation reports beside p_win: those that score a
    declared game (none without a declaration)."""
    if spec.declaration is None:
        return ()
    return tuple(o for o in registry().values() if o.needs_declaration)


def expectation(
    spec: Endgame,
    objective: Objective,
    distribution: Mapping[tuple[int, int, int], Fraction | float],
):
    """The objective's average over an outcome distribution (exact for Fractions)."""
    return sum(q * objective.value(spec, *outcome) for outcome, q in distribution.items())


def per_sample(
    spec: Endgame, objective: Objective, points: np.ndarray, tricks: np.ndarray,
    matadors: np.ndarray,
) -> np.ndarray:  # fmt: skip
    """The objective's value for every sample (each distinct outcome scored once)."""
    stacked = np.stack([points, tricks, matadors])
    outcomes, where = np.unique(stacked, axis=1, return_inverse=True)
    values = np.array(
        [objective.value(spec, int(p), int(t), int(m)) for p, t, m in outcomes.T], dtype=float
    )
    return values[where.ravel()]
