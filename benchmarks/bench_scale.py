"""Benchmark: exact evaluation from the circuit of growing endgames, and the simulators.

Run ``python benchmarks/bench_scale.py [--repeat N] [--budget S]``.

Table 1 (simulators, the evidence for ``--method auto``): the final distribution of the paper's
examples and the nine-card endgame from each construction on each exact simulator; medians of
N runs, ratio against the dense statevector on the paper construction in the same run.

Table 2 (scale): three players with k cards each, the declarer's hand known (k = 3 is the
nine-card target of issue 4), evaluated exactly from the efficient circuit on DDSIM and checked
against the referee's fraction; the referee's time is the baseline. Sizes grow until one run
exceeds the budget (default 600 s): the last row inside it is the largest endgame evaluated.
"""

from __future__ import annotations

import argparse
import multiprocessing
import statistics
import time
from dataclasses import replace
from queue import Empty

from qcards.analysis.evaluate import evaluate_spec
from qcards.analysis.resources import resource_spec
from qcards.errors import ResourceError
from qcards.paper.examples import FOUR_CARD, SIX_CARD
from qcards.skat.referee import evaluate


def timed(fn, repeat: int) -> tuple[float, object]:
    times, result = [], None
    for _ in range(repeat):
        start = time.perf_counter()
        result = fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times), result


def scale_spec(k: int):
    """k cards each; the target sits in the middle of the points in play so both outcomes occur."""
    spec = resource_spec(k, skat=False)
    in_play = spec.points_in_play()
    return replace(spec, declarer_points=max(0, min(61 - in_play // 2, 120 - in_play)))


def simulators(repeat: int) -> None:
    cases = {"four-card": FOUR_CARD.spec(), "six-card": SIX_CARD.spec(), "nine-card": scale_spec(3)}
    combos = [
        ("paper", "statevector"),
        ("paper", "mps"),
        ("paper", "ddsim"),
        ("efficient", "mps"),
        ("efficient", "ddsim"),
    ]
    print("| endgame | " + " | ".join(f"{c} {m} s" for c, m in combos) + " |")
    print("|" + "---|" * (len(combos) + 1))
    for name, spec in cases.items():
        cells, base = [], None
        for construction, method in combos:
            if name == "nine-card" and method == "mps":
                cells.append("(minutes; skipped)")
                continue
            try:
                seconds, report = timed(
                    lambda c=construction, m=method, s=spec: evaluate_spec(
                        s, method=m, construction=c
                    ),
                    repeat,
                )
            except ResourceError:
                cells.append("too wide")
                continue
            assert abs(report.p_win - float(report.p_win_exact)) < 1e-9
            base = base or seconds
            cells.append(f"{seconds:.2f} ({base / seconds:.1f}x)")
        print(f"| {name} ({report.num_qubits} q eff.) | " + " | ".join(cells) + " |", flush=True)
    print(f"\nmedians of {repeat} runs; (Nx) = speed-up over the first column that ran")


def _evaluate_in_child(k: int, queue) -> None:
    start = time.perf_counter()
    report = evaluate_spec(scale_spec(k), method="ddsim")
    queue.put((time.perf_counter() - start, report))


def evaluate_with_budget(k: int, budget: float):
    """(seconds, report) of one exact evaluation, or (None, None) if it exceeds the budget."""
    queue = multiprocessing.Queue()
    child = multiprocessing.Process(target=_evaluate_in_child, args=(k, queue))
    child.start()
    try:
        return queue.get(timeout=budget)
    except Empty:
        return None, None
    finally:
        child.terminate()
        child.join()


def scale(repeat: int, budget: float, max_k: int) -> None:
    print(
        "| cards | qubits | paths | referee s | efficient+ddsim s (x referee) | p_win circuit "
        "| p_win referee |"
    )
    print("|" + "---|" * 7)
    for k in range(1, max_k + 1):
        spec = scale_spec(k)
        ref_s, referee = timed(lambda s=spec: evaluate(s), repeat)
        runs = [evaluate_with_budget(k, budget) for _ in range(repeat if k <= 3 else 1)]
        if runs[0][0] is None:
            print(f"\n{3 * k} cards: no exact answer within the budget of {budget:.0f} s")
            break
        seconds = statistics.median(r[0] for r in runs)
        report = runs[0][1]
        assert abs(report.p_win - float(referee.p_win)) < 1e-9
        print(
            f"| {3 * k} | {report.num_qubits} | {referee.num_paths} | {ref_s:.3f} "
            f"| {seconds:.1f} ({seconds / ref_s:.0f}x) | {report.p_win:.9f} "
            f"| {referee.p_win} |",
            flush=True,
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--budget", type=float, default=600)
    parser.add_argument("--max-k", type=int, default=5)
    parser.add_argument("--skip-simulators", action="store_true")
    args = parser.parse_args()
    if not args.skip_simulators:
        simulators(args.repeat)
        print()
    scale(args.repeat, args.budget, args.max_k)


if __name__ == "__main__":
    main()
