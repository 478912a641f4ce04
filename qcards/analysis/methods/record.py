"""An evaluation method as a record: what it answers, what it costs, how it runs.

A :class:`EvaluationMethod` declares the play models it computes by their kind
(:attr:`qcards.skat.players.play_models.PlayModel.kind`: exactly, or from shots), the objectives it
scores, the seconds it expects before any work, and the function that runs it on a
:class:`Request`. :mod:`qcards.analysis.methods.registry` holds the records and chooses among
them; nothing else compares method names.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

# imported, not only named for type checkers: the API reference resolves them unambiguously
from qcards.analysis.methods.report import EvaluationReport
from qcards.circuits.construction import Construction
from qcards.circuits.task import GameTask
from qcards.skat.players.play_models import PlayModel
from qcards.skat.position.spec import Endgame
from qcards.skat.rules.cards import Card


@dataclass(frozen=True)
class Request:
    """One evaluation to run: the game, the play model, and how to run it (``method`` is the
    name of the record that runs it, as the report states it)."""

    task: GameTask
    model: PlayModel
    method: str
    shots: int | None = None
    seed: int | None = None
    force: bool = False
    scheduler: str | None = None

    @property
    def spec(self) -> Endgame:
        return self.task.spec

    @property
    def first(self) -> Card | None:
        return self.task.first

    @property
    def construction(self) -> Construction:
        return self.task.construction

    @property
    def kind(self) -> str:
        return self.model.kind


@dataclass(frozen=True)
class EvaluationMethod:
    """One way of answering ``qcards evaluate``.

    Attributes:
        name: what ``--method`` and ``method=`` call it.
        summary: a few words for reasons and help (``the exact referee``).
        run: computes the report of a :class:`Request`.
        exact: the kinds of play model it computes exactly, without shots.
        sampled: the kinds of play model it computes from ``shots`` (95% intervals).
        auto: the kinds ``--method auto`` may choose it for (exact ones without shots,
            sampled ones with them).
        cost: the seconds it expects for a request before any work; None when it makes no
            estimate; raises :class:`~qcards.errors.ResourceError` when it cannot answer.
            ``auto`` runs the cheapest estimate, and a method without one only when no
            estimated method can answer.
        default_shots: the shots it samples when none are given (it samples whatever is
            asked; ``aer``).
        with_shots: the method that runs when ``shots`` are given (``double-dummy`` on sampled
            deals is ``pimc``).
        circuit: it runs the game circuit (there is none once every card has been played).
        objectives: the objectives it scores (:mod:`qcards.skat.solvers.objectives`); None: all.
    """

    name: str
    summary: str
    run: Callable[[Request], EvaluationReport]
    exact: frozenset[str] = frozenset()
    sampled: frozenset[str] = frozenset()
    auto: frozenset[str] = frozenset()
    cost: Callable[[Request], float | None] | None = None
    default_shots: int | None = None
    with_shots: str | None = None
    circuit: bool = False
    objectives: frozenset[str] | None = None

    def __str__(self) -> str:
        return self.name

    def answers(self, kind: str, shots: int | None) -> bool:
        """Whether it computes a model of this kind, with or without shots (``with_shots``
        aside: the registry follows it)."""
        if shots is None and self.default_shots is None:
            return kind in self.exact
        return kind in self.sampled

    def scores(self, objective: str) -> bool:
        return self.objectives is None or objective in self.objectives

    def seconds(self, request: Request) -> float | None:
        """The estimate before any work (None: none made)."""
        return None if self.cost is None else self.cost(request)
