"""The local job store: one SQLite database, a record per hardware job, written before its
result is awaited.

A record holds everything needed to decode the job's result later, on another day or after an
interruption: the job id and backend, the spec (its TOML text and where it came from), the
declarer's first card and the construction (the game circuit is rebuilt from these
deterministically), the measured register, the transpiled size and the options the job ran with.
Once the result has been fetched, the decoded counts and p_win are stored in the record too, so
later look-ups need no network.

**Where.** The store is the file ``jobs.sqlite3`` in ``platformdirs.user_data_dir("qcards")``,
or in the directory ``QCARDS_DATA_DIR`` names.

**Why SQLite.** A hardware job costs device time, and losing its id loses the result. One JSON file
per job, each written to a temporary file and renamed over the old one (the earlier layout, see
**Migration**), is atomic per file, but nothing more. SQLite (the standard library's ``sqlite3``)
gives transactions and locking across processes: every write is one transaction, an
``INSERT ... ON CONFLICT(job_id) DO UPDATE`` that another process, or a crash half-way, sees either
whole or not at all; two ``qcards run`` submitting at once queue for the write lock
(``busy_timeout``, :data:`BUSY_TIMEOUT` seconds) instead of failing or overwriting each other. The
database runs in WAL mode (write-ahead log: readers see the last committed state and never wait for
a writer) with ``synchronous = FULL`` (a commit is on disk when ``save`` returns). One table,
``jobs``, is keyed by the job id and holds the record as JSON plus the columns ``backend``,
``created`` (indexed: :meth:`JobStore.records` lists oldest first) and ``status``;
``PRAGMA user_version`` is the schema version (:data:`SCHEMA_VERSION`). A database from a newer
qcards is refused rather than misread.

**Migration.** A store of the earlier layout (``jobs/<job id>.json`` beside the database) is
imported on first use: every readable record goes into the database in one transaction, and
only then is its file moved to ``jobs/migrated/`` (kept, not deleted, so nothing is lost). A
record the database already holds is not overwritten by its old JSON file, so a migration that
runs again (a file could not be moved) or in two processes at once cannot undo a later update.
A JSON file that cannot be read is left where it is and does not stop the others:
:meth:`JobStore.records` (``qcards jobs list``) reports it as one
:class:`~qcards.errors.JobStoreError` naming the file, on every run until it is repaired or
moved away; :meth:`JobStore.save` never fails because of it (a job just submitted must be
recorded).

**A broken store.** A file that is not an SQLite database (garbage bytes, a truncated file), a
directory in its place, a file that cannot be opened, or a store of a newer schema raises one
:class:`~qcards.errors.JobStoreError` naming the file and how to recover: move it aside (with
its ``-wal`` and ``-shm`` files), and qcards starts a new, empty store.
"""

from __future__ import annotations

import json
import os
import re
import sqlite3
from collections.abc import Iterator
from contextlib import closing, contextmanager
from dataclasses import asdict, dataclass, field, fields
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from qcards.errors import JobStoreError, SpecError
from qcards.files import read_text

if TYPE_CHECKING:
    from qcards.circuits.task import GameTask

DATA_DIR_ENV = "QCARDS_DATA_DIR"
"""Environment variable that overrides the data directory (the store is its ``jobs.sqlite3``)."""

DATABASE = "jobs.sqlite3"
"""The store's file name in the data directory."""

LEGACY_DIR = "jobs"
"""The directory of the earlier one-JSON-file-per-job store, in the data directory."""

SCHEMA_VERSION = 1
"""The database layout this qcards reads and writes (``PRAGMA user_version``)."""

BUSY_TIMEOUT = 30.0
"""Seconds a write waits for another process's transaction before giving up."""

SUBMITTED, DONE, FAILED = "submitted", "done", "failed"
_JOB_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]*$")
_SQLITE_MAGIC = b"SQLite format 3\x00"

_SCHEMA = (
    """CREATE TABLE jobs (
        job_id TEXT PRIMARY KEY NOT NULL,
        backend TEXT NOT NULL,
        created TEXT NOT NULL,
        status TEXT NOT NULL,
        record TEXT NOT NULL
    )""",
    "CREATE INDEX jobs_by_created ON jobs (created, job_id)",
    f"PRAGMA user_version = {SCHEMA_VERSION}",
)
_UPSERT = """INSERT INTO jobs (job_id, backend, created, status, record) VALUES (?, ?, ?, ?, ?)
    ON CONFLICT (job_id) DO UPDATE SET backend = excluded.backend, created = excluded.created,
        status = excluded.status, record = excluded.record"""
