"""Shared pieces of the fuzz suite: the CLI run in-process, its contract, and a TOML writer.

The contract of ``qcards`` (:func:`qcards.cli.main`): exit status 0 and, with ``--json``, valid
JSON on stdout without NaN or Infinity; or exit status 2 and exactly one stderr line, starting
``error: ``. Anything else (a traceback, another exception, another status, ``SystemExit``) is
a finding, and so is a call that runs longer than :data:`HANG_SECONDS`.
"""

from __future__ import annotations

import contextlib
import datetime
import io
import json
import math
import os
import signal
import traceback
import warnings
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from hypothesis import currently_in_test_context, event, settings

from qcards.cli import main

HANG_SECONDS = 60
"""A single CLI call that has not returned after this long is reported as a hang."""


class Hang(BaseException):
    """Raised by the alarm in a call that ran too long (a BaseException: no library code's
    ``except Exception`` can swallow it; Qiskit's synthesis replaces even this one with its own
    error, so :func:`run_cli` also remembers that the alarm fired)."""


@dataclass(frozen=True)
class Outcome:
    """What one CLI call did."""

    argv: tuple[str, ...]
    code: int | None
    out: str
    err: str
    crash: str | None = None  # the traceback of an exception that escaped main()
    warned: tuple[str, ...] = ()  # warnings a user would see on stderr

    def describe(self) -> str:
        text = f"qcards {' '.join(self.argv)}\n  exit {self.code}"
        if self.crash:
            text += f"\n  escaped:\n{self.crash}"
        if self.warned:
            text += "\n  warnings:\n    " + "\n    ".join(self.warned)
        return text + f"\n  stdout: {self.out[:2000]!r}\n  stderr: {self.err[:2000]!r}"


def run_cli(argv: Sequence[str], seconds: int = HANG_SECONDS) -> Outcome:
    """``qcards ARGV`` in this process with stdout and stderr captured; never raises (except
    :class:`Hang`, re-raised as an AssertionError naming the call)."""
    argv = tuple(str(a) for a in argv)
    out, err = io.StringIO(), io.StringIO()

    fired = []

    def alarm(signum, frame):
        fired.append(signum)
        raise Hang

    previous = signal.signal(signal.SIGALRM, alarm)
    signal.alarm(seconds)
    code, crash, caught = None, None, []
    try:
        with (
            contextlib.redirect_stdout(out),
            contextlib.redirect_stderr(err),
            warnings.catch_warnings(record=True) as caught,
        ):
            # what a user's terminal shows: Python's default filters hide only these
            warnings.simplefilter("always")
            for hidden in (
                DeprecationWarning,
                PendingDeprecationWarning,
                ImportWarning,
                ResourceWarning,
            ):
                warnings.simplefilter("ignore", hidden)
            code = main(list(argv))
    except Hang:
        pass
    except SystemExit as exc:
        crash = f"SystemExit({exc.code!r})"
    except Exception:
        crash = traceback.format_exc()
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)
    if fired:  # also when a library turned Hang into its own error (Qiskit's synthesis does)
        raise AssertionError(f"hang: qcards {' '.join(argv)} ran longer than {seconds} s")
    warned = tuple(f"{w.category.__name__}: {w.message} ({w.filename}:{w.lineno})" for w in caught)
    return Outcome(argv, code, out.getvalue(), err.getvalue(), crash, warned)


def _no_constant(name: str):
    raise ValueError(f"JSON holds {name}")


def strict_json(text: str) -> Any:
    """``json.loads`` that refuses NaN, Infinity and -Infinity."""
    return json.loads(text, parse_constant=_no_constant)


def check_contract(outcome: Outcome, expect: str = "any") -> Any:
    """Assert the CLI contract; return the parsed JSON on success, ``None`` on a refusal.

    Args:
        expect: ``"any"`` (success or refusal), ``"ok"`` (must succeed), ``"error"`` (must be
            refused: an input that should not give a number).
    """
    where = outcome.describe()
    assert outcome.crash is None, f"exception escaped the CLI:\n{where}"
    assert "Traceback" not in outcome.err, f"traceback on stderr:\n{where}"
    assert not outcome.warned, f"warnings on stderr:\n{where}"
    assert outcome.code in (0, 2), f"exit status {outcome.code}, expected 0 or 2:\n{where}"
    if outcome.code == 0:
        assert expect != "error", f"an input that should be refused was accepted:\n{where}"
        try:
            return strict_json(outcome.out)
        except ValueError as exc:
            raise AssertionError(f"stdout is not strict JSON ({exc}):\n{where}") from None
    assert expect != "ok", f"a valid input was refused:\n{where}"
    lines = outcome.err.splitlines()
    assert len(lines) == 1, f"a refusal must be one stderr line, got {len(lines)}:\n{where}"
    assert lines[0].startswith("error: "), f"the line must start 'error: ':\n{where}"
    assert outcome.out == "", f"a refusal printed to stdout:\n{where}"
    return None


def run_checked(argv: Sequence[str], expect: str = "any") -> Any:
    """:func:`run_cli` then :func:`check_contract`; the exit status is a Hypothesis event
    (``pytest --hypothesis-show-statistics`` shows how many examples were answered)."""
    outcome = run_cli(argv)
    if currently_in_test_context():
        event(f"{argv[0]}: exit {outcome.code}")
    return check_contract(outcome, expect)


def examples(share: float = 1.0) -> settings:
    """Settings for a test that runs ``share`` of the loaded profile's examples (at least 5),
    or ``share`` of ``QCARDS_FUZZ_EXAMPLES`` when that is set (see ``tests/conftest.py``)."""
    wanted = os.environ.get("QCARDS_FUZZ_EXAMPLES")
    total = int(wanted) if wanted else settings.default.max_examples
    return settings(max_examples=max(5, round(share * total)))


# -- TOML ------------------------------------------------------------------------------------


def toml_string(text: str) -> str:
    """A TOML basic string: quotes, backslashes and control characters escaped."""
    parts = []
    for ch in text:
        if ch in '"\\':
            parts.append("\\" + ch)
        elif ord(ch) < 0x20 or ord(ch) == 0x7F:
            parts.append(f"\\u{ord(ch):04X}")
        else:
            parts.append(ch)
    return '"' + "".join(parts) + '"'


def toml_value(value: Any) -> str:
    """A value as TOML (tables inline), for the types TOML has."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if math.isnan(value):
            return "nan"
        if math.isinf(value):
            return "inf" if value > 0 else "-inf"
        return repr(value)
    if isinstance(value, str):
        return toml_string(value)
    if isinstance(value, datetime.date | datetime.time):
        return value.isoformat()
    if isinstance(value, list | tuple):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    if isinstance(value, dict):
        items = ", ".join(f"{toml_string(str(k))} = {toml_value(v)}" for k, v in value.items())
        return "{ " + items + " }" if items else "{}"
    raise TypeError(f"no TOML for {value!r}")


def toml_text(data: dict) -> str:
    """A table as TOML text: one ``key = value`` line per entry, nested tables inline."""
    return "".join(f"{toml_string(str(k))} = {toml_value(v)}\n" for k, v in data.items())


def write(directory: Path, name: str, content: str | bytes) -> Path:
    path = Path(directory) / name
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        # surrogatepass: a lone surrogate becomes bytes that are not UTF-8, as on a disk
        path.write_bytes(content.encode("utf-8", errors="surrogatepass"))
    return path
