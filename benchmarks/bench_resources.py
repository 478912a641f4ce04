"""Benchmark: qubits, CX count and depth of the whole game, paper vs efficient, N = 1..10.

Run ``python benchmarks/bench_resources.py [--max-n N]``. N cards per player plus two in the
skat, the declarer's hand known (N = 10: the full 32-card game). Efficient circuits are built
and lowered to {cx, u}; the paper construction is built up to N = 2 and counted from its exact
term structure beyond (column "paper from"). Also prints the wall time of each count.
Results are saved to ``benchmarks/results/resources.json``.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from qcards.analysis.resources import count_resources

RESULTS = Path(__file__).parent / "results" / "resources.json"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--max-n", type=int, default=10)
    args = parser.parse_args()
    rows = []
    print(
        "| N | qubits paper / efficient | deal CX paper | deal CX efficient | game CX paper "
        "| game CX efficient | ratio | game depth paper / efficient | paper from | s |"
    )
    print("|" + "---|" * 10)
    for n in range(1, args.max_n + 1):
        start = time.perf_counter()
        paper = count_resources(n, "paper")
        efficient = count_resources(n, "efficient")
        seconds = time.perf_counter() - start
        p, e = paper.stages, efficient.stages
        print(
            f"| {n} | {paper.num_qubits} / {efficient.num_qubits} | {p['deal'].cx:.3g} "
            f"| {e['deal'].cx} | {p['game'].cx:.3g} | {e['game'].cx} "
            f"| {p['game'].cx / e['game'].cx:.3g} | {p['game'].depth:.3g} / {e['game'].depth} "
            f"| {p['game'].source} | {seconds:.1f} |",
            flush=True,
        )
        rows.append({"paper": paper.to_json(), "efficient": efficient.to_json()})
    RESULTS.parent.mkdir(exist_ok=True)
    RESULTS.write_text(json.dumps(rows, indent=1) + "\n")
    print(f"\nsaved {RESULTS}")


if __name__ == "__main__":
    main()
