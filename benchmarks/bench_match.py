"""Matches (issue 39, item 7): the play models against each other, and games an hour.

Run ``python benchmarks/bench_match.py [--deals 30] [--worlds 10] [--seed 1]``.

Each model sits in one seat against two ``heuristic`` players (or two ``--opponent``), rotated
through the seats, on the same ``--deals`` duplicate deals (the same seed for every row, so the
same cards): its Seeger-Fabian points a game, the opponents' beside it, and the paired
difference with its 95% interval. The rows: the paper's random play (``random``), the default
``softmax`` policy, and PIMC under three beliefs about the deal
(:mod:`qcards.skat.players.beliefs`): weighed by the random-play likelihood of the plays
(``adversarial:WORLDS``), by the voids alone (``adversarial:WORLDS:voids``) and by the heuristic's
likelihood of the plays, the model the opponents really play (``adversarial:WORLDS:heuristic``); the
softmax policy with the parameters ``qcards fit`` found on the full-game example (``--theta``,
default
``benchmarks/results/fit-full-game.json``, written by ``qcards fit qcards/specs/full-game.toml
--shots 300 --rounds 2 --maxiter 25 --seed 1 --json``); and the declarer's exact best response
to heuristic opponents in the last four tricks, PIMC with heuristic beliefs before
(``best-response:WORLDS:heuristic``). A ``heuristic`` row against itself is the control (its
difference must be 0 within the interval). Games an hour are measured for every row (one run:
the match itself is the median of many games). Target: at least 1,000 games an hour on 2 cores
for PIMC against heuristic. Results go to ``benchmarks/results/match.md``
(``--searchers-only``: the four searching rows alone, for a run on more deals, to
``benchmarks/results/match-searchers.md``).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import platform
import re
import sys
import time
from datetime import UTC, datetime
from pathlib import Path

import numpy as np

from qcards.analysis.match import match
from qcards.files import complete_lines

HERE = Path(__file__).resolve().parent


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=30)
    parser.add_argument("--worlds", type=int, default=10)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--theta", default=str(HERE / "results" / "fit-full-game.json"))
    parser.add_argument(
        "--models",
        help="comma-separated players to run instead of the default rows "
        "(WORLDS in a name stands for --worlds), e.g. adversarial:WORLDS:heuristic",
    )
    parser.add_argument(
        "--searchers-only", action="store_true",
        help="only the PIMC and best-response rows (for a run on more deals), written to "
        "results/match-searchers.md",
    )  # fmt: skip
    parser.add_argument(
        "--opponent", default="heuristic",
        help="the two opponents of every row (default heuristic; e.g. adversarial:10)",
    )  # fmt: skip
    parser.add_argument("--dask", help="a Dask scheduler for the deals ('local': every core)")
    parser.add_argument(
        "--resume", metavar="DIR",
        help="keep each row's finished deals in a match journal under DIR and resume from it "
        "(a row stopped by a session's end goes on where it stopped)",
    )  # fmt: skip
    parser.add_argument(
        "--out", help="the results file's name under results/ (default match.md, or "
        "match-searchers.md with --searchers-only)",
    )  # fmt: skip
    args = parser.parse_args()
    pimc = f"adversarial:{args.worlds}"
    models = ["heuristic", "random", "softmax", f"softmax:{args.theta}", pimc, f"{pimc}:voids",
              f"{pimc}:heuristic", f"best-response:{args.worlds}:heuristic"]  # fmt: skip
    if args.searchers_only:
        models = [m for m in models if m.startswith(("adversarial", "best-response"))]
    if args.models:
        models = [m.replace("WORLDS", str(args.worlds)) for m in args.models.split(",")]
    rows = []
    for model in models:
        load = os.getloadavg()[0]
        start = time.perf_counter()
        # a benchmark runs as long as it takes: the plan is not a limit here
        journal = None
        if args.resume:
            slug = re.sub(r"[^A-Za-z0-9.-]+", "_", f"{model}-vs-{args.opponent}-seed{args.seed}")
            journal = Path(args.resume) / f"{slug}.jsonl"
        # games an hour count only the deals this run plays (a resumed row's others are kept)
        kept = _kept_deals(journal, args.deals) if journal and journal.exists() else 0
        fresh = 3 * (args.deals - kept)
        result = match([model, args.opponent, args.opponent], args.deals, args.seed,
                       scheduler=args.dask, force=True, resume=journal)  # fmt: skip
        seconds = time.perf_counter() - start
        (mine, ci), (other, _), (third, _) = result.means()
        per_game = result.per_deal() / 3
        diff = per_game[:, 0] - (per_game[:, 1] + per_game[:, 2]) / 2
        half = 1.96 * diff.std(ddof=1) / math.sqrt(len(diff))
        games = len(result.games)
        name = model.replace(args.theta, Path(args.theta).name)
        row = (
            f"| `{name}` | {mine:.1f} [{ci[0]:.1f}, {ci[1]:.1f}] | {other:.1f}, {third:.1f} | "
            f"{diff.mean():+.1f} [{diff.mean() - half:+.1f}, {diff.mean() + half:+.1f}] "
            f"| {games} | {_rate(fresh, seconds)} | {load:.1f} |"
        )
        rows.append(row)
        print(row, flush=True)
        _keep(name, args, diff)
    lines = [
        f"# Matches: each model against two {args.opponent} players",
        "",
        f"{datetime.now(UTC):%Y-%m-%d %H:%M} UTC, {platform.processor() or platform.machine()}, "
        f"Python {platform.python_version()}; {args.deals} duplicate deals from seed "
        f"{args.seed} (each played three times, the players rotated), the same deals in every "
        f"row; PIMC on {args.worlds} worlds a card. Generated by "
        "`python benchmarks/bench_match.py`.",
        "",
        "Seeger-Fabian points a game, 95% intervals over the deals; the difference is the "
        f"model's points minus the mean of the two {args.opponent} players', paired by deal.",
        "",
        f"| model | its points a game | the {args.opponent} players' | difference to "
        f"{args.opponent} | "
        "games | games an hour | load |",
        "|---|---|---|---|---|---|---|",
        *rows,
        "",
        *_paired_table(args),
    ]
    default = "match-searchers.md" if args.searchers_only else "match.md"
    out = HERE / "results" / (args.out or default)
    out.write_text("\n".join(lines))
    print(f"wrote {out}")
    return 0


def _kept_deals(journal: Path, deals: int) -> int:
    """The deals below ``deals`` a journal holds (its complete lines after the header)."""
    lines = complete_lines(journal.read_text())[1:]
    return len({d for d in (json.loads(line)["deal"] for line in lines if line) if d < deals})


def _rate(games: int, seconds: float) -> str:
    """Games an hour of the deals a run played, or a dash when the journal held them all."""
    return f"{games / seconds * 3600:,.0f}" if games else "-"


DEALS_FILE = HERE / "results" / "match-deals.json"
"""Each row's per-deal differences to the heuristic players, by deals and seed, kept across
runs: rows measured in different runs on the same deals are compared deal by deal."""


def _deals_key(args: argparse.Namespace) -> str:
    """The deals file's key of a run: its deals and seed, and its opponents unless heuristic."""
    key = f"{args.deals} deals, seed {args.seed}"
    return key if args.opponent == "heuristic" else f"{key}, against {args.opponent}"


