"""The players of a match: a play model, its budget and beliefs, and how it picks a card from
what its seat has seen.

:func:`parse_player` reads ``--player``:

``random``, ``heuristic``, ``softmax``
    a policy model draws from its policy over the seat's view
    (:mod:`qcards.skat.players.play_models`);
``softmax:FILE``
    the softmax family with the parameters of ``FILE``, the JSON that ``qcards fit --json``
    writes (its ``theta``) or a bare ``{"declarer": {...}, "defender": {...}}``: the fitted
    policy as a player;
``learned:FILE``
    the learned model with the model file ``FILE`` (``qcards train``'s output) instead of the
    shipped one;
``adversarial[:WORLDS[:BELIEFS]]``
    PIMC: the seat's game as a spec (its own cards known, everything else unseen; the declarer
    knows its discard), the history so far weighed by ``BELIEFS``
    (:mod:`qcards.skat.players.beliefs`: ``random`` by default, ``voids``, or a play model such as
    ``heuristic``), and the card :func:`qcards.analysis.advice.advise` ranks first on WORLDS
    sampled deals (default :data:`DEFAULT_WORLDS`);
``best-response[:WORLDS[:BELIEFS]]``
    the declarer's exact best response (:func:`qcards.skat.players.best_response.first_cards`) to
    opponents who play the ``BELIEFS`` model (``random`` by default: random opponents; ``voids``
    also assumes random play), from the deals it believes in, once they are at most
    :data:`BEST_RESPONSE_DEALS`; before that, and as a defender (the best response is the
    declarer's), it plays as ``adversarial`` with the same worlds and beliefs (in a Hand game
    the Skat's two unseen cards multiply the declarer's deals, so the exact search starts
    later). Its objective is the declarer's chance to win, as PIMC's;
``exec:COMMAND``
    an outside program that answers a JSON-lines protocol on its stdin and stdout
    (:mod:`qcards.analysis.exec_player`);
``openspiel-ismcts:ITERATIONS``, ``openspiel-mcts:ITERATIONS``
    OpenSpiel's information-set MCTS, or determinized MCTS, with ITERATIONS simulations a
    card, on the seat's game as an OpenSpiel game (:mod:`qcards.analysis.openspiel_player`;
    the ``openspiel`` extra);
``NAME[:OPTIONS]``
    a player kind another package registers (:mod:`qcards.analysis.seat_players`, entry-point
    group ``qcards.players``), made from ``OPTIONS``.

Every one of them is a :class:`~qcards.analysis.seat_players.CardPlayer`
(:func:`seated`): the match, ``recommend --player`` (:func:`player_card`) and the training
data's behaviour player ask each the same way, :func:`play`.
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

import numpy as np

from qcards.analysis import exec_player, openspiel_player
from qcards.analysis.advice import advise
from qcards.analysis.seat_players import CardPlayer, Decision, checked_card, player_kinds
from qcards.errors import FileError, ModelError, ParameterError, QcardsError
from qcards.files import read_text
from qcards.skat.deals.count import num_deals
from qcards.skat.deals.sample import OWNER_BYTES, fresh_seed
from qcards.skat.learned.network import LearnedPolicy, load_network
from qcards.skat.players.beliefs import MAX_OVERSAMPLE, RANDOM, VOIDS, believe, check_beliefs
from qcards.skat.players.best_response import first_cards
from qcards.skat.players.bidders import RULES
from qcards.skat.players.play_models import get_model, model_names, softmax_policy
from qcards.skat.position.history import OPTION, as_plays, finished_tricks, moment
from qcards.skat.position.seat_view import SeatView, uniform
from qcards.skat.position.spec import SKAT, Endgame, spec_from_dict
from qcards.skat.rules.cards import Card
from qcards.skat.solvers.minimax import ADVERSARIAL
from qcards.skat.solvers.plain_referee import game_over

DEFAULT_WORLDS = 10
"""PIMC's sampled deals a card decision when a player gives no budget."""

BEST_RESPONSE = "best-response"
LEARNED = "learned"
SEARCHERS = (ADVERSARIAL, BEST_RESPONSE)
"""The players that search from the seat's game (:func:`seat_spec`) instead of a policy."""

BEST_RESPONSE_DEALS = 100
"""The most deals (of the seat's beliefs) at which a ``best-response`` declarer searches
exactly: the last four tricks of a game (70 deals at a trick's start), and the fifth-last when
it plays third. Measured per decision (every legal card) in a match against heuristic
opponents: 0.1 to 0.5 s at 70 deals, 1 to 3 s at 252 (five tricks); against random opponents
a fifteen-card endgame takes up to minutes (``benchmarks/results/play_models.md``), too slow
for a match's pace."""

