"""Docstrings state what the code does and promises, not when or on what it was measured.

Every module, class and function docstring under ``qcards/`` (and the attribute docstrings, the
string right after an assignment that documents a constant) is checked for the marks of a lab
diary: an ISO date, a machine load, an issue number. Measurements belong in
``benchmarks/results/``; a docstring may name the file that holds them.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "qcards"

# diaries still to cut (being edited elsewhere)
PENDING: set[str] = set()
"""Files (relative to the repository) whose docstrings may still break :data:`RULES`."""

RULES = {
    "an ISO date": re.compile(r"\b20\d\d-\d\d-\d\d\b"),
    "a machine load": re.compile(r"\b[Ll]oad (average )?\d"),
    "an issue number": re.compile(r"\b[Ii]ssues? \d+"),
}
"""What a docstring must not hold, by name."""


def violations(text: str) -> list[tuple[int, str, str]]:
    """Every break of :data:`RULES` in the docstring ``text``: (line within ``text``, counted
    from 0, the rule's name, the offending line)."""
    out = []
    for name, pattern in RULES.items():
        for match in pattern.finditer(text):
            line = text.count("\n", 0, match.start())
            out.append((line, name, text.splitlines()[line].strip()))
    return sorted(out)


def docstrings(tree: ast.Module) -> Iterator[tuple[int, str]]:
    """(first line, text) of every docstring of a module: the module's, each class's and
    function's, and each attribute docstring (a string statement right after an assignment)."""
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if not isinstance(body, list):
            continue
        documented = isinstance(
            node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef
        )
        for i, statement in enumerate(body):
            if not (
                isinstance(statement, ast.Expr)
                and isinstance(statement.value, ast.Constant)
                and isinstance(statement.value.value, str)
            ):
                continue
            after_assignment = i > 0 and isinstance(body[i - 1], ast.Assign | ast.AnnAssign)
            if (documented and i == 0) or after_assignment:
                yield statement.lineno, statement.value.value


def file_violations(path: Path, root: Path = ROOT) -> list[str]:
    """``file:line: rule: text`` for every break of :data:`RULES` in ``path``'s docstrings
    (``file`` relative to ``root``)."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    name = path.relative_to(root).as_posix()
    return [
        f"{name}:{first + line}: {rule}: {text!r}"
        for first, doc in docstrings(tree)
        for line, rule, text in violations(doc)
    ]


SOURCES = sorted(PACKAGE.rglob("*.py"))


def test_the_sources_are_found():
    assert len(SOURCES) > 100
    assert all((ROOT / name).is_file() for name in PENDING), "a PENDING file no longer exists"


def test_no_docstring_is_a_lab_diary():
    found = [
        v
        for path in SOURCES
        if path.relative_to(ROOT).as_posix() not in PENDING
        for v in file_violations(path)
    ]
    assert not found, "docstrings with a date, a machine load or an issue number:\n" + "\n".join(
        found
    )


def test_every_pending_file_still_needs_its_cut():
    """A PENDING file whose docstrings are clean must leave the set (so it is checked again)."""
    clean = [name for name in sorted(PENDING) if not file_violations(ROOT / name)]
    assert not clean, f"clean now, remove from PENDING: {clean}"


def test_the_checker_reports_a_date_a_load_and_an_issue():
    text = "The rate.\n\nMeasured on 2026-11-27 at load 12 on two cores (issue 41, item 2)."
    assert violations(text) == [
        (2, "a machine load", text.splitlines()[2]),
        (2, "an ISO date", text.splitlines()[2]),
        (2, "an issue number", text.splitlines()[2]),
    ]
    assert violations("Load average 3.2.")[0][1] == "a machine load"
    assert violations("It loads 12 files; the issues of 20-card deals; 2026-11.") == []
    assert violations("The widest line: no table is wider than 100 columns.") == []


def test_the_checker_finds_a_dated_docstring_in_a_module(tmp_path):
    source = tmp_path / "qcards" / "sample.py"
    source.parent.mkdir()
    source.write_text(
        '"""A module."""\n\nRATE = 1.0\n"""Paths a second (measured 2026-11-27)."""\n\n\n'
        'def f():\n    """Nothing\n    since issue 54."""\n',
        encoding="utf-8",
    )
    assert file_violations(source, tmp_path) == [
        "qcards/sample.py:4: an ISO date: 'Paths a second (measured 2026-11-27).'",
        "qcards/sample.py:9: an issue number: 'since issue 54.'",
    ]
