"""The ``qcards`` command: a thin dispatcher, one small module per subcommand.

Every :class:`~qcards.errors.QcardsError` (and every argument error) becomes one
``error: ...`` line on stderr and exit status 2, never a traceback.
"""

from __future__ import annotations

import argparse
import contextlib
import errno
import importlib
import io
import os
import sys
from collections.abc import Iterator, Sequence

from qcards.cli.commands import COMMANDS, SUMMARIES
from qcards.cli.output import error_message
from qcards.errors import QcardsError
from qcards.execution import isolated
from qcards.files import WRITTEN
from qcards.interrupts import noted
from qcards.progress import display, wanted

LIGHT = ("score",)
"""Commands that need no circuits: they start without importing qiskit (a command's parser is
built alone when the command is named, so only its own modules are imported)."""


class UsageError(Exception):
    """Raised instead of argparse's own exit, so the CLI prints a single error line."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # type: ignore[override]
        raise UsageError(f"{self.prog}: {message}")


EXAMPLES = {
    "reproduce": "qcards reproduce --paper-only",
    "evaluate": "qcards evaluate qcards/specs/six-card.toml --first CA",
    "recommend": "qcards recommend qcards/specs/six-card.toml --model adversarial",
    "declare": "qcards declare qcards/specs/six-card.toml",
    "bid": "qcards bid qcards/specs/full-game.toml --shots 2000 --seed 1",
    "fit": "qcards fit qcards/specs/six-card.toml --rounds 2",
    "train": "qcards train --games 20 --worlds 3 --epochs 20 --out model.npz",
    "train-bidder": "qcards train-bidder --games 2000 --epochs 10 --out hand.npz",
    "match": "qcards match --player adversarial:10 --player heuristic --player heuristic --deals 5",
    "score": "qcards score qcards/records/*.toml",
    "count": "qcards count qcards/specs/four-card.toml --algorithm iae --epsilon 0.01 --seed 3",
    "run": "qcards run qcards/specs/four-card.toml --backend fake:FakeTorino --mitigate all",
    "jobs list": "qcards jobs list",
    "jobs fetch": "qcards jobs fetch JOB_ID --json",
    "resources": "qcards resources --cards-per-player 10",
    "tables": "qcards tables",
    "export": "qcards export qcards/specs/six-card.toml --first CA --format qasm3",
    "gofish replay": "qcards gofish replay tests/games/data/book.txt",
    "gofish play": "qcards gofish play --players 3 --bots 2 --seed 1",
    "gofish tournament": "qcards gofish tournament --players 3 --games 100 --seed 1",
    "gofish solve": "qcards gofish solve --players 2",
    "gofish count": "qcards gofish count tests/games/data/wikipedia.txt --seed 3",
    "cats deduce": "qcards cats deduce --cards 7H 7S QC JOKER 8D --call black",
    "cats simulate": "qcards cats simulate --players 4 --rounds 1000 --seed 1",
    "qgo replay": "qcards qgo replay tests/games/data/qgo_ranchin_6x6.txt",
    "qgo play": "qcards qgo play --size 5 --bot white",
    "warm-up": "qcards warm-up",
}
"""One example per command, shown at the end of its ``--help``."""


def build_parser(commands: Sequence[str] = COMMANDS) -> argparse.ArgumentParser:
    parser = _Parser(
        prog="qcards",
        description="Imperfect-information card games on quantum circuits (Skat endgames).",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {_version()}")
    sub = parser.add_subparsers(
        dest="command", required=True, parser_class=_Parser, metavar="COMMAND"
    )
    for command in COMMANDS:
        if command in commands:
            importlib.import_module(f"qcards.cli.{command.replace('-', '_')}").add_parser(sub)
        else:  # listed by --help from its summary alone: its module (and Qiskit) not imported
            sub.add_parser(command, help=SUMMARIES[command])
    for name, leaf in _leaves(sub):
        if name.split()[0] not in commands:
            continue
        leaf.formatter_class = argparse.RawDescriptionHelpFormatter
        leaf.epilog = f"example:\n  {EXAMPLES[name]}"
        leaf.add_argument(
            "--quiet", action="store_true", help="no progress display (it shows on terminals only)"
        )
    return parser


def _leaves(sub, prefix: str = ""):
    """``(name, parser)`` of every command that runs (``gofish count``, not ``gofish``)."""
    for name, parser in sub.choices.items():
        nested = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
        if nested:
            yield from _leaves(nested[0], f"{prefix}{name} ")
        else:
            yield f"{prefix}{name}", parser


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("qcards")
    except PackageNotFoundError:  # run from a source tree without installing
        return "unknown"


LINE_BREAKS = "\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029"
"""Every character :meth:`str.splitlines` breaks a line at."""


def _fail(message: str) -> int:
    # one line, whatever names from the spec (or the arguments) contain: each line break is
    # written as its escape (\n, \x0c, \u2028, ...)
    one_line = "".join(
        ch.encode("unicode_escape").decode("ascii") if ch in LINE_BREAKS else ch for ch in message
    )
    print(f"error: {one_line}", file=sys.stderr)
    return 2


def main(argv: Sequence[str] | None = None) -> int:
    words = sys.argv[1:] if argv is None else list(argv)
    if words == ["--version"]:  # answered before the subcommands' modules are imported
        print(f"qcards {_version()}")
        return 0
    with noted() as ctrl_c, isolated.enabled(), _stdout_checked():
        try:
            # built inside the handler: Ctrl-C while the commands' modules import (seconds,
            # qiskit among them) is one line and status 130 too, not a traceback
            # only the command named is built: --help and a mistyped command import none
            parser = build_parser((words[0],) if words and words[0] in COMMANDS else ())
            args = parser.parse_args(words)
            with display(wanted(args.quiet, getattr(args, "json", False))):
                code = int(args.run(args) or 0)
            # written out here, not at the interpreter's exit: a full disk or a closed pipe is
            # then one error line and status 2, not "Exception ignored" and status 120
            sys.stdout.flush()
            return code
        except KeyboardInterrupt:
            return _interrupted()
        except Exception as exc:
            if ctrl_c:  # a library turned the interrupt into its own error (Qiskit's synthesis)
                return _interrupted()
            if isinstance(exc, QcardsError):
                return _fail(error_message(exc))
            if isinstance(exc, UsageError):
                return _fail(str(exc))
            if isinstance(exc, BrokenPipeError):  # the reader left (| head): nothing to tell it
                _discard_stdout()
                return 1
            if isinstance(exc, OSError):  # e.g. --out pointing at a file, a full disk
                _discard_stdout()
                where = f" {exc.filename}" if exc.filename else ""
                return _fail(f"cannot write{where}: {exc.strerror or exc}")
            raise


class _ClosedStdout(io.TextIOBase):
    """What ``sys.stdout`` is while a command runs with standard output closed (``>&-``, when
    Python sets it to ``None``): not a terminal, and every write fails as the closed file
    descriptor would."""

    def isatty(self) -> bool:
        return False

    def write(self, text: str) -> int:
        raise OSError(errno.EBADF, "standard output is closed")


@contextlib.contextmanager
def _stdout_checked() -> Iterator[None]:
    """A closed standard output replaced by :class:`_ClosedStdout` for the command's run."""
    if sys.stdout is not None:
        yield
        return
    sys.stdout = _ClosedStdout()
    try:
        yield
    finally:
        sys.stdout = None


def _discard_stdout() -> None:
    """After an error writing: whatever stdout still buffers is written now, or dropped if it
    cannot be (the file descriptor then points at the null device), so that the interpreter's
    exit does not fail on it again and print "Exception ignored"."""
    try:
        sys.stdout.flush()
    except (OSError, ValueError):
        with contextlib.suppress(OSError, ValueError, AttributeError):
            null = os.open(os.devnull, os.O_WRONLY)
            os.dup2(null, sys.stdout.fileno())
            os.close(null)


def _interrupted() -> int:
    done = f"{len(WRITTEN)} file(s) written, the last {WRITTEN[-1]}" if WRITTEN else "no file"
    print(f"error: interrupted (Ctrl-C): {done}; nothing is left half-written", file=sys.stderr)
    return 130


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
