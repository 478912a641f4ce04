"""How often mitigated p_win lands near the exact value, over seeds (issue: mitigation that never
does worse than its parts).

For the four-card example and the six-card one with the declarer's ace first (the circuits of
``bench_hardware.py``, whose six-card figures the issue compares) on FakeTorino's emulation,
each seed runs the circuits of
``--mitigate all`` once (the hardware construction at noise scales 1, 3 and 5, and the two
readout calibration circuits) and reads every estimator from the same counts: raw, detection,
detection with readout correction, and ``all`` (zero-noise extrapolation on top, dropped where
the bootstrap says the fit adds more variance than it removes bias). Reported per estimator:
how often |p_win - exact| <= 0.05, how often the 95% interval covers the exact value, the mean
absolute error, and (for ``all``) how often the fit was dropped. Two more rows read ``all``'s
recorded fit under other drop rules, from the same runs: the fit always kept, and the rule
before the bias correction (the raw squared shift counted as bias removed,
:func:`qcards.execution.mitigation.zne_pays`).

    python benchmarks/bench_mitigation_seeds.py [--seeds 10] [--shots 1000] [--quick]
        [--examples four-card,six-card] [--record FILE]

A seed takes minutes (the Pauli trajectories of the transpiled hardware circuit), so each
finished seed is appended to ``--record`` (JSON lines; by default
``benchmarks/results/mitigation_seeds.jsonl``) and seeds already recorded for the same example,
first card, backend and shots are not run again: the study can be split over several sessions
and the table is always printed from every recorded seed. Records without a ``first`` field were
made with no card fixed; only records of the current :data:`DROP_RULE` are read (the others
stay in the file as history).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_hardware import EXAMPLES  # noqa: E402

from qcards.circuits.task import GameTask  # noqa: E402
from qcards.execution.backends import parse_backend  # noqa: E402
from qcards.execution.mitigation import Mitigation, mitigated_report, mitigation_circuits  # noqa: E402
from qcards.execution.run import sampled_counts  # noqa: E402
from qcards.execution.transpile import measured_circuit, transpile_to, transpiled_size  # noqa: E402
from qcards.skat.solvers.plain_referee import evaluate  # noqa: E402

BACKEND = "fake:FakeTorino"
RECORD = Path(__file__).parent / "results" / "mitigation_seeds.jsonl"
DROP_RULE = "bias-corrected"
"""The drop rule of ``all`` the records were made under (records without the field: the raw
squared shift)."""
ESTIMATORS = {
    "raw": Mitigation("none", False, False, False),
    "detect": Mitigation("detect", True, False, False),
    "detect+readout": Mitigation("detect+readout", True, True, False),
    "all": Mitigation("all", True, True, True),
}


def one_seed(example, first, seed: int, shots: int) -> dict[str, tuple[float, tuple, dict | None]]:
    """Every estimator's (p_win, interval, extrapolation record) from one set of runs."""
    task = GameTask(example.spec(), first, "hardware")
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
    parser.add_argument("--record", type=Path, default=RECORD, help="JSON lines of finished seeds")
    args = parser.parse_args()
    seeds, shots = (2, 300) if args.quick else (args.seeds, args.shots)
    print(f"# Mitigation over {seeds} seeds on {BACKEND} ({shots} shots a run)\n")
    print(f"load average at the start: {', '.join(f'{x:.2f}' for x in os.getloadavg())}\n")
    chosen = [name.strip() for name in args.examples.split(",")]
    unknown = [name for name in chosen if name not in EXAMPLES]
    if unknown:
        parser.error(f"unknown example {unknown[0]!r}; choose from {', '.join(EXAMPLES)}")
    for name in chosen:
        example, first = EXAMPLES[name]
        lead = None if first is None else str(first)
        exact = float(evaluate(example.spec(), "random", first).p_win)
        recorded = read_records(args.record, example.key, lead, shots)
        for seed in range(1, seeds + 1):
            if seed in recorded:
                continue
            start = time.perf_counter()
            results = one_seed(example, first, seed, shots)
            recorded[seed] = record = {
                "example": example.key,
                "first": lead,
                "drop_rule": DROP_RULE,
                "backend": BACKEND,
                "shots": shots,
                "seed": seed,
                "minutes": round((time.perf_counter() - start) / 60, 1),
                "load": round(os.getloadavg()[0], 1),
                "estimators": {
                    name: {"p_win": p, "ci": ci and list(ci), "extrapolation": z}
                    for name, (p, ci, z) in results.items()
                },
            }
            with args.record.open("a") as out:  # kept before the next seed starts
                out.write(json.dumps(record, default=str) + "\n")
            done = ", ".join(f"{name} {p:.3f}" for name, (p, _, _) in results.items())
            print(f"<!-- {example.key} seed {seed}: {done} -->", flush=True)
        title = example.key if lead is None else f"{example.key}, {lead} first"
        print_table(title, exact, [recorded[s] for s in sorted(recorded) if s <= seeds], seeds)


