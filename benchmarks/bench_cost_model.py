"""The cost model of the exact simulators against measured time (issue 21).

Every exact method estimates its time before it starts
(:meth:`qcards.execution.exact_methods.ExactMethod.seconds`) and refuses work planned past the
ten-minute budget. This prints, for each endgame, construction and method that runs here, the
measured time (median of ``--repeat`` runs), the model's estimate and their ratio; the model
should be above the measurement (ratio >= 1) so nothing it lets through runs past the budget,
and the constants of :attr:`~qcards.execution.exact_methods.ExactMethod.unit_seconds` were
rounded up from the largest measured seconds per unit. Cases the model refuses are listed with
the estimate.

    python benchmarks/bench_cost_model.py [--repeat 3] [--max-k 4]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from bench_scale import scale_spec  # noqa: E402

from qcards.circuits.task import GameTask  # noqa: E402
from qcards.errors import ResourceError  # noqa: E402
from qcards.execution.backends import parse_backend  # noqa: E402
from qcards.execution.exact import exact_stage_probabilities, gate_count  # noqa: E402
from qcards.paper.examples import FOUR_CARD, SIX_CARD  # noqa: E402
from qcards.skat.solvers.plain_referee import estimate_paths  # noqa: E402

METHODS = ("statevector", "mps", "ddsim", "sparse")


def cases(max_k: int):
    yield "four-card", FOUR_CARD.spec()
    yield "six-card", SIX_CARD.spec()
    for k in range(3, max_k + 1):
        yield f"{3 * k} cards", scale_spec(k)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--max-k", type=int, default=4, help="largest scale endgame: k cards each")
    args = parser.parse_args()
    print(
        "| endgame | construction | method | qubits | gates | play paths | measured s | model s "
        "| model / measured | measured s per unit |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|")
    for name, spec in cases(args.max_k):
        paths = estimate_paths(spec, None)
        for construction in ("paper", "efficient"):
            game = GameTask(spec, None, construction).build()
            n, gates = game.num_qubits, gate_count(game.circuit)
            last = [game.stages[-1]]
            for method in METHODS:
                exact = parse_backend(method).exact_method
                model = exact.seconds(n, paths, gates)
                cells = f"| {name} | {construction} | {method} | {n} | {gates:,} | {paths:,.0f} |"
                try:
                    times = []
                    for _ in range(args.repeat):
                        start = time.perf_counter()
                        exact_stage_probabilities(game, last, method=method)
                        times.append(time.perf_counter() - start)
                except ResourceError as exc:
                    print(f"{cells} refused | {model:,.1f} | | ({str(exc)[:90]}...) |", flush=True)
                    continue
                measured = statistics.median(times)
                per_unit = (
                    f"{measured / exact.work(n, paths, gates):.2g}"
                    if exact.counts_gates
                    else "(paths per second model)"
                )
                print(
                    f"{cells} {measured:.3f} | {model:.3f} | {model / measured:.1f}x "
                    f"| {per_unit} |",
                    flush=True,
                )
    print(
        f"\nmedians of {args.repeat} runs; seconds per unit "
        + str({m: parse_backend(m).exact_method.unit_seconds for m in METHODS})
        + "; "
        f"load {os.getloadavg()}"
    )


if __name__ == "__main__":
    main()
