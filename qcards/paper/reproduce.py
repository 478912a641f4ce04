"""Reproduce the paper's worked examples: every histogram stage and every win probability.

For each figure of Sec. VII the exact distribution of the circuit's state (statevector) is
decoded into the paper's card codes (Tables 4 and 6) and compared with the classical referee's
exact fractions; the same game built with the paper's own card registers (``paper_codes``) is
read directly and compared too; 1000 Aer shots give the histogram PNG, labelled in words
(:func:`~qcards.circuits.card_codes.readable_label`: hands, table, stacks). Each number stands
beside the one the paper prints, with a flag and a reason where they differ.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from fractions import Fraction
from functools import partial
from pathlib import Path

from qcards.analysis.methods.builtin import AUTO_CIRCUIT
from qcards.circuits.card_codes import paper_label, readable_label
from qcards.circuits.decode import decode_distribution, regroup
from qcards.circuits.game import build_game
from qcards.execution.exact import exact_stage_probabilities
from qcards.execution.sampling import sample_stages
from qcards.paper.examples import EXAMPLES, PaperExample, PaperFigure
from qcards.progress import step, track
from qcards.skat.rules.cards import Card
from qcards.skat.solvers.evaluation import evaluate
from qcards.skat.solvers.plain_referee import stage_distributions
from qcards.viz.plots import save_histogram

EXACT_METHOD = AUTO_CIRCUIT
"""The exact simulator of every figure and of the paper-code registers: the circuit engine
``auto`` runs when it runs a circuit (the sparse engine); the sampled histograms are Aer's
shots."""


def _fraction_text(f: Fraction) -> str:
    return f"{f.numerator}/{f.denominator}"


@dataclass(frozen=True)
class FigureResult:
    figure: PaperFigure
    probabilities: dict[str, float]
    exact: dict[str, Fraction]
    counts: dict[str, int]
    histogram: str | None
    register_probabilities: dict[str, float]
    register_qubits: int
    readable_counts: dict[str, int] = field(default_factory=dict)
    """``counts`` keyed by :func:`~qcards.circuits.card_codes.readable_label` (what the
    histogram shows); the same numbers, one label per outcome."""

    @property
    def num_outcomes(self) -> int:
        return sum(1 for p in self.probabilities.values() if p > 1e-12)

    @property
    def max_abs_error(self) -> float:
        labels = set(self.probabilities) | set(self.exact)
        return max(
            abs(self.probabilities.get(k, 0.0) - float(self.exact.get(k, 0))) for k in labels
        )

    @property
    def register_max_abs_error(self) -> float:
        labels = set(self.register_probabilities) | set(self.exact)
        return max(
            abs(self.register_probabilities.get(k, 0.0) - float(self.exact.get(k, 0)))
            for k in labels
        )

    @property
    def agrees(self) -> bool | None:
        printed = self.figure.printed_outcomes
        return None if printed is None else printed == self.num_outcomes

    def to_json(self) -> dict:
        reason = None
        if self.agrees is False:
            reason = self.figure.explanation or "no explanation recorded"
        return {
            "name": self.figure.stage.name,
            "figure": f"Fig. {self.figure.figure}",
            "description": self.figure.description,
            "first": None if self.figure.first is None else str(self.figure.first),
            "num_outcomes": self.num_outcomes,
            "paper_num_outcomes": self.figure.printed_outcomes,
            "agrees": self.agrees,
            "reason": reason,
            "probabilities": dict(sorted(self.probabilities.items())),
            "exact": {k: _fraction_text(v) for k, v in sorted(self.exact.items())},
            "max_abs_error": self.max_abs_error,
            "paper_registers": {
                "num_qubits": self.register_qubits,
                "num_outcomes": sum(1 for p in self.register_probabilities.values() if p > 1e-9),
                "max_abs_error": self.register_max_abs_error,
            },
            "counts": dict(sorted(self.counts.items())),
            "histogram": self.histogram,
        }


def _figures_for(example: PaperExample, first: Card | None) -> list[PaperFigure]:
    return [f for f in example.figures if f.first == first]


@dataclass(frozen=True)
class WinResult:
    """p_win of one example (and first card): the circuit's, the referee's, the paper's."""

    p_win: float
    p_win_exact: Fraction
    p_win_paper: Fraction
    p_win_adversarial: Fraction
    reason: str | None
    num_qubits: int

    @property
    def agrees(self) -> bool:
        return self.p_win_paper == self.p_win_exact

    def to_json(self) -> dict:
        return {
            "p_win": self.p_win,
            "p_win_exact": _fraction_text(self.p_win_exact),
            "p_win_paper": _fraction_text(self.p_win_paper),
            "agrees": self.agrees,
            "reason": self.reason,
            "p_win_adversarial": _fraction_text(self.p_win_adversarial),
            "num_qubits": self.num_qubits,
        }


