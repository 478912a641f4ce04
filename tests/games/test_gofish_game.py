"""The referee's rules: wins by four (an unnamed suit too), paradoxes, forced answers, turn
order, and every kind of illegal move. Outcomes are cross-checked by brute force."""

from __future__ import annotations

import gofish_brute as brute
import pytest

from qcards.errors import QcardsError
from qcards.games.gofish import GoFish, Outcome
from qcards.games.gofish.errors import RuleError


def played(players: str, *moves: str, no_four: bool = False) -> GoFish:
    """A game after moves written 'A C x yes' (asker, target, suit, answer)."""
    game = GoFish(list(players), no_four)
    for move in moves:
        game.play(*move.split())
    return game


def brute_states(game: GoFish):
    return brute.replay_moves(
        len(game.players), game.moves, list(game.players), list(game.suits), game.no_four
    )


def test_four_of_an_unnamed_suit_wins() -> None:
    # C denies two of the three suits, so all of C's cards are of the one nobody has named.
    game = played("ABC", "A C x no", "B C y no")
    assert game.outcome.status == "win" and game.outcome.reason == "four"
    assert game.outcome.winners == ("C",)
    assert game.hands()["C"].known == {"?1": 4}
    assert game.hands()["C"].excluded == ("x", "y")
    low, high = brute.ranges(brute_states(game))
    assert low[2][2] == 4 and low != high  # provable four, but not every hand determined


def test_determined_beats_four_and_goes_to_the_asker() -> None:
    # B denies the only named suit of two: B holds four of the other, and so does A.
    game = played("AB", "A B fish no")
    assert game.outcome == Outcome("win", ("A",), "determined")
    low, high = brute.ranges(brute_states(game))
    assert low == high


def test_forced_and_free_answers() -> None:
    game = played("ABC", "A B x yes")
    assert game.allowed_answers("B", "C", "x") == {"yes", "no"}
    game = played("ABC", "A B x no", "B C y yes")
    # C asks B for z: B has three cards, none x; if none were z either, B would own five y's.
    assert game.allowed_answers("C", "B", "z") == {"yes"}
    move = game.play("C", "B", "z", "yes")
    assert move.forced and move.allowed == ("yes",)


def test_paradox_ends_the_game_with_no_winner() -> None:
    game = played("ABC", "A B x no", "B C y yes", "C B z no")
    assert game.outcome.status == "paradox" and game.outcome.winners == ()
    assert game.moves[-1].allowed == ("yes",) and game.over and game.turn is None
    assert brute_states(game) == []
    # the hands shown are the last consistent state: after the ask, before the answer
    assert game.hands()["C"].known == {"z": 1} and game.hands()["B"].size == 5
    with pytest.raises(RuleError, match="game is over"):
        game.play("A", "B", "x", "yes")
    assert game.legal_asks() == ()


def test_no_four_variant_changes_the_allowed_answers() -> None:
    # a "no" would leave all four fish to A from the start, which the variant forbids
    assert GoFish(["A", "B"]).allowed_answers("A", "B", "fish") == {"yes", "no"}
    assert GoFish(["A", "B"], no_four=True).allowed_answers("A", "B", "fish") == {"yes"}
    game = played("AB", "A B fish no", no_four=True)
    assert game.outcome.status == "paradox" and brute_states(game) == []


def test_turn_passes_in_seat_order_and_skips_empty_hands() -> None:
    game = played("ABCD", "A B s1 yes", "B A s2 no", "C B s2 yes", "D B s2 yes")
    assert game.turn == "A"
    game.play("A", "B", "s3", "yes")  # B gives away the last card
    assert game.knowledge.hand_size(1) == 0 and not game.over
    assert game.turn == "C"
    assert game.allowed_answers("C", "B", "s1") == {"no"}


def test_legal_asks_cover_named_and_new_suits() -> None:
    game = played("ABC", "A B x no")  # B provably holds no x: only a new suit for B
    assert {(a.target, a.suit) for a in game.legal_asks()} == {("A", None), ("C", None)}
    game = played("ABC", "A B x no", "B A y no")
    assert {(a.target, a.suit) for a in game.legal_asks()} == {
        (t, s) for t in "AB" for s in ("x", "y", None)
    }


def test_copy_is_independent() -> None:
    game = played("ABC", "A B x yes")
    twin = game.copy()
    twin.play("B", "C", "x", "no")
    assert len(game.moves) == 1 and game.turn == "B" and game.suits == ("x",)
    assert len(twin.moves) == 2 and twin.turn == "C"


@pytest.mark.parametrize(
    ("moves", "bad", "message"),
    [
        ((), ("B", "A", "x", "yes"), "it is A's turn, not B's"),
        ((), ("A", "Q", "x", "yes"), "unknown player 'Q'"),
        ((), ("Q", "A", "x", "yes"), "unknown player 'Q'"),
        ((), ("A", "A", "x", "yes"), "A asks themselves"),
        ((), ("A", "B", "x", "maybe"), "must be 'yes' or 'no'"),
        (("A B x no",), ("B", "A", "x", "no"), "B provably holds no x"),
        (("A C x no", "B C y no"), ("C", "A", "x", "no"), "game is over"),
        (("A B x yes", "B C y yes", "C A z yes"), ("A", "B", "w", "no"), "all 3 suits are named"),
    ],
)
def test_illegal_moves(moves, bad, message) -> None:
    game = played("ABC", *moves)
    with pytest.raises(RuleError, match=message) as info:
        game.play(*bad)
    assert isinstance(info.value, QcardsError)
    assert len(game.moves) == len(moves)  # nothing changed


def test_new_suit_refused_when_no_unnamed_card_is_possible() -> None:
    # A keeps one card, provably an s1 (asked for, never given away): no unnamed suit left
    game = played("ABCD", "A D s1 no", "B A s2 yes", "C A s3 yes", "D A s2 yes")
    assert game.hands()["A"].excluded == ("s2", "s3", "?1")
    assert {a.suit for a in game.legal_asks()} == {"s1"}
    with pytest.raises(RuleError, match="A provably holds no card of an unnamed suit"):
        game.play("A", "B", "s4", "no")
    assert not brute.legal(brute_states(game), 0, 3)


@pytest.mark.parametrize(
    ("players", "message"),
    [(["A"], "1 players"), (list("ABCDEFGHI"), "9 players"), (["A", "A"], "listed twice")],
)
def test_bad_player_lists(players, message) -> None:
    with pytest.raises(RuleError, match=message):
        GoFish(players)
