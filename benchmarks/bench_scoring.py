"""Scoring and the declarer's decisions (issue 38's targets).

Run ``python benchmarks/bench_scoring.py [--repeat 3] [--quick] [--skip-decisions] [--out FILE]``,
or ``--pimc-only`` for part 4 alone (written to ``benchmarks/results/scoring-pimc.md``).

1. ``qcards score`` on 10,000 records (the XSkat fixture's games written as record files,
   cycled), as a user runs it: a fresh ``qcards`` process. The baseline, timed in the same run,
   is ``qcards score`` on one record (the command's start-up), so the difference is the
   scoring itself. Target: under 10 s.
2. The payoff from the circuit: shots per second of the full game declared as a clubs Hand
   game (the hand of ``qcards/specs/full-game.toml``), each shot's outcome read from the final
   state and scored (expected Seeger-Fabian points with its interval), beside a plain-Python
   Monte Carlo of the same game and the same scoring
   (:func:`qcards.skat.solvers.monte_carlo.playouts` with tricks), measured in the same run; the two
   means must agree within their combined 95% interval.
3. The decisions at full size, 2,000 shots a play: ``declare`` on the twelve cards of
   ``qcards/specs/decisions/twelve-cards.toml`` and ``bid`` on the ten of ``full-game.toml``
   (8 Skats), each here (one process) and on a local Dask cluster of one worker per core (start-up
   included). One run each (minutes); targets: at most 5 minutes on 2 cores.

4. The decisions under double-dummy play (PIMC): first the time of one deal's double-dummy
   level (``deal_outcome(..., points=False)``, what the decisions solve) against the full
   search on points with the trick searches (``points=True``, the baseline), on the same
   sampled deals (five a play) of every sixth twelve-card play, each deal solved from an empty
   table; then ``declare`` with 20 deals a play and ``bid`` with 40 (4 Skats, 10 deals a
   pick-up play), on a local Dask cluster. One run each.

Times are medians of ``--repeat`` runs where a run takes seconds; the load average is printed
with each table. The tables are printed and written to ``benchmarks/results/scoring.md``.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
sys.path.insert(0, str(REPO / "tests"))

from toml_text import toml_text  # noqa: E402
from xskat_log import to_game_record  # noqa: E402

from qcards.analysis.decision_plays import PlayComputation  # noqa: E402
from qcards.analysis.decisions import bid, declare_twelve  # noqa: E402
from qcards.intervals import mean_interval  # noqa: E402
from qcards.skat.deals.sample import sample_owners, spec_receiver_table  # noqa: E402
from qcards.skat.position.spec import parse_spec  # noqa: E402
from qcards.skat.solvers.monte_carlo import play_random_game  # noqa: E402
from qcards.skat.solvers.objectives import OBJECTIVES, per_sample  # noqa: E402


def load() -> str:
    return f"load average {os.getloadavg()[0]:.2f} (2 cores)"


def write_records(folder: Path, count: int) -> list[str]:
    games = [
        json.loads(line)
        for line in (REPO / "tests/data/xskat/games.jsonl").read_text().splitlines()
        if line.strip()
    ]
    paths = []
    for k in range(count):
        path = folder / f"game-{k:05d}.toml"
        path.write_text(toml_text(to_game_record(games[k % len(games)], with_play=True)))
        paths.append(str(path))
    return paths


def timed(argv: list[str]) -> float:
    start = time.perf_counter()
    subprocess.run(argv, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - start


def bench_score(count: int, repeat: int) -> list[str]:
    qcards = str(Path(sys.executable).with_name("qcards"))
    with tempfile.TemporaryDirectory() as folder:
        paths = write_records(Path(folder), count)
        list_file = Path(folder) / "args"
        list_file.write_text("\n".join(paths))
        score = [timed([qcards, "score", *paths, "--json"]) for _ in range(repeat)]
        start = [timed([qcards, "score", paths[0], "--json"]) for _ in range(repeat)]
    s, b = statistics.median(score), statistics.median(start)
    return [
        f"### qcards score on {count:,} records ({load()}, medians of {repeat})",
        "",
        "| run | seconds | ratio to start-up |",
        "|---|---|---|",
        f"| `qcards score` one record (start-up, the baseline) | {b:.2f} | 1.0 |",
        f"| `qcards score` {count:,} records, every trick replayed | {s:.2f} | {s / b:.1f} |",
        "",
        f"Scoring alone: {s - b:.2f} s, {count / max(s - b, 1e-9):,.0f} records a second "
        "(target: the whole command under 10 s).",
        "",
    ]


FULL_HAND_DECLARED = (REPO / "qcards/specs/full-game.toml").read_text() + (
    "[declaration]\nhand = true\nbid = 18\n"
)


def bench_payoff(shots: int, games: int, repeat: int) -> list[str]:
    from qcards.circuits.task import GameTask
    from qcards.execution.shots import sample_game

    spec = parse_spec(FULL_HAND_DECLARED, "full-game declared")
    sf = OBJECTIVES["seeger-fabian"]
    circuit_times, circuit_values = [], None
    for k in range(repeat):
        start = time.perf_counter()
        result = sample_game(GameTask(spec, None, "efficient"), shots, seed=k + 1)
        values = per_sample(spec, sf, result.points, result.tricks, result.matadors)
        circuit_times.append(time.perf_counter() - start)
        circuit_values = values
    plain_times, plain_values = [], None
    for k in range(repeat):
        start = time.perf_counter()
        rng = np.random.default_rng(100 + k)
        owners = sample_owners(spec, rng, games, spec_receiver_table(spec))
        points, tricks, matadors = [], [], []
        for owner in owners:
            p, t = play_random_game(spec, owner, rng)
            points.append(p)
            tricks.append(t)
            skat = tuple(c for c, who in owner.items() if who == "skat")
            matadors.append(spec.declaration.matadors_of(skat))
        values = per_sample(spec, sf, np.array(points), np.array(tricks), np.array(matadors))
        plain_times.append(time.perf_counter() - start)
        plain_values = values
    c_rate = shots / statistics.median(circuit_times)
    p_rate = games / statistics.median(plain_times)
    c_lo, c_hi = mean_interval(circuit_values)
    p_lo, p_hi = mean_interval(plain_values)
    c_mean, p_mean = float(circuit_values.mean()), float(plain_values.mean())
    half = ((c_hi - c_lo) ** 2 + (p_hi - p_lo) ** 2) ** 0.5 / 2
    agree = abs(c_mean - p_mean) <= half
    return [
        f"### The payoff from the circuit against plain Monte Carlo ({load()}, medians of "
        f"{repeat})",
        "",
        "The full game declared as a clubs Hand game (the hand of `full-game.toml`, the Skat "
        "unknown, its jacks counting as matadors), the declarer's Seeger-Fabian points.",
        "",
        "| method | samples | samples a second | ratio | expected Seeger-Fabian | 95% interval |",
        "|---|---|---|---|---|---|",
        f"| plain-Python Monte Carlo (baseline) | {games:,} | {p_rate:,.0f} | 1.0 | "
        f"{p_mean:.2f} | [{p_lo:.2f}, {p_hi:.2f}] |",
        f"| circuit shots (`sample_game`, built once a call) | {shots:,} | {c_rate:,.0f} | "
        f"{c_rate / p_rate:.1f} | {c_mean:.2f} | [{c_lo:.2f}, {c_hi:.2f}] |",
        "",
        f"The means {'agree' if agree else 'DISAGREE'} within their combined 95% interval "
        f"(difference {abs(c_mean - p_mean):.2f}, allowed {half:.2f}).",
        "",
    ]


def bench_decisions(shots: int, skats: int) -> list[str]:
    rows = []
    twelve = (REPO / "qcards/specs/decisions/twelve-cards.toml").read_text()
    full = (REPO / "qcards/specs/full-game.toml").read_text()
    results = {}
    for where, scheduler in (("one process", None), ("Dask local, 2 workers", "local")):
        runner = PlayComputation(shots=shots, seed=1, scheduler=scheduler)
        start = time.perf_counter()
        d = declare_twelve(twelve, "twelve-cards", runner=runner)
        seconds = time.perf_counter() - start
        results[("declare", where)] = d
        best = d.best
        ci = best.figures.seeger_fabian_ci
        rows.append(
            f"| declare, 12 cards ({d.plays} plays) | {where} | {seconds:.0f} | {best.name} "
            f"putting away {' '.join(map(str, best.discard))}: "
            f"{best.figures.expected_seeger_fabian:.1f} [{ci[0]:.1f}, {ci[1]:.1f}] |"
        )
        start = time.perf_counter()
        b = bid(full, "full-game", runner, skats=skats)
        seconds = time.perf_counter() - start
        results[("bid", where)] = b
        hand = b.options[0]
        ci = b.pick_up.seeger_fabian_ci
        rows.append(
            f"| bid, 10 cards ({skats} Skats) | {where} | {seconds:.0f} | {b.recommendation}, "
            f"max bid {b.max_bid}; pick up {b.pick_up.expected_seeger_fabian:.1f} "
            f"[{ci[0]:.1f}, {ci[1]:.1f}], best Hand {hand.name} "
            f"{hand.figures.expected_seeger_fabian:.1f} |"
        )
        print(rows[-2], rows[-1], sep="\n", flush=True)
    same = (
        results[("declare", "one process")].to_json()
        == results[("declare", "Dask local, 2 workers")].to_json()
    )
    return [
        f"### The decisions at full size, {shots:,} shots a play ({load()} at the end; one "
        "run each)",
        "",
        "| decision | where | seconds | best (expected Seeger-Fabian, 95% interval) |",
        "|---|---|---|---|",
        *rows,
        "",
        f"The same seed gives the same figures here and on Dask: {'yes' if same else 'NO'}.",
        "",
    ]


def bench_pimc(deals_per_play: int, declare_deals: int, bid_deals: int, skats: int) -> list[str]:
    from qcards.analysis.decisions import _read, twelve_card_specs
    from qcards.skat.solvers.double_dummy import outcome, solver

    twelve = (REPO / "qcards/specs/decisions/twelve-cards.toml").read_text()
    full = (REPO / "qcards/specs/full-game.toml").read_text()
    specs = [s for *_, s in twelve_card_specs(_read(twelve, "twelve-cards"), "twelve-cards")]
    rng = np.random.default_rng(5)
    by_kind: dict[str, tuple[list[float], list[float]]] = {}
    outcome.deal_outcome(specs[0], sample_owners(specs[0], rng, 1)[0])  # compile
    for spec in specs[::6]:
        for owner in sample_owners(spec, rng, deals_per_play):
            times = []
            for points in (True, False):
                solver._LOCAL.workspace = None  # an empty table for each
                start = time.perf_counter()
                outcome.deal_outcome(spec, owner, None, points)
                times.append(time.perf_counter() - start)
            full_list, level_list = by_kind.setdefault(spec.trump.value, ([], []))
            full_list.append(times[0])
            level_list.append(times[1])
    rows = []
    for kind, (f, lv) in by_kind.items():
        rows.append(
            f"| {kind} | {len(f)} | {statistics.median(f) * 1e3:.1f} | {np.mean(f) * 1e3:.1f} | "
            f"{statistics.median(lv) * 1e3:.1f} | {np.mean(lv) * 1e3:.1f} | "
            f"{np.mean(f) / np.mean(lv):.1f} |"
        )
    all_full = [x for f, _ in by_kind.values() for x in f]
    all_level = [x for _, lv in by_kind.values() for x in lv]
    rows.append(
        f"| all | {len(all_full)} | {statistics.median(all_full) * 1e3:.1f} | "
        f"{np.mean(all_full) * 1e3:.1f} | {statistics.median(all_level) * 1e3:.1f} | "
        f"{np.mean(all_level) * 1e3:.1f} | {np.mean(all_full) / np.mean(all_level):.1f} |"
    )
    print(*rows, sep="\n", flush=True)
    runner = PlayComputation(shots=declare_deals, seed=1, scheduler="local", model="adversarial")
    start = time.perf_counter()
    d = declare_twelve(twelve, "twelve-cards", runner=runner)
    declare_seconds = time.perf_counter() - start
    best, ci = d.best, d.best.figures.seeger_fabian_ci
    runner = PlayComputation(
        shots=bid_deals, seed=1, scheduler="local", force=True, model="adversarial"
    )
    start = time.perf_counter()
    b = bid(full, "full-game", runner, skats=skats)
    bid_seconds = time.perf_counter() - start
    hand, pci = b.options[0], b.pick_up.seeger_fabian_ci
    return [
        f"### Double-dummy decisions (PIMC) ({load()} at the end)",
        "",
        "One deal's double-dummy outcome after the pick-up (ms; each from an empty table):",
        "",
        "| kind of game | deals | full search median | mean | levels median | mean | "
        "ratio of means |",
        "|---|---|---|---|---|---|---|",
        *rows,
        "",
        "| decision | deals a play | seconds | best (expected Seeger-Fabian, 95% interval) |",
        "|---|---|---|---|",
        f"| declare, 12 cards ({d.plays} plays), Dask local | {declare_deals} | "
        f"{declare_seconds:.0f} | {best.name} putting away {' '.join(map(str, best.discard))}: "
        f"{best.figures.expected_seeger_fabian:.1f} [{ci[0]:.1f}, {ci[1]:.1f}] |",
        f"| bid, 10 cards ({skats} Skats), Dask local | {bid_deals} (Hand), "
        f"{max(2, bid_deals // skats)} (pick-up) | {bid_seconds:.0f} | {b.recommendation}, "
        f"max bid {b.max_bid}; pick up {b.pick_up.expected_seeger_fabian:.1f} "
        f"[{pci[0]:.1f}, {pci[1]:.1f}], best Hand {hand.name} "
        f"{hand.figures.expected_seeger_fabian:.1f} |",
        "",
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--quick", action="store_true", help="a smoke run, not for figures")
    parser.add_argument("--skip-decisions", action="store_true")
    parser.add_argument("--out", default=str(HERE / "results" / "scoring.md"))
    parser.add_argument("--pimc-only", action="store_true", help="part 4 alone")
    args = parser.parse_args()
    pimc_sizes = (1, 4, 8, 2) if args.quick else (5, 20, 40, 4)
    if args.pimc_only:
        head = f"# Double-dummy decisions\n\n{datetime.now(UTC):%Y-%m-%d %H:%M} UTC, " + (
            f"{platform.machine()}, {os.cpu_count()} cores; "
            "`python benchmarks/bench_scoring.py --pimc-only`.\n"
        )
        text = head + "\n" + "\n".join(bench_pimc(*pimc_sizes))
        print(text)
        if not args.quick:
            (HERE / "results" / "scoring-pimc.md").write_text(text + "\n")
        return
    records = 200 if args.quick else 10_000
    out = [
        "# Scoring and the decisions",
        "",
        f"{datetime.now(UTC):%Y-%m-%d %H:%M} UTC, {platform.machine()}, {os.cpu_count()} cores; "
        "`python benchmarks/bench_scoring.py`.",
        "",
    ]
    out += bench_score(records, args.repeat)
    print("\n".join(out), flush=True)
    out += bench_payoff(2000 if args.quick else 20_000, 200 if args.quick else 2000, args.repeat)
    if not args.skip_decisions:
        out += bench_decisions(50 if args.quick else 2000, 2 if args.quick else 8)
        out += bench_pimc(*pimc_sizes)
    text = "\n".join(out)
    print(text)
    if not args.quick:
        Path(args.out).write_text(text + "\n")


if __name__ == "__main__":
    main()
