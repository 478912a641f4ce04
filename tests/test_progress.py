"""Progress on long work (issue 18): shown on a terminal, silent when piped, with --json or
--quiet; and the help's examples and --version."""

from __future__ import annotations

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
