"""Run XSkat headless and parse what it plays (for the fixture in tests/data/xskat/).

``xskat -auto N`` lets three computer players play N games with no X display at all (no Xvfb
needed), prints the three final list totals on stdout and exits.  Debian installs the program
as ``/usr/games/xskat`` (``/usr/games`` is often not on ``PATH``).

The cards come from a seed given in a ``-game`` file (``random_seed S K D``: seed S, skip to
game K of that seed's sequence, player D deals first); without one XSkat seeds from the clock.
The list file keeps only the last 360 games, so a run of more games is split into runs of
``CHUNK`` games, the k-th starting at game ``k*CHUNK`` of the same sequence with the dealer that
game has in one long run (CHUNK is a multiple of 3, so that is always player 2, the default):
the logs of the runs put together are byte for byte the log of one long run.

Rebuilding the fixture (tests/data/xskat/games.jsonl and raw/)::

    python tests/xskat_regen.py tests/data/xskat 2400 1999
    python tests/xskat_regen.py --rare tests/data/xskat 60000 2024     # rare.jsonl
"""

from __future__ import annotations

import gzip
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from xskat_log import parse_xskat, read_text  # noqa: E402

RULES = (
    "-newrules",
    "-noramsch",
    "-nokontra",
    "-nobock",
    "-nospitze",
    "-norevolution",
    "-noklopfen",
    "-noschenken",
)
"""The rule flags: official (ISkO 1999) scoring, no house rules."""

CHUNK = 300
"""Games per XSkat run (at most 360, which the list keeps; a multiple of 3, see above)."""

CANDIDATES = ("xskat", "/usr/games/xskat")


def find_xskat() -> str | None:
    """The xskat executable, or None if it is not installed."""
    for name in CANDIDATES:
        found = shutil.which(name)
        if found:
            return found
    return None


def command(exe: str, n: int, game_file: Path, log: Path, lst: Path) -> list[str]:
    """The command line of one run.

    ``-lang english``: the log's words otherwise follow $LANG (German under de_DE).  No
    ``-opt FILE``: together with ``-auto`` it makes xskat 4.0 crash (SIGSEGV); HOME is set to
    the work directory instead, so that no ``~/.xskat.opt`` of the user is read.
    """
    return [
        exe, "-auto", str(n), "-game", str(game_file), "-log", str(log), "-list", str(lst),
        "-lang", "english", *RULES,
    ]  # fmt: skip


def run(
    n: int, workdir: Path, seed: int, start: int = 0, timeout: float = 120.0, name: str = "run"
) -> tuple[Path, Path]:
    """Play games ``start .. start+n-1`` of ``seed``'s sequence; return (log, list) paths."""
    exe = find_xskat()
    if exe is None:
        raise RuntimeError(
            "xskat is not installed (Debian: apt-get install -y xskat; it lands in /usr/games)"
        )
    if not 1 <= n <= 360:
        raise ValueError("one XSkat run plays 1..360 games (its list keeps the last 360)")
    if start % 3:
        raise ValueError("start must be a multiple of 3 (the dealer is then player 2)")
    workdir = Path(workdir)
    workdir.mkdir(parents=True, exist_ok=True)
    log, lst = workdir / f"{name}.log", workdir / f"{name}.lst"
    game_file = workdir / f"{name}.seed"
    for stale in (log, lst):  # XSkat appends to the log and reads an existing list
        stale.unlink(missing_ok=True)
    game_file.write_text(f"random_seed {seed} {start} 2\n")
    env = {**os.environ, "HOME": str(workdir), "LANG": "C", "LC_ALL": "C"}
    env.pop("DISPLAY", None)
    cmd = command(exe, n, game_file, log, lst)
    try:
        proc = subprocess.run(
            cmd, cwd=workdir, env=env, capture_output=True, text=True, timeout=timeout,
            stdin=subprocess.DEVNULL,
        )  # fmt: skip
    except subprocess.TimeoutExpired:
        raise RuntimeError(
            f"xskat did not finish {n} games in {timeout} s: {' '.join(cmd)}"
        ) from None
    if proc.returncode != 0 or not log.exists() or not lst.exists():
        raise RuntimeError(
            f"xskat failed (exit {proc.returncode}): {' '.join(cmd)}\n{proc.stderr.strip()}"
        )
    return log, lst


