"""Start-up of the command line (issue 41's targets): whole processes, against a bare
interpreter started in the same run.

Run ``python benchmarks/bench_startup.py [--repeat 7]``. Each command runs as a fresh process
(``qcards`` from this environment); medians of ``--repeat`` runs, and the time beyond the bare
interpreter's start. Results go to ``benchmarks/results/startup.md``.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import time
from datetime import UTC, datetime
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent

COMMANDS = {
    "bare interpreter (baseline)": [sys.executable, "-c", "pass"],
    "qcards --version": ["qcards", "--version"],
    "qcards --help": ["qcards", "--help"],
    "qcards score (one record)": ["qcards", "score", "qcards/records/grand-played.toml"],
    "qcards evaluate four-card --method classical": [
        "qcards", "evaluate", "qcards/specs/four-card.toml", "--method", "classical",
    ],
}  # fmt: skip
TARGETS = {"qcards --version": "0.3 s beyond the bare interpreter",
           "qcards --help": "within 0.3 s of --version",
           "qcards evaluate four-card --method classical": "1.5 s in all"}  # fmt: skip


def process_seconds(argv: list[str]) -> float:
    """Seconds one whole process of ``argv`` takes from the repository root (its output
    thrown away; a failing command stops the benchmark)."""
    start = time.perf_counter()
    subprocess.run(argv, cwd=REPO, check=True, capture_output=True)
    return time.perf_counter() - start


def median_seconds(argv: list[str], repeat: int) -> float:
    return statistics.median(process_seconds(argv) for _ in range(repeat))


def resolved(argv: list[str]) -> list[str]:
    """``argv`` with a leading ``qcards`` replaced by this environment's entry point."""
    if argv[0] != "qcards":
        return argv
    qcards = shutil.which("qcards") or str(Path(sys.executable).parent / "qcards")
    return [qcards, *argv[1:]]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=7)
    args = parser.parse_args()
    rows, base = [], None
    for name, argv in COMMANDS.items():
        t = median_seconds(resolved(argv), args.repeat)
        base = t if base is None else base
        beyond = "" if t is base else f"{t - base:+.2f}"
        rows.append(f"| {name} | {t:.2f} | {beyond} | {TARGETS.get(name, '')} |")
        print(rows[-1], flush=True)
    text = "\n".join([
        "# Start-up of the command line",
        "",
        f"{datetime.now(UTC):%Y-%m-%d %H:%M} UTC, {os.cpu_count()} cores, load average "
        f"{os.getloadavg()[0]:.2f}; `python benchmarks/bench_startup.py --repeat {args.repeat}`; "
        "whole processes, medians.",
        "",
        "| command | seconds | beyond the bare interpreter | target |",
        "|---|---|---|---|",
        *rows,
        "",
    ])  # fmt: skip
    print(text)
    (HERE / "results" / "startup.md").write_text(text + "\n")


if __name__ == "__main__":
    main()