_IMPORT = """INSERT INTO jobs (job_id, backend, created, status, record) VALUES (?, ?, ?, ?, ?)
    ON CONFLICT (job_id) DO NOTHING"""


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
    model: str = "random"
    """The play model the card-play gates prepared (records from before it: ``random``)."""

    def to_json(self) -> dict:
        return asdict(self)

    @property
    def task(self) -> GameTask:
        """The :class:`~qcards.circuits.task.GameTask` the job ran (its fields are stored flat:
        ``spec_path``, ``spec_text``, ``first``, ``construction``, ``model``)."""
        from qcards.circuits.task import GameTask  # Qiskit: only where a circuit is rebuilt

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
            record = cls(**data)
        except TypeError as exc:
            raise JobStoreError(f"{where}: {exc}") from None
        problem = _shape_problem(record)
        if problem:
            raise JobStoreError(f"{where}: {problem}")
        return record


class JobStore:
    """The SQLite job store ``<root>/jobs.sqlite3`` (see the module docstring).

    Every method opens its own connection and closes it before returning, so a store can be
    shared between threads and survives a fork. The database is created by the first
    :meth:`save` (or by the migration of an earlier store); reading a store that does not
    exist yet finds no jobs and creates nothing.

    Attributes:
        root: the data directory.
        file: the database, ``root / "jobs.sqlite3"``.
        legacy_dir: the earlier JSON store, ``root / "jobs"``, imported on first use.
    """

    def __init__(self, root: str | Path):
        self.root = Path(root)
        self.file = self.root / DATABASE
        self.legacy_dir = self.root / LEGACY_DIR
        self._migrated = False
        self._unreadable: dict[Path, str] = {}

    @classmethod
    def default(cls) -> JobStore:
        """The user's store: in ``$QCARDS_DATA_DIR`` or the platform's user data directory."""
        base = os.environ.get(DATA_DIR_ENV)
        if not base:
            import platformdirs

            base = platformdirs.user_data_dir("qcards")
        return cls(Path(base))

    def check(self) -> Path:
        """Open the store, creating or migrating it if need be, and return the database's path;
        :class:`~qcards.errors.JobStoreError` if it is broken. Called before a job is submitted,
        so that a store that could not record the job stops the submission instead."""
        with self._connection(create=True):
            return self.file

    def save(self, record: JobRecord) -> Path:
        """Insert or replace ``record`` in one transaction; returns the database's path."""
        problem = _problem(record)
        if problem:
            raise JobStoreError(problem)
        text = json.dumps(record.to_json(), sort_keys=True)
        with self._connection(create=True) as db:
            assert db is not None  # create=True makes the store when there is none
            with _transaction(db):
                db.execute(_UPSERT, (*_columns(record), text))
        return self.file

    def load(self, job_id: str) -> JobRecord:
        """The record of ``job_id``; :class:`~qcards.errors.JobStoreError` if there is none."""
        _check_id(job_id)
        row = None
        with self._connection(create=False) as db:
            if db is not None:
                row = db.execute("SELECT record FROM jobs WHERE job_id = ?", (job_id,)).fetchone()
        if row is None:
            unreadable = self._unreadable.get(self.legacy_dir / f"{job_id}.json")
            if unreadable:
                raise JobStoreError(self._not_imported([unreadable]))
            raise JobStoreError(f"job {job_id!r} is not in the job store ({self.file})")
        return self._decode(job_id, row[0])

    def records(self) -> list[JobRecord]:
        """Every record, oldest first.

        Raises :class:`~qcards.errors.JobStoreError` naming the files of the earlier store that
        could not be imported (the others are in the database), or the first stored record
        that cannot be read.
        """
        readable, unreadable = self.listing()
        if unreadable:
            raise unreadable[0]
        return readable

    def listing(self) -> tuple[list[JobRecord], list[JobStoreError]]:
        """Every record that can be read, oldest first, and one error for each stored record
        that cannot (hand-edited, say), naming its job id: what ``qcards jobs list`` shows.

        Raises :class:`~qcards.errors.JobStoreError` naming the files of the earlier store that
        could not be imported, as :meth:`records` does.
        """
        rows: list[Any] = []
        with self._connection(create=False) as db:
            if db is not None:
                cursor = db.execute("SELECT job_id, record FROM jobs ORDER BY created, job_id")
                rows = cursor.fetchall()
        if self._unreadable:
            raise JobStoreError(self._not_imported(list(self._unreadable.values())))
        readable, unreadable = [], []
        for job_id, text in rows:
            try:
                readable.append(self._decode(job_id, text))
            except JobStoreError as exc:
                unreadable.append(exc)
        return readable, unreadable

    # ------------------------------------------------------------------------- the database

    @contextmanager
    def _connection(self, create: bool) -> Iterator[sqlite3.Connection | None]:
        """A connection to the checked, migrated store, closed afterwards; ``None`` if there is
        no store and ``create`` is false. Every SQLite error becomes a JobStoreError."""
        try:
            db = self._open(create or self._legacy_files() != [])
            if db is None:
                yield None
                return
            with closing(db):
                if not self._migrated:
                    self._migrate(db)
                yield db
        except sqlite3.Error as exc:
            raise self._broken(exc) from None

    def _open(self, create: bool) -> sqlite3.Connection | None:
        file = self.file
        if file.is_dir():
            raise JobStoreError(
                f"{file}: a directory where the job store's database should be; "
                f"{_RECOVER.format(name=file.name)}"
            )
        if file.exists() and not file.is_file():  # a FIFO would block the first read
            raise JobStoreError(
                f"{file}: not a regular file where the job store's database should be; "
                f"{_RECOVER.format(name=file.name)}"
            )
        try:
            exists = file.exists()
            if exists and file.stat().st_size:
                with file.open("rb") as handle:
                    magic = handle.read(len(_SQLITE_MAGIC))
                if magic != _SQLITE_MAGIC:
                    raise JobStoreError(
                        f"{file}: not a job store (not an SQLite database); "
                        f"{_RECOVER.format(name=file.name)}"
                    )
            if not exists:
                if not create:
                    return None
                self.root.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise JobStoreError(
                f"{_path_of(exc, file)}: cannot open the job store ({exc.strerror or exc}); "
                f"check its permissions, or {_RECOVER.format(name=file.name)}"
            ) from None
        db = sqlite3.connect(file, timeout=BUSY_TIMEOUT, isolation_level=None)
        try:
            db.execute(f"PRAGMA busy_timeout = {int(BUSY_TIMEOUT * 1000)}")
            db.execute("PRAGMA synchronous = FULL")
            version = self._check_version(db)
            if version == 0:
                self._create(db)
        except BaseException:
            db.close()
            raise
        return db

    def _check_version(self, db: sqlite3.Connection) -> int:
        # One statement, so one snapshot: read apart, another process could commit the schema
        # between the version (still 0) and the table count (no longer 0).
        version, tables = db.execute(
            "SELECT (SELECT user_version FROM pragma_user_version), "
            "(SELECT count(*) FROM sqlite_master)"
        ).fetchone()
        if version > SCHEMA_VERSION:
            raise JobStoreError(
                f"{self.file}: a job store of schema version {version}, newer than this qcards "
                f"reads ({SCHEMA_VERSION}): upgrade qcards, or "
                f"{_RECOVER.format(name=self.file.name)}"
            )
        if version == 0 and tables:
            raise JobStoreError(
                f"{self.file}: an SQLite database but not a qcards job store; "
                f"{_RECOVER.format(name=self.file.name)}"
            )
        return version

    def _create(self, db: sqlite3.Connection) -> None:
        """The schema of an empty database; another process may be creating it at once."""
        db.execute("PRAGMA journal_mode = WAL")  # persistent; outside any transaction
        with _transaction(db):
            if self._check_version(db) == 0:
                for statement in _SCHEMA:
                    db.execute(statement)

    def _broken(self, exc: sqlite3.Error) -> JobStoreError:
        """The JobStoreError of an SQLite error: what went wrong, with the file and the way
        out."""
        name = getattr(exc, "sqlite_errorname", "")
        recover = _RECOVER.format(name=self.file.name)
        if name.startswith(("SQLITE_NOTADB", "SQLITE_CORRUPT")):
            what = f"not a readable job store ({exc}); {recover}"
        elif name.startswith(("SQLITE_CANTOPEN", "SQLITE_PERM", "SQLITE_READONLY", "SQLITE_AUTH")):
            what = f"cannot open the job store ({exc}); check its permissions, or {recover}"
        elif name.startswith(("SQLITE_BUSY", "SQLITE_LOCKED")):
            what = f"another process held the job store for {BUSY_TIMEOUT:g} s ({exc}); try again"
        elif name.startswith("SQLITE_FULL"):
            what = f"the disk is full ({exc}); the store is unchanged"
        else:
            what = f"the job store failed ({exc}); if this persists, {recover}"
        return JobStoreError(f"{self.file}: {what}")

    def _decode(self, job_id: str, text: str) -> JobRecord:
        where = f"{self.file}: job {job_id}"
        try:
            data = json.loads(text)
        except (TypeError, json.JSONDecodeError) as exc:
            raise JobStoreError(f"{where}: unreadable job record ({exc})") from None
        return JobRecord.from_json(data, where)

    # ------------------------------------------------------------------------- migration

    def _legacy_files(self) -> list[Path]:
        if self._migrated:
            return []
        try:
            return sorted(self.legacy_dir.glob("*.json"))
        except OSError:
            return []

    def _migrate(self, db: sqlite3.Connection) -> None:
        """Import the earlier store's JSON files (see the module docstring)."""
        readable: list[tuple[Path, JobRecord]] = []
        unreadable: dict[Path, str] = {}
        for path in self._legacy_files():
            try:
                text = read_text(path, JobStoreError, "job record")  # regular, at most 1 MiB
            except JobStoreError as exc:
                if not path.exists():
                    continue  # moved by another process migrating at the same time
                unreadable[path] = str(exc)
                continue
            try:
                record = _parse(text, str(path))
            except JobStoreError as exc:
                unreadable[path] = str(exc)
                continue
            problem = _problem(record)
            if problem:
                unreadable[path] = f"{path}: {problem}"
                continue
            readable.append((path, record))
        if readable:
            with _transaction(db):
                for _, record in readable:
                    text = json.dumps(record.to_json(), sort_keys=True)
                    db.execute(_IMPORT, (*_columns(record), text))
            moved = self.legacy_dir / "migrated"
            for path, _ in readable:
                try:
                    moved.mkdir(exist_ok=True)
                    os.replace(path, moved / path.name)
                except OSError:
                    pass  # imported all the same; importing it again changes nothing
        self._unreadable = unreadable
        self._migrated = True

    def _not_imported(self, messages: list[str]) -> str:
        files = "the file" if len(messages) == 1 else "these files"
        return (
            f"{'; '.join(messages)}: not imported into {self.file} (the other records were); "
            f"repair {files}, or move {'it' if len(messages) == 1 else 'them'} out of "
            f"{self.legacy_dir}"
        )


