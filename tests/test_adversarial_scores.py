"""A declared game's scores under the adversarial model (issue 38: scores "from every method",
PIMC included): the double-dummy outcome of each deal
(:func:`qcards.skat.solvers.double_dummy.solver. deal_outcome`, three searches) against a
brute-force minimax of each score itself, on random declared endgames that reach every level
(Schwarz both ways included); the levels argument checked on the ISkO scoring of every declaration;
and every adversarial method reporting it.
"""

from __future__ import annotations

import random
from fractions import Fraction

import pytest
from brute_minimax import minimax_score
from toml_text import toml_text

from qcards.analysis.evaluate import evaluate
from qcards.skat.deals.enumeration import weighted_deals
from qcards.skat.position.spec import parse_spec
from qcards.skat.rules.cards import FULL_DECK, Trump
from qcards.skat.rules.scoring import BID_VALUES, TRICKS, Declaration, settle
from qcards.skat.solvers.double_dummy.outcome import deal_outcome
from qcards.skat.solvers.objectives import OBJECTIVES, scored_objectives

from conftest import breadth

SUIT_GAMES = ("clubs", "spades", "hearts", "diamonds", "grand")
ANNOUNCEMENTS = ((), ("schneider",), ("schwarz",), ("ouvert",))


def declared_spec(seed: int):
    """A random declared endgame of two or three tricks, three players, the declarer's cards
    known, the others' unknown (a Hand game may deal a Skat): its declarer's tricks so far
    are none, all or some, so that lost and won Schwarz can both happen."""
    rng = random.Random(seed)
    game = rng.choice((*SUIT_GAMES, "null", "null-ouvert"))
    null = game.startswith("null")
    tricks = rng.choice((2, 3))
    hand = rng.random() < 0.5
    skat = rng.choice((0, 1, 2)) if hand else 0
    suits = rng.sample("CSHD", 2)
    pool = [c for c in FULL_DECK if c.suit in suits or c.rank == "J"]
    cards = rng.sample(pool, 3 * tricks + skat)
    in_play = sum(c.value for c in cards)
    taken = rng.choice((0, TRICKS - tricks, rng.randrange(1, TRICKS - tricks)))
    if taken == 0:
        points = rng.randrange(0, 23)
    elif taken == TRICKS - tricks and rng.random() < 0.7:
        points = 120 - in_play  # every trick so far: every card point played so far
    else:
        points = rng.randrange(0, 120 - in_play + 1)
    declaration = {"hand": hand, "bid": rng.choice(BID_VALUES[:10])}
    if not null:
        declaration["matadors"] = rng.choice((1, 2, 3, -1, -2))
        if hand:
            declaration["announced"] = list(rng.choice(ANNOUNCEMENTS))
    sizes = {"B": tricks, "C": tricks, **({"skat": skat} if skat else {})}
    table = {
        "players": ["A", "B", "C"],
        "trump": game,
        "leader": rng.choice("ABC"),
        "declarer_points": points,
        "declarer_tricks": taken,
        "hands": {"A": [str(c) for c in cards[:tricks]]},
        "unknown": {"cards": [str(c) for c in cards[tricks:]], "sizes": sizes},
        "declaration": declaration,
    }
    return parse_spec(toml_text(table), source=f"declared-{seed}")


SEEDS = range(60)


@pytest.mark.parametrize("seed", breadth(SEEDS, range(12)))
def test_double_dummy_outcome_scores_equal_minimax_of_the_score(seed):
    spec = declared_spec(seed)
    for owner, _ in weighted_deals(spec):
        outcome = deal_outcome(spec, owner)
        level = deal_outcome(spec, owner, points=False)
        matadors = (
            0
            if spec.is_null
            else spec.declaration.matadors_of(tuple(c for c, w in owner.items() if w == "skat"))
        )
        for objective in OBJECTIVES.values():
            got = objective.value(spec, outcome.points, outcome.tricks, matadors)
            expected = minimax_score(spec, owner, objective.value)
            assert got == expected, (objective.name, dict(owner))
            assert objective.value(spec, level.points, level.tricks, matadors) == expected


