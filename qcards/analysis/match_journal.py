"""A match's journal: every finished deal's games kept in a file as the match goes, so that an
interrupted match (Ctrl-C, a session's end) resumes where it stopped and ends with the results
an uninterrupted run gives.

The file is JSON lines: a header naming the match (:func:`journal_header`: the players as
``--player`` spells them with their bidders, the seed, the qcards version and the SHA-256 of
every model file the players read), then one line a finished deal with its games
(:class:`~qcards.analysis.match.Game` as a JSON object, its record included). A deal's games
depend only on the players, the seed and the deal's number, so the deals of a journal can be
played in any order and by any number of workers. A journal of another match is refused, never
mixed in: a retrained model file or another seed starts a new journal.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from qcards.errors import FileError, ParameterError
from qcards.files import append_line, complete_lines, read_text, sha256_digest, start_lines

JOURNAL_FORMAT = "qcards-match-journal"
JOURNAL_BYTES = 2**30
"""The largest journal read: about 250,000 deals' games with their records."""


def journal_header(players: Sequence[Any], seed: int) -> dict[str, Any]:
    """The header of the journal of a match of ``players`` (match players) from ``seed``: the
    players' labels, a digest of each player's whole description (its parameters too, which a
    label may not show), the seed, the qcards version and the SHA-256 of the model files the
    players read (the play model's and the hand evaluator's files as the environment chooses
    them now, and every player's own file), keyed by their role: a journal moved with its
    files to another folder still resumes.

    Raises:
        ParameterError: a player is an outside program (``exec:COMMAND``), whose answers may
            depend on the deals it saw before: a resumed match could not promise the
            uninterrupted one's games.
    """
    from qcards.analysis.exec_player import EXEC
    from qcards.skat.learned import hand_value, network

    for player in players:
        if player.model == EXEC:
            raise ParameterError(
                "resume", f"{{resume}}: a match with the outside program {player.label} "
                "cannot be resumed (its answers may depend on the deals it has seen): leave "
                "out the journal",
            )  # fmt: skip
    files = {"the learned play model": network.model_file(),
             "the hand evaluator": hand_value.model_file()}  # fmt: skip
    for number, player in enumerate(players, start=1):
        if player.theta_file is not None:
            files[f"player {number}'s file"] = Path(player.theta_file)
    digests = {role: sha256_digest(path) for role, path in files.items()}  # contents, not paths
    described = [hashlib.sha256(repr(p).encode()).hexdigest()[:16] for p in players]
    return {"format": JOURNAL_FORMAT, "qcards": _version(), "seed": seed,
            "players": [p.label for p in players], "descriptions": described,
            "files": dict(sorted(digests.items()))}  # fmt: skip


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("qcards")
    except PackageNotFoundError:  # run from a source tree that was never installed
        return "unknown"


def read_journal(path: str | Path, header: dict[str, Any]) -> dict[int, list[dict]]:
    """The finished deals of the journal ``path`` (each its games as JSON objects), by deal
    number; ``{}`` when there is no file yet (:func:`start_journal` writes it). A last line
    cut short (the process stopped while writing it) is dropped from the file, ready for
    :func:`add_deal`, and that deal is played again (:func:`~qcards.files.start_lines`).

    Raises:
        FileError: the file is not a match journal, or a line of it is not a deal's games.
        ParameterError: it is the journal of another match (other players, seed, qcards
            version or model files).
    """
    path = Path(path)
    if not path.exists():
        return {}
    text = read_text(path, FileError, "the match journal", JOURNAL_BYTES)
    lines = complete_lines(text)
    try:
        found = json.loads(lines[0]) if lines else None
    except json.JSONDecodeError as exc:
        raise FileError(f"{{resume}} {path}: not a match journal ({exc})",
                        parameters=("resume",)) from None  # fmt: skip
    if not isinstance(found, dict) or found.get("format") != JOURNAL_FORMAT:
        raise FileError(f"{{resume}} {path}: not a match journal (no {JOURNAL_FORMAT} header)",
                        parameters=("resume",))  # fmt: skip
    if found != header:
        differ = sorted(k for k in set(found) | set(header) if found.get(k) != header.get(k))
        raise ParameterError(
            "resume", f"{{resume}} {path} is the journal of another match (its "
            f"{', '.join(differ)} differ): give a new file, or the match it journals",
        )  # fmt: skip
    deals: dict[int, list[dict]] = {}
    for number, line in enumerate(lines[1:], start=2):
        try:
            entry = json.loads(line)
            deal, games = int(entry["deal"]), entry["games"]
            if (
                deal < 0
                or not isinstance(games, list)
                or not all(isinstance(g, dict) and set(g) == GAME_FIELDS for g in games)
            ):
                raise ValueError("not a deal's games")
        except (json.JSONDecodeError, KeyError, TypeError, ValueError) as exc:
            raise FileError(f"{{resume}} {path}, line {number}: not a deal's games ({exc})",
                            parameters=("resume",)) from None  # fmt: skip
        deals[deal] = games
    start_lines(path, json.dumps(header), text)
    return deals


GAME_FIELDS = frozenset(("deal", "rotation", "seats", "declarer", "game", "bid", "won",
                         "declarer_points", "points", "record"))  # fmt: skip
"""The keys of a game in a journal (:class:`~qcards.analysis.match.Game`'s fields)."""


def start_journal(path: str | Path, header: dict[str, Any]) -> None:
    """Write the journal ``path`` with ``header`` alone when there is no file yet, so a path
    that cannot be written is found before the first deal is played."""
    if not Path(path).exists():
        start_lines(path, json.dumps(header), None)


def add_deal(path: str | Path, deal: int, games: list[dict]) -> None:
    """Append deal ``deal``'s games to the journal ``path`` (:func:`~qcards.files.append_line`)."""
    append_line(path, json.dumps({"deal": deal, "games": games}))
