"""Job records for the job store's tests, and a process that writes them (tests/test_jobs.py
starts it to write from two processes at once, and to kill it half-way through a write).

    python tests/jobstore_worker.py write ROOT PREFIX COUNT SYNC_DIR
        wait until SYNC_DIR/go exists (after creating SYNC_DIR/PREFIX.ready), then save the
        records PREFIX-0 ... PREFIX-(COUNT-1) into the store in ROOT, and read each back
    python tests/jobstore_worker.py loop ROOT START
        forever from i = START: save big_record(i), print "saved i", save it done, print
        "done i" (each line printed once its transaction has committed)
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

from qcards.execution.jobs import DONE, JobRecord, JobStore


def record(job_id: str = "job-1", **changes) -> JobRecord:
    fields = dict(
        job_id=job_id,
        backend="ibm:ibm_test",
        spec_path="tiny.toml",
        spec_text='players = ["A", "B"]\n',
        first=None,
        construction="paper",
        shots=100,
        seed=None,
        register={"name": "outcome", "num_bits": 8, "num_qubits": 9},
        transpiled={"two_qubit_gates": 3, "depth": 7, "num_qubits": 5},
        options={"suppression": {}, "sampler": {}},
        created="2026-03-01T00:00:00+00:00",  # not the clock's: records made apart are equal
    )
    return JobRecord(**{**fields, **changes})


def numbered(prefix: str, i: int) -> JobRecord:
    """A distinct record per ``prefix`` and ``i``, its content derived from both."""
    return record(
        f"{prefix}-{i}",
        shots=1000 + i,
        seed=i,
        created=f"2026-01-01T00:{i // 60:02d}:{i % 60:02d}+00:00",
        spec_path=f"{prefix}/{i}.toml",
    )


def big_record(i: int, done: bool = False) -> JobRecord:
    """About 60 kB of JSON once done (many database pages, so that a kill lands mid-write)."""
    changes = {}
    if done:
        raw = {str(k): (k * 7919 + i) % 1000 for k in range(4000)}
        changes = dict(
            status=DONE,
            result={"counts": {"A:CA": i}, "p_win": 0.5, "shots": i, "raw_counts": [raw]},
        )
    spec_text = "# " + "x" * 8000 + f"\n# {i}\n"
    return record(f"crash-{i}", seed=i, spec_text=spec_text, **changes)


def main(argv: list[str]) -> int:
    command, root = argv[0], Path(argv[1])
    store = JobStore(root)
    if command == "write":
        prefix, count, sync = argv[2], int(argv[3]), Path(argv[4])
        (sync / f"{prefix}.ready").touch()
        while not (sync / "go").exists():
            time.sleep(0.005)
        for i in range(count):
            store.save(numbered(prefix, i))
        for i in range(count):
            assert store.load(f"{prefix}-{i}") == numbered(prefix, i)
        return 0
    if command == "loop":
        i = int(argv[2])
        while True:
            store.save(big_record(i))
            print(f"saved {i}", flush=True)
            store.save(big_record(i, done=True))
            print(f"done {i}", flush=True)
            i += 1
    raise SystemExit(f"unknown command {command!r}")


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
