"""What a sampled run reports: decoded counts, the sampled p_win and the transpiled size."""

from __future__ import annotations

from dataclasses import asdict, dataclass

from qcards.execution.transpile import TranspiledSize


@dataclass(frozen=True)
class RunReport:
    """What ``qcards run`` reports: decoded counts (readable labels) and the sampled p_win.

    ``p_win`` is the estimate after ``mitigation`` (:mod:`qcards.execution.mitigation`);
    ``p_win_raw`` the plain fraction of winning shots; ``ci`` a 95% interval of ``p_win``;
    ``kept_fraction`` the share of shots error detection kept (1 without detection);
    ``extrapolation`` what zero-noise extrapolation saw
    (:meth:`~qcards.execution.mitigation.Extrapolation.to_json`), with zne only; ``sampling``
    how a simulator drew the shots: from the ``exact state``, or as ``ideal shots`` followed one
    by one through the circuit (:mod:`qcards.execution.shots`) where the state does not fit;
    ``points`` the declarer's final card points, shot counts by points (ideal shots only, read
    from the registers of every shot).
    """

    backend: str
    shots: int
    counts: dict[str, int]
    p_win: float
    transpiled: TranspiledSize | None
    p_win_raw: float | None = None
    ci: tuple[float, float] | None = None
    kept_fraction: float = 1.0
    mitigation: str = "none"
    extrapolation: dict | None = None
    sampling: str = "exact state"
    points: dict[int, int] | None = None

    def to_json(self) -> dict:
        out = asdict(self)  # nested: "transpiled" becomes a dict too
        if out["p_win_raw"] is None:
            out["p_win_raw"] = self.p_win
        out["ci"] = list(self.ci) if self.ci is not None else None
        size = self.transpiled
        out["two_qubit_gates"] = None if size is None else size.two_qubit_gates
        out["depth"] = None if size is None else size.depth
        return out
