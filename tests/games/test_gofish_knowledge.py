"""The exact knowledge against brute force over every initial deal, on seeded random games.

For 2, 3 and 4 players, with and without the no-four variant, every state of every game is
compared: feasibility, each count's provable minimum and maximum, the hand summaries, the
legal asks, the allowed answers of every legal ask, and the outcome.
"""

from __future__ import annotations

import random

import gofish_brute as brute
import pytest

from qcards.games.gofish import GoFish
from qcards.games.gofish.knowledge import Knowledge
from qcards.games.gofish.randomplay import random_move

GAMES = {2: 40, 3: 25, 4: 6}


@pytest.mark.parametrize("no_four", [False, True], ids=["standard", "no-four"])
@pytest.mark.parametrize("players", sorted(GAMES))
def test_random_games_match_brute_force(players: int, no_four: bool) -> None:
    initial = brute.start(players, no_four)
    names = [f"P{k}" for k in range(players)]
    statuses = set()
    for seed in range(GAMES[players]):
        rng = random.Random(100 * players + seed + (50 if no_four else 0))
        game, states = GoFish(names, no_four), initial
        brute.check_state(game, states)
        while not game.over:
            before = states
            move = random_move(game, rng, paradox=0.08)
            a, t = names.index(move.asker), names.index(move.target)
            s = game.suits.index(move.suit)
            assert move.allowed == brute.allowed(before, a, t, s)
            states = brute.step(before, a, t, s, move.answer)
            status, winners = brute.outcome(game.players, states, move.asker)
            assert (game.outcome.status, game.outcome.winners) == (status, winners)
            if status == "paradox":  # the knowledge kept is the one before the answer
                assert not game.knowledge.answer(a, t, s, move.answer == "yes").feasible
            else:
                assert game.knowledge.feasible
                brute.check_state(game, states)
        statuses.add(game.outcome.reason or game.outcome.status)
    assert {"paradox", "determined"} <= statuses, statuses


@pytest.mark.parametrize("no_four", [False, True])
def test_start_of_game(no_four: bool) -> None:
    k = Knowledge.start(3, no_four)
    assert k.feasible and not k.determined and k.fours() == ()
    low, high = brute.ranges(brute.start(3, no_four))
    assert k.counts.minimum == low and k.counts.maximum == high
    assert all(k.hand_size(p) == 4 for p in range(3))
