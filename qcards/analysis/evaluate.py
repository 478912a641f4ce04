"""Answers from circuits: p_win, expected points and the declarer's best first card, beside the
referee.

This is where the layers meet: a spec's game circuit (:class:`~qcards.circuits.task.GameTask`)
runs on the chosen method (an exact target, Aer shots, or the classical referee alone), and the
outcomes are decoded into card locations (:mod:`qcards.circuits.decode`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import partial

from qcards.circuits.construction import DEFAULT_CONSTRUCTION, Construction
from qcards.circuits.decode import decode_distribution
from qcards.circuits.game import GameCircuit
from qcards.circuits.task import GameTask
from qcards.errors import ModelError, ParameterError, ResourceError
from qcards.execution.budget import check_work
from qcards.execution.exact import exact_stage_probabilities, sparse_final_outcomes
from qcards.execution.sampling import sample_stages
from qcards.execution.sweeps import sweep
from qcards.execution.targets import EXACT_TARGETS, parse_target
from qcards.skat.cards import Card
from qcards.skat.referee import evaluate
from qcards.skat.spec import Endgame
from qcards.skat.stages import Snapshot

SAMPLING_METHOD = "aer"
"""The sampled method: Aer's shots (``shots`` and ``seed`` apply)."""

METHODS = (*EXACT_TARGETS, SAMPLING_METHOD, "classical", "auto")
"""How :func:`evaluate_spec` computes: an exact target of :mod:`qcards.execution.targets`,
Aer's shots, the classical referee alone, or ``auto``."""

AUTO_METHOD = "sparse"
"""What ``auto`` runs: the fastest exact simulator measured on these circuits, qcards' sparse
engine (``benchmarks/results/engines.md``: on the twelve-card endgame 0.2 s against MQT DDSIM's
180 s and Microsoft's sparse simulator's 10 s; no width limit, a memory guard)."""


def final_distribution(
    game: GameCircuit,
    method: str,
    shots: int = 1000,
    seed: int | None = None,
    force: bool = False,
) -> dict[Snapshot, float]:
    """Final snapshots: exact (``statevector``, ``mps``, ``ddsim``) or sampled (``aer``);
    ``force`` runs a simulation estimated to take longer than the time budget."""
    last = game.stages[-1]
    if method in EXACT_TARGETS:
        probs = exact_stage_probabilities(game, [last], method=method, force=force)[last]
        return decode_distribution(game, last, probs)
    counts = sample_stages(game, [last], shots=shots, seed=seed, target=method)[last]
    return {s: c / shots for s, c in decode_distribution(game, last, counts).items()}


@dataclass(frozen=True)
class EvaluationReport:
    """What ``qcards evaluate`` reports."""

    p_win: float
    p_win_exact: Fraction | None
    expected_points: float
    model: str
    method: str
    num_deals: int
    num_qubits: int
    shots: int | None = None
    construction: Construction = DEFAULT_CONSTRUCTION

    def to_json(self) -> dict:
        exact = self.p_win_exact
        return {
            "p_win": self.p_win,
            "p_win_exact": None if exact is None else f"{exact.numerator}/{exact.denominator}",
            "expected_points": self.expected_points,
            "model": self.model,
            "method": self.method,
            "num_deals": self.num_deals,
            "num_qubits": self.num_qubits,
            "construction": str(self.construction),
            "shots": self.shots,
        }


def probability(total: float) -> float:
    """A sum of squared amplitudes reported as a probability: rounding can carry a sure win's
    sum to 1.0000000000000002, and a p_win is never reported outside [0, 1]."""
    return min(1.0, max(0.0, float(total)))


def resolve_method(method: str, model: str, num_qubits: int) -> str:
    """The method that will run (``auto``: :data:`AUTO_METHOD`)."""
    if method not in METHODS:
        raise ParameterError(
            "method", f"unknown method {method!r} (expected {' | '.join(METHODS)})"
        )
    if model == "adversarial":
        if method in ("statevector", "mps", "aer"):
            raise ModelError(
                "the adversarial (double-dummy) model is classical only: the circuits superpose "
                "uniformly random play; use {method} classical or auto",
                parameters=("method",),
            )
        return "classical"
    if method == "auto":
        return AUTO_METHOD
    return method


