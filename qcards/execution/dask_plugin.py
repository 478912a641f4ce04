"""What every Dask worker of :func:`qcards.execution.sweeps.sweep` runs before its tasks.

Kept apart from :mod:`qcards.execution.sweeps` because importing :mod:`distributed` takes half a
second, which a run without Dask should not pay.
"""

from __future__ import annotations

import signal
import threading

from distributed import WorkerPlugin

from qcards.execution import aer


class AerSingleThread(WorkerPlugin):
    """Every Aer simulation in the worker's process uses one thread.

    Sets :data:`qcards.execution.aer.AER_MAX_THREADS` when the worker starts (or when the plugin is
    registered with a running one), so each task's Aer options carry ``max_parallel_threads=1``:
    the workers use the cores between them, and Aer's default of a thread per core in each
    worker would oversubscribe them.
    """

    def setup(self, worker) -> None:
        aer.AER_MAX_THREADS = 1


class CtrlCToTheClient(WorkerPlugin):
    """A worker of a local cluster ignores Ctrl-C from its start.

    A terminal sends Ctrl-C to every process of the command, the workers' too, and each worker
    process printed its event loop's ``KeyboardInterrupt`` traceback (about 30 lines a worker)
    beside the command's one line. The command that started the cluster takes the Ctrl-C and
    closes the cluster, which stops the workers. Given to the workers of
    :func:`~qcards.execution.sweeps.local_cluster` only: a remote cluster's workers may be
    stopped from their own terminal. A Ctrl-C while a worker process still imports its modules
    (its first seconds) reaches it before this plugin does.
    """

    def setup(self, worker) -> None:
        if threading.current_thread() is threading.main_thread():  # the worker process's loop
            signal.signal(signal.SIGINT, signal.SIG_IGN)
