"""Computer players for Quantum Go Fish: ``random``, ``greedy`` and ``search``.

Every bot asks a legal question and, when asked, picks one of the consistent answers, so a bot
never causes a paradox. A forced answer is not the bot's choice (the caller plays it), but the
bots also handle it. New suits get the names of :func:`~.randomplay.fresh_suit`. Each bot
takes a seed: its ties and random choices come from its own ``random.Random(seed)``, so a game
between bots is repeatable.

Strategies:

- ``random``: a uniformly random legal ask, a uniformly random consistent answer.
- ``greedy`` (one ply): as asker it plays every legal ask with every consistent answer on a
  copy. It prefers the asks whose *worst* answer is best for it (a win, then the game going on,
  then another player winning), then those with a win under *some* answer, then those that
  leave it with the most cards of one suit provably in hand, whatever the answer (a step
  towards four). As answerer it prefers an answer that makes it win, then one that lets
  nobody win, then the one that keeps the most uncertainty (the sum over all players and suits
  of maximum minus minimum possible count: the asker is then furthest from a determined win),
  then the one that keeps more of its best suit. Remaining ties at random.
- ``search`` (max^n): a game tree over whole turns (an ask and its answer), ``depth`` turns
  deep counting the current one. At every node the player who decides (the asker choosing an
  ask, the target choosing an answer) maximises their own entry of a value vector. Leaves are
  terminal outcomes (1 for each winner, 0 for everybody else) or, at the depth limit, the
  heuristic ``0.1 x`` (the most cards of one suit the player provably holds), which stays
  below any win. Inside the tree a player's ties go against the searching bot (cautious), then
  to the first option (asks in ``legal_asks`` order, ``yes`` before ``no``). At the root, ties
  in value are broken by the greedy preferences above, then by the bot's seeded rng.
  Positions are memoised within one choice.
"""

from __future__ import annotations

import random
import sys
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol, TypeVar, cast

from qcards.games.gofish.errors import RuleError
from qcards.games.gofish.game import Ask, GoFish, Move, Outcome
from qcards.games.gofish.randomplay import named, random_answer, random_ask

if TYPE_CHECKING:
    from _typeshed import SupportsRichComparison

BOT_KINDS = ("random", "greedy", "search")
DEFAULT_DEPTH = 2

FRAMES_PER_TURN = 8
"""Python frames the search nests per turn (``_value``, ``_after_ask``, ``_best`` and their
generators: six, measured; two spare)."""

SPARE_FRAMES = 250
"""Frames left for the caller (the CLI, a test runner) and for the rules inside one node."""


