"""Progress on long work (issue 18): shown on a terminal, silent when piped, with --json or
--quiet; and the help's examples and --version."""

from __future__ import annotations

import argparse
import io
import os
import pty
import shlex
import subprocess
import sys

import pytest

from qcards import progress
from qcards.cli import EXAMPLES, build_parser, main


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_library_code_is_silent_without_a_display(capsys):
    assert not progress.active()
    assert list(progress.track(range(3), "nothing shows")) == [0, 1, 2]
    with progress.step("nothing", 2) as task:
        task.advance()
        task.describe("still nothing")
    assert capsys.readouterr() == ("", "")


def test_a_display_draws_tracked_work_on_its_stream():
    stream = Terminal()
    with progress.display(True, stream):
        assert progress.active()
        assert list(progress.track(range(4), "counting cards")) == [0, 1, 2, 3]
    assert "counting cards" in stream.getvalue()
    assert not progress.active()


def test_output_on_the_same_terminal_clears_the_display_first(monkeypatch):
    """A result printed while a task shows erases the display (nothing frozen is left above
    it); the next task shows it again."""
    shown, screen = Terminal(), Terminal()
    monkeypatch.setattr(sys, "stdout", screen)
    with progress.display(True, shown):
        live = progress._PROGRESS.get().live
        with progress.step("first cards", 2) as task:
            task.advance()
            assert live.is_started
            print("card  p_win")
            assert not live.is_started
        with progress.step("second stage"):
            assert live.is_started
    assert sys.stdout is screen and screen.getvalue() == "card  p_win\n"


def test_the_cli_rule():
    assert progress.wanted(stream=Terminal())
    assert not progress.wanted(quiet=True, stream=Terminal())
    assert not progress.wanted(as_json=True, stream=Terminal())
    assert not progress.wanted(stream=io.StringIO())  # piped


def _on_a_pty(argv: list[str]) -> str:
    """Run ``qcards argv`` with stdout and stderr on a pseudo-terminal; everything it wrote."""
    leader, follower = pty.openpty()
    env = {**os.environ, "COLUMNS": "120", "TERM": "xterm"}
    code = "import sys; from qcards.cli import main; sys.exit(main(sys.argv[1:]))"
    proc = subprocess.Popen(
        [sys.executable, "-c", code, *argv], stdout=follower, stderr=follower, env=env
    )
    os.close(follower)
    chunks = []
    while True:
        try:
            data = os.read(leader, 4096)
        except OSError:  # the child closed the terminal
            break
        if not data:
            break
        chunks.append(data)
    proc.wait(timeout=600)
    os.close(leader)
    return b"".join(chunks).decode(errors="replace")


@pytest.mark.slow
def test_reproduce_shows_progress_on_a_terminal_and_never_in_json(tmp_path):
    out = str(tmp_path / "gallery")
    shown = _on_a_pty(["reproduce", "four-card", "--paper-only", "--out", out, "--shots", "50"])
    assert "reproduce: paper examples" in shown and "figures written" in shown
    quiet = _on_a_pty(["reproduce", "four-card", "--paper-only", "--out", out, "--quiet"])
    assert "reproduce: paper examples" not in quiet and "figures written" in quiet
    as_json = _on_a_pty(["reproduce", "four-card", "--paper-only", "--out", out, "--json"])
    assert "reproduce: paper examples" not in as_json and '"gallery"' in as_json


def test_piped_output_has_no_progress(capsys):
    assert main(["evaluate", "qcards/specs/four-card.toml", "--method", "classical"]) == 0
    captured = capsys.readouterr()
    assert captured.err == "" and "referee" not in captured.out


def test_version(capsys):
    """``--version`` alone is answered before any parser is built (status 0); with a
    command after it, argparse's own version action still answers."""
    assert main(["--version"]) == 0
    assert capsys.readouterr().out.startswith("qcards ")
    with pytest.raises(SystemExit) as done:
        main(["--version", "evaluate"])
    assert done.value.code == 0
    assert capsys.readouterr().out.startswith("qcards ")


HELP_IMPORTS = """
import contextlib, io, sys
from qcards.cli import main
from qcards.cli.commands import COMMANDS
out = io.StringIO()
with contextlib.redirect_stdout(out), contextlib.suppress(SystemExit):
    main(["--help"])
loaded = [c for c in COMMANDS if "qcards.cli." + c.replace("-", "_") in sys.modules]
print(max(len(line) for line in out.getvalue().splitlines()), "qiskit" in sys.modules, loaded)
"""


def test_top_level_help_imports_no_command():
    """``qcards --help`` lists every command from its summary alone: no command's module and
    no Qiskit are imported (so it answers as quickly as ``--version``), and its lines fit."""
    env = {**os.environ, "COLUMNS": "100"}
    done = subprocess.run(
        [sys.executable, "-c", HELP_IMPORTS], capture_output=True, text=True, env=env, check=True
    )
    width, qiskit, loaded = done.stdout.split(maxsplit=2)
    assert int(width) <= 100 and qiskit == "False" and loaded.strip() == "[]"


def test_top_level_help_lists_every_command(capsys):
    from qcards.cli.commands import COMMANDS, SUMMARIES

    with pytest.raises(SystemExit):
        main(["--help"])
    shown = "".join(capsys.readouterr().out.split())  # wrapped at any space or hyphen
    for command in COMMANDS:
        assert "".join(SUMMARIES[command].replace("%%", "%").split()) in shown


def test_every_option_has_help():
    """Every option of every command says what it does in ``--help``."""
    parser = build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    missing = []
    stack = list(sub.choices.items())
    while stack:
        name, command = stack.pop()
        for action in command._actions:
            if isinstance(action, argparse._SubParsersAction):
                stack += [(f"{name} {n}", p) for n, p in action.choices.items()]
            elif action.option_strings and not action.help:
                missing.append(f"{name} {action.option_strings[-1]}")
    assert missing == []


@pytest.mark.parametrize("name", sorted(EXAMPLES))
def test_every_help_example_parses(name):
    """The example at the end of each command's --help is a valid command line."""
    argv = shlex.split(EXAMPLES[name])
    assert argv[0] == "qcards"
    args = build_parser().parse_args(argv[1:])
    assert callable(args.run)


def test_help_ends_with_its_example(capsys):
    with pytest.raises(SystemExit):
        main(["count", "--help"])
    assert capsys.readouterr().out.rstrip().endswith(EXAMPLES["count"])


def test_a_local_samplers_thread_sees_the_display_and_the_limits():
    """qcards' own samplers run their pubs in a job's worker thread: the display (and the
    limits in force) reach it, so a noisy emulation's spinner shows while the job runs."""
    from qiskit import QuantumCircuit

    from qcards.execution.local_sampler import LocalSampler
    from qcards.plan.context import current_limits, limits

    seen = []

    class Probe(LocalSampler):
        default_shots = 1

        def _run_pub(self, pub):
            seen.append((progress.active(), current_limits().seconds))
            with progress.step("probe pub"):
                pass
            from qiskit.primitives import SamplerPubResult
            from qiskit.primitives.containers import DataBin

            return SamplerPubResult(DataBin())

    circuit = QuantumCircuit(1, 1)
    circuit.measure(0, 0)
    stream = Terminal()
    with progress.display(True, stream), limits(seconds=12.5):
        Probe().run([circuit]).result()
    assert seen == [(True, 12.5)] and "probe pub" in stream.getvalue()
