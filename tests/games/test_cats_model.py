"""Philosopher Cats: the deck, the possible-worlds model and the referee's rounds."""

from __future__ import annotations

import itertools
import random

import pytest

from qcards.games.cats.cards import (
    COLOURS,
    DECK,
    JOKER,
    CatCard,
    Colour,
    colours_under,
    parse_cards,
    true_calls,
)
from qcards.games.cats.errors import CatsError
from qcards.games.cats.referee import PERFECT, Reasoner, colour_worlds, deduce, play
from qcards.games.cats.worlds import EpistemicModel

RED, BLACK = Colour.RED, Colour.BLACK


def colourings(max_players: int):
    for n in range(1, max_players + 1):
        yield from itertools.product(COLOURS, repeat=n)


# --- cards -----------------------------------------------------------------------------------


def test_deck_has_52_cards_and_two_jokers():
    assert len(DECK) == 54
    assert len(set(DECK)) == 53
    assert DECK.count(JOKER) == 2
    assert sum(c.colour is RED for c in DECK) == sum(c.colour is BLACK for c in DECK) == 26


@pytest.mark.parametrize(
    ("text", "rank", "suit", "colour"),
    [
        ("7H", "7", "H", RED),
        ("as", "A", "S", BLACK),
        ("10D", "10", "D", RED),
        ("Q♣", "Q", "C", BLACK),
    ],
)
def test_parse_card(text, rank, suit, colour):
    card = CatCard.parse(text)
    assert (card.rank, card.suit, card.colour) == (rank, suit, colour)
    assert str(card) == f"{rank}{suit}"


@pytest.mark.parametrize("text", ["", "H7", "1H", "11S", "7X", "JOKERS", "10"])
def test_bad_card_is_refused(text):
    with pytest.raises(CatsError, match="unknown card"):
        CatCard.parse(text)


def test_a_deal_comes_from_one_deck():
    assert parse_cards(["joker", "JOKER", "7H"])[0] is JOKER
    with pytest.raises(CatsError, match="7H dealt 2 times"):
        parse_cards(["7H", "7h"])
    with pytest.raises(CatsError, match="JOKER dealt 3 times"):
        parse_cards(["JOKER"] * 3)
    with pytest.raises(CatsError, match="no cards"):
        parse_cards([])


def test_jokers_take_the_colour_not_called_and_never_make_a_call_true():
    cards = parse_cards(["JOKER", "7S"])
    assert colours_under(cards, BLACK) == (RED, BLACK)
    assert colours_under(cards, RED) == (BLACK, BLACK)
    assert true_calls(cards) == (BLACK,)
    assert true_calls([JOKER, JOKER]) == ()
    with pytest.raises(CatsError, match="no player holds a red card"):
        play(cards, RED)


# --- the general model -----------------------------------------------------------------------


def test_model_partitions_by_view_and_announcements_remove_worlds():
    model = EpistemicModel.product((0, 1), 2)
    assert len(model.worlds) == 4
    assert model.accessible(0, (1, 0)) == {(0, 0), (1, 0)}
    assert not model.knows(0, (1, 0), lambda w: w[0])
    assert model.knows(0, (1, 0), lambda w: w[1])  # she sees it
    after = model.announce(lambda w: w != (0, 0))
    assert after.own_values(0, (1, 0)) == {1}
    assert after.own_values(1, (1, 0)) == {0, 1}
    assert after.announce(lambda w: False).accessible(0, (1, 0)) == frozenset()


def test_model_takes_any_view():
    # an agent who sees nothing knows only what holds in every world
    blind = EpistemicModel.product((0, 1), 2, view=lambda agent, world: None)
    assert not blind.knows(0, (0, 0), lambda w: w[1])
    assert blind.announce(lambda w: w[1] == 1).knows(0, (0, 1), lambda w: w[1])


# --- the referee -----------------------------------------------------------------------------


