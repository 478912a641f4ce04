"""A strategy study: the dealer's calls against players who are sometimes late or rash.

Noise model (each player, independently, once per hand):

- *late* with probability ``late``: she takes her token one round after she knows her colour.
- *rash* with probability ``rash``: if she does not know her colour in round 1, she takes a
  token of a random colour in round 1.

Everyone else reasons as if all players were perfect, so a late or rash player misleads the
table: the public updates may rule out the actual world. A player whose view no remaining world
explains guesses at random at once, and so does everyone still waiting after a round in which
nothing happened and nothing was learnt (see :func:`~qcards.games.cats.referee.deduce`).

Dealer strategies (the call must be true; jokers never count towards a colour):

- ``majority``: call the colour printed on more cards;
- ``minority``: call the colour printed on fewer cards, if at least one card shows it,
  otherwise the only colour there is;
- ``random``: either true call with equal probability.

Ties are broken by a fair coin. Every strategy plays the same deals with the same late and rash
players (common random numbers), so their differences are not blurred by different deals.
"""

from __future__ import annotations

import random
import statistics
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass

from qcards.games.cats.cards import DECK, CatCard, Colour, true_calls
from qcards.games.cats.errors import CatsError
from qcards.games.cats.referee import Reasoner, play
from qcards.games.time_budget import Projection, check_planned

MIN_PLAYERS, MAX_PLAYERS = 2, 10
"""The world model has ``2**n`` worlds: with 10 players a hand takes about 0.06 s a strategy."""


@dataclass(frozen=True)
class Noise:
    """Per-player, per-hand probabilities of being late and of being rash."""

    late: float = 0.0
    rash: float = 0.0

    def __post_init__(self) -> None:
        for name, value in asdict(self).items():
            if not 0.0 <= value <= 1.0:
                raise CatsError(f"noise {name}={value} is not a probability in [0, 1]")

    @classmethod
    def parse(cls, text: str) -> Noise:
        """Parse ``"late=0.1,rash=0.05"`` (either part may be left out; ``"none"``: perfect)."""
        if text.strip().lower() == "none":
            return cls()
        values: dict[str, float] = {}
        for part in filter(None, (p.strip() for p in text.split(","))):
            name, _, value = part.partition("=")
            if name.strip() not in ("late", "rash") or not value:
                raise CatsError(f"bad noise {part!r}: write late=Q,rash=E (or none)")
            try:
                values[name.strip()] = float(value)
            except ValueError:
                raise CatsError(f"bad noise {part!r}: {value!r} is not a number") from None
        return cls(**values)

    def draw(self, rng: random.Random) -> Reasoner:
        """One player's behaviour for one hand."""
        return Reasoner(delay=int(rng.random() < self.late), rash=rng.random() < self.rash)


def _printed(cards: Sequence[CatCard], colour: Colour) -> int:
    return sum(card.colour is colour for card in cards)


def _extreme(pick: Callable[..., int]) -> Callable[[Sequence[CatCard], random.Random], Colour]:
    def call(cards: Sequence[CatCard], rng: random.Random) -> Colour:
        calls = true_calls(cards)
        best = pick(_printed(cards, c) for c in calls)
        return rng.choice([c for c in calls if _printed(cards, c) == best])

    return call


DEALERS: dict[str, Callable[[Sequence[CatCard], random.Random], Colour]] = {
    "majority": _extreme(max),
    "minority": _extreme(min),
    "random": lambda cards, rng: rng.choice(true_calls(cards)),
}
"""The dealer's strategies by name: each picks a true call for the cards dealt."""


@dataclass(frozen=True)
class Estimate:
    """A mean over hands and its standard error (``None`` with a single hand)."""

    mean: float
    se: float | None

    @classmethod
    def of(cls, values: Sequence[float]) -> Estimate:
        se = statistics.stdev(values) / len(values) ** 0.5 if len(values) > 1 else None
        return cls(statistics.fmean(values), se)


