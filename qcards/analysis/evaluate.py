"""Answers from circuits and referees: p_win, expected points and the declarer's best first
card.

This is where the layers meet: a spec's game (:class:`~qcards.circuits.task.GameTask`) is
answered by an evaluation method, a record of :mod:`qcards.analysis.methods` (the referee, the
game circuit on an exact backend or sampled, the double-dummy solver, games played by a
policy), and ``auto`` chooses the cheapest record that can answer.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from functools import partial
from typing import Any

from qcards.analysis.methods.record import Request
from qcards.analysis.methods.registry import AUTO, choose_auto, get_method, resolve
from qcards.analysis.methods.report import EvaluationReport
from qcards.analysis.scores import objective_value
from qcards.circuits.construction import Construction
from qcards.circuits.task import GameTask, as_task
from qcards.errors import ModelError, ParameterError
from qcards.execution.budget import check_work
from qcards.execution.sweeps import sweep
from qcards.skat.deals.sample import fresh_seed
from qcards.skat.players.play_models import get_model
from qcards.skat.position.history import Moment
from qcards.skat.position.spec import Endgame
from qcards.skat.rules.cards import Card
from qcards.skat.solvers.objectives import check_objective
from qcards.skat.solvers.plain_referee import game_over

FINISHED = "every card has been played: the referee reads the outcome exactly"
"""The reason of a spec with no trick left."""


def evaluate(
    game: GameTask | Endgame,
    first: Card | None = None,
    model: str = "random",
    method: str = AUTO,
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
        method: a record of :mod:`qcards.analysis.methods` or ``auto`` (the cheapest that can
            answer, or shots when ``shots`` is given): ``classical`` (the exact referee, every
            model), ``double-dummy`` (the adversarial model: the double-dummy solver on every
            deal, or ``pimc`` on ``shots`` sampled deals), ``monte-carlo`` (a policy model's
            games on sampled deals), ``shots``, an exact backend
            (:data:`~qcards.execution.backends.EXACT_BACKENDS`) that runs the game circuit, or
            ``aer`` to sample it. A method that cannot answer is refused, never replaced.
        shots: sample instead of computing exactly: random play samples the game circuit as
            an ideal device would (``auto`` or ``shots``; or Aer with ``aer``, 1000 shots when
            not given), the adversarial model solves that many sampled deals double dummy.
        construction: which game circuit runs
            (:class:`~qcards.circuits.construction.Construction`); all give the same
            distribution.
        force: run even when the work is estimated to exceed
            the time limit (:mod:`qcards.plan`; refused otherwise, before any work).
        scheduler: run the chunks of shots or sampled deals as Dask tasks
            (:func:`~qcards.execution.sweeps.sweep`); the same answer for the same seed.
    """
    task = as_task(game, first, construction)
    play_model = get_model(model)
    asked = resolve(method, play_model, shots)
    if play_model.policy is not None:  # the circuits weigh their card plays by it (Sec. X.1)
        task = replace(task, model=play_model.name)
    if task.spec.num_tricks == 0:
        return _finished(task, play_model, asked, shots)
    reason = None
    if asked is None:
        request = Request(task, play_model, AUTO, shots, seed, force, scheduler)
        choice = choose_auto(request)
        asked, reason = choice.method, choice.reason
    if shots is None:
        shots = asked.default_shots
    request = Request(task, play_model, asked.name, shots, seed, force, scheduler)
    report = asked.run(request)
    return replace(report, method_reason=_joined(reason, report.method_reason))


def _finished(task: GameTask, play_model, asked, shots: int | None) -> EvaluationReport:
    """A spec with no trick left (a history that played the whole game): the outcome is known,
    or an average over the unknown Skat's contents, and the referee gives it exactly (for the
    adversarial model that is also the double-dummy value); there is no circuit to run, so a
    circuit method is refused rather than replaced, and no shot is drawn."""
    if asked is not None and asked.circuit:
        raise ParameterError(
            "method",
            f"every card has been played, so there is no circuit to run with {{method}} "
            f"{asked.name}: the outcome is known (or averages over the Skat's contents); use "
            "{method} classical or auto",
        )
    classical = get_method("classical")
    report = classical.run(Request(task, play_model, classical.name))
    finished = FINISHED + (", and no shot is drawn" if shots is not None else "")
    return replace(report, method_reason=_joined(finished, report.method_reason))


def _joined(*reasons: str | None) -> str | None:
    """The reasons given, in order, as one sentence (None when there is none)."""
    given = [r for r in reasons if r]
    return "; ".join(given) if given else None


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
    method = options.get("method", AUTO)
    # the sampled methods that draw their shots in chunks (all but aer, which samples whole)
    if options.get("shots") is not None and (
        method == AUTO or get_method(method).default_shots is None
    ):
        return [evaluate(spec, scheduler=scheduler, **options) for spec in specs]
    return sweep(partial(evaluate, **options), specs, scheduler, "specs evaluated")


def recommend(
    game: GameTask | Endgame,
    model: str = "random",
    method: str = AUTO,
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
    (:mod:`qcards.skat.solvers.objectives`).

    Exact methods: each first card is one independent :func:`evaluate`; ``scheduler`` runs
    them as Dask tasks (:func:`~qcards.execution.sweeps.sweep`: ``"local"`` or a scheduler
    address), with the same results as without. The work of all first cards together is
    estimated first and refused past the time limit (:mod:`qcards.plan`) unless
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
    if not spec.num_tricks:
        raise ModelError(game_over(spec))
    if spec.leader != spec.declarer:
        raise ModelError(
            f"recommend needs the declarer {spec.declarer} to lead the first trick "
            f"(the leader is {spec.leader})"
        )
    hand = spec.hands[spec.declarer]
    if not hand:
        raise ModelError(f"the declarer {spec.declarer} has no known cards to choose from")
    play_model = get_model(model)
    asked = resolve(method, play_model, shots)
    if asked is None:
        asked = choose_auto(Request(task, play_model, AUTO, shots, seed, force, scheduler)).method
    if not asked.scores(goal.name):
        raise ModelError(
            f"{{method}} {asked.name} does not score the {goal.name} objective",
            parameters=("method", "objective"),
        )
    options: dict[str, Any] = {"model": model, "method": method, "construction": construction}
    if shots is not None and asked.default_shots is None:  # every card on the same deals
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
    if asked.circuit:  # the referee and the solvers check their own time
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
    from qcards.analysis.advice import conventions  # the solver's numba: only when ranking

    habit = conventions(Moment(spec, ()))

    def rank(item: tuple[Card, EvaluationReport]) -> tuple:
        # exact methods differ from the referee's fraction only by rounding: rank by the
        # fraction, so exact ties are ordered by Skat's conventions; sampled values rank by
        # themselves; equal chances are told apart by the expected points
        card, report = item
        by_score = _objective_rank(report, goal.report)
        if by_score:
            return (*by_score, -habit.get(card, 0))
        if report.shots is not None or report.p_win_exact is None:
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
