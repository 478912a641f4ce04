"""The local job store (SQLite) and ``qcards jobs list|fetch`` on stored records (no runtime
involved): round trips, the migration of the earlier JSON store, two processes writing at once,
a writer killed half-way, and every kind of broken store as one error naming the file."""

from __future__ import annotations

import json
import os
import random
import shutil
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from qcards.cli import main
from qcards.errors import JobStoreError
from qcards.execution.jobs import DONE, SCHEMA_VERSION, SUBMITTED, JobRecord, JobStore

from conftest import REPO
from jobstore_worker import big_record, numbered, record

pytestmark = pytest.mark.usefixtures("offline_ibm")

WORKER = Path(__file__).with_name("jobstore_worker.py")


def one_error_line(capsys) -> str:
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("error: "), err
    return err[0]


def worker(*args, **popen) -> subprocess.Popen:
    """tests/jobstore_worker.py in a process of its own, with this worktree's qcards."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(REPO), str(WORKER.parent)])}
    command = [sys.executable, str(WORKER), *map(str, args)]
    return subprocess.Popen(command, env=env, text=True, **popen)


def sql(store: JobStore, statement: str, *params):
    """One statement on the store's database, outside qcards."""
    with sqlite3.connect(store.file) as db:
        rows = db.execute(statement, params).fetchall()
    db.close()
    return rows


def legacy_file(store: JobStore, rec: JobRecord) -> Path:
    """``rec`` written as the earlier store did: ``jobs/<job id>.json``."""
    store.legacy_dir.mkdir(parents=True, exist_ok=True)
    path = store.legacy_dir / f"{rec.job_id}.json"
    path.write_text(json.dumps(rec.to_json(), indent=2) + "\n", encoding="utf-8")
    return path


# ----------------------------------------------------------------------------- records


def test_store_round_trip(tmp_path):
    store = JobStore(tmp_path / "data")
    first, second = record("b", created="2026-01-02T00:00:00+00:00"), record("a")
    first.created = "2026-01-01T00:00:00+00:00"
    assert store.save(second) == store.file == tmp_path / "data" / "jobs.sqlite3"
    store.save(first)
    assert store.load("a") == second
    assert [r.job_id for r in store.records()] == ["b", "a"]  # oldest first
    second.status, second.result = DONE, {"counts": {"x": 100}, "p_win": 1.0, "shots": 100}
    store.save(second)
    assert store.load("a").result["p_win"] == 1.0
    assert JobStore(tmp_path / "data").load("a") == second  # another instance reads it
    assert sql(store, "SELECT job_id, status, backend FROM jobs ORDER BY job_id") == [
        ("a", DONE, "ibm:ibm_test"),
        ("b", SUBMITTED, "ibm:ibm_test"),
    ]


def test_the_database_is_wal_with_a_schema_version(tmp_path):
    store = JobStore(tmp_path)
    store.save(record())
    assert sql(store, "PRAGMA journal_mode") == [("wal",)]
    assert sql(store, "PRAGMA user_version") == [(SCHEMA_VERSION,)]
    indexes = {name for (name,) in sql(store, "SELECT name FROM sqlite_master WHERE type='index'")}
    assert "jobs_by_created" in indexes


def test_reading_a_missing_store_creates_nothing(tmp_path):
    store = JobStore(tmp_path / "data")
    assert store.records() == []
    with pytest.raises(JobStoreError, match="not in the job store"):
        store.load("nope")
    assert not (tmp_path / "data").exists()


def test_default_store_follows_the_environment(tmp_path, monkeypatch):
    monkeypatch.setenv("QCARDS_DATA_DIR", str(tmp_path / "elsewhere"))
    store = JobStore.default()
    assert store.file == tmp_path / "elsewhere" / "jobs.sqlite3"
    assert store.legacy_dir == tmp_path / "elsewhere" / "jobs"


def test_unknown_and_invalid_ids(tmp_path):
    store = JobStore(tmp_path)
    store.save(record("x"))
    with pytest.raises(JobStoreError, match="not in the job store"):
        store.load("nope")
    with pytest.raises(JobStoreError, match="not a valid job id"):
        store.load("../etc/passwd")
    with pytest.raises(JobStoreError, match="not a valid job id"):
        store.save(record("a b"))


