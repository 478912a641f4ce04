"""Benchmark: exact evaluation of growing endgames, the fast referee against the circuit, and the
simulators.

Run ``python benchmarks/bench_scale.py [--repeat N] [--big-repeat M] [--budget S] [--max-k K]
[--skip-simulators]``.

Table 1 (simulators, the evidence for ``--method auto``): the final distribution of the paper's
examples and the nine-card endgame from each construction on each exact simulator; medians of
N runs, ratio against the dense statevector on the paper construction in the same run.

Table 2 (scale): three players with k cards each (k = 1..K: 3 to 3K cards, :func:`scale_spec`),
the declarer's hand known, random play. For each size: the deals; the play paths (exact, as
the fast referee counts them, where it answered, else Knuth's estimate
:func:`qcards.skat.solvers.plain_referee.estimate_paths`); the distinct positions the fast referee
memoizes (:class:`qcards.skat.solvers.fast_referee.solver.Search`); the fast referee's seconds
(:func:`qcards.skat.solvers.fast_referee.solver.evaluate`, its own time check included: a refusal is
reported); the circuit's seconds (the efficient construction on the sparse engine, the deals in
shards: :func:`qcards.execution.exact.sparse_final_outcomes`, building the circuit, simulating
it and reducing the final rows to the declarer's (points, tricks); the engine's memory and time
guard included); the circuit run's peak resident memory; and whether the circuit's p_win equals
the referee's Fraction to 1e-9.

The referee runs in forked children (:func:`with_budget`: its compiled kernels are loaded once
in this process and inherited, so a run is one spec from scratch without the kernel load).
Every circuit run is a fresh interpreter (``--circuit-child``) that loads the engine's compiled
control test first, then times one run from scratch and reports its own peak RSS
(``ru_maxrss``; the interpreter and imports included, their share printed beside it); this
process reads ``RUSAGE_CHILDREN`` as a check. Interpreter start and imports are not counted in
either method's seconds. Each case (all runs of one method and size) is stopped at
``--budget`` seconds (default 600). Medians of ``--repeat`` runs up to fifteen cards,
``--big-repeat`` above; a method stops at its first refusal or timeout. A log-log plot of time
against play paths, both methods, is written to ``benchmarks/results/scale.png``.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import platform
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from pathlib import Path
from queue import Empty

from qcards.analysis.evaluate import evaluate
from qcards.analysis.resources import resource_spec
from qcards.errors import ResourceError
from qcards.paper.examples import FOUR_CARD, SIX_CARD
from qcards.skat.deals.count import num_deals
from qcards.skat.solvers.fast_referee import solver as fast_referee
from qcards.skat.solvers.plain_referee import estimate_paths

RESULTS = Path(__file__).resolve().parent / "results"
GIB = 2**30
CHILD_MARK = "@scale "


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
                    lambda c=construction, m=method, s=spec: evaluate(s, method=m, construction=c),
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


# ----------------------------------------------------------------------------- children


def _in_child(fn, args, queue) -> None:
    try:
        queue.put(("ok", fn(*args)))
    except ResourceError as exc:
        queue.put(("refused", str(exc)))
    except Exception as exc:  # reported, not waited for until the budget runs out
        queue.put(("error", f"{type(exc).__name__}: {exc}"))


def with_budget(fn, args, budget: float):
    """``("ok", result)``, ``("refused", why)``, ``("error", what)`` or ``("timeout", None)``;
    in a forked child process, stopped after ``budget`` seconds."""
    queue = multiprocessing.Queue()
    child = multiprocessing.Process(target=_in_child, args=(fn, args, queue))
    child.start()
    deadline = time.monotonic() + budget
    try:
        while True:
            try:
                return queue.get(timeout=max(0.01, min(1.0, deadline - time.monotonic())))
            except Empty:
                if not child.is_alive():
                    try:
                        return queue.get(timeout=1.0)
                    except Empty:
                        return "error", f"the child exited with code {child.exitcode}"
                if time.monotonic() >= deadline:
                    return "timeout", None
    finally:
        child.terminate()
        child.join()


def referee_run(k: int) -> tuple[float, object, object]:
    """(seconds, Evaluation, Search): :func:`fast_referee.evaluate` of the random model, its
    time check included (a refusal raises ResourceError), keeping the solver's statistics."""
    spec = scale_spec(k)
    start = time.perf_counter()
    solver = fast_referee._solver(spec, "random", None, False)  # what evaluate() runs
    evaluation = solver.evaluate(None)
    return time.perf_counter() - start, evaluation, solver.search()