def read_records(path: Path, example: str, first: str | None, shots: int) -> dict[int, dict]:
    """The seeds already recorded for ``example`` with card ``first`` led (``None``: no card
    fixed, as in records without the field) at ``shots`` on :data:`BACKEND` under
    :data:`DROP_RULE`."""
    if not path.exists():
        return {}
    out = {}
    for line in path.read_text().splitlines():
        record = json.loads(line)
        key = (record["example"], record.get("first"), record["backend"], record["shots"])
        if key == (example, first, BACKEND, shots) and record.get("drop_rule") == DROP_RULE:
            out[record["seed"]] = record
    return out


def print_table(example: str, exact: float, records: list[dict], seeds: int) -> None:
    minutes = sum(r["minutes"] for r in records)
    loads = sorted(r["load"] for r in records)
    done = len(records)
    print(
        f"## {example} (exact p_win {exact:.4f}; {done} of {seeds} seeds, {minutes:.1f} min "
        f"in all, load {loads[0]} to {loads[-1]})\n"
        if records
        else f"## {example}: no seed recorded yet\n"
    )
    if not records:
        return
    header = ["estimator", "within 0.05", "covers", "mean abs error", "fit dropped", "p_win"]
    print("| " + " | ".join(header) + " |")
    print("|---|---|---|---|---|---|")
    rows = {name: [r["estimators"][name] for r in records] for name in ESTIMATORS}
    every = rows["all"]
    if all(_fit_numbers(r) for r in every):  # recorded since the drop rule's numbers were
        rows["all, fit always kept"] = [_with_fit(r, lambda z: True) for r in every]
        rows["all, raw squared shift rule"] = [
            _with_fit(r, lambda z: z["var_fit"] <= z["var_plain"] + z["shift"] ** 2) for r in every
        ]
    for name, results in rows.items():
        near = sum(abs(r["p_win"] - exact) <= 0.05 for r in results)
        covers = sum(r["ci"] is not None and r["ci"][0] <= exact <= r["ci"][1] for r in results)
        error = sum(abs(r["p_win"] - exact) for r in results) / done
        dropped = sum(
            bool(r["extrapolation"] and r["extrapolation"].get("dropped")) for r in results
        )
        fits = sum(
            bool(r["extrapolation"] and r["extrapolation"].get("extrapolated")) for r in results
        )
        drop = f"{dropped}/{fits} fits" if name.startswith("all") else "-"
        values = " ".join(f"{r['p_win']:.3f}" for r in results)
        print(f"| {name} | {near}/{done} | {covers}/{done} | {error:.3f} | {drop} | {values} |")
    print()


def _fit_numbers(result: dict) -> bool:
    """Whether ``all``'s record carries what another drop rule needs (or made no fit)."""
    z = result["extrapolation"]
    return not (z and z.get("extrapolated")) or "var_shift" in z


def _with_fit(result: dict, keep) -> dict:
    """``all``'s result as another drop rule ``keep`` (of the fit's numbers) would give it:
    the fit's p_win and interval where it keeps the fit, else the unextrapolated ones."""
    z = result["extrapolation"]
    if not (z and z.get("extrapolated")):
        return result
    if keep(z):
        chosen = {"p_win": z["p_win_extrapolated"], "ci": z["ci_extrapolated"]}
        return {**chosen, "extrapolation": {**z, "dropped": False}}
    # the rules here keep every fit the library keeps (its bias estimate is at most the
    # squared shift), so a fit they drop was dropped by it too: the record is that result
    assert z["dropped"], "a stricter rule would need the unextrapolated interval"
    return result


if __name__ == "__main__":
    main()
