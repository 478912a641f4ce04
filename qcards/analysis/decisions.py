"""The declarer's decisions, best first by the expected Seeger-Fabian score: with twelve cards
(the Skat picked up) which two to put away and which game to play (:func:`declare_twelve`);
with ten, before the Skat is seen, Hand (with each announcement allowed) or pick up, and how
high to bid (:func:`bid`). The paper's outlook (Sec. X.1) asks for exactly these: a payoff for
the declarer, the suit declaration from the hand, how to put the Skat.

How an option is valued. A *play* is a kind of game and the declarer's hand (a discard):
its outcomes (card points, tricks, matadors; :mod:`qcards.skat.outcomes`) are computed once,
exactly by the referee's outcome search or from ``shots`` of the game circuit, and every
declaration on the same play (the announcements, null and null ouvert, every bid) is scored
from the same outcomes (:func:`qcards.skat.scoring.settle`). Every play of one call is shot
with one seed, so on the same deals (common random numbers).

Exact pruning, and why it never drops the best: two cards of the declarer are *equivalent*
when they share a suit for following (and, in a point game, their card points) and no card
another player may hold lies between them in the game's order. Putting away one or the other
leaves games that differ only by the name of one card: the declarer never plays two cards to
one trick, so the two cards never meet, every trick ends the same, and random play gives both
the same distribution of outcomes. Discards that differ by equivalent cards are valued once and
listed together (``equivalent``); ``tests/test_decisions.py`` checks on small endgames that
each one's exact value equals its representative's.

Picking up the Skat is worth the average, over the possible Skats, of the best option with
each: every Skat of the unknown cards exactly (the referee), or ``skats`` Skats drawn with the
seed from shots, where the best option of each Skat is chosen on half of its shots and valued
on the other half, so the choice's luck does not inflate the value.
"""

from __future__ import annotations

import dataclasses
import functools
import itertools
import math
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, cast

import numpy as np

from qcards.analysis.evaluate import DOUBLE_DUMMY_METHOD as DOUBLE_DUMMY
from qcards.analysis.evaluate import MONTE_CARLO_METHOD as MONTE_CARLO
from qcards.analysis.evaluate import PIMC_METHOD as PIMC
from qcards.analysis.evaluate import is_policy_model
from qcards.analysis.sampled import check_solving_time
from qcards.circuits.construction import Construction
from qcards.circuits.task import as_task
from qcards.errors import ModelError, ParameterError, SpecError
from qcards.execution.shots import sample_game
from qcards.execution.sweeps import LOCAL, sweep
from qcards.files import parse_toml
from qcards.intervals import Z95
from qcards.skat.cards import Card, Rules, Trump, rules_of
from qcards.skat.deal_sampling import chunks, fresh_seed
from qcards.skat.double_dummy import deal_outcome
from qcards.skat.monte_carlo import playouts
from qcards.skat.outcomes import outcome_distribution
from qcards.skat.pimc import PIMC_CHUNK, exact_levels, pimc_chunk
from qcards.skat.play_models import PlayModel, get_model
from qcards.skat.referee import num_deals
from qcards.skat.scoring import BID_VALUES, TRICKS, Declaration, settle
from qcards.skat.spec import SKAT, Endgame, spec_from_dict

PLAYS = (Trump.CLUBS, Trump.SPADES, Trump.HEARTS, Trump.DIAMONDS, Trump.GRAND, Trump.NULL)
"""The kinds of game a declarer plays (null ouvert plays as null: random play does not look)."""

ADVERSARIAL = "adversarial"
"""The model whose plays are solved double dummy (:mod:`qcards.skat.pimc`)."""

HAND_ANNOUNCEMENTS = ((), ("schneider",), ("schwarz",), ("ouvert",))
"""What a Hand suit or grand game may announce (each includes the ones before it)."""


# ----------------------------------------------------------------------------- plays


