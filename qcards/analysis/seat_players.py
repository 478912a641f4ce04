"""One interface for every player of a seat: which card, from what the seat knows.

As OpenSpiel's ``Bot.step(state)`` answers one action for a state, a :class:`CardPlayer`
answers one legal card for a :class:`Decision`. Every player a match seats or ``recommend
--player`` asks is one: the policy models (random, heuristic, a fitted softmax, the learned
network), the searchers (PIMC, the declarer's best response), OpenSpiel's bots, an outside
program, and any player another package registers.

A package registers a player kind through the entry-point group ``qcards.players``: an entry
point called ``NAME`` that loads a :class:`PlayerKind` whose :attr:`~PlayerKind.name` is
``NAME``. ``--player NAME`` or ``--player NAME:OPTIONS`` then seats it; its
:attr:`~PlayerKind.make` receives ``OPTIONS`` (empty without a colon) and returns the player.
The rule for a name taken twice is the one of every qcards registry (:mod:`qcards.plugins`):
a name two entry points take, or one that a built-in player or play model already has, is a
:class:`~qcards.errors.PluginError` naming every provider.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cache, cached_property
from typing import Protocol, runtime_checkable

import numpy as np

from qcards.errors import ModelError
from qcards.plugins import load_group
from qcards.skat.position.seat_view import SeatView
from qcards.skat.position.spec import Endgame
from qcards.skat.rules.cards import Card

GROUP = "qcards.players"
"""The entry-point group of the player kinds other packages register."""


class Decision:
    """What the seat to move knows when it must play a card; each part is built when a player
    first reads it (a policy reads the view, a searcher the game, an outside program the
    request), so a player pays only for what it uses.

    Attributes:
        legal: the seat's legal cards, in the rules' order.
        history: every card played since the seat's game began (``(player, card)`` pairs in
            play order), as :func:`qcards.analysis.advice.advise` reads a history.
        rng: the game's random generator; a player that draws (a policy's card, a
            searcher's seed) draws from it, so a seeded game replays.
        index: the player's number in the match (0, 1, 2), which keys an outside program's
            process; 0 outside a match.
    """

    def __init__(
        self,
        legal: tuple[Card, ...],
        history: tuple[tuple[str, Card], ...],
        rng: np.random.Generator,
        view: Callable[[], SeatView],
        game: Callable[[], Endgame],
        request: Callable[[], dict] | None = None,
        index: int = 0,
    ) -> None:
        self.legal, self.history, self.rng, self.index = legal, history, rng, index
        self._view, self._game, self._request = view, game, request

    @cached_property
    def view(self) -> SeatView:
        """The seat's view (:class:`~qcards.skat.position.seat_view.SeatView`): its hand, the
        open trick, the finished tricks and who played them, the cards it cannot see."""
        return self._view()

    @cached_property
    def game(self) -> Endgame:
        """The seat's game as an endgame spec from its first trick, with only the seat's own
        cards known (the declarer also knows its discard): a searcher's input, read with
        :attr:`history`."""
        return self._game()

    @cached_property
    def request(self) -> dict:
        """The decision as the outside programs' JSON-lines protocol writes a ``card``
        request (:mod:`qcards.analysis.exec_player`); only a match's decisions have one."""
        if self._request is None:
            raise ModelError(
                "an outside program is asked within a match, whose table its requests "
                "describe; this decision has no match around it"
            )
        return self._request()

    def seed(self) -> int:
        """A seed for a player's own generator, drawn from :attr:`rng`."""
        return int(self.rng.integers(2**31))


@runtime_checkable
class CardPlayer(Protocol):
    """A player of a seat: :meth:`step` answers one of ``decision.legal``."""

    def step(self, decision: Decision) -> Card:
        """The card the player plays at ``decision``."""
        ...


@dataclass(frozen=True)
class PlayerKind:
    """A kind of player another package registers (entry-point group ``qcards.players``).

    Attributes:
        name: the name ``--player`` spells (the entry point's name).
        make: the player from the options after ``NAME:`` (``""`` without a colon); it raises
            :class:`ValueError` (or a qcards error) for options it refuses, which ``--player``
            reports naming the player.
        summary: one line on what the player does, for the help and the docs.
        game_seconds: the seconds its ten cards of a game are planned at (a match refuses
            work past its time limit up front, :mod:`qcards.plan`).
    """

    name: str
    make: Callable[[str], CardPlayer]
    summary: str = ""
    game_seconds: float = 1.0


@cache
def player_kinds(reserved: tuple[str, ...]) -> dict[str, PlayerKind]:
    """The registered player kinds by name, loaded from ``qcards.players`` once; ``reserved``
    are the built-in players' and play models' names, which no plugin may take."""
    return load_group(GROUP, (), PlayerKind, reserved)


def checked_card(label: str, decision: Decision, card: object) -> Card:
    """``card`` when it is one of the decision's legal cards; otherwise a
    :class:`~qcards.errors.ModelError` naming the player, its answer and the legal cards."""
    if isinstance(card, Card) and card in decision.legal:
        return card
    legal = " ".join(str(c) for c in decision.legal)
    answer = str(card) if isinstance(card, Card) else repr(card)
    raise ModelError(f"the player {label} answered {answer}, not one of the legal cards {legal}")
