"""Training the hand evaluator (:mod:`qcards.skat.learned.hand_value`) on games qcards plays out.

Game ``i`` takes deal ``i`` of the seed (:func:`~qcards.analysis.match.deal_cards`) and gives
seat ``i mod 3`` the game: half the time the game the club rules would declare on its twelve
cards (:func:`~qcards.skat.rules.bidding_rules.declare`), else one of the six games drawn uniformly;
half the time the rules' discard for that game, else two of the twelve cards drawn uniformly
(so the network sees good and bad choices, the ones a bidder must tell apart). The ten tricks
are played by the ``heuristic`` model in every seat (:func:`~qcards.analysis.match._play`),
the outcome is the class of :data:`~qcards.skat.learned.hand_value.OUTCOMES` of the
declarer's points (the discard's included) and tricks.

The outcomes are written as they are made to a data file (JSON lines: a header, then one line
per :data:`CHUNK` games: the game, the discard, the declarer's points and tricks), so an
interrupted run resumes at the next chunk; the deals are not stored (the seed makes them).
The network (two hidden layers, softmax over the six classes, cross-entropy) is fitted with
:func:`~qcards.analysis.train.minimise` (JAX and optax, checkpointed after each epoch); every
tenth game is held out to report the log-loss and the accuracy of the won/lost verdict.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from qcards.analysis.match import SEATS, _play, deal_cards
from qcards.analysis.match_players import Player
from qcards.analysis.train import DATA_BYTES, as_network, forward, minimise
from qcards.errors import FileError, ParameterError
from qcards.execution.extras import require
from qcards.files import atomic_path, read_text, write_text
from qcards.plan import Plan, check, current_limits
from qcards.progress import track
from qcards.skat.learned.hand_value import (
    FEATURE_NAMES,
    GAMES,
    HAND,
    HAND_FEATURE_VERSION,
    OUTCOMES,
    WON,
    features,
    outcome_class,
    probabilities,
)
from qcards.skat.learned.network import save_network
from qcards.skat.rules import bidding_rules
from qcards.skat.rules.cards import Card, points

OUTCOMES_FORMAT = "qcards-hand-outcomes"
BEHAVIOUR = "heuristic"
"""The card player of every seat in the games played out."""
CHUNK = 500
"""Games a line of the data file holds (an interrupted run loses at most these)."""

# The cost model (CPU seconds): a game played out by three heuristic players, and an epoch of
# Adam a game (64 hidden units); the runs behind them are in benchmarks/results/bidding.md.
GAME_SECONDS = 0.012
EPOCH_GAME_SECONDS = 1e-5


@dataclass(frozen=True)
class BidderTrainResult:
    """A finished run: its games, epochs, last loss, the held-out log-loss and the held-out
    accuracy of the won/lost verdict, the model file and the CPU seconds."""

    games: int
    epochs: int
    loss: float
    held_out_loss: float
    held_out_accuracy: float
    out: str
    seconds: float


def play_out(seed: int, i: int) -> tuple[str, tuple[Card, Card], int, int]:
    """Game ``i`` of the data (see the module): its game, discard, and the declarer's card
    points (the discard's included) and tricks."""
    cards = deal_cards(seed, i)
    seat = i % SEATS
    hands = [list(h) for h in cards[:SEATS]]
    twelve = (*hands[seat], *cards[SEATS])
    rng = np.random.default_rng([seed, i, 4])
    game = bidding_rules.declare(twelve, 18)[0] if rng.random() < 0.5 else GAMES[rng.integers(6)]
    if rng.random() < 0.5:
        discard = bidding_rules.put_away(twelve, game)
    else:
        picks = rng.choice(len(twelve), size=2, replace=False)
        discard = tuple(twelve[int(k)] for k in sorted(picks))
    hands[seat] = [c for c in twelve if c not in discard]
    players = (Player(BEHAVIOUR),) * SEATS
    _tricks, (won_points, tricks) = _play(players, (0, 1, 2), hands, seat, game, discard,
                                          {"bid": 18}, rng)  # fmt: skip
    return game, (discard[0], discard[1]), won_points + points(discard), tricks


def _header(seed: int) -> dict:
    return {"format": OUTCOMES_FORMAT, "seed": seed, "behaviour": BEHAVIOUR, "chunk": CHUNK}


def read_outcomes(path: str | Path) -> tuple[dict, list[list]]:
    """The header and the games of an outcomes file (see the module)."""
    text = read_text(path, FileError, "the outcomes", DATA_BYTES)
    lines = [line for line in text.splitlines() if line.strip()]
    try:
        header = json.loads(lines[0]) if lines else {}
        games = [g for line in lines[1:] for g in json.loads(line)["games"]]
    except (json.JSONDecodeError, KeyError, TypeError) as exc:
        raise FileError(f"{{data}} {path}: not an outcomes file ({exc})",
                        parameters=("data",)) from None  # fmt: skip
    if not isinstance(header, dict) or header.get("format") != OUTCOMES_FORMAT:
        raise FileError(f"{{data}} {path}: not a {OUTCOMES_FORMAT} file", parameters=("data",))
    return header, games


def generate_outcomes(path: str | Path, games: int, seed: int) -> list[list]:
    """The outcomes of ``games`` games (see the module), written to ``path`` after every
    :data:`CHUNK`; a file of the same seed is resumed, of another refused."""
    path = Path(path)
    header = _header(seed)
    done: list[list] = []
    if path.exists():
        found, done = read_outcomes(path)
        if found != header:
            raise ParameterError(
                "data", f"{{data}} {path} holds outcomes of {json.dumps(found)}, not of "
                f"{json.dumps(header)}: give another file or the same seed",
            )  # fmt: skip
        done = done[: len(done) // CHUNK * CHUNK]
    lines = [json.dumps(header) + "\n"] + [
        json.dumps({"games": done[k : k + CHUNK]}) + "\n" for k in range(0, len(done), CHUNK)
    ]
    chunk: list[list] = []
    for i in track(range(len(done), games), "games played out", max(games - len(done), 0)):
        game, discard, declarer_points, tricks = play_out(seed, i)
        chunk.append([game, [str(c) for c in discard], declarer_points, tricks])
        if len(chunk) == CHUNK or i == games - 1:
            done += chunk
            lines.append(json.dumps({"games": chunk}) + "\n")
            write_text(path, "".join(lines))
            chunk = []
    return done[:games]


def featurise(seed: int, games: list[list], indices) -> tuple[np.ndarray, np.ndarray]:
    """The network's inputs and the outcome classes of the games at ``indices``."""
    rows, y = [], np.zeros(len(indices), dtype=np.int64)
    for k, i in enumerate(indices):
        game, discard, declarer_points, tricks = games[i]
        cards = deal_cards(seed, i)
        twelve = (*cards[i % SEATS], *cards[SEATS])
        away = tuple(Card.parse(c) for c in discard)
        rows.append((game, tuple(c for c in twelve if c not in away), away, i % SEATS))
        y[k] = outcome_class(game, declarer_points, tricks)
    return features(rows), y


def held_out(params, x: np.ndarray, y: np.ndarray) -> tuple[float, float]:
    """The mean log-loss of the classes ``y`` and the accuracy of the won/lost verdict (won:
    the won classes' probability above one half) of the network of ``params`` on ``x``."""
    if not len(y):
        return float("nan"), float("nan")
    p = probabilities(as_network(params), x)
    loss = float(-np.mean(np.log(np.maximum(p[np.arange(len(y)), y], 1e-12))))
    verdict = p[:, WON:].sum(axis=1) > 0.5
    return loss, float(np.mean(verdict == (y >= WON)))


def plan_bidder_training(games: int, epochs: int, force: bool = False) -> Plan:
    """The plan of a run (see the module), checked against the time limit unless ``force``."""
    per_epoch = EPOCH_GAME_SECONDS * games
    seconds = games * GAME_SECONDS + epochs * per_epoch
    fits = int(max(current_limits().seconds - epochs * per_epoch, 0) // GAME_SECONDS)
    return check(Plan(
        f"training the hand evaluator on {games:,} games still to play and {epochs:,} epochs",
        seconds=seconds,
        size=f"about {GAME_SECONDS:.2g} s a game played out, {per_epoch:.2g} s an epoch",
        time_fits=f"about {fits:,} games",
        ways=("fewer {games}",),
    ), force)  # fmt: skip


def train_bidder(
    out: str | Path,
    games: int = 60_000,
    epochs: int = 10,
    hidden: int = 32,
    seed: int = 0,
    data: str | Path | None = None,
    checkpoint: str | Path | None = None,
    force: bool = False,
) -> BidderTrainResult:
    """Play out ``games`` games into ``data`` (default ``OUT.outcomes.jsonl``), fit the hand
    evaluator for ``epochs`` epochs (state in ``checkpoint``, default ``OUT.checkpoint.npz``)
    and write it to ``out``. Everything repeats from ``seed``; an interrupted run resumes.

    Raises:
        ParameterError: a count below 1 (below 10 games: nothing to hold out), or a data file
            of another seed.
        ResourceError: the plan is past the time limit (unless ``force``).
        MissingExtraError: JAX or optax is not installed (the ``train`` extra), raised
            before anything is played.
    """
    require("train", "qcards train-bidder (fitting the hand evaluator)")
    import jax
    import jax.numpy as jnp

    for name, value, least in (("games", games, 10), ("epochs", epochs, 1),
                               ("hidden", hidden, 1)):  # fmt: skip
        if isinstance(value, bool) or not isinstance(value, int) or value < least:
            raise ParameterError(name, f"{{{name}}} must be an integer of at least {least}, "
                                 f"got {value!r}")  # fmt: skip
    out = Path(out)
    data = Path(data) if data is not None else out.with_suffix(".outcomes.jsonl")
    checkpoint = Path(checkpoint) if checkpoint is not None else out.with_suffix(".checkpoint.npz")
    played = len(read_outcomes(data)[1]) if data.exists() else 0
    plan_bidder_training(max(games - played, 0), epochs, force)
    began = time.process_time()
    outcomes = generate_outcomes(data, games, seed)
    fit = [i for i in range(games) if i % 10 != 9]
    held = [i for i in range(games) if i % 10 == 9]
    x, y = featurise(seed, outcomes, fit)

    def batch_loss(params, x, y):
        logp = jax.nn.log_softmax(forward(params, x), axis=1)
        return -jnp.mean(jnp.take_along_axis(logp, y[:, None], axis=1))

    layers = (len(FEATURE_NAMES), hidden, hidden, len(OUTCOMES))
    params, loss = minimise(batch_loss, layers, (x, y), epochs, seed, checkpoint,
                            features=HAND_FEATURE_VERSION)  # fmt: skip
    held_loss, accuracy = held_out(params, *featurise(seed, outcomes, held))
    training = {
        "behaviour": BEHAVIOUR, "games": games, "seed": seed, "epochs": epochs,
        "hidden": hidden, "optimiser": "adam (jax, optax)", "loss": loss,
        "held_out_games": len(held), "held_out_loss": held_loss,
        "held_out_accuracy": accuracy,
    }  # fmt: skip
    with atomic_path(out) as temporary:
        save_network(temporary, params[0::2], params[1::2], 1.0, training, HAND)
    return BidderTrainResult(games, epochs, loss, held_loss, accuracy, str(out),
                             time.process_time() - began)  # fmt: skip