HAND = 10
"""The cards each seat is dealt."""

# The cost model of a match (qcards.analysis.match plans with it): seconds a player takes for
# its seat's ten cards in one game, its third of the game's own work (the auction, the record
# and its replay) included. Measured as CPU seconds (the compiled solver's threads summed) of
# matches against two heuristic players (benchmarks/bench_match.py); the figures are in
# benchmarks/results/cost-notes.md.
POLICY_GAME_SECONDS = {"random": 0.005, "heuristic": 0.005, "softmax": 0.008, "learned": 0.02}
SEARCH_GAME_SECONDS = 0.3  # PIMC's own work a game: the seat's spec, the posterior, 10 cards
WORLD_GAME_SECONDS = 0.1  # and each world: solved double dummy after every legal card
BEST_RESPONSE_GAME_SECONDS = {RANDOM: 6.0, "policy": 2.0}  # the last tricks' exact search
HAND_VALUE_SECONDS = 0.34
"""Seconds the hand evaluator takes to value a ten-card hand for bidding (every sampled Skat,
game and discard), at the rate of ``benchmarks/results/bidding.md``; a deal's three hands are
valued once whatever the number of players who bid by it (remembered over the rotations)."""
DECLARE_SECONDS = 0.28
"""Seconds its declaration takes; a player declares in about a third of a deal's games."""
ROW_BYTES = 800
"""Bytes of a world's solved outcomes at a decision: a tuple for each legal card."""


@dataclass(frozen=True)
class Player:
    """A play model and its budget: PIMC's worlds a decision and the beliefs that weigh the
    deals by the plays (searching players); a softmax player's parameters file and values, a
    learned player's model file (:attr:`theta_file`)."""

    model: str
    worlds: int = DEFAULT_WORLDS
    beliefs: str = RANDOM
    theta_file: str | None = None
    theta: tuple[tuple[str, tuple[tuple[str, float], ...]], ...] | None = None
    """The parameters as nested pairs, role then feature: hashable, so that players with
    different parameters never compare equal (nor share a cached policy)."""
    command: str | None = None
    """An outside program's command as given (``exec:COMMAND``)."""
    argv: tuple[str, ...] = ()
    """The command split into its program and arguments."""
    iterations: int = 0
    """An OpenSpiel bot's simulations a card decision (``openspiel-ismcts:ITERATIONS``)."""
    bidding: str = RULES
    """How the player bids and declares (:data:`qcards.skat.players.bidders.BIDDERS`)."""
    options: str = ""
    """A registered player kind's options, the text after ``NAME:``."""

    @property
    def parameters(self) -> dict[str, dict[str, float]] | None:
        """:attr:`theta` as the ``{role: {feature: value}}`` of :func:`softmax_policy`."""
        return None if self.theta is None else {r: dict(w) for r, w in self.theta}

    @property
    def label(self) -> str:
        """The player as ``--player`` spells it, with its bidder unless the rules'."""
        bidding = "" if self.bidding == RULES else f" ({self.bidding} bidding)"
        return self._play_label + bidding

    @property
    def _play_label(self) -> str:
        if self.command is not None:
            return f"{exec_player.EXEC}:{self.command}"
        if self.model in openspiel_player.MODELS:
            return f"{self.model}:{self.iterations}"
        if self.options:
            return f"{self.model}:{self.options}"
        if self.theta_file is not None:
            return f"{self.model}:{self.theta_file}"
        if self.model not in SEARCHERS:
            return self.model
        suffix = "" if self.beliefs == RANDOM else f":{self.beliefs}"
        return f"{self.model}:{self.worlds}{suffix}"


