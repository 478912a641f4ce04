"""Sweeps: the same results here and on a Dask cluster, Aer single-threaded on the workers.

One local cluster serves the whole module (starting one takes seconds). Its workers are spawned
with ``OMP_NUM_THREADS`` set to every core, not the ``1`` that Dask's nanny sets by default (nor
the ``1`` the test session sets under pytest-xdist, which they would inherit), so that the single
Aer thread seen inside a task is the work of
:class:`qcards.execution.dask_plugin.AerSingleThread` alone.
"""

from __future__ import annotations

import importlib
import json
import os
from pathlib import Path

import dask
import distributed
import pytest
from qiskit import QuantumCircuit

from qcards.analysis.evaluate import evaluate_specs, recommend
from qcards.cli import main
from qcards.errors import ModelError, ResourceError
from qcards.execution import aer, sweeps
from qcards.paper.examples import FOUR_CARD, SIX_CARD

# Not ``from conftest import REPO``: the Dask workers import this module, and on a worker the
# name ``conftest`` can resolve to the repository's root conftest instead of tests/conftest.py.
REPO = Path(__file__).resolve().parents[1]

SIX = str(REPO / "qcards" / "specs" / "six-card.toml")
FOUR = str(REPO / "qcards" / "specs" / "four-card.toml")


@pytest.fixture(scope="module")
def scheduler():
    """The address of a two-worker local cluster, shared by the module's tests.

    The workers import this module (so qcards and Qiskit) before the first test runs, which then
    takes the time of its own work only.
    """
    environ = dask.config.get("distributed.nanny.pre-spawn-environ")
    every_core = {**environ, "OMP_NUM_THREADS": str(sweeps.CORES)}
    with dask.config.set({"distributed.nanny.pre-spawn-environ": every_core}):
        cluster = sweeps.local_cluster(n_workers=2)
    with cluster, distributed.Client(cluster) as client:
        client.run(importlib.import_module, __name__)
        yield cluster.scheduler_address


def square_or_fail(x: int) -> int:
    if x in (3, 5):
        raise ModelError(f"no square of {x} today")
    return x * x


def aer_threads(_) -> tuple[int | None, dict, int]:
    """What a task sees: the module default, the Aer options, and Aer's own report."""
    qc = QuantumCircuit(16)  # above Aer's 14-qubit threshold for parallel state updates
    qc.h(range(16))
    qc.save_probabilities_dict([0, 1])
    result = aer.run_once(aer.simulator("statevector"), qc)
    metadata = result.results[0].metadata
    return (
        aer.AER_MAX_THREADS,
        aer.backend_options("matrix_product_state"),
        metadata["parallel_state_update"],
    )


def test_local_sweep_is_a_plain_loop():
    assert sweeps.sweep(square_or_fail, [2, 1, 4]) == [4, 1, 16]
    assert sweeps.sweep(square_or_fail, []) == []
    with pytest.raises(ModelError, match="no square of 3"):
        sweeps.sweep(square_or_fail, [1, 3])


def test_dask_sweep_keeps_order(scheduler):
    items = [4, 1, 6, 2, 0, 7]
    assert sweeps.sweep(square_or_fail, items, scheduler) == [x * x for x in items]


@pytest.mark.parametrize("where", ["here", "threads", "dask"])
def test_each_result_is_handed_over_as_it_arrives(where, request):
    items = [4, 1, 6, 2]
    seen: dict[int, int] = {}
    options = {"threads": 2} if where == "threads" else {}
    scheduler = request.getfixturevalue("scheduler") if where == "dask" else None
    results = sweeps.sweep(square_or_fail, items, scheduler, on_result=seen.__setitem__,
                           **options)  # fmt: skip
    assert seen == dict(enumerate(results)) and results == [x * x for x in items]


def test_task_error_is_the_local_error(scheduler):
    with pytest.raises(ModelError) as local:
        sweeps.sweep(square_or_fail, [1, 3, 2])
    with pytest.raises(ModelError) as remote:
        sweeps.sweep(square_or_fail, [1, 3, 2], scheduler)
    assert str(remote.value) == str(local.value)
    # several failures: the first item's, whichever task fails first
    for items, first in [([5, 3], 5), ([1, 3, 2, 5], 3)]:
        with pytest.raises(ModelError, match=f"no square of {first} "):
            sweeps.sweep(square_or_fail, items, scheduler)
    # a qcards error raised deep inside an evaluation: the six-card circuit is too wide
    with pytest.raises(ResourceError) as local:
        evaluate_specs([SIX_CARD.spec()], method="statevector")
    with pytest.raises(ResourceError) as remote:
        evaluate_specs([SIX_CARD.spec()], method="statevector", scheduler=scheduler)
    assert str(remote.value) == str(local.value)


