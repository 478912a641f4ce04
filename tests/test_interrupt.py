"""Ctrl-C and crashes leave no partial file (issue 21): files appear atomically, and an
interrupted command stops with one line saying what it had written."""

from __future__ import annotations

import signal
import subprocess
import sys
import time

import pytest
from matplotlib.figure import Figure

from qcards.files import PARTIAL_SUFFIX, WRITTEN, atomic_path, save_figure, write_text

from conftest import breadth

HANG_GUARD = 120
"""Seconds after which the interrupted command counts as hung (a guard, not a timing)."""


def test_a_failed_write_leaves_the_old_file_and_no_temporary(tmp_path):
    target = tmp_path / "table.json"
    write_text(target, "old\n")
    with pytest.raises(KeyboardInterrupt), atomic_path(target) as temporary:
        temporary.write_text("half of the new")
        raise KeyboardInterrupt
    assert target.read_text() == "old\n"
    assert [p.name for p in tmp_path.iterdir()] == ["table.json"]


def test_written_files_are_complete_and_counted(tmp_path):
    before = len(WRITTEN)
    figure = Figure()
    figure.subplots().plot([0, 1], [1, 0])
    png = save_figure(figure, tmp_path / "sub" / "plot.png")
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and png.read_bytes().endswith(
        b"IEND\xaeB`\x82"
    )
    assert WRITTEN[before:] == [png]
    assert png.stat().st_mode & 0o044  # readable by others, unlike mkstemp's private mode


AS_FROM_A_TERMINAL = (
    "import signal\n"
    "signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})\n"
    "signal.signal(signal.SIGINT, signal.default_int_handler)\n"
)
"""The start of each interrupted child: Ctrl-C handled as a shell starts a command (SIGINT not
blocked, Python's handler). A child inherits an ignored SIGINT, and a suite started in the
background of a shell without job control (``.ci/run &``) has SIGINT ignored in every process:
found in CI, where both Ctrl-C tests then failed (the command ran to its end, or the child slept
on)."""


