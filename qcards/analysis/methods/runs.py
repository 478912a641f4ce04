"""How each built-in evaluation method runs a :class:`~qcards.analysis.methods.record.Request`.

The referee (exact, every model), the game circuit on an exact backend or sampled by Aer or
shot by shot, the double-dummy solver on every deal or on sampled deals (PIMC), and games
played by a model's policy on sampled deals. The records that point here are in
:mod:`qcards.analysis.methods.builtin`.
"""

from __future__ import annotations

import time
from dataclasses import replace
from fractions import Fraction
from typing import TYPE_CHECKING, cast

# imported, not only named for type checkers: the API reference resolves them unambiguously
from qcards.analysis.methods.record import Request
from qcards.analysis.methods.report import EvaluationReport, probability, referee_report
from qcards.analysis.scores import (
    ScoreFigures,
    distribution_figures,
    exact_figures,
    pair_outcomes,
    sample_values,
    sampled_figures,
    snapshot_outcomes,
)
from qcards.errors import ResourceError
from qcards.execution.backends import EXACT_BACKENDS, parse_backend
from qcards.skat.deals.count import num_deals
from qcards.skat.players.play_models import CIRCUIT, MINIMAX, PlayModel
from qcards.skat.position.spec import Endgame
from qcards.skat.position.stages import Snapshot
from qcards.skat.rules.cards import Card
from qcards.skat.solvers import evaluation, minimax
from qcards.skat.solvers.objectives import expectation, scored_objectives
from qcards.skat.solvers.outcome_distributions import outcome_distribution
from qcards.skat.solvers.plain_referee import Evaluation

if TYPE_CHECKING:
    from qcards.circuits.game import GameCircuit  # qiskit: imported when a circuit is built

INSTEAD_OF_CLASSICAL = {
    CIRCUIT: "{method} auto answers from the game circuit's exact state where the referee "
    "cannot, and {method} shots with {shots} samples the circuit shot by shot at any size",
    MINIMAX: "{method} double-dummy solves every deal exactly, and with {shots} samples "
    "deals (perfect-information Monte Carlo)",
}
"""What answers when the referee cannot, by kind of model: ``classical`` never falls back."""


REFEREE_MODELS = {CIRCUIT: "random", MINIMAX: minimax.ADVERSARIAL}
"""The referee's own model for each kind of play model it searches directly: the uniform play
the circuits prepare, and every deal played open. Chosen by the record's kind, never its name,
so that another package's record of either kind is answered as the built-in one is."""


def referee_seconds(spec: Endgame, first: Card | None, model: PlayModel) -> float:
    """The fast referee's estimated seconds; :class:`ResourceError` when it cannot answer."""
    return evaluation.check(spec, first, REFEREE_MODELS[model.kind])


def paths_seconds(spec: Endgame, first: Card | None) -> float:
    """The sparse engine's estimated seconds on the game's play paths."""
    from qcards.execution.exact_methods import SPARSE
    from qcards.skat.solvers.plain_referee import estimate_paths

    return SPARSE.seconds(0, estimate_paths(spec, first), 0)


def referee_exact(spec: Endgame, model: PlayModel, first: Card | None, force: bool) -> Evaluation:
    """The fast referee's exact answer; its refusal (time, or numerators past 128 bits) names
    the methods that can answer instead."""
    try:
        return evaluation.evaluate(spec, REFEREE_MODELS[model.kind], first, force=force)
    except ResourceError as exc:
        raise ResourceError(
            f"{exc.args[0]}; with {{method}} classical nothing else is tried: "
            f"{INSTEAD_OF_CLASSICAL[model.kind]}",
            parameters=tuple(dict.fromkeys((*exc.parameters, "method", "shots"))),
        ) from exc


def num_qubits(request: Request) -> int:
    """The game circuit's width, from the construction's register sizes (nothing is built)."""
    return request.construction.num_qubits(request.spec)


def exact_scores(
    spec: Endgame, first: Card | None, model: PlayModel, force: bool
) -> ScoreFigures | None:
    """A declared game's exact scores beside the referee's p_win: the outcome search under
    random play, the double-dummy outcomes of every deal under the adversarial model."""
    if spec.declaration is None:
        return None
    if model.kind == CIRCUIT:
        return exact_figures(spec, first)
    return exact_figures(spec, first, minimax.average(spec, first, force).outcomes)


