"""Benchmark: exact evaluation from the circuit of growing endgames, and the simulators.

Run ``python benchmarks/bench_scale.py [--repeat N] [--budget S] [--max-k K]``.

Table 1 (simulators, the evidence for ``--method auto``): the final distribution of the paper's
examples and the nine-card endgame from each construction on each exact simulator; medians of
N runs, ratio against the dense statevector on the paper construction in the same run.

Table 2 (scale): three players with k cards each, the declarer's hand known, evaluated exactly
from the efficient circuit on the sparse engine (``auto``) and checked against the referee's
fraction; the referee's time in the same run is the baseline. The engine's time includes
building the circuit, simulating it and decoding the final state (the vectorised declarer
points). Sizes grow until one run exceeds the budget (default 600 s) or the engine's memory
guard refuses. A log-log plot of time against play paths, engine and referee, is written to
``benchmarks/results/scale.png``.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import statistics
import time
from dataclasses import replace
from pathlib import Path
from queue import Empty

from qcards.analysis.evaluate import evaluate_spec
from qcards.analysis.resources import resource_spec
from qcards.circuits.game import build_game
from qcards.errors import ResourceError
from qcards.execution.exact import sparse_final_points
from qcards.paper.examples import FOUR_CARD, SIX_CARD
from qcards.skat.referee import evaluate

RESULTS = Path(__file__).resolve().parent / "results"


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
        ("paper", "sparse"),
        ("efficient", "mps"),
        ("efficient", "ddsim"),
        ("efficient", "sparse"),
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


def engine_run(k: int) -> tuple[float, float, int, int]:
    """(seconds, p_win, qubits, nonzero amplitudes): build, simulate and decode, the efficient
    circuit on the sparse engine."""
    start = time.perf_counter()
    spec = scale_spec(k)
    game = build_game(spec)
    points = sparse_final_points(game)
    p_win = sum(p for v, p in points.items() if v >= spec.target)
    return time.perf_counter() - start, p_win, game.num_qubits, len(points)


def _in_child(fn, args, queue) -> None:
    try:
        queue.put(("ok", fn(*args)))
    except ResourceError as exc:
        queue.put(("refused", str(exc)))


def with_budget(fn, args, budget: float):
    """``("ok", result)``, ``("refused", why)`` or ``("timeout", None)``; in a child process."""
    queue = multiprocessing.Queue()
    child = multiprocessing.Process(target=_in_child, args=(fn, args, queue))
    child.start()
    try:
        return queue.get(timeout=budget)
    except Empty:
        return "timeout", None
    finally:
        child.terminate()
        child.join()


def referee_run(k: int) -> tuple[float, object]:
    start = time.perf_counter()
    result = evaluate(scale_spec(k))
    return time.perf_counter() - start, result


def scale(repeat: int, budget: float, max_k: int) -> list[tuple]:
    print(
        "| cards | qubits | play paths | engine s | referee s | engine / referee "
        "| p_win engine | p_win referee | equal |"
    )
    print("|" + "---|" * 9)
    rows = []
    for k in range(1, max_k + 1):
        runs = repeat if k <= 4 else 1
        referee = [with_budget(referee_run, (k,), budget) for _ in range(runs)]
        engine = [with_budget(engine_run, (k,), budget) for _ in range(runs)]
        if engine[0][0] != "ok":
            status = "refused by the memory guard" if engine[0][0] == "refused" else "no answer"
            print(f"\n{3 * k} cards: engine {status} within {budget:.0f} s ({engine[0][1] or ''})")
            break
        seconds = statistics.median(r[1][0] for r in engine)
        _, p_win, qubits, _ = engine[0][1]
        if referee[0][0] != "ok":
            print(
                f"| {3 * k} | {qubits} | - | {seconds:.2f} | > {budget:.0f} | - | {p_win:.9f} "
                "| - | - |"
            )
            continue
        ref_s = statistics.median(r[1][0] for r in referee)
        exact = referee[0][1][1]
        equal = abs(p_win - float(exact.p_win)) < 1e-9
        assert equal, (k, p_win, exact.p_win)
        rows.append((3 * k, exact.num_paths, seconds, ref_s))
        print(
            f"| {3 * k} | {qubits} | {exact.num_paths:,} | {seconds:.2f} | {ref_s:.2f} "
            f"| {seconds / ref_s:.2f}x | {p_win:.9f} | {exact.p_win} | yes |",
            flush=True,
        )
    print(f"\nmedians of {repeat} runs up to 12 cards, one run above; load {os.getloadavg()}")
    return rows


def plot(rows: list[tuple]) -> Path:
    from matplotlib.figure import Figure

    from qcards.files import save_figure

    fig = Figure(figsize=(6, 4.5))
    axis = fig.subplots()
    paths = [r[1] for r in rows]
    axis.loglog(paths, [r[2] for r in rows], "o-", label="circuit on the sparse engine")
    axis.loglog(paths, [r[3] for r in rows], "s--", label="classical referee")
    for cards, n, engine_s, _ in rows:
        axis.annotate(f"{cards} cards", (n, engine_s), textcoords="offset points", xytext=(5, -12))
    axis.set_xlabel("play paths (nonzero amplitudes of the final state)")
    axis.set_ylabel("seconds (median)")
    axis.set_title("Exact p_win: engine (build + simulate + decode) vs referee")
    axis.legend()
    fig.tight_layout()
    return save_figure(fig, RESULTS / "scale.png")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--budget", type=float, default=600)
    parser.add_argument("--max-k", type=int, default=6)
    parser.add_argument("--skip-simulators", action="store_true")
    args = parser.parse_args()
    if not args.skip_simulators:
        simulators(args.repeat)
        print()
    rows = scale(args.repeat, args.budget, args.max_k)
    if len(rows) > 1:
        print(f"plot: {plot(rows)}")


if __name__ == "__main__":
    main()
