"""Run every benchmark and collect their tables into one markdown file.

Run ``python benchmarks/run_all.py [--quick] [--only NAME ...] [--out FILE]``.

Each ``bench_*.py`` prints its own markdown tables: medians of several runs with ratios against
a baseline timed in the same run (the classical referee, the paper construction, Aer's full
noise model or a local run). This entry point runs them one after another in fresh processes,
so that no benchmark warms the caches of the next, and writes their output, with each one's wall
time and the machine it ran on, to ``benchmarks/results/all.md``.
``--quick`` passes each benchmark the options of a smoke run (fewer repeats, smaller sizes), for
checking that they all still run, not for figures; it runs copies of the scripts in a temporary
folder, so the results in ``benchmarks/results/`` stay as the last full run left them.
"""

from __future__ import annotations

import argparse
import os
import platform
import shutil
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

HERE = Path(__file__).resolve().parent

BENCHMARKS = {
    "core": ("bench_core.py", [], ["--repeat", "1"]),
    "resources": ("bench_resources.py", [], ["--max-n", "3"]),
    "scale": ("bench_scale.py", [], ["--repeat", "1", "--max-k", "2", "--skip-simulators"]),
    "engines": (
        "bench_engines.py",
        [],
        [
            "--timeout",
            "30",
            "--repeat",
            "1",
            "--cases",
            "four-card paper",
            "--engines",
            "ours,ddsim",
        ],
    ),
    "engine-counting": ("bench_engine_counting.py", [], ["--repeat", "1", "--budget", "60"]),
    "counting": ("bench_counting.py", [], ["--quick", "--seeds", "1", "--sampling-seeds", "2"]),
    "noise": (
        "bench_noise.py",
        [],
        ["--shots", "20", "--repeat", "1", "--reference-shots", "2", "--skip", "study"],
    ),
    "dask": ("bench_dask.py", [], ["--repeat", "1"]),
    "gofish": ("bench_gofish.py", [], ["--moves", "50", "--runs", "1", "--cap", "50"]),
    "cost-model": ("bench_cost_model.py", [], ["--repeat", "1", "--max-k", "2"]),
    "weighted-deal": ("bench_weighted_deal.py", [], ["--repeat", "1", "--cards", "2", "4"]),
    "full-game": ("bench_full_game.py", [], ["--quick"]),
    "scoring": ("bench_scoring.py", [], ["--quick"]),
    "fault-tolerant": ("bench_fault_tolerant.py", [], ["--repeat", "1", "--max-n", "2"]),
}
"""name: (script, full-run options, quick-run options)."""


def run_one(name: str, quick: bool, where: Path) -> tuple[str, float, int]:
    script, full, fast = BENCHMARKS[name]
    start = time.perf_counter()
    done = subprocess.run(
        [sys.executable, str(where / script), *(fast if quick else full)],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONWARNINGS": "ignore"},
    )
    seconds = time.perf_counter() - start
    output = done.stdout if done.returncode == 0 else done.stdout + "\n" + done.stderr[-3000:]
    return output.strip(), seconds, done.returncode


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true", help="smoke-run options, no figures")
    parser.add_argument("--only", nargs="*", choices=list(BENCHMARKS), default=list(BENCHMARKS))
    parser.add_argument("--out", type=Path, default=HERE / "results" / "all.md")
    args = parser.parse_args()
    where = HERE
    if args.quick:  # smoke figures must not overwrite the committed results: run copies
        where = Path(tempfile.mkdtemp(prefix="qcards-bench-"))
        for script in HERE.glob("bench_*.py"):
            shutil.copy(script, where)
        (where / "results").mkdir()
    when = datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")
    lines = [
        "# qcards benchmarks",
        "",
        f"{when}; {platform.processor() or platform.machine()}, {os.cpu_count()} cores, "
        f"Python {platform.python_version()}{'; quick (smoke) options' if args.quick else ''}",
        "",
        "Load is the 1-minute load average when each benchmark started; above the number of cores,",
        "other work shared the machine and its times are inflated.",
        "",
        "| benchmark | wall time s | load at start | status |",
        "|---|---|---|---|",
    ]
    sections, failed = [], 0
    for name in args.only:
        print(f"running {name} ...", file=sys.stderr, flush=True)
        load = os.getloadavg()[0]
        output, seconds, code = run_one(name, args.quick, where)
        failed += code != 0
        status = "ok" if code == 0 else f"failed ({code})"
        lines.append(f"| {name} | {seconds:.0f} | {load:.1f} | {status} |")
        sections += ["", f"## {name} (`{BENCHMARKS[name][0]}`)", "", output]
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text("\n".join(lines + sections) + "\n")
    print(f"wrote {args.out}", file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
