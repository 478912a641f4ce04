"""Benchmark and noise study: the four-card example under the noise of fake IBM devices.

Run ``python benchmarks/bench_noise.py [--shots 1000] [--repeat 3] [--reference-shots 200]``.

Table 1 (speed, issue 5's target: 1000 noisy shots in <= 2 minutes on 2 cores): ``fake:<Name>``
(Pauli-twirled device noise by trajectories, :mod:`qcards.execution.noisy`) against
``fake-aer:<Name>``
(Aer's full device noise model, shot by shot), medians of N runs, the latter timed on fewer
shots and scaled to the same number; ratio in the same run.

Table 2 (faithfulness): p_win and the share of shots that decode to a game state from both
models on the same device, with their standard errors.

Table 3 (noise study): for each device and stage, the share of shots in a game state and the
total variation distance between the noisy and the exact distribution of decoded states (the
exact one from the classical referee), and the final p_win against the exact 5/12. Figures:
``benchmarks/results/noise_<device>.png`` (final stage, exact vs noisy).
"""

from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path

from qcards.circuits.card_codes import readable_label
from qcards.circuits.decode import INVALID_LABEL, decode_counts, regroup
from qcards.circuits.game import build_game
from qcards.execution.backends import parse_backend
from qcards.execution.transpile import (
    measured_circuit,
    outcome_counts,
    transpile_to,
    transpiled_size,
)
from qcards.paper.examples import FOUR_CARD
from qcards.skat.solvers.plain_referee import evaluate, stage_distributions
from qcards.viz.plots import save_comparison

RESULTS = Path(__file__).resolve().parent / "results"
DEVICES = ("FakeTorino", "FakeBrisbane")
OTHER_LABEL = "(unreachable game states)"


def noisy_counts(backend: str, game, stage, shots: int, seed: int):
    """Decoded counts of ``game`` up to ``stage`` sampled on ``backend``, the transpiled
    circuit and the seconds spent sampling (without transpilation)."""
    device, sampler = parse_backend(backend).sampler(seed)
    circuit = transpile_to(measured_circuit(game, stage), device, seed, prefer="qubits")
    start = time.perf_counter()
    result = sampler.run([circuit], shots=shots).result()[0]
    sampling = time.perf_counter() - start
    return decode_counts(game.spec, game, outcome_counts(result), stage), circuit, sampling


def total_variation(p: dict, q: dict) -> float:
    return sum(abs(p.get(k, 0) - q.get(k, 0)) for k in set(p) | set(q)) / 2


def compare_models(shots: int, repeat: int, reference_shots: int, game) -> None:
    """Tables 1 and 2: time and results of both noise models on each device."""
    last = game.stages[-1]
    speed, faith = [], []
    for device in DEVICES:
        times, sampling, runs = [], [], []
        for run in range(repeat):
            start = time.perf_counter()
            decoded, _, seconds = noisy_counts(f"fake:{device}", game, last, shots, seed=run)
            times.append(time.perf_counter() - start)
            sampling.append(seconds)
            runs.append(decoded)
        fast, fast_sampling = statistics.median(times), statistics.median(sampling)
        full, _, seconds = noisy_counts(f"fake-aer:{device}", game, last, reference_shots, 0)
        slow = seconds * shots / reference_shots
        speed.append(
            f"| {device} | {fast:.1f} | {fast_sampling:.1f} | {slow:.0f} "
            f"| {slow / fast_sampling:.0f}x |"
        )
        for model, decoded in (("fake: (trajectories)", runs[0]), ("fake-aer: (Aer)", full)):
            valid = 1 - decoded.counts.get(INVALID_LABEL, 0) / decoded.shots
            p, n = decoded.p_win, decoded.shots
            faith.append(
                f"| {device} | {model} | {n} | {p:.3f} ± {(p * (1 - p) / n) ** 0.5:.3f} "
                f"| {valid:.3f} ± {(valid * (1 - valid) / n) ** 0.5:.3f} |"
            )
    print(
        f"| device | fake: {shots} shots, whole run s | fake: sampling s | fake-aer: sampling s "
        f"per {shots} shots (timed on {reference_shots}) | ratio (sampling) |"
    )
    print("|---|---|---|---|---|")
    print("\n".join(speed))
    print(f"\nmedians of {repeat} runs (trajectories); Aer's full model timed once and scaled\n")
    print("| device | model | shots | p_win | in a game state |")
    print("|---|---|---|---|---|")
    print("\n".join(faith), flush=True)


def study(shots: int, game) -> None:
    spec = game.spec
    exact = {
        stage: regroup(dist, lambda snap: readable_label(snap, spec))
        for stage, dist in stage_distributions(spec)
    }
    p_exact = evaluate(spec).p_win  # the referee's fraction
    print(
        "| device | stage | 2q gates | depth | qubits | in a game state | in a reachable state "
        "| TVD to exact |"
    )
    print("|---|---|---|---|---|---|---|---|")
    for device in DEVICES:
        for stage in game.stages:
            decoded, circuit, _ = noisy_counts(f"fake:{device}", game, stage, shots, seed=1)
            size = transpiled_size(circuit)
            noisy = {label: n / decoded.shots for label, n in decoded.counts.items()}
            want = {label: float(p) for label, p in exact[stage].items()}
            print(
                f"| {device} | {stage.name} | {size.two_qubit_gates} | {size.depth} "
                f"| {size.num_qubits} | {1 - noisy.get(INVALID_LABEL, 0):.3f} "
                f"| {sum(noisy.get(label, 0) for label in want):.3f} "
                f"| {total_variation(noisy, want):.3f} |",
                flush=True,
            )
        print(
            f"| {device} | p_win | | | | {decoded.p_win:.3f} noisy | | {float(p_exact):.3f} "
            f"exact ({p_exact}) |"
        )
        # unreachable but decodable states, each rare, are pooled so the bars sum to 1
        shown = regroup(
            noisy,
            lambda label, want=want: (
                label if label in want or label == INVALID_LABEL else OTHER_LABEL
            ),
        )
        save_comparison(
            {"exact (referee)": want, f"fake:{device}, {decoded.shots} shots": shown},
            RESULTS / f"noise_{device}.png",
            f"four-card example after the last trick: exact vs {device} noise",
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--shots", type=int, default=1000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--reference-shots", type=int, default=100)
    parser.add_argument("--skip", nargs="*", default=(), choices=("models", "study"))
    args = parser.parse_args()
    game = build_game(FOUR_CARD.spec(), None, construction="paper")
    if "models" not in args.skip:
        compare_models(args.shots, args.repeat, args.reference_shots, game)
        print()
    if "study" not in args.skip:
        study(args.shots, game)


if __name__ == "__main__":
    main()
