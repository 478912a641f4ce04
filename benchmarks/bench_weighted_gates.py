"""Policy-weighted card-play gates (issue 39 item 2): what a policy costs in the circuits.

Run ``python benchmarks/bench_weighted_gates.py [--repeat 3] [--quick]``.

1. The sparse engine's exact final state of the game circuit, random play (the baseline: the
   uniform gates) against the circuits weighted by ``heuristic`` and ``softmax``, on the
   paper's examples and generated nine- and twelve-card endgames; the p_win of each is checked
   against the referee's under the model before it is timed.
2. Aer's dense statevector of the paper construction's circuit (six-card example), the same
   three models.
3. CX counts of the card plays (basis cx, u) for N cards per player, hardware and efficient
   constructions, and the fault-tolerant logical counts of A (game and win oracle) on the
   six-card example.

Medians of ``--repeat`` runs; the load average is printed with each table. Results go to
``benchmarks/results/weighted_gates.md``.
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
from datetime import UTC, datetime
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
sys.path.insert(0, str(REPO / "tests"))

from bench_play_models import load, median_time  # noqa: E402  (one timing helper)

from qcards.analysis.fault_tolerant import fault_tolerant_cost  # noqa: E402
from qcards.analysis.methods.runs import final_distribution  # noqa: E402
from qcards.analysis.resources import count_resources  # noqa: E402
from qcards.circuits.game import build_game  # noqa: E402
from qcards.execution.exact import sparse_final_outcomes  # noqa: E402
from qcards.skat.deals.count import num_deals  # noqa: E402
from qcards.skat.players.play_models import get_model  # noqa: E402
from qcards.skat.position.spec import load_spec  # noqa: E402
from qcards.skat.rules.cards import Trump  # noqa: E402
from qcards.skat.solvers.outcome_distributions import outcome_distribution  # noqa: E402

from conftest import random_spec  # noqa: E402

MODELS = ("random", "heuristic", "softmax")


def endgames(tricks: tuple[int, ...]):
    out = [
        ("four-card (paper)", load_spec(REPO / "qcards/specs/four-card.toml")),
        ("six-card (paper)", load_spec(REPO / "qcards/specs/six-card.toml")),
    ]
    for t in tricks:
        spec = random_spec(2, 3, t, Trump.CLUBS, True, True, max_qubits=10_000)
        out.append((f"{3 * t} cards, {num_deals(spec)} deals", spec))
    return out


def referee_p_win(spec, model: str) -> float:
    policy = None if model == "random" else get_model(model).policy
    dist = outcome_distribution(spec, None, policy)
    return float(sum(q for (p, t, _m), q in dist.items() if spec.declarer_wins(p, t)))


def sparse_p_win(spec, model: str) -> float:
    outcomes = sparse_final_outcomes(build_game(spec, model=model))
    return sum(p for (v, t, *_), p in outcomes.items() if spec.declarer_wins(v, t))


def bench_sparse(repeat: int, tricks: tuple[int, ...]) -> list[str]:
    rows = []
    for name, spec in endgames(tricks):
        cells = []
        base = None
        for model in MODELS:
            got, want = sparse_p_win(spec, model), referee_p_win(spec, model)
            if abs(got - want) > 1e-9:
                raise AssertionError(f"{name}, {model}: circuit {got} against referee {want}")
            t = median_time(lambda s=spec, m=model: sparse_p_win(s, m), repeat)
            base = t if base is None else base
            cells.append(f"{t:.3f}" + ("" if model == "random" else f" ({t / base:.1f}x)"))
        rows.append(f"| {name} | " + " | ".join(cells) + " |")
        print(rows[-1], flush=True)
    return [
        f"### The sparse engine, exact final state (seconds, median of {repeat}; {load()})",
        "",
        "Each circuit's p_win equals the referee's under its model to 1e-9 before it is timed "
        "(the game circuit built and run each time, efficient construction).",
        "",
        "| endgame | random (baseline) | heuristic | softmax |",
        "|---|---|---|---|",
        *rows,
        "",
    ]


def bench_aer(repeat: int) -> list[str]:
    spec = load_spec(REPO / "qcards/specs/six-card.toml")
    cells, base = [], None
    for model in MODELS:
        game = build_game(spec, construction="paper", model=model)

        def run(g=game):
            return final_distribution(g, "statevector")

        dist = run()
        got = sum(p for s, p in dist.items() if s.declarer_won(spec))
        if abs(got - referee_p_win(spec, model)) > 1e-9:
            raise AssertionError(f"Aer, {model}: {got}")
        t = median_time(run, repeat)
        base = t if base is None else base
        cells.append(f"{t:.2f}" + ("" if model == "random" else f" ({t / base:.1f}x)"))
    return [
        f"### Aer's statevector, six-card example, paper construction (seconds, median of "
        f"{repeat}; {load()})",
        "",
        "| random (baseline) | heuristic | softmax |",
        "|---|---|---|",
        "| " + " | ".join(cells) + " |",
        "",
    ]


def bench_counts(sizes: tuple[int, ...]) -> list[str]:
    rows = []
    for construction in ("hardware", "efficient"):
        for n in sizes:
            cells = []
            for model in MODELS:
                report = count_resources(n, construction, model=model)
                cells.append(f"{report.stages['play'].cx:,} / {report.stages['game'].cx:,}")
            rows.append(f"| {construction} | {n} | " + " | ".join(cells) + " |")
            print(rows[-1], flush=True)
    spec = load_spec(REPO / "qcards/specs/six-card.toml")
    ft = []
    for model in MODELS:
        a = fault_tolerant_cost(spec, model=model, physical=False, algorithms=["iae"]).a
        ft.append(f"{a.toffoli_class:,} / {a.rotations:,}")
    return [
        "### Gate counts",
        "",
        "CX of the card plays / of the whole game (basis cx, u; unrouted), N cards per "
        "player with two in the Skat:",
        "",
        "| construction | N | random | heuristic | softmax |",
        "|---|---|---|---|---|",
        *rows,
        "",
        "Fault-tolerant logical counts of A (game and win oracle, the cheapest polynomial "
        "construction), six-card example, Toffoli-class / rotations:",
        "",
        "| random | heuristic | softmax |",
        "|---|---|---|",
        "| " + " | ".join(ft) + " |",
        "",
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--quick", action="store_true", help="a smoke run, not for figures")
    args = parser.parse_args()
    quick = args.quick
    repeat = 1 if quick else args.repeat
    out = [
        "# Policy-weighted card-play gates",
        "",
        f"{datetime.now(UTC):%Y-%m-%d %H:%M} UTC, {platform.machine()}, {os.cpu_count()} cores; "
        "`python benchmarks/bench_weighted_gates.py`.",
        "",
    ]
    out += bench_sparse(repeat, (3,) if quick else (3, 4))
    out += bench_aer(repeat)
    out += bench_counts((1,) if quick else (1, 2))
    text = "\n".join(out)
    print(text)
    if not quick:
        (HERE / "results" / "weighted_gates.md").write_text(text + "\n")


if __name__ == "__main__":
    main()