# ----------------------------------------------------------------------------- the referee


def run_classical(request: Request) -> EvaluationReport:
    """The exact referee: the fast referee's search for random and adversarial play (it
    checks its own time before any work), the outcome search weighted by a policy model's
    policy, or a solver model's own outcome distribution."""
    spec, first, model = request.spec, request.first, request.model
    if model.kind not in REFEREE_MODELS:
        return _policy_exact(request)
    if spec.num_tricks == 0:
        value = evaluation.evaluate(spec, REFEREE_MODELS[model.kind])
        report = referee_report(value, 0, request.construction, request.method)
        scores = exact_scores(spec, None, model, False)
    else:
        report = referee_report(
            referee_exact(spec, model, first, request.force), num_qubits(request),
            request.construction, request.method,
        )  # fmt: skip
        scores = exact_scores(spec, first, model, request.force)
    return replace(report, model=model.name, scores=scores)


def _policy_exact(request: Request) -> EvaluationReport:
    """A policy model's exact outcome distribution under its weights (Fractions when they are
    rational), or a solver model's."""
    spec, first, model = request.spec, request.first, request.model
    if model.solver is not None:
        dist = model.solver(spec, first)
    else:
        dist = outcome_distribution(spec, first, model.policy)
    p_win = sum(q for (p, t, _m), q in dist.items() if spec.declarer_wins(p, t))
    points = sum(q * p for (p, _t, _m), q in dist.items())
    if spec.declaration is None:
        scores = None
    elif model.exact:
        scores = exact_figures(spec, first, dist)
    else:
        values = {o.report: float(expectation(spec, o, dist)) for o in scored_objectives(spec)}
        scores = ScoreFigures(values)
    return EvaluationReport(
        float(p_win), Fraction(p_win) if model.exact else None, float(points),
        model.name, request.method, num_deals(spec), num_qubits(request), None,
        request.construction,
        method_reason=f"the {model.name} model: the referee's search over every play, "
        + ("with the model's strategy (exact)" if model.solver is not None else
           f"weighted by its policy ({'exact' if model.exact else 'floats'})"),
        scores=scores,
    )  # fmt: skip


def referee_beside(
    spec: Endgame, first: Card | None, model: PlayModel, force: bool
) -> Fraction | None:
    """The referee's exact p_win to report beside a circuit's number: the fast referee's for
    random play, the exact outcome search weighted by a rational policy; None when the
    referee cannot answer in its budget (or the policy's weights are floats)."""
    if model.kind != CIRCUIT:
        if not model.exact:
            return None
        try:
            dist = outcome_distribution(spec, first, model.policy)
        except ResourceError:
            return None
        wins = sum((q for (p, t, _m), q in dist.items() if spec.declarer_wins(p, t)), Fraction(0))
        return cast(Fraction, wins)  # an exact model's weights are Fractions
    try:
        referee_seconds(spec, first, model)
    except ResourceError:
        return None
    return evaluation.evaluate(spec, REFEREE_MODELS[model.kind], first, force=force).p_win


# ----------------------------------------------------------------------------- the circuit


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
    from qcards.execution.exact import check_circuit_time, exact_stage_probabilities
    from qcards.execution.exact_methods import STATEVECTOR
    from qcards.execution.sampling import sample_stages

    last = game.stages[-1]
    if method in EXACT_BACKENDS:
        probs = exact_stage_probabilities(game, [last], method=method, force=force)[last]
        return decode_distribution(game, last, probs)
    # Aer prepares the state once and samples its shots: planned as a statevector simulation
    check_circuit_time(game.circuit, game.num_qubits, 0, STATEVECTOR, force)
    counts = sample_stages(game, [last], shots=shots, seed=seed, target=method)[last]
    return {s: c / shots for s, c in decode_distribution(game, last, counts).items()}


