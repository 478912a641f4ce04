"""Advice for the seat to move, at any moment of a game: declarer or defender, at the start of
a trick or in its middle.

Where the game stands comes from the history (:func:`qcards.skat.position.history.moment`): the spec
from the current trick's start, the cards already on the table, and the posterior over the
deal given every play (Bayes' rule on the random-play likelihood: a player who did not follow
is void, one who followed held fewer cards of the suit the likelier). The mover knows what the
spec knows: its own hand must be among the known hands, and the other known hands are what it
has seen (an open hand, its partner's cards in a study).

Each of the mover's legal cards is valued by the play model from there on, over the deals of
the posterior, on the same deals for every card (common random numbers):

* ``adversarial``: every deal solved double dummy
  (:func:`~qcards.skat.solvers.double_dummy.outcome.deal_outcome`), exactly over every deal or over
  sampled deals (PIMC: what a strong Skat program plays; its known flaw, strategy fusion, is
  measured in :mod:`qcards.skat.players.best_response`);
* ``random`` and the policy models (``heuristic``, ``softmax``): the exact outcome distribution
  under the model's play (:func:`qcards.skat.solvers.outcome_distributions.outcome_distribution`),
  or games played by the model on sampled deals (:func:`qcards.skat.solvers.monte_carlo.playouts`).

The values are the declarer's (p_win, expected points, a declared game's expected score: the
``objective``); a defender's best card is the one the declarer likes least. For the scores this
treats the defence as zero-sum against the declarer, as players count it at a Seeger-Fabian
table (a defender's own 40 points for a lost game do not see Schneider; its standing does).
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, cast

import numpy as np

from qcards.errors import ModelError, ParameterError, ResourceError
from qcards.execution.budget import check_shots
from qcards.execution.sweeps import CORES, sweep
from qcards.intervals import mean_interval
from qcards.plan import Plan, check
from qcards.progress import duration
from qcards.skat.deals.count import num_deals
from qcards.skat.deals.sample import fresh_seed, sample_owners
from qcards.skat.players.beliefs import RANDOM, TREMBLE, believe, check_beliefs
from qcards.skat.players.play_models import PlayModel, get_model
from qcards.skat.position.declaration import deal_matadors
from qcards.skat.position.history import OPTION, Moment
from qcards.skat.position.seat_view import Policy
from qcards.skat.position.spec import Endgame
from qcards.skat.rules.cards import Card
from qcards.skat.rules.equivalence import equivalent_cards
from qcards.skat.rules.scoring import WIN_POINTS
from qcards.skat.solvers.double_dummy.outcome import deal_outcome
from qcards.skat.solvers.monte_carlo import playouts
from qcards.skat.solvers.objectives import Objective, check_objective
from qcards.skat.solvers.outcome_distributions import outcome_distribution
from qcards.skat.solvers.plain_referee import game_over

EXACT = "exact"
SAMPLED = "sampled"
AUTO = "auto"
ADVICE_METHODS = (AUTO, EXACT, SAMPLED)
"""How :func:`advise` values the cards: every deal exactly, sampled deals, or ``auto`` (exact
when the deals are at most :data:`MAX_EXACT_DEALS` and, for a played model, the referee can
enumerate the play; else sampled)."""

MAX_EXACT_DEALS = 2000
"""The most deals ``auto`` solves double dummy one by one before it samples them."""

AUTO_EXACT_SECONDS = 30.0
"""The longest an exact double-dummy advice may be estimated to take for ``auto`` to run it
(measured on one deal); past it, ``auto`` samples."""

DEFAULT_DEALS = 100
"""PIMC's deals when ``auto`` samples and no ``samples`` are given (each solved once for
every card); :func:`default_deals`."""

EARLY_DEALS = 60
EARLY_CARDS = 8
"""In the first tricks of a full game (hands and legal cards of at least :data:`EARLY_CARDS`)
``auto`` samples :data:`EARLY_DEALS` deals: about 0.17 s a deal on one core for ten cards to
try, solving levels (``benchmarks/results/advice.md``), about 5 s a move on two cores."""

DEFAULT_GAMES = 1000
"""Games played a card by a policy model when it is sampled and no ``samples`` are given."""

TIMED_DEALS = 2
"""Deals solved (after one that warms the compiled solver up) to time a double-dummy advice."""

TIMED_GAMES = 20
"""Games played first to estimate a sampled policy advice's time."""