def max_depth() -> int:
    """The deepest search the interpreter's recursion limit allows."""
    return max(1, (sys.getrecursionlimit() - SPARE_FRAMES) // FRAMES_PER_TURN)


def check_depth(depth: int) -> None:
    """:class:`RuleError` naming ``depth`` unless 1 <= ``depth`` <= :func:`max_depth`."""
    if depth < 1:
        raise RuleError(f"{{depth}} {depth}: it must be at least 1", parameters=("depth",))
    if depth > max_depth():
        raise RuleError(
            f"{{depth}} {depth}: the search looks at most {max_depth()} turns ahead (deeper "
            "nests more calls than Python's recursion limit allows)",
            parameters=("depth",),
        )


LEAF_WEIGHT = 0.1  # per provable card of the best suit: at most 0.3 < 1 (a win)
T = TypeVar("T")


class Bot(Protocol):
    """A computer player: the ask it makes on its turn and the answer it gives when asked."""

    kind: str

    def choose_ask(self, game: GoFish) -> Ask:
        """A legal ask for the player to move (the suit always named)."""
        ...

    def choose_answer(self, game: GoFish, ask: Ask) -> str:
        """One of ``game.allowed_answers(...)`` for ``ask`` (made by another player)."""
        ...


# -- what a move leads to ------------------------------------------------------------------


def after(game: GoFish, ask: Ask, answer: str) -> GoFish:
    """A copy of ``game`` with ``ask`` (suit named) answered by ``answer``."""
    twin = game.copy()
    twin.play(ask.asker, ask.target, cast(str, ask.suit), answer)
    return twin


def allowed(game: GoFish, ask: Ask) -> tuple[str, ...]:
    """The consistent answers to ``ask`` (suit named), ``yes`` first."""
    suit = cast(str, ask.suit)
    return tuple(sorted(game.allowed_answers(ask.asker, ask.target, suit), reverse=True))


def children(game: GoFish, ask: Ask) -> dict[str, GoFish]:
    """The game after each consistent answer to ``ask`` (suit named)."""
    return {answer: after(game, ask, answer) for answer in allowed(game, ask)}


def result(outcome: Outcome, player: str) -> int:
    """1 if ``player`` wins (alone or shared), -1 if the game ended otherwise, 0 if ongoing."""
    if outcome.status == "ongoing":
        return 0
    return 1 if player in outcome.winners else -1


def progress(game: GoFish, player: str) -> int:
    """The most cards of one suit ``player`` provably holds (4 is a win)."""
    return max(game.knowledge.counts.minimum[game.players.index(player)])


def uncertainty(game: GoFish) -> int:
    """Sum over all players and suits of the maximum minus the minimum possible count."""
    counts = game.knowledge.counts
    return sum(
        hi - lo
        for row_lo, row_hi in zip(counts.minimum, counts.maximum, strict=True)
        for lo, hi in zip(row_lo, row_hi, strict=True)
    )


@dataclass(frozen=True)
class Preview:
    """One legal ask and how the game stands after each consistent answer.

    Attributes:
        ask: the ask; ``suit`` None is a new suit.
        outcomes: the outcome after each consistent answer.
    """

    ask: Ask
    outcomes: Mapping[str, Outcome]

    def winning(self, player: str) -> tuple[str, ...]:
        """The answers after which ``player`` wins."""
        return tuple(a for a, o in self.outcomes.items() if result(o, player) > 0)

    def losing(self, player: str) -> tuple[str, ...]:
        """The answers after which the game ends without ``player`` among the winners."""
        return tuple(a for a, o in self.outcomes.items() if result(o, player) < 0)


def previews(game: GoFish) -> list[Preview]:
    """Every legal ask of the player to move, with the outcome of each consistent answer."""
    out = []
    for ask in game.legal_asks():
        after_answer = children(game, named(game, ask))
        out.append(Preview(ask, {a: g.outcome for a, g in after_answer.items()}))
    return out


def ask_key(game: GoFish, ask: Ask, me: str) -> tuple[int, int, int]:
    """The greedy asker's preference (larger is better) for ``ask`` (suit named): the result
    under the worst answer, under the best answer, then the fewest cards of one suit it will
    provably hold whatever the answer."""
    results = children(game, ask).values()
    values = [result(g.outcome, me) for g in results]
    return min(values), max(values), min(progress(g, me) for g in results)


def answer_key(answered: GoFish, me: str) -> tuple[int, int, int]:
    """The greedy answerer's preference for the game after its answer: its result, then the
    uncertainty left, then the most cards of one suit it provably holds."""
    return result(answered.outcome, me), uncertainty(answered), progress(answered, me)


def _pick(
    options: Sequence[T], key: Callable[[T], SupportsRichComparison], rng: random.Random
) -> T:
    """The option with the largest key; ties broken by ``rng`` (deterministic for a seed)."""
    best = max(key(o) for o in options)
    return rng.choice([o for o in options if key(o) == best])


# -- the bots ------------------------------------------------------------------------------


class RandomBot:
    """Uniformly random legal asks and consistent answers (:mod:`.randomplay`)."""

    kind = "random"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def choose_ask(self, game: GoFish) -> Ask:
        return random_ask(game, self.rng)

    def choose_answer(self, game: GoFish, ask: Ask) -> str:
        return random_answer(allowed(game, ask), self.rng)


class GreedyBot:
    """One ply: take an immediate win, avoid giving one away, else move towards four."""

    kind = "greedy"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def choose_ask(self, game: GoFish) -> Ask:
        me = game.turn or ""
        options = [(ask_key(game, a, me), a) for a in (named(game, a) for a in game.legal_asks())]
        return _pick(options, lambda o: o[0], self.rng)[1]

    def choose_answer(self, game: GoFish, ask: Ask) -> str:
        options = [(answer_key(g, ask.target), a) for a, g in children(game, ask).items()]
        return _pick(options, lambda o: o[0], self.rng)[1]


Values = tuple[float, ...]


class SearchBot:
    """Max^n search over ``depth`` whole turns (see the module docstring).

    Args:
        seed: seed of the root tie-breaks.
        depth: turns searched, counting the current one (1: to the end of this turn).
    """

    kind = "search"

    def __init__(self, seed: int = 0, depth: int = DEFAULT_DEPTH) -> None:
        check_depth(depth)
        self.rng = random.Random(seed)
        self.depth = depth
        self._memo: dict[tuple, Values] = {}
        self._root = 0

    def choose_ask(self, game: GoFish) -> Ask:
        me = game.turn or ""
        seat = self._start(game, me)
        options = [
            ((self._after_ask(game, a, self.depth)[seat], ask_key(game, a, me)), a)
            for a in (named(game, a) for a in game.legal_asks())
        ]
        return _pick(options, lambda o: o[0], self.rng)[1]

    def choose_answer(self, game: GoFish, ask: Ask) -> str:
        seat = self._start(game, ask.target)
        options = [
            ((self._value(g, self.depth - 1)[seat], answer_key(g, ask.target)), a)
            for a, g in children(game, ask).items()
        ]
        return _pick(options, lambda o: o[0], self.rng)[1]

    def ask_values(self, game: GoFish) -> dict[Ask, Values]:
        """The value vector (one entry per seat) of every legal ask, as the search sees it."""
        self._start(game, game.turn or "")
        asks = [named(game, a) for a in game.legal_asks()]
        return {a: self._after_ask(game, a, self.depth) for a in asks}

    # -- the tree --------------------------------------------------------------------------

    def _start(self, game: GoFish, me: str) -> int:
        """A new search for ``me``: an empty memo; returns ``me``'s seat."""
        self._memo = {}
        self._root = game.players.index(me)
        return self._root

    def _best(self, options: Iterable[Values], seat: int) -> Values:
        """The values of ``seat``'s best option; ties go against the searching player, then to
        the first option."""
        return max(options, key=lambda v: (v[seat], -v[self._root]))

    def _after_ask(self, game: GoFish, ask: Ask, turns: int) -> Values:
        """Values once ``ask`` is made: the target picks the answer best for them."""
        seat = game.players.index(ask.target)
        return self._best(
            (self._value(after(game, ask, a), turns - 1) for a in allowed(game, ask)), seat
        )

    def _value(self, game: GoFish, turns: int) -> Values:
        """Values of a position with ``turns`` turns left to search."""
        if game.over:
            won = game.outcome.winners
            return tuple(1.0 if p in won else 0.0 for p in game.players)
        if turns == 0:
            return tuple(LEAF_WEIGHT * progress(game, p) for p in game.players)
        key = (game.knowledge, game.turn, len(game.suits), tuple(game.skips.values()), turns)
        if key not in self._memo:
            seat = game.players.index(game.turn)
            options = (self._after_ask(game, named(game, a), turns) for a in game.legal_asks())
            self._memo[key] = self._best(options, seat)
        return self._memo[key]


def bot_move(game: GoFish, bots: Mapping[str, Bot]) -> Move:
    """Play one move between bots: the player to move asks, the target answers (a forced
    answer is played without asking the target)."""
    ask = bots[cast(str, game.turn)].choose_ask(game)  # None only once the game is over
    answers = allowed(game, ask)
    answer = answers[0] if len(answers) == 1 else bots[ask.target].choose_answer(game, ask)
    return game.play(ask.asker, ask.target, cast(str, ask.suit), answer)  # bots name suits


def make_bot(kind: str, seed: int = 0, depth: int = DEFAULT_DEPTH) -> Bot:
    """A bot of the given kind (one of :data:`BOT_KINDS`).

    Raises:
        RuleError: for an unknown kind or a search depth outside 1..:func:`max_depth`.
    """
    if kind == "random":
        return RandomBot(seed)
    if kind == "greedy":
        return GreedyBot(seed)
    if kind == "search":
        return SearchBot(seed, depth)
    raise RuleError(f"unknown bot {kind!r} (choose from {', '.join(BOT_KINDS)})")