def test_ctrl_c_stops_reproduce_with_one_line_and_no_partial_file(tmp_path):
    out = tmp_path / "gallery"
    code = (
        AS_FROM_A_TERMINAL + "import sys; from qcards.cli import main; sys.exit(main(sys.argv[1:]))"
    )
    proc = subprocess.Popen(
        [sys.executable, "-c", code, "reproduce", "--out", str(out), "--shots", "200"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline and not any(out.glob("*.png")):
        time.sleep(0.2)  # interrupt once it has written its first figure
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=HANG_GUARD)
    assert proc.returncode == 130, err
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: interrupted (Ctrl-C): ")
    assert "nothing is left half-written" in lines[0]
    leftovers = [p for p in out.rglob("*") if p.name.endswith(PARTIAL_SUFFIX)]
    assert not leftovers
    for png in out.glob("*.png"):
        assert png.read_bytes().endswith(b"IEND\xaeB`\x82"), png  # complete files only


# -- native calls in a child process (qcards.execution.isolated) -----------------------------

CHILD_SLEEP = 300
"""What the interrupted call would take: the test fails if Ctrl-C waits for it."""


def test_ctrl_c_stops_an_isolated_native_call_and_its_child():
    code = AS_FROM_A_TERMINAL + (
        "import time\n"
        "from qcards.execution import isolated\n"
        "try:\n"
        "  with isolated.enabled():\n"
        f"    isolated.call(time.sleep, {CHILD_SLEEP}, expected_seconds=1e9)\n"
        "except KeyboardInterrupt:\n"
        "    import multiprocessing\n"
        "    print('interrupted', len(multiprocessing.active_children()), flush=True)\n"
    )
    proc = subprocess.Popen(
        [sys.executable, "-c", code], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    time.sleep(5)  # the child has started (spawned children import for about a second)
    started = time.monotonic()
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=HANG_GUARD)
    assert time.monotonic() - started < CHILD_SLEEP / 10, "Ctrl-C waited for the call"
    assert out.split() == ["interrupted", "0"], (out, err)  # no child left behind


def test_short_calls_run_in_process_and_long_ones_answer_from_a_child():
    import os

    from qcards.execution import isolated

    assert isolated.call(os.getpid, expected_seconds=1e9) == os.getpid()  # a library call
    with isolated.enabled():  # as the command line runs it
        assert isolated.call(os.getpid) == os.getpid()
        assert isolated.call(os.getpid, expected_seconds=1e9) != os.getpid()
        assert isolated.call(pow, 3, 4, expected_seconds=1e9) == 81


def test_a_child_that_fails_or_dies_is_a_clear_error():
    import os

    from qcards.errors import ResourceError
    from qcards.execution import isolated

    with pytest.raises(ZeroDivisionError), isolated.enabled():
        isolated.call(divmod, 1, 0, expected_seconds=1e9)
    with pytest.raises(ResourceError, match="exit code 3"), isolated.enabled():
        isolated.call(os._exit, 3, expected_seconds=1e9)


def test_evaluate_through_a_child_gives_the_referee_value(monkeypatch):
    from qcards.analysis.evaluate import evaluate
    from qcards.execution import isolated
    from qcards.paper.examples import SIX_CARD

    monkeypatch.setattr(isolated, "ISOLATE_AFTER", 0.0)  # every native call in a child
    monkeypatch.setattr(isolated, "_enabled", True)
    for method in ("statevector", "ddsim"):
        report = evaluate(SIX_CARD.spec(), method=method, construction="paper")
        assert abs(report.p_win - float(report.p_win_exact)) < 1e-9


def test_sampling_through_a_child_gives_the_same_seeded_counts(monkeypatch):
    from qcards.circuits.task import GameTask
    from qcards.execution import isolated
    from qcards.execution.run import run
    from qcards.paper.examples import FOUR_CARD

    task = GameTask(FOUR_CARD.spec(), None, "paper")
    here = run(task, "aer", shots=200, seed=7)
    monkeypatch.setattr(isolated, "ISOLATE_AFTER", 0.0)  # every Aer run in a child
    monkeypatch.setattr(isolated, "_enabled", True)
    there = run(task, "aer", shots=200, seed=7)
    assert there.counts == here.counts and there.p_win == here.p_win


def test_ctrl_c_during_the_child_start_stops_the_child():
    """A Ctrl-C that lands inside ``Process.start()`` is held back and raised where the child
    is stopped: none is left running (the one case a later Ctrl-C cannot reach)."""
    code = AS_FROM_A_TERMINAL + (
        "import os, multiprocessing, time\n"
        "from multiprocessing.context import SpawnProcess\n"
        "from qcards.execution import isolated\n"
        "start = SpawnProcess.start\n"
        "def start_then_ctrl_c(self):\n"
        "    start(self)\n"
        "    os.kill(os.getpid(), signal.SIGINT)\n"
        "SpawnProcess.start = start_then_ctrl_c\n"
        "try:\n"
        "  with isolated.enabled():\n"
        f"    isolated.call(time.sleep, {CHILD_SLEEP}, expected_seconds=1e9)\n"
        "except KeyboardInterrupt:\n"
        "    print('interrupted', len(multiprocessing.active_children()), flush=True)\n"
    )
    proc = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=HANG_GUARD
    )
    assert proc.stdout.split() == ["interrupted", "0"], (proc.stdout, proc.stderr)


SMALL_SPEC = """players = ["A", "B", "C"]
trump = "clubs"
leader = "A"
declarer_points = 0
target = 1
[hands]
A = ["CA"]
[unknown]
cards = ["SQ", "H10"]
sizes = { B = 1, C = 1 }
"""


