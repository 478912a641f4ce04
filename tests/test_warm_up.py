"""``qcards warm-up`` (:mod:`qcards.analysis.warm_up`): every solver's workload runs and touches
compiled functions, compiled or loaded from numba's cache, and the command reports them."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from qcards.analysis.warm_up import WORKLOADS, warm_up
from qcards.cli import main

CLI = "import sys; from qcards.cli import main; sys.exit(main(sys.argv[1:]))"
"""The command line in a fresh interpreter (``python -c CLI ARGS``)."""


@pytest.mark.slow  # compiles every solver when the cache is cold (about a minute on 2 cores)
def test_warm_up_runs_every_solver_and_the_cli_reports_it(capsys):
    """In a fresh process (a test process may have run the solvers already, so that nothing
    is compiled or loaded during its warm-up) every workload compiles or loads compiled code;
    a second run finds everything in the cache."""
    names = [name for name, _ in WORKLOADS]
    for run in range(2):
        done = subprocess.run(
            [sys.executable, "-c", CLI, "warm-up", "--json"],
            capture_output=True, text=True, check=True, timeout=600,
        )  # fmt: skip
        steps = json.loads(done.stdout)["steps"]
        assert [s["name"] for s in steps] == names
        for s in steps:
            assert s["seconds"] >= 0 and s["compiled"] + s["loaded"] >= 1, s
            if run:
                assert s["compiled"] == 0, s  # the first run filled the cache
    in_process = warm_up()  # here the counts may be 0: the solvers may have run already
    assert [s.name for s in in_process] == names
    assert main(["warm-up"]) == 0
    out = capsys.readouterr().out
    assert "from the cache" in out and "s in all" in out


def test_a_compilation_shows_on_the_progress_display():
    """numba's ``numba:compile`` event puts the notice on the display (nested compilations
    once), and nothing shows without a display."""
    import io

    from numba.core import event

    from qcards.progress import display
    from qcards.skat.compiled.jit import COMPILING, NOTICE

    shown = io.StringIO()
    with display(True, stream=shown):
        with event.trigger_event("numba:compile"), event.trigger_event("numba:compile"):
            assert NOTICE.depth == 2 and NOTICE.shown is not None
    assert COMPILING.split(" (")[0] in shown.getvalue()
    assert NOTICE.depth == 0 and NOTICE.shown is None
    with event.trigger_event("numba:compile"):  # no display: a no-op
        pass
    assert NOTICE.shown is None