def test_the_generated_specs_reach_both_schwarz_levels():
    # the oracle comparison above is only as good as the levels it meets
    seen = set()
    for seed in SEEDS:
        spec = declared_spec(seed)
        if spec.is_null:
            continue
        for owner, _ in weighted_deals(spec):
            seen.add(deal_outcome(spec, owner).tricks)
    assert {0, TRICKS} <= seen


@pytest.mark.parametrize("seed", breadth(range(0, 60, 6), [0, 6, 12]))
def test_every_adversarial_method_reports_the_exact_scores(seed):
    spec = declared_spec(seed)
    exact = {
        o.report: sum(
            (p * minimax_score(spec, owner, o.value) for owner, p in weighted_deals(spec)),
            Fraction(0),
        )
        for o in scored_objectives(spec)
    }
    classical = evaluate(spec, model="adversarial", method="classical")
    assert classical.scores.exact == exact
    solver = evaluate(spec, model="adversarial", method="double-dummy")
    assert solver.scores.exact == exact and solver.p_win_exact == classical.p_win_exact
    pimc = evaluate(spec, model="adversarial", shots=3000, seed=seed)
    for key, value in exact.items():  # 95% intervals of a fixed seed: deterministic
        low, high = pimc.scores.ci[key]
        assert low - 1e-9 <= value <= high + 1e-9, (key, low, float(value), high)


def test_a_forced_first_card_is_minimaxed_too():
    spec = next(s for s in map(declared_spec, SEEDS) if s.leader == s.declarer)
    first = spec.hands["A"][0]
    objective = OBJECTIVES["seeger-fabian"]
    exact = sum(
        (p * minimax_score(spec, o, objective.value, first) for o, p in weighted_deals(spec)),
        Fraction(0),
    )
    report = evaluate(spec, first, model="adversarial", method="classical")
    assert report.scores.exact["expected_seeger_fabian"] == exact


LEVELS = ((10, 0), (20, 3), (45, 3), (75, 5), (100, 8), (120, TRICKS))
"""One (points, tricks) of each level: no trick, 30 or fewer, 31-60, 61-89, 90 or more, all."""


def _level(points: int, tricks: int) -> int:
    if tricks == 0:
        return 0
    if tricks == TRICKS:
        return 5
    return 1 + sum(points >= x for x in (31, 61, 90))


@pytest.mark.parametrize("game", breadth(SUIT_GAMES, ["clubs", "grand"]))
def test_a_score_depends_on_the_level_alone_and_never_falls(game):
    # what deal_outcome's three searches rest on, for every declaration of a suit or grand
    outcomes = [(p, t) for t in range(TRICKS + 1) for p in range(121)
                if (t > 0 or p <= 22) and (t < TRICKS or p == 120)]  # fmt: skip
    for hand in (False, True):
        for announced in ANNOUNCEMENTS if hand else ((),):
            for bid in BID_VALUES[:25]:
                for matadors in (1, 4, -1, -4):
                    d = Declaration.make(game, hand, list(announced), bid)
                    by_level = [settle(d, matadors, p, t) for p, t in LEVELS]
                    for a, b in zip(by_level, by_level[1:], strict=False):
                        assert a.list_score <= b.list_score
                        assert a.declarer_seeger_fabian <= b.declarer_seeger_fabian
                    for p, t in outcomes:
                        assert settle(d, matadors, p, t) == by_level[_level(p, t)], (p, t)


def test_null_outcome_is_the_win():
    spec = next(s for s in map(declared_spec, SEEDS) if s.trump in (Trump.NULL, Trump.NULL_OUVERT))
    for owner, _ in weighted_deals(spec):
        outcome = deal_outcome(spec, owner)
        assert (outcome.tricks == 0) == outcome.wins