def game_seconds(player: Player) -> float:
    """The estimated seconds of ``player``'s ten cards in one game (its share of the game's
    own work included), from the measured rates above; a policy model without a rate of its
    own (a plugin's) is costed as the slowest measured one; an outside program is assumed to
    take :data:`~qcards.analysis.exec_player.DECISION_SECONDS` a request (its ten cards, the
    game's start and end), an assumption: its real pace is the program's; an OpenSpiel bot
    as :func:`~qcards.analysis.openspiel_player.game_seconds` measures it."""
    if player.model == exec_player.EXEC:
        return exec_player.DECISION_SECONDS * (HAND + 2)
    if player.model in openspiel_player.MODELS:
        return openspiel_player.game_seconds(player.model, player.iterations)
    kind = registered().get(player.model)
    if kind is not None:
        return kind.game_seconds
    if player.model not in SEARCHERS:
        return POLICY_GAME_SECONDS.get(player.model, max(POLICY_GAME_SECONDS.values()))
    seconds = SEARCH_GAME_SECONDS + WORLD_GAME_SECONDS * player.worlds
    if player.model == BEST_RESPONSE:  # opponents who play a policy are searched faster
        policy = check_beliefs(player.beliefs).reweights
        seconds += BEST_RESPONSE_GAME_SECONDS["policy" if policy else RANDOM]
    return seconds


def bidding_seconds(players) -> float:
    """The estimated seconds the players' bidders take a deal: the hand evaluator values the
    deal's three hands once when any player bids by it, and each such player declares about
    one of the deal's three games; the club rules cost nothing (a bidder of a plugin is costed
    as the evaluator)."""
    evaluated = sum(p.bidding != RULES for p in players)
    return (3 * HAND_VALUE_SECONDS if evaluated else 0.0) + evaluated * DECLARE_SECONDS


def decision_bytes(player: Player) -> float:
    """The bytes a searching player's card decision holds: its worlds' sampled deals (each
    with up to :data:`~qcards.skat.players.beliefs.MAX_OVERSAMPLE` candidates when its beliefs
    reweigh the deals) and their solved outcomes; 0 for a policy player."""
    if player.model not in SEARCHERS:
        return 0.0
    drawn = MAX_OVERSAMPLE if check_beliefs(player.beliefs).reweights else 1
    return player.worlds * (drawn * OWNER_BYTES + ROW_BYTES)


def parse_player(text: str) -> Player:
    """A player from its ``--player`` text (see the module; :class:`ParameterError` naming
    ``player`` otherwise)."""
    text = str(text)
    model, sep, rest = text.partition(":")
    if model == exec_player.EXEC:
        exec_player.timeout()  # a bad timeout refused before any game
        return Player(model, command=rest, argv=exec_player.split_command(text, rest))
    if model in openspiel_player.MODELS:
        return Player(model, iterations=openspiel_player.parse(text, model, sep, rest))
    kinds = registered()
    if model in kinds:
        try:
            kinds[model].make(rest)  # options refused before any game
        except (ValueError, TypeError, QcardsError) as exc:
            raise ParameterError("player", f"{{player}} {text!r}: {exc}") from None
        return Player(model, options=rest)
    usable = [m for m in model_names() if get_model(m).solver is None or m == BEST_RESPONSE]
    if model not in usable:
        plugins = "".join(f", {name}[:OPTIONS]" for name in kinds)
        raise ParameterError(
            "player", f"{{player}} {text!r}: unknown or unusable model {model!r} (expected one of "
            f"{', '.join(usable)}, optionally :WORLDS[:BELIEFS] for {ADVERSARIAL} and "
            f"{BEST_RESPONSE}, :FILE for softmax and learned; or {exec_player.EXEC}:COMMAND, "
            f"{openspiel_player.ISMCTS}:ITERATIONS, {openspiel_player.MCTS}:ITERATIONS{plugins})",
        )  # fmt: skip
    if not rest and not sep:
        return Player(model)
    if model == "softmax":
        theta = _theta(text, rest)
        frozen = tuple((r, tuple(sorted(w.items()))) for r, w in sorted(theta.items()))
        return Player(model, theta_file=rest, theta=frozen)
    if model == LEARNED:
        try:
            load_network(rest)
        except ModelError as exc:
            raise ParameterError("player", f"{{player}} {text!r}: {exc}") from None
        return Player(model, theta_file=rest)
    budget, colon, beliefs = rest.partition(":")
    if model in SEARCHERS and not budget:
        raise ParameterError(
            "player", f"{{player}} {text!r}: the budget after the colon is empty: give a "
            f"positive number of worlds ({model}:{DEFAULT_WORLDS}) or no colon",
        )  # fmt: skip
    if model not in SEARCHERS or not budget.isdigit() or int(budget) < 1:
        raise ParameterError(
            "player",
            f"{{player}} {text!r}: only {ADVERSARIAL} and {BEST_RESPONSE} take a budget, a "
            f"positive number of worlds (and then :BELIEFS: {RANDOM}, {VOIDS} or a play model "
            "with a policy)",
        )
    if not beliefs and not colon:
        return Player(model, int(budget))
    try:
        check_beliefs(beliefs)
    except ModelError as exc:
        raise ParameterError("player", f"{{player}} {text!r}: {exc}") from None
    return Player(model, int(budget), beliefs)