@dataclass(frozen=True)
class CardValue:
    """What one of the mover's cards is worth, in the declarer's terms.

    Attributes:
        card: the card.
        value: the objective's expectation after playing it (p_win for ``win``).
        value_exact: the same as a Fraction, when exact with a rational model.
        p_win: the declarer's chance to win.
        expected_points: the declarer's expected card points (``None`` for PIMC on the
            ISkO's 61-point target, which solves levels only: see ``level``).
        ci: the 95% interval of ``value`` (sampled).
        delta_vs_best: ``value`` minus the best card's, on the same deals (sampled), and
        delta_ci: its 95% interval.
        level: PIMC by levels: the mean of the card points each deal's level stands for
            (30, 60, 61, 90 or 120, or the points held when no trick is taken), which ranks
            equal values in place of the expected points.
    """

    card: Card
    value: float
    value_exact: Fraction | None
    p_win: float
    expected_points: float | None
    ci: tuple[float, float] | None = None
    delta_vs_best: float | None = None
    delta_ci: tuple[float, float] | None = None
    level: float | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "card": str(self.card),
            "value": self.value,
            "value_exact": None
            if self.value_exact is None
            else f"{self.value_exact.numerator}/{self.value_exact.denominator}",
            "p_win": self.p_win,
            "expected_points": self.expected_points,
        }
        if self.level is not None:
            out["level_points"] = self.level
        if self.ci is not None:
            delta_ci = cast("tuple[float, float]", self.delta_ci)  # given with ci
            out.update(ci=list(self.ci), delta_vs_best=self.delta_vs_best,
                       delta_ci=list(delta_ci))  # fmt: skip
        return out


@dataclass(frozen=True)
class Advice:
    """The mover's legal cards, best first for its side.

    Attributes:
        mover: whose turn it is; ``side``: ``declarer`` or ``defenders`` (who want the
            objective low).
        trick: the cards already on the table, in play order.
        objective, model, method: what was valued, under which play, how (``double-dummy``,
            ``pimc``, ``classical``, ``monte-carlo``); ``reason``: why that method.
        deals: the posterior's deals (exact) or those sampled; ``seed`` when sampled.
        cards: the values, best first.
        beliefs: how the history weighed the deals (:mod:`qcards.skat.players.beliefs`).
    """

    mover: str
    side: str
    trick: tuple[tuple[str, Card], ...]
    objective: str
    model: str
    method: str
    reason: str
    deals: int
    seed: int | None
    cards: tuple[CardValue, ...]
    beliefs: str = RANDOM

    @property
    def best(self) -> Card:
        return self.cards[0].card

    def to_json(self) -> dict[str, Any]:
        return {
            "mover": self.mover,
            "side": self.side,
            "trick": [f"{p}:{c}" for p, c in self.trick],
            "objective": self.objective,
            "model": self.model,
            "method": self.method,
            "reason": self.reason,
            "deals": self.deals,
            "seed": self.seed,
            "beliefs": self.beliefs,
            "cards": [c.to_json() for c in self.cards],
        }


