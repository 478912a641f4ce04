"""A random player: a uniformly random legal ask and a uniformly random consistent answer.

Used by the tests (random games checked against brute force) and the benchmark; a base line
for the strategies a tournament may add later.
"""

from __future__ import annotations

import random

from qcards.games.gofish.game import ANSWERS, GoFish, Move


def random_move(game: GoFish, rng: random.Random, paradox: float = 0.0) -> Move:
    """Play one random move on ``game`` and return it.

    A suit not named yet gets the name ``s1``, ``s2``, ... in naming order.

    Args:
        game: a game that is not over.
        rng: the source of randomness.
        paradox: probability of giving an inconsistent answer when there is one.
    """
    ask = rng.choice(game.legal_asks())
    suit = ask.suit if ask.suit is not None else f"s{len(game.suits) + 1}"
    allowed = game.allowed_answers(ask.asker, ask.target, suit)
    wrong = [a for a in ANSWERS if a not in allowed]
    if wrong and rng.random() < paradox:
        answer = wrong[0]
    else:
        answer = rng.choice(sorted(allowed))
    return game.play(ask.asker, ask.target, suit, answer)
