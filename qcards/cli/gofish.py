"""``qcards gofish``: Quantum Go Fish. ``replay FILE`` checks a game record move by move,
``play`` plays in the terminal (humans against bots, or hot-seat), ``tournament`` runs a bot
league."""

from __future__ import annotations

from typing import TypedDict

from qcards.cli.commands import SUMMARIES
from qcards.cli.common import (
    estimation_arguments,
    estimation_options,
    force_argument,
    json_argument,
    print_json,
    print_record,
    print_table,
)
from qcards.games.gofish import Move, load_record, replay
from qcards.games.gofish.bots import BOT_KINDS, DEFAULT_DEPTH
from qcards.games.gofish.errors import RuleError
from qcards.games.gofish.game import variant_names
from qcards.games.gofish.quantum import KINDS, count_with_circuit, record_constraints
from qcards.games.gofish.solve import solve
from qcards.games.gofish.terminal import play_game
from qcards.games.gofish.tournament import DEFAULT_MAX_MOVES, League, tournament
from qcards.progress import step


def add_parser(sub) -> None:
    p = sub.add_parser("gofish", help=SUMMARIES["gofish"])
    actions = p.add_subparsers(dest="action", required=True, parser_class=type(p))
    r = actions.add_parser(
        "replay",
        help="replay a record: which answers were free or forced, who won, what each hand holds",
    )
    r.add_argument("file", help="game record (a 'players' line, then 'A asks B for SUIT: yes|no')")
    _variants(r)
    json_argument(r)
    r.set_defaults(run=run_replay)

    g = actions.add_parser("play", help="play in the terminal: humans against bots, or hot-seat")
    _game_options(g, "--bot", "the bots' strategy (default: %(default)s)", "greedy", "the bots")
    g.add_argument(
        "--bots",
        type=int,
        default=None,
        help="seats played by bots, the last ones (default: all but the first)",
    )
    g.add_argument("--names", nargs="+", metavar="NAME", help="all players' names in seat order")
    g.add_argument("--hints", action="store_true", help="show hints before every decision")
    g.add_argument("--record", metavar="FILE", help="save the game as a record (even unfinished)")
    g.set_defaults(run=run_play)

    t = actions.add_parser("tournament", help="bot league: win rates over seeded games")
    bots_help = "bot kinds, comma-separated (default: %(default)s)"
    _game_options(t, "--bots", bots_help, ",".join(BOT_KINDS), "the league")
    t.add_argument("--games", type=int, default=20, help="games per seating (default: %(default)s)")
    t.add_argument(
        "--max-moves",
        type=int,
        default=DEFAULT_MAX_MOVES,
        help="a game still going after this many moves is a draw (default: %(default)s)",
    )
    json_argument(t)
    force_argument(t)
    t.set_defaults(run=run_tournament)

    v = actions.add_parser(
        "solve", help="who can force a win under optimal play (2 or 3 players, exact)"
    )
    v.add_argument("--players", type=int, default=2, help="2 or 3 (default: %(default)s)")
    _no_four(v)
    _playing_on(v)
    json_argument(v)
    v.set_defaults(run=run_solve)

    c = actions.add_parser(
        "count",
        help="the deals consistent with a record as a quantum state, counted by amplitude "
        "estimation beside the exact count",
    )
    c.add_argument("file", help="game record")
    _variants(c)
    c.add_argument(
        "--kind",
        choices=KINDS,
        default="hands",
        help="hands: count matrices (the game's states); cards: deals of the physical cards",
    )
    estimation_arguments(c, epsilon=0.002)
    json_argument(c)
    c.set_defaults(run=run_count)


def _no_four(parser) -> None:
    parser.add_argument(
        "--no-four",
        action="store_true",
        help="variant: no hand may start with four cards of one suit",
    )


def _variants(parser) -> None:
    """``--no-four``, ``--lose-a-turn`` and ``--playing-on``."""
    _no_four(parser)
    parser.add_argument(
        "--lose-a-turn",
        action="store_true",
        help="variant: a paradoxical answer is refused and its author sits out a turn",
    )
    _playing_on(parser)


def _playing_on(parser) -> None:
    parser.add_argument(
        "--playing-on",
        action="store_true",
        help="variant: fours are laid down, the only win is running out of cards "
        "(implies --no-four)",
    )


class _Variants(TypedDict):
    no_four: bool
    lose_a_turn: bool
    playing_on: bool


def _variant_options(args) -> _Variants:
    """The variant flags as keyword arguments of the game."""
    return {
        "no_four": args.no_four,
        "lose_a_turn": args.lose_a_turn,
        "playing_on": args.playing_on,
    }


def _variants_text(league: League) -> str:
    """`` (no-four, playing-on)`` for the variants a league played, or nothing."""
    names = variant_names(
        {
            "no_four": league.no_four,
            "lose_a_turn": league.lose_a_turn,
            "playing_on": league.playing_on,
        }
    )
    return f" ({', '.join(names)})" if names else ""