def advise(
    spec: Endgame,
    history: Sequence[tuple[str, Card]] | str = (),
    model: str = "adversarial",
    objective: str = "win",
    method: str = AUTO,
    samples: int | None = None,
    seed: int | None = None,
    force: bool = False,
    scheduler: str | None = None,
    beliefs: str = RANDOM,
    tremble: float = float(TREMBLE),
) -> Advice:
    """Every legal card of the seat to move after ``history`` (``"A:SA B:S7"``, may end in the
    middle of a trick), valued under ``model`` for the declarer's ``objective``, best first for
    the mover's side.

    Args:
        spec: the game as the mover knows it (its own hand among the known hands).
        history: the cards played since the spec's position, in order.
        model: a play model (:mod:`qcards.skat.players.play_models`) with a policy, or
            ``adversarial``.
        objective: what the declarer scores (:mod:`qcards.skat.solvers.objectives`): ``win``, or
            ``score`` or ``seeger-fabian`` for a declared game; equal values are ranked by
            the chance to win, then by the expected points.
        method: ``exact``, ``sampled`` or ``auto`` (:data:`ADVICE_METHODS`); ``samples``
            (deals for ``adversarial``, games otherwise) implies ``sampled``.
        seed: the sampled deals' seed (fresh when ``None``, and reported).
        force: run work estimated past the time budget
            (the time limit of :mod:`qcards.plan`), which is otherwise refused up front.
        scheduler: solve the double-dummy deals as Dask tasks (``"local"`` or an address;
            :func:`~qcards.execution.sweeps.sweep`); ``None`` spreads them over this
            process's cores in threads.
        beliefs: how the deals are weighed by the history (:mod:`qcards.skat.players.beliefs`):
            ``random``, the random-play likelihood (how often each player followed suit);
            ``voids``, only the cards played and the voids; or a play model with a policy
            (``heuristic``, ``softmax``), the likelihood of the plays under that model, mixed
            with ``tremble`` (each legal card's share when a player leaves the model).

    Raises:
        ModelError: a history that breaks a rule, a mover whose hand the spec does not know,
            a finished game, a model that cannot advise mid-game, unknown beliefs.
        ParameterError: an unknown method or objective, or a bad ``samples``.
        ResourceError: ``exact`` on a game too large to enumerate.
    """
    if method not in ADVICE_METHODS:
        raise ParameterError(
            "method", f"unknown advice method {method!r} (expected {' | '.join(ADVICE_METHODS)})"
        )
    if samples is not None:
        check_shots(samples)  # named as the option that sets it: --shots
    goal = check_objective(spec, objective)
    belief = check_beliefs(beliefs, tremble)
    source = believe(spec, history, belief)
    play_model = get_model(model)
    if play_model.solver is not None:
        raise ModelError(
            f"the {model} model solves the declarer's whole game from a trick's start; advice "
            "at any moment takes adversarial or a model with a policy (random, heuristic, "
            "softmax)"
        )
    if samples is not None and method == EXACT:
        raise ParameterError("shots", "an exact valuation draws no samples: leave them out")
    advice = _value_cards(source, goal, play_model, method, samples, seed, force, scheduler)
    return dataclasses.replace(advice, beliefs=belief.label)


def _value_cards(source, goal, play_model, method, samples, seed, force, scheduler) -> Advice:
    """The work of :func:`advise`, its arguments checked: each legal card valued over the
    believed deals ``source``."""
    where, belief, model = source.where, source.beliefs, play_model.name
    if where.spec.num_tricks == 0:  # every card played: the result, not a card
        raise ModelError(f"{OPTION}: {game_over(where.spec)}")
    legal = where.legal_cards()
    sampled = method == SAMPLED or samples is not None
    reason = "sampled deals were asked for" if sampled else "every deal of the posterior"
    if play_model.minimax:
        too_many = 0  # the posterior's deals when auto samples them for their number alone
        if not sampled:
            deals = num_deals(where.spec)
            if method == AUTO and deals > MAX_EXACT_DEALS:
                sampled, too_many = True, deals  # timed on the sampled deals themselves below
            else:
                seconds = _seconds_a_deal(where, legal) * deals / CORES
                if method == AUTO and seconds > AUTO_EXACT_SECONDS:
                    sampled = True
                    reason = _sampling_reason(deals, seconds, where, legal)
                else:
                    _check_time(seconds, force, f"solving all {deals:,} deals", "{shots} (PIMC)")
                    values = _exact_double_dummy(where, legal, source.exact(), scheduler)
                    basis = _Basis(where, goal, model, "double-dummy",
                                   source.explain(reason), deals, None)  # fmt: skip
                    return _advice(basis, legal, values, belief.exact)
        seed = fresh_seed(seed)
        count = samples or default_deals(where.spec, legal)
        points = not levels_only(where.spec)
        owners: list | None = None
        rows: list[list[tuple]] = []  # the deals solved so far: the sample's first
        if not force:  # the time estimate, made on solved deals
            if count > MAX_EXACT_DEALS:  # on the prior's, before drawing a sample it may refuse
                warm, *timed = _prior_deals(where, 1 + TIMED_DEALS)
                per_deal = _timed_rows(where, legal, warm, timed, points)[0]
            else:  # on the sample's first deals, kept: none is solved twice
                owners = source.sample(count, np.random.default_rng(seed))
                (warm,) = _prior_deals(where, 1)
                per_deal, rows = _timed_rows(where, legal, warm, owners[:TIMED_DEALS], points)
            if too_many:
                reason = _sampling_reason(too_many, per_deal * too_many / CORES, where, legal)
            _check_time(
                per_deal * count / CORES, force, f"PIMC on {count:,} deals", "fewer {shots}"
            )
        if owners is None:
            owners = source.sample(count, np.random.default_rng(seed))
        rows += _solve_deals(where, legal, owners[len(rows) :], scheduler, points)
        arrays = _pimc_arrays(rows, len(legal))
        basis = _Basis(where, goal, model, "pimc", source.explain(reason), count, seed)
        return _sampled_advice(basis, legal, arrays, source.effective_size(count))
    if not sampled:
        try:
            believed = source.exact()
            values = [_exact_played(where, card, play_model, believed) for card in legal]
        except ResourceError:
            if method == EXACT:
                raise
            reason = (
                "too many deals to reweigh one by one: games played on sampled deals"
                if source.too_many_to_reweigh
                else "too many play paths to enumerate: games played on sampled deals"
            )
        else:
            basis = _Basis(where, goal, model, "classical", source.explain(reason),
                           num_deals(where.spec), None)  # fmt: skip
            return _advice(basis, legal, values, play_model.exact and belief.exact)
    seed = fresh_seed(seed)
    count = samples or DEFAULT_GAMES
    start = time.perf_counter()
    playouts(where.spec, TIMED_GAMES, seed, play_model.policy, opening=(*where.opening, legal[0]))
    per_game = (time.perf_counter() - start) / TIMED_GAMES
    _check_time(per_game * count * len(legal), force, f"{count:,} games a card", "fewer {shots}")
    # the deals from their own stream: playouts draws the plays from default_rng(seed)
    deal_rng = np.random.default_rng([seed, 1])
    owners = source.sample(count, deal_rng) if belief.reweights else None
    arrays = [
        playouts(
            where.spec,
            count,
            seed,
            play_model.policy,
            opening=(*where.opening, card),
            owners=owners,
        )  # fmt: skip
        for card in legal
    ]
    arrays = [(p, t, m) for p, _w, t, m in arrays]
    basis = _Basis(where, goal, model, "monte-carlo", source.explain(reason), count, seed)
    return _sampled_advice(basis, legal, arrays, source.effective_size(count))


