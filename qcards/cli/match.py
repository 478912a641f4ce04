"""``qcards match --player MODEL ... --deals N``: complete games between three players on
duplicate deals, Seeger-Fabian points per game with paired 95% intervals."""

from __future__ import annotations

from qcards.cli.commands import SUMMARIES
from qcards.cli.common import (
    dask_argument,
    force_argument,
    json_argument,
    print_json,
    print_table,
)


def add_parser(sub) -> None:
    p = sub.add_parser(
        "match",
        help=SUMMARIES["match"],
    )
    p.add_argument(
        "--player", action="append", metavar="MODEL[:WORLDS[:BELIEFS]]|exec:COMMAND", default=None,
        help="a player, three times in seat order of the first rotation: random, heuristic, "
        "softmax, softmax:FILE (the parameters of 'qcards fit --json'), "
        "adversarial[:WORLDS[:BELIEFS]] (PIMC, WORLDS sampled deals a card, default 10; "
        "BELIEFS weigh the deals by the plays: random, the default, voids for the voids alone, "
        "or a play model such as heuristic for its likelihood), or "
        "best-response[:WORLDS[:BELIEFS]] (the declarer's exact best response to opponents "
        "who play the BELIEFS model in the last tricks, PIMC before), or exec:COMMAND (an "
        "outside program answering qcards' JSON-lines protocol on its stdin and stdout, "
        "docs/how-to/matches.md), or openspiel-ismcts:ITERATIONS (OpenSpiel's information-"
        "set MCTS, ITERATIONS simulations a card) or openspiel-mcts:ITERATIONS (determinized "
        "MCTS on 5 sampled deals), both the openspiel extra; default: "
        "adversarial:10, heuristic, heuristic",
    )  # fmt: skip
    p.add_argument(
        "--bidding", action="append", choices=("rules", "qcards"), default=None,
        help="how the players bid and declare: once for all, or three times (one for each "
        "--player in turn): rules (the club rules, the default: a match compares card play) or "
        "qcards (the hand evaluator's expected score, Hand games included)",
    )  # fmt: skip
    p.add_argument("--deals", type=int, default=10, help="deals, each played three times")
    p.add_argument("--seed", type=int, default=0, help="the seed of the deals and the play")
    p.add_argument(
        "--records", metavar="DIR",
        help="write every game's record into DIR (refused if DIR holds a record it would write)",
    )  # fmt: skip
    p.add_argument(
        "--resume", metavar="FILE",
        help="a journal: each deal's games written to FILE as it ends, and the deals already "
        "there not played again (an interrupted match run again with it ends as an "
        "uninterrupted one; a journal of other players, seed or model files is refused)",
    )  # fmt: skip
    dask_argument(p)
    force_argument(p)
    json_argument(p)
    p.set_defaults(run=run)


def run(args) -> int:
    from qcards.analysis.match import match

    players = args.player or ["adversarial:10", "heuristic", "heuristic"]
    result = match(players, args.deals, args.seed, args.records, args.dask, args.force,
                   args.bidding, args.resume)  # fmt: skip
    if args.json:
        print_json(result.to_json())
        return 0
    data = result.to_json()
    print_table(
        ["player", "model", "Seeger-Fabian a game", "95% interval"],
        [[f"P{r['player']}", r["model"], r["mean"], _interval(r["ci"])]
         for r in data["seeger_fabian_per_game"]],
    )  # fmt: skip
    print()
    print_table(
        ["difference", "a game", "95% interval (paired by deal)"],
        [[f"P{i} - P{j}", d["mean"], _interval(d["ci"])]
         for d in data["differences"] for i, j in [d["players"]]],
    )  # fmt: skip
    played = data["played"]
    print(
        f"{data['games']} games on {args.deals} deals (each dealt three times, the players "
        f"rotated), {played} played, {data['games'] - played} passed; seed {args.seed}"
        + (f"; records in {args.records}" if args.records else "")
    )
    return 0


def _interval(pair) -> str:
    return f"[{pair[0]:.1f}, {pair[1]:.1f}]"
