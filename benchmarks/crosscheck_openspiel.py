"""qcards' rules against OpenSpiel's ``skat`` on many random complete games (issue 41 item 5).

Run ``python benchmarks/crosscheck_openspiel.py [--games 100000] [--seed 1]``: the games of
``tests/openspiel_rules.py`` (legal cards at every turn, every trick's winner, the solo
player's card points with the Skat, null games' results), in chunks of 10,000 with seeds
``seed``, ``seed + 1``, ... The result goes to ``benchmarks/results/openspiel_rules.md``.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from datetime import UTC, datetime
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "tests"))

from openspiel_rules import play_games  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    import pyspiel

    start = time.perf_counter()
    totals = Counter()
    differences = Counter()
    examples = {}
    chunk = 10_000
    for i in range(0, args.games, chunk):
        tally = play_games(min(chunk, args.games - i), args.seed + i // chunk)
        for name in ("games", "passed", "finished", "turns", "tricks"):
            totals[name] += getattr(tally, name)
        differences.update(tally.differences)
        for kind, example in tally.examples.items():
            examples.setdefault(kind, example)
        print(f"{i + chunk:,} games, {sum(differences.values())} differences", flush=True)
    seconds = time.perf_counter() - start
    lines = [
        "# qcards' rules against OpenSpiel's skat",
        "",
        f"{datetime.now(UTC):%Y-%m-%d %H:%M} UTC; OpenSpiel {pyspiel.__version__}; "
        f"`python benchmarks/crosscheck_openspiel.py --games {args.games} --seed {args.seed}`; "
        f"{seconds:.0f} s.",
        "",
        "| games | all passed | played out | turns compared | tricks compared | differences |",
        "|---|---|---|---|---|---|",
        f"| {totals['games']:,} | {totals['passed']:,} | {totals['finished']:,} | "
        f"{totals['turns']:,} | {totals['tricks']:,} | {sum(differences.values())} |",
        "",
    ]
    for kind, n in differences.most_common():
        lines.append(f"- {n} x {kind}; e.g. {examples[kind]}")
    text = "\n".join(lines)
    print(text)
    (HERE / "results" / "openspiel_rules.md").write_text(text + "\n")


if __name__ == "__main__":
    main()