def test_ctrl_c_inside_qiskit_synthesis_is_still_an_interrupt(tmp_path):
    """Qiskit's HighLevelSynthesis turns any exception raised while it builds a gate's
    definition, KeyboardInterrupt included, into a TranspilerError; the command line still
    reports the Ctrl-C (exit 130, one line), not a traceback."""
    spec = tmp_path / "endgame.toml"
    spec.write_text(SMALL_SPEC)
    code = AS_FROM_A_TERMINAL + (
        "import os, sys, time\n"
        "from qcards.circuits.gates import states\n"
        "def interrupted_definition(self):\n"
        "    os.kill(os.getpid(), signal.SIGINT)\n"
        "    time.sleep(5)\n"
        "states.DealGate._define = interrupted_definition\n"
        "from qcards.cli import main\n"
        "sys.exit(main(sys.argv[1:]))\n"
    )
    argv = ["run", str(spec), "--construction", "paper", "--backend", "sparse", "--shots", "5"]
    proc = subprocess.run(
        [sys.executable, "-c", code, *argv], capture_output=True, text=True, timeout=HANG_GUARD
    )
    assert proc.returncode == 130, proc.stderr
    assert proc.stderr.startswith("error: interrupted (Ctrl-C): ") and proc.stderr.count("\n") == 1


