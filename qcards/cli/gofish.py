"""``qcards gofish``: Quantum Go Fish. ``replay FILE`` checks a game record move by move."""

from __future__ import annotations

from qcards.cli.common import json_argument, print_json, print_table
from qcards.games.gofish import Replay, load_record, replay


def add_parser(sub) -> None:
    p = sub.add_parser("gofish", help="Quantum Go Fish: replay and check game records")
    actions = p.add_subparsers(dest="action", required=True, parser_class=type(p))
    r = actions.add_parser(
        "replay",
        help="replay a record: which answers were free or forced, who won, what each hand holds",
    )
    r.add_argument("file", help="game record (a 'players' line, then 'A asks B for SUIT: yes|no')")
    r.add_argument(
        "--no-four",
        action="store_true",
        help="variant: no hand may start with four cards of one suit",
    )
    json_argument(r)
    r.set_defaults(run=run_replay)


def run_replay(args) -> int:
    result = replay(load_record(args.file), no_four=args.no_four)
    if args.json:
        print_json(result.to_json())
        return 0
    print_table(
        ["line", "move", "answer", "allowed", "note"],
        [
            (
                line,
                f"{m.asker} asks {m.target} for {m.suit}",
                m.answer,
                "/".join(m.allowed),
                _note(m),
            )
            for line, m in zip(result.lines, result.moves, strict=True)
        ],
    )
    print(f"\nresult: {_result(result)}")
    if result.ignored:
        lines = ", ".join(map(str, result.ignored))
        print(f"ignored after the end: {len(result.ignored)} move(s), lines {lines}")
    print()
    print_table(
        ["player", "size", "known", "excluded", "unknown"],
        [
            (
                name,
                h.size,
                " ".join(f"{suit}={count}" for suit, count in h.known.items()) or None,
                " ".join(h.excluded) or None,
                h.unknown,
            )
            for name, h in result.hands.items()
        ],
    )
    return 0


def _note(move) -> str:
    if move.answer not in move.allowed:
        return "paradox"
    return "forced" if move.forced else ""


def _result(result: Replay) -> str:
    outcome = result.outcome
    if outcome.status == "paradox":
        return "paradox (no deal agrees with the last answer): everybody loses"
    if outcome.status == "ongoing":
        return "ongoing"
    verb = "wins" if len(outcome.winners) == 1 else "win"
    why = {
        "determined": "every hand is determined",
        "four": "provably holds four cards of one suit",
    }[outcome.reason]
    return f"{', '.join(outcome.winners)} {verb} ({why})"
