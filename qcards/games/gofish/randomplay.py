"""A random player: a uniformly random legal ask and a uniformly random consistent answer.

Used by the tests (random games checked against brute force), the benchmark and the ``random``
bot (:mod:`qcards.games.gofish.bots`). The helpers that give a new suit its name live here too,
so that every computer player names suits the same way.
"""

from __future__ import annotations

import random
from collections.abc import Collection
from typing import cast

from qcards.games.gofish.game import ANSWERS, Ask, GoFish, Move

SUIT_NAMES = ("narwhals", "unicorns", "radishes", "ducks", "otters", "quokkas", "ravens", "yaks")
"""Names computer players give new suits, in this order (skipping any a human already used)."""


def fresh_suit(game: GoFish) -> str:
    """The name a computer player gives the next new suit: the first of :data:`SUIT_NAMES` not
    in use, else ``s1``, ``s2``, ... (the first unused)."""
    used = set(game.suits)
    numbered = (f"s{k}" for k in range(1, len(used) + 2))
    return next(name for name in (*SUIT_NAMES, *numbered) if name not in used)


def named(game: GoFish, ask: Ask) -> Ask:
    """``ask`` with a suit name: an ask for a new suit (``suit`` None) gets :func:`fresh_suit`."""
    return ask if ask.suit is not None else Ask(ask.asker, ask.target, fresh_suit(game))


def random_ask(game: GoFish, rng: random.Random) -> Ask:
    """A uniformly random legal ask of the player to move, with its suit named."""
    return named(game, rng.choice(game.legal_asks()))


def random_answer(allowed: Collection[str], rng: random.Random) -> str:
    """A uniformly random answer among the consistent ones."""
    return rng.choice(sorted(allowed))


def random_move(game: GoFish, rng: random.Random, paradox: float = 0.0) -> Move:
    """Play one random move on ``game`` and return it.

    Args:
        game: a game that is not over.
        rng: the source of randomness.
        paradox: probability of giving an inconsistent answer when there is one.
    """
    ask = random_ask(game, rng)
    suit = cast(str, ask.suit)  # random_ask names the suit
    allowed = game.allowed_answers(ask.asker, ask.target, suit)
    wrong = [a for a in ANSWERS if a not in allowed]
    if wrong and rng.random() < paradox:
        answer = wrong[0]
    else:
        answer = random_answer(allowed, rng)
    return game.play(ask.asker, ask.target, suit, answer)
