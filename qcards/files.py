"""Files qcards writes (figures today), shared by every layer and game; pure matplotlib."""

from __future__ import annotations

from pathlib import Path

from matplotlib.figure import Figure


def save_figure(fig: Figure, path: str | Path) -> Path:
    """Write ``fig`` to ``path`` (parents created) and close it."""
    import matplotlib.pyplot

    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=110)
    matplotlib.pyplot.close(fig)
    return path
