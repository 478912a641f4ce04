"""The local job store and ``qcards jobs list|fetch`` on stored records (no runtime involved)."""

from __future__ import annotations

import json

import pytest

from qcards.cli import main
from qcards.errors import JobStoreError
from qcards.execution.jobs import DONE, SUBMITTED, JobRecord, JobStore

pytestmark = pytest.mark.usefixtures("offline_ibm")


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
    )
    return JobRecord(**{**fields, **changes})


def one_error_line(capsys) -> str:
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("error: "), err
    return err[0]


def test_store_round_trip(tmp_path):
    store = JobStore(tmp_path / "jobs")
    first, second = record("b", created="2026-01-02T00:00:00+00:00"), record("a")
    first.created = "2026-01-01T00:00:00+00:00"
    store.save(second)
    store.save(first)
    assert store.load("a") == second
    assert [r.job_id for r in store.records()] == ["b", "a"]  # oldest first
    second.status, second.result = DONE, {"counts": {"x": 100}, "p_win": 1.0, "shots": 100}
    store.save(second)
    assert store.load("a").result["p_win"] == 1.0
    assert not list(store.root.glob("*.partial"))


def test_default_store_follows_the_environment(tmp_path, monkeypatch):
    monkeypatch.setenv("QCARDS_DATA_DIR", str(tmp_path / "elsewhere"))
    assert JobStore.default().root == tmp_path / "elsewhere" / "jobs"


def test_unknown_and_invalid_ids(tmp_path):
    store = JobStore(tmp_path)
    with pytest.raises(JobStoreError, match="not in the job store"):
        store.load("nope")
    with pytest.raises(JobStoreError, match="not a valid job id"):
        store.load("../etc/passwd")


@pytest.mark.parametrize(
    "text, message",
    [("{not json", "unreadable job record"), ('{"a": 1}', "not a qcards job record")],
)
def test_corrupt_store_file_is_named(capsys, text, message):
    store = JobStore.default()
    store.save(record("good"))
    bad = store.root / "bad.json"
    bad.write_text(text)
    with pytest.raises(JobStoreError, match=message) as info:
        store.load("bad")
    assert str(bad) in str(info.value)
    assert main(["jobs", "list"]) == 2
    assert str(bad) in one_error_line(capsys)


def test_unknown_field_is_named():
    store = JobStore.default()
    store.save(record("x"))
    data = json.loads(store.path("x").read_text())
    store.path("x").write_text(json.dumps({**data, "colour": "red"}))
    with pytest.raises(JobStoreError, match="colour"):
        store.load("x")


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
