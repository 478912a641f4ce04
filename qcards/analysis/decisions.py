"""The declarer's decisions, best first by the expected Seeger-Fabian score: with twelve cards
(the Skat picked up) which two to put away and which game to play (:func:`declare_twelve`);
with ten, before the Skat is seen, Hand (with each announcement allowed) or pick up, and how
high to bid (:func:`bid`). The paper's outlook (Sec. X.1) asks for exactly these: a payoff for
the declarer, the suit declaration from the hand, how to put the Skat.

How an option is valued. A *play* is a kind of game and the declarer's hand (a discard):
its outcomes (card points, tricks, matadors; :mod:`qcards.skat.solvers.outcome_distributions`) are
computed once, exactly by the referee's outcome search or from ``shots`` of the game circuit, and
every declaration on the same play (the announcements, null and null ouvert, every bid) is scored
from the same outcomes (:func:`qcards.skat.rules.scoring.settle`). Every play of one call is shot
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
import itertools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, cast

import numpy as np

from qcards.analysis.decision_plays import (
    CHOOSE,
    VALUE,
    GameOutcomes,
    OptionValue,
    PlayComputation,
    average_figures,
    run_plays,
    seeded,
)
from qcards.errors import ModelError, ParameterError, SpecError
from qcards.files import parse_toml
from qcards.skat.position.spec import SKAT, Endgame, spec_from_dict
from qcards.skat.rules.cards import Card, Rules, Trump, rules_of
from qcards.skat.rules.equivalence import equivalent_cards
from qcards.skat.rules.scoring import BID_VALUES, Declaration, ScoringError, check_bid

PLAYS = (Trump.CLUBS, Trump.SPADES, Trump.HEARTS, Trump.DIAMONDS, Trump.GRAND, Trump.NULL)
"""The kinds of game a declarer plays (null ouvert plays as null: random play does not look)."""

HAND_ANNOUNCEMENTS = ((), ("schneider",), ("schwarz",), ("ouvert",))
"""What a Hand suit or grand game may announce (each includes the ones before it)."""


# ----------------------------------------------------------------------------- options


@dataclass(frozen=True)
class Option:
    """One choice of the declarer and what it is worth."""

    game: str
    hand: bool
    announced: tuple[str, ...]
    discard: tuple[Card, ...]
    figures: OptionValue
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
"""How options rank under each objective (:mod:`qcards.skat.solvers.objectives`): the expected
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


def twelve_card_plays(
    data: Mapping[str, Any], source: str, runner: PlayComputation
) -> list[tuple[Trump, tuple[Card, ...], tuple[tuple[Card, ...], ...], GameOutcomes]]:
    """:func:`twelve_card_specs` with each spec's play."""
    specs = twelve_card_specs(data, source)
    plays = run_plays([s for *_, s in specs], runner)
    return [(t, d, e, p) for (t, d, e, _s), p in zip(specs, plays, strict=True)]


def declare_twelve(
    text: str,
    source: str = "<spec>",
    bid: int = 18,
    runner: PlayComputation | None = None,
    objective: str = "seeger-fabian",
) -> Decision:
    """The best discard and game for a declarer holding twelve cards (after the pick-up):
    every discard (equivalent ones once) times every game, ranked by the expected
    Seeger-Fabian score at ``bid`` (or by ``objective``: ``score``, the list score; ``win``,
    the chance to win the game as declared).

    Raises:
        ParameterError: a ``bid`` that is no Skat bid value (:data:`BID_VALUES`), refused
            before any play is computed.
    """
    check_decision_bid(bid)
    runner = seeded(runner or PlayComputation())
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


def check_decision_bid(bid: int) -> int:
    """``bid`` if it is a Skat bid value, else :class:`ParameterError` naming ``bid`` (the
    value a caller gives, not a spec's field: a spec's ``declaration.bid`` is checked as the
    spec is read)."""
    try:
        return check_bid(bid)
    except ScoringError as exc:
        raise ParameterError("bid", f"{{bid}}: {exc.reason}") from None


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

SKATS = 8
"""The Skats a sampled bid draws unless told (:func:`bid`)."""


@dataclass(frozen=True)
class BidDecision:
    """What ``qcards bid`` reports: the Hand options and picking up, best first, the
    recommendation and the highest bid worth making."""

    options: tuple[Option, ...]
    pick_up: OptionValue
    pick_up_detail: tuple[dict[str, Any], ...]
    max_bid: int | None
    bid_values: Mapping[int, float]
    method: str
    seed: int | None
    skats: int
    hand: OptionValue
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
    runner: PlayComputation | None = None,
    skats: int | None = None,
    skat_shots: int | None = None,
) -> BidDecision:
    """Hand (every game, every announcement allowed) against picking up the Skat, for a
    declarer holding ten cards with two unknown cards in the Skat; and the highest bid at which
    the best choice's expected Seeger-Fabian score stays above passing (0).

    Exact (``runner`` without shots): every possible Skat. Sampled: ``skats`` Skats drawn with
    the seed (default :data:`SKATS`), each best option chosen on half its shots and valued on
    the other half; ``skat_shots`` shots a play of each Skat (default: the runner's shots over
    ``skats``, so the pick-up costs about what one Hand game's plays do per option).

    Raises:
        ModelError: ``skats`` without shots (the exact bid values every Skat).
        ParameterError: ``skats`` below 1; fewer than 2 shots (the best Hand game is chosen
            on one half of them and valued on the other, so each half needs one).
        All are refused before any play is computed.
    """
    runner = seeded(runner or PlayComputation())
    if runner.shots is None and skats is not None:
        raise ModelError(
            "{skats} is the number of Skats a sampled bid draws: give {shots} too, or leave "
            "it out (the exact bid values every Skat)",
            parameters=("skats", "shots"),
        )
    if runner.shots is not None and runner.shots < 2:
        raise ParameterError(
            "shots",
            f"{{shots}} must be at least 2 for a bid, got {runner.shots}: the best Hand game "
            "is chosen on one half of the shots and valued on the other",
        )
    skats = SKATS if skats is None else skats
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
    runner.plan(hand_specs)  # before the Skats' plays are prepared (thousands on ten cards)
    unknown = base.unknown
    every = list(itertools.combinations(unknown, 2))
    inner = runner
    if runner.shots is not None:
        per_play = skat_shots if skat_shots is not None else max(2, runner.shots // skats)
        inner = dataclasses.replace(runner, shots=per_play)
    if runner.shots is None:
        chosen = every
    else:
        rng = np.random.default_rng([cast(int, runner.seed), 38])  # seeded by seeded
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

    def hand_value(at: int) -> tuple[OptionValue, str]:
        """The best Hand option, chosen on one half of the shots and valued on the other
        (sampled), as the pick-up's choice is: the best of many estimates on the same shots
        would lean high."""
        candidates = [(n, d, p) for t, p in hand_plays for n, d in _declarations(t, True, at)]
        name, d, play = max(candidates, key=lambda c: c[2].figures(c[1], select).key)
        figures = play.figures(d, value)
        return figures, Option(name, True, d.announced, (), figures).name

    def pick_up_value(at: int) -> tuple[OptionValue, list[dict[str, Any]]]:
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
        return average_figures(chosen_values, runner.shots is None), detail

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