_RECOVER = (
    "move it aside (with any {name}-wal and {name}-shm beside it) and qcards starts a new store"
)


@contextmanager
def _transaction(db: sqlite3.Connection) -> Iterator[None]:
    """``BEGIN IMMEDIATE`` (take the write lock first, waiting up to the busy timeout, so the
    transaction never fails half-way for want of it) ... ``COMMIT``, or ``ROLLBACK``."""
    db.execute("BEGIN IMMEDIATE")
    try:
        yield
    except BaseException:
        if db.in_transaction:
            db.rollback()
        raise
    db.execute("COMMIT")


def _columns(record: JobRecord) -> tuple[str, str, str, str]:
    return record.job_id, record.backend, record.created, record.status


def _check_id(job_id: str) -> None:
    if not isinstance(job_id, str) or not _JOB_ID.match(job_id):
        raise JobStoreError(f"job id {job_id!r}: not a valid job id")


def _problem(record: JobRecord) -> str | None:
    """Why ``record`` cannot be stored (an invalid id, a column that is not a string), if so."""
    try:
        _check_id(record.job_id)
    except JobStoreError as exc:
        return str(exc)
    for name in ("backend", "created", "status"):
        value = getattr(record, name)
        if not isinstance(value, str):
            return f"job {record.job_id}: {name} {value!r} is not a string"
    return None


