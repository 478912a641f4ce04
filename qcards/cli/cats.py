"""``qcards cats``: Philosopher Cats, one hand deduced (``deduce``) or a study (``simulate``)."""

from __future__ import annotations

from qcards.cli.commands import SUMMARIES
from qcards.cli.common import force_argument, json_argument, print_json, print_table
from qcards.files import figure_format
from qcards.games.cats.cards import COLOURS, Colour, parse_cards
from qcards.games.cats.referee import play
from qcards.games.cats.simulate import DEALERS, Estimate, Noise, simulate


def add_parser(sub) -> None:
    p = sub.add_parser("cats", help=SUMMARIES["cats"])
    cats = p.add_subparsers(dest="cats_command", metavar="{deduce,simulate}", required=True)

    d = cats.add_parser(
        "deduce", help="play one hand with perfect logicians: rounds, guesses and points"
    )
    d.add_argument(
        "--cards",
        nargs="+",
        required=True,
        metavar="CARD",
        help="one card per player in seat order, e.g. 7H AS 10D JOKER",
    )
    d.add_argument(
        "--call", required=True, choices=[c.value for c in COLOURS],
        help="the colour the dealer calls",
    )  # fmt: skip
    json_argument(d)
    d.set_defaults(run=run_deduce)

    s = cats.add_parser(
        "simulate", help="random deals with late or rash players; dealer strategies compared"
    )
    s.add_argument("--players", type=int, required=True, help="players besides the dealer")
    s.add_argument(
        "--rounds", "--hands", dest="hands", type=int, required=True, help="hands (deals) to play"
    )
    s.add_argument("--dealer", choices=tuple(DEALERS), help="one strategy (default: compare all)")
    s.add_argument(
        "--noise",
        default="late=0.1,rash=0.05",
        help="late=Q,rash=E: per player and hand, Q = probability of guessing one round late, "
        "E = probability of guessing at random in round 1; 'none' for perfect players "
        "(default: %(default)s)",
    )
    s.add_argument("--seed", type=int, default=0, help="seed of the random deals")
    s.add_argument("--plot", metavar="FILE", help="save a bar chart of the points (PNG)")
    json_argument(s)
    force_argument(s)
    s.set_defaults(run=run_simulate)


def _players(indices) -> str:
    return ", ".join(str(i + 1) for i in indices) or "-"


def run_deduce(args) -> int:
    hand = play(parse_cards(args.cards), Colour(args.call))
    if args.json:
        print_json(hand.to_json())
        return 0
    print(f"The dealer: at least one of you cats is {hand.call.value}!\n")
    print_table(
        ["round", "guessing players", "worlds left"],
        [(r.number, _players(r.guessers), r.worlds_left) for r in hand.deduction.rounds],
    )
    print()
    rows = zip(
        hand.cards,
        hand.colours,
        hand.deduction.guesses,
        hand.score.bonus,
        hand.score.points,
        strict=True,
    )
    print_table(
        ["player", "card", "colour", "round", "guess", "bonus", "points"],
        [
            (p, card, colour.value, g.round, g.colour.value, bonus, points)
            for p, (card, colour, g, bonus, points) in enumerate(rows, start=1)
        ],
    )
    print(f"\ndealer points: {hand.score.dealer_points}")
    return 0


def _estimate(e: Estimate) -> str:
    return f"{e.mean:.3f}" if e.se is None else f"{e.mean:.3f} ± {e.se:.3f}"


def run_simulate(args) -> int:
    dealers = (args.dealer,) if args.dealer else tuple(DEALERS)
    if args.plot:
        figure_format(args.plot, "plot")  # before the study, not after it
    noise = Noise.parse(args.noise)
    study = simulate(args.players, args.hands, dealers, noise, args.seed, force=args.force)
    if args.plot:
        from qcards.games.cats.plot import save_strategy_figure  # matplotlib only when asked

        save_strategy_figure(study, args.plot)
    if args.json:
        print_json(study.to_json())
        return 0
    print(
        f"{study.players} players, {study.hands} hands, seed {study.seed}, "
        f"late={study.noise.late}, rash={study.noise.rash}; means per hand ± 1 s.e.\n"
    )
    print_table(
        ["dealer", "dealer points", "player points", "correct", "rounds"],
        [
            (
                r.dealer,
                *(_estimate(e) for e in (r.dealer_points, r.player_points, r.correct, r.rounds)),
            )
            for r in study.results
        ],
    )
    for d in study.differences:
        print(
            f"dealer points, {d.dealer} minus {d.baseline} on the same hands: "
            f"{_estimate(d.dealer_points)} (paired)"
        )
    return 0
