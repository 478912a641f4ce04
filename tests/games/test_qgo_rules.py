"""Quantum Go engine on hand-built positions: each collapse step, captures, superko, scoring."""

from __future__ import annotations

import pytest

from qcards.games.qgo.board import Colour, parse_point
from qcards.games.qgo.collapse import Decision, Entangled
from qcards.games.qgo.errors import QgoError
from qcards.games.qgo.game import Move, QuantumGo, position_of
from qcards.games.qgo.rules import Rules

B, W = Colour.BLACK, Colour.WHITE


def pts(text: str, size: int = 19) -> tuple:
    return tuple(parse_point(w, size) for w in text.split())


def game_with(size: int = 19, black: str = "", white: str = "", pairs=(), **rules) -> QuantumGo:
    """A position built by hand: ordinary stones and entangled pairs ``(colour, "P Q")``."""
    stones = {p: B for p in pts(black, size)} | {p: W for p in pts(white, size)}
    entangled = []
    for label, (colour, where) in enumerate(pairs, start=1):
        group = Entangled(colour, pts(where, size), "pair", label)
        entangled.append(group)
        stones |= {p: colour for p in group.points}
    return QuantumGo(Rules(size=size, **rules), stones, entangled)


class Script:
    """Answers decisions from a list of points to keep, and remembers what it was asked."""

    def __init__(self, size: int, *keeps: str) -> None:
        self.keeps = [pts(k, size) for k in keeps]
        self.asked: list[Decision] = []

    def __call__(self, decision: Decision) -> tuple:
        self.asked.append(decision)
        return self.keeps.pop(0)


def play(game: QuantumGo, colour: Colour, where: str, *keeps: str) -> Script:
    game.to_move = colour
    script = Script(game.size, *keeps)
    game.play(Move(colour, pts(where, game.size)), script)
    return script


def test_no_contact_leaves_the_pair_entangled():
    game = QuantumGo()
    play(game, B, "D3 C5")
    assert [g.points for g in game.entangled] == [pts("D3 C5")]
    assert game.rows()[19 - 3][3] == "b"


def test_adjacent_stones_of_one_new_pair_touch_each_other():
    # The rules start a collapse when a new stone touches "any other stone": its twin counts.
    game = QuantumGo()
    script = play(game, B, "D3 D4", "D4")
    assert [(d.step, d.options) for d in script.asked] == [(3, (pts("D3"), pts("D4")))]
    assert game.entangled == [] and game.stones == {pts("D4")[0]: B}


def test_figure_1_black_keeps_the_touched_stone_so_white_is_forced():
    # The paper's first example: Black {D3, C5}, then White {D2, E6} touches D3.
    game = game_with(pairs=[(B, "D3 C5")])
    script = play(game, W, "D2 E6", "D3", "D2")
    first, second = script.asked
    assert (first.step, first.colour, first.options) == (2, B, (pts("D3"), pts("C5")))
    assert (second.step, second.colour, second.options) == (3, W, (pts("D2"),))
    assert second.forced_by == pts("D3")
    assert game.rows()[19 - 3][3] == "B" and game.rows()[19 - 2][3] == "W"


def test_figure_1_a_removed_stone_does_not_bind_the_new_pair():
    # "If black had chosen the other stone then white could have chosen either stone."
    game = game_with(pairs=[(B, "D3 C5")])
    script = play(game, W, "D2 E6", "C5", "E6")
    assert script.asked[1].options == (pts("D2"), pts("E6"))
    assert script.asked[1].forced_by == ()
    assert set(game.stones) == set(pts("C5 E6"))


def test_steps_run_mover_then_opponent_then_new_pair():
    # Black's new pair touches one black pair (step 1) and one white pair (step 2).
    game = game_with(size=9, pairs=[(W, "E5 A9"), (B, "C4 J1")])
    script = play(game, B, "D5 D4", "C4", "E5", "D4")
    assert [(d.step, d.colour) for d in script.asked] == [(1, B), (2, W), (3, B)]
    # D5 touches E5, D4 touches C4: both stones of the new pair may stay
    assert script.asked[2].options == (pts("D5", 9), pts("D4", 9))
    assert script.asked[2].forced_by == ()  # both touch a kept stone: no restriction
    assert game.entangled == []


def test_step_3_must_keep_a_stone_touching_a_kept_stone():
    game = game_with(size=9, pairs=[(B, "C4 J1")])
    with pytest.raises(QgoError, match="keep D4"):
        play(game, B, "D4 G7", "C4", "G7")
    assert game.to_move is B and len(game.entangled) == 1  # nothing changed


