"""``qcards score RECORD...``: finished games scored by the ISkO (value, verdict, list score,
Seeger-Fabian), in the order given."""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from pathlib import Path

from qcards.cli.commands import SUMMARIES
from qcards.cli.output import json_argument, print_json, print_table
from qcards.errors import GameRecordError
from qcards.skat.records.game_record import RecordScore, score_files, seeger_fabian_totals
from qcards.skat.rules.scoring import Settlement


def add_parser(sub) -> None:
    p = sub.add_parser(
        "score",
        help=SUMMARIES["score"],
    )
    p.add_argument(
        "records",
        nargs="+",
        metavar="RECORD",
        help="game records (TOML); a directory stands for its *.toml files, in name order",
    )
    json_argument(p)
    p.set_defaults(run=run)


def _signed(n: int) -> str:
    return f"with {n}" if n > 0 else f"without {-n}" if n < 0 else "-"


def record_names(sources: Sequence[str]) -> list[str]:
    """The records' paths relative to the directory they all lie in (records of one
    directory: their file names), so that the table stays narrow; the paths as given when
    they share no directory."""
    paths = [os.path.normpath(s) for s in sources]
    if len({os.path.isabs(p) for p in paths}) > 1:
        paths = [os.path.abspath(p) for p in paths]
    common = os.path.commonpath([os.path.dirname(p) for p in paths]) if paths else ""
    if common in ("", os.sep):
        return paths
    return [os.path.relpath(p, common) for p in paths]


def _result(settlement: Settlement) -> str:
    """won, lost, or overbid (lost because the game is worth less than the bid)."""
    return "overbid" if settlement.overbid else "won" if settlement.won else "lost"


def print_scores(scores: Sequence[RecordScore], totals: Mapping[str, int]) -> None:
    """Two tables: each record's settlement, then every player's Seeger-Fabian points per
    record (blank: not at that table) and, for several records, their totals."""
    names = record_names([s.source for s in scores])
    rows = []
    for name, s in zip(names, scores, strict=True):
        st = s.settlement
        rows.append(
            [name, s.declarer, s.game, st.game_value, _result(st), _signed(st.matadors),
             st.multiplier, st.list_score]
        )  # fmt: skip
    print_table(
        ["record", "declarer", "game", "value", "result", "matadors", "levels", "list"], rows
    )
    players = list(totals)
    sf_rows = [
        [name, *(f"{s.seeger_fabian[p]:+d}" if p in s.seeger_fabian else "" for p in players)]
        for name, s in zip(names, scores, strict=True)
    ]
    if len(scores) > 1:
        sf_rows.append(["total", *(f"{totals[p]:+d}" for p in players)])
    print()
    print_table(["seeger_fabian", *players], sf_rows)


def record_paths(arguments: Sequence[str]) -> list[str | GameRecordError]:
    """The record files of the command line: a directory stands for its ``*.toml`` files in
    name order (none there: a :class:`GameRecordError` in its place)."""
    out: list[str | GameRecordError] = []
    for argument in arguments:
        if os.path.isdir(argument):
            found = sorted(str(p) for p in Path(argument).glob("*.toml"))
            out += found or [GameRecordError(f"{argument}: a directory without records (*.toml)")]
        else:
            out.append(argument)
    return out


def run(args) -> int:
    paths = record_paths(args.records)
    scored = iter(score_files([p for p in paths if isinstance(p, str)]))
    results = [p if isinstance(p, GameRecordError) else next(scored) for p in paths]
    scores = [r for r in results if isinstance(r, RecordScore)]
    errors = [r for r in results if isinstance(r, GameRecordError)]
    totals = seeger_fabian_totals(scores)
    if args.json:
        print_json({"records": [s.to_json() for s in scores], "seeger_fabian_totals": totals})
    elif scores:
        print_scores(scores, totals)
    if errors:
        shown = "; ".join(str(e) for e in errors[:3])
        more = f"; and {len(errors) - 3} more bad records" if len(errors) > 3 else ""
        raise GameRecordError(f"{shown}{more}")
    return 0
