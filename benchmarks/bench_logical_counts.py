"""Benchmark: the logical counts of A (deal, game, win oracle) by call graph against the same
rules applied to the fully flattened circuit (issue 32's check "counts equal to a flattened
count on every spec up to six cards per player that flattening can reach in a minute").

Run ``python benchmarks/bench_logical_counts.py [--repeat R] [--max-n N] [--budget S]``.

For N = 1..N cards per player (:func:`qcards.analysis.resources.resource_spec`, efficient
construction): the seconds of the cached count (:func:`qcards.circuits.logical_counts
.logical_counts`), the seconds of flattening the circuit (Qiskit's ``decompose`` until only
gates counted by rule are left) and counting it, their ratio, and whether every count (the
rotation depth included) is equal. Flattening stops being tried past ``--budget`` seconds
(default 60). Medians of R runs; writes ``benchmarks/results/logical_counts.md``.
"""

from __future__ import annotations

import argparse
import os
from pathlib import Path

from bench_scale import timed

from qcards.analysis.resources import resource_spec
from qcards.circuits.logical_counts import flattened, logical_counts
from qcards.circuits.oracle import build_win_circuit

RESULTS = Path(__file__).resolve().parent / "results"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--max-n", type=int, default=6)
    parser.add_argument("--budget", type=float, default=60.0)
    args = parser.parse_args()
    lines = [
        "# Logical counts: call graph against the flattened circuit (`bench_logical_counts.py`)",
        "",
        f"Machine: 2 cores, load {os.getloadavg()[0]:.1f} at the start. Medians of "
        f"{args.repeat} runs; the flattened count is the baseline.",
        "",
        "| N | qubits | Toffoli/CCZ | rotations | rotation depth | call graph s "
        "| flatten + count s | ratio | equal |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    flattening = True
    for n in range(1, args.max_n + 1):
        circuit = build_win_circuit(resource_spec(n)).circuit
        fast, counts = timed(lambda c=circuit: logical_counts(c), args.repeat)
        cells = [
            str(n),
            str(counts.num_qubits),
            f"{counts.toffoli_class:,}",
            f"{counts.rotations:,}",
            f"{counts.rotation_depth:,}",
            f"{fast:.2f}",
        ]
        if flattening:
            slow, flat = timed(lambda c=circuit: logical_counts(flattened(c)), 1)
            cells += [f"{slow:.1f}", f"{slow / fast:.0f}x", "yes" if flat == counts else "**no**"]
            flattening = slow < args.budget
        else:
            cells += ["(over the budget)", "", "not tried"]
        lines.append("| " + " | ".join(cells) + " |")
        print(lines[-1], flush=True)
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / "logical_counts.md").write_text("\n".join(lines) + "\n")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
