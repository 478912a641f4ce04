"""The IBM hardware path, offline: the runtime's local testing mode on fake devices (and on Aer,
noiseless, to check the decoding), the job record written before waiting, fetch after an
interruption, credentials and CLI errors. Tests marked ``ibm`` need real credentials."""

from __future__ import annotations

import json
import logging
import os
import secrets

import pytest
from qiskit_aer import AerSimulator
from qiskit_ibm_runtime.exceptions import RuntimeJobFailureError
from qiskit_ibm_runtime.fake_provider import FakeGuadalupeV2, FakeNairobiV2

from qcards.circuits.decode import INVALID_LABEL
from qcards.circuits.task import GameTask
from qcards.cli import main
from qcards.errors import CredentialsError, JobError, ResourceError
from qcards.execution import ibm
from qcards.execution.jobs import DONE, FAILED, SUBMITTED, JobStore
from qcards.execution.mitigation import ZNE_SCALES, Mitigation, fold, mitigated_report
from qcards.skat.position.spec import parse_spec

from conftest import SKAT_ONLY, TINY

pytestmark = pytest.mark.usefixtures("offline_ibm")

P_WIN = 2 / 3


@pytest.fixture
def tiny_file(tmp_path):
    path = tmp_path / "tiny.toml"
    path.write_text(TINY)
    return str(path)


class Recorder:
    """A sampler that submits with a real one and wraps its jobs (``job_type``)."""

    def __init__(self, sampler, job_type=None, events=None):
        self.sampler, self.job_type, self.events = sampler, job_type, events
        self.jobs = []

    def run(self, pubs, shots=None):
        if self.events is not None:
            self.events.append("submit")
        job = self.sampler.run(pubs, shots=shots)
        self.jobs.append(job)
        return self.job_type(job) if self.job_type else job


class InterruptedJob:
    """Ctrl-C while waiting for the result."""

    def __init__(self, job):
        self.job = job

    def job_id(self):
        return self.job.job_id()

    def result(self):
        raise KeyboardInterrupt


class FailedJob(InterruptedJob):
    def result(self):
        raise RuntimeJobFailureError("Unable to retrieve job result. Error 1234")


def one_error_line(capsys) -> str:
    err = capsys.readouterr().err.strip().splitlines()
    assert err and err[-1].startswith("error: "), err
    assert sum(line.startswith("error: ") for line in err) == 1
    return err[-1]


def use_device(monkeypatch, device, job_type=None):
    """``ibm:NAME`` resolves to ``device`` (local testing mode); returns the job recorder."""
    recorder = Recorder(None, job_type)

    def sampler(dev, suppression, seed=None):
        recorder.sampler = original(dev, suppression, seed)
        return recorder

    original = ibm.make_sampler
    monkeypatch.setattr(ibm, "ibm_backend", lambda name: device)
    monkeypatch.setattr(ibm, "make_sampler", sampler)
    return recorder


# ----------------------------------------------------------------------------- options


def test_suppression_is_off_by_default_and_set_explicitly():
    options = ibm.Suppression().sampler_options()
    assert options["dynamical_decoupling"]["enable"] is False
    assert options["twirling"] == {"enable_gates": False, "enable_measure": False}
    on = ibm.Suppression("XY4", twirl_gates=True, twirl_measure=True).sampler_options()
    assert on["dynamical_decoupling"] == {"enable": True, "sequence_type": "XY4"}
    assert on["twirling"] == {"enable_gates": True, "enable_measure": True}
    sampler = ibm.make_sampler(FakeNairobiV2(), ibm.Suppression("XpXm"), seed=3)
    final = sampler.finalize_options()
    assert final.dynamical_decoupling.sequence_type == "XpXm"
    assert final.twirling.enable_gates is False and final.simulator.seed_simulator == 3


def test_unknown_dd_sequence():
    with pytest.raises(ResourceError, match="XY4"):
        ibm.Suppression("XYZ")


