"""Benchmark: the fault-tolerant cost of evaluating an endgame against classical computers
(issue 32), for N = 1..10 cards per player (the endgame of ``qcards resources``; 10 is the
full game from the first trick) and epsilon 1e-2, 1e-3, 1e-4.

Run ``python benchmarks/bench_fault_tolerant.py [--repeat R] [--max-n N]``.

Table 1 (targets): the seconds to count the full game's logical resources (A, the Grover
iterate, every algorithm's schedule) and to estimate them on three qubit models; medians of R
runs, with the time of building the full game's circuit in the same run as the baseline.

Table 2 (crossover): for each N and epsilon, the wall time of

* the quantum computer: each amplitude estimation algorithm to half-width epsilon (its
  schedule at amplitude 1/2), every shot in sequence, on each qubit model (Microsoft's
  resource estimator, :mod:`qcards.analysis.fault_tolerant`);
* a plain Monte Carlo of the same model to the same epsilon: :math:`z^2 a(1-a)/\\epsilon^2`
  samples at a = 1/2 (z for 95%) at the rate measured here (:mod:`qcards.skat.solvers.monte_carlo`,
  pure Python; median of R runs of at least a second);
* the game circuit's ideal-device shots (:mod:`qcards.execution.shots`) to the same epsilon, at
  the rate measured here;
* the exact answers, independent of epsilon: the fast referee's and the sparse engine's own
  estimates from the play paths (:func:`qcards.skat.solvers.referee_cost.estimate_seconds`,
  :func:`qcards.analysis.evaluate.paths_seconds`).

Then, at N = 10, for each algorithm on the fastest qubit model, the epsilon below which it would
beat every classical method (scanned down to 2e-10). Writes
``benchmarks/results/fault_tolerant.md`` and ``fault_tolerant.png``.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

from qcards.analysis.fault_tolerant import fault_tolerant_cost
from qcards.analysis.methods.runs import paths_seconds
from qcards.analysis.resources import resource_spec
from qcards.circuits.oracle import build_win_circuit
from qcards.circuits.task import GameTask
from qcards.estimation.schedules import normal_quantile
from qcards.execution.physical import DEFAULT_MODELS
from qcards.execution.shots import sample_game
from qcards.skat.solvers import referee_cost
from qcards.skat.solvers.monte_carlo import monte_carlo

RESULTS = Path(__file__).resolve().parent / "results"
EPSILONS = (1e-2, 1e-3, 1e-4)
Z = normal_quantile(0.05)


def samples_for(epsilon: float, amplitude: float = 0.5) -> float:
    """Samples a plain Monte Carlo needs for a 95% half-width epsilon at amplitude a."""
    return Z**2 * amplitude * (1 - amplitude) / epsilon**2


def per_sample(run, count: int, repeat: int) -> float:
    """Median seconds a sample of ``run(count)``, each timing at least a second long."""
    times = []
    for _ in range(repeat):
        n, elapsed = count, 0.0
        while elapsed < 1.0:
            started = time.perf_counter()
            run(n)
            elapsed = time.perf_counter() - started
            if elapsed < 1.0:
                n *= 2
        times.append(elapsed / n)
    return statistics.median(times)


def targets(repeat: int) -> list[str]:
    build, counts, estimates = [], [], []
    for _ in range(repeat):
        started = time.perf_counter()
        build_win_circuit(resource_spec(10))
        build.append(time.perf_counter() - started)
        report = fault_tolerant_cost(cards_per_player=10, epsilon=0.01)
        counts.append(report.count_seconds)
        estimates.append(report.estimate_seconds)
    b, c, e = (statistics.median(x) for x in (build, counts, estimates))
    return [
        "| full game (10 cards a player) | median s | ratio to building A |",
        "|---|---|---|",
        f"| building A's circuit (baseline) | {b:.2f} | 1 |",
        f"| logical counts (A, iterate, 3 schedules) | {c:.2f} | {c / b:.1f} |",
        f"| physical estimates, 3 qubit models | {e:.2f} | {e / b:.1f} |",
    ]


def classical_rates(n: int, repeat: int) -> dict[str, float]:
    spec = resource_spec(n)
    rates = {"mc": per_sample(lambda k: monte_carlo(spec, k, seed=1), 64, repeat)}
    task = GameTask(spec, None)
    rates["shots"] = per_sample(lambda k: sample_game(task, k, seed=1, force=True), 32, repeat)
    rates["referee"] = referee_cost.estimate_seconds(spec)
    rates["sparse"] = paths_seconds(spec, None)
    return rates


def seconds(value: float) -> str:
    for unit, size in (("y", 365.25 * 86400), ("d", 86400), ("h", 3600)):
        if value >= size:
            return f"{value / size:.3g} {unit}"
    return f"{value:.3g} s"


def crossover(quantum_at, classical_at) -> tuple[dict[str, float | None], dict]:
    """For each quantum line, the largest epsilon on a grid 1e-2 .. 2e-10 at which it is faster
    than the best classical method; and the times along the grid."""
    found: dict[str, float | None] = {}
    times = {}
    for exponent in range(2, 10):
        for mantissa in (1.0, 0.5, 0.2):
            epsilon = mantissa * 10.0**-exponent
            quantum, classical = quantum_at(epsilon), classical_at(epsilon)
            times[epsilon] = (quantum, classical)
            for line, value in quantum.items():
                found.setdefault(line, None)
                if found[line] is None and value < min(classical.values()):
                    found[line] = epsilon
    return found, times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--max-n", type=int, default=10)
    args = parser.parse_args()
    load = os.getloadavg()[0]
    lines = [
        "# Fault-tolerant cost against classical evaluation (`bench_fault_tolerant.py`)",
        "",
        f"Machine: 2 cores, load {load:.1f} at the start. Medians of {args.repeat} runs.",
        "",
        "## Targets",
        "",
        *targets(args.repeat),
        "",
    ]
    rows, plot = [], {}
    for n in range(1, args.max_n + 1):
        rates = classical_rates(n, args.repeat)
        for epsilon in EPSILONS:
            report = fault_tolerant_cost(cards_per_player=n, epsilon=epsilon)
            quantum = {
                (cost.schedule.algorithm, m.qubit_model): m.runtime_seconds
                for cost in report.algorithms
                for m in cost.models
            }
            mc = samples_for(epsilon) * rates["mc"]
            shots = samples_for(epsilon) * rates["shots"]
            plot[(n, epsilon)] = (quantum, mc, shots, rates["referee"], rates["sparse"])
            best = min(quantum.items(), key=lambda kv: kv[1])
            rows.append(
                f"| {n} | {epsilon:g} | {report.a.toffoli_class:,} | "
                + " | ".join(seconds(quantum[("iae", m)]) for m in DEFAULT_MODELS)
                + f" | {seconds(quantum[('mlae', 'maj_ns_e4')])} | {seconds(mc)} | "
                f"{seconds(shots)} | {seconds(rates['referee'])} | {seconds(rates['sparse'])} | "
                f"{best[0][0]} on {best[0][1]}, {seconds(best[1])} |"
            )
            print(rows[-1], flush=True)
    lines += [
        "## Crossover",
        "",
        "Wall time to p_win within epsilon (95%), N cards per player. Quantum: IAE on each "
        "qubit model, MLAE (Fisher interval, optimistic at few shots) on the fastest; "
        "classical: plain Monte Carlo and the circuit's ideal-device shots at the rates "
        "measured here, and the exact methods' own estimates from the play paths "
        "(independent of epsilon).",
        "",
        "| N | epsilon | A's Toffoli/CCZ | IAE "
        + " | IAE ".join(DEFAULT_MODELS)
        + " | MLAE maj_ns_e4 | Monte Carlo | circuit shots | exact referee | exact sparse "
        "| fastest quantum |",
        "|" + "---|" * 12,
        *rows,
        "",
    ]
    rates = classical_rates(args.max_n, args.repeat)

    def quantum_at(epsilon: float) -> dict[str, float]:
        report = fault_tolerant_cost(
            cards_per_player=args.max_n, epsilon=epsilon, qubit_models=("maj_ns_e4",)
        )
        return {
            cost.schedule.algorithm: cost.models[0].runtime_seconds for cost in report.algorithms
        }

    def classical_at(epsilon: float) -> dict[str, float]:
        return {
            "Monte Carlo": samples_for(epsilon) * rates["mc"],
            "circuit shots": samples_for(epsilon) * rates["shots"],
            "exact referee": rates["referee"],
            "exact sparse": rates["sparse"],
        }

    found, times = crossover(quantum_at, classical_at)
    algorithms = list(next(iter(times.values()))[0])
    lines += [
        f"## Where a fault-tolerant machine would win (N = {args.max_n})",
        "",
        "Each algorithm on the fastest qubit model (Majorana ns) against the best classical "
        f"method: the plain Monte Carlo at {rates['mc'] * 1e6:.0f} us a sample (pure Python), "
        f"the circuit's ideal-device shots at {rates['shots'] * 1e6:.0f} us a shot (numpy, "
        "thousands of shots a batch), "
        f"the exact referee (about {seconds(rates['referee'])}) and the exact sparse engine "
        f"(about {seconds(rates['sparse'])}).",
        "",
        "| epsilon | " + " | ".join(algorithms) + " | Monte Carlo | best classical |",
        "|" + "---|" * (len(algorithms) + 3),
        *(
            f"| {e:g} | "
            + " | ".join(seconds(q[a]) for a in algorithms)
            + f" | {seconds(c['Monte Carlo'])} | {min(c, key=c.get)}, {seconds(min(c.values()))} |"
            for e, (q, c) in times.items()
        ),
        "",
        *(
            f"- {line}: "
            + (
                f"faster than every classical method from epsilon {eps:g} down."
                if eps is not None
                else "slower than a classical method at every epsilon down to 2e-10."
            )
            for line, eps in found.items()
        ),
        "",
    ]
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / "fault_tolerant.md").write_text("\n".join(lines))
    draw(plot, args.max_n, RESULTS / "fault_tolerant.png")
    print("\n".join(lines))


def draw(plot: dict, max_n: int, path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, len(EPSILONS), figsize=(15, 4.5), sharey=True)
    ns = list(range(1, max_n + 1))
    for ax, epsilon in zip(axes, EPSILONS, strict=True):
        data = [plot[(n, epsilon)] for n in ns]
        for model, style in zip(DEFAULT_MODELS, ("-", "--", ":"), strict=True):
            ax.plot(ns, [d[0][("iae", model)] for d in data], "C0" + style, label=f"IAE {model}")
        ax.plot(ns, [d[0][("mlae", "maj_ns_e4")] for d in data], "C4-.", label="MLAE maj_ns_e4")
        ax.plot(ns, [d[1] for d in data], "C1o-", label="Monte Carlo (measured)")
        ax.plot(ns, [d[2] for d in data], "C2s-", label="circuit shots (measured)")
        ax.plot(ns, [d[3] for d in data], "C3^-", label="exact referee (estimate)")
        ax.plot(ns, [d[4] for d in data], "C5v-", label="exact sparse engine (estimate)")
        ax.set_yscale("log")
        ax.set_title(f"epsilon = {epsilon:g}")
        ax.set_xlabel("cards per player")
        ax.grid(True, which="major", alpha=0.3)
    axes[0].set_ylabel("wall time (s)")
    axes[-1].legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(path, dpi=120)


if __name__ == "__main__":
    sys.exit(main())