def _game_options(parser, flag: str, text: str, default: str, seeded: str) -> None:
    """Options shared by ``play`` and ``tournament``: seats, bots, search depth, seed, variant."""
    parser.add_argument("--players", type=int, default=3, help="seats, 2 to 8 (default: 3)")
    parser.add_argument(flag, default=default, help=text)
    parser.add_argument(
        "--depth",
        type=int,
        default=DEFAULT_DEPTH,
        help="turns the search bot looks ahead, counting the current one (default: %(default)s)",
    )
    parser.add_argument("--seed", type=int, default=0, help=f"seed of {seeded} (default: 0)")
    _variants(parser)


def run_play(args) -> int:
    play_game(
        players=args.players,
        bots=args.bots,
        bot=args.bot,
        seed=args.seed,
        names=args.names,
        **_variant_options(args),
        show_hints=args.hints,
        record=args.record,
        depth=args.depth,
    )
    return 0


def run_tournament(args) -> int:
    league = tournament(
        players=args.players,
        games=args.games,
        bots=[b.strip() for b in args.bots.split(",")],
        seed=args.seed,
        **_variant_options(args),
        max_moves=args.max_moves,
        depth=args.depth,
        force=args.force,
    )
    if args.json:
        print_json(league.to_json())
        return 0
    print_table(
        ["bot", "seats", "wins", "shared", "win rate", "stderr", "paradoxes", "unfinished"],
        [
            (
                s.bot,
                s.seats,
                s.wins,
                s.shared,
                f"{s.win_rate:.3f}",
                f"{s.stderr:.3f}",
                s.paradoxes,
                s.unfinished,
            )
            for s in league.standings
        ],
    )
    print(
        f"\n{league.games} games ({len(league.seatings)} seating(s) x {league.games_per_seating}), "
        f"{league.players} players{_variants_text(league)}, seed {league.seed}: "
        f"mean length {league.mean_moves:.2f} "
        f"+- {league.moves_stderr:.2f} moves, {league.unfinished} unfinished "
        f"(cap {league.max_moves}), {league.paradoxes} paradoxes, {league.seconds:.1f} s"
    )
    print(f"wins by seat (first asker first): {' '.join(map(str, league.seat_wins))}")
    return 0


def run_replay(args) -> int:
    result = replay(load_record(args.file), **_variant_options(args))
    if args.json:
        print_json(result.to_json())
        return 0
    print_table(
        ["line", "move", "answer", "allowed", "note"],
        [
            (
                line,
                f"{m.asker} asks {m.target} for {m.suit}",
                m.answer,
                "/".join(m.allowed),
                _note(m),
            )
            for line, m in zip(result.lines, result.moves, strict=True)
        ],
    )
    print(f"\nresult: {result.outcome.describe()}")
    if result.ignored:
        lines = ", ".join(map(str, result.ignored))
        print(f"ignored after the end: {len(result.ignored)} move(s), lines {lines}")
    print()
    print_table(
        ["player", "size", "known", "excluded", "unknown"],
        [
            (
                name,
                h.size,
                " ".join(f"{suit}={count}" for suit, count in h.known.items()) or None,
                " ".join(h.excluded) or None,
                h.unknown,
            )
            for name, h in result.hands.items()
        ],
    )
    return 0


def _note(move: Move) -> str:
    """The note column of a replayed move: paradox, refused or forced, and any lay-downs."""
    if move.paradox:
        return "paradox"
    notes = []
    if move.refused:
        notes.append(f"refused: {move.applied} applied, {move.target} sits out a turn")
    elif move.forced:
        notes.append("forced")
    notes += [f"{player} lays down {suit}" for player, suit in move.laid_down]
    return "; ".join(notes)


def run_solve(args) -> int:
    if args.players not in (2, 3):
        raise RuleError(
            f"--players {args.players}: the exact solution is computed for 2 or 3 players "
            "(4 players have too many positions)"
        )
    with step(f"gofish solve: every position of {args.players} players"):
        solution = solve(args.players, args.no_four, playing_on=args.playing_on)
    if args.json:
        print_json(solution.to_json())
        return 0
    print_table(
        ["team (seats)", "can force a win", "turns needed", "positions won"],
        [
            ("+".join(str(s + 1) for s in t.team), t.forced, t.turns or "-", f"{t.share:.3f}")
            for t in solution.teams
        ],
    )
    print(
        f"\n{solution.players} players{_solved_variants(solution)}: "
        f"{solution.initial_deals} initial deals, {solution.positions} positions. "
        f"{solution.verdict}."
    )
    return 0


def run_count(args) -> int:
    constraints = record_constraints(load_record(args.file), **_variant_options(args))
    result = count_with_circuit(constraints, args.kind, estimation_options(args))
    data = result.to_json()
    if not args.json:
        data["ci"] = f"[{data['ci'][0]:.3f}, {data['ci'][1]:.3f}]"
    print_record(data, args.json)
    return 0


def _solved_variants(solution) -> str:
    names = [
        n for n, on in (("no-four", solution.no_four), ("playing-on", solution.playing_on)) if on
    ]
    return f" ({', '.join(names)})" if names else ""
