"""Benchmark: estimation error versus oracle calls for counting/amplitude estimation.

For both paper examples (six-card with the ace led) it runs canonical phase estimation (m = 2..4
evaluation qubits), IAE (several epsilons), MLAE (doubling schedules of several lengths) and
plain sampling of the win circuit (each shot one application of A, counted as one call), with
several seeds (the study itself is :func:`qcards.analysis.estimation_error.estimation_error`). It
prints a table
of median absolute errors, the fitted log-log slopes (amplitude estimation should approach -1,
sampling -1/2), the time of one Grover power on DDSIM versus Aer, and saves the plot to
``benchmarks/results/counting_error.png``.

Run: ``python benchmarks/bench_counting.py [--seeds N] [--sampling-seeds N] [--quick]``.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from qiskit import ClassicalRegister, transpile
from qiskit_aer import AerSimulator

from qcards.analysis.estimation_error import DEFAULT_SETTINGS, QUICK_SETTINGS, estimation_error
from qcards.circuits.oracle import build_win_circuit
from qcards.estimation.counting import estimation_problem
from qcards.paper.examples import FOUR_CARD, SIX_CARD
from qcards.viz.plots import estimation_error_figure, save_figure

OUT = Path(__file__).parent / "results"


def grover_timing(spec, first, k=10):
    win = build_win_circuit(spec, first, construction="paper")
    problem = estimation_problem(win)
    qc = win.circuit.copy()
    for _ in range(k):
        qc.compose(problem.grover_operator, inplace=True)
    creg = ClassicalRegister(1, "win")
    qc.add_register(creg)
    qc.measure(win.objective, creg[0])
    out = {}
    from mqt.ddsim import DDSIMProvider

    for name, backend in (
        ("ddsim", DDSIMProvider().get_backend("qasm_simulator")),
        ("aer", AerSimulator(method="statevector")),
    ):
        tq = transpile(qc, backend, optimization_level=1)
        start = time.perf_counter()
        backend.run(tq, shots=100, seed=1).result() if name == "ddsim" else backend.run(
            tq, shots=100, seed_simulator=1
        ).result()
        out[name] = time.perf_counter() - start
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seeds", type=int, default=3, help="seeds of amplitude estimation")
    parser.add_argument(
        "--sampling-seeds", type=int, default=30, help="seeds of plain sampling (cheap)"
    )
    parser.add_argument("--quick", action="store_true", help="fewer settings (for a smoke run)")
    args = parser.parse_args()
    settings = QUICK_SETTINGS if args.quick else DEFAULT_SETTINGS
    seeds = {method: args.seeds for method in settings} | {"sampling": args.sampling_seeds}
    examples = [
        ("four-card", FOUR_CARD.spec(), None),
        ("six-card", SIX_CARD.spec(), SIX_CARD.firsts[0]),
    ]
    print("| example | method | setting | median oracle calls | median abs error | median s |")
    print("|---|---|---|---|---|---|")
    studies = []
    for key, spec, first in examples:
        study = estimation_error(key, spec, first, settings, seeds)
        studies.append(study)
        for point in study.points:
            setting = ", ".join(f"{k}={v}" for k, v in point.setting.items())
            print(
                f"| {key} | {point.method} | {setting} | {point.oracle_calls:.0f} "
                f"| {point.error:.5f} | {point.seconds:.2f} |",
                flush=True,
            )
    OUT.mkdir(exist_ok=True)
    path = save_figure(estimation_error_figure(studies), OUT / "counting_error.png")
    (OUT / "counting_error.json").write_text(
        json.dumps([study.to_json() for study in studies], indent=1) + "\n"
    )
    print("\nfitted log-log slopes (error ~ calls^slope):")
    for study in studies:
        for method, slope in study.slopes.items():
            print(f"  {study.name:9s} {method:9s} {slope:+.2f}")
    print("\none Q^10 circuit, 100 shots (seconds):")
    for key, spec, first in examples[:1]:
        t = grover_timing(spec, first)
        print(
            f"  {key}: ddsim {t['ddsim']:.2f}  aer {t['aer']:.2f}  "
            f"(aer/ddsim {t['aer'] / t['ddsim']:.0f}x)"
        )
    print(f"\nplot: {path}")


if __name__ == "__main__":
    main()
