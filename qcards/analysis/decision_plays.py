"""How a decision's plays are computed and valued (:mod:`qcards.analysis.decisions`).

A :class:`GameOutcomes` holds the outcomes of one kind of game with one hand (exact weights, or
the counts of the even and the odd shots apart); :class:`OptionValue` what a declaration on it
is worth; a :class:`PlayComputation` computes plays under a play model, exactly or from shots,
every play on the same seed (:func:`runner_for` refuses a method that cannot answer, never
replacing it).
"""

from __future__ import annotations

import dataclasses
import functools
import math
import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, cast

import numpy as np

from qcards.analysis.methods import builtin
from qcards.circuits.construction import Construction
from qcards.circuits.task import as_task
from qcards.errors import ModelError
from qcards.execution.budget import check_shots
from qcards.execution.shots import sample_game
from qcards.execution.sweeps import LOCAL, sweep
from qcards.intervals import Z95
from qcards.moved import renamed
from qcards.skat.deals.count import num_deals
from qcards.skat.deals.sample import chunks, fresh_seed
from qcards.skat.players.play_models import MINIMAX, POLICY, SOLVER, PlayModel, get_model
from qcards.skat.position.spec import Endgame
from qcards.skat.rules.scoring import TRICKS, Declaration, settle
from qcards.skat.solvers.minimax import check_solving_time, deal_level, levels
from qcards.skat.solvers.monte_carlo import playouts
from qcards.skat.solvers.outcome_distributions import check_paths, outcome_distribution
from qcards.skat.solvers.pimc import PIMC_CHUNK, pimc_chunk

__getattr__ = renamed(
    __name__, {"Play": "GameOutcomes", "Figures": "OptionValue", "Runner": "PlayComputation"}
)  # the names before 0.2, answered with a DeprecationWarning until 0.3

DOUBLE_DUMMY, PIMC = builtin.DOUBLE_DUMMY.name, builtin.PIMC.name
MONTE_CARLO = builtin.MONTE_CARLO.name

SAMPLE_DEALS = "give {shots} to sample deals"
"""The way out of an exact adversarial decision too slow to solve: PIMC."""
SAMPLE_PLAYS = "give {shots} to sample the plays"
"""The way out of an exact decision with too many play paths: shots (the circuit's, or games
played by the model's policy)."""

CLASSICAL_ONLY = (POLICY, SOLVER)
"""The kinds of play model computed on the classical side only (their policy, or a solver)."""


@dataclass(frozen=True)
class GameOutcomes:
    """The outcomes of one kind of game with one hand: the distinct outcomes (points, tricks,
    matadors) and their weights, exact probabilities or counts of shots. Sampled plays keep the
    counts of the even and the odd shots apart (:data:`HALVES`), for choosing on one half and
    valuing on the other."""

    spec: Endgame
    outcomes: tuple[tuple[int, int, int], ...]
    exact: tuple[Fraction, ...] | None = None
    counts: np.ndarray | None = field(default=None, repr=False)  # (2, outcomes): even, odd

    @classmethod
    def sampled(cls, spec: Endgame, samples: np.ndarray) -> GameOutcomes:
        """A play from a (3, shots) array of points, tricks and matadors."""
        outcomes, where = np.unique(samples, axis=1, return_inverse=True)
        where = where.ravel()
        counts = np.stack(
            [np.bincount(where[h], minlength=outcomes.shape[1]) for h in HALVES]
        ).astype(float)
        found = tuple(tuple(int(x) for x in o) for o in outcomes.T)  # three rows: triples
        return cls(spec, cast("tuple[tuple[int, int, int], ...]", found), None, counts)

    def figures(self, declaration: Declaration, half: int | None = None) -> OptionValue:
        """``declaration`` scored on these outcomes (sampled: both halves, or ``half``)."""
        settled = [_settled(declaration, m, p, t) for p, t, m in self.outcomes]
        sf = [s.declarer_seeger_fabian for s in settled]
        score = [s.list_score for s in settled]
        won = [s.won for s in settled]
        if self.exact is not None:
            e_sf = sum(w * v for w, v in zip(self.exact, sf, strict=True))
            e_score = sum(w * v for w, v in zip(self.exact, score, strict=True))
            p_won = sum(w for w, v in zip(self.exact, won, strict=True) if v)
            return OptionValue(float(e_sf), float(e_score), float(p_won), e_sf, e_score)
        halves = cast(np.ndarray, self.counts)  # a sampled play (no exact weights) has them
        counts = halves.sum(axis=0) if half is None else halves[half]
        n = counts.sum()
        sf_arr = np.asarray(sf, dtype=float)
        mean = float(counts @ sf_arr / n)
        variance = float(counts @ (sf_arr - mean) ** 2 / max(n - 1, 1))
        half_width = Z95 * math.sqrt(variance / n)
        return OptionValue(
            mean,
            float(counts @ np.asarray(score, dtype=float) / n),
            float(counts @ np.asarray(won, dtype=float) / n),
            None,
            None,
            (mean - half_width, mean + half_width),
        )