def test_a_stored_record_that_cannot_be_read_is_named(capsys):
    store = JobStore.default()
    store.save(record("x"))
    store.save(record("y"))
    data = json.loads(sql(store, "SELECT record FROM jobs WHERE job_id = 'x'")[0][0])
    sql(store, "UPDATE jobs SET record = ? WHERE job_id = 'x'", json.dumps({**data, "colour": 1}))
    sql(store, "UPDATE jobs SET record = '{not json' WHERE job_id = 'y'")
    with pytest.raises(JobStoreError, match="colour") as info:
        store.load("x")
    assert f"{store.file}: job x" in str(info.value)
    with pytest.raises(JobStoreError, match="job y: unreadable job record"):
        store.load("y")
    with pytest.raises(JobStoreError, match="job x"):
        store.records()
    assert main(["jobs", "list"]) == 0  # listed as unreadable, by id, and skipped
    captured = capsys.readouterr()
    assert "no readable jobs" in captured.out
    assert [line.split(": job ")[1][0] for line in captured.err.splitlines()] == ["x", "y"]
    assert all(line.startswith(f"unreadable: {store.file}") for line in captured.err.splitlines())


def test_a_write_waits_for_another_writer(tmp_path):
    """busy_timeout: a save while another connection holds the write lock waits for it."""
    store = JobStore(tmp_path)
    store.save(record("first"))
    holder = sqlite3.connect(store.file, isolation_level=None, check_same_thread=False)
    holder.execute("BEGIN IMMEDIATE")
    release = threading.Timer(0.5, lambda: holder.execute("COMMIT"))
    release.start()
    started = time.monotonic()
    try:
        store.save(record("second"))
    finally:
        release.join()
        holder.close()
    assert time.monotonic() - started >= 0.4
    assert [r.job_id for r in store.records()] == ["first", "second"]


# ----------------------------------------------------------------------------- the CLI


