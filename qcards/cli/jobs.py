"""``qcards jobs list|fetch``: the hardware jobs in the local job store."""

from __future__ import annotations

import sys

from qcards.cli.commands import SUMMARIES
from qcards.cli.common import json_argument, print_json, print_table
from qcards.cli.hardware import fetch_command_hint
from qcards.cli.run import print_report
from qcards.errors import JobError
from qcards.execution import ibm
from qcards.execution.jobs import JobStore


def add_parser(sub) -> None:
    p = sub.add_parser("jobs", help=SUMMARIES["jobs"])
    jobs = p.add_subparsers(dest="jobs_command", required=True, parser_class=type(p))
    listing = jobs.add_parser("list", help="every recorded job, oldest first")
    json_argument(listing)
    listing.set_defaults(run=list_jobs)
    fetch = jobs.add_parser("fetch", help="a job's decoded counts and p_win (waits if needed)")
    fetch.add_argument("job_id", metavar="ID")
    json_argument(fetch)
    fetch.set_defaults(run=fetch_job)


def list_jobs(args) -> int:
    store = JobStore.default()
    records, unreadable = store.listing()
    for problem in unreadable:  # hand-edited records: named on stderr, the others listed
        print(f"unreadable: {problem}; skipped", file=sys.stderr)
    if args.json:
        print_json([_summary(r) for r in records])
        return 0
    if not records:
        print(f"no {'readable ' if unreadable else ''}jobs in {store.file}")
        return 0
    rows = [list(_summary(r).values()) for r in records]
    headers = ["job id", "backend", "created", "status", "spec", "shots", "mitigation", "p_win"]
    print_table(headers, rows)
    return 0


def _summary(record) -> dict:
    return {
        "job_id": record.job_id,
        "backend": record.backend,
        "created": record.created,
        "status": record.status,
        "spec": record.spec_path,
        "shots": record.shots,
        "mitigation": record.options.get("mitigation", "none"),
        "p_win": (record.result or {}).get("p_win"),
    }


def fetch_job(args) -> int:
    try:
        report = ibm.fetch(args.job_id)
    except JobError as exc:
        raise JobError(fetch_command_hint(exc), job_id=exc.job_id) from None
    print_report(report, args.json, job_id=args.job_id)
    return 0
