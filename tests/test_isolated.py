"""Library calls never start a child process that cannot start: an unguarded script, a notebook
and ``python -c`` run long simulations in-process; only the command line isolates them."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from qcards.execution import isolated

from conftest import breadth

SIX_CARD = Path(__file__).parents[1] / "qcards" / "specs" / "six-card.toml"

HANG_GUARD = 300
"""Seconds after which the script counts as hung (a guard, not a timing)."""

UNGUARDED = """\
SPEC = {spec!r}
from qcards import Card, build_game, load_spec
from qcards.execution.exact import exact_stage_probabilities

spec = load_spec(SPEC)
game = build_game(spec, Card.parse("CA"), construction="paper")
probs = exact_stage_probabilities(game)
print("stages", len(probs))
"""

EVERY_CALL_LONG = """\
from qcards.execution import isolated
isolated.ISOLATE_AFTER = -1.0
"""
"""Prepended to a script: every call counts as long enough to isolate, whatever the cost
estimates say (so the tests below do not rest on one estimate staying above the threshold)."""

COMMAND_LINE_ON = """\
import contextlib
with isolated.enabled() if {on} else contextlib.nullcontext():
"""


def test_an_unguarded_script_runs_a_long_simulation_in_process(tmp_path):
    """The four-line script of the outside check: it used to print, then hang on a spawned
    child that re-ran the script (the paper construction's six-card statevector run is
    estimated above the isolation threshold)."""
    _assert_runs_in_process(tmp_path, UNGUARDED)


def _assert_runs_in_process(tmp_path: Path, text: str) -> None:
    script = tmp_path / "script.py"
    script.write_text(text.replace("{spec!r}", repr(str(SIX_CARD))))
    proc = subprocess.run(
        [sys.executable, str(script)], capture_output=True, text=True, timeout=HANG_GUARD
    )
    assert proc.returncode == 0, proc.stderr
    word, count = proc.stdout.split()
    assert word == "stages" and int(count) > 0
    assert "bootstrapping phase" not in proc.stderr


@pytest.mark.parametrize(
    "command_line", breadth([False, True], [False]), ids=["library", "isolation-enabled"]
)
def test_an_unguarded_script_never_spawns_whatever_the_estimate(tmp_path, command_line):
    """Every call counted as long: a library call still runs in-process (isolation is the
    command line's), and even with isolation switched on, an unguarded ``__main__`` is not
    respawned (the child would run the script again)."""
    body = textwrap.indent(UNGUARDED.split("\n", 1)[1], "    ")
    text = "SPEC = {spec!r}\n" + EVERY_CALL_LONG + COMMAND_LINE_ON.format(on=command_line) + body
    _assert_runs_in_process(tmp_path, text)


def test_isolation_is_off_outside_the_command_line(monkeypatch):
    monkeypatch.delattr(sys.modules["__main__"], "__file__", raising=False)  # as python -c
    assert not isolated.can_isolate()
    with isolated.enabled():
        assert isolated.can_isolate()
    assert not isolated.can_isolate()


def test_only_a_guarded_script_counts_as_safe_to_respawn(tmp_path):
    guarded = tmp_path / "guarded.py"
    guarded.write_text(
        textwrap.dedent(
            '''\
            """A script."""
            import sys
            LIMIT = 3
            def main():
                return 0
            if __name__ == "__main__":
                sys.exit(main())
            '''
        )
    )
    unguarded = tmp_path / "unguarded.py"
    unguarded.write_text(UNGUARDED)
    broken = tmp_path / "broken.py"
    broken.write_text("def (:\n")
    assert isolated._guarded(str(guarded))
    assert not isolated._guarded(str(unguarded))
    assert not isolated._guarded(str(broken))
    assert not isolated._guarded(str(tmp_path / "missing.py"))