def test_cli_list(capsys):
    assert main(["jobs", "list"]) == 0
    assert "no jobs" in capsys.readouterr().out
    store = JobStore.default()
    store.save(record("j1"))
    store.save(record("j2", status=DONE, result={"counts": {}, "p_win": 0.5, "shots": 100}))
    assert main(["jobs", "list", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert [(r["job_id"], r["status"], r["p_win"]) for r in rows] == [
        ("j1", SUBMITTED, None),
        ("j2", DONE, 0.5),
    ]
    assert main(["jobs", "list"]) == 0
    out = capsys.readouterr().out
    assert "j1" in out and "ibm:ibm_test" in out


def test_cli_fetch_of_a_fetched_record_is_offline(capsys):
    result = {"counts": {"A:CA": 60, "B:CA": 40}, "p_win": 0.6, "shots": 100}
    JobStore.default().save(record("done-1", status=DONE, result=result))
    assert main(["jobs", "fetch", "done-1", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["job_id"] == "done-1" and data["p_win"] == 0.6 and data["shots"] == 100
    assert data["transpiled"] == {"two_qubit_gates": 3, "depth": 7, "num_qubits": 5}
    assert main(["jobs", "fetch", "done-1"]) == 0
    assert "p_win 0.6000 from 100 shots on ibm:ibm_test" in capsys.readouterr().out


@pytest.mark.parametrize("argv", [["jobs", "fetch", "nope"], ["jobs", "fetch", "a/b"], ["jobs"]])
def test_cli_errors(capsys, argv):
    assert main(argv) == 2
    one_error_line(capsys)


def test_fetch_of_a_failed_job_reports_its_error(capsys):
    JobStore.default().save(record("f1", status="failed", error="the device was recalibrated"))
    assert main(["jobs", "fetch", "f1"]) == 2
    assert "recalibrated" in one_error_line(capsys)


# ----------------------------------------------------------------------------- migration


def test_the_json_store_is_imported_and_kept(capsys):
    store = JobStore.default()
    old = [record("old-1", created="2025-01-01T00:00:00+00:00"), record("old-2", status=DONE)]
    paths = [legacy_file(store, r) for r in old]
    (store.legacy_dir / "old-3.json.partial").write_text("{half")  # the old writer's leftover
    assert store.records() == old
    migrated = store.legacy_dir / "migrated"
    assert sorted(p.name for p in migrated.iterdir()) == ["old-1.json", "old-2.json"]
    assert not any(p.exists() for p in paths)
    assert (store.legacy_dir / "old-3.json.partial").exists()
    for path, rec in zip(paths, old, strict=True):  # nothing lost: the files are kept as they were
        assert JobRecord.from_json(json.loads((migrated / path.name).read_text()), "") == rec
    assert main(["jobs", "list", "--json"]) == 0  # another process, later: nothing to import
    assert [row["job_id"] for row in json.loads(capsys.readouterr().out)] == ["old-1", "old-2"]


def test_migration_never_overwrites_the_database(tmp_path):
    store = JobStore(tmp_path)
    store.save(record("x", status=DONE, result={"counts": {}, "p_win": 1.0, "shots": 1}))
    legacy_file(store, record("x"))  # a stale copy, e.g. left by a move that failed
    legacy_file(store, record("y"))
    fresh = JobStore(tmp_path)
    assert [(r.job_id, r.status) for r in fresh.records()] == [("x", DONE), ("y", SUBMITTED)]


@pytest.mark.parametrize(
    "text, message",
    [
        ("{not json", "unreadable job record"),
        ('{"a": 1}', "not a qcards job record"),
        (json.dumps({**record("bad").to_json(), "colour": "red"}), "unknown field.*colour"),
        (json.dumps(record("no such id").to_json()), "not a valid job id"),
        (json.dumps({**record("bad").to_json(), "created": None}), "created None is not a str"),
    ],
)
def test_an_unreadable_json_file_is_named_and_blocks_nothing_else(capsys, text, message):
    store = JobStore.default()
    good = [legacy_file(store, record("good-1")), legacy_file(store, record("good-2"))]
    bad = store.legacy_dir / "bad.json"
    bad.write_text(text)
    with pytest.raises(JobStoreError, match=message) as info:
        store.records()
    assert str(bad) in str(info.value) and "the other records were" in str(info.value)
    assert store.load("good-1") == record("good-1")
    with pytest.raises(JobStoreError, match=message):  # its own id names the file too
        store.load("bad")
    assert not any(p.exists() for p in good) and bad.exists()
    store.save(record("new"))  # a job just submitted is always recorded

    assert main(["jobs", "list"]) == 2  # on every run, until the file is dealt with
    assert str(bad) in one_error_line(capsys)
    assert main(["jobs", "fetch", "good-2", "--json"]) == 2  # not fetched yet: needs IBM
    assert "credentials" in one_error_line(capsys)

    bad.rename(bad.with_suffix(".json.aside"))
    assert main(["jobs", "list", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert sorted(row["job_id"] for row in rows) == ["good-1", "good-2", "new"]


# ----------------------------------------------------------------------------- processes


def test_two_processes_saving_at_once_lose_nothing(tmp_path):
    """Two processes start together on a store that does not exist yet (both create it, both
    import the same JSON files) and save 50 records each while this one reads."""
    root, sync = tmp_path / "data", tmp_path / "sync"
    sync.mkdir()
    store = JobStore(root)
    old = [legacy_file(store, numbered("old", i)) for i in range(5)]
    procs = [worker("write", root, prefix, 50, sync, stderr=subprocess.PIPE) for prefix in "pq"]
    try:
        deadline = time.monotonic() + 120
        while not all((sync / f"{prefix}.ready").exists() for prefix in "pq"):
            assert all(p.poll() is None for p in procs), "a writer stopped before starting"
            assert time.monotonic() < deadline
            time.sleep(0.01)
        (sync / "go").touch()
        reads = 0
        while any(p.poll() is None for p in procs):
            for rec in JobStore(root).records():  # never a half-written record
                prefix, i = rec.job_id.split("-")
                assert rec == numbered(prefix, int(i))
            reads += 1
            time.sleep(0.01)
        errors = [p.communicate(timeout=60)[1] for p in procs]
    finally:
        for p in procs:
            if p.poll() is None:
                p.kill()
                p.wait()
    assert [p.returncode for p in procs] == [0, 0], errors
    records = JobStore(root).records()
    expected = [numbered(prefix, i) for prefix in "pq" for i in range(50)]
    expected += [numbered("old", i) for i in range(5)]
    assert sorted(records, key=lambda r: r.job_id) == sorted(expected, key=lambda r: r.job_id)
    assert not any(p.exists() for p in old)
    assert len(list((store.legacy_dir / "migrated").glob("*.json"))) == 5
    assert reads > 0


def test_a_writer_killed_mid_write_leaves_every_commit_intact(tmp_path):
    """SIGKILL while a process writes ~60 kB records in a loop, twelve times on the same store
    (each new writer recovering the previous one's write-ahead log): every record a writer
    reported committed is there and whole (or replaced by its later version), every record is
    one of the versions written."""
    root = tmp_path / "data"
    start, committed = 0, {}
    rng = random.Random(21)
    for _ in range(12):
        proc = worker("loop", root, start, stdout=subprocess.PIPE)
        try:
            lines = []
            while sum(line.startswith("done") for line in lines) < 2:
                line = proc.stdout.readline()
                assert line, "the writer stopped"
                lines.append(line)
            time.sleep(rng.uniform(0, 0.03))
            os.kill(proc.pid, signal.SIGKILL)
            lines += proc.stdout.read().splitlines()
        finally:
            proc.kill()
            proc.wait()
            proc.stdout.close()
        assert proc.returncode == -signal.SIGKILL
        for line in lines:
            state, i = line.split()
            committed[int(i)] = state
        start = max(committed) + 1

        store = JobStore(root)
        records = store.records()
        assert sql(store, "PRAGMA integrity_check") == [("ok",)]
        for rec in records:
            i = int(rec.job_id.removeprefix("crash-"))
            assert rec == big_record(i, done=rec.status == DONE)
        for i, state in committed.items():
            stored = store.load(f"crash-{i}")
            if state == "done":
                assert stored == big_record(i, done=True)
            else:  # "saved" printed; the done version may have committed before the kill
                # landed between its commit and its line
                assert stored in (big_record(i), big_record(i, done=True))
        assert len(records) >= len(committed)
    assert len(committed) >= 24


# ----------------------------------------------------------------------------- broken stores


def garbage(store: JobStore) -> None:
    store.root.mkdir(parents=True, exist_ok=True)
    store.file.write_bytes(bytes(random.Random(1).randrange(256) for _ in range(8192)))


def text_file(store: JobStore) -> None:
    store.root.mkdir(parents=True, exist_ok=True)
    store.file.write_text("jobs: none\n")


def full_store(store: JobStore) -> None:
    for i in range(40):
        store.save(big_record(i, done=True))
    assert not Path(f"{store.file}-wal").exists()  # checkpointed: everything is in the file


def truncated(store: JobStore) -> None:
    full_store(store)
    size = store.file.stat().st_size
    with store.file.open("r+b") as handle:
        handle.truncate(size // 2)


def truncated_header(store: JobStore) -> None:
    full_store(store)
    with store.file.open("r+b") as handle:
        handle.truncate(60)


def directory(store: JobStore) -> None:
    store.file.mkdir(parents=True)


def newer(store: JobStore) -> None:
    store.save(record())
    sql(store, f"PRAGMA user_version = {SCHEMA_VERSION + 1}")


def foreign(store: JobStore) -> None:
    store.root.mkdir(parents=True, exist_ok=True)
    sql(store, "CREATE TABLE recipes (name TEXT)")


def unreadable(store: JobStore) -> None:
    if os.geteuid() == 0:
        pytest.skip("root reads any file: permissions do not apply")
    store.save(record())
    store.file.chmod(0)


BROKEN = {
    "garbage": (garbage, "not an SQLite database"),
    "text": (text_file, "not an SQLite database"),
    "truncated": (truncated, "not a readable job store"),
    "truncated header": (truncated_header, "not a readable job store"),
    "directory": (directory, "a directory"),
    "newer schema": (newer, f"schema version {SCHEMA_VERSION + 1}.*upgrade qcards"),
    "another database": (foreign, "not a qcards job store"),
    "no permission": (unreadable, "cannot open the job store.*permissions"),
}


@pytest.mark.parametrize("kind", BROKEN)
def test_a_broken_store_is_one_error_naming_the_file(capsys, kind):
    store = JobStore.default()
    make, message = BROKEN[kind]
    make(store)
    before = None if store.file.is_dir() else store.file.read_bytes()
    with pytest.raises(JobStoreError, match=message) as info:
        store.records()
    text = str(info.value)
    assert text.startswith(f"{store.file}: ") and "\n" not in text
    assert "move it aside" in text and "starts a new store" in text
    with pytest.raises(JobStoreError, match=message):
        JobStore.default().load("crash-1")
    with pytest.raises(JobStoreError, match=message):
        JobStore.default().save(record("another"))
    if before is not None:
        assert store.file.read_bytes() == before  # never overwritten
    assert main(["jobs", "list"]) == 2
    line = one_error_line(capsys)
    assert str(store.file) in line and message.split(".*")[0] in line

    # the way out the message gives: move it aside, and a new store starts
    aside = store.root / "aside"
    aside.mkdir()
    for path in store.root.glob(f"{store.file.name}*"):
        shutil.move(path, aside / path.name)
    store = JobStore.default()
    store.save(record("fresh"))
    assert [r.job_id for r in store.records()] == ["fresh"]


def test_a_broken_store_through_the_command_is_one_line_without_a_traceback(tmp_path):
    store = JobStore(tmp_path / "data")
    garbage(store)
    env = {**os.environ, "QCARDS_DATA_DIR": str(store.root), "PYTHONPATH": str(REPO)}
    done = subprocess.run(
        [sys.executable, "-c", "import sys; from qcards.cli import main; sys.exit(main())"]
        + ["jobs", "list"],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.splitlines() == [
        f"error: {store.file}: not a job store (not an SQLite database); move it aside "
        f"(with any jobs.sqlite3-wal and jobs.sqlite3-shm beside it) and qcards starts a new store"
    ]