def circuit_child(k: int) -> None:
    """In a fresh interpreter: one run of the circuit on the sparse engine, reported as one JSON
    line (seconds, p_win, qubits, this process's peak RSS), or its refusal. The compiled control
    test is loaded first, not counted (as the referee's kernels are not)."""
    import numpy as np

    from qcards.circuits.task import GameTask
    from qcards.execution.exact import sparse_final_outcomes
    from qcards.execution.sparse.kernels import COMPILED_ROWS, match_words

    def report(**fields) -> None:
        print(CHILD_MARK + json.dumps(fields), flush=True)

    base = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    match_words(np.zeros((2, COMPILED_ROWS), dtype=np.uint64), {0: (1, 0), 1: (2, 2)})
    spec = scale_spec(k)
    start = time.perf_counter()
    try:
        game = GameTask(spec).build()
        outcomes = sparse_final_outcomes(game)
    except ResourceError as exc:
        report(kind="refused", why=str(exc))
        return
    p_win = sum(p for (v, t), p in outcomes.items() if spec.declarer_wins(v, t))
    seconds = time.perf_counter() - start
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    report(kind="run", seconds=seconds, p_win=p_win, qubits=game.num_qubits, rss=rss, base=base)


@dataclass
class CircuitResult:
    status: str  # ok | refused | timeout | error
    times: list[float]
    p_win: list[float]
    qubits: int | None = None
    peak: int = 0  # bytes: the largest of the runs' own ru_maxrss
    base: int = 0  # bytes: ru_maxrss after the imports
    why: str = ""


def circuit_once(k: int, budget: float) -> tuple[str, dict | str]:
    """One circuit run of ``scale_spec(k)`` in a fresh interpreter, killed after ``budget`` s."""
    with tempfile.TemporaryFile("w+") as out:
        child = subprocess.Popen(
            [sys.executable, __file__, "--circuit-child", str(k)],
            stdout=out,
            stderr=subprocess.PIPE,
            text=True,
        )
        try:
            _, err = child.communicate(timeout=budget)
        except subprocess.TimeoutExpired:
            child.kill()
            child.communicate()
            return "timeout", ""
        out.seek(0)
        lines = [json.loads(x[len(CHILD_MARK) :]) for x in out if x.startswith(CHILD_MARK)]
    if not lines:
        last = (err or "").strip().splitlines()[-1:] or [""]
        return "error", f"exit code {child.returncode} {last[0]}"
    line = lines[-1]
    return ("refused", line["why"]) if line["kind"] == "refused" else ("ok", line)


def circuit_case(k: int, runs: int, budget: float) -> CircuitResult:
    """Up to ``runs`` circuit runs, each in a fresh interpreter, within ``budget`` seconds in
    all; stops at the first that does not answer (the runs before it are kept)."""
    result = CircuitResult("ok", [], [])
    deadline = time.monotonic() + budget
    for _ in range(runs):
        status, line = circuit_once(k, max(1.0, deadline - time.monotonic()))
        if status != "ok":
            if not result.times:
                result.status, result.why = status, line
            break
        result.times.append(line["seconds"])
        result.p_win.append(line["p_win"])
        result.qubits = line["qubits"]
        result.peak = max(result.peak, line["rss"])
        result.base = max(result.base, line["base"])
    return result


# ----------------------------------------------------------------------------- the table


def first_words(why: str, words: int = 9) -> str:
    return " ".join(why.split()[:words]).rstrip(",;(") + " ..."


