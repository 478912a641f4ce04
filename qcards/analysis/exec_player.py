"""Outside programs in a seat of a match: ``--player exec:COMMAND``.

qcards starts ``COMMAND`` (split as a shell would, :func:`shlex.split`, but run without a
shell) the first time the player has to answer in a process, and keeps it for the match: one
process per player and Python process (each Dask worker starts its own). The two speak JSON
lines: qcards writes one request a line on the program's stdin, the program answers every
request with exactly one line on its stdout, a JSON object. The program's stderr is the
match's.

Requests (every one carries ``"type"`` and ``"protocol": 1``, :data:`PROTOCOL`):

``start``
    a game begins: ``deal`` and ``rotation`` (the match's game), ``game``, ``hand_game``
    (``true`` in a Hand game), ``bid``, ``position`` (the program's seat: 0 forehand, 1
    middlehand, 2 rearhand), ``declarer`` (the declarer's position), ``seat`` (``"declarer"``
    or ``"defender"``), ``hand`` (its ten cards; the declarer's after it took the Skat, unless
    Hand) and, for the declarer of a game that is not Hand, ``discard``. Answered by any JSON
    object (``{}``).
``card``
    the program's card: the ``start`` fields (``hand`` its cards now) and ``trick_number``
    (1 to 10), ``leader`` (the position that led the current trick), ``trick`` (its cards so
    far, in play order), ``tricks`` (every finished trick:
    ``{"leader": POSITION, "cards": [...], "winner": POSITION}``, the cards in play order
    from the leader), ``points`` (``{"declarer": N, "defenders": N}``: the card points taken
    in the finished tricks, the discard not counted) and ``legal`` (the cards it may play,
    in the rules' order). Answered by ``{"card": CARD}``, a card of ``legal``.
``end``
    the game is over: the ``start`` fields without ``hand`` and ``discard``, and
    ``declarer_points`` (the declarer's card points, the discard or the Hand game's Skat
    counted), ``declarer_tricks``,
    ``won`` (the declarer's) and ``score`` (the program's Seeger-Fabian points for the game).
    Answered by any JSON object (``{}``).

Cards are spelled as :class:`~qcards.skat.rules.cards.Card` prints them (``"CJ"``, ``"H10"``).

An answer that is not one line of a JSON object, a card that is not legal, the program
exiting or not answering within :func:`timeout` seconds is a :class:`~qcards.errors.PlayerError`
that names the player, the request and what was wrong; the program is then ended, as it is at
the end of the match (:func:`close_all`) and when the Python process exits.
"""

from __future__ import annotations

import atexit
import json
import os
import queue
import shlex
import shutil
import subprocess
import threading
from dataclasses import dataclass, field
from typing import Any, NoReturn

from qcards.errors import PlayerError
from qcards.skat.rules.cards import Card, CardError

EXEC = "exec"
"""The ``--player`` prefix of an outside program."""

PROTOCOL = 1
"""The protocol's version, sent in every request."""

TIMEOUT_VARIABLE = "QCARDS_EXEC_TIMEOUT"
"""The environment variable that sets the seconds an outside program has for each answer."""

DEFAULT_TIMEOUT = 30.0
"""The seconds an outside program has for each answer when :data:`TIMEOUT_VARIABLE` is unset."""

DECISION_SECONDS = 0.05
"""The seconds a match's plan assumes an outside program takes for each request: an
assumption, not a measurement (qcards cannot know the program)."""

STOP_SECONDS = 2.0
"""The seconds a program has to exit once its stdin is closed before it is killed."""


def split_command(text: str, command: str) -> tuple[str, ...]:
    """``command`` split into its program and arguments, the program found on the ``PATH``
    (or as a path). Raises :class:`PlayerError` naming ``text`` (the ``--player``) when it
    cannot be split, is empty or names no program that can be run."""
    try:
        argv = tuple(shlex.split(command))
    except ValueError as exc:
        raise PlayerError(f"{{player}} {text!r}: the command cannot be split: {exc}") from None
    if not argv:
        raise PlayerError(
            f"{{player}} {text!r}: no command after {EXEC}: (expected {EXEC}:COMMAND, such as "
            f"'{EXEC}:python my_player.py')"
        )
    if shutil.which(argv[0]) is None:
        raise PlayerError(
            f"{{player}} {text!r}: the command {argv[0]!r} cannot be started: not found or "
            "not executable"
        )
    return argv


def timeout() -> float:
    """The seconds an outside program has for each answer: :data:`TIMEOUT_VARIABLE` when set
    (a positive number, :class:`PlayerError` otherwise), else :data:`DEFAULT_TIMEOUT`."""
    text = os.environ.get(TIMEOUT_VARIABLE)
    if text is None:
        return DEFAULT_TIMEOUT
    try:
        seconds = float(text)
    except ValueError:
        seconds = float("nan")
    if not seconds > 0 or seconds == float("inf"):
        raise PlayerError(f"{TIMEOUT_VARIABLE}={text!r} must be a positive number of seconds")
    return seconds


@dataclass
class _Program:
    """A live outside program and the lines it has written (read by a thread, so that an
    answer can be waited for with a timeout)."""

    label: str
    process: subprocess.Popen
    lines: queue.Queue = field(default_factory=queue.Queue)

    def read(self) -> None:
        assert self.process.stdout is not None  # started with stdout=PIPE
        with self.process.stdout as output:  # closed here: closing it elsewhere would block
            for line in output:
                self.lines.put(line)
        self.lines.put(None)  # end of its output

    def stop(self, graceful: bool = True) -> None:
        """End the program: its stdin closed (``graceful``: given :data:`STOP_SECONDS` to exit
        on its own), then terminated, then killed (its stdout is read to its end by the
        reading thread)."""
        process = self.process
        assert process.stdin is not None  # started with stdin=PIPE
        try:
            process.stdin.close()
        except OSError:
            pass
        if graceful:
            try:
                process.wait(STOP_SECONDS)
            except subprocess.TimeoutExpired:
                pass
        if process.poll() is None:
            process.terminate()
            try:
                process.wait(STOP_SECONDS)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