@dataclass(frozen=True)
class Play:
    """The outcomes of one kind of game with one hand: the distinct outcomes (points, tricks,
    matadors) and their weights, exact probabilities or counts of shots. Sampled plays keep the
    counts of the even and the odd shots apart (:data:`HALVES`), for choosing on one half and
    valuing on the other."""

    spec: Endgame
    outcomes: tuple[tuple[int, int, int], ...]
    exact: tuple[Fraction, ...] | None = None
    counts: np.ndarray | None = field(default=None, repr=False)  # (2, outcomes): even, odd

    @classmethod
    def sampled(cls, spec: Endgame, samples: np.ndarray) -> Play:
        """A play from a (3, shots) array of points, tricks and matadors."""
        outcomes, where = np.unique(samples, axis=1, return_inverse=True)
        where = where.ravel()
        counts = np.stack(
            [np.bincount(where[h], minlength=outcomes.shape[1]) for h in HALVES]
        ).astype(float)
        found = tuple(tuple(int(x) for x in o) for o in outcomes.T)  # three rows: triples
        return cls(spec, cast("tuple[tuple[int, int, int], ...]", found), None, counts)

    def figures(self, declaration: Declaration, half: int | None = None) -> Figures:
        """``declaration`` scored on these outcomes (sampled: both halves, or ``half``)."""
        settled = [_settled(declaration, m, p, t) for p, t, m in self.outcomes]
        sf = [s.declarer_seeger_fabian for s in settled]
        score = [s.list_score for s in settled]
        won = [s.won for s in settled]
        if self.exact is not None:
            e_sf = sum(w * v for w, v in zip(self.exact, sf, strict=True))
            e_score = sum(w * v for w, v in zip(self.exact, score, strict=True))
            p_won = sum(w for w, v in zip(self.exact, won, strict=True) if v)
            return Figures(float(e_sf), float(e_score), float(p_won), e_sf, e_score)
        halves = cast(np.ndarray, self.counts)  # a sampled play (no exact weights) has them
        counts = halves.sum(axis=0) if half is None else halves[half]
        n = counts.sum()
        sf_arr = np.asarray(sf, dtype=float)
        mean = float(counts @ sf_arr / n)
        variance = float(counts @ (sf_arr - mean) ** 2 / max(n - 1, 1))
        half_width = Z95 * math.sqrt(variance / n)
        return Figures(
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
class Figures:
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
class Runner:
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
        return self.model == ADVERSARIAL

    @property
    def policy_model(self) -> PlayModel | None:
        """The play model when it is played by its policy on the classical side."""
        model = get_model(self.model)
        return model if is_policy_model(model) else None

    @property
    def method(self) -> str:
        """The method the decision reports."""
        if self.adversarial:
            return DOUBLE_DUMMY if self.shots is None else PIMC
        if self.policy_model is not None:
            return "classical" if self.shots is None else MONTE_CARLO
        return "classical" if self.shots is None else "shots"

    def play(self, spec: Endgame) -> Play:
        policy_model = self.policy_model
        if policy_model is not None and self.shots is None:  # exact: the model's weights
            if policy_model.solver is not None:
                dist = policy_model.solver(spec, None)
            else:
                dist = outcome_distribution(spec, None, policy_model.policy)
            return Play(spec, tuple(dist), tuple(dist.values()))
        # sampled plays: with shots (the exact ones return without), seeded by _seeded
        shots, seed = cast(int, self.shots), cast(int, self.seed)
        if policy_model is not None:
            points, _wins, tricks, matadors = playouts(spec, shots, seed, policy_model.policy)
            return Play.sampled(spec, np.stack([points, tricks, matadors]))
        # the adversarial model: levels only (every score depends on the play through them)
        if self.adversarial and self.shots is None:
            advice = "give {shots} to sample deals, or {force}"
            what = "solving all {count:,} deals"
            check_solving_time(spec, None, num_deals(spec), self.force, what, advice, _level)
            outcomes = exact_levels(spec)
            return Play(spec, tuple(outcomes), tuple(outcomes.values()))
        if self.adversarial:  # PIMC: the time was checked for the whole call (run_plays)
            parts = [
                pimc_chunk(spec, None, seed, c, points=False) for c in chunks(shots, PIMC_CHUNK)
            ]
            points, _wins, tricks, matadors = (np.concatenate(c) for c in zip(*parts, strict=True))
            return Play.sampled(spec, np.stack([points, tricks, matadors]))
        if self.shots is None:
            dist = outcome_distribution(spec)
            return Play(spec, tuple(dist), tuple(dist.values()))
        task = as_task(spec, None, self.construction)
        result = sample_game(task, self.shots, self.seed, self.scheduler, force=self.force)
        matadors = result.matadors if result.matadors is not None else 0 * result.points
        return Play.sampled(spec, np.stack([result.points, result.tricks, matadors]))


# ----------------------------------------------------------------------------- options


@dataclass(frozen=True)
class Option:
    """One choice of the declarer and what it is worth."""

    game: str
    hand: bool
    announced: tuple[str, ...]
    discard: tuple[Card, ...]
    figures: Figures
    equivalent: tuple[tuple[Card, ...], ...] = ()

    @property
    def name(self) -> str:
        words = [self.game, *(["hand"] if self.hand else []), *self.announced]
        return " ".join(w for w in words if not (w == "ouvert" and self.game == "null ouvert"))

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "game": self.game,
            "hand": self.hand,
            "announced": list(self.announced),
            "discard": [str(c) for c in self.discard],
        }
        if self.equivalent:
            out["equivalent_discards"] = [[str(c) for c in d] for d in self.equivalent]
        return {**out, **self.figures.to_json()}