@dataclass(frozen=True)
class StrategyResult:
    """One dealer strategy over all hands (every estimate is per hand).

    Attributes:
        dealer: the strategy's name.
        dealer_points: the dealer's tokens (wrong guesses).
        player_points: a player's points (token and bonus), averaged over the players.
        correct: the fraction of players who guessed right.
        rounds: the number of rounds until the last guess.
    """

    dealer: str
    dealer_points: Estimate
    player_points: Estimate
    correct: Estimate
    rounds: Estimate


@dataclass(frozen=True)
class Difference:
    """The dealer's points under ``dealer`` minus those under ``baseline``, hand by hand.

    Both strategies play the same hands, so the per-hand difference has a much smaller spread
    than either strategy's points: this paired standard error is the one to compare them by.
    """

    dealer: str
    baseline: str
    dealer_points: Estimate


@dataclass(frozen=True)
class Study:
    """The inputs of a study, one result per dealer strategy, and the paired differences of
    every strategy's dealer points from the first strategy's."""

    players: int
    hands: int
    seed: int
    noise: Noise
    results: tuple[StrategyResult, ...]
    differences: tuple[Difference, ...] = ()

    def to_json(self) -> dict:
        return asdict(self)


def deal(players: int, rng: random.Random) -> tuple[CatCard, ...]:
    """Shuffle the deck and deal one card per player, again if no call could be true (only
    possible when every card dealt is a joker)."""
    while not true_calls(cards := tuple(rng.sample(DECK, players))):
        pass
    return cards


def _refuse(seconds: float, what: str) -> None:
    check_planned(seconds, what, False, CatsError, "fewer {hands}")


def simulate(
    players: int,
    hands: int,
    dealers: Sequence[str] = tuple(DEALERS),
    noise: Noise = Noise(),
    seed: int = 0,
    force: bool = False,
) -> Study:
    """Play ``hands`` random deals under each dealer strategy and average the points.

    A study planned to take longer than the time budget, by the time of its first hands
    (:class:`~qcards.games.time_budget.Projection`), is refused (:class:`CatsError` naming
    ``hands``) unless ``force``.
    """
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise CatsError(f"players must be {MIN_PLAYERS} to {MAX_PLAYERS}, not {players}")
    if hands < 1:
        raise CatsError(f"hands must be at least 1, not {hands}")
    unknown = [d for d in dealers if d not in DEALERS]
    if unknown or not dealers:
        raise CatsError(f"unknown dealer strategy {unknown}: choose from {', '.join(DEALERS)}")
    rng = random.Random(seed)
    tallies: dict[str, list[tuple[float, float, float, float]]] = {d: [] for d in dealers}
    what = f"a study of {hands:,} hands of {players} players ({len(dealers)} dealer strategies)"
    projection = Projection(hands, what, force, _refuse)
    for _ in range(hands):
        cards = deal(players, rng)
        reasoners = [noise.draw(rng) for _ in range(players)]
        hand_seed = rng.getrandbits(64)
        for name in dealers:
            table = random.Random(hand_seed)  # the same coins for every strategy
            hand = play(cards, DEALERS[name](cards, table), reasoners, table)
            tallies[name].append(
                (
                    hand.score.dealer_points,
                    statistics.fmean(hand.score.points),
                    statistics.fmean(hand.score.correct),
                    len(hand.deduction.rounds),
                )
            )
        projection.done()
    results = tuple(
        StrategyResult(name, *(Estimate.of(column) for column in zip(*rows, strict=True)))
        for name, rows in tallies.items()
    )
    baseline = dealers[0]
    differences = tuple(
        Difference(
            name,
            baseline,
            Estimate.of([a[0] - b[0] for a, b in zip(rows, tallies[baseline], strict=True)]),
        )
        for name, rows in tallies.items()
        if name != baseline
    )
    return Study(players, hands, seed, noise, results, differences)
