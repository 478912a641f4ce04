"""The strategy study as a figure: expected points per hand for each dealer strategy."""

from __future__ import annotations

from pathlib import Path

from matplotlib.figure import Figure

from qcards.files import save_figure
from qcards.games.cats.simulate import Study


def strategy_figure(study: Study) -> Figure:
    """Bars of the dealer's and a player's mean points per hand, with one standard error."""
    fig = Figure(figsize=(9, 4))
    axes = fig.subplots(1, 2)
    names = [r.dealer for r in study.results]
    for axis, field, label in (
        (axes[0], "dealer_points", "dealer's points per hand"),
        (axes[1], "player_points", "a player's points per hand"),
    ):
        estimates = [getattr(r, field) for r in study.results]
        axis.bar(
            names,
            [e.mean for e in estimates],
            yerr=[e.se or 0.0 for e in estimates],
            capsize=4,
            color=["tab:red", "tab:blue", "tab:grey"][: len(names)],
        )
        axis.set_title(label)
        axis.set_xlabel("dealer strategy")
    fig.suptitle(
        f"Philosopher Cats: {study.players} players, {study.hands} hands, "
        f"late={study.noise.late}, rash={study.noise.rash} (error bars: 1 s.e.)",
        fontsize=10,
    )
    fig.tight_layout()
    return fig


def save_strategy_figure(study: Study, path: str | Path) -> Path:
    """Write :func:`strategy_figure` to ``path`` (PNG)."""
    return save_figure(strategy_figure(study), path)