def _declarations(trump: Trump, hand: bool, bid: int) -> list[tuple[str, Declaration]]:
    """Every declaration of a kind of game (null: null and null ouvert; a Hand suit or grand
    game: each announcement), at ``bid``."""
    if trump is Trump.NULL:
        return [
            ("null", Declaration.make("null", hand, (), bid)),
            ("null ouvert", Declaration.make("null", hand, ("ouvert",), bid)),
        ]
    announcements = HAND_ANNOUNCEMENTS if hand else ((),)
    return [(trump.value, Declaration.make(trump.value, hand, a, bid)) for a in announcements]


def _read(text: str, source: str) -> dict[str, Any]:
    return parse_toml(text, source, SpecError)


def _variant(
    data: Mapping[str, Any], source: str, trump: Trump, hand_cards: Sequence[Card], **declared
) -> Endgame:
    """The spec table with ``trump``, the declarer holding ``hand_cards`` and a declaration."""
    data = dict(data)
    players = cast("Sequence[str]", data.get("players"))  # a spec's table, read before
    declarer = players[0]
    data["trump"] = trump.value
    data["hands"] = {**data.get("hands", {}), declarer: [str(c) for c in hand_cards]}
    data.pop("target", None)
    data.pop("declaration", None)
    data["declaration"] = {"bid": 18, "cards": [str(c) for c in hand_cards], **declared}
    where = f"{source} as {trump.value}"
    if "discard" in declared:
        where += " putting away " + " ".join(declared["discard"])
    return spec_from_dict(data, where)


def equivalent_cards(rules: Rules, mine: Sequence[Card], others: Sequence[Card], null: bool):
    """Classes of the declarer's cards ``mine`` that are interchangeable against ``others`` (the
    cards the other players may hold): see the module docstring. Returns card -> class id."""
    classes: dict[Card, int] = {}
    groups: dict[str, list[Card]] = {}
    for c in mine:
        groups.setdefault(rules.effective_suit(c), []).append(c)
    next_id = 0
    for suit, cards in groups.items():
        cards.sort(key=rules.strength, reverse=True)
        for i, c in enumerate(cards):
            if i:
                prev = cards[i - 1]
                between = any(
                    rules.effective_suit(o) == suit
                    and rules.strength(c) < rules.strength(o) < rules.strength(prev)
                    for o in others
                )
                if not between and (null or c.value == prev.value):
                    classes[c] = classes[prev]
                    continue
            classes[c] = next_id
            next_id += 1
    return classes


