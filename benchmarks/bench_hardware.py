"""Benchmark: the four-card example on emulated IBM devices, with each mitigation alone and all.

Run ``python benchmarks/bench_hardware.py [--shots N] [--seed S] [--devices A,B]
[--examples four-card,six-card] [--stages]``.

For each device (``fake:<Device>``: the device's calibration, Pauli-twirled, see
:mod:`qcards.execution.noisy`) and construction, the transpiled two-qubit gate count and depth,
then p_win with ``--mitigate`` none, detect, readout, zne and all: the estimate, its 95%
bootstrap interval, the kept fraction, the noise scales the zero-noise fit used (with
detection, only scales that kept enough shots), |p_win - 5/12| and the seconds it took.
Nothing here is tuned to the example: the pipeline is the one ``qcards run`` uses on any spec.

``--stages`` adds the error curve: on the first device, for every stage of the game and each
of the paper and hardware constructions, the circuit up to that stage is sampled raw and with
detection, and |p - exact| is recorded against its two-qubit gate count, where p is the share of
shots whose declarer already holds the target's points (the referee's exact value at that
stage); the plot goes to ``benchmarks/results/hardware_stages.png``.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from fractions import Fraction
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from qcards.circuits.decode import decode_counts  # noqa: E402
from qcards.circuits.task import GameTask  # noqa: E402
from qcards.execution.backends import parse_backend  # noqa: E402
from qcards.execution.mitigation import MITIGATIONS  # noqa: E402
from qcards.execution.run import run  # noqa: E402
from qcards.execution.transpile import (  # noqa: E402
    measured_circuit,
    outcome_counts,
    transpile_to,
    transpiled_size,
)
from qcards.paper.examples import FOUR_CARD, SIX_CARD  # noqa: E402
from qcards.skat.rules.cards import Card  # noqa: E402
from qcards.skat.solvers.plain_referee import evaluate, stage_distributions  # noqa: E402

RESULTS = Path(__file__).resolve().parent / "results"


EXAMPLES = {"four-card": (FOUR_CARD, None), "six-card": (SIX_CARD, Card.parse("CA"))}
"""The examples the study can run: the paper's, the six-card one with the declarer's ace first."""


def study(
    devices: list[str], constructions: list[str], shots: int, seed: int, example: str
) -> None:
    paper_example, first = EXAMPLES[example]
    spec = paper_example.spec()
    exact_fraction = evaluate(spec, "random", first).p_win
    exact = float(exact_fraction)
    lead = f", first card {first}" if first else ""
    print(f"{example} example{lead}, exact p_win {exact_fraction} = {exact:.4f}; {shots} shots")
    print()
    print(
        "| device | construction | 2q gates | depth | mitigate | p_win | 95% interval "
        "| kept | zne fit | abs error | covers | s |"
    )
    print("|" + "---|" * 12)
    for device in devices:
        for construction in constructions:
            task = GameTask(spec, first, construction)
            for name in MITIGATIONS:
                start = time.perf_counter()
                r = run(task, f"fake:{device}", shots, seed, mitigate=name)
                seconds = time.perf_counter() - start
                low, high = r.ci
                covers = "yes" if low <= exact <= high else "no"
                zne = r.extrapolation
                fit = "-" if zne is None else ", ".join(f"{x:g}" for x in zne["used"]) or "none"
                print(
                    f"| {device} | {construction} | {r.transpiled.two_qubit_gates} "
                    f"| {r.transpiled.depth} | {name} | {r.p_win:.4f} | [{low:.3f}, {high:.3f}] "
                    f"| {r.kept_fraction:.1%} | {fit} | {abs(r.p_win - exact):.4f} | {covers} "
                    f"| {seconds:.0f} |",
                    flush=True,
                )


def stage_curve(device: str, shots: int, seed: int) -> list[tuple]:
    spec = FOUR_CARD.spec()
    exact_at = {}
    for stage, distribution in stage_distributions(spec):
        exact_at[stage] = sum(
            (p for snap, p in distribution.items() if snap.declarer_points(spec) >= spec.target),
            Fraction(0),
        )
    target = parse_backend(f"fake:{device}")
    rows = []
    print("\n| construction | stage | 2q gates | exact | raw | detect | kept |")
    print("|---|---|---|---|---|---|---|")
    for construction in ("paper", "hardware"):
        game = GameTask(spec, None, construction).build()
        for stage in game.stages:
            transpile_target, sampler = target.sampler(seed)
            circuit = transpile_to(measured_circuit(game, stage), transpile_target, seed, "qubits")
            size = transpiled_size(circuit)
            raw = outcome_counts(sampler.run([circuit], shots=shots).result()[0])
            plain = decode_counts(spec, game, raw, stage)
            detected = decode_counts(spec, game, raw, stage, detect=True)
            e = float(exact_at[stage])
            rows.append(
                (construction, stage.name, size.two_qubit_gates, e, plain.p_win, detected.p_win)
            )
            print(
                f"| {construction} | {stage.name} | {size.two_qubit_gates} | {e:.4f} "
                f"| {plain.p_win:.4f} | {detected.p_win:.4f} | {detected.kept_fraction:.1%} |",
                flush=True,
            )
    return rows


def plot(rows: list[tuple], device: str) -> Path:
    from matplotlib.figure import Figure

    from qcards.files import save_figure

    fig = Figure(figsize=(6.5, 4.5))
    axis = fig.subplots()
    for construction, marker in (("paper", "o"), ("hardware", "s")):
        mine = [r for r in rows if r[0] == construction]
        gates = [max(1, r[2]) for r in mine]
        axis.plot(
            gates, [abs(r[4] - r[3]) for r in mine], marker + "-", label=f"{construction}, raw"
        )
        axis.plot(
            gates, [abs(r[5] - r[3]) for r in mine], marker + "--", label=f"{construction}, detect"
        )
    axis.set_xscale("log")
    axis.set_xlabel("two-qubit gates after transpilation (stages of the four-card game)")
    axis.set_ylabel("|p - exact|")
    axis.set_title(f"Error against circuit size on fake:{device}")
    axis.legend()
    fig.tight_layout()
    return save_figure(fig, RESULTS / "hardware_stages.png")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--shots", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--devices", default="FakeTorino,FakeFez,FakeBrisbane")
    parser.add_argument("--constructions", default="hardware")
    parser.add_argument("--examples", default="four-card", help="four-card, six-card or both")
    parser.add_argument("--stages", action="store_true")
    args = parser.parse_args()
    print(f"load at start {os.getloadavg()}")
    devices = args.devices.split(",")
    for example in args.examples.split(","):
        study(devices, args.constructions.split(","), args.shots, args.seed, example)
    if args.stages:
        rows = stage_curve(devices[0], args.shots, args.seed)
        print(f"plot: {plot(rows, devices[0])}")
    print(f"\nload at end {os.getloadavg()}")


if __name__ == "__main__":
    main()