def _theta(text: str, path: str) -> dict:
    """A softmax player's parameters from ``path`` (``qcards fit --json`` output or a bare
    theta), checked by :func:`softmax_policy`."""
    where = f"{{player}} {text!r}: {path}"
    try:
        data = json.loads(read_text(path, FileError, "the parameters"))
    except json.JSONDecodeError as exc:
        message = f"{where}: not JSON ({exc.msg}, line {exc.lineno})"
        raise ParameterError("player", message) from None
    except FileError as exc:
        raise ParameterError("player", f"{{player}} {text!r}: {exc}") from None
    theta = data.get("theta", data) if isinstance(data, dict) else None
    if not isinstance(theta, dict) or not all(isinstance(w, dict) for w in theta.values()):
        raise ParameterError(
            "player", f"{where}: expected {{\"theta\": {{\"declarer\": {{FEATURE: NUMBER}}, "
            "\"defender\": {...}}} or the theta itself",
        )  # fmt: skip
    try:
        softmax_policy(theta)
        values = {r: {f: float(v) for f, v in w.items()} for r, w in theta.items()}
    except (ModelError, TypeError, ValueError) as exc:
        raise ParameterError("player", f"{where}: {exc}") from None
    for role, weights in values.items():
        for feature, value in weights.items():
            if not math.isfinite(value):
                raise ParameterError(
                    "player", f"{where}: theta.{role}.{feature} must be a finite number"
                )
    return values


@cache
def _policy(player: Player):
    parameters = player.parameters  # None exactly when theta is
    if parameters is not None:
        return softmax_policy(parameters)
    if player.model == LEARNED and player.theta_file is not None:
        return LearnedPolicy(player.theta_file)
    return get_model(player.model).policy


def policy_card(player: Player, view: SeatView, rng: np.random.Generator) -> Card:
    """A policy player's card: drawn from its policy over the seat's view."""
    weights = _policy(player)(view)
    options = [c for c, w in weights.items() if w]
    p = np.array([float(weights[c]) for c in options])
    return options[int(rng.choice(len(options), p=p / p.sum()))]


def seat_spec(
    names: list[str],
    game: str,
    me: str,
    leader: str,
    hand: tuple[Card, ...],
    hidden: list[Card],
    discard: tuple[Card, ...],
    declarer: bool,
    bid: int,
    hand_game: bool = False,
) -> Endgame:
    """The game as the seat ``me`` sees it at the first trick: its ``hand`` known, the other
    seats' cards (``hidden``) unseen, ten each; the declarer knows its ``discard`` (the spec's
    declaration, so that its points count and the beliefs know the defenders never saw it), a
    defender does not (the Skat's cards unseen too), nor does the declarer of a Hand game
    (``hand_game``: ``discard`` is then the Skat). ``names`` puts the declarer first;
    ``leader`` leads the first trick; ``bid`` is the auction's."""
    unknown = list(hidden)
    sizes = {name: HAND for name in names if name != me}
    if not declarer or hand_game:
        unknown += list(discard)
        sizes[SKAT] = len(discard)
    data = {
        "players": list(names),
        "trump": game,
        "leader": leader,
        "declarer_points": 0,
        "hands": {me: [str(c) for c in hand]},
        "unknown": {"cards": [str(c) for c in unknown], "sizes": sizes},
    }
    if declarer and hand_game:
        data["declaration"] = {"hand": True, "bid": bid}
    elif declarer:
        data["declaration"] = {"hand": False, "bid": bid, "discard": [str(c) for c in discard]}
    elif game != "null":
        data["target"] = 61
    return spec_from_dict(data, f"<{me}'s view>")


def search_card(player: Player, spec: Endgame, history: list[tuple[str, Card]], seed: int) -> Card:
    """A searching player's card at ``spec`` (the seat's game) after ``history``."""
    if player.model == BEST_RESPONSE:
        card = _best_response_card(player, spec, history)
        if card is not None:
            return card
    advice = advise(spec, tuple(history), ADVERSARIAL, samples=player.worlds, seed=seed,
                    force=True, beliefs=player.beliefs)  # fmt: skip
    return advice.best


