"""The referee: the dealer's announcement, then synchronous rounds of guessing.

How the rules are read here (the README's Philosopher Cats section says the same for users):

- Every player sees every other player's card but not her own; the dealer sees all. Only
  colours matter for deducing (the deck has 26 cards of each colour, so seeing cards never
  rules out either colour for oneself), so a world is a tuple of colours, one per player, and
  all ``2**n`` of them are possible before the announcement.
- Jokers take the colour not called, so a world's coordinates are the colours *under the
  call*; a joker holder is in the same position as any player of the colour not called.
- The announcement "at least one of you cats is X" must be true; a false one is refused.
- Rounds are synchronous: in round ``r`` every player who knows her colour takes a token.
  Everyone then sees who took one (and who did not), which is a public announcement ruling out
  the worlds where the set of knowers would have been different. Only the timing carries
  news: the token's colour tells the others nothing they cannot see on her forehead.

Players need not be perfect: a :class:`Reasoner` may be late or rash (see
:mod:`~qcards.games.cats.simulate`), but the others always reason as if everyone were perfect.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol, Self

from qcards.games.cats.cards import (
    COLOURS,
    CatCard,
    Colour,
    check_deal,
    colours_under,
    true_calls,
)
from qcards.games.cats.errors import CatsError
from qcards.games.cats.scoring import Guess, Score, score
from qcards.games.cats.worlds import EpistemicModel, Predicate, World


class Knowledge(Protocol):
    """What the referee needs of a knowledge state (classical model or quantum state)."""

    @property
    def worlds(self) -> frozenset[World]: ...

    def own_values(self, agent: int, world: World) -> frozenset: ...

    def announce(self, predicate: Predicate) -> Self: ...


MAX_PLAYERS = 12
"""The most players a hand is deduced for: the model holds all ``2**n`` colourings, and the
time grows about fourfold a player (12 players take under a second, 14 several, 20 hours)."""


def colour_worlds(players: int) -> EpistemicModel:
    """Every colouring of ``players`` players, each seeing all cards but her own.

    Raises:
        CatsError: more than :data:`MAX_PLAYERS` players.
    """
    if players > MAX_PLAYERS:
        raise CatsError(
            f"{players} players: a hand is deduced for at most {MAX_PLAYERS} (the deduction "
            f"holds all 2**{players} colourings of the players)"
        )
    return EpistemicModel.product(COLOURS, players)


def at_least_one(call: Colour) -> Predicate:
    """The dealer's announcement "at least one of you cats is ``call``" as a predicate."""
    return lambda world: call in world


def check_call(cards: Sequence[CatCard], call: Colour) -> None:
    """Refuse an announcement that is false for ``cards``."""
    if call not in true_calls(cards):
        raise CatsError(
            f"the dealer may not announce 'at least one of you cats is {call.value}': no player "
            f"holds a {call.value} card (jokers count as the colour not called)"
        )


@dataclass(frozen=True)
class Reasoner:
    """How one player turns knowledge into a guess; the default is a perfect logician.

    Attributes:
        delay: rounds between knowing her colour and taking the token.
        rash: if she does not know her colour in round 1, she guesses at random then.
    """

    delay: int = 0
    rash: bool = False


PERFECT = Reasoner()


@dataclass(frozen=True)
class Round:
    """One round: who took a token, and how many worlds the public still considers possible."""

    number: int
    guessers: tuple[int, ...]
    worlds_left: int


@dataclass(frozen=True)
class Deduction:
    """The rounds of a hand and every player's guess (players indexed from 0 in seat order)."""

    rounds: tuple[Round, ...]
    guesses: tuple[Guess, ...]


