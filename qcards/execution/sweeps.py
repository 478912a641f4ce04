"""Independent tasks (one circuit evaluation each), run here or on a Dask cluster.

:func:`sweep` maps a picklable function over items. Without a scheduler it is a plain loop in
this process. With one, every item is a Dask task (``client.map``, then ``client.gather`` in the
items' order): ``"local"`` starts a :class:`distributed.LocalCluster` on this machine, one
single-threaded worker process per core; any other value is the address of a running scheduler.
Either way the results are those of the plain loop, and an exception raised inside a task is
raised again here, with its own type and message.

Each worker runs Aer single-threaded (:class:`qcards.execution.dask_plugin.AerSingleThread`): the
workers already use every core between them, and Aer's default of one thread per core in each
would oversubscribe them. Aer's own ``executor`` option does not distribute anything in
qiskit-aer 0.18, hence Dask.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Callable, Iterable
from contextlib import contextmanager, suppress
from typing import TypeVar

from qcards.errors import QcardsError
from qcards.execution.extras import require
from qcards.progress import step, track

CORES = max(1, len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else 1)
"""The cores this process may use: the threads of a local sweep of GIL-free work."""

T = TypeVar("T")
R = TypeVar("R")

LOCAL = "local"
"""The scheduler name that starts a local cluster instead of connecting to one."""

CONNECT_TIMEOUT = 5.0
"""Seconds to wait for a scheduler address to answer (Dask's own default is 30)."""


class SchedulerError(QcardsError):
    """A Dask scheduler that cannot be reached or used; names its address."""


def sweep(
    fn: Callable[[T], R],
    items: Iterable[T],
    scheduler: str | None = None,
    description: str = "tasks",
    threads: int = 1,
    on_result: Callable[[int, R], None] | None = None,
) -> list[R]:
    """``[fn(item) for item in items]``, here (``scheduler`` None) or as Dask tasks.

    ``on_result(index, result)``, when given, is called in this process as each item's result
    arrives (in the items' order here and on threads, as the tasks finish on Dask), so a caller
    can keep finished work before the sweep ends (a journal a later run resumes from).

    Here, ``threads`` > 1 runs the items on that many threads of this process (for work that
    releases the GIL, such as the sparse engine's compiled kernels); no process is started, so
    it works from any script, notebook or ``python -c``. The results and the error raised are
    still the loop's, in the items' order.

    A progress display (:mod:`qcards.progress`), if one shows, counts the finished items
    under ``description``.

    Args:
        fn: a picklable function (module-level, or a :func:`functools.partial` of one); on a
            remote cluster the workers must be able to import qcards.
        items: the independent inputs, each pickled to its task.
        scheduler: ``None`` (no Dask), ``"local"`` (a cluster on this machine, closed afterwards)
            or a scheduler address such as ``tcp://host:8786``.

    Raises:
        SchedulerError: the scheduler cannot be reached (after :data:`CONNECT_TIMEOUT` seconds).
        Exception: what ``fn`` raised for the first failing item, as the plain loop would (on
            Dask the other tasks run to their end first).
    """
    items = list(items)
    if scheduler is None:
        if threads > 1 and len(items) > 1:
            return _on_threads(fn, items, min(threads, len(items)), description, on_result)
        results = []
        for index, item in enumerate(track(items, description)):
            results.append(fn(item))
            if on_result is not None:
                on_result(index, results[-1])
        return results
    require("dask", "a sweep on a Dask scheduler")
    from distributed import as_completed, wait  # imports distributed (half a second)

    from qcards.execution.dask_plugin import AerSingleThread

    with dask_client(scheduler) as client:
        client.register_plugin(AerSingleThread(), name="qcards-aer-single-thread")
        # pure=False: equal items are separate runs (a sampler without a seed), as in the loop
        futures = client.map(fn, items, pure=False)
        number = {future.key: i for i, future in enumerate(futures)}
        with step(f"{description} on Dask", len(futures)) as task:
            for future in as_completed(futures):
                if on_result is not None and future.status == "finished":
                    on_result(number[future.key], future.result())
                task.advance()
        wait(futures)
        for future in futures:  # the loop's error: the first failing item's, not the soonest
            if future.status == "error":
                future.result()
        return client.gather(futures)


def _on_threads(
    fn: Callable[[T], R], items: list[T], threads: int, description: str,
    on_result: Callable[[int, R], None] | None = None,
) -> list[R]:  # fmt: skip
    """:func:`sweep` on ``threads`` threads: results taken in the items' order, so the first
    failing item's error is raised, as in the loop. On an error or Ctrl-C the items not started
    are cancelled and the running ones finish first (a thread cannot be stopped)."""
    from concurrent.futures import ThreadPoolExecutor

    pool = ThreadPoolExecutor(max_workers=threads, thread_name_prefix="qcards-sweep")
    try:
        futures = [pool.submit(fn, item) for item in items]
        results = []
        for index, future in enumerate(track(futures, description)):
            results.append(future.result())
            if on_result is not None:
                on_result(index, results[-1])
        return results
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


@contextmanager
def dask_client(scheduler: str):
    """A :class:`distributed.Client` of ``scheduler`` (``"local"``: a new local cluster)."""
    from distributed import Client

    if scheduler == LOCAL:
        with local_cluster() as cluster, Client(cluster) as client:
            yield client
        return
    try:
        client = Client(scheduler, timeout=CONNECT_TIMEOUT)
    except Exception as exc:  # OSError, ValueError, or a reply that is not Dask's protocol
        raise SchedulerError(f"cannot use the Dask scheduler at {scheduler!r}: {exc}") from None
    with client:
        yield client


def local_cluster(**overrides):
    """A :class:`distributed.LocalCluster`: one worker process per core, one thread each.

    The dashboard is off and the scheduler's HTTP routes take a free port (Dask's default, 8787,
    may be taken), and the workers log critical failures only, so a task's exception reaches
    the caller once, not also as the worker's "Compute Failed" report on stderr. The workers
    ignore Ctrl-C once started (:class:`~qcards.execution.dask_plugin.CtrlCToTheClient`): this
    process takes it and closes the cluster, which stops them, and no worker prints its own
    traceback.
    ``overrides`` go to the cluster as they are. Like every Dask nanny, the cluster sets
    ``OMP_NUM_THREADS=1`` in this process's environment too; Aer, already loaded here, keeps
    its threads.

    Dask also starts its workers with ``MALLOC_TRIM_THRESHOLD_=65536``, so that glibc hands
    freed memory back to the system at once; here it is unset (glibc's own adaptive threshold
    instead). The sparse engine's shards allocate and free arrays of megabytes at every gate,
    and with the trimming every fresh array is paid again in page faults: a large eighteen-card
    deal takes about one and a half times as long with it (measured by
    ``benchmarks/bench_sharded.py``; figures in ``benchmarks/results/sharded.md``).
    """
    import dask
    from dask.system import CPU_COUNT
    from distributed import LocalCluster

    from qcards.execution.dask_plugin import CtrlCToTheClient

    options = {
        "n_workers": CPU_COUNT,
        "threads_per_worker": 1,
        "processes": True,
        "dashboard_address": ":0",  # the scheduler's HTTP routes, on a free port
        "scheduler_kwargs": {"dashboard": False},
        "silence_logs": logging.CRITICAL,
        "plugins": (CtrlCToTheClient(),),  # each worker's, set up as it starts
        **overrides,
    }
    from distributed.deploy.spec import SpecCluster

    before = set(SpecCluster._instances)
    try:
        with dask.config.set({"distributed.nanny.pre-spawn-environ.MALLOC_TRIM_THRESHOLD_": None}):
            return LocalCluster(**options)
    except BaseException:  # Ctrl-C (or a failure) while the workers start
        for cluster in set(SpecCluster._instances) - before:
            _abandon(cluster)
        raise


def _abandon(cluster) -> None:
    """Stop a cluster whose start-up was interrupted, quietly: distributed's exit hook would
    close it again and print a traceback (its workers never left their initial state), and the
    workers' start-up tasks end in errors that nothing retrieves, which asyncio would print."""
    cluster.shutdown_on_close = False  # distributed's atexit hook skips it
    logging.getLogger("asyncio").addFilter(_unretrieved_start_failure)
    with suppress(Exception):
        cluster.close(timeout=ABANDON_TIMEOUT)


ABANDON_TIMEOUT = 5.0
"""Seconds to wait for an interrupted cluster's processes to stop."""


def _unretrieved_start_failure(record: logging.LogRecord) -> bool:
    """False (drop it) for asyncio's report of a worker's start-up task whose error nothing
    retrieved: the start-up was interrupted on purpose."""
    text = record.getMessage()
    return not ("Task exception was never retrieved" in text and "failed to start" in text)