def test_aer_single_threaded_on_workers(scheduler):
    assert aer.AER_MAX_THREADS is None  # this process keeps Aer's default
    for default, options, threads in sweeps.sweep(aer_threads, range(2), scheduler):
        assert default == 1
        assert options["max_parallel_threads"] == 1
        assert threads == 1


def test_threads_give_the_loops_results_and_its_first_error():
    assert sweeps.sweep(square_or_fail, [1, 2, 4, 6], threads=2) == [1, 4, 16, 36]
    with pytest.raises(ModelError, match="no square of 3"):
        sweeps.sweep(square_or_fail, range(8), threads=3)


def trim_threshold(_) -> str | None:
    """What a worker's glibc was told about trimming freed memory."""
    return os.environ.get("MALLOC_TRIM_THRESHOLD_")


def test_workers_keep_glibcs_adaptive_trimming(scheduler):
    """Dask's default (65536) made every fresh array of the sparse engine's shards cost page
    faults again (the eighteen-card shards about 1.5x slower); qcards' clusters unset it."""
    assert dask.config.get("distributed.nanny.pre-spawn-environ")["MALLOC_TRIM_THRESHOLD_"]
    assert sweeps.sweep(trim_threshold, range(2), scheduler) == [None, None]


def test_recommend_exact_equals_local(scheduler):
    spec = SIX_CARD.spec()
    for model, method in [("random", "ddsim"), ("adversarial", "classical")]:
        local = recommend(spec, model, method)
        remote = recommend(spec, model, method, scheduler=scheduler)
        assert remote == local  # same cards, order, floats and Fractions


def test_evaluate_several_specs_equals_local(scheduler):
    specs = [FOUR_CARD.spec(), SIX_CARD.spec()]
    local = evaluate_specs(specs, method="ddsim")
    assert evaluate_specs(specs, method="ddsim", scheduler=scheduler) == local
    assert [str(r.p_win_exact) for r in local] == ["5/12", "2/3"]


@pytest.mark.slow
def test_recommend_seeded_aer_equals_local(scheduler):
    spec = SIX_CARD.spec()
    local = recommend(spec, method="aer", seed=11, construction="paper")
    remote = recommend(spec, method="aer", seed=11, construction="paper", scheduler=scheduler)
    assert remote == local
    assert all(r.method == "aer" and r.p_win != r.p_win_exact for _, r in local)


def test_cli_recommend_through_scheduler(capsys, scheduler):
    argv = ["recommend", SIX, "--model", "adversarial", "--json"]
    assert main(argv) == 0
    local = json.loads(capsys.readouterr().out)
    assert main([*argv, "--dask", scheduler]) == 0
    assert json.loads(capsys.readouterr().out) == local


@pytest.mark.slow
def test_cli_task_error_is_one_line(capfd):
    """The workers of ``--dask local`` share this process's stderr: only the error line."""
    assert main(["evaluate", SIX, "--method", "statevector", "--dask", "local"]) == 2
    captured = capfd.readouterr()
    assert captured.err.splitlines() == [
        "error: the circuit needs 34 qubits; the statevector method holds at most 28 "
        "(use --method classical, or a smaller spec)"
    ]


@pytest.mark.slow
def test_cli_evaluate_dask_local(capsys):
    """``--dask local`` starts (and closes) a cluster of its own."""
    argv = ["evaluate", FOUR, SIX, "--method", "ddsim", "--json"]
    assert main(argv) == 0
    local = json.loads(capsys.readouterr().out)
    assert main([*argv, "--dask", "local"]) == 0
    assert json.loads(capsys.readouterr().out) == local
    assert [r["spec"] for r in local] == [FOUR, SIX]


@pytest.mark.parametrize("address", ["tcp://127.0.0.1:1", "no-port-here"])
def test_cli_bad_scheduler_address(capsys, monkeypatch, address):
    monkeypatch.setattr(sweeps, "CONNECT_TIMEOUT", 1.0)
    assert main(["recommend", SIX, "--dask", address]) == 2
    captured = capsys.readouterr()
    lines = captured.err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), captured.err
    assert f"Dask scheduler at {address!r}" in lines[0]
    assert captured.out == ""
