"""Plain Monte Carlo of the random-play model: deals drawn by their exact probabilities
(:mod:`qcards.skat.deals.sample`, priors included), every card played uniformly among the
legal ones, as the circuits' superposition weighs it. What a classical computer does to
estimate p_win to a half-width epsilon without any quantum circuit: the classical side of the
fault-tolerant crossover (``benchmarks/bench_fault_tolerant.py``), at the rate measured here.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from qcards.intervals import wilson
from qcards.skat.deals.sample import sample_owners, spec_receiver_table
from qcards.skat.position.declaration import deal_matadors, skat_of
from qcards.skat.position.seat_view import Policy, table_view
from qcards.skat.position.spec import Endgame
from qcards.skat.position.stages import check_first, skat_points
from qcards.skat.rules.cards import Card
from qcards.skat.rules.table import Table


@dataclass(frozen=True)
class MonteCarloResult:
    """``samples`` random games: p_win with Wilson's 95% interval, and the mean points."""

    samples: int
    wins: int
    points: float

    @property
    def p_win(self) -> float:
        return self.wins / self.samples

    @property
    def ci(self) -> tuple[float, float]:
        return wilson(self.wins, self.samples)


def play_random_game(
    spec: Endgame,
    owner: dict,
    rng: np.random.Generator,
    policy: Policy | None = None,
    first: Card | None = None,
    opening: Sequence[Card] = (),
) -> tuple[int, int]:
    """One game from the deal ``owner`` (card -> player or Skat) with uniformly random legal
    cards, or cards drawn from ``policy`` (a play model's, :mod:`qcards.skat.players.play_models`),
    the declarer's first card ``first`` when given (or the first trick's first cards
    ``opening``, whoever plays them): the declarer's final points and tricks."""
    forced = list(opening) if first is None else [first]
    cards = frozenset(spec.cards) | spec.put_away
    skat = frozenset(skat_of(owner)) | spec.put_away
    table = Table.from_owner(spec, owner)
    while not table.over:
        if forced:
            card = forced.pop(0)
        elif policy is None:
            legal = table.legal()
            card = legal[int(rng.integers(len(legal)))]
        else:
            weights = policy(table_view(table, cards, skat))
            options = list(weights)
            p = np.array([float(weights[c]) for c in options])
            card = options[int(rng.choice(len(options), p=p / p.sum()))]
        table = table.play(card)
    points = spec.declarer_points + skat_points(owner) + table.taken[0]
    return points, spec.declarer_tricks + table.won[0]


def playouts(
    spec: Endgame,
    samples: int,
    seed: int = 0,
    policy: Policy | None = None,
    first: Card | None = None,
    opening: Sequence[Card] = (),
    owners: Sequence[dict[Card, str]] | None = None,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """``samples`` games of ``spec``, random or by ``policy`` (``first``: the declarer's first
    card; ``opening``: the first trick's first cards, as :func:`play_random_game`): the
    declarer's final points, whether it won, its tricks and a declared game's matadors (0
    without a declaration). ``owners``: the deals to play, one game each (``samples`` of
    them), in place of deals drawn from the spec's prior (beliefs that reweigh deals draw
    them: :func:`qcards.skat.players.beliefs.believed_sample`)."""
    if first is not None:
        check_first(spec, first)
    rng = np.random.default_rng(seed)
    points = np.empty(samples, dtype=np.int64)
    tricks = np.empty(samples, dtype=np.int64)
    matadors = np.zeros(samples, dtype=np.int64)
    wins = np.empty(samples, dtype=bool)
    if owners is None:
        owners = sample_owners(spec, rng, samples, spec_receiver_table(spec))
    elif len(owners) != samples:
        raise ValueError(f"playouts: {len(owners)} deals for {samples} games")
    for i, owner in enumerate(owners):
        points[i], tricks[i] = play_random_game(spec, owner, rng, policy, first, opening)
        wins[i] = spec.declarer_wins(int(points[i]), int(tricks[i]))
        matadors[i] = deal_matadors(spec.declaration, owner)
    return points, wins, tricks, matadors


def monte_carlo(spec: Endgame, samples: int, seed: int = 0) -> MonteCarloResult:
    """p_win and the mean declarer points of ``spec`` under random play, from ``samples``
    games."""
    points, wins, *_ = playouts(spec, samples, seed)
    return MonteCarloResult(samples, int(wins.sum()), float(points.mean()))
