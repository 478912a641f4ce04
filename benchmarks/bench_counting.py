"""Benchmark: estimation error versus oracle calls for counting/amplitude estimation.

For both paper examples (six-card with the ace led) it runs canonical phase estimation (m = 2..4
evaluation qubits), IAE (several epsilons), MLAE (doubling schedules of several lengths) and
plain Monte Carlo sampling of the win circuit (each shot one application of A, counted as one
call), with several seeds. It prints a table of median absolute errors, the fitted log-log
slopes (amplitude estimation should approach -1, sampling -1/2), the time of one Grover power
on DDSIM versus Aer, and saves the plot to ``benchmarks/results/counting_error.png``.

Run: ``python benchmarks/bench_counting.py [--seeds N] [--quick]``.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
from qiskit import ClassicalRegister, transpile  # noqa: E402
from qiskit_aer import AerSimulator  # noqa: E402

from qcards.classical import evaluate  # noqa: E402
from qcards.counting import count, default_sampler, estimation_problem  # noqa: E402
from qcards.paper import FOUR_CARD, SIX_CARD  # noqa: E402
from qcards.score import build_win_circuit  # noqa: E402

OUT = Path(__file__).parent / "results"


def monte_carlo(spec, first, shots, seed):
    win = build_win_circuit(spec, first)
    qc = win.circuit.copy()
    creg = ClassicalRegister(1, "win")
    qc.add_register(creg)
    qc.measure(win.objective, creg[0])
    sampler = default_sampler("ddsim", shots, seed)
    counts = sampler.run([(qc,)]).result()[0].data.win.get_counts()
    return counts.get("1", 0) / shots, shots


def grover_timing(spec, first, k=10):
    win = build_win_circuit(spec, first)
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


def fit_slope(calls, errors):
    """Least-squares slope of log(error) on log(calls); points with no call are left out
    (IAE stops at k = 0 when its first round already meets a loose epsilon)."""
    pairs = [(c, e) for c, e in zip(calls, errors, strict=True) if c > 0]
    if len(pairs) < 2:
        return float("nan")
    x = np.log([c for c, _ in pairs])
    y = np.log([max(e, 1e-6) for _, e in pairs])
    return float(np.polyfit(x, y, 1)[0])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seeds", type=int, default=3)
    parser.add_argument("--quick", action="store_true", help="fewer settings (for a smoke run)")
    args = parser.parse_args()
    settings = {
        "canonical": [{"eval_qubits": m} for m in ((2, 3) if args.quick else (2, 3, 4))],
        "iae": [{"epsilon": e} for e in ((0.1, 0.03) if args.quick else (0.1, 0.05, 0.02, 0.01))],
        "mlae": [{"epsilon": e} for e in ((0.2, 0.05) if args.quick else (0.2, 0.1, 0.05, 0.02))],
        "sampling": [{"shots": n} for n in ((100, 1600) if args.quick else (100, 400, 1600, 6400))],
    }
    examples = [
        ("four-card", FOUR_CARD.spec(), None),
        ("six-card", SIX_CARD.spec(), SIX_CARD.firsts[0]),
    ]
    OUT.mkdir(exist_ok=True)
    fig, axes = plt.subplots(1, 2, figsize=(11, 4.5))
    print("| example | method | setting | median oracle calls | median abs error | median s |")
    print("|---|---|---|---|---|---|")
    slopes = {}
    raw: list[dict] = []
    for ax, (key, spec, first) in zip(axes, examples, strict=True):
        exact = float(evaluate(spec, "random", first).p_win)
        for method, options in settings.items():
            calls_axis, error_axis = [], []
            for opt in options:
                calls, errors, times = [], [], []
                for seed in range(1, args.seeds + 1):
                    start = time.perf_counter()
                    if method == "sampling":
                        estimate, n = monte_carlo(spec, first, opt["shots"], seed)
                    else:
                        r = count(spec, first, method=method, seed=seed, shots=100, **opt)
                        estimate, n = r.estimate, r.oracle_calls
                    times.append(time.perf_counter() - start)
                    calls.append(n)
                    errors.append(abs(estimate - exact))
                c, e = statistics.median(calls), statistics.median(errors)
                calls_axis.append(c)
                error_axis.append(e)
                setting = ", ".join(f"{k}={v}" for k, v in opt.items())
                print(
                    f"| {key} | {method} | {setting} | {c:.0f} | {e:.5f} "
                    f"| {statistics.median(times):.2f} |"
                )
            slopes[(key, method)] = fit_slope(calls_axis, error_axis)
            raw.append(
                {
                    "example": key,
                    "method": method,
                    "calls": calls_axis,
                    "errors": error_axis,
                    "slope": slopes[(key, method)],
                }
            )
            shown = [(c, e) for c, e in zip(calls_axis, error_axis, strict=True) if c > 0]
            ax.loglog(
                [c for c, _ in shown],
                [e for _, e in shown],
                "o-",
                label=f"{method} (slope {slopes[(key, method)]:.2f})",
            )
        ax.set_title(f"{key}: |estimate - exact p_win|")
        ax.set_xlabel("oracle calls (Grover applications x shots; sampling: shots)")
        ax.set_ylabel("median absolute error")
        ax.legend(fontsize=8)
    fig.tight_layout()
    path = OUT / "counting_error.png"
    fig.savefig(path, dpi=110)
    (OUT / "counting_error.json").write_text(json.dumps(raw, indent=1))
    print("\nfitted log-log slopes (error ~ calls^slope):")
    for (key, method), slope in slopes.items():
        print(f"  {key:9s} {method:9s} {slope:+.2f}")
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
