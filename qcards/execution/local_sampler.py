"""The part every sampler of qcards' own (noise trajectories, the sparse engine) shares with
Qiskit's primitives: pubs coerced with their shots, a job, one result per pub."""

from __future__ import annotations

import contextvars
from abc import abstractmethod
from collections.abc import Iterable

from qiskit.primitives import BaseSamplerV2, PrimitiveResult, SamplerPubResult
from qiskit.primitives.containers.sampler_pub import SamplerPub
from qiskit.primitives.primitive_job import PrimitiveJob


class LocalSampler(BaseSamplerV2):
    """A ``BaseSamplerV2`` that runs each pub in this process with :meth:`_run_pub`.

    Subclasses set ``default_shots`` and implement ``_run_pub(pub) -> SamplerPubResult``.
    """

    default_shots: int

    def run(self, pubs: Iterable, *, shots: int | None = None) -> PrimitiveJob:
        """A job running every pub in a worker thread, in a copy of the caller's context: the
        progress display (:mod:`qcards.progress`) and the limits in force
        (:func:`qcards.limits`) are context variables, which a thread does not inherit."""
        coerced = [SamplerPub.coerce(pub, shots or self.default_shots) for pub in pubs]
        job = PrimitiveJob(contextvars.copy_context().run, self._run, coerced)
        job._submit()
        return job

    def _run(self, pubs: list[SamplerPub]) -> PrimitiveResult:
        return PrimitiveResult([self._run_pub(pub) for pub in pubs], metadata={"version": 2})

    @abstractmethod
    def _run_pub(self, pub: SamplerPub) -> SamplerPubResult:
        """One pub's result: its classical registers as ``BitArray``s."""
