"""Benchmark: amplitude estimation of a 3-player, twenty-deal endgame on the sparse engine.

Run ``python benchmarks/bench_engine_counting.py [--repeat N] [--budget S]``.

The endgame: three players with three cards each, the declarer's hand known, so the six
unknown cards give C(6, 3) = 20 deals and 1,976 play paths (``bench_scale.scale_spec(3)``).
For each construction (paper, efficient) and algorithm (IAE and MLAE at epsilon 0.01,
canonical counting with 7 evaluation qubits): the median seconds of N runs on the ``sparse``
target, the estimate, its interval and its error against the referee's exact p_win. The
baseline in the same run is IAE on ``ddsim`` (the previous default target), one run under the
time budget.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import statistics
import sys
import time
from pathlib import Path
from queue import Empty

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_scale import scale_spec  # noqa: E402

from qcards.circuits.task import GameTask  # noqa: E402
from qcards.errors import QcardsError  # noqa: E402
from qcards.estimation.counting import count  # noqa: E402
from qcards.estimation.options import EstimationOptions  # noqa: E402

SETTINGS = {"iae": {}, "mlae": {}, "canonical": {"eval_qubits": 7}}


def one_run(construction: str, algorithm: str, backend: str, seed: int):
    task = GameTask(scale_spec(3), None, construction)
    options = EstimationOptions(
        algorithm=algorithm, epsilon=0.01, seed=seed, backend=backend, **SETTINGS[algorithm]
    )
    start = time.perf_counter()
    result = count(task, options)
    return time.perf_counter() - start, result


def _child(args, queue) -> None:
    try:
        queue.put(one_run(*args))
    except QcardsError as exc:  # refused up front (its time plan): said at once, not waited out
        queue.put(("refused", str(exc)))


def with_budget(args, budget: float):
    queue = multiprocessing.Queue()
    child = multiprocessing.Process(target=_child, args=(args, queue))
    child.start()
    try:
        return queue.get(timeout=budget)
    except Empty:
        return None
    finally:
        child.terminate()
        child.join()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--budget", type=float, default=300)
    args = parser.parse_args()
    print(f"load at start {os.getloadavg()}")
    baseline = with_budget(("paper", "iae", "ddsim", 1), args.budget)
    refused = baseline is not None and baseline[0] == "refused"
    base_s = baseline[0] if baseline and not refused else None
    shown = f"{base_s:.1f} s" if base_s else f"> {args.budget:.0f} s"
    if refused:
        shown = f"refused before it starts ({baseline[1]})"
    print(f"baseline: IAE on ddsim, paper construction, epsilon 0.01: {shown}\n")
    print(
        "| construction | qubits | algorithm | sparse s (median) | vs baseline | estimate "
        "| interval | error | exact |"
    )
    print("|" + "---|" * 9)
    for construction in ("paper", "efficient"):
        for algorithm in SETTINGS:
            runs = [
                with_budget((construction, algorithm, "sparse", seed), args.budget)
                for seed in range(1, args.repeat + 1)
            ]
            if any(r is None or r[0] == "refused" for r in runs):
                print(f"| {construction} | - | {algorithm} | > {args.budget:.0f} | | | | | |")
                continue
            seconds = statistics.median(r[0] for r in runs)
            result = runs[0][1]
            speed = f"{base_s / seconds:.0f}x faster" if base_s else "-"
            print(
                f"| {construction} | {result.num_qubits} | {algorithm} | {seconds:.1f} | {speed} "
                f"| {result.estimate:.5f} | [{result.ci[0]:.4f}, {result.ci[1]:.4f}] "
                f"| {result.error:.5f} | {result.exact} |",
                flush=True,
            )
    print(f"\nmedians of {args.repeat} seeds (estimate of seed 1); load at end {os.getloadavg()}")


if __name__ == "__main__":
    main()
