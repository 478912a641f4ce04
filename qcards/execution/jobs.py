"""The local job store: one JSON file per hardware job, written before its result is awaited.

A record holds everything needed to decode the job's result later, on another day or after an
interruption: the job id and backend, the spec (its TOML text and where it came from), the
declarer's first card and the construction (the game circuit is rebuilt from these
deterministically), the measured register, the transpiled size and the options the job ran with.
Once the result has been fetched, the decoded counts and p_win are stored in the record too, so
later look-ups need no network.

The store lives in ``platformdirs.user_data_dir("qcards")/jobs`` unless ``QCARDS_DATA_DIR``
names another directory.
"""

from __future__ import annotations

import json
import os
import re
from dataclasses import asdict, dataclass, field, fields
from datetime import UTC, datetime
from pathlib import Path

from qcards.circuits.task import GameTask
from qcards.errors import JobStoreError, SpecError

DATA_DIR_ENV = "QCARDS_DATA_DIR"
"""Environment variable that overrides the data directory (the store is its ``jobs/``)."""

SUBMITTED, DONE, FAILED = "submitted", "done", "failed"
_JOB_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]*$")


@dataclass
class JobRecord:
    """What the store keeps about one job (see the module docstring)."""

    job_id: str
    backend: str
    spec_path: str
    spec_text: str
    first: str | None
    construction: str
    shots: int
    seed: int | None
    register: dict
    """The measured register: ``{"name", "num_bits", "num_qubits"}`` of the game circuit."""
    transpiled: dict
    options: dict
    created: str = field(default_factory=lambda: datetime.now(UTC).isoformat(timespec="seconds"))
    status: str = SUBMITTED
    result: dict | None = None
    """Once fetched: ``{"counts", "p_win", "shots", "raw_counts"}``."""
    error: str | None = None

    def to_json(self) -> dict:
        return asdict(self)

    @property
    def task(self) -> GameTask:
        """The :class:`~qcards.circuits.task.GameTask` the job ran (its fields are stored flat:
        ``spec_path``, ``spec_text``, ``first``, ``construction``)."""
        try:
            return GameTask.from_json(self.__dict__)
        except (SpecError, ValueError) as exc:
            raise JobStoreError(
                f"job {self.job_id}: the stored task cannot be rebuilt: {exc}"
            ) from None

    @classmethod
    def from_json(cls, data: dict, where: str) -> JobRecord:
        names = {f.name for f in fields(cls)}
        if not isinstance(data, dict) or not {"job_id", "backend", "spec_text"} <= set(data):
            raise JobStoreError(f"{where}: not a qcards job record")
        unknown = set(data) - names
        if unknown:
            raise JobStoreError(f"{where}: unknown field(s) {', '.join(sorted(unknown))}")
        try:
            return cls(**data)
        except TypeError as exc:
            raise JobStoreError(f"{where}: {exc}") from None


class JobStore:
    """JSON files ``<root>/<job id>.json``; every write replaces the file atomically."""

    def __init__(self, root: str | Path):
        self.root = Path(root)

    @classmethod
    def default(cls) -> JobStore:
        """The user's store: ``$QCARDS_DATA_DIR/jobs`` or the platform's user data directory."""
        base = os.environ.get(DATA_DIR_ENV)
        if not base:
            import platformdirs

            base = platformdirs.user_data_dir("qcards")
        return cls(Path(base) / "jobs")

    def path(self, job_id: str) -> Path:
        if not _JOB_ID.match(job_id):
            raise JobStoreError(f"job id {job_id!r}: not a valid job id")
        return self.root / f"{job_id}.json"

    def save(self, record: JobRecord) -> Path:
        path = self.path(record.job_id)
        self.root.mkdir(parents=True, exist_ok=True)
        partial = path.with_suffix(".json.partial")
        partial.write_text(json.dumps(record.to_json(), indent=2) + "\n", encoding="utf-8")
        os.replace(partial, path)
        return path

    def load(self, job_id: str) -> JobRecord:
        path = self.path(job_id)
        if not path.is_file():
            raise JobStoreError(f"job {job_id!r} is not in the job store ({self.root})")
        return _read(path)

    def records(self) -> list[JobRecord]:
        """Every record, oldest first."""
        if not self.root.is_dir():
            return []
        records = [_read(p) for p in sorted(self.root.glob("*.json"))]
        return sorted(records, key=lambda r: (r.created, r.job_id))


def _read(path: Path) -> JobRecord:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise JobStoreError(f"{path}: unreadable job record ({exc})") from None
    return JobRecord.from_json(data, str(path))