def scale(repeat: int, big_repeat: int, budget: float, max_k: int) -> list[tuple]:
    """The table; returns (cards, paths, referee s, circuit s) for the plot (None: no time)."""
    start_load = os.getloadavg()
    begin = time.perf_counter()
    fast_referee.evaluate(scale_spec(1))  # load the compiled kernels once; children inherit them
    warm = time.perf_counter() - begin
    print(
        f"{datetime.now(UTC):%Y-%m-%d %H:%M} UTC, {platform.machine()}, {os.cpu_count()} cores; "
        f"load average at start (1, 5, 15 min): {', '.join(f'{x:.2f}' for x in start_load)}; "
        f"loading the referee's compiled kernels: {warm:.2f} s (not counted)\n"
    )
    print(
        "| cards | deals | play paths | distinct states | referee s | circuit s "
        "| peak memory | p_win equal | p_win (referee) | runs (referee / circuit) | load |"
    )
    print("|" + "---|" * 11)
    rows, notes = [], []
    for k in range(1, max_k + 1):
        spec, cards = scale_spec(k), 3 * k
        runs = repeat if cards <= 15 else big_repeat
        deals = num_deals(spec)
        referee = [with_budget(referee_run, (k,), budget)]
        while referee[-1][0] == "ok" and len(referee) < runs:
            referee.append(with_budget(referee_run, (k,), budget))
        ok = [r[1] for r in referee if r[0] == "ok"]
        evaluation = search = None
        if ok:
            _, evaluation, search = ok[0]
            ref_s = statistics.median(r[0] for r in ok)
            ref_cell = f"{ref_s:.3f}"
            paths = evaluation.num_paths
            paths_cell = f"{paths:,}"
            states_cell = f"{search.states:,}" + (
                f" ({search.prunes} prunes)" if search.prunes else ""
            )
            if any(r[1] != evaluation for r in ok[1:]):
                notes.append(f"{cards} cards: the referee's runs disagree")
        else:
            ref_s, paths = None, estimate_paths(spec)
            paths_cell, states_cell = f"about {paths:.2g} (Knuth)", "-"
            ref_cell = failure(referee[-1][0], referee[-1][1], budget)
        circuit = circuit_case(k, runs, budget)
        if circuit.status == "ok":
            circ_s = statistics.median(circuit.times)
            circ_cell = f"{circ_s:.2f}"
            peak_cell = f"{circuit.peak / GIB:.2f} GiB"
            notes.append(
                f"{cards} cards: circuit {circuit.qubits} qubits, p_win {circuit.p_win[0]:.12f}; "
                f"peak RSS {circuit.peak / GIB:.3f} GiB, of which {circuit.base / GIB:.3f} GiB "
                "after the imports"
            )
        else:
            circ_s, peak_cell = None, "-"
            circ_cell = failure(circuit.status, circuit.why, budget)
        if evaluation is not None and circuit.status == "ok":
            equal = all(abs(p - float(evaluation.p_win)) < 1e-9 for p in circuit.p_win)
            equal_cell = "yes" if equal else "**NO**"
            if not equal:
                notes.append(
                    f"{cards} cards: MISMATCH circuit {circuit.p_win} against referee "
                    f"{evaluation.p_win} = {float(evaluation.p_win)!r}"
                )
        else:
            equal_cell = "-"
        fraction = f"{evaluation.p_win}" if evaluation is not None else "-"
        print(
            f"| {cards} | {deals:,} | {paths_cell} | {states_cell} | {ref_cell} | {circ_cell} "
            f"| {peak_cell} | {equal_cell} | {fraction} | {len(ok)} / {len(circuit.times)} "
            f"| {os.getloadavg()[0]:.1f} |",
            flush=True,
        )
        rows.append((cards, paths, ref_s, circ_s))
    end_load = os.getloadavg()
    children = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss * 1024
    print(f"\nload average at the end: {', '.join(f'{x:.2f}' for x in end_load)}")
    print(
        f"largest peak RSS of any child (RUSAGE_CHILDREN, referee children included): "
        f"{children / GIB:.2f} GiB"
    )
    print(
        f"medians of {repeat} runs up to 15 cards, {big_repeat} above (a method stops at its "
        f"first refusal or timeout); each case stopped at {budget:.0f} s"
    )
    for note in notes:
        print(f"- {note}")
    return rows


def failure(status: str, why: str | None, budget: float) -> str:
    if status == "refused":
        return f"refused: {first_words(why or '')}"
    if status == "timeout":
        return f"no answer in {budget:.0f} s"
    return f"error: {first_words(why or '', 12)}"


def plot(rows: list[tuple]) -> Path:
    from matplotlib.figure import Figure

    from qcards.files import save_figure

    fig = Figure(figsize=(6.5, 4.8))
    axis = fig.subplots()
    for index, label, marker in ((3, "circuit, sparse engine in shards", "o-"),
                                 (2, "fast referee (memoized)", "s--")):  # fmt: skip
        points = [(r[1], r[index]) for r in rows if r[index] is not None and r[1] >= 1]
        if points:
            axis.loglog(*zip(*points, strict=True), marker, label=label)
    for cards, paths, ref_s, circ_s in rows:
        seconds = circ_s if circ_s is not None else ref_s
        if seconds is not None:
            axis.annotate(
                f"{cards} cards", (paths, seconds), textcoords="offset points", xytext=(5, -12)
            )
    axis.set_xlabel("play paths (deal, play order) pairs")
    axis.set_ylabel("seconds (median)")
    axis.set_title("Exact p_win, random play: circuit vs fast referee")
    axis.legend()
    fig.tight_layout()
    return save_figure(fig, RESULTS / "scale.png")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--big-repeat", type=int, default=2, help="runs above fifteen cards")
    parser.add_argument("--budget", type=float, default=600, help="seconds a case may take")
    parser.add_argument("--max-k", type=int, default=7)
    parser.add_argument("--skip-simulators", action="store_true")
    parser.add_argument("--circuit-child", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.circuit_child is not None:
        circuit_child(args.circuit_child)
        return
    if not args.skip_simulators:
        simulators(args.repeat)
        print()
    rows = scale(args.repeat, args.big_repeat, args.budget, args.max_k)
    if sum(r[2] is not None or r[3] is not None for r in rows) > 1:
        print(f"plot: {plot(rows)}")


if __name__ == "__main__":
    main()
