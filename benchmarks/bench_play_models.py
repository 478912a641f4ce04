"""The play models (issue 39's targets): what each costs beside random play.

Run ``python benchmarks/bench_play_models.py [--repeat 3] [--quick]``.

1. The exact referee under a policy: the outcome search of ``qcards/specs/six-card.toml`` and
   of generated nine- and twelve-card endgames (three players; the declarer's cards known),
   under ``random`` (the baseline, the same search without a policy), ``heuristic`` and
   ``softmax``; medians of ``--repeat`` runs and the ratio to random.
2. Games played by a policy: ``--shots`` games of the full game (``qcards/specs/full-game.toml``)
   per second, random (the baseline) against heuristic and softmax, and the declarer's p_win.
3. The exact best response to random defenders (the declarer's information sets over every
   deal) on generated nine-, twelve- and fifteen-card endgames: the compiled chooser (the
   default) against the walk that tries every card itself (the baseline, up to twelve cards;
   both must give the same Fractions), with the clairvoyant declarer's search timed beside it.
   Targets: twelve cards in at most 10 s, fifteen in at most 2 minutes.
4. The same against heuristic defenders (the compiled chooser plays the heuristic's compiled
   twin, :mod:`qcards.skat.players.heuristic_kernel`).

The load average is printed with each table; results go to ``benchmarks/results/play_models.md``.
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import sys
import time
from datetime import UTC, datetime
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
sys.path.insert(0, str(REPO / "tests"))

from qcards.skat.deals.count import num_deals  # noqa: E402
from qcards.skat.players.best_response import best_response  # noqa: E402
from qcards.skat.players.play_models import get_model  # noqa: E402
from qcards.skat.position.spec import load_spec  # noqa: E402
from qcards.skat.rules.cards import Trump  # noqa: E402
from qcards.skat.solvers.monte_carlo import playouts  # noqa: E402
from qcards.skat.solvers.outcome_distributions import outcome_distribution  # noqa: E402

from conftest import random_spec  # noqa: E402


def load() -> str:
    return f"load average {os.getloadavg()[0]:.2f} (2 cores)"


def median_time(fn, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def endgames(tricks: tuple[int, ...]):
    out = [("six-card (paper)", load_spec(REPO / "qcards/specs/six-card.toml"))]
    for t in tricks:
        spec = random_spec(2, 3, t, Trump.CLUBS, True, True, max_qubits=10_000)
        out.append((f"{3 * t} cards, {num_deals(spec)} deals", spec))
    return out


def bench_referee(repeat: int, tricks: tuple[int, ...]) -> list[str]:
    rows = []
    for name, spec in endgames(tricks):
        base = median_time(lambda s=spec: outcome_distribution(s), repeat)
        cells = [f"{base:.3f}"]
        for model in ("heuristic", "softmax"):
            policy = get_model(model).policy
            t = median_time(lambda s=spec, p=policy: outcome_distribution(s, None, p), repeat)
            cells.append(f"{t:.3f} ({t / base:.1f}x)")
        rows.append(f"| {name} | " + " | ".join(cells) + " |")
        print(rows[-1], flush=True)
    return [
        f"### The exact referee under a policy (seconds, median of {repeat}; {load()})",
        "",
        "| endgame | random (baseline) | heuristic | softmax |",
        "|---|---|---|---|",
        *rows,
        "",
    ]


def bench_games(shots: int, repeat: int) -> list[str]:
    spec = load_spec(REPO / "qcards/specs/full-game.toml")
    rows = []
    base = None
    for model in ("random", "heuristic", "softmax"):
        policy = None if model == "random" else get_model(model).policy
        seconds = median_time(lambda p=policy: playouts(spec, shots, 1, p), repeat)
        wins = playouts(spec, shots, 1, policy)[1].mean()
        rate = shots / seconds
        base = base or rate
        rows.append(f"| {model} | {rate:,.0f} | {rate / base:.2f} | {wins:.3f} |")
        print(rows[-1], flush=True)
    return [
        f"### Games played by a policy, full game ({shots:,} games, median of {repeat}; {load()})",
        "",
        "| model | games/s | ratio to random | declarer's p_win |",
        "|---|---|---|---|",
        *rows,
        "",
    ]


def bench_best_response(
    tricks: tuple[int, ...], python_up_to: int, model: str = "random"
) -> list[str]:
    """The best response to ``model`` defenders with the compiled chooser (the default against
    random and heuristic opponents) and, up to ``python_up_to`` tricks, the walk that tries
    every card itself (the baseline); both give the same Fractions (checked here)."""
    others = get_model(model).policy
    best_response(random_spec(1, 3, 2, Trump.CLUBS, True, True), others=others)  # compile first
    rows = []
    for t in tricks:
        for seed in (1, 2, 3):
            spec = random_spec(seed, 3, t, Trump.CLUBS, True, True, max_qubits=10_000)
            start = time.perf_counter()
            br = best_response(spec, clairvoyant=False, others=others)
            seconds = time.perf_counter() - start
            start = time.perf_counter()
            both = best_response(spec, others=others)
            with_clairvoyant = time.perf_counter() - start
            baseline = "-"
            if t <= python_up_to:
                start = time.perf_counter()
                slow = best_response(spec, clairvoyant=False, compiled=False, others=others)
                walk = time.perf_counter() - start
                assert slow.value == br.value and slow.outcomes == br.outcomes
                baseline = f"{walk:.2f} ({walk / seconds:.1f}x)"
            rows.append(
                f"| {3 * t} cards (seed {seed}) | {num_deals(spec)} | {baseline} | "
                f"{seconds:.2f} | {with_clairvoyant:.2f} | {br.nodes:,} | {float(br.value):.4f} | "
                f"{float(both.clairvoyant):.4f} |"
            )
            print(rows[-1], flush=True)
    return [
        f"### The exact best response to {model} defenders (one run each; {load()})",
        "",
        "Seconds; the baseline is the walk that tries every card itself (`compiled=False`), "
        "its ratio to the compiled chooser's time in brackets; nodes count both walks'.",
        "",
        "| endgame | deals | every card tried (baseline) | compiled chooser | "
        "with the clairvoyant search | nodes | best response | clairvoyant |",
        "|---|---|---|---|---|---|---|---|",
        *rows,
        "",
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--quick", action="store_true", help="a smoke run, not for figures")
    args = parser.parse_args()
    quick = args.quick
    out = [
        "# Play models",
        "",
        f"{datetime.now(UTC):%Y-%m-%d %H:%M} UTC, {platform.machine()}, {os.cpu_count()} cores; "
        "`python benchmarks/bench_play_models.py`.",
        "",
    ]
    out += bench_referee(1 if quick else args.repeat, (3,) if quick else (3, 4))
    out += bench_games(200 if quick else 2000, 1 if quick else args.repeat)
    out += bench_best_response((3,) if quick else (3, 4, 5), 3 if quick else 4)
    out += bench_best_response((3,) if quick else (3, 4, 5), 3 if quick else 4, "heuristic")
    text = "\n".join(out)
    print(text)
    if not quick:
        (HERE / "results" / "play_models.md").write_text(text + "\n")


if __name__ == "__main__":
    main()
