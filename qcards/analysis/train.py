"""Training the ``learned`` play model by imitation: positions of complete games, each labelled
with the card a strong teacher plays there, and a network fitted to pick the teacher's card.

The positions come from complete games of Skat dealt, bid and played as in a match
(:mod:`qcards.analysis.match`: game ``i`` is deal ``i`` of the seed, the auction and the
declaration by the rules), the three seats played by the ``heuristic`` model (the behaviour
policy, cheap, and a sensible player, so the positions look like real play). Every decision
with more than one legal card is a position, and its label is the card of PIMC with ``worlds``
sampled deals (the ``adversarial:WORLDS`` match player, :func:`~qcards.analysis.match_players.
search_card`: the seat's game from what it has seen, the double-dummy value of each legal card
averaged over the sampled deals, the best one). PIMC rather than the double-dummy card of the
true deal: the true deal's best card uses cards the seat cannot see, which the network, given
only the seat's view, cannot learn to find; PIMC's card is a function of that view (and the
worlds drawn), the strongest such teacher qcards has at a few tenths of a second a card.

The positions are written as they are made to a data file (JSON lines: a header, then one line
per game with its positions as card names, :data:`POSITIONS_FORMAT`), so an interrupted run
resumes at the next game; the features are computed when training (a changed feature version
needs no new labels). The network (:mod:`qcards.skat.learned.network`) is fitted by minibatch
Adam on the cross-entropy of the teacher's card under the softmax over the legal cards, with
JAX and optax (the ``train`` extra, imported when fitting starts: this module, and playing the
model, need only NumPy; a tenth of the positions held out to report the agreement with the
teacher), in float32, its state checkpointed after every epoch so a run resumes there exactly.

A run is planned first (:func:`plan_training`, :mod:`qcards.plan`): the games still to label at
the teacher's measured seconds a game and the epochs at measured seconds a position, against
the time limit unless forced.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from functools import partial
from pathlib import Path

import numpy as np

from qcards.analysis.match import SEATS, _game, deal_cards
from qcards.analysis.match_players import Player, search_card
from qcards.errors import FileError, ParameterError
from qcards.execution.extras import require
from qcards.execution.sweeps import CORES, LOCAL, sweep
from qcards.files import (
    append_line,
    atomic_path,
    complete_lines,
    read_text,
    sha256_digest,
    start_lines,
)
from qcards.plan import Plan, check, current_limits
from qcards.progress import step
from qcards.skat.learned.features import NUM_FEATURES, card_features
from qcards.skat.learned.network import Network, save_network
from qcards.skat.position.seat_view import SeatView
from qcards.skat.rules.cards import Card, Trump, rules_of
from qcards.skat.solvers.minimax import ADVERSARIAL

POSITIONS_FORMAT = "qcards-learned-positions"
BEHAVIOUR = "heuristic"
"""The default player of the games the positions come from (any match player but an outside
program may be given: ``learned`` for the positions of the model's own play, DAgger)."""

MAX_LEGAL = 10

# The cost model (CPU seconds): PIMC labels a game's decisions (three seats, the decisions with
# one legal card skipped) in about LABEL_GAME_SECONDS + LABEL_WORLD_SECONDS * worlds, and an
# epoch of Adam (JAX, compiled, 64 hidden units) costs about EPOCH_POSITION_SECONDS a position,
# after a few seconds of importing and compiling; the runs behind them are in
# benchmarks/results/learned.md.
LABEL_GAME_SECONDS = 0.5
LABEL_WORLD_SECONDS = 0.5
POSITIONS_A_GAME = 20
EPOCH_POSITION_SECONDS = 8e-5
BATCH = 256
DATA_BYTES = 2**30
"""The largest training data file read (positions, outcomes): about ten million games'
outcomes, far past a run's plan."""


@dataclass(frozen=True)
class Position:
    """A decision of a game: what the mover saw and the teacher's card; ``recorded`` whether
    the row holds the finished tricks (rows written before they were: :func:`add_tricks`)."""

    view: SeatView
    label: Card
    recorded: bool = True


@dataclass(frozen=True)
class TrainResult:
    """What a run made: the positions, the held-out agreement with the teacher, the model."""

    games: int
    positions: int
    epochs: int
    train_loss: float
    train_agreement: float
    held_out_agreement: float
    model: str
    seconds: float

    def to_json(self) -> dict:
        return dict(self.__dict__)


# ----------------------------------------------------------------------------- positions


def encode_position(view: SeatView, label: Card) -> list:
    """A position as JSON: the game, the mover, the leader, the cards, the label, and the
    finished tricks (``"LEADER:CARD CARD CARD"`` each, in order, joined by ``|``)."""

    def names(cards) -> str:
        return " ".join(sorted(str(c) for c in cards))

    return [view.rules.trump.value, view.seat, view.players, view.leader, names(view.hand),
            " ".join(str(c) for c in view.trick), names(view.played), names(view.out),
            str(label), _encode_tricks(view.tricks)]  # fmt: skip


def _encode_tricks(tricks) -> str:
    return "|".join(f"{leader}:{' '.join(str(c) for c in cards)}" for leader, cards in tricks)


def decode_position(row: list) -> Position:
    """The :class:`Position` of :func:`encode_position`'s row (a row of nine fields, written
    before the tricks were: ``recorded`` false, no tricks)."""
    game, seat, players, leader, hand, trick, played, out, label, *rest = row

    def cards(text: str) -> tuple[Card, ...]:
        return tuple(Card.parse(c) for c in text.split())

    parts = (part.split(":") for part in rest[0].split("|") if part) if rest else ()
    tricks = tuple((int(first), cards(played_cards)) for first, played_cards in parts)
    view = SeatView(rules_of(Trump(game)), seat, players, frozenset(cards(hand)), cards(trick),
                    leader, frozenset(cards(played)), frozenset(cards(out)), tricks)  # fmt: skip
    return Position(view, Card.parse(label), bool(rest))


def add_tricks(header: dict, games: list[list], path: str | Path) -> list[list]:
    """``games`` (rows of the data file ``path`` of ``header``) with the finished tricks added
    to every row written without them: each such game played again by the header's behaviour
    player (its play repeats from the seed and the game's number) and its decisions matched
    to the rows, checked card for card.

    Raises:
        FileError: (naming ``path``) the behaviour plays from another model file than the
            one that played the games, or a game played again does not give the file's rows.
    """
    todo = [g for g, rows in enumerate(games) if any(len(row) < 10 for row in rows)]
    if not todo:
        return games
    behaviour = header.get("behaviour", BEHAVIOUR)
    if header.get("behaviour_model") != _behaviour_model(behaviour):
        raise FileError(f"{{data}} {path}: its rows lack the tricks, and the games cannot be "
                        f"played again: {behaviour} now plays another model file",
                        parameters=("data",))  # fmt: skip
    seed = int(header["seed"])
    done = list(games)
    with step(f"games of {Path(path).name} played again for their tricks", len(todo)) as task:
        for g in todo:
            replayed = replay_game(seed, g, behaviour)
            if len(replayed) != len(games[g]) or any(
                new[:8] != old[:8] for new, old in zip(replayed, games[g], strict=True)
            ):
                raise FileError(f"{{data}} {path}: game {g} played again does not give the "
                                "file's positions", parameters=("data",))  # fmt: skip
            done[g] = [[*old[:9], new[9]] for new, old in zip(replayed, games[g], strict=True)]
            task.advance()
    return done


def replay_game(seed: int, game: int, behaviour: str = BEHAVIOUR) -> list[list]:
    """The rows of :func:`label_game` without the teacher: each decision's row holds the card
    the behaviour player played in place of the label."""
    views: list[SeatView] = []
    players = (behaviour_player(behaviour),) * SEATS

    def watch(decision) -> None:
        if len(decision.legal) > 1:
            views.append(decision.view)

    _game(players, seed, game, 0, deal_cards(seed, game), watch)
    # the label field of a replayed row is not the teacher's: callers keep only the tricks
    return [encode_position(view, view.legal[0]) for view in views]


def _header(seed: int, worlds: int, behaviour: str = BEHAVIOUR) -> dict:
    """The data file's header: the seed, the teacher's worlds, the behaviour player and, when
    that player reads a model file, the file's SHA-256 (a changed model would play other
    games, whose positions must not be mixed with these)."""
    header = {"format": POSITIONS_FORMAT, "seed": seed, "worlds": worlds, "behaviour": behaviour}
    digest = _behaviour_model(behaviour)
    if digest is not None:
        header["behaviour_model"] = digest
    return header


def behaviour_player(behaviour: str) -> Player:
    """The match player ``behaviour`` names, to play the games whose positions are labelled.

    Raises:
        ParameterError: (naming ``behaviour``) not a match player, or an outside program,
            whose games could not be played again to the same positions.
    """
    from qcards.analysis.exec_player import EXEC
    from qcards.analysis.match_players import parse_player

    try:
        player = parse_player(behaviour)
    except ParameterError as exc:
        message = str(exc.args[0]).replace("{player}", "{behaviour}", 1)
        raise ParameterError("behaviour", message) from None
    if player.model == EXEC:
        raise ParameterError("behaviour", f"{{behaviour}} {behaviour!r}: an outside program "
                             "cannot play the games (they could not be played again)")  # fmt: skip
    return player


def _behaviour_model(behaviour: str) -> str | None:
    """The SHA-256 of the model file the behaviour player plays (``None``: it reads none)."""
    from qcards.analysis.match_players import LEARNED
    from qcards.skat.learned.network import model_file

    player = behaviour_player(behaviour)
    if player.theta_file is not None:
        path = Path(player.theta_file)
    elif player.model == LEARNED:
        path = model_file()
    else:
        return None
    return sha256_digest(path)


def read_positions(path: str | Path) -> tuple[dict, list[list]]:
    """The header and the games (each its rows of :func:`encode_position`, in the games'
    order) of a data file. A file written by a parallel run may hold a later game before an
    earlier one is done: only the games before the first missing one are returned (the others
    are labelled again on resuming, to the same rows).

    Raises:
        FileError: the file cannot be read or is not a positions file.
    """
    header, by_game = _read_games(path)
    games: list[list] = []
    while len(games) in by_game:
        games.append(by_game[len(games)])
    return header, games


def _read_games(path: str | Path) -> tuple[dict, dict[int, list]]:
    """The header and every game's rows of a data file, by game number."""
    return _parse_games(read_text(path, FileError, "the positions", DATA_BYTES), path)


def _parse_games(text: str, path: str | Path) -> tuple[dict, dict[int, list]]:
    """The header and every game's rows of the data file ``path`` holding ``text``."""
    lines = complete_lines(text)
    try:
        header = json.loads(lines[0]) if lines else None
        by_game = {}
        for number, line in enumerate(lines[1:]):
            if line.strip():
                entry = json.loads(line)
                by_game[int(entry.get("game", number))] = entry["positions"]
    except (json.JSONDecodeError, KeyError, TypeError, ValueError, AttributeError) as exc:
        raise FileError(f"{{data}} {path}: not a positions file ({exc})",
                        parameters=("data",)) from None  # fmt: skip
    if not isinstance(header, dict) or header.get("format") != POSITIONS_FORMAT:
        raise FileError(f"{{data}} {path}: not a positions file (no {POSITIONS_FORMAT} header)",
                        parameters=("data",))  # fmt: skip
    return header, by_game


def generate_positions(
    path: str | Path, games: int, worlds: int, seed: int, scheduler: str | None = None,
    behaviour: str = BEHAVIOUR,
) -> list[list]:  # fmt: skip
    """The labelled positions of ``games`` games (see the module), written to the data file
    ``path`` as each game is labelled; a file already there of the same seed and worlds is
    resumed (its games kept, the others played), of others refused. ``scheduler`` spreads the
    games over Dask workers (:func:`~qcards.execution.sweeps.sweep`; ``"local"``: every
    core), to the same rows: game ``i``'s play and labels come from the seed and ``i`` alone.
    The games are played by the match player ``behaviour`` (:func:`behaviour_player`).
    Returns every game's rows, in order."""
    path = Path(path)
    header = _header(seed, worlds, behaviour)
    done: dict[int, list] = {}
    text = None
    if path.exists():
        text = read_text(path, FileError, "the positions", DATA_BYTES)
        found, done = _parse_games(text, path)
        if found != header:
            raise ParameterError(
                "data", f"{{data}} {path} holds positions of {json.dumps(found)}, not of "
                f"{json.dumps(header)}: give another file or the same seed, worlds and behaviour",
            )  # fmt: skip
    start_lines(path, json.dumps(header), text)
    todo = [game for game in range(games) if game not in done]

    def keep(index: int, rows: list) -> None:
        done[todo[index]] = rows
        append_line(path, json.dumps({"game": todo[index], "positions": rows}))

    sweep(partial(label_game, seed, worlds, behaviour=behaviour), todo, scheduler,
          "games labelled by PIMC", on_result=keep)  # fmt: skip
    return [done[game] for game in range(games)]


def label_game(
    seed: int, worlds: int, game: int, behaviour: str = BEHAVIOUR, worlds_stream: int = 2
) -> list[list]:
    """Game ``game`` of ``seed`` played by the match player ``behaviour`` in every seat, and
    its positions with more than one legal card labelled by PIMC of ``worlds`` worlds (rows
    of :func:`encode_position`). ``worlds_stream`` picks the random stream of the teacher's
    sampled deals: another gives the same games labelled on other worlds (how often PIMC
    agrees with itself)."""
    rows: list[list] = []
    rng = np.random.default_rng([seed, game, worlds_stream])
    players = (behaviour_player(behaviour),) * SEATS
    teacher = Player(ADVERSARIAL, worlds)

    def label(decision) -> None:
        if len(decision.legal) > 1:
            card = search_card(teacher, decision.game, list(decision.history),
                               int(rng.integers(2**31)))  # fmt: skip
            rows.append(encode_position(decision.view, card))

    _game(players, seed, game, 0, deal_cards(seed, game), label)
    return rows


# ----------------------------------------------------------------------------- the network


def featurise(rows: list[list]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The positions' features padded to :data:`MAX_LEGAL` cards: ``x`` (positions, cards,
    features), ``mask`` (positions, cards) of the legal cards, ``y`` the label's index."""
    x = np.zeros((len(rows), MAX_LEGAL, NUM_FEATURES))
    mask = np.zeros((len(rows), MAX_LEGAL), dtype=bool)
    y = np.zeros(len(rows), dtype=np.int64)
    for i, row in enumerate(rows):
        position = decode_position(row)
        if not position.recorded:  # the features of who played what would read as nothing
            raise ValueError("a position without its finished tricks: add them (add_tricks)")
        legal = position.view.legal
        x[i, : len(legal)] = card_features(position.view, legal)
        mask[i, : len(legal)] = True
        y[i] = legal.index(position.label)
    return x, mask, y


def _init(layers: tuple[int, ...], rng: np.random.Generator) -> list[np.ndarray]:
    params = []
    for n_in, n_out in zip(layers[:-1], layers[1:], strict=True):
        params += [rng.normal(0.0, np.sqrt(2.0 / n_in), (n_in, n_out)), np.zeros(n_out)]
    return params


def as_network(params) -> Network:
    """The fitted ``params`` (``w0, b0, w1, b1, ...``) as a NumPy
    :class:`~qcards.skat.learned.network.Network` (temperature 1), played as a model file's."""
    return Network(tuple(np.asarray(w, np.float64) for w in params[0::2]),
                   tuple(np.asarray(b, np.float64) for b in params[1::2]), 1.0, {})  # fmt: skip


def agreement(params, x, mask, y) -> float:
    """The share of positions at which the network of ``params`` (``w0, b0, w1, b1, ...``,
    played by :class:`~qcards.skat.learned.network.Network`) puts the teacher's card on top."""
    if not len(y):
        return float("nan")
    n, k, f = x.shape
    net = as_network(params)
    scores = np.where(mask, net.scores(x.reshape(n * k, f)).reshape(n, k), -np.inf)
    return float(np.mean(scores.argmax(axis=1) == y))


def fit_network(
    x, mask, y, hidden: int, epochs: int, seed: int, checkpoint: str | Path | None = None,
    rate: float = 3e-3,
) -> tuple[list[np.ndarray], float, float]:  # fmt: skip
    """Adam (``optax.adam`` at ``rate``) on minibatches of :data:`BATCH` for ``epochs`` epochs
    of the mean cross-entropy of the labels ``y`` under the softmax of the scores over the
    legal cards (``mask``), from weights drawn with ``seed`` (two hidden layers of ``hidden``
    units), or from ``checkpoint`` when it holds a run of the same sizes, seed and rate (then
    only the epochs still to go). The state (parameters, Adam's moments, the shuffling
    generator) is written to ``checkpoint`` after each epoch, so a resumed run ends with the
    weights of an uninterrupted one. JAX computes in float32, its default. Returns the
    parameters (NumPy arrays ``w0, b0, w1, b1, ...``), the last epoch's loss and the agreement
    on ``x``.

    Raises:
        MissingExtraError: JAX or optax is not installed (the ``train`` extra).
    """  # fmt: skip
    require("train", "qcards train (fitting the learned model)")
    import jax
    import jax.numpy as jnp

    layers = (NUM_FEATURES, hidden, hidden, 1)

    def batch_loss(params, x, mask, y):
        h = forward(params, x.reshape(-1, x.shape[-1]))
        scores = jnp.where(mask, h.reshape(mask.shape), -jnp.inf)
        chosen = jnp.take_along_axis(jax.nn.log_softmax(scores, axis=1), y[:, None], axis=1)
        return -jnp.mean(chosen)

    params, loss = minimise(batch_loss, layers, (x, mask, y), epochs, seed, checkpoint, rate)
    return params, loss, agreement(params, x, mask, y)


def forward(params, x):
    """The outputs of the network of ``params`` (``w0, b0, w1, b1, ...``, JAX arrays) for the
    rows ``x``: ReLU between the layers, as :meth:`~qcards.skat.learned.network.Network.outputs`
    computes them in NumPy."""
    import jax

    h = x
    for i in range(0, len(params), 2):
        h = h @ params[i] + params[i + 1]
        if i < len(params) - 2:
            h = jax.nn.relu(h)
    return h


def minimise(
    batch_loss, layers: tuple[int, ...], data: tuple[np.ndarray, ...], epochs: int, seed: int,
    checkpoint: str | Path | None = None, rate: float = 3e-3, features: int | None = None,
) -> tuple[list[np.ndarray], float]:  # fmt: skip
    """Adam (``optax.adam`` at ``rate``) on minibatches of :data:`BATCH` rows of ``data``
    (arrays whose first axis is the row) for ``epochs`` epochs of ``batch_loss(params, *batch)``
    (a JAX function, its mean over the batch), from a network of ``layers`` (inputs first)
    drawn with ``seed``, or from ``checkpoint`` when it holds a run of the same sizes, seed,
    rows, rate and ``features`` (the inputs' version) at most ``epochs`` epochs in (then only
    the epochs still to go; a finished run's weights and last loss are returned as they
    were; a checkpoint further on is ignored). The
    state (parameters, Adam's moments, the shuffling generator) is written to ``checkpoint``
    after each epoch, so a resumed run ends with the weights of an uninterrupted one. JAX
    computes in float32, its default. Returns the parameters (NumPy arrays ``w0, b0, w1, b1,
    ...``) and the last epoch's loss.

    Raises:
        MissingExtraError: JAX or optax is not installed (the ``train`` extra).
    """
    require("train", "fitting a network")
    import jax
    import jax.numpy as jnp
    import optax

    rows = len(data[0])
    settings = {"layers": layers, "seed": seed, "positions": rows, "optimiser": "optax.adam",
                "rate": rate}  # fmt: skip
    if features is not None:
        settings["features"] = features
    config = np.array(json.dumps(settings))
    rng = np.random.default_rng([seed, 3])
    params = [jnp.asarray(q, jnp.float32) for q in _init(layers, rng)]
    optimiser = optax.adam(rate)
    state = optimiser.init(params)
    start, loss = 0, float("nan")
    if checkpoint is not None and Path(checkpoint).exists():
        with np.load(checkpoint, allow_pickle=False) as saved:
            # a checkpoint past the epochs asked for cannot go back: the run starts afresh
            if str(saved["config"]) == str(config) and int(saved["epoch"]) <= epochs:
                leaves, tree = jax.tree_util.tree_flatten((params, state))
                found = [jnp.asarray(saved[f"s{i}"]) for i in range(len(leaves))]
                params, state = jax.tree_util.tree_unflatten(tree, found)
                start = int(saved["epoch"])
                loss = float(saved["loss"])
                rng.bit_generator.state = json.loads(str(saved["rng"]))

    @jax.jit
    def update(params, state, *batch):
        value, grads = jax.value_and_grad(batch_loss)(params, *batch)
        updates, state = optimiser.update(grads, state, params)
        return optax.apply_updates(params, updates), state, value

    arrays = [jnp.asarray(a, jnp.float32) if a.dtype.kind == "f" else jnp.asarray(a) for a in data]
    with step("epochs of Adam", epochs) as task:
        task.advance(min(start, epochs))
        for epoch in range(start, epochs):
            order = rng.permutation(rows)
            losses = []
            for b in range(0, rows, BATCH):
                idx = order[b : b + BATCH]
                params, state, value = update(params, state, *(a[idx] for a in arrays))
                losses.append(value * len(idx))
            loss = float(sum(losses)) / max(rows, 1)
            if checkpoint is not None:
                leaves = jax.tree_util.tree_leaves((params, state))
                saved = {f"s{i}": np.asarray(q) for i, q in enumerate(leaves)}
                with atomic_path(checkpoint) as temporary, open(temporary, "wb") as f:
                    np.savez(f, config=config, epoch=epoch + 1, loss=loss,
                             rng=np.array(json.dumps(rng.bit_generator.state)),
                             **saved)  # fmt: skip
            task.advance()
    return [np.asarray(q) for q in params], loss


# ----------------------------------------------------------------------------- a run


def plan_training(games_to_label: int, worlds: int, positions: int, epochs: int,
                  force: bool = False, scheduler: str | None = None) -> Plan:  # fmt: skip
    """The plan of a run (see the module), checked against the time limit unless ``force``;
    the labelling spread over the cores with ``scheduler`` ``"local"``."""
    workers = CORES if scheduler == LOCAL else 1
    per_game = (LABEL_GAME_SECONDS + LABEL_WORLD_SECONDS * worlds) / workers
    per_epoch = EPOCH_POSITION_SECONDS * positions
    seconds = games_to_label * per_game + epochs * per_epoch
    fits = int(max(current_limits().seconds - epochs * per_epoch, 0) // per_game)
    return check(Plan(
        f"training on {games_to_label:,} games still to label and {epochs:,} epochs",
        seconds=seconds,
        size=f"about {per_game:.2g} s a game with PIMC of {worlds} worlds, "
        f"{per_epoch:.2g} s an epoch",
        time_fits=f"about {fits:,} games",
        ways=("fewer {games}", "fewer {worlds}"),
    ), force)  # fmt: skip


def train(
    out: str | Path,
    games: int,
    worlds: int = 5,
    epochs: int = 60,
    hidden: int = 64,
    seed: int = 0,
    data: str | Path | None = None,
    checkpoint: str | Path | None = None,
    temperature: float = 0.5,
    force: bool = False,
    scheduler: str | None = None,
    behaviour: str = BEHAVIOUR,
    also: tuple[str | Path, ...] = (),
) -> TrainResult:
    """Label ``games`` games' positions with PIMC of ``worlds`` worlds into ``data`` (default
    ``OUT.positions.jsonl``), fit the network for ``epochs`` epochs (state in ``checkpoint``,
    default ``OUT.checkpoint.npz``) and write the model to ``out`` (played at
    ``temperature``). Everything repeats from ``seed``; an interrupted run resumes.
    ``scheduler`` labels the games on Dask workers (``"local"``: every core), to the same rows.
    The games are played by the match player ``behaviour``; the positions of the data files
    ``also`` (of earlier runs, any seed, worlds or behaviour) are fitted too, every tenth
    game of each file held out as of ``data``: aggregating the positions of the model's own
    play (``behaviour="learned"``) with the earlier ones is DAgger (Ross, Gordon & Bagnell
    2011).

    Raises:
        ParameterError: a count below 1, a temperature not positive, a behaviour that is not
            a match player, or a data file of another seed, worlds or behaviour.
        FileError: a file of ``also`` cannot be read or is not a positions file.
        ResourceError: the plan is past the time limit (unless ``force``).
        MissingExtraError: JAX or optax is not installed (the ``train`` extra), raised
            before anything is labelled.
    """
    require("train", "qcards train (fitting the learned model)")
    for name, value in (("games", games), ("worlds", worlds), ("epochs", epochs),
                        ("hidden", hidden)):  # fmt: skip
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise ParameterError(name, f"{{{name}}} must be a positive integer, got {value!r}")
    if not temperature > 0:
        raise ParameterError("temperature", f"{{temperature}} must be positive, got {temperature}")
    out = Path(out)
    data = Path(data) if data is not None else out.with_suffix(".positions.jsonl")
    checkpoint = Path(checkpoint) if checkpoint is not None else out.with_suffix(".checkpoint.npz")
    behaviour_player(behaviour)  # a bad behaviour refused before anything is read
    earlier_files = [read_positions(path) for path in also]
    earlier = [add_tricks(header, games_of, path)
               for path, (header, games_of) in zip(also, earlier_files, strict=True)]  # fmt: skip
    labelled = sum(g < games for g in _read_games(data)[1]) if data.exists() else 0
    estimate = games * POSITIONS_A_GAME + sum(len(r) for f in earlier for r in f)
    plan_training(max(games - labelled, 0), worlds, estimate, epochs, force, scheduler)
    began = time.perf_counter()
    labelled_rows = generate_positions(data, games, worlds, seed, scheduler, behaviour)
    files = [add_tricks(_header(seed, worlds, behaviour), labelled_rows, data), *earlier]
    # every tenth game of each file held out
    fit_rows = [r for f in files for i, rows in enumerate(f) if i % 10 != 9 for r in rows]
    held_rows = [r for f in files for i, rows in enumerate(f) if i % 10 == 9 for r in rows]
    if not fit_rows:
        raise ParameterError("games", f"{games} game(s) gave no position to train on: more "
                             "{games}")  # fmt: skip
    x, mask, y = featurise(fit_rows)
    params, loss, agree = fit_network(x, mask, y, hidden, epochs, seed, checkpoint)
    held_agree = agreement(params, *featurise(held_rows)) if held_rows else float("nan")
    training = {
        "teacher": f"{ADVERSARIAL}:{worlds}", "behaviour": behaviour, "games": games,
        "also": [header for header, _ in earlier_files],
        "positions": len(fit_rows), "held_out_positions": len(held_rows), "seed": seed,
        "epochs": epochs, "hidden": hidden, "optimiser": "adam (jax, optax)",
        "train_agreement": agree, "held_out_agreement": held_agree,
    }  # fmt: skip
    with atomic_path(out) as temporary:
        save_network(temporary, params[0::2], params[1::2], temperature, training)
    seconds = time.perf_counter() - began
    return TrainResult(sum(len(f) for f in files), len(fit_rows) + len(held_rows), epochs,
                       loss, agree, held_agree, str(out), seconds)  # fmt: skip
