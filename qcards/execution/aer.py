"""Aer's options as qcards sets them: the simulation method and the threads each run may use."""

from __future__ import annotations

from qiskit import transpile
from qiskit_aer import AerSimulator

from qcards.errors import ResourceError

AER_MAX_THREADS: int | None = None
"""Threads each Aer simulation of this process may use (``None``: Aer's default, every core).
:mod:`qcards.execution.sweeps` sets 1 on its Dask workers, which run side by side and would
otherwise each start a thread per core."""


def aer_thread_options() -> dict:
    """``max_parallel_threads`` for Aer when :data:`AER_MAX_THREADS` is set, else nothing."""
    return {} if AER_MAX_THREADS is None else {"max_parallel_threads": AER_MAX_THREADS}


def backend_options(aer_method: str) -> dict:
    """Aer options for one of Aer's methods (``statevector``, ``matrix_product_state``,
    ``automatic``), with :func:`aer_thread_options`."""
    options: dict = {"method": aer_method, **aer_thread_options()}
    if aer_method == "matrix_product_state":
        # Aer's up-front memory estimate for MPS assumes worst-case entanglement and refuses
        # even the 39-qubit six-card circuit (it asks for 3e8 MB). A game state is a sum of at
        # most (number of play paths) orthogonal basis states, so its bond dimension is bounded
        # by that count and the real footprint is megabytes; the estimate is switched off.
        options["max_memory_mb"] = 2**62
    return options


def simulator(aer_method: str, seed: int | None = None) -> AerSimulator:
    return AerSimulator(seed_simulator=seed, **backend_options(aer_method))


def run_once(sim: AerSimulator, circuit):
    """One shot of ``circuit`` on ``sim`` (for its saved data); a failed run is refused.

    Lowered at optimisation level 1: the simulator has no coupling map, so level 2's extra
    passes only cost time (1.5 s against 0.2 s on a 21-qubit three-player circuit, with the
    same 550 instructions and the same simulation time).
    """
    result = sim.run(transpile(circuit, sim, optimization_level=1), shots=1).result()
    if not result.success:
        raise ResourceError(f"the simulator failed: {result.status}")
    return result


def saved_data(method: str, circuit) -> dict:
    """The data ``circuit`` saves in one run on Aer's ``method`` simulator (module level, so
    :func:`qcards.execution.isolated.call` can run it in a child process)."""
    return dict(run_once(simulator(method), circuit).data(0))
