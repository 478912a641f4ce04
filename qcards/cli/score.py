"""``qcards score RECORD...``: finished games scored by the ISkO (value, verdict, list score,
Seeger-Fabian), in the order given."""

from __future__ import annotations

from qcards.cli.commands import SUMMARIES
from qcards.cli.output import json_argument, print_json, print_table
from qcards.errors import GameRecordError
from qcards.skat.game_record import RecordScore, score_files, seeger_fabian_totals


def add_parser(sub) -> None:
    p = sub.add_parser(
        "score",
        help=SUMMARIES["score"],
    )
    p.add_argument("records", nargs="+", metavar="RECORD", help="game records (TOML)")
    json_argument(p)
    p.set_defaults(run=run)


def _signed(n: int) -> str:
    return f"with {n}" if n > 0 else f"without {-n}" if n < 0 else "-"


def run(args) -> int:
    results = score_files(args.records)
    scores = [r for r in results if isinstance(r, RecordScore)]
    errors = [r for r in results if isinstance(r, GameRecordError)]
    totals = seeger_fabian_totals(scores)
    if args.json:
        print_json({"records": [s.to_json() for s in scores], "seeger_fabian_totals": totals})
    elif scores:
        rows = []
        for s in scores:
            st = s.settlement
            rows.append(
                [
                    s.source,
                    s.declarer,
                    s.game,
                    st.game_value,
                    st.won,
                    "overbid" if st.overbid else "",
                    _signed(st.matadors),
                    st.multiplier,
                    st.list_score,
                    " ".join(f"{p}:{v:+d}" for p, v in s.seeger_fabian.items()),
                ]
            )
        print_table(
            ["record", "declarer", "game", "value", "won", "overbid", "matadors", "levels",
             "list", "seeger_fabian"],
            rows,
        )  # fmt: skip
        if len(scores) > 1:
            print("\nSeeger-Fabian totals: " + "  ".join(f"{p} {v:+d}" for p, v in totals.items()))
    if errors:
        shown = "; ".join(str(e) for e in errors[:3])
        more = f"; and {len(errors) - 3} more bad records" if len(errors) > 3 else ""
        raise GameRecordError(f"{shown}{more}")
    return 0