def run_circuit(request: Request) -> EvaluationReport:
    """The game circuit (with a policy model's weighted card plays, Sec. X.1) on the backend
    the method is named after, exactly or by Aer's shots, with the referee's exact value
    beside it when the referee can answer (else no fraction). Every refusal comes before the
    work: a circuit wider than the backend holds from the construction's register sizes,
    before the circuit is built; the simulation's memory and time before it runs; the referee
    runs after the simulation."""
    spec, first, model, force = request.spec, request.first, request.model, request.force
    backend = parse_backend(request.method, "method")
    backend.check_capacity(num_qubits(request))  # refuse before any work
    built = request.task.build()
    backend.check_capacity(built.num_qubits)  # the built width, should a model's differ
    exact = backend.exact_method
    if exact is not None and exact.reads_final_rows:
        from qcards.execution.exact import sparse_final_outcomes

        outcomes = sparse_final_outcomes(built, force, request.scheduler)
        p_win = sum(p for (v, t, *_), p in outcomes.items() if spec.declarer_wins(v, t))
        points = sum(p * v for (v, *_), p in outcomes.items())
        pairs = pair_outcomes(spec, outcomes)
    else:  # aer's shots (its record gives the default), or another exact backend's state
        dist = final_distribution(built, request.method, request.shots or 0, request.seed, force)
        p_win = sum(p for s, p in dist.items() if s.declarer_won(spec))
        points = float(sum(p * s.declarer_points(spec) for s, p in dist.items()))
        pairs = snapshot_outcomes(spec, dist)
    exact_fraction = referee_beside(spec, first, model, force)
    return EvaluationReport(
        probability(p_win), exact_fraction, points, model.name, request.method, num_deals(spec),
        built.num_qubits, request.shots, request.construction,
        scores=distribution_figures(spec, first, pairs),
    )  # fmt: skip


# ----------------------------------------------------------------------------- sampled


def _sampled_report(request: Request, samples, qubits: int) -> EvaluationReport:
    spec = request.spec
    return EvaluationReport(
        samples.p_win, None, samples.expected_points, request.model.name, request.method,
        num_deals(spec), qubits, request.shots, request.construction, samples,
        scores=sampled_figures(spec, samples.scores),
    )  # fmt: skip


def run_shots(request: Request) -> EvaluationReport:
    """Ideal-device shots of the game circuit at any size (:mod:`qcards.execution.shots`)."""
    from qcards.analysis.sampled import circuit_samples

    samples = circuit_samples(
        request.spec, request.first, cast(int, request.shots), request.seed,
        request.construction, request.scheduler, request.force, request.task.model,
    )  # fmt: skip
    return _sampled_report(request, samples, request.task.build().num_qubits)


def run_pimc(request: Request) -> EvaluationReport:
    """Perfect-information Monte Carlo: ``shots`` sampled deals solved double dummy."""
    from qcards.analysis.sampled import pimc_samples

    samples = pimc_samples(
        request.spec, request.first, cast(int, request.shots), request.seed,
        request.scheduler, request.force,
    )  # fmt: skip
    return _sampled_report(request, samples, request.task.build().num_qubits)


def run_double_dummy(request: Request) -> EvaluationReport:
    """The adversarial model's exact value: the double-dummy solver on every deal."""
    spec, first = request.spec, request.first
    average = minimax.average(spec, first, request.force)
    return EvaluationReport(
        float(average.p_win), average.p_win, float(average.expected_points), request.model.name,
        request.method, average.num_deals, request.task.build().num_qubits, None,
        request.construction, scores=exact_figures(spec, first, average.outcomes),
    )  # fmt: skip


def run_monte_carlo(request: Request) -> EvaluationReport:
    """``shots`` games played card by card by the model's policy on sampled deals
    (:func:`qcards.skat.solvers.monte_carlo.playouts`)."""
    from qcards.analysis.sampled import Samples
    from qcards.skat.deals.sample import fresh_seed
    from qcards.skat.solvers.monte_carlo import playouts

    spec, model = request.spec, request.model
    seed = fresh_seed(request.seed)
    start = time.perf_counter()
    points, wins, tricks, matadors = playouts(
        spec, cast(int, request.shots), seed, model.policy, request.first
    )
    samples = Samples(wins, points, seed, time.perf_counter() - start,
                      sample_values(spec, points, tricks, matadors))  # fmt: skip
    return _sampled_report(request, samples, num_qubits(request))
