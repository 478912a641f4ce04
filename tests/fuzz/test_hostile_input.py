"""Regression tests for an outside black-box run's findings (issue 29, item 8): output paths
that are FIFOs or directories, huge shot counts, long game commands without an estimate,
unbounded reads, tracebacks on odd input and environments, stray output at exit, and the sparse
engine's memory estimate against its measured peak. Each call keeps the CLI's contract
(:func:`fuzzlib.check_contract`): exit 0, or exit 2 with one ``error:`` line."""

from __future__ import annotations

import json
import os
import sqlite3
import stat
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from fuzzlib import check_contract, run_cli

from qcards.errors import QcardsError
from qcards.execution.jobs import DONE, JobStore
from qcards.files import write_text

REPO = Path(__file__).resolve().parents[2]
FOUR = str(REPO / "qcards" / "specs" / "four-card.toml")
DATA = REPO / "tests" / "games" / "data"
QGO = str(DATA / "qgo_ranchin_6x6.txt")
BOOK = str(DATA / "book.txt")


def refused(argv, seconds: int = 60) -> str:
    """The one error line of a call that must be refused."""
    outcome = run_cli(argv, seconds)
    check_contract(outcome, "error")
    return outcome.err.strip()


def fifo(tmp_path: Path, name: str = "pipe") -> Path:
    path = tmp_path / name
    os.mkfifo(path)
    return path


def subprocess_env(**changes) -> dict:
    """This worktree's qcards in a child process."""
    env = {**os.environ, "PYTHONPATH": str(REPO), **changes}
    env.pop("PYTHONUNBUFFERED", None)  # as a user's shell has it: stdout is block-buffered
    return env


# -- 1. output paths that are devices, FIFOs or directories ----------------------------------


def test_a_fifo_as_an_output_path_is_refused_and_kept(tmp_path):
    out = fifo(tmp_path)
    line = refused(["qgo", "replay", QGO, "--sgf", str(out), "--json"], seconds=30)
    assert str(out) in line and "FIFO" in line
    assert stat.S_ISFIFO(os.stat(out).st_mode)  # still a FIFO, not replaced by a file
    argv = ["run", FOUR, "--backend", "sparse", "--shots", "10", "--plot", str(out), "--json"]
    line = refused(argv)
    assert str(out) in line and stat.S_ISFIFO(os.stat(out).st_mode)


def test_a_directory_as_an_output_path_is_refused_by_its_name(tmp_path):
    out = tmp_path / "figures"
    out.mkdir()
    line = refused(["qgo", "replay", QGO, "--sgf", str(out), "--json"])
    assert f"{out}: a directory, not a regular file" in line and ".partial" not in line
    assert out.is_dir() and list(out.iterdir()) == []


def test_the_atomic_write_replaces_only_regular_files(tmp_path):
    with pytest.raises(QcardsError, match="FIFO"):
        write_text(fifo(tmp_path), "x")
    target = tmp_path / "real.txt"
    target.write_text("old")
    link = tmp_path / "link.txt"
    link.symlink_to(target)
    write_text(link, "new")  # written through the link, which stays a link
    assert link.is_symlink() and target.read_text() == "new"
    assert not list(tmp_path.glob("*.partial"))


# -- 2. shot counts whose samples do not fit in memory -----------------------------------------


@pytest.mark.parametrize(
    "argv",
    [
        ["run", FOUR, "--backend", "aer", "--shots", "1000000000"],
        ["run", FOUR, "--backend", "aer", "--shots", "1000000000000"],
        ["run", FOUR, "--backend", "sparse", "--shots", "1000000000000"],
        ["count", FOUR, "--shots", "1000000000000"],
        ["count", FOUR, "--backend", "aer", "--shots", "1000000000000"],
        ["gofish", "count", BOOK, "--shots", "1000000000000"],
    ],
    ids=["run-aer-1e9", "run-aer-1e12", "run-sparse", "count", "count-aer", "gofish-count"],
)
def test_shots_beyond_the_memory_budget_are_refused_up_front(argv):
    line = refused(argv, seconds=30)
    assert "--shots" in line and "GiB (its samples" in line and "shots fit" in line