@dataclass(frozen=True)
class ExampleResult:
    """One paper example reproduced: its figures and p_win per fixed first card (or none)."""

    example: PaperExample
    figures: tuple[FigureResult, ...]
    wins: dict[Card | None, WinResult]
    method: str = EXACT_METHOD

    def to_json(self) -> dict:
        record: dict = {
            "section": self.example.section,
            "spec": self.example.spec_file,
            "method": self.method,
            "stages": [r.to_json() for r in self.figures],
        }
        if list(self.wins) == [None]:
            record.update(self.wins[None].to_json())
        else:
            record["first"] = {str(card): w.to_json() for card, w in self.wins.items()}
        return record


_PHASES = 4
"""Steps of the progress display per first card: exact stages, sampled histograms, the paper's
registers, the referee."""


def reproduce_example(
    example: PaperExample,
    out_dir: str | Path | None = None,
    shots: int = 1000,
    seed: int | None = 1,
) -> ExampleResult:
    """Run one paper example: every figure exact, sampled and in the paper's registers, and p_win;
    with ``out_dir``, the histograms are then written there (:func:`write_histograms`)."""
    spec = example.spec()
    label = partial(paper_label, spec=spec)
    readable = partial(readable_label, spec=spec)
    figure_results: list[FigureResult] = []
    wins: dict[Card | None, WinResult] = {}
    with step(example.key, total=_PHASES * len(example.firsts)) as task:
        for first in example.firsts:
            where = example.key if first is None else f"{example.key}, first card {first}"
            game = build_game(spec, first, construction="paper")
            figures = _figures_for(example, first)
            wanted = list(dict.fromkeys([f.stage for f in figures] + [game.stages[-1]]))
            task.describe(f"{where}: exact stages ({EXACT_METHOD})")
            exact_probs = exact_stage_probabilities(game, wanted, method=EXACT_METHOD)
            task.advance()
            task.describe(f"{where}: {shots} shots per histogram (aer)")
            samples = sample_stages(game, [f.stage for f in figures], shots, seed)
            task.advance()
            # the register distribution after each stage: only the plain enumerator lists the
            # states of every stage (the fast referee keeps positions, not play registers)
            referee = dict(stage_distributions(spec, first))
            # The same game with the paper's own card registers (Table 4/6), read directly.
            task.describe(f"{where}: the paper's card registers")
            paper_game = build_game(spec, first, paper_codes=True, construction="paper")
            registers = exact_stage_probabilities(
                paper_game,
                [f.stage for f in figures],
                paper_game.layout.card_qubits,
                method=EXACT_METHOD,
            )
            task.advance()
            for fig in figures:
                probs = regroup(decode_distribution(game, fig.stage, exact_probs[fig.stage]), label)
                decoded = decode_distribution(game, fig.stage, samples[fig.stage])
                counts = regroup(decoded, label)
                exact = regroup(referee[fig.stage], label)
                figure_results.append(
                    FigureResult(
                        fig,
                        {k: float(v) for k, v in probs.items()},
                        {k: Fraction(v) for k, v in exact.items()},
                        {k: int(v) for k, v in counts.items()},
                        None,
                        regroup(registers[fig.stage], paper_game.layout.code_label),
                        paper_game.num_qubits,
                        {k: int(v) for k, v in regroup(decoded, readable).items()},
                    )
                )
            last = game.stages[-1]
            final = decode_distribution(game, last, exact_probs[last])
            computed = sum(p for s, p in final.items() if s.declarer_won(spec))
            task.describe(f"{where}: the referee")
            exact_win = evaluate(spec, "random", first).p_win
            adversarial = evaluate(spec, "adversarial", first).p_win
            printed = example.printed_p_win[first]
            reason = None
            if printed != exact_win:
                reason = example.explanations.get(first, "no explanation recorded")
                if printed == adversarial:
                    reason += f" (double-dummy value computed here: {_fraction_text(adversarial)})"
            task.advance()
            wins[first] = WinResult(
                float(computed), exact_win, printed, adversarial, reason, game.num_qubits
            )
    result = ExampleResult(example, tuple(figure_results), wins)
    if out_dir is not None:
        result = write_histograms(result, out_dir, shots)
    return result


def histogram_title(example: PaperExample, figure: PaperFigure, shots: int) -> str:
    """The title of one figure's histogram."""
    return f"{example.key}, Fig. {figure.figure}: {figure.description} ({shots} shots)"


def write_histograms(result: ExampleResult, out_dir: str | Path, shots: int) -> ExampleResult:
    """Write each figure's sampled histogram to ``out_dir``, labelled in words
    (``readable_counts``); the result with their paths."""
    example = result.example
    written = []
    for r in result.figures:
        fig = r.figure
        png = save_histogram(
            r.readable_counts or r.counts,
            Path(out_dir) / f"{example.key}-fig{fig.figure:02d}.png",
            histogram_title(example, fig, shots),
        )
        written.append(replace(r, histogram=str(png)))
    return replace(result, figures=tuple(written))


def reproduce(
    which: Iterable[str] = ("four-card", "six-card"),
    out_dir: str | Path | None = None,
    shots: int = 1000,
    seed: int | None = 1,
) -> dict[str, ExampleResult]:
    """Reproduce the chosen paper examples; keys are the example names."""
    which = list(which)
    return {
        key: reproduce_example(EXAMPLES[key], out_dir, shots, seed)
        for key in track(which, "reproduce: paper examples")
    }