def discard_choices(
    rules: Rules, twelve: Sequence[Card], others: Sequence[Card], null: bool
) -> list[tuple[tuple[Card, ...], tuple[tuple[Card, ...], ...]]]:
    """Every two of the twelve to put away, grouped by :func:`equivalent_cards`:
    ``(representative, the equivalent others)`` in the hand's order."""
    classes = equivalent_cards(rules, twelve, others, null)
    grouped: dict[tuple[int, ...], list[tuple[Card, ...]]] = {}
    for pair in itertools.combinations(rules.sorted(twelve), 2):
        grouped.setdefault(tuple(sorted(classes[c] for c in pair)), []).append(pair)
    return [(pairs[0], tuple(pairs[1:])) for pairs in grouped.values()]


@dataclass(frozen=True)
class Decision:
    """Options best first (by the expected Seeger-Fabian score), as ``qcards declare`` and
    ``qcards bid`` report them."""

    options: tuple[Option, ...]
    plays: int
    method: str
    seed: int | None = None

    @property
    def best(self) -> Option:
        return self.options[0]

    def to_json(self) -> dict[str, Any]:
        return {
            "best": self.best.to_json(),
            "options": [o.to_json() for o in self.options],
            "plays_evaluated": self.plays,
            "method": self.method,
            "seed": self.seed,
        }


RANK_BY = {
    "seeger-fabian": lambda f: f.key,
    "score": lambda f: f.score_exact if f.score_exact is not None else f.expected_score,
    "win": lambda f: f.p_won,
}
"""How options rank under each objective (:mod:`qcards.skat.objectives`): the expected
Seeger-Fabian points (the decisions' default), the expected list score, or the chance the
game is won."""


def _rank(options: list[Option], objective: str = "seeger-fabian") -> tuple[Option, ...]:
    if objective not in RANK_BY:
        raise ParameterError(
            "objective", f"unknown objective {objective!r} (expected {' | '.join(RANK_BY)})"
        )
    value = RANK_BY[objective]
    return tuple(sorted(options, key=lambda o: -value(o.figures)))


def twelve_card_specs(
    data: Mapping[str, Any], source: str
) -> list[tuple[Trump, tuple[Card, ...], tuple[tuple[Card, ...], ...], Endgame]]:
    """Every (kind of game, discard) of a spec whose declarer holds two cards more than the
    others, equivalent discards once: ``(trump, discard, equivalent discards, spec)``."""
    players = data.get("players")
    if not isinstance(players, list) or not players:
        raise SpecError(f"{source}: field 'players': must be a list of player names")
    declarer = players[0]
    hands = data.get("hands", {})
    try:
        twelve = tuple(Card.parse(c) for c in hands.get(declarer, []))
        others = [Card.parse(c) for p, cs in hands.items() if p != declarer for c in cs]
        others += [Card.parse(c) for c in data.get("unknown", {}).get("cards", [])]
    except ValueError as exc:
        raise SpecError(f"{source}: a card cannot be read: {exc}") from None
    out = []
    for trump in PLAYS:
        rules = rules_of(trump)
        for discard, equivalent in discard_choices(rules, twelve, others, trump.is_null):
            hand = [c for c in twelve if c not in discard]
            spec = _variant(
                data, source, trump, hand, hand=False, discard=[str(c) for c in discard]
            )
            out.append((trump, discard, equivalent, spec))
    return out


def _level(spec: Endgame, owner, first: Card | None):
    """One deal's double-dummy level (what the decisions solve)."""
    return deal_outcome(spec, owner, first, points=False)


def _play(runner: Runner, spec: Endgame) -> Play:
    return runner.play(spec)


