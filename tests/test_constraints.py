"""constraints.txt, the versions the documented outputs and the tests were made with: it pins
every package that qcards and each of its extras require, each once and exactly (``==``), so
the README's install commands (``pip install -c constraints.txt ...``) leave pip no choice.
docs/development.md says how the file is regenerated."""

from __future__ import annotations

import re
from importlib.metadata import PackageNotFoundError, requires, version
from pathlib import Path

from packaging.requirements import Requirement

ROOT = Path(__file__).resolve().parent.parent
CONSTRAINTS = ROOT / "constraints.txt"
PIN = re.compile(r"^(?P<name>[A-Za-z0-9][A-Za-z0-9._-]*)==(?P<version>[^\s;#]+)$")


def normal(name: str) -> str:
    """A distribution name as pip compares it (PEP 503)."""
    return re.sub(r"[-_.]+", "-", name).lower()


def pins() -> dict[str, str]:
    """Each pinned distribution's normalised name and version (the lines of constraints.txt)."""
    found: dict[str, str] = {}
    for number, line in enumerate(CONSTRAINTS.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip() or line.startswith("#"):
            continue
        match = PIN.match(line.strip())
        assert match, f"constraints.txt:{number}: not a pin NAME==VERSION: {line!r}"
        name = normal(match["name"])
        assert name not in found, f"constraints.txt:{number}: {name} pinned twice"
        found[name] = match["version"]
    return found


def required() -> set[str]:
    """Every distribution qcards requires, with every extra (one level: the extras' own
    requirements are pinned as installed by pip freeze)."""
    names = set()
    for text in requires("qcards") or []:
        requirement = Requirement(text)
        if normal(requirement.name) != "qcards":
            names.add(normal(requirement.name))
    return names


def test_every_requirement_is_pinned():
    missing = sorted(required() - set(pins()))
    assert not missing, f"constraints.txt does not pin {missing}: regenerate it"


def test_qcards_itself_is_not_pinned():
    assert "qcards" not in pins()


def differences() -> list[str]:
    """The installed packages whose version is not the pinned one (empty on a pinned
    install): what tests/test_docs.py names when a documented output does not match."""
    out = []
    for name, pinned in sorted(pins().items()):
        try:
            installed = version(name)
        except PackageNotFoundError:
            continue
        if installed != pinned:
            out.append(f"{name} {installed} (pinned {pinned})")
    return out


def test_the_differences_are_named():
    assert all(" (pinned " in line for line in differences())
