"""``qcards run --backend ibm:NAME``: the hardware flags, submission and waiting."""

from __future__ import annotations

import sys

from qcards.cli.common import print_json
from qcards.errors import JobError, QcardsError
from qcards.execution import ibm

_FLAGS = ("dynamical_decoupling", "twirl_gates", "twirl_measure", "no_wait")


def add_hardware_arguments(parser) -> None:
    group = parser.add_argument_group("IBM hardware (ibm:NAME only)")
    group.add_argument(
        "--dynamical-decoupling",
        nargs="?",
        const="XX",
        choices=ibm.DD_SEQUENCES,
        metavar="SEQUENCE",
        help="dynamical decoupling on idle qubits: XX (if no SEQUENCE), XpXm or XY4 (default off)",
    )
    group.add_argument(
        "--twirl-gates", action="store_true", help="Pauli-twirl the two-qubit gates (default off)"
    )
    group.add_argument(
        "--twirl-measure", action="store_true", help="twirl the measurements (default off)"
    )
    group.add_argument(
        "--no-wait",
        action="store_true",
        help="record the job and print its id without waiting (see qcards jobs fetch)",
    )


def check_hardware_arguments(args) -> None:
    """The hardware flags only make sense with ``ibm:`` backends."""
    if args.backend.startswith(ibm.PREFIX):
        if args.no_wait and args.plot:
            raise QcardsError("--plot needs the result: it cannot be used with --no-wait")
        return
    for name in _FLAGS:
        if getattr(args, name):
            flag = "--" + name.replace("_", "-")
            raise QcardsError(f"{flag} applies to ibm:NAME backends only")


def run_hardware(args, task, announce):
    """Submit to the IBM device, record the job, and wait: ``(report, {"job_id": ...})``.

    With ``--no-wait``, print the job id and return ``None``.
    """
    device = ibm.ibm_backend(args.backend)  # fails at once without credentials
    suppression = ibm.Suppression(args.dynamical_decoupling, args.twirl_gates, args.twirl_measure)
    record, job = ibm.submit(
        task, device, args.shots, args.seed, suppression, announce, mitigate=args.mitigate
    )
    fetch_hint = f"qcards jobs fetch {record.job_id}"
    if args.no_wait:
        if args.json:
            print_json({"job_id": record.job_id, "backend": record.backend, "status": "submitted"})
        else:
            print(f"job {record.job_id} submitted to {record.backend}; result: {fetch_hint}")
        return None
    if not args.json:
        print(
            f"job {record.job_id} submitted; waiting (Ctrl-C is safe: {fetch_hint})",
            file=sys.stderr,
        )
    return wait_for(record, job), {"job_id": record.job_id}


def wait_for(record, job):
    """:func:`ibm.wait`, with the command that fetches an interrupted job later."""
    try:
        return ibm.wait(record, job)
    except JobError as exc:
        raise JobError(fetch_command_hint(exc), job_id=exc.job_id) from None


def fetch_command_hint(exc: JobError) -> str:
    """The library's hint ``fetch('ID')`` written as the command ``qcards jobs fetch ID``."""
    if exc.job_id is None:
        return str(exc)
    return str(exc).replace(f"fetch({exc.job_id!r})", f"`qcards jobs fetch {exc.job_id}`")