# ----------------------------------------------------------------------------- credentials


def test_missing_credentials_fail_at_once(offline_ibm):
    with pytest.raises(CredentialsError, match="QISKIT_IBM_TOKEN"):
        ibm.check_credentials()
    assert not (offline_ibm / ".qiskit").exists()  # nothing written to the home directory


def test_cli_without_credentials(capsys, tiny_file):
    assert main(["run", tiny_file, "--backend", "ibm:ibm_torino"]) == 2
    line = one_error_line(capsys)
    assert "save_account" in line and "QISKIT_IBM_TOKEN" in line


def test_corrupt_account_file(offline_ibm):
    (offline_ibm / ".qiskit").mkdir()
    (offline_ibm / ".qiskit" / "qiskit-ibm.json").write_text("{not json")
    with pytest.raises(CredentialsError, match="account file"):
        ibm.check_credentials()


def test_unknown_device_lists_the_accounts_devices(monkeypatch):
    from qiskit.providers.exceptions import QiskitBackendNotFoundError

    class Service:
        def backend(self, name):
            raise QiskitBackendNotFoundError("No backend matches the criteria.")

        def backends(self):
            return [FakeNairobiV2(), FakeGuadalupeV2()]

    monkeypatch.setattr(ibm, "runtime_service", Service)
    with pytest.raises(ResourceError, match="'ibm_nowhere'.*fake_guadalupe, fake_nairobi"):
        ibm.ibm_backend("ibm:ibm_nowhere")
    with pytest.raises(ResourceError, match="ibm:NAME"):
        ibm.ibm_backend("ibm:")


@pytest.mark.parametrize("flag", [["--twirl-gates"], ["--dynamical-decoupling"], ["--no-wait"]])
def test_hardware_flags_need_an_ibm_backend(capsys, tiny_file, flag):
    assert main(["run", tiny_file, "--backend", "aer", *flag]) == 2
    assert "ibm:NAME backends only" in one_error_line(capsys)


# ----------------------------------------------------------------------------- local testing mode


def test_local_mode_decodes_and_records_before_waiting(monkeypatch):
    """Noiseless (Aer as the device): the sampled p_win matches the referee's 2/3."""
    spec = parse_spec(TINY, source="tiny.toml")
    store = JobStore.default()
    events = []
    sampler = Recorder(ibm.make_sampler(AerSimulator(), ibm.Suppression(), seed=7), None, events)
    shots = 3000
    record, job = ibm.submit(
        GameTask(spec, construction="paper"),
        AerSimulator(),
        shots,
        seed=7,
        on_transpiled=lambda size: events.append("size"),
        store=store,
        sampler=sampler,
    )
    assert events == ["size", "submit"]
    stored = store.load(record.job_id)
    assert stored.status == SUBMITTED and stored.spec_text == spec.to_toml()
    assert stored.register == {"name": "outcome", "num_bits": 8, "num_qubits": 9}
    report = ibm.wait(record, job, store)
    sigma = (P_WIN * (1 - P_WIN) / shots) ** 0.5
    assert abs(report.p_win - P_WIN) < 5 * sigma
    assert report.shots == shots and sum(report.counts.values()) == shots
    assert len(report.counts) == 3  # one final state per deal
    assert report.backend == "ibm:aer_simulator"

    def offline(job_id):
        raise AssertionError("a fetched record needs no network")

    monkeypatch.setattr(ibm, "retrieve_job", offline)
    assert store.load(record.job_id).status == DONE
    assert ibm.fetch(record.job_id, store) == report


