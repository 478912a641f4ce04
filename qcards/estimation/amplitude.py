"""Amplitude estimation of any state preparation, game-agnostic (Skat, Go Fish, ...).

The algorithm (how) is a record of :mod:`qcards.estimation.algorithms`, named by
:attr:`EstimationOptions.algorithm <qcards.estimation.options.EstimationOptions.algorithm>`
(``canonical``: phase estimation, the paper's quantum counting, Eq. 19; ``iae``, ``mlae``:
iterative and maximum-likelihood amplitude estimation; or a plugin's). The primitive (where) is
any ``BaseSamplerV2``; on qcards' sparse engine the Grover powers are applied to a kept state
instead of built.
"""

from __future__ import annotations

from qiskit.primitives import BaseSamplerV2
from qiskit_algorithms import EstimationProblem

from qcards.estimation.algorithms import AmplitudeEstimate
from qcards.estimation.options import EstimationOptions
from qcards.execution.sparse.sampler import SparseSampler
from qcards.progress import active, step


def estimate_amplitude(
    problem: EstimationProblem, options: EstimationOptions, sampler: BaseSamplerV2
) -> AmplitudeEstimate:
    """Run the estimator ``options.algorithm`` names on ``problem`` (any game: Skat, Go Fish,
    ...).

    ``canonical`` is phase estimation with ``eval_qubits`` evaluation qubits (Eq. 19); ``iae``
    aims at an interval of half-width ``epsilon``; ``mlae`` takes a doubling schedule of Grover
    powers up to about :math:`\\pi/(4\\epsilon)`. ``alpha`` is 1 - confidence level. The
    options' sampler fields are not used here: ``sampler`` runs the circuits. A progress
    display (:mod:`qcards.progress`), if one shows, counts the circuits run.
    """
    # qiskit-algorithms builds a new Grover operator at every read of the property (Qiskit 2's
    # GroverOperator synthesises at once: about 4 s on the twenty-deal paper circuit), and the
    # estimators and the engine read it several times: built once here and kept on the problem
    # (a Grover operator the caller set is read and set again, unchanged)
    problem.grover_operator = problem.grover_operator
    algorithm = options.algorithm_record
    make = algorithm.estimator
    if isinstance(sampler, SparseSampler) and algorithm.engine_estimator is not None:
        sampler, make = algorithm.engine(sampler, problem), algorithm.engine_estimator
    with step(f"amplitude estimation ({algorithm.name}): circuits run") as task:
        if active():
            sampler = _Progressed(sampler, task)
        return algorithm.estimate(make(options, problem, sampler), problem, options.alpha)


class _Progressed(BaseSamplerV2):
    """Forwards to ``sampler`` (every other attribute too), advancing the progress display's
    task by the circuits of each run."""

    def __init__(self, sampler: BaseSamplerV2, task) -> None:
        self._sampler, self._task = sampler, task

    def run(self, pubs, *, shots: int | None = None):
        pubs = list(pubs)
        job = self._sampler.run(pubs, shots=shots)
        self._task.advance(len(pubs))
        return job

    def __getattr__(self, name: str):
        return getattr(self._sampler, name)