def deduce(
    colours: Sequence[Colour],
    call: Colour,
    reasoners: Sequence[Reasoner] | None = None,
    rng: random.Random | None = None,
    initial: Knowledge | None = None,
) -> Deduction:
    """Play the rounds of one hand.

    Args:
        colours: every player's colour under the call (jokers already resolved).
        call: the colour announced; must occur in ``colours``.
        reasoners: one per player; all perfect when omitted.
        rng: coin for random guesses (only imperfect players ever need one).
        initial: the knowledge state before the announcement; :func:`colour_worlds` when
            omitted (:class:`~qcards.games.cats.quantum.QuantumKnowledge` is the alternative).

    A player guesses at random when what she sees contradicts every world left (others were
    late or rash), and so does everyone still waiting once a round changes nothing at all.
    """
    actual = tuple(colours)
    if call not in actual:
        raise CatsError(f"the announcement 'at least one of you cats is {call.value}' is false")
    reasoners = tuple(reasoners or [PERFECT] * len(actual))
    if len(reasoners) != len(actual):
        raise CatsError(f"{len(actual)} players but {len(reasoners)} reasoners")
    rng = rng or random.Random(0)
    state: Knowledge = (initial if initial is not None else colour_worlds(len(actual))).announce(
        at_least_one(call)
    )
    waiting = set(range(len(actual)))
    planned: dict[int, Guess] = {}
    rounds: list[Round] = []
    stalled = False
    while waiting:
        number = len(rounds) + 1
        for player in sorted(waiting - planned.keys()):
            possible = state.own_values(player, actual)
            if len(possible) == 1:
                planned[player] = Guess(number + reasoners[player].delay, next(iter(possible)))
            elif not possible or stalled or (number == 1 and reasoners[player].rash):
                planned[player] = Guess(number, rng.choice(COLOURS), deduced=False)
        guessers = frozenset(p for p in waiting if p in planned and planned[p].round == number)
        before = state
        state = state.announce(_knew_exactly(before, waiting, guessers))
        waiting -= guessers
        stalled = not guessers and not (waiting & planned.keys()) and state.worlds == before.worlds
        rounds.append(Round(number, tuple(sorted(guessers)), len(state.worlds)))
    return Deduction(tuple(rounds), tuple(planned[p] for p in range(len(actual))))


def _knew_exactly(state: Knowledge, waiting: set[int], guessers: frozenset[int]) -> Predicate:
    """Of the players still waiting, exactly ``guessers`` knew their colour this round."""

    def predicate(world: World) -> bool:
        return all((len(state.own_values(p, world)) == 1) == (p in guessers) for p in waiting)

    return predicate


@dataclass(frozen=True)
class Hand:
    """A whole hand: the deal, the call, the rounds, the guesses and the score."""

    cards: tuple[CatCard, ...]
    call: Colour
    deduction: Deduction
    score: Score

    @property
    def colours(self) -> tuple[Colour, ...]:
        return colours_under(self.cards, self.call)

    def to_json(self) -> dict:
        """Plain data; players are numbered from 1 in seat order (``points[0]`` is player 1's)."""
        return {
            "call": self.call.value,
            "cards": [str(c) for c in self.cards],
            "rounds": [
                {
                    "round": r.number,
                    "guessers": [p + 1 for p in r.guessers],
                    "worlds_left": r.worlds_left,
                }
                for r in self.deduction.rounds
            ],
            "guesses": [
                {
                    "player": p + 1,
                    "card": str(card),
                    "colour": colour.value,
                    "round": g.round,
                    "guess": g.colour.value,
                    "deduced": g.deduced,
                    "correct": right,
                    "bonus": bonus,
                }
                for p, (card, colour, g, right, bonus) in enumerate(
                    zip(
                        self.cards,
                        self.colours,
                        self.deduction.guesses,
                        self.score.correct,
                        self.score.bonus,
                        strict=True,
                    )
                )
            ],
            "points": list(self.score.points),
            "dealer_points": self.score.dealer_points,
        }


def play(
    cards: Sequence[CatCard],
    call: Colour,
    reasoners: Sequence[Reasoner] | None = None,
    rng: random.Random | None = None,
    initial: Knowledge | None = None,
) -> Hand:
    """Check the deal and the call, play the rounds (:func:`deduce`) and score the hand."""
    cards = tuple(cards)
    check_deal(cards)
    check_call(cards, call)
    deduction = deduce(colours_under(cards, call), call, reasoners, rng, initial)
    return Hand(cards, call, deduction, score(cards, call, deduction.guesses))