def run_plays(specs: Sequence[Endgame], runner: Runner) -> list[Play]:
    """Every spec's play: here, or with the runner's scheduler as Dask tasks (one a play,
    each run without Dask inside; the same seed, so the same shots: a sampling runner without
    one gets a fresh seed here, as :func:`declare` and :func:`bid` give theirs)."""
    runner = _seeded(runner)
    if runner.adversarial and runner.shots is not None and specs:
        check_solving_time(
            specs, None, runner.shots * len(specs), runner.force,
            f"solving {{count:,}} sampled deals ({runner.shots:,} for each of {len(specs)} plays)",
            "use fewer {shots}, or {force}", _level,
            (os.cpu_count() or 1) if runner.scheduler == LOCAL else 1,
        )  # fmt: skip
    if runner.scheduler is None:
        return [runner.play(spec) for spec in specs]
    inner = dataclasses.replace(runner, scheduler=None)
    return sweep(functools.partial(_play, inner), specs, runner.scheduler, "plays")


def twelve_card_plays(
    data: Mapping[str, Any], source: str, runner: Runner
) -> list[tuple[Trump, tuple[Card, ...], tuple[tuple[Card, ...], ...], Play]]:
    """:func:`twelve_card_specs` with each spec's play."""
    specs = twelve_card_specs(data, source)
    plays = run_plays([s for *_, s in specs], runner)
    return [(t, d, e, p) for (t, d, e, _s), p in zip(specs, plays, strict=True)]


def declare_twelve(
    text: str,
    source: str = "<spec>",
    bid: int = 18,
    runner: Runner | None = None,
    objective: str = "seeger-fabian",
) -> Decision:
    """The best discard and game for a declarer holding twelve cards (after the pick-up):
    every discard (equivalent ones once) times every game, ranked by the expected
    Seeger-Fabian score at ``bid`` (or by ``objective``: ``score``, the list score; ``win``,
    the chance to win the game as declared)."""
    runner = _seeded(runner or Runner())
    data = _read(text, source)
    options = []
    plays = twelve_card_plays(data, source, runner)
    for trump, discard, equivalent, play in plays:
        for name, declaration in _declarations(trump, False, bid):
            options.append(
                Option(
                    name,
                    False,
                    declaration.announced,
                    discard,
                    play.figures(declaration),
                    equivalent,
                )  # fmt: skip
            )
    return Decision(_rank(options, objective), len(plays), runner.method, runner.seed)


def _seeded(runner: Runner) -> Runner:
    if runner.shots is None:
        return runner
    return dataclasses.replace(runner, seed=fresh_seed(runner.seed))


def holds_two_more(text: str, source: str) -> bool:
    """Whether the spec's declarer holds two cards more than each other player (twelve after
    the pick-up): what :func:`declare_twelve` takes."""
    data = _read(text, source)
    players = data.get("players") or []
    hands = data.get("hands", {}) if isinstance(data.get("hands", {}), dict) else {}
    unknown = data.get("unknown", {})
    sizes = unknown.get("sizes", {}) if isinstance(unknown, dict) else {}
    if not players or not isinstance(sizes, dict):
        return False
    count = {p: len(hands.get(p, [])) + int(sizes.get(p, 0) or 0) for p in players}
    first = count[players[0]]
    return all(first == count[p] + 2 for p in players[1:])


# ----------------------------------------------------------------------------- bidding