def test_ctrl_c_while_the_commands_import_is_one_line(monkeypatch, capsys):
    """Issue 41: the parser (whose building imports every command's modules, qiskit among
    them, for seconds) is built inside the interrupt handler."""
    import qcards.cli as cli

    def interrupted(*_args, **_kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(cli, "build_parser", interrupted)
    assert cli.main(["evaluate", "qcards/specs/four-card.toml"]) == 130
    err = capsys.readouterr().err
    assert err.startswith("error: interrupted (Ctrl-C)") and "Traceback" not in err


def test_version_answers_without_importing_qiskit_scipy_or_numba():
    import subprocess
    import sys

    code = (
        "import sys; from qcards.cli import main; assert main(['--version']) == 0; "
        "heavy = [m for m in sys.modules if m.split('.')[0] in ('qiskit', 'scipy', 'numba')]; "
        "assert not heavy, sorted(heavy)[:3]"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.startswith("qcards ")


def test_a_classical_evaluation_does_not_import_the_estimation_stack():
    """Issue 41: ``evaluate --method classical`` builds only its own command's parser and
    never loads Qiskit (the construction records and the circuit's width are read without it),
    qiskit-algorithms (with scipy.stats), Aer, the IBM runtime or Dask: they are imported when
    a circuit is built or runs. Nor numba: a tiny endgame is answered by the plain referee
    (:mod:`qcards.skat.solvers.evaluation`) before the compiled one could load."""
    import subprocess
    import sys

    code = (
        "import sys; from qcards.cli import main; "
        "assert main(['evaluate', 'qcards/specs/four-card.toml', '--method', 'classical']) == 0; "
        "heavy = [m for m in ('qiskit', 'qiskit_algorithms', 'qiskit_aer', "
        "'qiskit_ibm_runtime', 'dask', 'scipy.stats', 'numba') if m in sys.modules]; "
        "assert not heavy, heavy"
    )
    subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)


INTERRUPT_AT_FIRST_HEAVY_IMPORT = AS_FROM_A_TERMINAL + (
    "import importlib.abc, os, sys\n"
    "HEAVY = ('qiskit', 'numba', 'scipy', 'matplotlib', 'dask', 'pyspiel', 'rich')\n"
    "class CtrlC(importlib.abc.MetaPathFinder):\n"
    "    def find_spec(self, name, path=None, target=None):\n"
    "        if name.split('.')[0] in HEAVY:\n"
    "            sys.meta_path.remove(self)\n"
    "            os.kill(os.getpid(), signal.SIGINT)\n"
    "        return None\n"
    "from qcards.cli import main\n"
    "sys.meta_path.insert(0, CtrlC())\n"
    "sys.exit(main(sys.argv[1:]))\n"
)
"""A child that presses Ctrl-C on itself the moment the command first imports a heavy library:
the import phase, made deterministic (a timer would land before or after it on a loaded
machine)."""


def _commands_with_an_import_phase() -> list[str]:
    from qcards.cli import COMMANDS, LIGHT

    return [c for c in COMMANDS if c not in LIGHT]


PARSER_IMPORTS_NOTHING_HEAVY = (
    "evaluate",
    "fit",
    "match",
    "train",
    "train-bidder",
    "cats",
    "qgo",
    "warm-up",
)
"""Commands whose parser imports no heavy library (their libraries load once the work starts,
where :func:`test_ctrl_c_during_any_commands_work_is_one_line` interrupts them): ``--help``
answers without an import phase to interrupt."""


@pytest.mark.parametrize(
    "command", breadth(_commands_with_an_import_phase(), {"evaluate", "count"})
)
def test_ctrl_c_in_any_commands_import_phase_is_one_line(command, tmp_path):
    """Issue 41, item 2: Ctrl-C while a command imports its libraries (the first second)
    prints one line and exits 130, for every command that imports more than the CLI's own
    modules; nothing is written (the command has not started)."""
    proc = subprocess.run(
        [sys.executable, "-c", INTERRUPT_AT_FIRST_HEAVY_IMPORT, command, "--help"],
        capture_output=True, text=True, timeout=HANG_GUARD, cwd=tmp_path,
    )  # fmt: skip
    if command in PARSER_IMPORTS_NOTHING_HEAVY:  # no import phase before its work starts
        assert proc.returncode == 0 and proc.stdout.startswith("usage:"), proc.stderr[-600:]
        return
    assert proc.returncode == 130, (proc.returncode, proc.stdout[-300:], proc.stderr[-600:])
    assert proc.stderr.startswith("error: interrupted (Ctrl-C)"), proc.stderr
    assert proc.stderr.count("\n") == 1 and "Traceback" not in proc.stderr
    assert proc.stdout == "" and list(tmp_path.iterdir()) == []


INTERRUPT_DURING_WORK = AS_FROM_A_TERMINAL + (
    "import os, sys\n"
    "from qcards.cli import main\n"
    "CALLS = int(os.environ['QCARDS_TEST_CALLS'])\n"
    "state = {'armed': False, 'calls': 0}\n"
    "def profile(frame, event, arg):\n"
    "    if event != 'call':\n"
    "        return\n"
    "    module = frame.f_globals.get('__name__', '')\n"
    "    if not state['armed']:\n"
    "        # the command's own function (set_defaults(run=...)) starts the work\n"
    "        name = frame.f_code.co_name\n"
    "        state['armed'] = module.startswith('qcards.cli.') and name.startswith('run')\n"
    "        return\n"
    "    if module.startswith('qcards.') and not module.startswith('qcards.cli'):\n"
    "        state['calls'] += 1\n"
    "        if state['calls'] == CALLS:\n"
    "            sys.setprofile(None)\n"
    "            os.kill(os.getpid(), signal.SIGINT)\n"
    "sys.setprofile(profile)\n"
    "sys.exit(main(sys.argv[1:]))\n"
)
"""A child that presses Ctrl-C on itself in the middle of its command's work: at the
``QCARDS_TEST_CALLS``-th call into the library after the command's own function started
(deterministic, where a timer would land anywhere on a loaded machine)."""

SPECS = "qcards/specs"
"""Paths from the repository root, where these children run."""

LONG_COMMANDS = {
    "reproduce": ["reproduce", "--paper-only", "--out", "{tmp}/out"],
    "evaluate": ["evaluate", f"{SPECS}/six-card.toml"],
    "recommend": ["recommend", f"{SPECS}/six-card.toml"],
    "declare": ["declare", f"{SPECS}/six-card.toml"],
    "bid": ["bid", "tests/specs/bid-small.toml"],
    "fit": ["fit", f"{SPECS}/four-card.toml", "--rounds", "1"],
    "match": ["match", "--deals", "2", "--records", "{tmp}/records"],
    "count": ["count", f"{SPECS}/four-card.toml", "--seed", "1"],
    "run": ["run", f"{SPECS}/four-card.toml", "--seed", "1", "--plot", "{tmp}/four.png"],
    "resources": ["resources", "--cards-per-player", "2"],
    "tables": ["tables"],
    "export": ["export", f"{SPECS}/four-card.toml", "--out", "{tmp}/export"],
    "gofish": ["gofish", "tournament", "--games", "4", "--seed", "1"],
    "cats": ["cats", "simulate", "--players", "3", "--rounds", "200", "--seed", "1"],
    "qgo": ["qgo", "replay", "tests/games/data/qgo_ranchin_6x6.txt"],
    "warm-up": ["warm-up"],
    "train": ["train", "--games", "2", "--worlds", "1", "--epochs", "2", "--out", "{tmp}/m.npz"],
    "train-bidder": ["train-bidder", "--games", "30", "--epochs", "2", "--out", "{tmp}/h.npz"],
}
"""Every command that works longer than a moment, with small inputs (Ctrl-C lands early)."""


def test_every_long_command_is_interrupted_during_its_work():
    from qcards.cli import COMMANDS

    assert set(LONG_COMMANDS) == set(COMMANDS) - {"score", "jobs"}  # the two quick ones


@pytest.mark.parametrize(
    "command", breadth(sorted(LONG_COMMANDS), {"reproduce", "evaluate", "match"})
)
def test_ctrl_c_during_any_commands_work_is_one_line(command, tmp_path):
    """Issue 41, item 2: Ctrl-C in the middle of a long command's work prints one line and
    exits 130, with no traceback and no partial file, for every long command."""
    import os
    from pathlib import Path

    repo = Path(__file__).resolve().parents[1]
    argv = [a.replace("{tmp}", str(tmp_path)) for a in LONG_COMMANDS[command]]
    env = {**os.environ, "QCARDS_TEST_CALLS": "50"}
    proc = subprocess.run(
        [sys.executable, "-c", INTERRUPT_DURING_WORK, *argv],
        capture_output=True, text=True, timeout=HANG_GUARD, cwd=repo, env=env,
    )  # fmt: skip
    assert proc.returncode == 130, (proc.returncode, proc.stdout[-300:], proc.stderr[-600:])
    assert proc.stderr.startswith("error: interrupted (Ctrl-C)"), proc.stderr
    assert proc.stderr.count("\n") == 1 and "Traceback" not in proc.stderr, proc.stderr
    leftovers = [p for p in tmp_path.rglob("*") if p.name.endswith(PARTIAL_SUFFIX)]
    assert not leftovers, leftovers


def _workers(parent: int) -> list[int]:
    """The Dask worker processes the process ``parent`` spawned (``/proc``: Linux)."""
    from pathlib import Path

    found = []
    for proc in Path("/proc").iterdir():
        try:
            ppid = int((proc / "stat").read_text().rsplit(")", 1)[1].split()[1])
            if ppid == parent and b"spawn_main" in (proc / "cmdline").read_bytes():
                found.append(int(proc.name))
        except (OSError, ValueError, IndexError):
            continue
    return found


def _solving(pid: int) -> bool:
    """Whether a worker process has loaded the compiled solver: it runs a match's deal."""
    try:
        return "numba" in open(f"/proc/{pid}/maps").read()
    except OSError:
        return False


SETTLE = 3.0
"""Seconds to wait once the workers have loaded the solver."""


@pytest.mark.slow
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="finds the workers in /proc")
def test_ctrl_c_of_a_match_on_a_local_dask_cluster_is_one_line():
    """Issue 53, item 7: a terminal's Ctrl-C reaches the command's whole process group, the
    local Dask workers too, and each worker printed its event loop's ``KeyboardInterrupt``
    traceback (63 lines). Interrupted once every worker is in a deal's work, with many deals
    still to cancel (20,000: the command takes a moment to close the cluster)."""
    import os

    code = (
        AS_FROM_A_TERMINAL + "import sys; from qcards.cli import main; sys.exit(main(sys.argv[1:]))"
    )
    proc = subprocess.Popen(
        [sys.executable, "-c", code, "match", "--deals", "20000", "--dask", "local", "--force"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True,
    )  # fmt: skip
    deadline = time.monotonic() + HANG_GUARD
    workers: list[int] = []
    while time.monotonic() < deadline and proc.poll() is None:
        workers = _workers(proc.pid)
        if workers and all(_solving(w) for w in workers):
            break
        time.sleep(0.2)
    assert workers, "no Dask worker started"
    time.sleep(SETTLE)  # into the deal's search, past the task's unpickling
    os.killpg(proc.pid, signal.SIGINT)  # as a terminal does: every process of the command
    _, err = proc.communicate(timeout=HANG_GUARD)
    assert proc.returncode == 130, err[-2000:]
    assert err.startswith("error: interrupted (Ctrl-C)") and err.count("\n") == 1, err[-2000:]
