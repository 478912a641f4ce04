"""How often mitigated p_win lands near the exact value, over seeds (issue: mitigation that never
does worse than its parts).

For the four- and six-card examples on FakeTorino's emulation, each seed runs the circuits of
``--mitigate all`` once (the hardware construction at noise scales 1, 3 and 5, and the two
readout calibration circuits) and reads every estimator from the same counts: raw, detection,
detection with readout correction, and ``all`` (zero-noise extrapolation on top, dropped where
the bootstrap says the fit adds more variance than it removes bias). Reported per estimator:
how often |p_win - exact| <= 0.05, how often the 95% interval covers the exact value, the mean
absolute error, and (for ``all``) how often the fit was dropped.

    python benchmarks/bench_mitigation_seeds.py [--seeds 10] [--shots 1000] [--quick]
        [--examples four-card,six-card]
"""

from __future__ import annotations

import argparse
import os
import time

from qcards.circuits.task import GameTask
from qcards.execution.backends import parse_backend
from qcards.execution.mitigation import Mitigation, mitigated_report, mitigation_circuits
from qcards.execution.run import sampled_counts
from qcards.execution.transpile import measured_circuit, transpile_to, transpiled_size
from qcards.paper.examples import EXAMPLES
from qcards.skat.referee import evaluate

BACKEND = "fake:FakeTorino"
ESTIMATORS = {
    "raw": Mitigation("none", False, False, False),
    "detect": Mitigation("detect", True, False, False),
    "detect+readout": Mitigation("detect+readout", True, True, False),
    "all": Mitigation("all", True, True, True),
}


def one_seed(example, seed: int, shots: int) -> dict[str, tuple[float, tuple, dict | None]]:
    """Every estimator's (p_win, interval, extrapolation record) from one set of runs."""
    task = GameTask(example.spec(), None, "hardware")
    game = task.build()
    device, sampler = parse_backend(BACKEND).sampler(seed)
    transpiled = transpile_to(measured_circuit(game), device, seed, "qubits")
    size = transpiled_size(transpiled)
    every = ESTIMATORS["all"]
    counts = sampled_counts(sampler, mitigation_circuits(transpiled, every, seed, device), shots)
    scale_one, calibration = counts[:1], counts[len(every.scales) :]
    out = {}
    for name, mitigation in ESTIMATORS.items():
        runs = counts if mitigation.zne else scale_one + (calibration if mitigation.readout else [])
        report = mitigated_report(task.spec, game, BACKEND, size, runs, mitigation, seed)
        out[name] = (report.p_win, report.ci, report.extrapolation)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=10)
    parser.add_argument("--shots", type=int, default=1000)
    parser.add_argument("--quick", action="store_true", help="two seeds, 300 shots")
    parser.add_argument(
        "--examples",
        default="four-card,six-card",
        help="comma-separated paper examples (default: four-card,six-card)",
    )
    args = parser.parse_args()
    seeds, shots = (2, 300) if args.quick else (args.seeds, args.shots)
    print(f"# Mitigation over {seeds} seeds on {BACKEND} ({shots} shots a run)\n")
    print(f"load average at the start: {', '.join(f'{x:.2f}' for x in os.getloadavg())}\n")
    chosen = [name.strip() for name in args.examples.split(",")]
    unknown = [name for name in chosen if name not in EXAMPLES]
    if unknown:
        parser.error(f"unknown example {unknown[0]!r}; choose from {', '.join(EXAMPLES)}")
    for example in (EXAMPLES[name] for name in chosen):
        exact = float(evaluate(example.spec()).p_win)
        rows = {name: [] for name in ESTIMATORS}
        start = time.perf_counter()
        for seed in range(1, seeds + 1):
            for name, result in one_seed(example, seed, shots).items():
                rows[name].append(result)
            done = ", ".join(f"{name} {values[-1][0]:.3f}" for name, values in rows.items())
            print(f"<!-- {example.key} seed {seed}: {done} -->", flush=True)
        seconds = time.perf_counter() - start
        print(f"## {example.key} (exact p_win {exact:.4f}; {seconds / 60:.1f} min)\n")
        header = ["estimator", "within 0.05", "covers", "mean abs error", "fit dropped", "p_win"]
        print("| " + " | ".join(header) + " |")
        print("|---|---|---|---|---|---|")
        for name, results in rows.items():
            near = sum(abs(p - exact) <= 0.05 for p, _, _ in results)
            covers = sum(ci is not None and ci[0] <= exact <= ci[1] for _, ci, _ in results)
            error = sum(abs(p - exact) for p, _, _ in results) / len(results)
            dropped = sum(bool(z and z.get("dropped")) for _, _, z in results)
            fits = sum(bool(z and z.get("extrapolated")) for _, _, z in results)
            drop = f"{dropped}/{fits} fits" if name == "all" else "-"
            values = " ".join(f"{p:.3f}" for p, _, _ in results)
            print(
                f"| {name} | {near}/{seeds} | {covers}/{seeds} | {error:.3f} | {drop} | {values} |"
            )
        print()


if __name__ == "__main__":
    main()