def _best_response_card(player: Player, spec: Endgame, history) -> Card | None:
    """The declarer's best-response card once its believed deals are few enough (``None``
    before, and for a defender)."""
    source = believe(spec, history, check_beliefs(player.beliefs))
    where = source.where
    if where.mover != spec.declarer or num_deals(where.spec) > BEST_RESPONSE_DEALS:
        return None
    legal = where.legal_cards()
    if len(legal) == 1:
        return legal[0]
    others = source.beliefs.policy or uniform
    rows = first_cards(where.spec, "win", others, where.opening, source.exact(), clairvoyant=False)
    return rows[0].card


def registered() -> dict:
    """The player kinds other packages register (:func:`~qcards.analysis.seat_players.
    player_kinds`), none of them named as a built-in player or a play model."""
    return player_kinds((*model_names(), exec_player.EXEC, *openspiel_player.MODELS))


# ----------------------------------------------------------------------------- one interface


@dataclass(frozen=True)
class PolicyPlayer:
    """A policy model (random, heuristic, a softmax, the learned network) as a player: its
    card drawn from its policy over the seat's view."""

    player: Player

    def step(self, decision: Decision) -> Card:
        return policy_card(self.player, decision.view, decision.rng)


@dataclass(frozen=True)
class SearchPlayer:
    """PIMC or the declarer's best response as a player: its search from the seat's game
    and the history (:func:`search_card`)."""

    player: Player

    def step(self, decision: Decision) -> Card:
        return search_card(self.player, decision.game, list(decision.history), decision.seed())


@dataclass(frozen=True)
class OpenSpielPlayer:
    """One of OpenSpiel's bots as a player, on the seat's game as an OpenSpiel game."""

    player: Player

    def step(self, decision: Decision) -> Card:
        p = self.player
        return openspiel_player.bot_card(p.label, p.model, p.iterations, decision.game,
                                         decision.history, decision.seed())  # fmt: skip


@dataclass(frozen=True)
class OutsideProgram:
    """An outside program as a player: one ``card`` request of the JSON-lines protocol a
    decision, to the program this match started for the player."""

    player: Player

    def step(self, decision: Decision) -> Card:
        p = self.player
        return exec_player.card((decision.index, p.label), p.label, p.argv, decision.request)


@cache
def seated(player: Player) -> CardPlayer:
    """``player`` as a :class:`~qcards.analysis.seat_players.CardPlayer` (one for each
    player, made once a process)."""
    if player.model == exec_player.EXEC:
        return OutsideProgram(player)
    if player.model in openspiel_player.MODELS:
        return OpenSpielPlayer(player)
    if player.model in SEARCHERS:
        return SearchPlayer(player)
    kind = registered().get(player.model)
    if kind is not None:
        return kind.make(player.options)
    return PolicyPlayer(player)


def play(player: Player, decision: Decision) -> Card:
    """``player``'s card at ``decision``, checked: an answer that is not a legal card is a
    :class:`~qcards.errors.ModelError` naming the player."""
    return checked_card(player.label, decision, seated(player).step(decision))


def player_card(
    spec: Endgame,
    history: Sequence[tuple[str, Card]] | str,
    player: Player | str,
    seed: int | None = None,
) -> Card:
    """The card ``player`` (a :class:`Player` or its ``--player`` text) plays for the seat to
    move in ``spec`` after ``history`` (``"A:SA B:S7"``, may end in the middle of a trick):
    ``spec`` is the game as that seat knows it, its own cards among the known hands. A
    player that draws draws from ``seed`` (fresh when ``None``).

    Raises:
        ParameterError: a bad player text, or an outside program (asked only within a
            match).
        ModelError: a history that breaks a rule, a mover whose cards the spec does not
            know, a finished game, or a player's answer that is not a legal card.
    """
    chosen = player if isinstance(player, Player) else parse_player(player)
    if chosen.model == exec_player.EXEC:
        raise ParameterError(
            "player", f"{{player}} {chosen.label!r}: an outside program plays within a match, "
            "whose table its requests describe; ask it there (qcards match)",
        )  # fmt: skip
    plays = as_plays(spec, history)
    where = moment(spec, plays)
    if where.spec.num_tricks == 0:
        raise ModelError(f"{OPTION}: {game_over(where.spec)}")
    legal = where.legal_cards()
    decision = Decision(legal, tuple(plays), np.random.default_rng(fresh_seed(seed)),
                        view=lambda: where.view(finished_tricks(spec, plays)),
                        game=lambda: spec)  # fmt: skip
    return play(chosen, decision)
