"""Philosopher Cats scoring, checked against the examples of the rules."""

from __future__ import annotations

import pytest

from qcards.games.cats.cards import DECK, CatCard, Colour, parse_cards
from qcards.games.cats.errors import CatsError
from qcards.games.cats.scoring import Guess, score

RED, BLACK = Colour.RED, Colour.BLACK


def card(text: str) -> CatCard:
    return CatCard.parse(text)


@pytest.mark.parametrize(
    ("top", "under", "dominates"),
    [
        ("7H", "7S", True),  # the same number in another suit, either way
        ("7S", "7H", True),
        ("5H", "4H", True),  # one number down in the same suit
        ("4H", "5H", False),
        ("JC", "10C", True),
        ("10C", "JC", False),
        ("AD", "KD", True),  # the ace is high ...
        ("2D", "AD", True),  # ... and low
        ("KD", "AD", False),
        ("AD", "2D", False),
        ("5H", "4D", False),  # one down in another suit
        ("JOKER", "7H", False),
        ("7H", "JOKER", False),
    ],
)
def test_domination(top, under, dominates):
    assert card(top).dominates(card(under)) is dominates


def test_each_cat_can_dominate_four_others():
    naturals = [c for c in DECK if not c.is_joker]
    assert {sum(c.dominates(o) for o in naturals) for c in naturals} == {4}


def test_three_queens():
    """First, second and last of three queens, all correct: 3, 2 and 1 points."""
    cards = parse_cards(["QH", "QC", "QD"])
    guesses = [Guess(1, RED), Guess(2, BLACK), Guess(3, RED)]
    result = score(cards, RED, guesses)
    assert result.points == (3, 2, 1)
    assert result.bonus == (2, 1, 0)
    assert result.dealer_points == 0


def test_bonus_ignores_whether_the_dominated_player_was_right():
    result = score(parse_cards(["7H", "7S"]), RED, [Guess(1, RED), Guess(2, RED)])
    assert result.points == (2, 0)
    assert result.dealer_points == 1


def test_a_wrong_guess_pays_the_dealer_and_forfeits_the_bonus():
    result = score(
        parse_cards(["7H", "7S", "6S"]), RED, [Guess(1, BLACK), Guess(2, BLACK), Guess(3, BLACK)]
    )
    assert result.correct == (False, True, True)
    assert result.bonus == (0, 1, 0)  # 7S dominates 6S; 7H's bonus over 7S is lost, not paid
    assert result.points == (0, 2, 1)
    assert result.dealer_points == 1


def test_simultaneous_guesses_earn_no_bonus():
    result = score(parse_cards(["7H", "7S"]), RED, [Guess(2, RED), Guess(2, BLACK)])
    assert result.points == (1, 1)


def test_a_joker_is_right_with_the_colour_not_called():
    cards = parse_cards(["JOKER", "7S"])
    assert score(cards, BLACK, [Guess(1, RED), Guess(1, BLACK)]).correct == (True, True)
    assert score(cards, BLACK, [Guess(1, BLACK), Guess(1, BLACK)]).dealer_points == 1


def test_one_guess_per_card():
    with pytest.raises(CatsError, match="2 cards but 1 guesses"):
        score(parse_cards(["7H", "7S"]), RED, [Guess(1, RED)])