def default_deals(spec: Endgame, legal: Sequence[Card]) -> int:
    """PIMC's deals for ``auto``: :data:`DEFAULT_DEALS`, or :data:`EARLY_DEALS` in the first
    tricks of a full game (at least :data:`EARLY_CARDS` cards in each hand and as many legal
    cards to try), where a deal takes longest. A rule of the position, not of a timing, so a
    seed always gives the same deals."""
    early = spec.hand_size >= EARLY_CARDS and len(legal) >= EARLY_CARDS
    return EARLY_DEALS if early else DEFAULT_DEALS


def levels_only(spec: Endgame) -> bool:
    """Whether PIMC solves levels only: on the ISkO's target of 61 every objective depends on
    the play through the declarer's level alone
    (:func:`~qcards.skat.solvers.double_dummy.outcome.deal_outcome`), and the level searches are two
    to six times faster than the points'. The
    expected card points are then not reported; equal values are ranked by the mean level."""
    return spec.target == WIN_POINTS or spec.is_null


def _seconds_a_deal(where: Moment, legal: Sequence[Card]) -> float:
    """Seconds one core takes to solve a deal of the prior after every card, as the exact
    valuation will (:func:`_timed_rows` on :data:`TIMED_DEALS` deals of the prior)."""
    warm, *timed = _prior_deals(where, 1 + TIMED_DEALS)
    return _timed_rows(where, legal, warm, timed, True)[0]


def _prior_deals(where: Moment, count: int) -> list:
    """``count`` deals of the prior, always the same: the first warms the compiled solver up,
    the others are timed when no sampled deal is."""
    return sample_owners(where.spec, np.random.default_rng(0), count)


def _timed_rows(
    where: Moment, legal: Sequence[Card], warm: dict, owners: list, points: bool
) -> tuple[float, list[list[tuple]]]:
    """The rows of :func:`_solve_deals` for ``owners`` (a few deals, side by side on the
    cores) and the seconds one core took for each, after one card of the deal ``warm``
    (never timed, so that no timed search starts from its table) has warmed the compiled
    solver up."""
    _solve_deals(where, legal[:1], [warm], None, points)
    start = time.perf_counter()
    rows = _solve_deals(where, legal, owners, None, points)
    seconds = time.perf_counter() - start
    return seconds * min(CORES, len(owners)) / max(1, len(owners)), rows


def _sampling_reason(deals: int, seconds: float, where: Moment, legal: Sequence[Card]) -> str:
    """Why ``auto`` samples deals for PIMC: solving the posterior's would take ``seconds``."""
    return (
        f"{deals:,} deals would take about {duration(seconds)} to solve: PIMC on sampled deals "
        f"({default_deals(where.spec, legal)})"
    )


