"""Any endgame spec as an OpenSpiel game, so that OpenSpiel's algorithms (exact best response,
CFR, ISMCTS, ...) run on Skat endgames.

The game: a chance node deals the unknown cards (one outcome per deal of positive probability,
with its probability, :func:`qcards.skat.deals.enumeration.weighted_deals`), then the seats
play their cards in turn by the spec's rules; an action is a card's index in
:data:`~qcards.skat.rules.cards.FULL_DECK`. A seat's information state is its hand as dealt and
every card played (who played it): perfect recall of what it has seen. The returns are the
declarer's objective (:mod:`qcards.skat.solvers.objectives`; the win by default) for the declarer,
and its negative for each defender.

A state resamples itself from a seat's information state (``resample_from_infostate``, what
OpenSpiel's information-set MCTS asks): a deal drawn by its probability among those that give
the seat its dealt hand and in which every card played was in its player's hand and legal,
the plays then replayed on it.

The classes are module-level, as OpenSpiel's own Python games are: :class:`EndgameGame` (one
game per spec), :class:`EndgameState` (its one transition, :meth:`EndgameState._apply_action`,
plays on :class:`~qcards.skat.rules.table.Table`) and :class:`EndgameObserver`. The game is
registered with OpenSpiel as ``qcards_skat_endgame``, so ``pyspiel.load_game(
"qcards_skat_endgame", {"spec": "path/to/spec.toml"})`` loads a spec file as well.

OpenSpiel (``open_spiel`` on PyPI, the ``openspiel`` extra) is imported with this module, when
present; without it the classes are not defined and :func:`openspiel_game` says which extra
to install.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import Any, cast

from qcards.errors import IllegalPlay, ModelError
from qcards.skat.deals.enumeration import weighted_deals
from qcards.skat.position.declaration import deal_matadors
from qcards.skat.position.spec import Endgame, load_spec
from qcards.skat.position.stages import skat_points
from qcards.skat.rules.cards import FULL_DECK, Card
from qcards.skat.rules.rule_tables import CARD_INDEX
from qcards.skat.rules.table import Table
from qcards.skat.solvers.objectives import check_objective

pyspiel: Any  # no stubs: its classes are subclassed below
try:  # the openspiel extra; the classes below exist only with it
    pyspiel = importlib.import_module("pyspiel")
except ImportError:  # pragma: no cover - the extra is installed in the tests
    pyspiel = None

GAME_NAME = "qcards_skat_endgame"
"""The name the game is registered under with OpenSpiel (``pyspiel.load_game``)."""


def openspiel_game(spec: Endgame, objective: str = "win", dealt=None):
    """The spec as a ``pyspiel.Game`` whose returns score ``objective`` for the declarer.

    ``dealt``: the chance node's deals, ``(owner, probability)`` pairs of the spec's deals (the
    referee's form, card -> receiver), such as a sample of them; every deal of positive
    probability (:func:`~qcards.skat.deals.enumeration.weighted_deals`) by default.

    Raises:
        ModelError: OpenSpiel is not installed (the ``openspiel`` extra).
    """
    if pyspiel is None:
        raise ModelError("OpenSpiel is not installed: pip install 'qcards[openspiel]' (open_spiel)")
    return EndgameGame(spec=spec, objective=objective, dealt=dealt)


@dataclass(frozen=True)
class _Deal:
    """One chance outcome: the hands in seat order, its probability, the declarer's points
    before play (the spec's and the Skat's), its matadors and the owner map it came from."""

    hands: tuple[frozenset[Card], ...]
    probability: float
    base: int
    matadors: int
    owner: dict


if pyspiel is not None:
    GAME_TYPE = pyspiel.GameType(
        short_name=GAME_NAME,
        long_name="qcards Skat endgame",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=4,
        min_num_players=2,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=False,
        provides_factored_observation_string=False,
        parameter_specification={"spec": "", "objective": "win"},
    )

    class EndgameGame(pyspiel.Game):
        """An endgame spec as an OpenSpiel game: ``params`` (from ``pyspiel.load_game``) name
        a spec file (``spec``) and the declarer's ``objective``; from Python, give the
        :class:`~qcards.skat.position.spec.Endgame` itself and, if wanted, the chance node's
        ``dealt`` deals (see :func:`openspiel_game`)."""

        def __init__(self, params=None, *, spec: Endgame | None = None, objective: str = "win",
                     dealt=None) -> None:  # fmt: skip
            params = dict(params or {})
            if spec is None:
                spec = load_spec(params.get("spec") or "")
                objective = params.get("objective", objective)
            self.spec = spec
            self.goal = check_objective(spec, objective)
            self.deals = [
                _Deal(tuple(frozenset(c for c, p in owner.items() if p == who)
                            for who in spec.players),
                      float(probability), spec.declarer_points + skat_points(owner),
                      deal_matadors(spec.declaration, owner), dict(owner))
                for owner, probability in (weighted_deals(spec) if dealt is None else dealt)
            ]  # fmt: skip
            n = len(spec.players)
            first = self.deals[:1]
            bound = float(max(abs(self.goal.value(spec, p, t, d.matadors)) for p in range(121)
                              for t in range(11) for d in first) or 1)  # fmt: skip
            info = pyspiel.GameInfo(
                num_distinct_actions=len(FULL_DECK),
                max_chance_outcomes=len(self.deals),
                num_players=n,
                min_utility=-bound * 4,
                max_utility=bound * 4,
                utility_sum=None,
                max_game_length=n * spec.hand_size + 1,
            )
            super().__init__(GAME_TYPE, info, {"spec": spec.source, "objective": self.goal.name})

        def dealt_table(self, deal: int) -> Table:
            """The table of chance outcome ``deal`` before its first card."""
            spec = self.spec
            return Table.deal(spec.rules, self.deals[deal].hands, spec.players.index(spec.leader),
                              winner_leads=spec.winner_leads)  # fmt: skip

        def new_initial_state(self):
            return EndgameState(self)

        def make_py_observer(self, iig_obs_type=None, params=None):
            return EndgameObserver(self)

    class EndgameState(pyspiel.State):
        """A moment of an :class:`EndgameGame`: before the deal, or a :class:`Table`."""

        def __init__(self, game: EndgameGame) -> None:
            super().__init__(game)
            self.deal: int | None = None  # the chance outcome: an index into the game's deals
            self.table: Table | None = None  # the cards on the table, once dealt

        @property
        def _game(self) -> EndgameGame:
            return cast(EndgameGame, self.get_game())

        @property
        def hands(self) -> tuple[frozenset[Card], ...] | None:
            return None if self.table is None else self.table.hands

        @property
        def plays(self) -> tuple[tuple[int, Card], ...]:
            return () if self.table is None else self.table.plays

        @property
        def trick(self) -> tuple[Card, ...]:
            return () if self.table is None else self.table.trick

        @property
        def leader(self) -> int:
            spec = self._game.spec
            return spec.players.index(spec.leader) if self.table is None else self.table.leader

        def current_player(self):
            if self.table is None:
                return pyspiel.PlayerId.CHANCE
            if self.table.over:
                return pyspiel.PlayerId.TERMINAL
            return self.table.to_move

        def chance_outcomes(self):
            return [(i, d.probability) for i, d in enumerate(self._game.deals)]

        def _legal_actions(self, player):
            return sorted(CARD_INDEX[c] for c in cast(Table, self.table).legal())

        def _apply_action(self, action):
            """The one transition: the deal, then a card on the table (the trick closed,
            credited and the next leader found by :meth:`Table.play`)."""
            if self.table is None:
                self.deal = action
                self.table = self._game.dealt_table(action)
                return
            self.table = self.table.play(FULL_DECK[action])

        def _action_to_string(self, player, action):
            if player == pyspiel.PlayerId.CHANCE:
                return f"deal {action}"
            return f"{self._game.spec.players[player]}:{FULL_DECK[action]}"

        def is_terminal(self):
            return self.table is not None and self.table.over

        def returns(self):
            game = self._game
            n = len(game.spec.players)
            if not self.is_terminal():
                return [0.0] * n
            deal, table = game.deals[cast(int, self.deal)], cast(Table, self.table)
            points, tricks = deal.base + table.taken[0], game.spec.declarer_tricks + table.won[0]
            v = float(game.goal.value(game.spec, points, tricks, deal.matadors))
            return [v] + [-v] * (n - 1)

        def resample_from_infostate(self, player, probability_sampler):
            """A state ``player`` cannot tell from this one, its deal drawn by probability
            (``probability_sampler()`` is uniform on [0, 1))."""
            deals = self._game.deals
            hand = deals[cast(int, self.deal)].hands[player]
            fits = [i for i, d in enumerate(deals) if d.hands[player] == hand and self._replays(i)]
            total = sum(deals[i].probability for i in fits)
            pick, u = fits[-1], probability_sampler() * total
            for i in fits:
                u -= deals[i].probability
                if u < 0:
                    pick = i
                    break
            state = EndgameState(self._game)
            state.apply_action(pick)
            for _seat, card in self.plays:
                state.apply_action(CARD_INDEX[card])
            return state

        def _replays(self, deal: int) -> bool:
            """Whether every card played so far was in its player's hand and legal in
            ``deal``."""
            table = self._game.dealt_table(deal)
            for _seat, card in self.plays:
                try:
                    table = table.play(card)
                except IllegalPlay:
                    return False
            return True

        def deal_owner(self) -> dict:
            """The deal, card -> receiver (the referee's form)."""
            return self._game.deals[cast(int, self.deal)].owner  # asked once dealt

        def __str__(self):
            players = self._game.spec.players
            return " ".join(f"{players[s]}:{c}" for s, c in self.plays)

    class EndgameObserver:
        """A seat's information state: its hand as dealt and every card played."""

        def __init__(self, game: EndgameGame) -> None:
            import numpy as np

            self.game = game
            self.tensor = np.zeros(0, np.float32)
            self.dict: dict = {}

        def set_from(self, state, player):
            pass

        def string_from(self, state, player):
            if state.deal is None:
                return f"p{player}"
            spec = self.game.spec
            dealt = self.game.deals[state.deal].hands[player]
            hand = " ".join(str(c) for c in spec.rules.sorted(dealt))
            seen = " ".join(f"{spec.players[s]}:{c}" for s, c in state.plays)
            return f"p{player} [{hand}] {seen}"

    pyspiel.register_game(GAME_TYPE, EndgameGame)


def openspiel_policy(game, spec: Endgame, policy):
    """A play model's policy (:mod:`qcards.skat.players.play_models`) as an OpenSpiel policy of
    ``game`` (:func:`openspiel_game`), for every seat: what OpenSpiel's best response and
    evaluation algorithms take as the other players' strategies."""
    from open_spiel.python import policy as os_policy

    from qcards.skat.position.seat_view import table_view

    cards = frozenset(spec.cards) | spec.put_away
    n = len(spec.players)

    class Policy(os_policy.Policy):
        def __init__(self):
            super().__init__(game, list(range(n)))

        def action_probabilities(self, state, player_id=None):
            table = state.table
            dealt = state.deal_owner()
            skat = frozenset(c for c in cards if dealt.get(c) == "skat") | spec.put_away
            view = table_view(table, cards, skat)
            return {CARD_INDEX[c]: float(w) for c, w in policy(view).items()}

    return Policy()