def generate(
    n: int, workdir: Path, seed: int | None = None, timeout: float = 120.0
) -> list[dict[str, Any]]:
    """Let XSkat play ``n`` games from ``seed`` (random if None) and parse them.

    Returns :func:`xskat_log.parse_xskat` of all runs put together: the games that were played
    (everyone-passed games are skipped, so usually a few less than ``n``).  ``timeout`` bounds
    each run of at most ``CHUNK`` games (XSkat plays about 3,000 games a second).  Raises
    RuntimeError if xskat is missing, fails or hangs.
    """
    if seed is None:
        seed = random.SystemRandom().randrange(1, 2**31)
    games: list[dict[str, Any]] = []
    for k, start in enumerate(range(0, n, CHUNK)):
        log, lst = run(min(CHUNK, n - start), workdir, seed, start, timeout, f"run-{k}")
        games.extend(parse_xskat(read_text(log), read_text(lst)))
    return games


def write_fixture(out: Path, n: int, seed: int) -> dict[str, int]:
    """Play ``n`` games from ``seed``; write ``out/games.jsonl`` and the raw files (gzipped)
    to ``out/raw/``; return the counts."""
    out = Path(out)
    raw = out / "raw"
    raw.mkdir(parents=True, exist_ok=True)
    games: list[dict[str, Any]] = []
    counts = {"games": 0, "passed": 0, "played": 0}
    with tempfile.TemporaryDirectory() as tmp:
        for k, start in enumerate(range(0, n, CHUNK)):
            log, lst = run(min(CHUNK, n - start), Path(tmp), seed, start, name=f"run-{k}")
            for path in (log, lst):  # gzip without a name or time stamp: same bytes each time
                with open(raw / (path.name + ".gz"), "wb") as f:
                    f.write(gzip.compress(path.read_bytes(), 9, mtime=0))
            (raw / f"run-{k}.seed").write_text((Path(tmp) / f"run-{k}.seed").read_text())
        for k in range(len(range(0, n, CHUNK))):
            stats: dict[str, int] = {}
            games.extend(
                parse_xskat(
                    read_text(raw / f"run-{k}.log.gz"), read_text(raw / f"run-{k}.lst.gz"), stats
                )
            )
            for key in counts:
                counts[key] += stats[key]
    with open(out / "games.jsonl", "w") as f:
        for game in games:
            f.write(json.dumps(game, separators=(",", ":")) + "\n")
    return counts


def is_rare(game: dict[str, Any]) -> bool:
    """Games XSkat's players seldom play: null (Hand, ouvert Hand; won with no points counted,
    or lost), a lost Hand game, a suit Hand game, the declarer Schneider or Schwarz either way
    (30 points or fewer; every trick or none), a lost game with more than 60 points."""
    rec, won = game["record"], game["xskat"]["won"]
    points, tricks = rec["result"]["declarer_points"], rec["result"]["declarer_tricks"]
    if rec["game"] == "null":
        return True
    return (
        (rec["hand"] and (not won or rec["game"] != "grand"))
        or points <= 30
        or tricks in (0, 10)
        or (not won and points > 60)
    )


def write_rare(out: Path, n: int, seed: int) -> int:
    """Play ``n`` games from ``seed`` and write the rare ones (:func:`is_rare`) to
    ``out/rare.jsonl`` (the raw files are not kept: the seed regenerates them)."""
    with tempfile.TemporaryDirectory() as tmp:
        games = [g for g in generate(n, Path(tmp), seed) if is_rare(g)]
    with open(Path(out) / "rare.jsonl", "w") as f:
        for game in games:
            f.write(json.dumps(game, separators=(",", ":")) + "\n")
    return len(games)


if __name__ == "__main__":
    if sys.argv[1] == "--rare":
        out_dir, total, first_seed = Path(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
        print(write_rare(out_dir, total, first_seed), "rare games")
    else:
        out_dir, total, first_seed = Path(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
        print(write_fixture(out_dir, total, first_seed))
