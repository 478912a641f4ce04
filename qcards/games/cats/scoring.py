"""Scoring a hand: tokens, the dealer's takings from wrong guesses, the dominant-cat bonus.

The rules, in short: a correct guess keeps its token (1 point); a wrong one goes to the dealer
(1 point for the dealer each). A correct guesser also gets 1 bonus point for every other player
whose card her card dominates (:meth:`CatCard.dominates`) and who guessed strictly later; the
dominated player's own correctness does not matter. A wrong guesser's bonus is simply lost (it
does not go to the dealer). Guesses in the same round are simultaneous: neither is "before".
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from qcards.games.cats.cards import CatCard, Colour
from qcards.games.cats.errors import CatsError


@dataclass(frozen=True)
class Guess:
    """One player's guess: when, which colour, and whether it was deduced or a coin flip.

    Attributes:
        round: the round (from 1) in which the token was taken.
        colour: the colour of the token.
        deduced: ``True`` when the player believed she knew her colour, ``False`` for a guess
            at random (a rash or confused player, see :mod:`~qcards.games.cats.simulate`).
    """

    round: int
    colour: Colour
    deduced: bool = True


@dataclass(frozen=True)
class Score:
    """The points of one hand.

    Attributes:
        correct: per player, whether the guess matched her colour under the call.
        bonus: per player, dominant-cat bonus points actually received.
        points: per player, token plus bonus (0 for a wrong guess).
        dealer_points: tokens forfeited to the dealer (one per wrong guess).
    """

    correct: tuple[bool, ...]
    bonus: tuple[int, ...]
    points: tuple[int, ...]
    dealer_points: int


def score(cards: Sequence[CatCard], call: Colour, guesses: Sequence[Guess]) -> Score:
    """Score a hand from the cards, the dealer's call and every player's guess (seat order)."""
    if len(cards) != len(guesses):
        raise CatsError(f"{len(cards)} cards but {len(guesses)} guesses")
    correct = tuple(g.colour is c.colour_under(call) for c, g in zip(cards, guesses, strict=True))
    bonus = tuple(
        sum(
            card.dominates(other) and guess.round < later.round
            for other, later in zip(cards, guesses, strict=True)
        )
        if right
        else 0
        for card, guess, right in zip(cards, guesses, correct, strict=True)
    )
    points = tuple(int(right) + b for right, b in zip(correct, bonus, strict=True))
    return Score(correct, bonus, points, dealer_points=correct.count(False))
