"""The sparse engine with the deals in shards (qcards.execution.sparse.shards), against the whole
state, and on one Dask worker against two.

Each measurement runs in a fresh process (so its peak resident memory is its own, read from
``/proc/self/status`` VmHWM, and the workers' from theirs); the table gives the median of
``--repeat`` runs, the ratio to the baseline measured in the same run, the peak memory (the
process and, with Dask, the largest worker) and the load average before and after.

Cases: fifteen cards (3 x 5, 252 deals, about 7 million paths): the whole state
(``sparse.simulate``), the shards in one process, the shards on a one-worker and a two-worker
local cluster. Eighteen cards (3 x 6, 924 deals, about 800 million paths): the first
``--shards`` shards (of the plan for the whole endgame) on one worker and on two; the rate
gives the time of all of them. ``--full`` runs all eighteen-card shards on two workers.

    python benchmarks/bench_sharded.py [--repeat 3] [--shards 8] [--full]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent


def vmhwm() -> int:
    """Peak resident bytes of this process."""
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmHWM"):
                return int(line.split()[1]) * 1024
    return 0


def one(case: str, cards: int, workers: int, shards: int) -> dict:
    """One measurement in this process; printed as JSON."""
    sys.path.insert(0, str(HERE))
    from bench_scale import scale_spec

    from qcards.circuits.game import build_game
    from qcards.execution.sparse import engine as sparse
    from qcards.execution.sparse import shards as sparse_shards
    from qcards.skat.solvers.plain_referee import estimate_paths

    spec = scale_spec(cards)
    game = build_game(spec, None)
    paths = estimate_paths(spec)
    worker_peak = 0
    start = time.perf_counter()
    if case == "whole":
        state = sparse.simulate(game.circuit, max_rows=10**10)
        out = sparse_shards.final_outcomes(game, state)
        rows = state.num_rows
        del state
    else:
        _, plan = sparse_shards.plan_shards(game, sparse_shards.FinalOutcomes(), paths)
        planned = len(plan)
        plan = plan[:shards] if shards else plan
        scheduler = None
        cluster = client = None
        if workers:
            from distributed import Client

            from qcards.execution.sweeps import local_cluster

            cluster = local_cluster(n_workers=workers)
            client = Client(cluster)
            client.run(__import__, "qcards.execution.sparse.shards")
            scheduler = cluster.scheduler_address
            start = time.perf_counter()  # the cluster's start is not the engine's time
        (out,) = sparse_shards.run_shards(plan, scheduler)
        rows = sum(len(s.deals) for s in plan)
        if client is not None:
            worker_peak = max(client.run(vmhwm).values())
            client.close()
            cluster.close()
        rows = {"deals": rows, "shards": len(plan), "planned shards": planned}
    seconds = time.perf_counter() - start
    p = sum(out.values())
    p_win = sum(q for (v, t), q in out.items() if spec.declarer_wins(v, t))
    full = case == "whole" or shards == 0
    if full:  # the exact answer, against the memoized referee's Fraction
        from qcards.skat.solvers.fast_referee.solver import evaluate

        exact = evaluate(spec, "random", None).p_win
    return {
        "seconds": seconds,
        "peak": vmhwm(),
        "worker_peak": worker_peak,
        "rows": rows,
        "probability": p,
        "paths": paths,
        "p_win": p_win,
        "equal": abs(p_win - float(exact)) <= 1e-9 if full else None,
    }


def measure(case: str, cards: int, workers: int, shards: int, repeat: int) -> dict:
    runs = []
    for _ in range(repeat):
        done = subprocess.run(
            [sys.executable, __file__, "--one", case, str(cards), str(workers), str(shards)],
            capture_output=True,
            text=True,
            check=True,
        )
        runs.append(json.loads(done.stdout.strip().splitlines()[-1]))
    runs.sort(key=lambda r: r["seconds"])
    median = runs[len(runs) // 2]
    median["all"] = [round(r["seconds"], 2) for r in runs]
    return median


EQUAL = {True: "yes", False: "NO", None: "-"}


def gib(n: int) -> str:
    return f"{n / 2**30:.2f}"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--shards", type=int, default=8)
    parser.add_argument("--full", action="store_true")
    parser.add_argument("--one", nargs=4)
    args = parser.parse_args()
    if args.one:
        case, cards, workers, shards = args.one
        print(json.dumps(one(case, int(cards), int(workers), int(shards))))
        return
    load_before = os.getloadavg()
    rows = []
    fifteen = [
        ("15 cards, whole state", "whole", 5, 0, 0),
        ("15 cards, shards, one process", "shards", 5, 0, 0),
        ("15 cards, shards, Dask 1 worker", "shards", 5, 1, 0),
        ("15 cards, shards, Dask 2 workers", "shards", 5, 2, 0),
    ]
    eighteen = [
        (f"18 cards, first {args.shards} shards, Dask 1 worker", "shards", 6, 1, args.shards),
        (f"18 cards, first {args.shards} shards, Dask 2 workers", "shards", 6, 2, args.shards),
    ]
    if args.full:
        eighteen.append(("18 cards, all shards, Dask 2 workers", "shards", 6, 2, 0))
    base = {}
    for label, case, cards, workers, shards in fifteen + eighteen:
        r = measure(case, cards, workers, shards, 1 if shards == 0 and cards == 6 else args.repeat)
        key = (cards, shards)
        base.setdefault(key, r["seconds"])
        rows.append((label, r, base[key] / r["seconds"]))
        print(label, json.dumps(r), file=sys.stderr, flush=True)
    table(rows, args.repeat, load_before, os.getloadavg())


def table(rows, repeat, load_before, load_after) -> None:
    """The markdown table of ``rows`` (label, measurement, ratio)."""
    print(f"Load average (1, 5, 15 min): before {load_before}, after {load_after}; ")
    print(f"{os.cpu_count()} cores; medians of {repeat} runs (each in a fresh process).\n")
    print(
        "| case | median s (runs) | speed-up vs first row of its size | peak RSS GiB "
        "(process / largest worker) | deals (shards run of planned) | all shards s (scaled) "
        "| P total | p_win equals the referee's |"
    )
    print("|---|---|---|---|---|---|---|---|")
    for label, r, ratio in rows:
        size = r["rows"]
        if isinstance(size, dict):
            where = f"{size['deals']} ({size['shards']} of {size['planned shards']})"
            scaled = r["seconds"] * size["planned shards"] / size["shards"]
        else:
            where, scaled = f"{size:,} rows", r["seconds"]
        print(
            f"| {label} | {r['seconds']:.1f} ({', '.join(map(str, r['all']))}) | {ratio:.2f}x | "
            f"{gib(r['peak'])} / {gib(r['worker_peak'])} | {where} | {scaled:.0f} | "
            f"{r['probability']:.12f} | {EQUAL[r['equal']]} |"
        )


if __name__ == "__main__":
    main()
