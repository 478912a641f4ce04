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
from qcards.files import read_text, write_text

JOURNAL_FORMAT = "qcards-match-journal"
JOURNAL_BYTES = 2**30
"""The largest journal read: about 250,000 deals' games with their records."""


def journal_header(players: Sequence[Any], seed: int) -> dict[str, Any]:
    """The header of the journal of a match of ``players`` (match players) from ``seed``."""
    from qcards.skat.learned import hand_value, network

    files = {str(network.SHIPPED.name): network.SHIPPED, "hand_model.npz": hand_value.SHIPPED}
    for player in players:
        if player.theta_file is not None:
            files[str(player.theta_file)] = Path(player.theta_file)
    digests = {name: _sha256(path) for name, path in sorted(files.items())}
    return {"format": JOURNAL_FORMAT, "qcards": _version(), "seed": seed,
            "players": [p.label for p in players], "files": digests}  # fmt: skip


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("qcards")
    except PackageNotFoundError:  # run from a source tree that was never installed
        return "unknown"


def _sha256(path: Path) -> str | None:
    try:
        return hashlib.sha256(path.read_bytes()).hexdigest()
    except OSError:
        return None


def read_journal(path: str | Path, header: dict[str, Any]) -> dict[int, list[dict]]:
    """The finished deals of the journal ``path`` (each its games as JSON objects), by deal
    number; ``{}`` when there is no file yet.

    Raises:
        FileError: the file is not a match journal.
        ParameterError: it is the journal of another match (other players, seed, qcards
            version or model files).
    """
    path = Path(path)
    if not path.exists():
        return {}
    lines = read_text(path, FileError, "the match journal", JOURNAL_BYTES).splitlines()
    try:
        found = json.loads(lines[0]) if lines else None
        deals = {int(e["deal"]): e["games"] for e in map(json.loads, lines[1:]) if e}
    except (json.JSONDecodeError, KeyError, TypeError, ValueError) as exc:
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
    return deals


def write_journal(path: str | Path, header: dict[str, Any], deals: dict[int, list[dict]]) -> None:
    """Write the journal ``path``: ``header`` and ``deals`` (by deal number) in deal order,
    atomically (an interruption leaves the last complete journal)."""
    lines = [json.dumps(header)] + [json.dumps({"deal": d, "games": deals[d]})
                                    for d in sorted(deals)]  # fmt: skip
    write_text(path, "\n".join(lines) + "\n")
