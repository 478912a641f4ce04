"""The circuits against the referee on 200 fixed generated endgames, exactly.

For each spec of :data:`SPECS` the game circuit runs on the sparse engine
(:func:`qcards.analysis.evaluate.evaluate` with ``method="sparse"``), and its p_win and
expected points must equal the classical referee's fractions
(:func:`qcards.skat.solvers.plain_referee.evaluate`) to 1e-9: every spec with the ``efficient``
construction, every fourth with ``paper``, and the small ones among every other spec with
``hardware`` (:data:`HARDWARE_SUBSET`; it may refuse an endgame with too many basis states, a
ParameterError naming the construction).

The specs come from a seeded :class:`random.Random`, not Hypothesis, so the same 200 run every
time; ``python tests/fuzz/test_fuzz_crosscheck.py`` prints them as TOML. They cover 2 to 4
players, every kind of game the spec accepts, a Skat of 0, 1 or 2 cards, both values of
``winner_leads``, known and unknown cards, and targets within reach of the points in play (so
that wins and losses both occur).
"""

from __future__ import annotations

import random

import plain_referee_store
import pytest

import qcards
from qcards.errors import ParameterError
from qcards.skat.position.spec import SKAT, Endgame, spec_from_dict
from qcards.skat.rules.cards import FULL_DECK, SUITS, Trump, points
from qcards.skat.solvers.plain_referee import evaluate

COUNT = 200
MAX_UNKNOWN = 8
"""Unknown cards per spec (the Skat's included): the whole check runs in a few minutes."""
TOLERANCE = 1e-9
TRUMPS = tuple(Trump)


def crosscheck_spec(index: int) -> Endgame:
    """Spec number ``index``: the kind of game, the players and the Skat cycle with the index,
    so that each run of 72 specs holds every combination (8 kinds x 3 player counts x 3 Skat
    sizes); the rest is drawn from ``random.Random(index)``."""
    rng = random.Random(index)
    trump = TRUMPS[index % len(TRUMPS)]
    n = 2 + (index // len(TRUMPS)) % 3
    skat = (index // (3 * len(TRUMPS))) % 3
    tricks = rng.choice((1, 2, 2, 3))
    players = ["A", "B", "C", "D"][:n]
    # how many cards each player receives at random; the rest of a hand is known
    budget = MAX_UNKNOWN - skat
    dealt = {}
    for p in rng.sample(players, n):
        dealt[p] = rng.randint(0, min(tricks, budget))
        budget -= dealt[p]
    # cards of two or three suits (and the jacks), so that following suit and trumps matter
    suits = rng.sample(SUITS, rng.choice((2, 3)))
    pool = [c for c in FULL_DECK if c.suit in suits or c.rank == "J"]
    cards = rng.sample(pool, n * tricks + skat)
    unknown = cards[: sum(dealt.values()) + skat]
    known = cards[len(unknown) :]
    hands = {}
    for p in players:
        k = tricks - dealt[p]
        hands[p], known = [str(c) for c in known[:k]], known[k:]
    in_play = points(cards)
    declarer_points = rng.randint(0, min(60, 120 - in_play))
    sizes = {p: dealt[p] for p in players if dealt[p]}
    if skat:
        sizes[SKAT] = skat
    table = {
        "players": players,
        "trump": trump.value,
        "leader": rng.choice(players),
        "winner_leads": rng.random() < 0.7,
        "declarer_points": declarer_points,
        "target": min(120, declarer_points + rng.randint(0, in_play + 1)),
        "hands": hands,
        "unknown": {"cards": [str(c) for c in unknown], "sizes": sizes},
    }
    if trump.is_null:  # won by taking no trick: no target
        del table["target"]
    return spec_from_dict(table, source=f"crosscheck-{index:03d}")


def spec_id(index: int, spec: Endgame) -> str:
    return (
        f"{index:03d}-{len(spec.players)}p-{spec.trump.value}-{spec.hand_size}t-skat"
        f"{spec.skat_size}-{len(spec.unknown)}u"
    )


SPECS = [crosscheck_spec(i) for i in range(COUNT)]
IDS = [spec_id(i, s) for i, s in enumerate(SPECS)]
PAPER_SUBSET = range(0, COUNT, 4)
"""The specs also checked with the paper construction (exponential in the hand size)."""
HARDWARE_SUBSET = [
    i for i in range(0, COUNT, 2) if SPECS[i].hand_size <= 2 and len(SPECS[i].unknown) <= 4
]
"""The specs also checked with the hardware construction: every other one of those with at
most two cards a hand and four unknown cards. Its synthesis takes seconds there and minutes a
little beyond (a three-trick endgame with four unknown cards takes 2.5 minutes to build)."""


def check(spec: Endgame, construction: str) -> None:
    # the plain referee, or its stored answer for the slowest specs (tests/plain_referee_store.py)
    referee = plain_referee_store.evaluate(spec)
    report = qcards.evaluate(spec, method="sparse", construction=construction)
    assert report.method == "sparse"
    assert abs(report.p_win - float(referee.p_win)) <= TOLERANCE, (
        f"{spec.source} ({construction}): circuit p_win {report.p_win!r}, referee "
        f"{referee.p_win} = {float(referee.p_win)!r}\n{spec.to_toml()}"
    )
    assert abs(report.expected_points - float(referee.expected_points)) <= TOLERANCE, (
        f"{spec.source} ({construction}): circuit expected points {report.expected_points!r}, "
        f"referee {referee.expected_points}\n{spec.to_toml()}"
    )


def test_the_specs_cover_every_case():
    """The 200 specs hold every player count, kind of game and Skat size, wins and losses."""
    assert len({s.to_toml() for s in SPECS}) == COUNT
    assert {len(s.players) for s in SPECS} == {2, 3, 4}
    assert {s.trump for s in SPECS} == set(Trump)
    assert {s.skat_size for s in SPECS} == {0, 1, 2}
    assert {(len(s.players), s.trump, s.skat_size) for s in SPECS} == {
        (n, t, k) for n in (2, 3, 4) for t in Trump for k in (0, 1, 2)
    }
    assert {s.winner_leads for s in SPECS} == {True, False}
    assert {s.hand_size for s in SPECS} == {1, 2, 3}
    wins = [evaluate(s).p_win for s in SPECS[:40]]
    assert any(p == 0 for p in wins) and any(p == 1 for p in wins)
    assert any(0 < p < 1 for p in wins)


@pytest.mark.slow
@pytest.mark.parametrize("index", range(COUNT), ids=IDS)
def test_efficient_circuit_matches_the_referee(index):
    check(SPECS[index], "efficient")


@pytest.mark.slow
@pytest.mark.parametrize("index", PAPER_SUBSET, ids=[IDS[i] for i in PAPER_SUBSET])
def test_paper_circuit_matches_the_referee(index):
    check(SPECS[index], "paper")


@pytest.mark.slow
@pytest.mark.parametrize("index", HARDWARE_SUBSET, ids=[IDS[i] for i in HARDWARE_SUBSET])
def test_hardware_circuit_matches_the_referee(index):
    try:
        check(SPECS[index], "hardware")
    except ParameterError as exc:
        # the hardware construction may refuse an endgame too big for it, nothing else
        assert exc.parameter == "construction", exc


if __name__ == "__main__":  # list the specs
    for i, s in enumerate(SPECS):
        print(f"# {IDS[i]}\n{s.to_toml()}")
