"""``qcards warm-up`` (:mod:`qcards.analysis.warm_up`): every solver's workload runs and touches
compiled functions, compiled or loaded from numba's cache, and the command reports them."""

from __future__ import annotations

import json

import pytest

from qcards.analysis.warm_up import WORKLOADS, warm_up
from qcards.cli import main


@pytest.mark.slow  # compiles every solver when the cache is cold (about a minute on 2 cores)
def test_warm_up_runs_every_solver_and_the_cli_reports_it(capsys):
    steps = warm_up()
    assert [s.name for s in steps] == [name for name, _ in WORKLOADS]
    for s in steps:
        assert s.seconds >= 0 and s.compiled >= 0 and s.loaded >= 0
        assert s.compiled + s.loaded >= 1, s  # each workload runs compiled code
    assert main(["warm-up", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert [s["name"] for s in data["steps"]] == [name for name, _ in WORKLOADS]
    assert all(s["compiled"] == 0 for s in data["steps"])  # the first call filled the cache
    assert main(["warm-up"]) == 0
    out = capsys.readouterr().out
    assert "from the cache" in out and "s in all" in out


def test_a_compilation_shows_on_the_progress_display():
    """numba's ``numba:compile`` event puts the notice on the display (nested compilations
    once), and nothing shows without a display."""
    import io

    from numba.core import event

    from qcards.progress import display
    from qcards.skat.jit import COMPILING, NOTICE

    shown = io.StringIO()
    with display(True, stream=shown):
        with event.trigger_event("numba:compile"), event.trigger_event("numba:compile"):
            assert NOTICE.depth == 2 and NOTICE.shown is not None
    assert COMPILING.split(" (")[0] in shown.getvalue()
    assert NOTICE.depth == 0 and NOTICE.shown is None
    with event.trigger_event("numba:compile"):  # no display: a no-op
        pass
    assert NOTICE.shown is None
