"""``qcards qgo``: Quantum Go, a record replayed (``replay``) or a terminal game (``play``)."""

from __future__ import annotations

import sys

from qcards.cli.commands import SUMMARIES
from qcards.cli.common import json_argument, print_json
from qcards.files import write_text
from qcards.games.qgo.board import Colour
from qcards.games.qgo.bots import SimpleBot
from qcards.games.qgo.game import QuantumGo
from qcards.games.qgo.record import load_record, replay, summary, write_record
from qcards.games.qgo.rules import VARIANTS, Rules
from qcards.games.qgo.sgf import to_sgf
from qcards.games.qgo.terminal import Human, draw, play_terminal

BOT_SIDES = ("white", "black", "both", "none")


def add_parser(sub) -> None:
    p = sub.add_parser("qgo", help=SUMMARIES["qgo"])
    qgo = p.add_subparsers(dest="qgo_command", metavar="{replay,play}", required=True)

    r = qgo.add_parser("replay", help="check a game record against the rules and score it")
    r.add_argument("record", help="game record (text; see the README)")
    r.add_argument("--sgf", metavar="FILE", help="also write the game as SGF")
    json_argument(r)
    r.set_defaults(run=run_replay)

    g = qgo.add_parser("play", help="play in the terminal, against the bot or hot-seat")
    g.add_argument("--size", type=int, default=19, help="board size (default: %(default)s)")
    g.add_argument("--komi", type=float, default=0.0, help="added to White (default: 0)")
    g.add_argument(
        "--variant",
        action="append",
        default=[],
        choices=VARIANTS,
        help="a variant from the paper (repeatable)",
    )
    g.add_argument(
        "--bot",
        choices=BOT_SIDES,
        default="white",
        help="the colour the bot plays; 'none' for two humans (default: %(default)s)",
    )
    g.add_argument("--seed", type=int, default=0, help="seed of the bot")
    g.add_argument("--sgf", metavar="FILE", help="save the finished game as SGF")
    g.add_argument("--record", metavar="FILE", help="save the finished game as a record")
    g.set_defaults(run=run_play)


def _save(game: QuantumGo, sgf: str | None, record: str | None) -> None:
    if sgf:
        write_text(sgf, to_sgf(game))
    if record:
        write_text(record, write_record(game))


def run_replay(args) -> int:
    game = replay(load_record(args.record))
    _save(game, args.sgf, None)
    data = summary(game)
    if args.json:
        print_json(data)
        return 0
    print(draw(game))
    state = "finished" if game.finished else "not finished"
    score = data["score"]
    print(
        f"{data['moves']} moves, {state}: Black {score['black']}, White {score['white']} "
        f"(komi {game.rules.komi:g}): {data['result']}"
    )
    return 0


def run_play(args) -> int:
    inp, out = sys.stdin, sys.stdout
    game = QuantumGo(Rules.from_variants(args.size, args.komi, args.variant))
    bots = {"white": (Colour.WHITE,), "black": (Colour.BLACK,), "both": tuple(Colour)}
    players = {
        c: SimpleBot(c, args.seed + i) if c in bots.get(args.bot, ()) else Human(c, inp, out)
        for i, c in enumerate(Colour)
    }
    play_terminal(game, players, out, lambda g: _save(g, args.sgf, args.record))
    return 0
