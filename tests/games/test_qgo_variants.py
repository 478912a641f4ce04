"""The paper's variants: weak, symmetric, semi-quantum, GHZ- and W-type triplets."""

from __future__ import annotations

import pytest

from qcards.games.qgo.errors import QgoError
from qcards.games.qgo.record import parse_record, replay
from qcards.games.qgo.rules import Rules


def replay_text(text: str):
    return replay(parse_record(text, "game.txt"))


def test_weak_diagonal_contact_starts_a_collapse():
    moves = "B C3 E5\nW D4 A1\n"  # D4 is diagonal to C3
    plain = replay_text("size 6\n" + moves)
    assert len(plain.entangled) == 2
    weak = replay_text("size 6\nvariant weak\n" + moves.replace("A1\n", "A1 keep C3 D4\n"))
    assert weak.entangled == [] and weak.rows()[6 - 4][3] == "W"


def test_weak_step_3_duty_counts_diagonals():
    with pytest.raises(QgoError, match=r"keep D4 \(must touch C3"):
        replay_text("size 6\nvariant weak\nB C3 F6\nW D4 A1 keep C3 A1\n")


def test_symmetric_pairs_mirror_about_the_centre():
    game = replay_text("size 5\nvariant symmetric\nB A1 E5\nW B2 D4\n")
    assert len(game.entangled) == 2
    with pytest.raises(QgoError, match="line 4: symmetric variant: the stone with B1 goes on D5"):
        replay_text("size 5\nvariant symmetric\nB A1 E5\nW B1 E4\n")
    with pytest.raises(QgoError, match="D5 is free, so B1 needs its pair"):
        replay_text("size 5\nvariant symmetric\nB A1 E5\nW B1\n")


def test_symmetric_single_stone_when_the_mirror_is_taken_or_at_the_centre():
    game = replay_text("size 5\nvariant symmetric\nB C3\n")
    assert game.rows()[2][2] == "B"  # the centre is its own mirror: an ordinary stone
    with pytest.raises(QgoError, match="E4 is free"):
        replay_text("size 5\nvariant symmetric\nB C3\nW A2\n")
    # once E4 is occupied, a lone stone on its mirror A2 is allowed
    game = replay_text("size 5\nvariant symmetric\nB E4 A2\nW pass\nB D4 B2 keep E4 D4\nW A2\n")
    assert game.turns[-1].move.points == ((0, 1),)


def test_semi_quantum_white_places_single_stones():
    game = replay_text("size 5\nvariant semi-quantum\nB A1 E5\nW A2 keep A1\n")
    assert game.entangled == [] and game.rows() == [
        ".....",
        ".....",
        ".....",
        "W....",
        "B....",
    ]
    with pytest.raises(QgoError, match="White places 1 stone"):
        replay_text("size 5\nvariant semi-quantum\nB A1 E5\nW C3 D3\n")


def test_ghz_triplet_collapses_to_one_stone():
    game = replay_text("size 7\nvariant triplets-ghz\nB A1 D4 G7\nW A2 F1 keep D4 A2\n")
    assert game.entangled == []
    assert sorted(game.stones) == [(0, 1), (3, 3)]


def test_w_triplet_collapses_to_a_pair_then_to_one_stone():
    text = "size 7\nvariant triplets-w\nB A1 D4 G7\nW A2 F1 keep D4 G7 A2\n"
    game = replay_text(text)
    (pair,) = game.entangled
    assert (pair.kind, pair.points) == ("pair", ((3, 3), (6, 6)))
    game = replay_text(text + "B F7 G6 keep G7 F7\n")
    assert game.entangled == [] and (6, 6) in game.stones and (3, 3) not in game.stones


def test_w_triplet_played_into_contact_keeps_two_stones():
    game = replay_text("size 7\nvariant triplets-w\nB A1 C3\nW A2 D4 G7 keep A1 A2 G7\n")
    (pair,) = game.entangled
    assert pair.points == ((0, 1), (6, 6))
    with pytest.raises(QgoError, match=r"keep A2 D4 or A2 G7"):
        replay_text("size 7\nvariant triplets-w\nB A1 C3\nW A2 D4 G7 keep A1 D4 G7\n")


def test_incompatible_variants():
    with pytest.raises(QgoError, match="triplets cannot be point-symmetric"):
        Rules(symmetric=True, triplets="ghz")
    with pytest.raises(QgoError, match="one kind of triplets"):
        Rules.from_variants(9, 0, ["triplets-ghz", "triplets-w"])


def test_semi_quantum_and_symmetric_combine():
    game = replay_text("size 5\nvariant symmetric\nvariant semi-quantum\nB A1 E5\nW B3\n")
    assert game.rows()[2] == ".W..."
