"""Answers from circuits: p_win, expected points and the declarer's best first card, beside the
referee.

This is where the layers meet: a spec's game circuit (:class:`~qcards.circuits.task.GameTask`)
runs on the chosen method (an exact target, Aer shots, or the classical referee alone), and the
outcomes are decoded into card locations (:mod:`qcards.circuits.decode`).
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from functools import partial
from typing import TYPE_CHECKING, Any, cast

from qcards.analysis.advice import conventions
from qcards.analysis.sampled import (
    Samples,
    circuit_samples,
    double_dummy_exact,
    pimc_samples,
)
from qcards.analysis.scores import (
    ScoreFigures,
    distribution_figures,
    exact_figures,
    objective_value,
    pair_outcomes,
    sample_values,
    sampled_figures,
    snapshot_outcomes,
)
from qcards.circuits.construction import DEFAULT_CONSTRUCTION, Construction
from qcards.circuits.task import GameTask, as_task
from qcards.errors import ModelError, ParameterError, ResourceError
from qcards.execution.backends import EXACT_BACKENDS, parse_backend
from qcards.execution.budget import check_shots, check_work
from qcards.execution.exact_methods import SPARSE
from qcards.execution.sweeps import sweep
from qcards.progress import duration
from qcards.skat import fast_referee
from qcards.skat.cards import Card
from qcards.skat.deal_sampling import fresh_seed
from qcards.skat.history import Moment
from qcards.skat.monte_carlo import playouts
from qcards.skat.objectives import check_objective, expectation, scored_objectives
from qcards.skat.outcomes import outcome_distribution
from qcards.skat.play_models import PlayModel, get_model
from qcards.skat.referee import Evaluation, estimate_paths, num_deals
from qcards.skat.spec import Endgame
from qcards.skat.stages import Snapshot

if TYPE_CHECKING:
    from qcards.circuits.game import GameCircuit

SAMPLING_METHOD = "aer"
"""The sampled method: Aer's shots (``shots`` and ``seed`` apply)."""

SHOTS_METHOD = "shots"
"""Ideal-device shots of the circuit at any size (:mod:`qcards.execution.shots`): what ``auto``
runs when ``shots`` are given with random play."""

PIMC_METHOD = "pimc"
"""Perfect-information Monte Carlo (:mod:`qcards.skat.pimc`): what the adversarial model runs
when ``shots`` are given."""

DOUBLE_DUMMY_METHOD = "double-dummy"
"""The adversarial model's exact value from the double-dummy solver on every deal."""

MONTE_CARLO_METHOD = "monte-carlo"
"""Games played card by card by a play model's policy on sampled deals
(:func:`qcards.skat.monte_carlo.playouts`): what ``shots`` run for a model the circuits do not
prepare (:mod:`qcards.skat.play_models`)."""

METHODS = (*EXACT_BACKENDS, SAMPLING_METHOD, SHOTS_METHOD, "classical", DOUBLE_DUMMY_METHOD, "auto")
"""How :func:`evaluate` computes: an exact target of :mod:`qcards.execution.backends`,
Aer's shots, ideal-device shots, the classical referee alone, the double-dummy solver on every
deal (adversarial model only), or ``auto``."""

SAMPLED = (SAMPLING_METHOD, SHOTS_METHOD, PIMC_METHOD)
"""The methods whose answers carry 95% intervals."""

AER_DEFAULT_SHOTS = 1000
"""Aer's shots when none are given."""

DENSE_FALLBACK = "statevector"
"""What ``auto`` falls back to when DDSIM cannot certify the support of a final state and the
circuit fits a dense state."""

AUTO_CIRCUIT = "sparse"
"""The circuit engine ``auto`` runs when it runs a circuit (when the exact referee cannot answer,
:func:`choose_exact`): the fastest exact simulator measured on
these circuits, qcards' sparse engine (``benchmarks/results/engines.md``: on the twelve-card
endgame 0.2 s against MQT DDSIM's 180 s and Microsoft's sparse simulator's 10 s; no width limit,
its deals in shards)."""


