"""What every Dask worker of :func:`qcards.execution.sweeps.sweep` runs before its tasks.

Kept apart from :mod:`qcards.execution.sweeps` because importing :mod:`distributed` takes half a
second, which a run without Dask should not pay.
"""

from __future__ import annotations

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