_live: dict[Any, _Program] = {}
"""The outside programs this process has started, by key (a player of a match)."""


def _program(key: Any, label: str, argv: tuple[str, ...]) -> _Program:
    program = _live.get(key)
    if program is not None and program.process.poll() is None:
        return program
    if program is not None:
        _live.pop(key).stop(graceful=False)
    try:
        process = subprocess.Popen(
            argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1,
            encoding="utf-8", errors="replace",
        )  # fmt: skip
    except OSError as exc:
        raise PlayerError(f"{{player}} {label}: the command cannot be started: {exc}") from None
    program = _Program(label, process)
    threading.Thread(target=program.read, daemon=True, name=f"qcards-{EXEC}").start()
    _live[key] = program
    return program


def ask(key: Any, label: str, argv: tuple[str, ...], request: dict, what: str) -> dict:
    """The program's answer (a JSON object) to ``request``, the program started first if it
    is not running (``key`` tells the players apart). ``what`` names the request in errors
    (such as ``the card request of deal 1, rotation 0, trick 3``).

    Raises:
        PlayerError: the program cannot be started, exits, answers no JSON object or not
            within :func:`timeout` seconds (the program is ended first).
    """
    seconds = timeout()
    program = _program(key, label, argv)
    where = f"{{player}} {label}: {what}"
    stdin = program.process.stdin
    assert stdin is not None  # started with stdin=PIPE
    try:
        stdin.write(json.dumps(request) + "\n")
        stdin.flush()
    except (BrokenPipeError, OSError, ValueError):
        fail(key, f"{where}: the program has exited ({_status(program)})")
    try:
        line = program.lines.get(timeout=seconds)
    except queue.Empty:
        fail(key, f"{where}: no answer within {seconds:g} s ({TIMEOUT_VARIABLE} sets another)")
    if line is None:
        fail(key, f"{where}: the program has exited without answering ({_status(program)})")
    shown = _shown(line)
    try:
        answer = json.loads(line)
    except json.JSONDecodeError:
        fail(key, f"{where}: the answer {shown} is not JSON")
    if not isinstance(answer, dict):
        fail(key, f"{where}: the answer {shown} is not a JSON object")
    return answer


def fail(key: Any, message: str) -> NoReturn:
    """End the program of ``key`` and raise :class:`PlayerError` with ``message``."""
    program = _live.pop(key, None)
    if program is not None:
        program.stop(graceful=False)
    raise PlayerError(message)


def request(kind: str, about: dict, position: int, **fields) -> dict:
    """A request of ``kind`` to the seat at ``position`` (0 forehand), with the game's fields
    ``about`` (``deal``, ``rotation``, ``game``, ``hand_game``, ``bid``, ``declarer``) and
    ``fields``."""
    seat = "declarer" if position == about["declarer"] else "defender"
    return {"type": kind, "protocol": PROTOCOL, **about, "position": position, "seat": seat,
            **fields}  # fmt: skip


def describe(request: dict) -> str:
    """The request as errors name it: ``the card request of deal 1, rotation 0, trick 3``."""
    trick = f", trick {request['trick_number']}" if "trick_number" in request else ""
    return (f"the {request['type']} request of deal {request['deal']}, rotation "
            f"{request['rotation']}{trick}")  # fmt: skip


def tell(key: Any, label: str, argv: tuple[str, ...], request: dict) -> None:
    """Send a request whose answer is any JSON object (``start``, ``end``)."""
    ask(key, label, argv, request, describe(request))


def card(key: Any, label: str, argv: tuple[str, ...], request: dict) -> Card:
    """The program's card for a ``card`` request: one of the request's ``legal`` cards.

    Raises:
        PlayerError: what :func:`ask` raises, or an answer without a ``card`` string, an
            unknown card or one that is not legal (the program is ended first).
    """
    what = describe(request)
    answer = ask(key, label, argv, request, what)
    where = f"{{player}} {label}: {what}"
    text = answer.get("card")
    if not isinstance(text, str):
        fail(key, f'{where}: the answer {_shown(json.dumps(answer))} has no "card" string')
    try:
        chosen = Card.parse(text)
    except CardError:
        fail(key, f"{where}: the answer's card {text!r} is not a card (write CJ, H10, ...)")
    if str(chosen) not in request["legal"]:
        fail(key, f"{where}: the card {text!r} is not legal here (legal: "
                  f"{' '.join(request['legal'])})")  # fmt: skip
    return chosen


def _status(program: _Program) -> str:
    try:
        code = program.process.wait(STOP_SECONDS)
    except subprocess.TimeoutExpired:
        return "still running"
    return f"exit status {code}"


def _shown(line: str, limit: int = 80) -> str:
    text = line.rstrip("\n")
    return repr(text if len(text) <= limit else text[:limit] + "...")


def close_all() -> None:
    """End every outside program this process has started."""
    while _live:
        _live.popitem()[1].stop()


atexit.register(close_all)
try:  # a Dask worker (a multiprocessing child) runs these at its exit, not atexit's
    from multiprocessing import util as _mp_util

    _mp_util.Finalize(None, close_all, exitpriority=10)
except ImportError:  # pragma: no cover - multiprocessing is always there
    pass
