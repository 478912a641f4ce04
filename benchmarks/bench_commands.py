"""The long commands the docs quote a time for (issue 41, item 6), timed as whole processes,
so that every time the README and the pages state comes from this table.

Run ``python benchmarks/bench_commands.py [--repeat 3]`` on a quiet machine (the load average
is printed with the table). Each command runs as a fresh ``qcards`` process from this
environment, with its output thrown away; the first row is a bare interpreter, the baseline of
the same run. Results go to ``benchmarks/results/commands.md``.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
from datetime import UTC, datetime
from pathlib import Path

from bench_startup import process_seconds, resolved

HERE = Path(__file__).resolve().parent

COMMANDS = {
    "bare interpreter (baseline)": ([sys.executable, "-c", "pass"], None),
    "qcards reproduce --paper-only": (["qcards", "reproduce", "--paper-only", "--out", "{out}"],
                                      None),
    "qcards reproduce (both examples and the gallery)": (
        ["qcards", "reproduce", "--out", "{out}"], 1),
    "qcards evaluate full-game --shots 20000 --seed 1": (
        ["qcards", "evaluate", "qcards/specs/full-game.toml", "--shots", "20000", "--seed", "1"],
        None),
    "qcards run full-game --backend sparse --shots 20000 --seed 1": (
        ["qcards", "run", "qcards/specs/full-game.toml", "--backend", "sparse", "--shots",
         "20000", "--seed", "1"], None),
    "qcards recommend full-game (PIMC, the first lead)": (
        ["qcards", "recommend", "qcards/specs/full-game.toml", "--model", "adversarial",
         "--seed", "1"], None),
    "qcards run four-card --backend fake:FakeTorino --shots 1000 --seed 1": (
        ["qcards", "run", "qcards/specs/four-card.toml", "--backend", "fake:FakeTorino",
         "--shots", "1000", "--seed", "1"], 1),
}  # fmt: skip
"""Name: (argv, repeats or None for ``--repeat``); ``{out}`` is a fresh temporary folder."""


def seconds(argv: list[str]) -> float:
    """:func:`bench_startup.process_seconds` with ``{out}`` a fresh temporary folder."""
    with tempfile.TemporaryDirectory() as out:
        return process_seconds([a.replace("{out}", out) for a in argv])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--only", help="run the rows whose name contains this text")
    args = parser.parse_args()
    rows, loads = [], []
    for name, (argv, repeat) in COMMANDS.items():
        if args.only and args.only not in name and "baseline" not in name:
            continue
        runs = repeat or args.repeat
        times = []
        for _ in range(runs):
            times.append(seconds(resolved(argv)))
            loads.append(os.getloadavg()[0])
        t = statistics.median(times)
        shown = f"{t:.2f}" if t < 60 else f"{t:.0f} ({t / 60:.1f} min)"
        rows.append(f"| {name} | {shown} | {runs} |")
        print(rows[-1], flush=True)
    text = "\n".join([
        "# The long commands, as whole processes",
        "",
        f"{datetime.now(UTC):%Y-%m-%d %H:%M} UTC, {os.cpu_count()} cores, load average "
        f"{min(loads):.2f}-{max(loads):.2f} while it ran; `python benchmarks/bench_commands.py "
        f"--repeat {args.repeat}`; medians, numba's cache warm.",
        "",
        "| command | seconds | runs |",
        "|---|---|---|",
        *rows,
        "",
    ])  # fmt: skip
    print(text)
    name = "commands.md" if not args.only else "commands-partial.md"
    (HERE / "results" / name).write_text(text + "\n")


if __name__ == "__main__":
    main()