@pytest.mark.parametrize("call", COLOURS)
def test_closed_form_for_every_colouring_up_to_six_players(call):
    """k players of the called colour know in round k; the others in round k + 1."""
    checked = 0
    for world in colourings(6):
        k = world.count(call)
        if k == 0:
            with pytest.raises(CatsError, match="is false"):
                deduce(world, call)
            continue
        result = deduce(world, call)
        expected = [k if colour is call else k + 1 for colour in world]
        assert [g.round for g in result.guesses] == expected
        assert all(g.deduced and g.colour is c for g, c in zip(result.guesses, world, strict=True))
        assert len(result.rounds) == max(expected)
        for r in result.rounds:
            assert set(r.guessers) == {i for i, e in enumerate(expected) if e == r.number}
        checked += 1
    assert checked == 2**7 - 2 - 6  # all colourings of 1..6 players but the six without the call


def test_the_three_philosophers():
    """The introduction's puzzle: three smudges, all wiped at the same moment (round 3)."""
    result = deduce((RED, RED, RED), RED)
    assert [r.guessers for r in result.rounds] == [(), (), (0, 1, 2)]
    assert [r.worlds_left for r in result.rounds] == [4, 1, 1]


def test_a_joker_plays_like_a_card_of_the_colour_not_called():
    with_joker = play(parse_cards(["7H", "JOKER", "9D"]), RED)
    with_black = play(parse_cards(["7H", "5C", "9D"]), RED)
    assert with_joker.deduction == with_black.deduction
    assert with_joker.deduction.guesses[1].colour is BLACK
    assert with_joker.score.correct == (True, True, True)


def test_a_late_player_misleads_the_other():
    """Red is called over (red, black). The red player knows at once but waits a round; her
    silence tells the other that both must be red, and he guesses red, wrongly."""
    result = deduce((RED, BLACK), RED, [Reasoner(delay=1), PERFECT])
    assert [r.guessers for r in result.rounds] == [(), (0, 1)]
    assert [(g.round, g.colour, g.deduced) for g in result.guesses] == [
        (2, RED, True),
        (2, RED, True),
    ]
    # simultaneous guesses: no dominant-cat bonus; the wrong token goes to the dealer
    score = play(parse_cards(["7H", "7S"]), RED, [Reasoner(delay=1), PERFECT]).score
    assert (score.points, score.dealer_points) == ((1, 0), 1)


def test_a_rash_player_guesses_at_random_in_round_one():
    world = (BLACK, BLACK, RED)  # player 0 does not know in round 1
    guesses = {
        deduce(world, BLACK, [Reasoner(rash=True), PERFECT, PERFECT], random.Random(s)).guesses[0]
        for s in range(20)
    }
    assert {g.colour for g in guesses} == set(COLOURS)
    assert all(g.round == 1 and not g.deduced for g in guesses)


def test_a_contradicted_player_guesses_at_random():
    """Two rash players guess in round 1 where perfect ones could not have: the third finds
    no world left that explains what she saw, and guesses at random at once."""
    world = (RED, RED, RED)
    rash = Reasoner(rash=True)
    result = deduce(world, RED, [rash, rash, PERFECT], random.Random(3))
    assert result.rounds[0].guessers == (0, 1)
    assert result.rounds[0].worlds_left == 0
    assert result.guesses[2].round == 2 and not result.guesses[2].deduced


def test_colour_worlds_start_with_every_colouring():
    assert len(colour_worlds(5).worlds) == 32


def test_a_table_that_learns_nothing_guesses_at_random():
    """Blindfolded players (a view that shows nothing) never know; after a round in which
    nothing happens and nothing is learnt, everyone guesses at random."""
    blind = EpistemicModel.product(COLOURS, 3, view=lambda agent, world: None)
    result = deduce((RED, BLACK, RED), RED, rng=random.Random(1), initial=blind)
    assert [r.guessers for r in result.rounds] == [(), (0, 1, 2)]
    assert not any(g.deduced for g in result.guesses)


def test_one_reasoner_per_player():
    with pytest.raises(CatsError, match="3 players but 1 reasoners"):
        deduce((RED, BLACK, RED), RED, [PERFECT])
