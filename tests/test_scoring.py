"""ISkO scoring (qcards.skat.rules.scoring), rule by rule from the ISkO text: the rules XSkat never
exercises (announcements, overbidding, four-player tables) each have a case here; the rest are
also checked against XSkat's own scores in test_xskat.py."""

from __future__ import annotations

import pytest

from qcards.skat.rules.cards import Card
from qcards.skat.rules.scoring import (
    BID_VALUES,
    Declaration,
    ScoringError,
    check_bid,
    matadors,
    seeger_fabian,
    settle,
)


def cards(text: str) -> list[Card]:
    return [Card.parse(c) for c in text.split()]


# ----------------------------------------------------------------------------- matadors


@pytest.mark.parametrize(
    ("held", "game", "expected"),
    [
        ("CJ SJ HJ DJ", "grand", 4),
        ("CJ SJ DJ", "grand", 2),
        ("CJ", "grand", 1),
        ("SJ HJ DJ", "grand", -1),
        ("DJ", "grand", -3),
        ("CA C10", "grand", -4),  # no jack: without 4 in a grand
        ("CA C10", "clubs", -4),  # without 4: the clubs ace is the fifth trump
        ("C10", "clubs", -5),
        ("CJ SJ HJ DJ CA C10 CK CQ C9 C8 C7", "clubs", 11),
        ("CJ SJ HJ DJ HA H10 HK HQ H9 H8", "hearts", 10),
        ("CJ SJ HJ DJ HA H10 HK HQ H9 H7", "hearts", 9),
        ("H7", "hearts", -10),
        ("SJ HJ", "diamonds", -1),
        ("CJ", "null", 0),
    ],
)
def test_matadors(held, game, expected):
    assert matadors(cards(held), game) == expected


def test_matadors_count_the_skat():
    # the clubs jack in the Skat makes "without 1" a "with 2" (the Skat is part of the twelve)
    hand = cards("SJ CA CK C9 C8 SA S10 HA H10 D7")
    assert matadors(hand, "clubs") == -1
    assert matadors(hand + cards("CJ D8"), "clubs") == 2


# ----------------------------------------------------------------------------- game values


def test_base_values_and_game_level():
    # with 1, game: 2 levels
    for game, base in [("diamonds", 9), ("hearts", 10), ("spades", 11), ("clubs", 12),
                       ("grand", 24)]:  # fmt: skip
        s = settle(Declaration.make(game, bid=18), 1, 61, 5)
        assert (s.game_value, s.multiplier, s.won, s.list_score) == (2 * base, 2, True, 2 * base)


def test_hand_schneider_schwarz_levels():
    d = Declaration.make("spades", hand=True, bid=18)
    assert settle(d, -2, 75, 6).multiplier == 4  # without 2, game, Hand
    assert settle(d, -2, 90, 7).multiplier == 5  # Schneider at 90
    assert settle(d, -2, 89, 7).multiplier == 4
    assert settle(d, -2, 120, 10).multiplier == 6  # Schwarz: Schneider too
    # Schwarz by tricks, not points: 120 points with a trick of no points lost is no Schwarz
    assert settle(d, -2, 120, 9).multiplier == 5


def test_lost_games_count_double_and_schneider_against_the_declarer():
    d = Declaration.make("hearts", bid=18)
    lost = settle(d, 1, 60, 4)
    assert (lost.won, lost.game_value, lost.list_score) == (False, 20, -40)
    at_30 = settle(d, 1, 30, 2)  # the declarer at 30 or fewer is Schneider
    assert (at_30.multiplier, at_30.list_score) == (3, -60)
    assert settle(d, 1, 31, 2).multiplier == 2
    schwarz = settle(d, 1, 0, 0)  # no trick: Schwarz, Schneider included
    assert (schwarz.multiplier, schwarz.list_score) == (4, -80)
    # the Skat's points count, yet no trick taken is still Schwarz
    assert settle(d, 1, 21, 0).multiplier == 4


def test_announcements():
    schneider = Declaration.make("grand", hand=True, announced=["schneider"], bid=24)
    # with 1: 1 + game + Hand + Schneider + announced = 5 levels, won with 90
    assert settle(schneider, 1, 90, 8).game_value == 5 * 24
    # announced Schneider not reached: lost, with the announced levels counted
    missed = settle(schneider, 1, 89, 8)
    assert (missed.won, missed.game_value, missed.list_score) == (False, 120, -240)
    schwarz = Declaration.make("clubs", hand=True, announced=["schwarz"], bid=18)
    assert schwarz.announced == ("schneider", "schwarz")
    # with 2, game, Hand, Schneider, Schneider announced, Schwarz, Schwarz announced: 8
    assert settle(schwarz, 2, 120, 10).game_value == 8 * 12
    assert not settle(schwarz, 2, 120, 9).won  # every trick was announced
    assert settle(schwarz, 2, 120, 9).game_value == 8 * 12
    ouvert = Declaration.make("grand", hand=True, announced=["ouvert"], bid=18)
    assert ouvert.announced == ("schneider", "schwarz", "ouvert")
    assert settle(ouvert, 4, 120, 10).game_value == 264  # the highest game value
    assert settle(Declaration.make("clubs", True, ["ouvert"]), 11, 120, 10).game_value == 216