def test_reproduce_refuses_shots_beyond_the_memory_budget(tmp_path):
    argv = ["reproduce", "four-card", "--paper-only", "--shots", "1000000000000"]
    line = refused([*argv, "--out", str(tmp_path / "out")], seconds=60)
    assert "--shots" in line and "GiB (its samples" in line


# -- 3. long work in the other games: an estimate first ----------------------------------------


@pytest.mark.parametrize(
    ("argv", "flag"),
    [
        (["gofish", "tournament", "--games", "1000000000"], "--games"),
        (["gofish", "tournament", "--players", "8", "--bots", "search", "--depth", "4"], "--depth"),
        (["cats", "simulate", "--players", "4", "--rounds", "1000000000000"], "--rounds"),
    ],
    ids=["games", "search-depth", "cats-rounds"],
)
def test_game_work_past_the_time_budget_is_refused_at_once(argv, flag):
    line = refused(argv, seconds=30)
    assert flag in line and "--force" in line and "10 minutes" in line


def test_a_search_deeper_than_the_recursion_allows_is_refused():
    line = refused(["gofish", "tournament", "--depth", "1000", "--games", "1"])
    assert "--depth 1000" in line and "at most" in line
    from qcards.games.gofish.bots import SearchBot, max_depth
    from qcards.games.gofish.errors import RuleError

    with pytest.raises(RuleError, match="at most"):
        SearchBot(depth=max_depth() + 1)


def test_force_is_offered_and_small_work_runs():
    argv = ["gofish", "tournament", "--games", "1", "--bots", "random", "--force", "--json"]
    assert check_contract(run_cli(argv), "ok")["games"] == 1
    argv = ["cats", "simulate", "--players", "3", "--rounds", "20", "--force", "--json"]
    assert check_contract(run_cli(argv), "ok")["hands"] == 20


# -- 4. unbounded reads ------------------------------------------------------------------------


@pytest.mark.parametrize("weight", ['"1e100000000"', '"1e-400000"', "1" + "0" * 4000])
def test_a_weight_of_a_hundred_million_digits_is_refused_naming_the_field(tmp_path, weight):
    spec = Path(FOUR).read_text(encoding="utf-8")
    path = tmp_path / "huge-weight.toml"
    path.write_text(f"{spec}\n[prior.weight.B]\nCA = {weight}\n", encoding="utf-8")
    line = refused(["evaluate", str(path), "--method", "classical"], seconds=20)
    assert "prior.weight.B.CA" in line and ("exponent" in line or "digits" in line)


@pytest.mark.parametrize(
    "argv",
    [
        ["evaluate", "{fifo}"],
        ["run", "{fifo}", "--shots", "10"],
        ["gofish", "replay", "{fifo}"],
        ["gofish", "count", "{fifo}"],
        ["qgo", "replay", "{fifo}"],
        ["resources", "--cards-per-player", "2", "--prior", "{fifo}"],
    ],
    ids=["evaluate", "run", "gofish-replay", "gofish-count", "qgo-replay", "resources-prior"],
)
def test_a_fifo_as_an_input_file_is_refused_without_blocking(tmp_path, argv):
    path = str(fifo(tmp_path))
    line = refused([a.replace("{fifo}", path) for a in argv], seconds=15)
    assert path in line and "FIFO" in line


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="needs /dev/zero")
@pytest.mark.parametrize("command", [["evaluate"], ["gofish", "replay"], ["qgo", "replay"]])
def test_a_device_as_an_input_file_is_refused_before_reading(command):
    line = refused([*command, "/dev/zero"], seconds=15)
    assert "/dev/zero" in line and "character device" in line


def test_an_input_file_over_a_mebibyte_is_refused_naming_it(tmp_path):
    path = tmp_path / "big.toml"
    path.write_text(Path(FOUR).read_text() + "# padding\n" * 2**17, encoding="utf-8")
    line = refused(["evaluate", str(path)])
    assert str(path) in line and "over the limit" in line
    from qcards.errors import FileError
    from qcards.files import read_text

    with pytest.raises(FileError, match="over the limit"):
        read_text(path)