def test_collapse_by_an_ordinary_stone_is_a_free_choice():
    game = game_with(size=9, black="C3")
    script = play(game, W, "C4 H8", "H8")
    assert script.asked[0].options == (pts("C4", 9), pts("H8", 9))
    assert game.stones == {pts("C3", 9)[0]: B, pts("H8", 9)[0]: W}


def test_capture_after_collapse():
    game = game_with(size=5, white="A1", black="B1")
    play(game, B, "A2 E5", "A2")
    turn = game.turns[-1]
    assert turn.captured == pts("A1", 5)
    assert game.stones == {pts("B1", 5)[0]: B, pts("A2", 5)[0]: B}


def test_opponent_groups_are_captured_before_the_movers():
    # Black A1 has no liberty until the two white stones in atari go.
    game = game_with(size=4, white="A2 B1", black="A3 B2 C1")
    play(game, B, "A1 D4", "A1")
    assert set(game.turns[-1].captured) == set(pts("A2 B1", 4))
    assert game.stones[pts("A1", 4)[0]] is B


def test_self_capture_is_legal():
    # Black's new stone at A1 dies at once; the board still changed (C3 E5 collapsed to E5).
    game = game_with(size=5, white="A2 B1", pairs=[(B, "C3 E5")])
    play(game, B, "A1 D3", "E5", "A1")
    assert game.turns[-1].captured == pts("A1", 5)
    assert game.stones == {pts("A2", 5)[0]: W, pts("B1", 5)[0]: W, pts("E5", 5)[0]: B}


KO = dict(size=5, black="B3 A2 B1", white="C3 B2 D2 C1")


def test_superko_forbids_retaking_a_ko_at_once():
    game = game_with(**KO)
    play(game, B, "C2 E5", "C2")
    assert game.turns[-1].captured == pts("B2", 5)
    with pytest.raises(QgoError, match="superko"):
        play(game, W, "B2 E4", "B2")
    assert game.to_move is W  # the refused move left the game as it was
    play(game, W, "B2 E4", "E4")  # collapsing onto the other stone is a new position
    assert game.turns[-1].captured == ()


def test_superko_position_includes_the_entangled_pairs():
    # Two ordinary black stones at A1 and E5 were seen before; the pair {A1, E5} is new.
    game = QuantumGo(Rules(size=5))
    classical = {pts("A1", 5)[0]: B, pts("E5", 5)[0]: B}
    game.history.add(position_of(classical, []))
    play(game, B, "A1 E5")
    assert game.position()[0] == frozenset()  # no ordinary stone: both are entangled
    assert game.position() != position_of(classical, [])


def test_passes_end_the_game_and_colours_alternate():
    game = QuantumGo(Rules(size=5))
    with pytest.raises(QgoError, match="Black is to move"):
        game.play(Move(W), Script(5))
    game.play(Move(B), Script(5))
    game.play(Move(W), Script(5))
    assert game.finished
    with pytest.raises(QgoError, match="over"):
        game.play(Move(B), Script(5))


@pytest.mark.parametrize(
    "where, message",
    [("A1 A1", "distinct"), ("B1 C3", "occupied"), ("A1", "places 2"), ("A1 A2 A3", "places 2")],
)
def test_bad_move_shapes(where, message):
    game = game_with(size=5, black="B1")
    with pytest.raises(QgoError, match=message):
        game.play(Move(B, pts(where, 5)), Script(5))


def test_area_scoring_with_komi():
    # Walls on columns C (Black) and D (White): Black has A-C, 15 points; White D-E, 10.
    game = game_with(size=5, black="C1 C2 C3 C4 C5", white="D1 D2 D3 D4 D5", komi=0.5)
    score = game.score()
    assert (score.black, score.white, score.result) == (15, 10.5, "B+4.5")
    assert game_with(size=5, komi=2).score().result == "W+2"
    assert game_with(size=5).score().result == "Draw"


def test_entangled_stones_count_as_empty_points():
    # A white pair inside Black's area neither scores for White nor spoils Black's territory.
    game = game_with(size=5, black="C1 C2 C3 C4 C5", pairs=[(W, "A1 A5")])
    score = game.score()
    assert (score.black, score.white) == (25, 0)


def test_resignation():
    game = QuantumGo(Rules(size=5))
    game.play(Move(B, resign=True), Script(5))
    assert game.finished and game.score().result == "W+R"