def evaluate_spec(
    spec: Endgame,
    first: Card | None = None,
    model: str = "random",
    method: str = "auto",
    shots: int = 1000,
    seed: int | None = None,
    construction: Construction | str = DEFAULT_CONSTRUCTION,
    force: bool = False,
) -> EvaluationReport:
    """Win probability and expected declarer points of ``spec`` by the chosen method.

    The classical referee's exact value is always reported beside a circuit's number.

    Args:
        construction: which game circuit runs
            (:class:`~qcards.circuits.construction.Construction`); both give the same
            distribution.
        force: run even when the work is estimated to exceed
            :data:`~qcards.execution.budget.TIME_BUDGET` (refused otherwise, before any work).
    """
    passes = 1 if method == "classical" else 2  # the referee, and the circuit beside it
    check_work(spec, first, force, "evaluating this endgame", passes)
    task = GameTask(spec, first, construction)
    construction = task.construction
    game = task.build()
    num_qubits = game.num_qubits
    used = resolve_method(method, model, num_qubits)
    if used != "classical":
        parse_target(used, "method").check_capacity(num_qubits)  # refuse before any work
    referee = evaluate(spec, model, first)
    if used == "classical":
        return EvaluationReport(
            float(referee.p_win),
            referee.p_win,
            float(referee.expected_points),
            model,
            used,
            referee.num_deals,
            num_qubits,
            construction=construction,
        )
    if used == "sparse":
        outcomes = sparse_final_outcomes(game, force)
        return EvaluationReport(
            probability(sum(p for (v, t), p in outcomes.items() if spec.declarer_wins(v, t))),
            referee.p_win,
            sum(p * v for (v, _t), p in outcomes.items()),
            model,
            used,
            referee.num_deals,
            num_qubits,
            None,
            construction,
        )
    try:
        dist = final_distribution(game, used, shots, seed, force)
    except ResourceError:
        # auto: DDSIM could not certify the support (too many tiny outcomes); a dense
        # statevector still answers exactly when the circuit fits in memory.
        if method != "auto" or num_qubits > parse_target("statevector").max_qubits:
            raise
        used = "statevector"
        dist = final_distribution(game, used, shots, seed, force)
    p_win = sum(p for s, p in dist.items() if s.declarer_won(spec))
    points = sum(p * s.declarer_points(spec) for s, p in dist.items())
    return EvaluationReport(
        probability(p_win),
        referee.p_win,
        float(points),
        model,
        used,
        referee.num_deals,
        num_qubits,
        shots if used == SAMPLING_METHOD else None,
        construction,
    )


def evaluate_specs(
    specs: Sequence[Endgame], scheduler: str | None = None, **options
) -> list[EvaluationReport]:
    """:func:`evaluate_spec` of each spec with the same keyword ``options``, in order.

    The specs are independent: ``scheduler`` runs them as Dask tasks
    (:func:`~qcards.execution.sweeps.sweep`), and each report equals that of the spec evaluated
    alone (a sampled method's seed included).
    """
    return sweep(partial(evaluate_spec, **options), specs, scheduler, "specs evaluated")


def recommend_spec(
    spec: Endgame,
    model: str = "random",
    method: str = "auto",
    seed: int | None = None,
    construction: Construction | str = DEFAULT_CONSTRUCTION,
    scheduler: str | None = None,
    force: bool = False,
) -> list[tuple[Card, EvaluationReport]]:
    """p_win of every first card of the declarer (who must lead), best first.

    Each first card is one independent :func:`evaluate_spec`; ``scheduler`` runs them as Dask
    tasks (:func:`~qcards.execution.sweeps.sweep`: ``"local"`` or a scheduler address), with the
    same results as without. The work of all first cards together is estimated first and
    refused above :data:`~qcards.execution.budget.TIME_BUDGET` unless ``force``.
    """
    if spec.leader != spec.declarer:
        raise ModelError(
            f"recommend needs the declarer {spec.declarer} to lead the first trick "
            f"(the leader is {spec.leader})"
        )
    hand = spec.hands[spec.declarer]
    if not hand:
        raise ModelError(f"the declarer {spec.declarer} has no known cards to choose from")
    passes = 1 if method == "classical" else 2
    check_work(spec, None, force, "recommending a first card", passes)
    one_card = partial(
        evaluate_spec,
        spec,
        model=model,
        method=method,
        seed=seed,
        construction=construction,
        # the play paths were checked above for all first cards together (so each card's own
        # check passes); each card's simulation is checked against the budget on its own
        force=force,
    )
    reports = list(zip(hand, sweep(one_card, hand, scheduler, "first cards"), strict=True))

    def rank(item: tuple[Card, EvaluationReport]) -> float | Fraction:
        # exact methods differ from the referee's fraction only by rounding: rank by the
        # fraction, so exact ties keep the hand order; sampled values rank by themselves
        report = item[1]
        if report.method == SAMPLING_METHOD or report.p_win_exact is None:
            return -report.p_win
        return -report.p_win_exact

    return sorted(reports, key=rank)