@functools.lru_cache(maxsize=2**16)
def _settled(declaration: Declaration, matadors: int, points: int, tricks: int):
    """:func:`settle` of one outcome, cached: a bid's options share most outcomes."""
    return settle(declaration, matadors, points, tricks, TRICKS)


HALVES = (slice(0, None, 2), slice(1, None, 2))
CHOOSE, VALUE = 0, 1
"""The halves of :data:`HALVES` a sampled choice is made on and valued on."""
"""The even and the odd shots of a sampled play."""


@dataclass(frozen=True)
class OptionValue:
    """What an option is worth: means (exact Fractions beside them when exact), the 95%
    interval of the Seeger-Fabian mean when sampled, and the chance the game is won."""

    expected_seeger_fabian: float
    expected_score: float
    p_won: float
    seeger_fabian_exact: Fraction | None = None
    score_exact: Fraction | None = None
    seeger_fabian_ci: tuple[float, float] | None = None

    @property
    def key(self) -> Fraction | float:
        return (
            self.seeger_fabian_exact
            if self.seeger_fabian_exact is not None
            else self.expected_seeger_fabian
        )

    def to_json(self) -> dict[str, Any]:
        def frac(x: Fraction | None) -> str | None:
            return None if x is None else f"{x.numerator}/{x.denominator}"

        return {
            "expected_seeger_fabian": self.expected_seeger_fabian,
            "expected_seeger_fabian_exact": frac(self.seeger_fabian_exact),
            "expected_seeger_fabian_ci": (
                None if self.seeger_fabian_ci is None else list(self.seeger_fabian_ci)
            ),
            "expected_score": self.expected_score,
            "expected_score_exact": frac(self.score_exact),
            "p_won": self.p_won,
        }


