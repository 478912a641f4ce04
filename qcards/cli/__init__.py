"""The ``qcards`` command: a thin dispatcher, one small module per subcommand.

Every :class:`~qcards.errors.QcardsError` (and every argument error) becomes one
``error: ...`` line on stderr and exit status 2, never a traceback.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from qcards.cli import (
    cats,
    count,
    evaluate,
    export,
    gofish,
    jobs,
    qgo,
    recommend,
    reproduce,
    resources,
    run,
    tables,
)
from qcards.cli.common import error_message
from qcards.errors import QcardsError

COMMANDS = (
    reproduce,
    evaluate,
    recommend,
    count,
    run,
    jobs,
    resources,
    tables,
    export,
    gofish,
    cats,
    qgo,
)


class UsageError(Exception):
    """Raised instead of argparse's own exit, so the CLI prints a single error line."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # type: ignore[override]
        raise UsageError(f"{self.prog}: {message}")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="qcards",
        description="Imperfect-information card games on quantum circuits (Skat endgames).",
    )
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    for command in COMMANDS:
        command.add_parser(sub)
    return parser


def _fail(message: str) -> int:
    # one line, whatever names from the spec contain
    one_line = message.replace("\r", "\\r").replace("\n", "\\n")
    print(f"error: {one_line}", file=sys.stderr)
    return 2


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
        return int(args.run(args) or 0)
    except QcardsError as exc:
        return _fail(error_message(exc))
    except UsageError as exc:
        return _fail(str(exc))
    except OSError as exc:  # e.g. --out pointing at a file or an unwritable place
        where = f" {exc.filename}" if exc.filename else ""
        return _fail(f"cannot write{where}: {exc.strerror or exc}")
    except KeyboardInterrupt:
        print("error: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