def test_fake_device_with_dynamical_decoupling(capsys, monkeypatch, tiny_file):
    use_device(monkeypatch, FakeGuadalupeV2())
    argv = ["run", tiny_file, "--backend", "ibm:fake", "--shots", "200", "--seed", "3"]
    assert main([*argv, "--dynamical-decoupling", "XY4"]) == 0
    captured = capsys.readouterr()
    assert "transpiled:" in captured.err and "p_win" in captured.out
    (record,) = JobStore.default().records()
    assert record.status == DONE and record.backend == "ibm:fake_guadalupe"
    assert record.options["suppression"]["dynamical_decoupling"] == "XY4"
    assert sum(record.result["counts"].values()) == 200


def test_twirling_rounds_the_shots_up(capsys, monkeypatch, tmp_path):
    spec = tmp_path / "skat-only.toml"
    spec.write_text(SKAT_ONLY)
    use_device(monkeypatch, FakeNairobiV2())
    argv = ["run", str(spec), "--backend", "ibm:fake", "--shots", "65", "--seed", "1"]
    assert main([*argv, "--twirl-gates", "--twirl-measure", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    # the runtime twirls with 64 shots per randomization: 2 randomizations for 65 shots
    assert data["shots"] == 128 and sum(data["counts"].values()) == 128
    assert {"job_id", "backend", "shots", "counts", "p_win", "transpiled"} <= set(data)
    assert data["mitigation"] == "none" and data["p_win_raw"] == data["p_win"]
    assert all(label == INVALID_LABEL or "skat:" in label for label in data["counts"])


def test_interrupted_wait_keeps_the_record_and_fetch_completes_it(capsys, monkeypatch, tiny_file):
    recorder = use_device(monkeypatch, FakeGuadalupeV2(), InterruptedJob)
    argv = ["run", tiny_file, "--backend", "ibm:fake", "--shots", "100", "--seed", "2"]
    assert main(argv) == 2
    (job,) = recorder.jobs
    line = one_error_line(capsys)
    assert job.job_id() in line and f"qcards jobs fetch {job.job_id()}" in line
    assert JobStore.default().load(job.job_id()).status == SUBMITTED

    monkeypatch.setattr(ibm, "retrieve_job", lambda job_id: job)
    assert main(["jobs", "fetch", job.job_id(), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["job_id"] == job.job_id() and data["shots"] == 100
    assert JobStore.default().load(job.job_id()).status == DONE

    monkeypatch.setattr(ibm, "retrieve_job", None)  # a second fetch needs no network
    assert main(["jobs", "fetch", job.job_id()]) == 0
    assert "from 100 shots on ibm:fake_guadalupe" in capsys.readouterr().out


def test_no_wait_records_and_prints_the_id(capsys, monkeypatch, tiny_file):
    recorder = use_device(monkeypatch, FakeGuadalupeV2())
    argv = ["run", tiny_file, "--backend", "ibm:fake", "--shots", "50", "--no-wait", "--json"]
    assert main(argv) == 0
    (job,) = recorder.jobs
    data = json.loads(capsys.readouterr().out)
    assert data == {"job_id": job.job_id(), "backend": "ibm:fake_guadalupe", "status": SUBMITTED}
    job.result()  # let the local job finish before the test ends
    assert main(["jobs", "list", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)[0]["status"] == SUBMITTED


def test_failed_job_is_marked_failed(capsys, monkeypatch, tiny_file):
    recorder = use_device(monkeypatch, FakeGuadalupeV2(), FailedJob)
    assert main(["run", tiny_file, "--backend", "ibm:fake", "--shots", "20"]) == 2
    assert "Error 1234" in one_error_line(capsys)
    (job,) = recorder.jobs
    job.result()
    record = JobStore.default().load(job.job_id())
    assert record.status == FAILED and "1234" in record.error
    with pytest.raises(JobError, match="1234"):
        ibm.fetch(job.job_id())


@pytest.mark.slow
def test_mitigate_all_on_a_device_is_one_job_and_fetch_mitigates(capsys, monkeypatch, tiny_file):
    """``--mitigate all`` on ibm: one job with the folded circuits and the readout
    calibrations, every suppression switch on; the record names the mitigation, and fetching
    it later applies the same detection and mitigation to the stored raw counts."""
    recorder = use_device(monkeypatch, FakeGuadalupeV2(), InterruptedJob)
    argv = ["run", tiny_file, "--backend", "ibm:fake", "--shots", "256", "--seed", "4"]
    assert main([*argv, "--mitigate", "all"]) == 2  # interrupted while waiting
    (job,) = recorder.jobs
    capsys.readouterr()
    record = JobStore.default().load(job.job_id())
    assert record.status == SUBMITTED and record.options["mitigation"] == "all"
    assert record.options["circuits"] == len(ZNE_SCALES) + 2
    assert record.options["sampler"]["twirling"] == {"enable_gates": True, "enable_measure": True}
    assert record.options["sampler"]["dynamical_decoupling"]["enable"] is True

    monkeypatch.setattr(ibm, "retrieve_job", lambda job_id: job)
    assert main(["jobs", "fetch", job.job_id(), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["mitigation"] == "all" and 0 < data["kept_fraction"] <= 1
    low, high = data["ci"]
    assert 0 <= low <= data["p_win"] <= high <= 1
    stored = JobStore.default().load(job.job_id())
    assert len(stored.result["raw_counts"]) == len(ZNE_SCALES) + 2
    # the stored report is the mitigation of the stored raw counts, recomputed here
    task = stored.task
    again = mitigated_report(
        task.spec,
        task.build(),
        stored.backend,
        ibm.report_of(stored).transpiled,
        [{int(k): v for k, v in c.items()} for c in stored.result["raw_counts"]],
        Mitigation.parse("all"),
        stored.seed,
    )
    assert again.p_win == data["p_win"] and list(again.ci) == data["ci"]
    assert data["p_win_raw"] == again.p_win_raw


def test_a_broken_job_store_stops_the_run_before_submission(capsys, monkeypatch, tiny_file):
    recorder = use_device(monkeypatch, FakeGuadalupeV2())
    store = JobStore.default()
    store.root.mkdir(parents=True)
    store.file.write_bytes(b"not a database")
    argv = ["run", tiny_file, "--backend", "ibm:fake", "--shots", "50", "--no-wait"]
    assert main(argv) == 2
    line = one_error_line(capsys)
    assert str(store.file) in line and "move it aside" in line
    assert recorder.jobs == []  # nothing submitted that could not be recorded


def test_the_token_is_never_stored_printed_or_logged(capfd, caplog, monkeypatch, tmp_path):
    """A fake token in the environment, read by the runtime for a submission in local testing
    mode, an interrupted wait, ``jobs list`` and ``jobs fetch``: the token is in none of
    stdout, stderr, the logs (every level, the runtime's own logger too) or any file written
    under the test's directory (the job store's database and its WAL, the home directory)."""
    token = f"fake-token-{secrets.token_hex(16)}"
    monkeypatch.setenv("QISKIT_IBM_TOKEN", token)
    runtime_log = logging.getLogger("qiskit_ibm_runtime")  # it does not propagate to the root
    monkeypatch.setattr(runtime_log, "handlers", [*runtime_log.handlers, caplog.handler])
    caplog.set_level(logging.DEBUG)
    caplog.set_level(logging.DEBUG, logger="qiskit_ibm_runtime")
    recorder = use_device(monkeypatch, FakeGuadalupeV2(), InterruptedJob)
    device = ibm.ibm_backend

    def with_the_account(name):
        assert ibm.check_credentials().token == token  # the runtime reads the token
        return device(name)

    monkeypatch.setattr(ibm, "ibm_backend", with_the_account)
    spec = tmp_path / "tiny.toml"
    spec.write_text(TINY)
    argv = ["run", str(spec), "--backend", "ibm:fake", "--shots", "100", "--seed", "5"]
    assert main([*argv, "--mitigate", "readout"]) == 2  # interrupted while waiting
    (job,) = recorder.jobs
    job_id = job.job_id()
    outputs = [capfd.readouterr()]

    def retrieve(job_id):
        ibm.check_credentials()
        return job

    monkeypatch.setattr(ibm, "retrieve_job", retrieve)
    assert main(["jobs", "list", "--json"]) == 0
    outputs.append(capfd.readouterr())
    assert [row["job_id"] for row in json.loads(outputs[-1].out)] == [job_id]
    assert main(["jobs", "fetch", job_id, "--json"]) == 0
    outputs.append(capfd.readouterr())
    assert json.loads(outputs[-1].out)["job_id"] == job_id
    assert main(["jobs", "fetch", job_id]) == 0
    outputs.append(capfd.readouterr())
    assert JobStore.default().load(job_id).status == DONE

    written = {p: p.read_bytes() for p in tmp_path.rglob("*") if p.is_file()}
    store_files = [p for p in written if p.name.startswith("jobs.sqlite3")]
    assert store_files and any(job_id.encode() in written[p] for p in store_files)
    assert caplog.records  # the logs were captured
    for i, (out, err) in enumerate(outputs):
        assert token not in out and token not in err, f"command {i}"
    assert token not in caplog.text
    for path, data in written.items():
        assert token.encode() not in data, path
        assert token.encode("utf-16-le") not in data, path


def test_fold_keeps_an_eagle_circuit_on_the_device(monkeypatch):
    """mitiq folds through Cirq, which has no ECR: the folded circuit is translated back to
    the device's gates on the same qubits, with three times the two-qubit gates."""
    from qiskit_ibm_runtime.fake_provider import FakeBrisbane

    from qcards.execution.transpile import measured_circuit, transpile_to, transpiled_size

    device = FakeBrisbane()
    game = GameTask(parse_spec(TINY, source="tiny.toml"), construction="hardware").build()
    transpiled = transpile_to(measured_circuit(game), device, 1, prefer="gates")
    folded = fold(transpiled, 3.0, 1, device)
    assert "ecr" in folded.count_ops() and "cx" not in folded.count_ops()
    for inst in folded.data:
        qubits = tuple(folded.find_bit(q).index for q in inst.qubits)
        assert device.target.instruction_supported(inst.operation.name, qubits), inst
    size, base = transpiled_size(folded), transpiled_size(transpiled)
    assert size.two_qubit_gates == 3 * base.two_qubit_gates
    assert size.num_qubits == base.num_qubits


def test_device_too_small(monkeypatch):
    spec = parse_spec(TINY, source="tiny.toml")
    with pytest.raises(ResourceError, match="needs 9 qubits; fake_manila has 5"):
        from qiskit_ibm_runtime.fake_provider import FakeManilaV2

        ibm.submit(GameTask(spec, construction="paper"), FakeManilaV2(), 10)


# ----------------------------------------------------------------------------- real hardware


@pytest.mark.ibm
def test_real_device_submission_is_recorded(tmp_path, monkeypatch):
    """Needs a saved account or QISKIT_IBM_TOKEN; QCARDS_IBM_BACKEND names the device."""
    monkeypatch.setenv("QCARDS_DATA_DIR", str(tmp_path / "data"))
    try:
        ibm.check_credentials()
    except CredentialsError as exc:
        pytest.skip(str(exc))
    service = ibm.runtime_service()
    name = os.environ.get("QCARDS_IBM_BACKEND") or service.least_busy(operational=True).name
    device = ibm.ibm_backend(f"ibm:{name}")
    record, job = ibm.submit(
        GameTask(parse_spec(TINY, source="tiny.toml"), construction="paper"), device, 100
    )
    try:
        assert JobStore.default().load(record.job_id).backend == f"ibm:{name}"
        assert ibm.retrieve_job(record.job_id).job_id() == record.job_id
    finally:
        job.cancel()
