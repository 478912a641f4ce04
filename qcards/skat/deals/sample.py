"""Deals drawn at random, exactly by their probabilities: uniform or weighted by a prior.

One sampler serves the circuits and the classical Monte Carlo alike: the deal gates draw a shot's
deal with it (the branch their amplitudes give, :func:`sample_receivers`), and perfect-information
Monte Carlo draws the deals it solves with it (:func:`sample_owners`), so both see the same
deals for the same random stream.

Cards are dealt one after another. Card j goes to receiver r with the probability
``weights[j][r] * Z_{j+1}(s + r) / Z_j(s)``, where ``Z`` are the partition sums of the prior's
dynamic program (:func:`~qcards.skat.position.prior.deal_partition`) and s the counts so far: the
same conditional probabilities whose square roots are the weighted deal circuit's rotation angles.
Their product over the cards is the deal's probability P(d) = w(d) / Z, so a draw is exact, and
it costs cards x receivers per deal, whatever the number of deals (about 4.3e7 for the full
game's 22 unknown cards).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from fractions import Fraction
from typing import cast

import numpy as np

from qcards.errors import ParameterError
from qcards.skat.position.prior import Tallies, count_step, deal_partition
from qcards.skat.position.spec import Endgame
from qcards.skat.rules.cards import Card


class ReceiverTable:
    """The conditional receiver probabilities of every card, over the reachable counts.

    ``probabilities[j]`` has shape ``(states before card j, receivers)`` and ``successor[j]``
    the state reached, for each receiver; the start state is 0.
    """

    def __init__(
        self,
        sizes: Sequence[int],
        weights: Sequence[Sequence[Fraction]],
        tallies: Tallies = (),
    ) -> None:
        sizes = tuple(sizes)
        self.num_cards, self.num_receivers = len(weights), len(sizes)
        z = deal_partition(sizes, weights, tallies)
        start = (0,) * (len(sizes) + len(tallies))
        if not z[0].get(start):
            raise ValueError("no deal has positive weight (the weights and tallies exclude all)")
        self.probabilities: list[np.ndarray] = []
        self.successor: list[np.ndarray] = []
        states = [start]
        for j in range(self.num_cards):
            index_next: dict[tuple[int, ...], int] = {}
            probs = np.zeros((len(states), len(sizes)))
            succ = np.zeros((len(states), len(sizes)), dtype=np.int64)
            for i, s in enumerate(states):
                for r in range(len(sizes)):
                    if s[r] >= sizes[r] or not weights[j][r]:
                        continue
                    t = count_step(s, j, r, len(sizes), tallies)
                    p = weights[j][r] * z[j + 1].get(t, 0) / z[j][s]
                    if p:
                        probs[i, r] = float(p)
                        succ[i, r] = index_next.setdefault(t, len(index_next))
            self.probabilities.append(np.cumsum(probs, axis=1))
            self.successor.append(succ)
            states = list(index_next)

    def draw(self, rng: np.random.Generator, count: int) -> np.ndarray:
        """``count`` deals, shape ``(count, cards)``: column j holds card j's receiver index."""
        out = np.zeros((count, self.num_cards), dtype=np.int8)
        state = np.zeros(count, dtype=np.int64)
        for j in range(self.num_cards):
            cumulative = self.probabilities[j][state]
            total = cumulative[:, -1]
            # u < total strictly, so the first cumulative sum above u belongs to a receiver of
            # positive probability (a zero one repeats the sum before it)
            u = np.minimum(rng.random(count) * total, np.nextafter(total, 0))
            receiver = (u[:, None] >= cumulative).sum(axis=1)
            out[:, j] = receiver
            state = self.successor[j][state, receiver]
        return out


def deal_stream(seed: int, chunk: int) -> np.random.Generator:
    """The random stream of the deals of chunk ``chunk`` of a sampled run with ``seed``: the
    same for every method and every circuit of a spec, so that what is compared (two first
    cards, two game types) is measured on the same deals."""
    return np.random.default_rng([seed, chunk, 0])


def fresh_seed(seed: int | None) -> int:
    """``seed``, or a new random one: every chunk of a run derives its streams from one seed,
    which the run reports so that it can be repeated.

    Raises:
        ParameterError: a seed that is not a non-negative integer (NumPy's seeds are).
    """
    if seed is None:
        # drawn from the OS when none is given: an int (the stubs allow any entropy given)
        return int(cast(int, np.random.SeedSequence().entropy) % 2**63)
    if isinstance(seed, bool) or not isinstance(seed, int | np.integer) or seed < 0:
        raise ParameterError("seed", f"{{seed}} must be a non-negative integer, got {seed!r}")
    return int(seed)


def chunks(total: int, size: int) -> list[tuple[int, int]]:
    """``(index, count)`` of each chunk of ``size`` (the last may be smaller): fixed by the
    total alone, so a seed's samples do not depend on how the chunks are spread over workers."""
    return [(i, min(size, total - start)) for i, start in enumerate(range(0, total, size))]


def sample_receivers(
    sizes: Sequence[int],
    weights: Sequence[Sequence[Fraction]],
    tallies: Tallies,
    rng: np.random.Generator,
    count: int,
) -> np.ndarray:
    """``count`` deals drawn by their exact probabilities (one row each, receiver indices)."""
    return ReceiverTable(sizes, weights, tallies).draw(rng, count)


def spec_receiver_table(spec: Endgame) -> ReceiverTable:
    """The :class:`ReceiverTable` of a spec's deal of its unknown cards (its prior included)."""
    sizes = [spec.sizes[r] for r in spec.receivers]
    weights, tallies = spec.prior.tables(spec)
    return ReceiverTable(sizes, weights, tallies)


OWNER_BYTES = 1536
"""Bytes a deal of :func:`sample_owners` takes while held: a map card -> player of every card
(known ones included) and its row of the draw as Python integers, rounded up from tracemalloc's
1.2 KB a deal (1.4 KB at the peak) for 20,000 deals of the full game's 22 unknown cards."""


def sample_owners(
    spec: Endgame, rng: np.random.Generator, count: int, table: ReceiverTable | None = None
) -> list[dict[Card, str]]:
    """``count`` deals of ``spec`` as maps card -> player (or Skat), known cards included."""
    table = table or spec_receiver_table(spec)
    known = {c: p for p in spec.players for c in spec.hands[p]}
    receivers = spec.receivers
    rows = table.draw(rng, count).tolist()
    return [
        {**known, **{c: receivers[r] for c, r in zip(spec.unknown, row, strict=True)}}
        for row in rows
    ]


def random_deal(spec: Endgame, rng: random.Random) -> dict[Card, str]:
    """One deal drawn uniformly (card -> player or :data:`SKAT`), known cards included."""
    unknown = list(spec.unknown)
    rng.shuffle(unknown)
    owner = {c: p for p in spec.players for c in spec.hands[p]}
    start = 0
    for receiver in spec.receivers:
        for card in unknown[start : start + spec.sizes[receiver]]:
            owner[card] = receiver
        start += spec.sizes[receiver]
    return owner