def final_distribution(
    game: GameCircuit,
    method: str,
    shots: int = 1000,
    seed: int | None = None,
    force: bool = False,
) -> dict[Snapshot, float]:
    """Final snapshots: exact (``statevector``, ``mps``, ``ddsim``) or sampled (``aer``);
    ``force`` runs a simulation estimated to take longer than the time budget."""
    # the simulators are imported when a circuit runs, not by the referee's answers
    from qcards.circuits.decode import decode_distribution
    from qcards.execution.exact import exact_stage_probabilities
    from qcards.execution.sampling import sample_stages

    last = game.stages[-1]
    if method in EXACT_BACKENDS:
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
    construction: Construction | str = DEFAULT_CONSTRUCTION
    samples: Samples | None = field(default=None, repr=False, compare=False)
    method_reason: str | None = None
    scores: ScoreFigures | None = None
    """A declared game's expected scores (:mod:`qcards.analysis.scores`)."""

    def to_json(self) -> dict:
        exact = self.p_win_exact
        out: dict[str, Any] = {
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
        if self.method_reason is not None:
            out["method_reason"] = self.method_reason
        if self.samples is not None:
            out["ci"] = list(self.samples.p_win_ci)
            out["expected_points_ci"] = list(self.samples.expected_points_ci)
            out["seed"] = self.samples.seed
        if self.scores is not None:
            out.update(self.scores.to_json())
        return out


def probability(total: float) -> float:
    """A sum of squared amplitudes reported as a probability: rounding can carry a sure win's
    sum to 1.0000000000000002, and a p_win is never reported outside [0, 1]."""
    return min(1.0, max(0.0, float(total)))


def resolve_method(method: str, model: str, shots: int | None = None) -> str:
    """The method that will run: ``auto`` is the sparse engine, or with ``shots`` the
    ideal-device shots (:func:`choose_exact` refines ``auto`` without shots). The adversarial
    model runs ``classical`` (the fast referee's minimax) or ``double-dummy`` (the solver on
    every deal) as asked, and with ``shots`` perfect-information Monte Carlo. A choice that
    cannot answer the question asked is refused, never replaced by another."""
    if method not in METHODS:
        raise ParameterError(
            "method", f"unknown method {method!r} (expected {' | '.join(METHODS)})"
        )
    play_model = get_model(model)
    if shots is not None:
        check_shots(shots)
    if play_model.solver is not None:
        if method not in ("auto", "classical") or shots is not None:
            raise ModelError(
                f"the {play_model.name} model is solved exactly on small endgames only (a "
                f"strategy that looks ahead, by the referee's search), so {{method}} {method}"
                + (" with {shots}" if shots is not None else "")
                + " cannot compute it: use {method} classical or auto, without {shots}",
                parameters=("method", "shots"),
            )
        return "classical"
    if is_policy_model(play_model):
        circuit = (*EXACT_BACKENDS, SAMPLING_METHOD, SHOTS_METHOD)
        if method not in ("auto", "classical", *circuit) or (
            shots is not None and method not in ("auto", SAMPLING_METHOD, SHOTS_METHOD)
        ):
            raise ModelError(
                f"the {play_model.name} model is computed by the referee (exact), by its "
                "policy-weighted circuit (an exact backend, or {shots} with {method} shots or "
                "aer) or, with {shots} and auto, by games played on sampled deals; "
                f"{{method}} {method}"
                + (" with {shots}" if shots is not None else "")
                + " is not one of them",
                parameters=("method", "shots"),
            )
        if method == SHOTS_METHOD and shots is None:
            raise ModelError(
                "{method} shots needs {shots} (how many to sample)",
                parameters=("method", "shots"),
            )
        if method == "auto":
            return "classical" if shots is None else MONTE_CARLO_METHOD
        return method
    if method == DOUBLE_DUMMY_METHOD and model != "adversarial":
        raise ModelError(
            "{method} double-dummy solves every deal with perfect play by every seat, the "
            "adversarial model: give {model} adversarial, or another {method} for random play",
            parameters=("method", "model"),
        )
    if model == "adversarial":
        if method not in ("auto", "classical", DOUBLE_DUMMY_METHOD):
            raise ModelError(
                f"the adversarial (double-dummy) model is classical only, so {{method}} {method} "
                "cannot compute it: the circuits superpose uniformly random play; use {method} "
                "classical, double-dummy or auto (with {shots}: double dummy on sampled deals)",
                parameters=("method", "shots"),
            )
        sampling: tuple[str, ...] = ("auto", DOUBLE_DUMMY_METHOD)
    else:
        sampling = ("auto", SHOTS_METHOD, SAMPLING_METHOD)
    if shots is not None and method not in sampling:
        choices = f"{', '.join(sampling[:-1])} or {sampling[-1]}"
        raise ModelError(
            f"{{shots}} samples, but {{method}} {method} is exact: give {{shots}} with {{method}} "
            f"{choices}, or leave it out",
            parameters=("shots", "method"),
        )
    if model == "adversarial":
        if shots is not None:
            return PIMC_METHOD  # double dummy on sampled deals
        return DOUBLE_DUMMY_METHOD if method == "auto" else method
    if method == SHOTS_METHOD and shots is None:
        raise ModelError(
            "{method} shots needs {shots} (how many to sample)", parameters=("method", "shots")
        )
    if method == "auto":
        return SHOTS_METHOD if shots is not None else AUTO_CIRCUIT
    return method


@dataclass(frozen=True)
class AutoChoice:
    """What ``--method auto`` runs for an exact answer, and why (reported in the JSON)."""

    method: str
    reason: str


def choose_exact(spec: Endgame, first: Card | None, model: str) -> AutoChoice:
    """``auto`` without shots: the cheapest exact method that can answer, by the estimates each
    makes before any work. The referee (:mod:`qcards.skat.fast_referee`, both models) is
    estimated from its positions; a circuit method runs the referee beside it, so it costs
    more whenever the referee fits, and is chosen when the referee cannot answer (its time
    budget, or numerators past 128 bits): the sparse engine (random play; its deals in shards)
    or, for the adversarial model, the double-dummy solver on every deal."""
    try:
        seconds = referee_seconds(spec, first, model)
    except ResourceError as exc:
        fallback = AUTO_CIRCUIT if model == "random" else DOUBLE_DUMMY_METHOD
        what = "the sparse circuit engine" if model == "random" else "double dummy on every deal"
        return AutoChoice(fallback, f"auto: {what}: {exc.reason}")
    if model == "random":
        circuit = paths_seconds(spec, first) + seconds
        other = f"the sparse circuit engine with the referee beside it, about {_seconds(circuit)}"
    else:
        other = "double dummy solves every deal on its own"
    return AutoChoice(
        "classical",
        f"auto: the exact referee, about {_seconds(seconds)}, is the cheapest exact method "
        f"({other})",
    )


def _seconds(seconds: float) -> str:
    return f"{seconds:.2g} s" if seconds < 60 else duration(seconds)


def referee_seconds(spec: Endgame, first: Card | None, model: str) -> float:
    """The fast referee's estimated seconds; :class:`ResourceError` when it cannot answer."""
    fast_referee.check_width(spec)
    return fast_referee.check_time(spec, first, False, model)


def paths_seconds(spec: Endgame, first: Card | None) -> float:
    """The sparse engine's estimated seconds on the game's play paths."""
    return SPARSE.seconds(0, estimate_paths(spec, first), 0)


def evaluate(
    game: GameTask | Endgame,
    first: Card | None = None,
    model: str = "random",
    method: str = "auto",
    shots: int | None = None,
    seed: int | None = None,
    construction: Construction | str | None = None,
    force: bool = False,
    scheduler: str | None = None,
) -> EvaluationReport:
    """Win probability and expected declarer points of a game by the chosen method.

    The classical referee's exact value is reported beside an exact circuit's number. Sampled
    answers (``shots``) carry 95% intervals (:mod:`qcards.analysis.sampled`) and the seed they
    ran with; the referee is not run beside them, since they exist for sizes it cannot reach.

    Args:
        game: a :class:`~qcards.circuits.task.GameTask`, or a spec with ``first`` and
            ``construction`` (:func:`~qcards.circuits.task.as_task`: the inputs of
            :func:`recommend`, :func:`~qcards.execution.run.run` and
            :func:`~qcards.estimation.counting.count` too).
        method: how the question is answered: ``auto`` (the cheapest exact method, or shots
            when ``shots`` is given), ``classical`` (the exact referee, both models),
            ``double-dummy`` (the adversarial model: the double-dummy solver on every deal, or
            on ``shots`` sampled deals), ``shots``, or an exact backend
            (:data:`~qcards.execution.backends.EXACT_BACKENDS`) that runs the game circuit, or
            ``aer`` to sample it.
        shots: sample instead of computing exactly: random play samples the game circuit as
            an ideal device would (``auto`` or ``shots``; or Aer with ``aer``, 1000 shots when
            not given), the adversarial model solves that many sampled deals double dummy.
        construction: which game circuit runs
            (:class:`~qcards.circuits.construction.Construction`); all give the same
            distribution.
        force: run even when the work is estimated to exceed
            :data:`~qcards.execution.budget.TIME_BUDGET` (refused otherwise, before any work).
        scheduler: run the chunks of shots or sampled deals as Dask tasks
            (:func:`~qcards.execution.sweeps.sweep`); the same answer for the same seed.
    """
    task = as_task(game, first, construction)
    spec, first, construction = task.spec, task.first, task.construction
    used = resolve_method(method, model, shots)
    play_model = get_model(model)
    if is_policy_model(play_model) and used in ("classical", MONTE_CARLO_METHOD):
        return _policy_report(task, play_model, used, shots, seed)
    if is_policy_model(play_model):  # its policy-weighted circuit (Sec. X.1)
        task = replace(task, model=play_model.name)
    if spec.num_tricks == 0:
        return _game_over(spec, model, method, shots, construction)
    reason = None
    if method == "auto" and shots is None:
        choice = choose_exact(spec, first, model)
        used, reason = choice.method, choice.reason
    if used in (SHOTS_METHOD, PIMC_METHOD, DOUBLE_DUMMY_METHOD):
        report = _classical_or_sampled(task, model, used, shots, seed, force, scheduler)
        return replace(report, method_reason=reason)
    if used == "classical":  # the fast referee checks its own time before any work
        num_qubits = construction.layout(spec, False).num_qubits
        report = referee_report(referee_exact(spec, model, first, force), num_qubits, construction)
        scores = _exact_scores(spec, first, model, force)
        return replace(report, method_reason=reason, scores=scores)
    # the circuit, with the referee beside it when the referee can answer (else no fraction)
    exact_fraction = _referee_beside(spec, first, play_model, force)
    deals = num_deals(spec)
    check_work(spec, first, force, "evaluating this endgame", 1)
    built = task.build()
    num_qubits = built.num_qubits
    parse_backend(used, "method").check_capacity(num_qubits)  # refuse before any work
    exact = parse_backend(used, "method").exact_method
    if exact is not None and exact.reads_final_rows:
        from qcards.execution.exact import sparse_final_outcomes

        outcomes = sparse_final_outcomes(built, force, scheduler)
        return EvaluationReport(
            probability(sum(p for (v, t, *_), p in outcomes.items() if spec.declarer_wins(v, t))),
            exact_fraction,
            sum(p * v for (v, *_), p in outcomes.items()),
            model,
            used,
            deals,
            num_qubits,
            None,
            construction,
            method_reason=reason,
            scores=distribution_figures(spec, first, pair_outcomes(spec, outcomes)),
        )
    shots = AER_DEFAULT_SHOTS if shots is None else shots
    try:
        dist = final_distribution(built, used, shots, seed, force)
    except ResourceError:
        # auto: DDSIM could not certify the support (too many tiny outcomes); a dense
        # statevector still answers exactly when the circuit fits in memory.
        # the statevector simulator has a width limit (max_qubits is set)
        if method != "auto" or num_qubits > cast(int, parse_backend(DENSE_FALLBACK).max_qubits):
            raise
        used = DENSE_FALLBACK
        dist = final_distribution(built, used, shots, seed, force)
    p_win = sum(p for s, p in dist.items() if s.declarer_won(spec))
    points = sum(p * s.declarer_points(spec) for s, p in dist.items())
    return EvaluationReport(
        probability(p_win),
        exact_fraction,
        float(points),
        model,
        used,
        deals,
        num_qubits,
        shots if used == SAMPLING_METHOD else None,
        construction,
        method_reason=reason,
        scores=distribution_figures(spec, first, snapshot_outcomes(spec, dist)),
    )


def _referee_beside(
    spec: Endgame, first: Card | None, play_model: PlayModel, force: bool
) -> Fraction | None:
    """The referee's exact p_win to report beside a circuit's number: the fast referee's for
    random play, the exact outcome search weighted by a rational policy; None when the
    referee cannot answer in its budget (or the policy's weights are floats)."""
    if is_policy_model(play_model):
        if not play_model.exact:
            return None
        try:
            dist = outcome_distribution(spec, first, play_model.policy)
        except ResourceError:
            return None
        wins = sum((q for (p, t, _m), q in dist.items() if spec.declarer_wins(p, t)), Fraction(0))
        return cast(Fraction, wins)  # an exact model's weights are Fractions
    try:
        referee_seconds(spec, first, play_model.name)
    except ResourceError:
        return None
    return fast_referee.evaluate(spec, play_model.name, first, force=force).p_win


def is_policy_model(play_model: PlayModel) -> bool:
    """A model played by its policy on the classical side only (not minimax, and not the
    uniform play the circuits prepare)."""
    return not play_model.minimax and not play_model.circuits


def _policy_report(
    task: GameTask, play_model: PlayModel, used: str, shots: int | None, seed: int | None
) -> EvaluationReport:
    """A policy model's figures: the referee's exact outcome distribution under the model's
    weights (Fractions when they are rational), or ``shots`` games played by the policy on
    sampled deals (95% intervals)."""
    spec, first = task.spec, task.first
    num_qubits = task.construction.layout(spec, False).num_qubits
    if play_model.solver is not None and used == MONTE_CARLO_METHOD:
        raise ModelError(
            f"the {play_model.name} model is solved exactly on small endgames only: leave out "
            "{shots}",
            parameters=("shots",),
        )
    if used == MONTE_CARLO_METHOD:
        seed = fresh_seed(seed)
        start = time.perf_counter()
        # monte-carlo runs with shots (resolve_method)
        points, wins, tricks, matadors = playouts(
            spec, cast(int, shots), seed, play_model.policy, first
        )
        samples = Samples(wins, points, seed, time.perf_counter() - start,
                          sample_values(spec, points, tricks, matadors))  # fmt: skip
        return EvaluationReport(
            samples.p_win, None, samples.expected_points, play_model.name, used, num_deals(spec),
            num_qubits, shots, task.construction, samples,
            scores=sampled_figures(spec, samples.scores),
            method_reason=f"the {play_model.name} model: games played by its policy on "
            "sampled deals",
        )  # fmt: skip
    if play_model.solver is not None:
        dist = play_model.solver(spec, first)
    else:
        dist = outcome_distribution(spec, first, play_model.policy)
    p_win = sum(q for (p, t, _m), q in dist.items() if spec.declarer_wins(p, t))
    points = sum(q * p for (p, _t, _m), q in dist.items())
    if spec.declaration is None:
        scores = None
    elif play_model.exact:
        scores = exact_figures(spec, first, dist)
    else:
        values = {o.report: float(expectation(spec, o, dist)) for o in scored_objectives(spec)}
        scores = ScoreFigures(values)
    return EvaluationReport(
        float(p_win), Fraction(p_win) if play_model.exact else None, float(points),
        play_model.name, "classical", num_deals(spec), num_qubits, None, task.construction,
        method_reason=f"the {play_model.name} model: the referee's search over every play, "
        + ("with the model's strategy (exact)" if play_model.solver is not None else
           f"weighted by its policy ({'exact' if play_model.exact else 'floats'})"),
        scores=scores,
    )  # fmt: skip


def _game_over(
    spec: Endgame, model: str, method: str, shots: int | None, construction: Construction
) -> EvaluationReport:
    """A spec with no trick left (a history that played the whole game): the outcome is known,
    or an average over the unknown Skat's contents, and the referee gives it exactly (for the
    adversarial model that is also the double-dummy value); there is no circuit to run, so a
    circuit method is refused rather than replaced, and no shot is drawn."""
    # resolve_method has already refused double-dummy outside the adversarial model
    if method not in ("auto", "classical", DOUBLE_DUMMY_METHOD):
        raise ParameterError(
            "method",
            f"every card has been played, so there is no circuit to run with {{method}} {method}: "
            "the outcome is known (or averages over the Skat's contents); use {method} classical "
            "or auto",
        )
    reason = "every card has been played: the referee reads the outcome exactly"
    if shots is not None:
        reason += ", and no shot is drawn"
    report = referee_report(fast_referee.evaluate(spec, model), 0, construction)
    return replace(report, method_reason=reason, scores=_exact_scores(spec, None, model, False))


def _exact_scores(
    spec: Endgame, first: Card | None, model: str, force: bool
) -> ScoreFigures | None:
    """A declared game's exact scores beside the referee's p_win: the outcome search under
    random play, the double-dummy outcomes of every deal under the adversarial model."""
    if spec.declaration is None:
        return None
    if model == "random":
        return exact_figures(spec, first)
    return exact_figures(spec, first, double_dummy_exact(spec, first, force).outcomes)


INSTEAD_OF_CLASSICAL = {
    "random": "{method} auto answers from the game circuit's exact state where the referee "
    "cannot, and {method} shots with {shots} samples the circuit shot by shot at any size",
    "adversarial": "{method} double-dummy solves every deal exactly, and with {shots} samples "
    "deals (perfect-information Monte Carlo)",
}
"""What answers when the referee cannot, by model: ``classical`` itself never falls back."""


def referee_exact(spec: Endgame, model: str, first: Card | None, force: bool) -> Evaluation:
    """The fast referee's exact answer (``method="classical"``); its refusal (time, or
    numerators past 128 bits) names the methods that can answer instead."""
    try:
        return fast_referee.evaluate(spec, model, first, force=force)
    except ResourceError as exc:
        raise ResourceError(
            f"{exc.args[0]}; with {{method}} classical nothing else is tried: "
            f"{INSTEAD_OF_CLASSICAL[model]}",
            parameters=tuple(dict.fromkeys((*exc.parameters, "method", "shots"))),
        ) from exc


def referee_report(
    referee, num_qubits: int, construction: Construction | str = DEFAULT_CONSTRUCTION
) -> EvaluationReport:
    """The report of the classical referee's exact answer (``"method": "classical"``)."""
    return EvaluationReport(
        float(referee.p_win),
        referee.p_win,
        float(referee.expected_points),
        referee.model,
        "classical",
        referee.num_deals,
        num_qubits,
        construction=construction,
    )


def _classical_or_sampled(
    task: GameTask,
    model: str,
    used: str,
    shots: int | None,
    seed: int | None,
    force: bool,
    scheduler: str | None,
) -> EvaluationReport:
    """The methods that reach the full game: ideal shots, PIMC and exact double dummy."""
    spec, first = task.spec, task.first
    num_qubits = task.build().num_qubits
    deals = num_deals(spec)
    if used == DOUBLE_DUMMY_METHOD:
        average = double_dummy_exact(spec, first, force)
        return EvaluationReport(
            float(average.p_win), average.p_win, float(average.expected_points), model, used,
            average.num_deals, num_qubits, None, task.construction,
            scores=exact_figures(spec, first, average.outcomes),
        )  # fmt: skip
    count = cast(int, shots)  # the sampled methods run with shots (resolve_method)
    if used == SHOTS_METHOD:
        samples = circuit_samples(
            spec, first, count, seed, task.construction, scheduler, force, task.model
        )
    else:
        samples = pimc_samples(spec, first, count, seed, scheduler, force)
    return EvaluationReport(
        samples.p_win,
        None,
        samples.expected_points,
        model,
        used,
        deals,
        num_qubits,
        shots,
        task.construction,
        samples,
        scores=sampled_figures(spec, samples.scores),
    )


def evaluate_specs(
    specs: Sequence[Endgame], scheduler: str | None = None, **options
) -> list[EvaluationReport]:
    """:func:`evaluate` of each spec with the same keyword ``options``, in order.

    The specs are independent: ``scheduler`` runs them as Dask tasks
    (:func:`~qcards.execution.sweeps.sweep`), and each report equals that of the spec evaluated
    alone (a sampled method's seed included). With ``shots`` the specs run one after another
    and ``scheduler`` runs each one's chunks of shots or sampled deals instead (a full game
    is one spec of many chunks).
    """
    if options.get("shots") is not None and options.get("method", "auto") != SAMPLING_METHOD:
        return [evaluate(spec, scheduler=scheduler, **options) for spec in specs]
    return sweep(partial(evaluate, **options), specs, scheduler, "specs evaluated")


def recommend(
    game: GameTask | Endgame,
    model: str = "random",
    method: str = "auto",
    seed: int | None = None,
    construction: Construction | str | None = None,
    scheduler: str | None = None,
    force: bool = False,
    shots: int | None = None,
    objective: str = "win",
) -> list[tuple[Card, EvaluationReport]]:
    """p_win of every first card of the declarer (who must lead), best first (equal chances:
    more expected points first; exact ties in the order of Skat's conventions,
    :func:`qcards.analysis.advice.conventions`); with ``objective`` ``score`` or
    ``seeger-fabian``, by a declared game's expected score instead
    (:mod:`qcards.skat.objectives`).

    Exact methods: each first card is one independent :func:`evaluate`; ``scheduler`` runs
    them as Dask tasks (:func:`~qcards.execution.sweeps.sweep`: ``"local"`` or a scheduler
    address), with the same results as without. The work of all first cards together is
    estimated first and refused above :data:`~qcards.execution.budget.TIME_BUDGET` unless
    ``force``. With ``shots`` every card is sampled with one seed, so on the same deals
    (common random numbers; :func:`card_differences` measures the gaps), and ``scheduler``
    runs each card's chunks of shots. ``game`` is a spec or a task without a first card
    (:func:`~qcards.circuits.task.as_task`).
    """
    task = as_task(game, None, construction)
    if task.first is not None:
        raise ParameterError(
            "game", "recommend ranks every first card: give a task without a first card"
        )
    spec, construction = task.spec, task.construction
    goal = check_objective(spec, objective)
    if spec.leader != spec.declarer:
        raise ModelError(
            f"recommend needs the declarer {spec.declarer} to lead the first trick "
            f"(the leader is {spec.leader})"
        )
    hand = spec.hands[spec.declarer]
    if not hand:
        raise ModelError(f"the declarer {spec.declarer} has no known cards to choose from")
    used = resolve_method(method, model, shots)
    options: dict[str, Any] = {"model": model, "method": method, "construction": construction}
    if used in (SHOTS_METHOD, PIMC_METHOD, MONTE_CARLO_METHOD):
        seed = fresh_seed(seed)
        sampled = [
            evaluate(
                spec, card, shots=shots, seed=seed, scheduler=scheduler, force=force, **options
            )
            for card in hand
        ]
        return sorted(
            zip(hand, sampled, strict=True),
            key=lambda item: (
                _objective_rank(item[1], goal.report) or (-item[1].p_win, -item[1].expected_points)
            ),
        )
    if method == "auto" and not is_policy_model(get_model(model)):
        used = choose_exact(spec, None, model).method
    if used not in (DOUBLE_DUMMY_METHOD, "classical"):  # the referee checks its own time
        check_work(spec, None, force, "recommending a first card", 1)
    one_card = partial(
        evaluate,
        spec,
        seed=seed,
        shots=shots,
        # the play paths were checked above for all first cards together (so each card's own
        # check passes); each card's simulation is checked against the budget on its own
        force=force,
        **options,
    )
    reports = list(zip(hand, sweep(one_card, hand, scheduler, "first cards"), strict=True))
    habit = conventions(Moment(spec, ()))

    def rank(item: tuple[Card, EvaluationReport]) -> tuple:
        # exact methods differ from the referee's fraction only by rounding: rank by the
        # fraction, so exact ties are ordered by Skat's conventions; sampled values rank by
        # themselves; equal chances are told apart by the expected points
        card, report = item
        by_score = _objective_rank(report, goal.report)
        if by_score:
            return (*by_score, -habit.get(card, 0))
        if report.method in SAMPLED or report.p_win_exact is None:
            return -report.p_win, -report.expected_points
        return -report.p_win_exact, -round(report.expected_points, 9), -habit.get(card, 0)

    return sorted(reports, key=rank)


def _objective_rank(report: EvaluationReport, name: str) -> tuple | None:
    """The rank key of a score objective (``None`` for ``p_win``, ranked as before)."""
    if name == "p_win":
        return None
    return (-objective_value(report.scores, name), -report.p_win)


def card_differences(
    ranked: Sequence[tuple[object, EvaluationReport]],
) -> list[tuple[float, tuple[float, float]] | None]:
    """For each sampled answer of a ranking, its p_win minus the best one's, measured on the
    same shots, with the 95% interval of that difference (None for exact answers)."""
    best = ranked[0][1].samples if ranked else None
    out: list[tuple[float, tuple[float, float]] | None] = []
    for _, report in ranked:
        if best is None or report.samples is None:
            out.append(None)
        else:
            out.append(report.samples.difference(best))
    return out