_TYPES: dict[str, tuple[type, ...]] = {
    "job_id": (str,),
    "backend": (str,),
    "spec_path": (str,),
    "spec_text": (str,),
    "first": (str, type(None)),
    "construction": (str,),
    "shots": (int,),
    "seed": (int, type(None)),
    "register": (dict,),
    "transpiled": (dict,),
    "options": (dict,),
    "created": (str,),
    "status": (str,),
    "result": (dict, type(None)),
    "error": (str, type(None)),
}
"""The JSON types of a record's fields."""

_SIZE_FIELDS = ("two_qubit_gates", "depth", "num_qubits")
"""The fields of a record's ``transpiled`` table (a
:class:`~qcards.execution.transpile.TranspiledSize`)."""

_RESULT_TYPES: dict[str, tuple[type, ...]] = {
    "shots": (int,),
    "counts": (dict,),
    "p_win": (int, float),
}
"""The fields a fetched record's ``result`` must hold, and their types."""

_RESULT_OPTIONAL: dict[str, tuple[type, ...]] = {
    "p_win_raw": (int, float, type(None)),
    "ci": (list, type(None)),
    "kept_fraction": (int, float),
    "mitigation": (str,),
    "extrapolation": (dict, type(None)),
}
"""The fields a fetched record's ``result`` may hold, and their types."""