@dataclass(frozen=True)
class PlayComputation:
    """How plays are computed: under ``model`` (``random``: the circuits' play; ``adversarial``:
    double dummy), exactly (``shots`` None: the referee's outcome search, or every deal solved)
    or from ``shots`` (the circuit's shots, or that many sampled deals solved: PIMC), every
    play on the same ``seed``."""

    shots: int | None = None
    seed: int | None = None
    construction: Construction | str | None = None
    scheduler: str | None = None
    force: bool = False
    model: str = "random"

    @property
    def adversarial(self) -> bool:
        """Whether the model's plays are solved double dummy (a minimax model, every card
        seen)."""
        return get_model(self.model).kind == MINIMAX

    @property
    def policy_model(self) -> PlayModel | None:
        """The play model when it is played by its policy on the classical side."""
        model = get_model(self.model)
        return model if model.kind in CLASSICAL_ONLY else None

    @property
    def method(self) -> str:
        """The method the decision reports."""
        if self.adversarial:
            return DOUBLE_DUMMY if self.shots is None else PIMC
        if self.policy_model is not None:
            return "classical" if self.shots is None else MONTE_CARLO
        return "classical" if self.shots is None else "shots"

    def plan(self, specs: Sequence[Endgame]) -> None:
        """Refuse, before any play is computed, exact plays too large for their search: the
        outcome search's play paths (random play, or a policy's weights) or the double-dummy
        solving time of every deal (the adversarial model), with the decisions' ways out. What
        each play checks again when it runs; a caller with more work to prepare (a bid's
        Skats) plans its first plays with it."""
        if self.shots is not None:
            return  # sampled plays check their own shots, or their deals' time (run_plays)
        if self.adversarial:
            check_solving_time(
                specs, None, sum(num_deals(s) for s in specs), self.force,
                f"solving all {{count:,}} deals of {len(specs)} plays", (SAMPLE_DEALS,),
                deal_level,
            )  # fmt: skip
            return
        policy_model = self.policy_model
        if policy_model is None or policy_model.solver is None:
            for spec in specs:
                check_paths(spec, None, SAMPLE_PLAYS)

    def play(self, spec: Endgame) -> GameOutcomes:
        policy_model = self.policy_model
        if policy_model is not None and self.shots is None:  # exact: the model's weights
            if policy_model.solver is not None:
                dist = policy_model.solver(spec, None)
            else:
                dist = outcome_distribution(spec, None, policy_model.policy)
            return GameOutcomes(spec, tuple(dist), tuple(dist.values()))
        # sampled plays: with shots (the exact ones return without), seeded by seeded
        shots, seed = cast(int, self.shots), cast(int, self.seed)
        if policy_model is not None:
            points, _wins, tricks, matadors = playouts(spec, shots, seed, policy_model.policy)
            return GameOutcomes.sampled(spec, np.stack([points, tricks, matadors]))
        # the adversarial model: levels only (every score depends on the play through them)
        if self.adversarial and self.shots is None:
            outcomes = levels(spec, self.force)
            return GameOutcomes(spec, tuple(outcomes), tuple(outcomes.values()))
        if self.adversarial:  # PIMC: the time was checked for the whole call (run_plays)
            parts = [
                pimc_chunk(spec, None, seed, c, points=False) for c in chunks(shots, PIMC_CHUNK)
            ]
            points, _wins, tricks, matadors = (np.concatenate(c) for c in zip(*parts, strict=True))
            return GameOutcomes.sampled(spec, np.stack([points, tricks, matadors]))
        if self.shots is None:
            dist = outcome_distribution(spec)
            return GameOutcomes(spec, tuple(dist), tuple(dist.values()))
        task = as_task(spec, None, self.construction)
        result = sample_game(task, self.shots, self.seed, self.scheduler, force=self.force)
        matadors = result.matadors if result.matadors is not None else 0 * result.points
        return GameOutcomes.sampled(spec, np.stack([result.points, result.tricks, matadors]))


def _play(runner: PlayComputation, spec: Endgame) -> GameOutcomes:
    return runner.play(spec)


def run_plays(specs: Sequence[Endgame], runner: PlayComputation) -> list[GameOutcomes]:
    """Every spec's play: here, or with the runner's scheduler as Dask tasks (one a play,
    each run without Dask inside; the same seed, so the same shots: a sampling runner without
    one gets a fresh seed here, as :func:`declare` and :func:`bid` give theirs)."""
    runner = seeded(runner)
    if runner.adversarial and runner.shots is not None and specs:
        check_solving_time(
            specs, None, runner.shots * len(specs), runner.force,
            f"solving {{count:,}} sampled deals ({runner.shots:,} for each of {len(specs)} plays)",
            ("use fewer {shots}",), deal_level,
            (os.cpu_count() or 1) if runner.scheduler == LOCAL else 1,
        )  # fmt: skip
    if runner.scheduler is None:
        return [runner.play(spec) for spec in specs]
    inner = dataclasses.replace(runner, scheduler=None)
    return sweep(functools.partial(_play, inner), specs, runner.scheduler, "plays")


