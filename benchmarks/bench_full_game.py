"""The full game at scale (issue 28): shots, double dummy and PIMC on ten cards a hand.

Run ``python benchmarks/bench_full_game.py [--repeat 3] [--quick] [--skip-dask] [--out FILE]``.

The full game: three players, clubs trump, the declarer A leads with a known hand of ten cards,
the other 22 cards are dealt B 10, C 10 and two into the Skat. Two declarer hands: the
:func:`~qcards.analysis.resources.resource_spec` hand (``N = 10``, every third card of the deck
taken rank by rank) and a strong clubs hand a declarer would bid (:data:`STRONG`).

1. Shots: :func:`~qcards.execution.shots.sample_game` of the game circuit, ``GameTask.build()``
   included (the circuit is built inside every chunk), here and on Dask (``scheduler="local"``:
   a cluster started for the call, start-up included; and a cluster already running, whose
   start-up is timed on its own). The baseline, timed in the same run, is a plain-Python Monte
   Carlo of the same random-play model (:func:`playout`); the two p_win must agree within their
   combined 95% interval (the circuit's and the baseline's samples are independent).
2. Double dummy: :func:`~qcards.skat.solvers.double_dummy.solver.solve_deal` on random fully known
deals
   (3 x 10 cards and 2 in the Skat), the same deals as a clubs, a grand and a null game. The
   first call compiles the numba kernels; it is timed on its own, in child processes with an
   empty and then a filled numba cache. The public Rust solver (jenafrank/skatsearch) cannot run
   here: the comparison is with the 0.1-1 s per deal the issue quotes for it.
3. PIMC: :func:`~qcards.analysis.sampled.pimc_samples` with 100 sampled deals of each hand,
   here and with ``scheduler="local"`` (start-up included).
4. Cost per sample: shots per second and double-dummy seconds per deal at N = 4, 6, 8, 10 cards
   a player, next to the circuit's instructions and the play paths (Knuth's estimate,
   :func:`~qcards.skat.solvers.plain_referee.estimate_paths`): the shot's cost follows the
   instructions, not the paths.

Times are medians of ``--repeat`` runs (each Dask "local" run and each first call: one run,
they include one-off costs). The tables are printed and written to
``benchmarks/results/full_game.md``.
"""

from __future__ import annotations

import argparse
import itertools
import math
import os
import platform
import random
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

import numpy as np

from qcards.analysis.resources import resource_spec
from qcards.analysis.sampled import pimc_samples
from qcards.circuits.task import GameTask
from qcards.execution.shots import sample_game
from qcards.execution.sweeps import LOCAL, local_cluster
from qcards.intervals import Z95, mean_interval, wilson
from qcards.skat.deals.count import num_deals
from qcards.skat.deals.sample import sample_owners
from qcards.skat.position.spec import SKAT, Endgame, spec_from_dict
from qcards.skat.rules.cards import FULL_DECK, Card
from qcards.skat.solvers.double_dummy.solver import solve_deal
from qcards.skat.solvers.monte_carlo import playouts
from qcards.skat.solvers.plain_referee import estimate_paths

RESULTS = Path(__file__).resolve().parent / "results" / "full_game.md"
STRONG = ["CJ", "HJ", "CA", "C10", "CQ", "C8", "C7", "SA", "S10", "HK"]
"""A clubs hand a declarer would bid: two jacks, five clubs, the spade ace and ten."""
SKATSEARCH = (0.1, 1.0)
"""Seconds per full deal the issue quotes for jenafrank/skatsearch (not run here)."""
SEED = 2028


def full_hand(declarer: list[str]) -> Endgame:
    """Clubs, A leads ``declarer``; the other 22 cards dealt B 10, C 10, Skat 2."""
    hand = {Card.parse(c) for c in declarer}
    unknown = [str(c) for c in FULL_DECK if c not in hand]
    return spec_from_dict(
        {
            "players": ["A", "B", "C"],
            "trump": "clubs",
            "leader": "A",
            "hands": {"A": declarer},
            "unknown": {"cards": unknown, "sizes": {"B": 10, "C": 10, SKAT: 2}},
        },
        source="strong clubs hand",
    )


def hands() -> dict[str, Endgame]:
    return {"resource_spec(10)": resource_spec(10), "strong clubs": full_hand(STRONG)}