def _keep(name: str, args: argparse.Namespace, diff) -> None:
    kept = json.loads(DEALS_FILE.read_text()) if DEALS_FILE.exists() else {}
    kept.setdefault(_deals_key(args), {})[name] = [round(float(d), 6) for d in diff]
    DEALS_FILE.write_text(json.dumps(kept, indent=1, sort_keys=True) + "\n")


def _paired_table(args: argparse.Namespace) -> list[str]:
    """Every kept row on these deals against the PIMC row with random-play beliefs: the mean
    difference of their differences to heuristic, paired by deal, with its 95% interval (the
    deals' luck cancels, so the interval is narrower than either row's)."""
    kept = json.loads(DEALS_FILE.read_text()).get(_deals_key(args), {})
    base = f"adversarial:{args.worlds}"
    if base not in kept or len(kept) < 2:
        return []
    lines = [
        f"Against `{base}` on the same deals (rows from this and earlier runs, "
        f"`{DEALS_FILE.relative_to(HERE.parent)}`), paired by deal:",
        "",
        f"| model | minus `{base}` |",
        "|---|---|",
    ]
    for name, values in sorted(kept.items()):
        if name == base:
            continue
        d = np.array(values) - np.array(kept[base])
        half = 1.96 * d.std(ddof=1) / math.sqrt(len(d))
        lines.append(
            f"| `{name}` | {d.mean():+.1f} [{d.mean() - half:+.1f}, {d.mean() + half:+.1f}] |"
        )
    return [*lines, ""]


if __name__ == "__main__":
    sys.exit(main())