def _check_time(seconds: float, force: bool, what: str, instead: str) -> None:
    """Refuse work estimated past the time limit (unless ``force``), naming what to do."""
    check(Plan(what, seconds=seconds, ways=(f"give {instead}",)), force)


# ----------------------------------------------------------------------------- exact


def _exact_played(where: Moment, card: Card, play_model: PlayModel, deals: list) -> dict:
    """The exact outcome distribution after ``card`` under a model's policy (or random), over
    the believed ``deals``."""
    return outcome_distribution(
        where.spec, policy=play_model.policy, opening=(*where.opening, card), deals=deals
    )


def _exact_double_dummy(
    where: Moment, legal: Sequence[Card], deals: list, scheduler: str | None = None
) -> list[dict]:
    """Each card's exact outcome distribution, every believed deal (with its probability)
    solved double dummy after it."""
    solved = _solve_deals(where, legal, [owner for owner, _q in deals], scheduler)
    out: list[dict] = [{} for _ in legal]
    for (_owner, q), outcomes in zip(deals, solved, strict=True):
        for dist, key in zip(out, outcomes, strict=True):
            dist[key] = dist.get(key, Fraction(0)) + q
    return out


def _solve_deals(
    where: Moment,
    legal: Sequence[Card],
    owners: list,
    scheduler: str | None = None,
    points: bool = True,
) -> list[list[tuple]]:
    """For every deal, each card's double-dummy outcome (points, tricks, matadors; with
    ``points`` False the level searches of :func:`deal_outcome`, whose points stand for their
    level), the deals spread over the cores in threads (the compiled solver releases the GIL;
    each thread keeps its own transposition table, which the cards of one deal share).
    Equivalent cards (:func:`~qcards.skat.rules.equivalence.equivalent_cards`, against every
    card the mover does not hold) are solved once a deal: their outcomes are equal on every
    deal."""
    spec = where.spec
    solved_first = _class_representatives(where, legal)

    def solve(part: list) -> list[list[tuple]]:
        rows = []
        for owner in part:
            matadors = deal_matadors(spec.declaration, owner)
            row: list[tuple] = []
            for card, first in zip(legal, solved_first, strict=True):
                if first is not None:  # an equivalent card's outcome, solved before it
                    row.append(row[first])
                    continue
                o = deal_outcome(spec, owner, card, points, where.opening)
                row.append((o.points, o.tricks, matadors))
            rows.append(row)
        return rows

    size = max(1, -(-len(owners) // (4 * CORES)))
    parts = [owners[i : i + size] for i in range(0, len(owners), size)]
    solved = sweep(solve, parts, scheduler, "deals solved", CORES)
    return [row for rows in solved for row in rows]


def _class_representatives(where: Moment, legal: Sequence[Card]) -> list[int | None]:
    """For each legal card, the index in ``legal`` of the first card equivalent to it
    (``None`` for that first card itself)."""
    spec = where.spec
    held = frozenset(spec.hands[where.mover])
    others = [c for c in spec.cards if c not in held]  # other hands, the unknown, the trick
    classes = equivalent_cards(spec.rules, legal, others, spec.is_null)
    first: dict[int, int] = {}
    out: list[int | None] = []
    for i, card in enumerate(legal):
        seen = first.setdefault(classes[card], i)
        out.append(None if seen == i else seen)
    return out


@dataclass(frozen=True)
class _Basis:
    """What an advice was computed from, as it reports it: the moment, the objective, the
    model and method, why that method, how many deals (or games) and their seed."""

    where: Moment
    goal: Objective
    model: str
    method: str
    reason: str
    deals: int
    seed: int | None


def _advice(basis: _Basis, legal, dists, exact: bool) -> Advice:
    """The exact values of ``legal``'s cards from their outcome distributions ``dists``,
    ranked (:func:`_ranked`); ``exact`` keeps their Fractions."""
    spec, goal = basis.where.spec, basis.goal
    values = []
    for card, dist in zip(legal, dists, strict=True):
        value = sum(q * goal.value(spec, p, t, m) for (p, t, m), q in dist.items())
        p_win = sum(q for (p, t, _m), q in dist.items() if spec.declarer_wins(p, t))
        points = sum(q * p for (p, _t, _m), q in dist.items())
        values.append(
            CardValue(
                card, float(value), Fraction(value) if exact else None, float(p_win), float(points)
            )  # fmt: skip
        )
    return _ranked(basis, values)


# ----------------------------------------------------------------------------- sampled


def _pimc_arrays(rows: list[list[tuple]], cards: int) -> list[tuple]:
    """PIMC's outcomes by card: the rows of :func:`_solve_deals` (every sampled deal of the
    posterior solved double dummy after every card, by the level searches when they answer,
    :func:`levels_only`) as each card's (points, tricks, matadors) arrays over the deals."""
    table = np.array(rows, dtype=np.int64)
    return [tuple(table[:, k, :].T) for k in range(cards)]


def _sampled_advice(basis: _Basis, legal, arrays, effective=None) -> Advice:
    """The sampled values ranked, with 95% intervals; ``effective``: the sample's effective
    size when its deals were resampled by weight
    (:meth:`~qcards.skat.players.beliefs.BelievedDeals.effective_size`), which widens every
    interval by sqrt(basis.deals / effective)."""
    spec, goal, count = basis.where.spec, basis.goal, basis.deals
    widen = 1.0 if effective is None else float(np.sqrt(count / effective))
    per_card = []
    for card, (points, tricks, matadors) in zip(legal, arrays, strict=True):
        outcomes = list(zip(points.tolist(), tricks.tolist(), matadors.tolist(), strict=True))
        cache: dict = {}
        v = np.array([cache.setdefault(o, goal.value(spec, *o)) for o in outcomes], dtype=float)
        wins = np.array([spec.declarer_wins(p, t) for p, t, _m in outcomes], dtype=float)
        per_card.append((card, v, wins, points))
    levels = basis.method == "pimc" and levels_only(spec)
    values = [
        CardValue(
            card,
            float(v.mean()),
            None,
            float(w.mean()),
            None if levels else float(np.mean(p)),
            _widened(mean_interval(v), float(v.mean()), widen),
            level=float(np.mean(p)) if levels else None,
        )  # fmt: skip
        for card, v, w, p in per_card
    ]
    ranked = _ranked(basis, values)
    best = next(v for c, v, _w, _p in per_card if c == ranked.best)
    by_card = {c: v for c, v, _w, _p in per_card}
    cards = []
    for value in ranked.cards:
        diff = by_card[value.card] - best
        mean = float(diff.mean())
        low, high = _widened(mean_interval(diff), mean, widen)
        cards.append(dataclasses.replace(value, delta_vs_best=mean, delta_ci=(low, high)))
    return dataclasses.replace(ranked, cards=tuple(cards))


def _widened(interval: tuple[float, float], mean: float, factor: float) -> tuple[float, float]:
    low, high = interval
    return mean - (mean - low) * factor, mean + (high - mean) * factor


# ----------------------------------------------------------------------------- ranking


def conventions(where: Moment) -> dict[Card, float]:
    """The ``heuristic`` play model's weights for the mover's legal cards, from what the mover
    sees (:meth:`Moment.view`: its hand, the table; every other card still in play counts as
    unseen): the order among cards the valuation cannot tell apart (an exact tie: the cards
    are worth the same under the model, so a strong player's habit decides, as following
    low)."""
    policy = cast(Policy, get_model("heuristic").policy)  # the heuristic model has one
    return {card: float(w) for card, w in policy(where.view()).items()}


def _ranked(basis: _Basis, values) -> Advice:
    """The values best first for the mover's side: the declarer wants the objective high
    (then the chance to win, then the points), the defenders low; exact values rank by their
    Fractions. Cards still equal are ordered by Skat's conventions (:func:`conventions`)."""
    where = basis.where
    declarer = where.mover == where.spec.declarer
    sign = -1 if declarer else 1
    convention = conventions(where)

    def key(v: CardValue):
        value = v.value_exact if v.value_exact is not None else v.value
        measured = v.expected_points if v.expected_points is not None else v.level
        # PIMC by levels has no expected points but a level: one of the two is given
        points = 0 if where.spec.is_null else round(cast(float, measured), 9)  # null: no matter
        return (sign * value, sign * v.p_win, sign * points, -convention.get(v.card, 0))

    return Advice(
        where.mover, "declarer" if declarer else "defenders", where.trick, basis.goal.name,
        basis.model, basis.method, basis.reason, basis.deals, basis.seed,
        tuple(sorted(values, key=key)),
    )  # fmt: skip