def timed(fn, repeat: int) -> tuple[float, list]:
    """Median seconds of ``repeat`` calls and their results."""
    times, results = [], []
    for _ in range(repeat):
        start = time.perf_counter()
        results.append(fn())
        times.append(time.perf_counter() - start)
    return statistics.median(times), results


def loads() -> str:
    return ", ".join(f"{x:.2f}" for x in os.getloadavg())


# ----------------------------------------------------------------------------- the baseline


def monte_carlo(spec: Endgame, games: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """The plain-Python baseline: ``games`` of the random-play model
    (:func:`qcards.skat.solvers.monte_carlo.playouts`), the declarer's points and wins."""
    points, wins, *_ = playouts(spec, games, seed)
    return points, wins


def p_text(wins: np.ndarray) -> str:
    low, high = wilson(int(wins.sum()), wins.size)
    return f"{wins.mean():.4f} [{low:.4f}, {high:.4f}]"


def points_text(points: np.ndarray) -> str:
    low, high = mean_interval(points)
    return f"{points.mean():.2f} [{low:.2f}, {high:.2f}]"


def difference(a: np.ndarray, b: np.ndarray) -> tuple[float, float]:
    """Mean of ``a`` minus mean of ``b`` (independent samples) and the half width of its 95%
    interval."""
    a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    half = Z95 * math.sqrt(a.var(ddof=1) / a.size + b.var(ddof=1) / b.size)
    return float(a.mean() - b.mean()), half


# ----------------------------------------------------------------------------- 1. shots


class Rows:
    """Rows of table 1 for one hand: samples per second and the ratio to the baseline's."""

    def __init__(self, out, name: str, spec: Endgame, base_rate: float) -> None:
        self.out, self.name, self.spec, self.base_rate = out, name, spec, base_rate

    def add(self, method: str, runs: int, seconds: float, samples: int, wins, points) -> None:
        rate = samples / seconds
        self.out(
            f"| {self.name} | {method} | {runs} | {seconds:.2f} | {rate:,.0f} | "
            f"{rate / self.base_rate:.1f}x | {p_text(wins)} | {points_text(points)} |"
        )

    def shots(self, method: str, runs: int, seconds: float, samples: int, result) -> None:
        self.add(method, runs, seconds, samples, result.wins(self.spec), result.points)


def shots_section(args, out) -> dict[str, float]:
    """Table 1; returns the seconds per shot of each hand (local runs)."""
    out("## 1. Shots of the full game (random play), circuit build included")
    out()
    out(
        f"{args.shots:,} shots per run; the baseline is the plain-Python Monte Carlo of the same "
        f"model, {args.playouts:,} playouts per run (its p_win pools all {args.repeat} runs). "
        "Ratio = samples per second against the baseline's. Target: 100,000 shots in at most "
        "60 s on 2 cores."
    )
    out()
    out("| hand | method | runs | median s | samples / s | ratio | p_win [95%] | E[points] [95%] |")
    out("|---|---|---|---|---|---|---|---|")
    per_shot, checks = {}, []
    for name, spec in hands().items():
        start = time.perf_counter()
        game = GameTask(spec).build()
        build = time.perf_counter() - start
        seeds = itertools.count(SEED)
        base_s, runs = timed(
            lambda s=spec, seeds=seeds: monte_carlo(s, args.playouts, next(seeds)), args.repeat
        )
        base_points = np.concatenate([p for p, _ in runs])
        base_wins = np.concatenate([w for _, w in runs])
        rows = Rows(out, name, spec, args.playouts / base_s)
        rows.add("plain-Python Monte Carlo (baseline)", args.repeat, base_s, args.playouts,
                 base_wins, base_points)  # fmt: skip
        task = GameTask(spec)
        start = time.perf_counter()
        cold = sample_game(task, args.shots, SEED)
        rows.shots("circuit shots, first run (cold)", 1, time.perf_counter() - start,
                   args.shots, cold)  # fmt: skip
        local_s, results = timed(lambda t=task: sample_game(t, args.shots, SEED), args.repeat)
        shots = results[0]
        same = all(np.array_equal(r.points, cold.points) for r in results)
        rows.shots("circuit shots, `sample_game`", args.repeat, local_s, args.shots, shots)
        per_shot[name] = local_s / args.shots
        if not args.skip_dask:
            same &= dask_rows(args, task, cold, rows)
        dp, dp_half = difference(shots.wins(spec), base_wins)
        de, de_half = difference(shots.points, base_points)
        agree = abs(dp) <= dp_half and abs(de) <= de_half
        checks.append(
            f"* {name}: {game.circuit.num_qubits} qubits, "
            f"{len(game.circuit.data)} instructions, `GameTask.build()` {build * 1e3:.0f} ms; "
            f"p_win circuit - baseline = {dp:+.4f} +- {dp_half:.4f}, E[points] "
            f"{de:+.2f} +- {de_half:.2f} (95%): {'agree' if agree else 'DISAGREE'}; "
            f"every run and scheduler gave the same shots for the seed: {same}"
        )
    out()
    for line in checks:
        out(line)
    out()
    return per_shot


def dask_rows(args, task: GameTask, reference, rows: Rows) -> bool:
    """Dask rows of table 1: a cluster started by the call, then one already running."""
    from distributed import Client

    start = time.perf_counter()
    local = sample_game(task, args.shots, SEED, scheduler=LOCAL)
    seconds = time.perf_counter() - start
    rows.shots('Dask `scheduler="local"` (start-up included)', 1, seconds, args.shots, local)
    start = time.perf_counter()
    with local_cluster() as cluster, Client(cluster):
        up = time.perf_counter() - start
        address = cluster.scheduler_address
        start = time.perf_counter()
        sample_game(task, 10_000, SEED, scheduler=address)  # the workers import qcards
        warm = time.perf_counter() - start
        running_s, results = timed(
            lambda: sample_game(task, args.shots, SEED, scheduler=address), args.repeat
        )
    method = f"Dask, running cluster (start-up {up:.1f} s, first task {warm:.1f} s)"
    rows.shots(method, args.repeat, running_s, args.shots, results[0])
    return all(np.array_equal(r.points, reference.points) for r in [local, *results])


# ----------------------------------------------------------------------------- 2. double dummy


def full_deals(count: int, seed: int) -> list[dict[str, list[str]]]:
    """Random full deals: A, B, C ten cards each, two in the Skat."""
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        deck = [str(c) for c in FULL_DECK]
        rng.shuffle(deck)
        out.append({"A": deck[:10], "B": deck[10:20], "C": deck[20:30], SKAT: deck[30:]})
    return out


def open_spec(deal: dict[str, list[str]], trump: str) -> tuple[Endgame, dict[Card, str]]:
    """The deal as a spec with every hand known and the two Skat cards unknown, and its owner
    map (card -> player or Skat)."""
    data = {
        "players": ["A", "B", "C"],
        "trump": trump,
        "leader": "A",
        "hands": {p: deal[p] for p in ("A", "B", "C")},
        "unknown": {"cards": deal[SKAT], "sizes": {SKAT: 2}},
    }
    spec = spec_from_dict(data, source=f"open {trump} deal")
    owner = {Card.parse(c): who for who, cards in deal.items() for c in cards}
    return spec, owner


FIRST_CALL = """
import time
from qcards.skat.solvers.double_dummy.solver import solve_deal
from qcards.skat.deals.sample import random_deal
from qcards.analysis.resources import resource_spec
import random
spec = resource_spec(10)
owner = random_deal(spec, random.Random(0))
start = time.perf_counter()
solve_deal(spec, owner)
print(time.perf_counter() - start)
"""


def first_calls() -> tuple[float, float]:
    """Seconds of the first ``solve_deal`` of a process: with an empty numba cache (compiling),
    then with the cache it filled (loading), each in a fresh child process."""
    times = []
    with tempfile.TemporaryDirectory(prefix="qcards-numba-") as cache:
        env = {**os.environ, "NUMBA_CACHE_DIR": cache, "PYTHONWARNINGS": "ignore"}
        for _ in range(2):
            done = subprocess.run(
                [sys.executable, "-c", FIRST_CALL], capture_output=True, text=True, env=env
            )
            times.append(float(done.stdout.strip().splitlines()[-1]))
    return times[0], times[1]


def double_dummy_section(args, out) -> dict[str, float]:
    """Table 2; returns the median seconds per deal of each kind of game."""
    out("## 2. Double dummy on fully known full deals (`solve_deal`)")
    out()
    compile_s, load_s = first_calls()
    deals = full_deals(args.deals, SEED)
    spec, owner = open_spec(deals[0], "clubs")
    start = time.perf_counter()
    solve_deal(spec, owner)
    here_s = time.perf_counter() - start
    out(
        f"First call of a process (one full clubs deal, one run each): {compile_s:.2f} s with an "
        f"empty numba cache (compiling), {load_s:.2f} s with the cache filled (loading); "
        f"{here_s:.2f} s in this process (with the package's cache as it was, deal 1 below)."
    )
    out()
    out(
        f"{args.deals} random deals (3 x 10 cards, 2 in the Skat), A leads; the same deals for "
        "every kind of game, each solved once after that first call (a second solve of a deal "
        "would reuse its transposition table). Null: both searches (points and tricks). "
        f"vs skatsearch: median / {SKATSEARCH[0]} s and / {SKATSEARCH[1]} s, the range quoted "
        "for the Rust solver (not run here). Target: median at most 3 s and at most 5x that."
    )
    out()
    out(
        "| game | deals | median s | mean s | max s | median nodes | mean nodes | max nodes "
        "| nodes / s | declarer wins | vs skatsearch 0.1 s / 1 s |"
    )
    out("|---|---|---|---|---|---|---|---|---|---|---|")
    medians = {}
    for trump in ("clubs", "grand", "null"):
        times, nodes, wins = [], [], 0
        for deal in deals:
            spec, owner = open_spec(deal, trump)
            start = time.perf_counter()
            value = solve_deal(spec, owner)
            times.append(time.perf_counter() - start)
            nodes.append(value.nodes)
            wins += value.wins
        median = statistics.median(times)
        medians[trump] = median
        out(
            f"| {trump} | {len(deals)} | {median:.3f} | {statistics.mean(times):.3f} | "
            f"{max(times):.3f} | {statistics.median(nodes):,.0f} | {statistics.mean(nodes):,.0f} "
            f"| {max(nodes):,} | {sum(nodes) / sum(times):,.0f} | {wins}/{len(deals)} | "
            f"{median / SKATSEARCH[0]:.2f}x / {median / SKATSEARCH[1]:.2f}x |"
        )
    out()
    return medians


# ----------------------------------------------------------------------------- 3. PIMC


def pimc_section(args, out) -> dict[str, float]:
    """Table 3; returns the seconds per solved deal of each hand (local runs)."""
    out(f"## 3. PIMC: double dummy on {args.pimc} sampled deals of each full hand")
    out()
    out(
        "`pimc_samples(spec, None, deals, seed)`: every sampled deal solved double dummy "
        "(points and win). The circuit's random-play p_win of table 1 is a different model. "
        "Target: at most 300 s."
    )
    out()
    out("| hand | scheduler | runs | median s | s / deal | p_win [95%] | E[points] [95%] |")
    out("|---|---|---|---|---|---|---|")
    per_deal = {}
    for name, spec in hands().items():
        seconds, results = timed(lambda s=spec: pimc_samples(s, None, args.pimc, SEED), args.repeat)
        per_deal[name] = seconds / args.pimc
        runs = [("here", args.repeat, seconds, results[0])]
        if not args.skip_dask:
            start = time.perf_counter()
            dask = pimc_samples(spec, None, args.pimc, SEED, scheduler=LOCAL)
            runs.append(('Dask "local" (start-up included)', 1, time.perf_counter() - start, dask))
        for where, count, s, result in runs:
            assert np.array_equal(result.points, results[0].points), (name, where)
            out(
                f"| {name} | {where} | {count} | {s:.2f} | {s / args.pimc:.3f} | "
                f"{p_text(result.wins)} | {points_text(result.points)} |"
            )
    out()
    out("Every run and scheduler solved the same deals to the same values.")
    out()
    return per_deal


# ----------------------------------------------------------------------------- 4. scaling


def scaling_section(args, out) -> None:
    out("## 4. Cost per shot and per solved deal against the number of play paths")
    out()
    out(
        f"`resource_spec(N)`: {args.scale_shots:,} circuit shots per run, {args.scale_playouts:,} "
        f"baseline playouts per run, {args.scale_deals} double-dummy deals (sampled, solved once "
        "each). Play paths: Knuth's unbiased estimate over 200 random playouts "
        "(`estimate_paths`), deals times paths per deal. ns / shot / instruction: the seconds "
        "per shot over the circuit's instructions (`len(circuit.data)`)."
    )
    out()
    out(
        "| N | unknown cards | deals | play paths (estimate) | qubits | instructions | shots / s "
        "| us / shot | ns / shot / instruction | baseline playouts / s | ratio "
        "| double dummy s / deal |"
    )
    out("|---|---|---|---|---|---|---|---|---|---|---|---|")
    for n in args.cards:
        spec = resource_spec(n)
        task = GameTask(spec)
        game = task.build()
        instructions = len(game.circuit.data)
        sample_game(task, 1_000, SEED)  # warm: the deal tables of this spec
        seconds, _ = timed(lambda t=task: sample_game(t, args.scale_shots, SEED), args.repeat)
        base_s, _ = timed(lambda s=spec: monte_carlo(s, args.scale_playouts, SEED), args.repeat)
        owners = sample_owners(spec, np.random.default_rng(SEED), args.scale_deals)
        start = time.perf_counter()
        for owner in owners:
            solve_deal(spec, owner)
        dd = (time.perf_counter() - start) / args.scale_deals
        per_shot = seconds / args.scale_shots
        rate, base_rate = 1 / per_shot, args.scale_playouts / base_s
        out(
            f"| {n} | {len(spec.unknown)} | {num_deals(spec):.3g} | "
            f"{estimate_paths(spec):.3g} | {game.circuit.num_qubits} | {instructions} | "
            f"{rate:,.0f} | {per_shot * 1e6:.1f} | {per_shot / instructions * 1e9:.0f} | "
            f"{base_rate:,.0f} | {rate / base_rate:.1f}x | {dd:.4f} |"
        )
    out()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--shots", type=int, default=100_000)
    parser.add_argument("--playouts", type=int, default=10_000)
    parser.add_argument("--deals", type=int, default=20)
    parser.add_argument("--pimc", type=int, default=100)
    parser.add_argument("--cards", type=int, nargs="+", default=[4, 6, 8, 10])
    parser.add_argument("--scale-shots", type=int, default=20_000)
    parser.add_argument("--scale-playouts", type=int, default=2_000)
    parser.add_argument("--scale-deals", type=int, default=10)
    parser.add_argument("--skip-dask", action="store_true")
    parser.add_argument("--quick", action="store_true", help="smoke-run sizes, no figures")
    parser.add_argument("--out", type=Path, default=RESULTS)
    args = parser.parse_args()
    if args.quick:
        args.repeat, args.shots, args.playouts, args.deals, args.pimc = 1, 10_000, 500, 3, 8
        args.cards, args.scale_shots, args.scale_playouts, args.scale_deals = [4, 6], 2000, 200, 2
    lines: list[str] = []

    def out(text: str = "") -> None:
        lines.append(text)
        print(text, flush=True)

    when = datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")
    options = " ".join(sys.argv[1:]) or "default options"
    out(f"# The full game at scale (`bench_full_game.py`, {options})")
    out()
    out(
        f"{when}; {platform.processor() or platform.machine()}, {os.cpu_count()} cores, Python "
        f"{platform.python_version()}; load average (1, 5, 15 min) at the start: {loads()}; "
        f"times are medians of {args.repeat} runs unless a row says otherwise"
    )
    out()
    begin = time.perf_counter()
    per_shot = shots_section(args, out)
    medians = double_dummy_section(args, out)
    per_deal = pimc_section(args, out)
    scaling_section(args, out)
    out("## Summary")
    out()
    for name, seconds in per_shot.items():
        out(
            f"* {name}: {seconds * 1e6:.1f} us per shot ({args.shots:,} shots in "
            f"{seconds * args.shots:.1f} s, target 60 s); PIMC {per_deal[name]:.3f} s per solved "
            f"deal ({per_deal[name] * args.pimc:.1f} s for {args.pimc}, target 300 s)"
        )
    out(
        "* double dummy, median s per full deal: "
        + ", ".join(f"{k} {v:.3f}" for k, v in medians.items())
        + " (target 3 s)"
    )
    out(
        f"* whole benchmark {time.perf_counter() - begin:.0f} s; load average at the end: {loads()}"
    )
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
