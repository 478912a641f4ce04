"""A simple computer player: a few random candidate moves, the best by area after a trial.

The bot never fills its own eyes (empty points all of whose neighbours are its stones). For
each candidate it plays the move on a copy of the game, answering every collapse decision
(its own and, as a guess, the opponent's) with the stones that have the most empty
neighbours, and scores the resulting position by area. It passes when no candidate is legal,
or when the opponent has just passed and the bot is not behind.
"""

from __future__ import annotations

import copy
import random
from functools import partial

from qcards.games.qgo.board import Colour, Point, mirror, neighbours
from qcards.games.qgo.collapse import Decision
from qcards.games.qgo.errors import QgoError
from qcards.games.qgo.game import Move, QuantumGo


class SimpleBot:
    """Plays one colour; seeded, so a game against it can be repeated.

    Args:
        colour: the bot's colour.
        seed: seed of its random choices.
        candidates: how many random moves it tries per turn.
    """

    def __init__(self, colour: Colour, seed: int = 0, candidates: int = 12) -> None:
        self.colour = colour
        self.rng = random.Random(seed)
        self.candidates = candidates

    def choose(self, game: QuantumGo, decision: Decision) -> tuple[Point, ...]:
        """Keep the stones with the most empty neighbours (ties at random)."""

        def room(option: tuple[Point, ...]) -> tuple[int, float]:
            free = sum(q not in game.stones for p in option for q in neighbours(p, game.size))
            return free, self.rng.random()

        return max(decision.options, key=room)

    def move(self, game: QuantumGo) -> Move:
        """The bot's move for ``game`` (whose turn must be the bot's)."""
        last = game.turns[-1].move if game.turns else None
        current = self._margin(game)
        if last is not None and last.is_pass and current >= 0:
            return Move(self.colour)
        best: tuple[float, Move] | None = None
        for move in self._candidates(game):
            trial = copy.deepcopy(game)
            try:
                trial.play(move, partial(self.choose, trial))
            except QgoError:
                continue
            value = self._margin(trial) + self.rng.random() / 2
            if best is None or value > best[0]:
                best = (value, move)
        return best[1] if best else Move(self.colour)

    def _margin(self, game: QuantumGo) -> float:
        score = game.score()
        margin = float(score.black - score.white)
        return margin if self.colour is Colour.BLACK else -margin

    def _candidates(self, game: QuantumGo) -> list[Move]:
        free = [p for p in game.empty_points() if not self._own_eye(game, p)]
        counts = game.allowed_counts(self.colour)
        moves = []
        for _ in range(self.candidates):
            n = self.rng.choice(counts)
            if game.rules.symmetric:
                moves += self._symmetric(game, free)
            elif len(free) >= n:
                moves.append(Move(self.colour, tuple(self.rng.sample(free, n))))
        return moves

    def _symmetric(self, game: QuantumGo, free: list[Point]) -> list[Move]:
        if not free:
            return []
        p = self.rng.choice(free)
        twin = mirror(p, game.size)
        points = (p,) if twin == p or twin in game.stones else (p, twin)
        return [Move(self.colour, points)]

    def _own_eye(self, game: QuantumGo, point: Point) -> bool:
        return all(game.stones.get(q) is self.colour for q in neighbours(point, game.size))
