"""Benchmark: the fast referee (:mod:`qcards.skat.solvers.fast_referee`) against the plain
enumerator.

Run ``python benchmarks/bench_referee.py [--repeat 3] [--max-k 7] [--budget 600]
[--plain-budget 300] [--out FILE]``.

The endgames are the scale study's (``bench_scale.scale_spec``): three players with k cards
each (k = 4..7: 12, 15, 18, 21 cards), the declarer's hand known, the other 2k cards dealt at
random, the target in the middle of the points in play. For each size and both models: the
deals, the play paths (counted exactly by the fast referee, which counts every path; Knuth's
estimate, ``referee.estimate_paths``, beside them), the distinct positions the fast referee
memoizes, its median seconds over ``--repeat`` runs (one run above eighteen cards) and the
plain referee's in the same run where it finishes within ``--plain-budget`` (it is not started
where its estimate, at 150,000 paths a second, exceeds that), their ratio, and whether the two
Evaluations are equal (every Fraction and count). Every run is a child process
(``bench_scale.with_budget``; forked, so the compiled kernels are inherited) stopped at its
budget, so a size that does not finish in ten minutes is reported as such. The load average
is printed beside every row. The table is printed and written to
``benchmarks/results/referee.md``.
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import time
from datetime import UTC, datetime
from pathlib import Path

from bench_scale import scale_spec, with_budget

from qcards.progress import duration
from qcards.skat.solvers import plain_referee as referee
from qcards.skat.solvers.fast_referee import solver as fast_referee

RESULTS = Path(__file__).resolve().parent / "results" / "referee.md"
PLAIN_PATHS_PER_SECOND = 150_000.0
"""The plain referee's rate in the scale benchmark (``PATHS_PER_SECOND`` of the budget)."""


def fast_run(k: int, model: str):
    spec = scale_spec(k)
    start = time.perf_counter()
    solver = fast_referee._Solver(spec, model, 2**62)
    evaluation = solver.evaluate(None)
    return time.perf_counter() - start, evaluation, solver.search()


def plain_run(k: int, model: str):
    start = time.perf_counter()
    evaluation = referee.evaluate(scale_spec(k), model)
    return time.perf_counter() - start, evaluation


def runs(fn, args, count: int, budget: float) -> tuple[str, list]:
    """Up to ``count`` runs; stops at the first that does not answer."""
    out = []
    for _ in range(count):
        status, result = with_budget(fn, args, budget)
        if status != "ok":
            return status, out
        out.append(result)
    return "ok", out


def load() -> str:
    return f"{os.getloadavg()[0]:.1f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--max-k", type=int, default=7)
    parser.add_argument("--budget", type=float, default=600.0, help="seconds a fast run may take")
    parser.add_argument("--plain-budget", type=float, default=300.0)
    parser.add_argument("--out", type=Path, default=RESULTS)
    args = parser.parse_args()
    lines: list[str] = []

    def out(text: str = "") -> None:
        print(text, flush=True)
        lines.append(text)

    start = time.perf_counter()
    fast_referee.evaluate(scale_spec(1))  # compile, or load the compiled kernels from the cache
    first_call = time.perf_counter() - start
    out("# The fast referee against the plain enumerator")
    out()
    out(
        f"`python benchmarks/bench_referee.py --repeat {args.repeat} --max-k {args.max_k}`, "
        f"{datetime.now(UTC):%Y-%m-%d} ({platform.machine()}, {os.cpu_count()} cores, shared). "
        f"Three players with k cards each (`bench_scale.scale_spec`); medians of {args.repeat} "
        "runs up to 18 cards, one run above; the plain referee timed in the same run where it "
        f"finishes within {args.plain_budget:.0f} s. First call in this process (loading the "
        f"compiled kernels): {first_call:.2f} s, not counted below."
    )
    out()
    out(
        "| cards | model | deals | play paths (exact) | Knuth estimate | memo states | fast s "
        "| plain s | plain / fast | equal | load |"
    )
    out("|---|---|---|---|---|---|---|---|---|---|---|")
    notes = []
    for k in range(4, args.max_k + 1):
        spec = scale_spec(k)
        estimate = referee.estimate_paths(spec)
        for model in referee.MODELS:
            count = args.repeat if k <= 6 else 1
            status, fast = runs(fast_run, (k, model), count, args.budget)
            if not fast:
                why = "refused" if status == "refused" else f"no answer in {args.budget:.0f} s"
                out(
                    f"| {3 * k} | {model} | {referee.num_deals(spec):,} | - | {estimate:,.3g} "
                    f"| - | {why} | - | - | - | {load()} |"
                )
                continue
            seconds = statistics.median(r[0] for r in fast)
            _, evaluation, search = fast[0]
            plain_cells = ["-", "-", "-"]
            plain_estimate = evaluation.num_paths / PLAIN_PATHS_PER_SECOND
            if plain_estimate <= args.plain_budget:
                plain_count = args.repeat if plain_estimate < 10 else 1
                status, plain = runs(plain_run, (k, model), plain_count, args.plain_budget)
                if plain:
                    plain_s = statistics.median(r[0] for r in plain)
                    equal = all(r[1] == evaluation for r in plain)
                    assert equal, (k, model, plain[0][1], evaluation)
                    plain_cells = [f"{plain_s:.2f}", f"{plain_s / seconds:,.0f}x", "yes"]
                else:
                    plain_cells[0] = f"> {args.plain_budget:.0f}"
            else:
                plain_cells[0] = f"(about {duration(plain_estimate)})"
            pruned = f" ({search.prunes} prunes)" if search.prunes else ""
            out(
                f"| {3 * k} | {model} | {evaluation.num_deals:,} | {evaluation.num_paths:,} "
                f"| {estimate:,.3g} | {search.states:,}{pruned} | {seconds:.3f} | "
                + " | ".join(plain_cells)
                + f" | {load()} |"
            )
            notes.append(
                f"{3 * k} cards {model}: p_win {evaluation.p_win} = {float(evaluation.p_win):.9f}"
            )
    out()
    out(f"load average at the end: {', '.join(f'{x:.2f}' for x in os.getloadavg())}")
    out()
    for note in notes:
        out(f"- {note}")
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(f"\nwritten to {args.out}")


if __name__ == "__main__":
    main()