def seeded(runner: PlayComputation) -> PlayComputation:
    """The runner with a seed when it samples (a fresh one unless given); its ``shots``
    refused (:class:`~qcards.errors.ParameterError` naming ``shots``) unless a positive whole
    number, before any play is computed."""
    if runner.shots is None:
        return runner
    check_shots(runner.shots)
    return dataclasses.replace(runner, seed=fresh_seed(runner.seed))


def average_figures(values: Sequence[OptionValue], exact: bool) -> OptionValue:
    """The mean of the Skats' chosen options (exact Fractions when exact; a sampled mean's
    interval from the spread of the Skats' values and their own noise)."""
    k = len(values)
    if exact:  # the exact Fractions are there
        sf = sum((cast(Fraction, v.seeger_fabian_exact) for v in values), Fraction(0)) / k
        score = sum((cast(Fraction, v.score_exact) for v in values), Fraction(0)) / k
        return OptionValue(float(sf), float(score), sum(v.p_won for v in values) / k, sf, score)
    sf_values = np.array([v.expected_seeger_fabian for v in values])
    cis = [cast("tuple[float, float]", v.seeger_fabian_ci) for v in values]  # sampled: given
    low = np.array([ci[0] for ci in cis])
    high = np.array([ci[1] for ci in cis])
    mean = float(sf_values.mean())
    # the variance of the mean: the Skats' spread (over k draws) plus each value's own noise
    own = float((((high - low) / (2 * Z95)) ** 2).sum()) / k**2
    spread = float(sf_values.var(ddof=1)) / k if k > 1 else 0.0
    half_width = Z95 * math.sqrt(own + spread)
    return OptionValue(mean, float(np.mean([v.expected_score for v in values])),
                   float(np.mean([v.p_won for v in values])), None, None,
                   (mean - half_width, mean + half_width))  # fmt: skip


def runner_for(
    model: str = "random",
    method: str = "auto",
    shots: int | None = None,
    seed: int | None = None,
    construction: Construction | str | None = None,
    scheduler: str | None = None,
    force: bool = False,
) -> PlayComputation:
    """The :class:`PlayComputation` of a decision. Random play: the referee's exact outcomes
    (``classical``, or ``auto`` without shots) or the circuit's ``shots`` (``shots``, or
    ``auto`` with them). Adversarial: every deal solved double dummy (``double-dummy``,
    ``classical`` or ``auto`` without shots), or ``shots`` sampled deals (``pimc``, or ``auto``
    with them). Other methods are refused, never replaced."""
    play_model = get_model(model)
    if play_model.kind in CLASSICAL_ONLY:
        if play_model.solver is not None and shots is not None:
            raise ModelError(
                f"the {model} model is solved exactly on small endgames only: leave out {{shots}}",
                parameters=("shots",),
            )
        if not play_model.exact and shots is None:
            raise ModelError(
                f"the {model} model's weights are floats, so its decisions are sampled: give "
                "{shots} (games a play)",
                parameters=("shots",),
            )
        exact: tuple[str, ...] = ("classical",)
        sampled = MONTE_CARLO
    elif play_model.kind == MINIMAX:
        exact, sampled = (DOUBLE_DUMMY, "classical"), PIMC
    else:
        exact, sampled = ("classical",), "shots"
    if method not in ("auto", *exact, sampled):
        raise ModelError(
            f"a decision under {model} play answers from {' or '.join(exact)} (exact) or "
            f"{sampled} with {{shots}}, not {{method}} {method}",
            parameters=("method", "shots"),
        )
    if method in exact and shots is not None:
        raise ModelError(
            f"{{method}} {method} is exact: leave out {{shots}}", parameters=("method", "shots")
        )
    if method == sampled and shots is None:
        raise ModelError(
            f"{{method}} {sampled} needs {{shots}} (how many a play)",
            parameters=("method", "shots"),
        )
    return PlayComputation(shots, seed, construction, scheduler, force, model)
