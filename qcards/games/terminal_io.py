"""Reading a player's line at the terminal, shared by the games' terminal front ends."""

from __future__ import annotations

from typing import TextIO


def read_line(inp: TextIO, out: TextIO, prompt: str, ended: Exception) -> str:
    """Prompt on ``out`` and read one line from ``inp``, stripped; at the end of input, raise
    ``ended`` (the front end's way of stopping the game unfinished).

    When ``inp`` is not a terminal (a script or a test), the line read is echoed, so the
    transcript on ``out`` reads like a session at the keyboard.
    """
    out.write(prompt)
    line = inp.readline()
    if not line:
        raise ended
    if not inp.isatty():
        out.write(line.rstrip("\n") + "\n")
    return line.strip()