def test_a_fifo_among_the_old_job_files_does_not_block_the_store(offline_ibm):
    store = JobStore.default()
    store.legacy_dir.mkdir(parents=True)
    pipe = fifo(store.legacy_dir, "stuck.json")
    line = refused(["jobs", "list"], seconds=15)
    assert str(pipe) in line and "FIFO" in line


# -- 5. tracebacks -----------------------------------------------------------------------------


def test_a_plot_format_matplotlib_cannot_write_is_refused_before_the_run(tmp_path):
    out = tmp_path / "x.nosuchext"
    argv = ["run", FOUR, "--backend", "sparse", "--shots", "10", "--plot", str(out), "--json"]
    line = refused(argv)
    assert "--plot" in line and "png" in line and "svg" in line and "pgf" not in line
    assert not out.exists()
    line = refused(["cats", "simulate", "--players", "3", "--rounds", "5", "--plot", str(out)])
    assert "--plot" in line


def test_a_closed_stdout_is_one_error_line(monkeypatch, capsys):
    from qcards.cli import main

    monkeypatch.setattr(sys, "stdout", None)  # what Python sets when started with >&-
    code = main(["evaluate", FOUR, "--method", "classical"])
    assert sys.stdout is None
    monkeypatch.undo()
    captured = capsys.readouterr()
    assert code == 2 and captured.err.startswith("error: cannot write")
    assert captured.err.count("\n") == 1


@pytest.mark.parametrize("argv", [["run", FOUR, "--backend", "ibm:ibm_test"], ["jobs", "fetch"]])
def test_an_unreadable_ibm_instance_names_the_variable(offline_ibm, monkeypatch, argv):
    pytest.importorskip("qiskit_ibm_runtime")
    from jobstore_worker import record

    monkeypatch.setenv("QISKIT_IBM_TOKEN", "not-a-token")
    monkeypatch.setenv("QISKIT_IBM_INSTANCE", "crn:v1:bluemix")  # too few fields for a CRN
    if argv[0] == "jobs":
        JobStore.default().save(record("pending-1"))
        argv = [*argv, "pending-1"]
    line = refused(argv)
    assert "QISKIT_IBM_INSTANCE='crn:v1:bluemix'" in line


def hand_edit(store: JobStore, job_id: str, **changes) -> None:
    """Change fields of a stored record's JSON, as a hand edit of the database would."""
    with sqlite3.connect(store.file) as db:
        (text,) = db.execute("SELECT record FROM jobs WHERE job_id = ?", (job_id,)).fetchone()
        data = {**json.loads(text), **changes}
        db.execute("UPDATE jobs SET record = ? WHERE job_id = ?", (json.dumps(data), job_id))
    db.close()


@pytest.mark.parametrize(
    "changes",
    [
        {"status": DONE, "result": "p_win 0.5"},
        {"status": DONE, "result": {}},
        {"status": DONE, "transpiled": {"gates": "many"}},
        {"status": DONE, "transpiled": [3, 7, 5]},
        {"status": DONE, "result": {"counts": {}, "p_win": 0.5, "shots": 9, "ci": "wide"}},
        {"shots": "100"},
    ],
    ids=["string-result", "empty-result", "wrong-size", "size-list", "ci", "string-shots"],
)
def test_a_hand_edited_job_record_is_skipped_by_list_and_refused_by_fetch(offline_ibm, changes):
    from jobstore_worker import record

    store = JobStore.default()
    result = {"counts": {"A:CA": 1}, "p_win": 1.0, "shots": 1}
    store.save(record("good", status=DONE, result=result))
    store.save(record("edited", status=DONE, result=result))
    hand_edit(store, "edited", **changes)
    outcome = run_cli(["jobs", "list", "--json"])
    assert outcome.crash is None and outcome.code == 0, outcome.describe()
    assert [row["job_id"] for row in json.loads(outcome.out)] == ["good"]
    assert "job edited" in outcome.err and "unreadable" in outcome.err
    outcome = run_cli(["jobs", "list"])
    assert outcome.code == 0 and "good" in outcome.out and "job edited" in outcome.err
    line = refused(["jobs", "fetch", "edited"])
    assert "job edited" in line
    assert check_contract(run_cli(["jobs", "fetch", "good", "--json"]), "ok")["p_win"] == 1.0


