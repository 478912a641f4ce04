"""How the circuits grow with the game: qubits and CX count of the paper and efficient
constructions for N = 1..10 cards per player (:func:`qcards.analysis.resources.count_resources`;
N = 10 is the full game). Used by the figure gallery, the benchmarks and the notebooks, so all
three show the same numbers from the same code.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from qcards.analysis.resources import ResourceReport, count_resources
from qcards.execution.sweeps import sweep


@dataclass(frozen=True)
class GrowthRow:
    """Both constructions' resources at one N (cards per player)."""

    cards_per_player: int
    paper: ResourceReport
    efficient: ResourceReport

    @property
    def ratio(self) -> float:
        """CX count of the whole game, paper construction over efficient."""
        return self.paper.stages["game"].cx / self.efficient.stages["game"].cx

    def to_json(self) -> dict:
        return {
            "cards_per_player": self.cards_per_player,
            "paper": self.paper.to_json(),
            "efficient": self.efficient.to_json(),
            "ratio": self.ratio,
        }


def _growth_row(cards_per_player: int) -> GrowthRow:
    return GrowthRow(
        cards_per_player,
        count_resources(cards_per_player, "paper"),
        count_resources(cards_per_player, "efficient"),
    )


def resource_growth(
    cards_per_player: Iterable[int] = range(1, 11), scheduler: str | None = None
) -> list[GrowthRow]:
    """Resources of both constructions for each N; ``scheduler`` as
    :func:`qcards.execution.sweeps.sweep`."""
    return sweep(_growth_row, cards_per_player, scheduler, "resource counts")


# ----------------------------------------------------------------------------- estimation error
