"""Benchmark: time `reproduce` and `evaluate` of the paper's examples; print qubit counts.

Run ``python benchmarks/bench_core.py [--repeat N]``. Times are medians of N runs; the
classical referee, timed in the same run, is the baseline of the ratio column.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time

import qcards
from qcards.circuits.game import build_game
from qcards.circuits.layout import GameLayout
from qcards.paper.examples import EXAMPLES
from qcards.paper.reproduce import reproduce_example
from qcards.skat.solvers.plain_referee import evaluate


def median_time(fn, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    rows = []
    for key, example in EXAMPLES.items():
        spec = example.spec()
        first = example.firsts[0]
        layout = GameLayout(spec)
        game = build_game(spec, first, construction="paper")

        def run_referee(spec=spec, first=first):
            return evaluate(spec, "random", first)

        def run_statevector(spec=spec, first=first):
            return qcards.evaluate(spec, first, method="statevector", construction="paper")

        def run_aer(spec=spec, first=first):
            return qcards.evaluate(
                spec, first, method="aer", shots=1000, seed=1, construction="paper"
            )

        referee = median_time(run_referee, args.repeat)
        sv = median_time(run_statevector, args.repeat)
        aer = median_time(run_aer, args.repeat)
        with tempfile.TemporaryDirectory() as out:

            def run_reproduce(example=example, out=out):
                return reproduce_example(example, out)

            rep = median_time(run_reproduce, max(1, args.repeat // 2))
        ops = game.circuit.decompose(reps=3).count_ops()
        rows.append((key, layout.num_qubits, sum(ops.values()), referee, sv, aer, rep))
    header = (
        "| example | qubits | gates (3x decomposed) | referee s | evaluate statevector s "
        "(x referee) | evaluate aer 1000 shots s | reproduce s |"
    )
    print(header)
    print("|" + "---|" * 7)
    for key, q, g, ref, sv, aer, rep in rows:
        print(
            f"| {key} | {q} | {g} | {ref:.4f} | {sv:.2f} ({sv / ref:.0f}x) "
            f"| {aer:.2f} | {rep:.2f} |"
        )
    print(f"\nmedians of {args.repeat} runs (reproduce: {max(1, args.repeat // 2)})")


if __name__ == "__main__":
    main()
