"""IBM Quantum hardware through qiskit-ibm-runtime: credentials, device, sampler, jobs.

The sampler is the runtime's executor-based ``qiskit_ibm_runtime.executor_sampler.Sampler``
(the ``SamplerV2`` of ``qiskit_ibm_runtime`` is deprecated since 0.50). By default it applies no
error suppression or mitigation at all: dynamical decoupling is off, and gate and measurement
twirling are unset, which the Sampler resolves to off (the Estimator is the primitive whose
resilience level mitigates by default). qcards sets every one of these options explicitly, from
:class:`Suppression`, so a change of the runtime's defaults cannot change a run silently.
``--mitigate all`` turns them all on; the mitigation of :mod:`qcards.execution.mitigation`
(detection, M3 readout correction, zero-noise extrapolation by folding) runs on the job's
results, here and in :func:`fetch`, exactly as for the emulated devices.

Every job is written to the job store (:mod:`qcards.execution.jobs`) right after submission and
before its result is awaited; :func:`fetch` completes it later. The store is opened before
anything is submitted, so a broken store stops the run before it costs device time.

The hardware code path runs offline in the runtime's local testing mode: given a fake device
(``qiskit_ibm_runtime.fake_provider``) instead of an ``IBMBackend``, the same Sampler simulates
the job with Aer and that device's noise model.
"""

from __future__ import annotations

import os
from dataclasses import asdict, dataclass
from pathlib import Path

from qcards.circuits.task import GameTask
from qcards.errors import CredentialsError, JobError, JobStoreError, ResourceError
from qcards.execution.backend_names import IBM_PREFIX
from qcards.execution.extras import require
from qcards.execution.jobs import DONE, FAILED, JobRecord, JobStore
from qcards.execution.mitigation import Mitigation, mitigated_report, mitigation_circuits
from qcards.execution.results import RunReport
from qcards.execution.transpile import (
    OUTCOME_REGISTER,
    TranspiledSize,
    measured_circuit,
    outcome_counts,
    transpile_to,
    transpiled_size,
)

PREFIX = IBM_PREFIX
"""Backend names of IBM Quantum devices: ``ibm:<Device>``."""

DD_SEQUENCES = ("XX", "XpXm", "XY4")
"""The runtime's ``dynamical_decoupling.sequence_type`` values."""

MISSING_CREDENTIALS = (
    "no IBM Quantum credentials: save an account once with "
    "QiskitRuntimeService.save_account(token=..., instance=..., set_as_default=True), "
    "or set QISKIT_IBM_TOKEN and QISKIT_IBM_INSTANCE (and QISKIT_IBM_CHANNEL if not "
    "ibm_quantum_platform)"
)


@dataclass(frozen=True)
class Suppression:
    """The error suppression a hardware job runs with (all off by default, as in the runtime).

    Attributes:
        dynamical_decoupling: a sequence of :data:`DD_SEQUENCES` to enable dynamical
            decoupling with, or ``None`` for none.
        twirl_gates: Pauli twirling of the two-qubit gate layers (``twirling.enable_gates``).
        twirl_measure: twirling of the measurements (``twirling.enable_measure``).
    """

    dynamical_decoupling: str | None = None
    twirl_gates: bool = False
    twirl_measure: bool = False

    def __post_init__(self):
        dd = self.dynamical_decoupling
        if dd is not None and dd not in DD_SEQUENCES:
            raise ResourceError(
                f"dynamical decoupling sequence {dd!r}: expected {' | '.join(DD_SEQUENCES)}",
                parameters=("dynamical_decoupling",),
            )

    def with_all(self) -> Suppression:
        """Every switch on (``--mitigate all``): the sequence given, else XY4 (robust to pulse
        errors), gate and measurement twirling."""
        return Suppression(self.dynamical_decoupling or "XY4", True, True)

    def sampler_options(self) -> dict:
        """The executor Sampler's options, every suppression switch set explicitly."""
        dd = self.dynamical_decoupling
        return {
            "dynamical_decoupling": {"enable": dd is not None, "sequence_type": dd or "XX"},
            "twirling": {"enable_gates": self.twirl_gates, "enable_measure": self.twirl_measure},
            "environment": {"job_tags": ["qcards"]},
        }


def check_credentials():
    """The account the runtime would use, read offline (saved account or environment).

    Raises :class:`CredentialsError` at once, before any network call, when there is none.
    """
    require("ibm", "IBM Quantum hardware")
    from qiskit_ibm_runtime.accounts import AccountManager, AccountNotFoundError, management
    from qiskit_ibm_runtime.exceptions import IBMAccountError

    saved = Path(management._DEFAULT_ACCOUNT_CONFIG_JSON_FILE)
    if not os.environ.get("QISKIT_IBM_TOKEN") and not saved.is_file():
        # the runtime would create an empty account file first; nothing to find either way
        raise CredentialsError(MISSING_CREDENTIALS)
    try:
        return AccountManager.get().validate()
    except AccountNotFoundError:
        raise CredentialsError(MISSING_CREDENTIALS) from None
    except IBMAccountError as exc:
        raise CredentialsError(f"IBM Quantum account: {exc}") from None
    except (OSError, ValueError) as exc:  # an unreadable or corrupt account file
        raise CredentialsError(f"IBM Quantum account file: {exc}") from None