# -- 6. stray output at exit --------------------------------------------------------------------


MAIN = "import sys; from qcards.cli import main; sys.exit(main())"
"""The ``qcards`` command, as its entry point runs it."""


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
@pytest.mark.parametrize("args", [["--json"], []], ids=["json", "table"])
def test_a_full_disk_on_stdout_is_one_error_line_and_status_2(args):
    with open("/dev/full", "w") as full:
        done = subprocess.run(
            [sys.executable, "-c", MAIN, "evaluate", FOUR, "--method", "classical", *args],
            stdout=full,
            stderr=subprocess.PIPE,
            text=True,
            env=subprocess_env(),
            timeout=120,
        )
    assert done.returncode == 2, done.stderr
    assert done.stderr == "error: cannot write: No space left on device\n"


INTERRUPTED_START = textwrap.dedent(
    """
    import os, signal, sys, threading
    from qcards.execution.sweeps import local_cluster

    def main():
        import distributed  # noqa: F401 (imported before the clock starts)
        threading.Timer(0.3, lambda: os.kill(os.getpid(), signal.SIGINT)).start()
        try:
            with local_cluster():
                print("started", file=sys.stderr)
        except KeyboardInterrupt:
            print("interrupted", file=sys.stderr)
            return 130
        return 0

    if __name__ == "__main__":
        sys.exit(main())
    """
)


def test_ctrl_c_while_a_local_dask_cluster_starts_leaves_no_traceback(tmp_path):
    pytest.importorskip("distributed")
    script = tmp_path / "interrupted_start.py"
    script.write_text(INTERRUPTED_START, encoding="utf-8")
    done = subprocess.run(
        [sys.executable, str(script)],
        capture_output=True,
        text=True,
        env=subprocess_env(),
        timeout=120,
    )
    if "started" in done.stderr:
        pytest.skip("the cluster started before the interrupt (a very fast machine)")
    assert done.returncode == 130
    assert done.stderr == "interrupted\n"


# -- 7. the sparse engine's memory estimate against its measured peak ---------------------------

PEAK = textwrap.dedent(
    """
    import json, sys
    sys.path.insert(0, sys.argv[1])
    from bench_scale import scale_spec
    from qcards.circuits.game import build_game
    from qcards.execution.sparse import engine as sparse
    from qcards.skat.rules.cards import Card

    def status(key):
        for line in open("/proc/self/status"):
            if line.startswith(key):
                return int(line.split()[1]) * 1024

    spec, first = scale_spec(int(sys.argv[2])), Card.parse(sys.argv[3])
    game = build_game(spec, first, construction=sys.argv[4])
    steps = sparse.compile_circuit(game.circuit)
    state = sparse.SparseState(game.num_qubits, max_rows=10**10)
    base = status("VmRSS")
    open("/proc/self/clear_refs", "w").write("5")  # VmHWM from here on
    state.run(steps)
    state.merge()
    peak = status("VmHWM") - base
    estimate = sparse.estimate_bytes(state.peak_rows, game.num_qubits, len(game.layout.cards))
    print(json.dumps({"rows": state.peak_rows, "peak": peak, "estimate": estimate}))
    """
)


@pytest.mark.skipif(not Path("/proc/self/clear_refs").exists(), reason="needs Linux /proc")
@pytest.mark.parametrize("construction", ["efficient", "paper"])
def test_the_sparse_engine_stays_within_its_memory_estimate(tmp_path, construction):
    """Fifteen cards, the declarer's first card fixed: 1.7 million rows, about 220 MiB. The
    allocator maps every array of 64 KiB or more on its own, so resident memory follows the
    arrays alive (glibc would otherwise keep freed heap pages resident)."""
    script = tmp_path / "peak.py"
    script.write_text(PEAK, encoding="utf-8")
    env = subprocess_env(MALLOC_MMAP_THRESHOLD_="65536")
    done = subprocess.run(
        [sys.executable, str(script), str(REPO / "benchmarks"), "5", "HA", construction],
        capture_output=True,
        text=True,
        env=env,
        timeout=600,
        check=True,
    )
    found = json.loads(done.stdout)
    assert found["rows"] > 10**6
    assert found["peak"] <= found["estimate"], found