@dataclass(frozen=True)
class BidDecision:
    """What ``qcards bid`` reports: the Hand options and picking up, best first, the
    recommendation and the highest bid worth making."""

    options: tuple[Option, ...]
    pick_up: Figures
    pick_up_detail: tuple[dict[str, Any], ...]
    max_bid: int | None
    bid_values: Mapping[int, float]
    method: str
    seed: int | None
    skats: int
    hand: Figures
    hand_choice: str

    @property
    def recommendation(self) -> str:
        """Pick up or Hand, by the two choices' values (:attr:`hand`, :attr:`pick_up`)."""
        return "pick up" if self.pick_up.key >= self.hand.key else "hand"

    def to_json(self) -> dict[str, Any]:
        return {
            "recommendation": self.recommendation,
            "max_bid": self.max_bid,
            "hand": {**self.hand.to_json(), "game": self.hand_choice},
            "pick_up": {**self.pick_up.to_json(), "skats": self.skats},
            "options": [o.to_json() for o in self.options],
            "best_seeger_fabian_by_bid": {str(b): v for b, v in self.bid_values.items()},
            "pick_up_skats": list(self.pick_up_detail),
            "method": self.method,
            "seed": self.seed,
        }


def bid(
    text: str,
    source: str = "<spec>",
    runner: Runner | None = None,
    skats: int = 8,
    skat_shots: int | None = None,
) -> BidDecision:
    """Hand (every game, every announcement allowed) against picking up the Skat, for a
    declarer holding ten cards with two unknown cards in the Skat; and the highest bid at which
    the best choice's expected Seeger-Fabian score stays above passing (0).

    Exact (``runner`` without shots): every possible Skat. Sampled: ``skats`` Skats drawn with
    the seed, each best option chosen on half its shots and valued on the other half;
    ``skat_shots`` shots a play of each Skat (default: the runner's shots over ``skats``, so
    the pick-up costs about what one Hand game's plays do per option)."""
    runner = _seeded(runner or Runner())
    data = _read(text, source)
    base = spec_from_dict(data, source)
    if base.skat_size != 2 or base.hands[base.declarer] == () or base.sizes.get(base.declarer):
        raise SpecError(
            f"{source}: field 'unknown.sizes.skat': bid needs the declarer's hand known and the "
            "two cards of the Skat among the unknown cards"
        )
    if not base.prior.is_uniform:
        raise ModelError("bid averages over the Skats as equally likely: a [prior] is not taken")
    if skats < 1:
        raise ParameterError("skats", "{skats} must be at least 1")
    hand = base.hands[base.declarer]
    hand_specs = [_variant(data, source, trump, hand, hand=True) for trump in PLAYS]
    unknown = base.unknown
    every = list(itertools.combinations(unknown, 2))
    inner = runner
    if runner.shots is not None:
        per_play = skat_shots if skat_shots is not None else max(2, runner.shots // skats)
        inner = dataclasses.replace(runner, shots=per_play)
    if runner.shots is None:
        chosen = every
    else:
        rng = np.random.default_rng([cast(int, runner.seed), 38])  # seeded by _seeded
        picks = rng.choice(len(every), size=min(skats, len(every)), replace=False)
        chosen = [every[i] for i in sorted(picks)]
    skat_specs = []
    for skat in chosen:
        picked = dict(data)
        rest = [c for c in unknown if c not in skat]
        picked["hands"] = {
            **data.get("hands", {}),
            base.declarer: [str(c) for c in (*hand, *skat)],
        }
        picked["unknown"] = {
            "cards": [str(c) for c in rest],
            "sizes": {r: n for r, n in base.sizes.items() if r != SKAT},
        }
        where = f"{source} picking up {' '.join(str(c) for c in skat)}"
        skat_specs.append((skat, twelve_card_specs(picked, where)))
    # every play of the call in one batch (Dask spreads them all); the Hand games' shots first
    flat = [s for _skat, specs in skat_specs for *_, s in specs]
    plays = iter(run_plays(hand_specs, runner) + run_plays(flat, inner))
    hand_plays = [(trump, next(plays)) for trump in PLAYS]
    skat_plays = [
        (skat, [(t, d, e, next(plays)) for t, d, e, _s in specs]) for skat, specs in skat_specs
    ]

    def hand_options(at: int) -> list[Option]:
        return [
            Option(name, True, d.announced, (), play.figures(d))
            for trump, play in hand_plays
            for name, d in _declarations(trump, True, at)
        ]

    select, value = (None, None) if runner.shots is None else (CHOOSE, VALUE)

    def hand_value(at: int) -> tuple[Figures, str]:
        """The best Hand option, chosen on one half of the shots and valued on the other
        (sampled), as the pick-up's choice is: the best of many estimates on the same shots
        would lean high."""
        candidates = [(n, d, p) for t, p in hand_plays for n, d in _declarations(t, True, at)]
        name, d, play = max(candidates, key=lambda c: c[2].figures(c[1], select).key)
        figures = play.figures(d, value)
        return figures, Option(name, True, d.announced, (), figures).name

    def pick_up_value(at: int) -> tuple[Figures, list[dict[str, Any]]]:
        chosen_values, detail = [], []
        for skat, plays in skat_plays:
            candidates = [
                (name, d, discard, play)
                for trump, discard, _eq, play in plays
                for name, d in _declarations(trump, False, at)
            ]
            name, d, discard, play = max(candidates, key=lambda c: c[3].figures(c[1], select).key)
            f = play.figures(d, value)
            chosen_values.append(f)
            detail.append({"skat": [str(c) for c in skat], "game": name,
                           "discard": [str(c) for c in discard],
                           "expected_seeger_fabian": f.expected_seeger_fabian})  # fmt: skip
        return _average(chosen_values, runner.shots is None), detail

    options = _rank(hand_options(18))
    pick_up, detail = pick_up_value(18)
    hand_figures, hand_choice = hand_value(18)
    # the best choice's value falls as the bid rises (a higher bid only turns won games into
    # overbid ones): the highest bid worth making is the last one above 0
    by_bid: dict[int, float] = {}
    max_bid = None
    for at in BID_VALUES:
        worth = max(hand_value(at)[0].key, pick_up_value(at)[0].key)
        by_bid[at] = float(worth)
        if not worth > 0:
            break
        max_bid = at
    return BidDecision(options, pick_up, tuple(detail), max_bid, by_bid, runner.method,
                       runner.seed, len(chosen), hand_figures, hand_choice)  # fmt: skip


def _average(values: Sequence[Figures], exact: bool) -> Figures:
    """The mean of the Skats' chosen options (exact Fractions when exact; a sampled mean's
    interval from the spread of the Skats' values and their own noise)."""
    k = len(values)
    if exact:  # the exact Fractions are there
        sf = sum((cast(Fraction, v.seeger_fabian_exact) for v in values), Fraction(0)) / k
        score = sum((cast(Fraction, v.score_exact) for v in values), Fraction(0)) / k
        return Figures(float(sf), float(score), sum(v.p_won for v in values) / k, sf, score)
    sf_values = np.array([v.expected_seeger_fabian for v in values])
    cis = [cast("tuple[float, float]", v.seeger_fabian_ci) for v in values]  # sampled: given
    low = np.array([ci[0] for ci in cis])
    high = np.array([ci[1] for ci in cis])
    mean = float(sf_values.mean())
    # the variance of the mean: the Skats' spread (over k draws) plus each value's own noise
    own = float((((high - low) / (2 * Z95)) ** 2).sum()) / k**2
    spread = float(sf_values.var(ddof=1)) / k if k > 1 else 0.0
    half_width = Z95 * math.sqrt(own + spread)
    return Figures(mean, float(np.mean([v.expected_score for v in values])),
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
) -> Runner:
    """The :class:`Runner` of a decision. Random play: the referee's exact outcomes
    (``classical``, or ``auto`` without shots) or the circuit's ``shots`` (``shots``, or
    ``auto`` with them). Adversarial: every deal solved double dummy (``double-dummy``,
    ``classical`` or ``auto`` without shots), or ``shots`` sampled deals (``pimc``, or ``auto``
    with them). Other methods are refused, never replaced."""
    play_model = get_model(model)
    if is_policy_model(play_model):
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
    elif model == ADVERSARIAL:
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
    return Runner(shots, seed, construction, scheduler, force, model)