_EXTRAPOLATION_LISTS = ("scales", "values", "kept_shots", "used")
"""The lists of numbers of a result's ``extrapolation`` (zero-noise extrapolation)."""


def _shape_problem(record: JobRecord) -> str | None:
    """What in ``record`` has a type or shape qcards cannot use (a hand-edited record), if
    anything: the fields' JSON types, the transpiled size's fields, a result's fields."""

    def wrong(value, types: tuple[type, ...]) -> bool:
        return isinstance(value, bool) or not isinstance(value, types)

    def numbers(value) -> bool:
        return isinstance(value, list) and not any(wrong(v, (int, float)) for v in value)

    for name, types in _TYPES.items():
        value = getattr(record, name)
        if wrong(value, types):
            return f"{name} {_short(value)} is not {_names(types)}"
    if record.status not in (SUBMITTED, DONE, FAILED):
        return f"status {_short(record.status)} is not one of {SUBMITTED}, {DONE}, {FAILED}"
    size = record.transpiled
    if sorted(size) != sorted(_SIZE_FIELDS) or any(wrong(v, (int,)) for v in size.values()):
        return f"transpiled {_short(size)} is not {', '.join(_SIZE_FIELDS)} as whole numbers"
    result = record.result
    if result is None:
        return None
    for name in _RESULT_TYPES:
        if name not in result:
            return f"result has no {name}"
    for name, types in {**_RESULT_TYPES, **_RESULT_OPTIONAL}.items():
        if name in result and wrong(result[name], types):
            return f"result {name} {_short(result[name])} is not {_names(types)}"
    if any(wrong(v, (int,)) for v in result["counts"].values()):
        return "result counts hold a count that is not a whole number"
    ci, zne = result.get("ci"), result.get("extrapolation")
    if ci is not None and not (numbers(ci) and len(ci) == 2):
        return f"result ci {_short(ci)} is not two numbers"
    if zne is not None and not (
        all(numbers(zne.get(k)) for k in _EXTRAPOLATION_LISTS)
        and isinstance(zne.get("extrapolated"), bool)
    ):
        return f"result extrapolation {_short(zne)} is not lists of numbers and a flag"
    return None


def _names(types: tuple[type, ...]) -> str:
    names = {str: "a string", int: "a whole number", float: "a number", dict: "a table"}
    return " or ".join(names.get(t, "a list" if t is list else "null") for t in types)


def _short(value, most: int = 60) -> str:
    """``repr(value)``, cut to ``most`` characters (a hand-edited field may be long)."""
    text = repr(value)
    return text if len(text) <= most else text[: most - 3] + "..."


def _parse(text: str, where: str) -> JobRecord:
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise JobStoreError(f"{where}: unreadable job record ({exc})") from None
    return JobRecord.from_json(data, where)


def _path_of(exc: OSError, default: Path) -> str:
    return str(exc.filename) if exc.filename else str(default)
