"""OpenSpiel's bots in a seat of a match: ``--player openspiel-ismcts:ITERATIONS`` and
``openspiel-mcts:ITERATIONS`` (the ``openspiel`` extra).

At a card decision the seat's game (:func:`~qcards.analysis.match_players.seat_spec`) after
the history so far is the moment from the current trick's start
(:func:`qcards.skat.position.history.moment`: the finished tricks credited, the posterior over the
unseen cards given every play under random-play beliefs); :data:`WORLDS` deals are sampled
from that posterior, and the moment becomes an OpenSpiel game
(:func:`~qcards.skat.openspiel.openspiel_game`) whose chance node deals one of them, each
as likely, and whose returns are the declarer's chance to win (its negative for a defender),
as PIMC's. The current trick's cards are replayed on it to reach the seat's decision.

``openspiel-ismcts:ITERATIONS``
    information-set MCTS (``pyspiel.ISMCTSBot``): ITERATIONS simulations, each on a deal
    resampled from the seat's information state among the sampled ones, one search tree over
    the players' information states, random rollouts to score a leaf; the most visited card.
``openspiel-mcts:ITERATIONS``
    determinized MCTS, PIMC-style (not information-set MCTS): on each of
    :data:`MCTS_WORLDS` of the sampled deals, played as if every hand were known,
    ``pyspiel.MCTSBot`` runs ITERATIONS simulations with random rollouts; the card most deals
    choose (ties to the rules' order).

Both are seeded from the match's seed (the searches, their rollouts and the deals sampled);
a bot's answer that is not a legal card, or a bot that fails, is a
:class:`~qcards.errors.PlayerError` naming the player.
"""

from __future__ import annotations

from collections import Counter

import numpy as np

from qcards.errors import ParameterError, PlayerError
from qcards.execution.extras import require
from qcards.skat.players.beliefs import RANDOM, believe, check_beliefs
from qcards.skat.position.spec import Endgame
from qcards.skat.rules.cards import FULL_DECK, Card
from qcards.skat.rules.rule_tables import CARD_INDEX

ISMCTS = "openspiel-ismcts"
MCTS = "openspiel-mcts"
MODELS = (ISMCTS, MCTS)
"""The ``--player`` prefixes of OpenSpiel's bots."""

WORLDS = 20
"""The deals sampled from the seat's beliefs a decision: the chance node's outcomes."""

MCTS_WORLDS = 5
"""The sampled deals determinized MCTS searches a decision (its first ones), voting."""

UCT_C = 2.0
"""The exploration constant of both bots' UCT (OpenSpiel's examples' value)."""

ROLLOUTS = 1
"""Random rollouts a leaf is scored by."""

# The plan's cost: seconds a bot's ten cards take in one game, its fixed work (the moments,
# the sampled deals, the games built) and per ITERATION (simulation) of each decision.
# Measured as CPU seconds of one-deal matches (3 games) against two heuristic players, the
# heuristic players' own match subtracted (figures in benchmarks/results/cost-notes.md).
GAME_SECONDS = {ISMCTS: 0.25, MCTS: 0.5}
ITERATION_GAME_SECONDS = {ISMCTS: 0.022, MCTS: 0.055}


def parse(text: str, model: str, sep: str, rest: str) -> int:
    """The ITERATIONS of ``--player`` ``text`` (``model`` + ``sep`` + ``rest``), a positive
    integer (:class:`ParameterError` naming ``player`` otherwise), once the extra is there
    (:class:`~qcards.errors.MissingExtraError` naming it otherwise)."""
    if not sep or not rest.isdigit() or int(rest) < 1:
        raise ParameterError(
            "player", f"{{player}} {text!r}: {model} takes its budget after a colon, a positive "
            f"number of simulations a card ({model}:100)",
        )  # fmt: skip
    require("openspiel", f"--player {model}")
    return int(rest)


def game_seconds(model: str, iterations: int) -> float:
    """The estimated seconds of the bot's ten cards in one game (see the constants)."""
    return GAME_SECONDS[model] + ITERATION_GAME_SECONDS[model] * iterations


def bot_card(label: str, model: str, iterations: int, spec: Endgame, history, seed: int) -> Card:
    """The card the bot ``model`` picks at ``spec`` (the seat's game) after ``history``
    (``(player, card)`` pairs), from ``seed``. Raises :class:`PlayerError` naming ``label``
    when the bot fails or answers with a card that is not legal."""
    source = believe(spec, history, check_beliefs(RANDOM))
    where = source.where
    legal = where.legal_cards()
    if len(legal) == 1:
        return legal[0]
    rng = np.random.default_rng(seed)
    owners = source.sample(WORLDS, rng)
    try:
        from open_spiel.python.algorithms import ismcts, mcts

        from qcards.skat.openspiel import openspiel_game

        game = openspiel_game(where.spec, "win", [(o, 1.0 / len(owners)) for o in owners])
        search = np.random.RandomState(int(rng.integers(2**31)))
        evaluator = mcts.RandomRolloutEvaluator(ROLLOUTS, search)
        if model == ISMCTS:
            bot = ismcts.ISMCTSBot(game, evaluator, UCT_C, iterations, random_state=search)
            bot.set_resampler(lambda state, player: state.resample_from_infostate(
                player, search.uniform))  # seeded, unlike the bot's default sampler  # fmt: skip
            actions = [bot.step(_at_decision(game, 0, where.opening))]
        else:
            actions = []
            for world in range(min(MCTS_WORLDS, len(owners))):
                bot = mcts.MCTSBot(game, UCT_C, iterations, evaluator, solve=False,
                                   random_state=search)  # fmt: skip
                actions.append(bot.step(_at_decision(game, world, where.opening)))
    except (RuntimeError, ValueError) as exc:  # pyspiel.SpielError is a RuntimeError
        raise PlayerError(f"{{player}} {label}: the OpenSpiel bot failed: {exc}") from None
    votes = Counter(actions)
    best = max(votes.values())
    chosen = [a for a in votes if votes[a] == best]
    for card in legal:
        if CARD_INDEX[card] in chosen:
            return card
    named = ", ".join(str(FULL_DECK[a]) if 0 <= a < len(FULL_DECK) else str(a) for a in chosen)
    raise PlayerError(
        f"{{player}} {label}: the OpenSpiel bot chose {named}, not a legal card "
        f"({', '.join(map(str, legal))})"
    )


def _at_decision(game, world: int, opening):
    """The state of ``game`` dealt its ``world``-th deal, the current trick's cards played."""
    state = game.new_initial_state()
    state.apply_action(world)
    for card in opening:
        state.apply_action(CARD_INDEX[card])
    return state
