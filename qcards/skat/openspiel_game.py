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

OpenSpiel (``open_spiel`` on PyPI, the ``openspiel`` extra) is imported when a game is made.
"""

from __future__ import annotations

from typing import Any, cast

from qcards.errors import IllegalPlay, ModelError
from qcards.skat.deals.enumeration import weighted_deals
from qcards.skat.position.declaration import deal_matadors
from qcards.skat.position.spec import Endgame
from qcards.skat.position.stages import skat_points
from qcards.skat.rules.cards import FULL_DECK, Card
from qcards.skat.rules.rule_tables import CARD_INDEX
from qcards.skat.rules.table import Table
from qcards.skat.solvers.objectives import check_objective


def _pyspiel():
    try:
        import pyspiel
    except ImportError:  # pragma: no cover - the extra is installed in the tests
        raise ModelError(
            "OpenSpiel is not installed: pip install 'qcards[openspiel]' (open_spiel)"
        ) from None
    return pyspiel


def openspiel_game(spec: Endgame, objective: str = "win", dealt=None):
    """The spec as a ``pyspiel.Game`` whose returns score ``objective`` for the declarer.

    ``dealt``: the chance node's deals, ``(owner, probability)`` pairs of the spec's deals (the
    referee's form, card -> receiver), such as a sample of them; every deal of positive
    probability (:func:`~qcards.skat.deals.enumeration.weighted_deals`) by default."""
    pyspiel: Any = _pyspiel()  # no stubs: its classes are subclassed below
    goal = check_objective(spec, objective)
    if dealt is None:
        dealt = weighted_deals(spec)
    deals = [
        (
            tuple(frozenset(c for c, p in owner.items() if p == who) for who in spec.players),
            float(probability),
            spec.declarer_points + skat_points(owner),
            deal_matadors(spec.declaration, owner),
            dict(owner),
        )
        for owner, probability in dealt
    ]
    n = len(spec.players)
    bound = float(max(abs(goal.value(spec, p, t, d[3])) for p in range(121) for t in range(11)
                      for d in deals[:1]) or 1)  # fmt: skip
    game_type = pyspiel.GameType(
        short_name="qcards_skat_endgame",
        long_name="qcards Skat endgame",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=n,
        min_num_players=n,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=False,
        provides_factored_observation_string=False,
    )
    game_info = pyspiel.GameInfo(
        num_distinct_actions=len(FULL_DECK),
        max_chance_outcomes=len(deals),
        num_players=n,
        min_utility=-bound * 4,
        max_utility=bound * 4,
        utility_sum=None,
        max_game_length=n * spec.hand_size + 1,
    )

    def dealt_table(deal: int) -> Table:
        return Table.deal(spec.rules, deals[deal][0], spec.players.index(spec.leader),
                          winner_leads=spec.winner_leads)  # fmt: skip

    class Game(pyspiel.Game):
        def __init__(self):
            super().__init__(game_type, game_info, {})

        def new_initial_state(self):
            return State(self)

        def make_py_observer(self, iig_obs_type=None, params=None):
            return Observer()

    class State(pyspiel.State):
        def __init__(self, game) -> None:
            super().__init__(game)
            self.deal: int | None = None  # the chance outcome: an index into deals
            self.table: Table | None = None  # the cards on the table, once dealt

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
            return spec.players.index(spec.leader) if self.table is None else self.table.leader

        def current_player(self):
            if self.table is None:
                return pyspiel.PlayerId.CHANCE
            if self.table.over:
                return pyspiel.PlayerId.TERMINAL
            return self.table.to_move

        def chance_outcomes(self):
            return [(i, d[1]) for i, d in enumerate(deals)]

        def _legal_actions(self, player):
            return sorted(CARD_INDEX[c] for c in cast(Table, self.table).legal())

        def _apply_action(self, action):
            if self.table is None:
                self.deal = action
                self.table = dealt_table(action)
                return
            self.table = self.table.play(FULL_DECK[action])

        def _action_to_string(self, player, action):
            if player == pyspiel.PlayerId.CHANCE:
                return f"deal {action}"
            return f"{spec.players[player]}:{FULL_DECK[action]}"

        def is_terminal(self):
            return self.table is not None and self.table.over

        def returns(self):
            if not self.is_terminal():
                return [0.0] * n
            _hands, _p, base, matadors, _owner = deals[self.deal]
            table = cast(Table, self.table)
            v = float(goal.value(spec, base + table.taken[0], spec.declarer_tricks + table.won[0],
                                 matadors))  # fmt: skip
            return [v] + [-v] * (n - 1)

        def resample_from_infostate(self, player, probability_sampler):
            """A state ``player`` cannot tell from this one, its deal drawn by probability
            (``probability_sampler()`` is uniform on [0, 1))."""
            hand = deals[cast(int, self.deal)][0][player]
            fits = [i for i, d in enumerate(deals) if d[0][player] == hand and self._replays(i)]
            total = sum(deals[i][1] for i in fits)
            pick, u = fits[-1], probability_sampler() * total
            for i in fits:
                u -= deals[i][1]
                if u < 0:
                    pick = i
                    break
            state = State(self.get_game())
            state.apply_action(pick)
            for _seat, card in self.plays:
                state.apply_action(CARD_INDEX[card])
            return state

        def _replays(self, deal: int) -> bool:
            """Whether every card played so far was in its player's hand and legal in
            ``deal``."""
            table = dealt_table(deal)
            for _seat, card in self.plays:
                try:
                    table = table.play(card)
                except IllegalPlay:
                    return False
            return True

        def deal_owner(self) -> dict:
            """The deal, card -> receiver (the referee's form)."""
            return deals[cast(int, self.deal)][4]  # asked once dealt

        def __str__(self):
            return " ".join(f"{spec.players[s]}:{c}" for s, c in self.plays)

    class Observer:
        """A seat's information state: its hand as dealt and every card played."""

        def __init__(self):
            import numpy as np

            self.tensor = np.zeros(0, np.float32)
            self.dict = {}

        def set_from(self, state, player):
            pass

        def string_from(self, state, player):
            if state.deal is None:
                return f"p{player}"
            dealt = deals[state.deal][0][player]
            hand = " ".join(str(c) for c in spec.rules.sorted(dealt))
            seen = " ".join(f"{spec.players[s]}:{c}" for s, c in state.plays)
            return f"p{player} [{hand}] {seen}"

    return Game()


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