def test_announcements_only_in_hand_games():
    with pytest.raises(ScoringError, match="announced.*only in Hand games"):
        Declaration.make("grand", hand=False, announced=["schneider"])
    with pytest.raises(ScoringError, match="announced.*only in Hand games"):
        Declaration.make("spades", hand=False, announced=["ouvert"])  # suit ouvert is Hand
    with pytest.raises(ScoringError, match="null game announces nothing but ouvert"):
        Declaration.make("null", hand=True, announced=["schneider"])
    with pytest.raises(ScoringError, match="unknown announcement"):
        Declaration.make("grand", hand=True, announced=["kontra"])
    with pytest.raises(ScoringError, match="unknown game"):
        Declaration.make("ramsch")


@pytest.mark.parametrize("announced", [5, {"schneider": True}, "schneider", {"schneider"}, None])
def test_announced_must_be_a_list_of_strings(announced):
    """Issue 53 items 3 and 12: a number was a TypeError, a table read as its keys."""
    with pytest.raises(ScoringError, match=r"^announced: must be a list such as"):
        Declaration.make("grand", hand=True, announced=announced)
    if not isinstance(announced, str):
        with pytest.raises(ScoringError, match=r"^announced: must be a list such as"):
            Declaration.make("grand", hand=True, announced=[announced])


@pytest.mark.parametrize(
    ("hand", "ouvert", "value"), [(False, False, 23), (True, False, 35), (False, True, 46),
                                  (True, True, 59)]
)  # fmt: skip
def test_null_values(hand, ouvert, value):
    d = Declaration.make("null", hand=hand, announced=["ouvert"] if ouvert else [], bid=18)
    won, lost = settle(d, 0, 0, 0), settle(d, 0, 14, 1)
    assert (won.game_value, won.won, won.list_score, won.matadors) == (value, True, value, 0)
    assert (lost.won, lost.list_score) == (False, -2 * value)


def test_overbidding():
    # spades without 1 = 22 at a bid of 30: lost at 33, the lowest multiple of 11 from 30
    d = Declaration.make("spades", bid=30)
    s = settle(d, -1, 75, 6)
    assert (s.overbid, s.won, s.game_value, s.multiplier, s.list_score) == (
        True, False, 33, 3, -66,
    )  # fmt: skip
    # playing Schneider rescues it: 3 levels, 33 >= 30
    rescued = settle(d, -1, 95, 8)
    assert (rescued.overbid, rescued.won, rescued.game_value) == (False, True, 33)
    # lost on points as well as overbid: the overbid value, doubled
    both = settle(d, -1, 50, 4)
    assert (both.overbid, both.game_value, both.list_score) == (True, 33, -66)
    # a null game bid past its value: the lowest multiple of 23 that reaches 24
    null = settle(Declaration.make("null", bid=24), 0, 0, 0)
    assert (null.overbid, null.won, null.game_value, null.list_score) == (True, False, 46, -92)
    # exactly the bid is no overbid
    assert not settle(Declaration.make("clubs", bid=24), 1, 61, 5).overbid


def test_bid_values():
    assert BID_VALUES[:12] == (18, 20, 22, 23, 24, 27, 30, 33, 35, 36, 40, 44)
    assert 264 in BID_VALUES and 216 in BID_VALUES and 59 in BID_VALUES
    assert max(BID_VALUES) == 24 * 18
    for bad in (17, 19, 21, 25, 0, -18, 265 * 2):
        with pytest.raises(ScoringError, match="not a Skat bid value"):
            check_bid(bad)
    with pytest.raises(ScoringError, match="whole number"):
        check_bid(True)


def test_seeger_fabian():
    won = settle(Declaration.make("grand", bid=18), 2, 70, 6)  # 72
    assert seeger_fabian(won, "B", ["A", "B", "C"]) == {"A": 0, "B": 122, "C": 0}
    lost = settle(Declaration.make("grand", bid=18), 2, 60, 6)  # -144
    assert seeger_fabian(lost, "B", ["A", "B", "C"]) == {"A": 40, "B": -194, "C": 40}
    four = seeger_fabian(lost, "B", ["A", "B", "C", "D"])
    assert four == {"A": 30, "B": -194, "C": 30, "D": 30}
    with pytest.raises(ScoringError, match="not at the table"):
        seeger_fabian(won, "E", ["A", "B", "C"])
