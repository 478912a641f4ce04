"""The Philosopher Cats strategy study: dealer calls, noise, determinism, one exact expectation."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

from qcards.games.cats.cards import DECK, Colour, parse_cards
from qcards.games.cats.errors import CatsError
from qcards.games.cats.simulate import DEALERS, Noise, deal, simulate

RED, BLACK = Colour.RED, Colour.BLACK


def calls(strategy: str, cards: list[str], seeds: int = 20) -> set[Colour]:
    dealt = parse_cards(cards)
    return {DEALERS[strategy](dealt, random.Random(s)) for s in range(seeds)}


def test_dealer_strategies():
    assert calls("majority", ["7H", "8H", "9S", "JOKER"]) == {RED}
    assert calls("minority", ["7H", "8H", "9S", "JOKER"]) == {BLACK}
    assert calls("minority", ["7H", "8H", "JOKER"]) == {RED}  # black would be false
    assert calls("majority", ["7H", "7S"]) == calls("minority", ["7H", "7S"]) == {RED, BLACK}
    assert calls("random", ["7H", "7S", "8S"]) == {RED, BLACK}


def test_noise_parsing():
    assert Noise.parse("late=0.2,rash=0.1") == Noise(0.2, 0.1)
    assert Noise.parse(" rash=0.3 ") == Noise(0.0, 0.3)
    assert Noise.parse("none") == Noise()
    for bad, message in [
        ("late=2", "not a probability"),
        ("slow=0.1", "bad noise"),
        ("late=x", "not a number"),
        ("late", "bad noise"),
    ]:
        with pytest.raises(CatsError, match=message):
            Noise.parse(bad)


def test_bad_study_options():
    with pytest.raises(CatsError, match="players must be 2 to 10"):
        simulate(1, 10)
    with pytest.raises(CatsError, match="hands must be at least 1"):
        simulate(3, 0)
    with pytest.raises(CatsError, match="unknown dealer strategy"):
        simulate(3, 10, dealers=["sneaky"])


def test_deals_come_from_the_deck():
    rng = random.Random(1)
    for _ in range(50):
        cards = deal(8, rng)
        assert len(cards) == 8 and all(c in DECK for c in cards)
        parse_cards([str(c) for c in cards])  # no card twice, at most two jokers


def test_same_seed_same_study():
    noise = Noise(0.2, 0.1)
    assert simulate(4, 25, noise=noise, seed=3) == simulate(4, 25, noise=noise, seed=3)
    assert simulate(4, 25, noise=noise, seed=3) != simulate(4, 25, noise=noise, seed=4)


def test_perfect_players_never_pay_the_dealer():
    study = simulate(5, 40, noise=Noise(), seed=2)
    by_name = {r.dealer: r for r in study.results}
    assert set(by_name) == set(DEALERS)
    for r in study.results:
        assert r.dealer_points.mean == 0 and r.correct.mean == 1
        assert r.player_points.mean >= 1  # a token each, plus any bonus
    # the same deals: calling the majority colour always takes at least as many rounds
    assert by_name["majority"].rounds.mean >= by_name["minority"].rounds.mean


def test_rash_pairs_match_the_exact_expectation():
    """Two players, everyone rash: whoever does not know in round 1 guesses at random then.

    Both natural and the same colour (probability 1300/2860 among ordered deals that are not
    two jokers), nobody knows: each is right with probability 1/2. Otherwise exactly one
    player holds the called colour and knows at once; the other is right half the time. So a
    guess is right with probability 3/4 - p/4 and every hand lasts one round. Checked within
    four standard errors (seed fixed).
    """
    p_same = Fraction(2 * 26 * 25, 54 * 53 - 2)
    expected = float(Fraction(3, 4) - p_same / 4)
    (result,) = simulate(2, 3000, dealers=["majority"], noise=Noise(rash=1.0), seed=11).results
    assert result.rounds.mean == 1
    assert abs(result.correct.mean - expected) < 4 * result.correct.se
    assert result.dealer_points.mean == pytest.approx(2 * (1 - result.correct.mean))


def test_paired_differences_are_taken_hand_by_hand():
    """The paired mean equals the difference of the means; with perfect players both
    strategies pay the dealer nothing in every hand, so the paired error is exactly 0."""
    study = simulate(5, 200, noise=Noise(late=0.3), seed=4)
    by_name = {r.dealer: r for r in study.results}
    assert [(d.dealer, d.baseline) for d in study.differences] == [
        ("minority", "majority"),
        ("random", "majority"),
    ]
    for d in study.differences:
        gap = by_name[d.dealer].dealer_points.mean - by_name["majority"].dealer_points.mean
        assert abs(d.dealer_points.mean - gap) < 1e-12
        assert d.dealer_points.se > 0
    perfect = simulate(4, 50, dealers=("random", "minority"), seed=2)
    assert [(d.dealer, d.dealer_points.mean, d.dealer_points.se) for d in perfect.differences] == [
        ("minority", 0.0, 0.0)
    ]