def runtime_service():
    """A ``QiskitRuntimeService`` for the user's account (checked offline first)."""
    check_credentials()
    from qiskit_ibm_runtime import QiskitRuntimeService
    from qiskit_ibm_runtime.exceptions import IBMError

    try:
        return QiskitRuntimeService()
    except (IBMError, OSError, ValueError) as exc:
        raise CredentialsError(f"IBM Quantum refused the account: {exc}") from None
    except (AttributeError, TypeError, LookupError):  # the runtime's parsers, on a bad instance
        raise CredentialsError(_unreadable_instance()) from None


def _unreadable_instance() -> str:
    """The error of an account whose instance the runtime cannot parse (it raises
    ``AttributeError`` on a CRN of too few fields), naming where the instance came from."""
    instance = os.environ.get("QISKIT_IBM_INSTANCE")
    where = f"QISKIT_IBM_INSTANCE={instance!r}" if instance else "the saved account's instance"
    return (
        f"IBM Quantum account: {where} cannot be read; give the instance's name or its full "
        "CRN (crn:v1:bluemix:public:quantum-computing:REGION:a/ACCOUNT:INSTANCE::)"
    )


def device_name(backend: str) -> str:
    """``NAME`` of ``ibm:NAME``."""
    name = backend.removeprefix(PREFIX)
    if not backend.startswith(PREFIX) or not name:
        raise ResourceError(f"backend {backend!r}: expected ibm:NAME, e.g. ibm:ibm_torino")
    return name


def ibm_backend(backend: str):
    """The IBM device of ``ibm:NAME``; an unknown name lists the account's devices."""
    from qiskit.providers.exceptions import QiskitBackendNotFoundError

    name = device_name(backend)
    service = runtime_service()
    try:
        return service.backend(name)
    except QiskitBackendNotFoundError:
        known = ", ".join(sorted(b.name for b in service.backends())) or "none"
        raise ResourceError(f"unknown IBM backend {name!r} (this account has: {known})") from None


def make_sampler(device, suppression: Suppression, seed: int | None = None):
    """The executor Sampler on ``device`` with ``suppression``; ``seed`` seeds local simulation."""
    from qiskit_ibm_runtime import IBMBackend
    from qiskit_ibm_runtime.executor_sampler import Sampler

    options = suppression.sampler_options()
    if seed is not None and not isinstance(device, IBMBackend):
        options["simulator"] = {"seed_simulator": seed}
    return Sampler(mode=device, options=options)


def submit(
    task: GameTask,
    device,
    shots: int,
    seed: int | None = None,
    suppression: Suppression = Suppression(),
    on_transpiled=None,
    store: JobStore | None = None,
    sampler=None,
    mitigate: str = "none",
):
    """Transpile to ``device``, report the size, submit, and record the job before returning.

    Returns ``(record, job)``; :func:`wait` turns them into a :class:`RunReport`.

    Args:
        device: an ``IBMBackend``, or a fake device for the runtime's local testing mode.
        suppression: the runtime's error suppression; with ``mitigate="all"`` every switch
            the user left off is turned on (:meth:`Suppression.with_all`).
        on_transpiled: called with the :class:`TranspiledSize` before the job is submitted.
        store: the job store (default: :meth:`JobStore.default`).
        sampler: the sampler to submit with (default: :func:`make_sampler`).
        mitigate: one of :data:`~qcards.execution.mitigation.MITIGATIONS`. One job carries
            every circuit the mitigation needs (:func:`mitigation_circuits`: the folded
            circuits of zero-noise extrapolation, the readout calibrations), and the record
            names the mitigation, so :func:`fetch` applies the same detection and mitigation.
    """
    mitigation = Mitigation.parse(mitigate)
    mitigation.require()
    if mitigation.name == "all":
        suppression = suppression.with_all()
    store = store or JobStore.default()
    store.check()  # a broken store stops here, not after a job it cannot record
    game = task.build()
    if game.num_qubits > device.num_qubits:
        raise ResourceError(
            f"the circuit needs {game.num_qubits} qubits; {device.name} has {device.num_qubits}"
        )
    transpiled = transpile_to(measured_circuit(game), device, seed, prefer="gates")
    size = transpiled_size(transpiled)
    if on_transpiled is not None:
        on_transpiled(size)
    circuits = mitigation_circuits(transpiled, mitigation, seed, device)
    sampler = sampler or make_sampler(device, suppression, seed)
    job = sampler.run(circuits, shots=shots)
    record = JobRecord(
        job_id=job.job_id(),
        backend=PREFIX + device.name,
        **task.to_json(),
        shots=shots,
        seed=seed,
        register={
            "name": OUTCOME_REGISTER,
            "num_bits": len(game.layout.measured),
            "num_qubits": game.num_qubits,
        },
        transpiled=asdict(size),
        options={
            "suppression": asdict(suppression),
            "sampler": suppression.sampler_options(),
            "mitigation": mitigation.name,
            "circuits": len(circuits),
        },
    )
    try:
        store.save(record)
    except JobStoreError as exc:
        raise JobStoreError(
            f"job {record.job_id} was submitted to {record.backend} but not recorded: {exc}"
        ) from None
    return record, job


