"""Benchmark: ``recommend`` here against ``recommend --dask`` on this machine's cores.

Run ``python benchmarks/bench_dask.py [--repeat N] [--out FILE]``.

Each endgame's first cards are evaluated exactly (DDSIM, the ``auto`` method) three ways: in
this process one after the other; with ``--dask local``, which starts a cluster of one
single-threaded worker per core for the call and closes it afterwards (its start-up included);
and on a cluster already running (``--dask ADDRESS``, the steady state of a long sweep). Every
run's cards and numbers are checked equal to the local ones. Medians of N runs, (Nx) = speed-up
over the local run. The table is printed and written to ``benchmarks/results/dask.md``.
"""

from __future__ import annotations

import argparse
import os
from pathlib import Path

from bench_scale import scale_spec, timed
from dask.system import CPU_COUNT

from qcards.analysis.evaluate import recommend
from qcards.execution.sweeps import LOCAL, local_cluster
from qcards.paper.examples import SIX_CARD

RESULTS = Path(__file__).resolve().parent / "results" / "dask.md"


def bench(repeat: int) -> str:
    cases = {"six-card": SIX_CARD.spec(), "nine-card": scale_spec(3)}
    lines = [
        f"| endgame | first cards | local s | --dask local s ({CPU_COUNT} workers, with start-up) "
        "| running cluster s |",
        "|---|---|---|---|---|",
    ]
    print("\n".join(lines), flush=True)
    with local_cluster() as cluster:
        address = cluster.scheduler_address
        recommend(SIX_CARD.spec(), scheduler=address)  # the workers import qcards once
        for name, spec in cases.items():
            local_s, local = timed(lambda s=spec: recommend(s), repeat)
            cells = []
            for scheduler in (LOCAL, address):
                seconds, ranked = timed(
                    lambda s=spec, at=scheduler: recommend(s, scheduler=at), repeat
                )
                assert ranked == local, (name, scheduler)
                cells.append(f"{seconds:.2f} ({local_s / seconds:.2f}x)")
            qubits = local[0][1].num_qubits
            row = f"| {name} ({qubits} q) | {len(local)} | {local_s:.2f} | " + " | ".join(cells)
            lines.append(row + " |")
            print(lines[-1], flush=True)
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    lines += [
        "",
        f"medians of {repeat} runs on {CPU_COUNT} cores (load average at the end: {load}); "
        "(Nx) = speed-up over the local run; every result equal to the local one",
    ]
    print(lines[-1])
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--out", type=Path, default=RESULTS)
    args = parser.parse_args()
    args.out.write_text(bench(args.repeat))


if __name__ == "__main__":
    main()
