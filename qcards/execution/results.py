"""What a sampled run reports: decoded counts, the sampled p_win and the transpiled size."""

from __future__ import annotations

from dataclasses import asdict, dataclass

from qcards.execution.transpile import TranspiledSize


@dataclass(frozen=True)
class RunReport:
    """What ``qcards run`` reports: decoded counts (readable labels) and the sampled p_win."""

    backend: str
    shots: int
    counts: dict[str, int]
    p_win: float
    transpiled: TranspiledSize

    def to_json(self) -> dict:
        return asdict(self)  # nested: "transpiled" becomes a dict too