def wait(record: JobRecord, job, store: JobStore | None = None) -> RunReport:
    """Wait for ``job``'s result, decode it, and store it in ``record``.

    Ctrl-C while waiting raises :class:`JobError` naming the job and how to fetch it later;
    the record stays in the store. A failed job is marked failed in its record.
    """
    from qiskit.providers import JobError as QiskitJobError
    from qiskit_ibm_runtime.exceptions import IBMError

    store = store or JobStore.default()
    try:
        result = job.result()
    except KeyboardInterrupt:
        raise JobError(
            f"interrupted while waiting for job {record.job_id} on {record.backend}; it is kept "
            f"in the job store: get its result later with fetch({record.job_id!r})",
            job_id=record.job_id,
        ) from None
    except (IBMError, QiskitJobError) as exc:
        record.status, record.error = FAILED, str(exc)
        store.save(record)
        raise JobError(f"job {record.job_id} on {record.backend} failed: {exc}") from None
    return complete(record, list(result), store)


def complete(record: JobRecord, pub_results, store: JobStore) -> RunReport:
    """Decode the job's pub results with the game rebuilt from ``record``'s task, apply the
    record's mitigation, and save the report and every pub's raw counts in the record."""
    task = record.task
    game = task.build()
    if len(game.layout.measured) != record.register.get("num_bits"):
        raise JobStoreError(
            f"job {record.job_id}: the rebuilt circuit measures {len(game.layout.measured)} "
            f"bits, the record says {record.register.get('num_bits')}"
        )
    mitigation = Mitigation.parse(record.options.get("mitigation", "none"))
    expected = record.options.get("circuits", 1)
    if len(pub_results) != expected:
        raise JobStoreError(
            f"job {record.job_id}: {len(pub_results)} results, the record expects {expected}"
        )
    raw = [outcome_counts(r) for r in pub_results]
    report = mitigated_report(
        task.spec,
        game,
        record.backend,
        TranspiledSize(**record.transpiled),
        raw,
        mitigation,
        record.seed,
    )
    record.status, record.error = DONE, None
    record.result = {
        **{k: v for k, v in report.to_json().items() if k not in ("backend", "transpiled")},
        "raw_counts": [{str(k): v for k, v in sorted(counts.items())} for counts in raw],
    }
    store.save(record)
    return report_of(record)


def report_of(record: JobRecord) -> RunReport:
    """The :class:`RunReport` of a fetched record (no network)."""
    result = record.result
    if result is None:  # the record's shape is checked when it is read, its result's too
        raise JobStoreError(f"job {record.job_id}: marked {record.status} but holds no result")
    ci = result.get("ci")
    return RunReport(
        record.backend,
        result["shots"],
        dict(result["counts"]),
        result["p_win"],
        TranspiledSize(**record.transpiled),
        p_win_raw=result.get("p_win_raw"),
        ci=tuple(ci) if ci is not None else None,
        kept_fraction=result.get("kept_fraction", 1.0),
        mitigation=result.get("mitigation", "none"),
        extrapolation=result.get("extrapolation"),
    )


def retrieve_job(job_id: str):
    """The runtime's job ``job_id`` (needs the account)."""
    from qiskit_ibm_runtime.exceptions import IBMError

    service = runtime_service()
    try:
        return service.job(job_id)
    except IBMError as exc:
        raise JobError(f"cannot retrieve job {job_id} from IBM Quantum: {exc}") from None


def fetch(job_id: str, store: JobStore | None = None) -> RunReport:
    """The decoded result of a recorded job: from the record once fetched, else from IBM."""
    store = store or JobStore.default()
    record = store.load(job_id)
    if record.status == DONE:
        return report_of(record)
    if record.status == FAILED:
        raise JobError(f"job {job_id} on {record.backend} failed: {record.error}")
    return wait(record, retrieve_job(job_id), store)


def run_on_ibm(
    task: GameTask,
    backend: str,
    shots: int = 1000,
    seed: int | None = None,
    on_transpiled=None,
    suppression: Suppression = Suppression(),
    mitigate: str = "none",
) -> RunReport:
    """``ibm:NAME``: look the device up, submit, record, and wait for the decoded result."""
    device = ibm_backend(backend)
    record, job = submit(task, device, shots, seed, suppression, on_transpiled, mitigate=mitigate)
    return wait(record, job)
