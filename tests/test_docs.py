"""The documentation: runnable blocks give the output they show, links resolve, the README is short.

A code block is *runnable* when the line right before its opening fence is ``<!-- runnable -->``
(or ``<!-- runnable slow -->`` for one that takes more than a few seconds). Each line starting
with ``$ qcards`` is a command, run in-process from the repository root; the lines after it, up to
the next command or the end of the block, are what it prints (stdout and stderr together). A
line ``...`` stands for any number of lines, and ``...`` inside a line for any text (for
figures that differ between machines). A command whose expected output has an ``error:``
line must exit with status 2, any other with 0. A block right after ``<!-- file: PATH -->`` shows
the file PATH (the blocks of a page naming the same file, in order, are the whole file), so a
runnable command can read what the page shows. docs/development.md describes the conventions
for writers.
"""

from __future__ import annotations

import contextlib
import io
import re
import shlex
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
README_MAX_LINES = 250
DOCS = [README, *sorted((ROOT / "docs").rglob("*.md"))]
DOCS = [p for p in DOCS if "_build" not in p.parts and "jupyter_execute" not in p.parts]

MARKER = re.compile(r"^<!--\s*runnable(?P<slow>\s+slow)?\s*-->\s*$")
FILE_MARKER = re.compile(r"^<!--\s*file:\s*(?P<path>\S+)\s*-->\s*$")
FENCE = re.compile(r"^(?P<fence>`{3,}|~{3,})")
ELLIPSIS = "..."


@dataclass(frozen=True)
class Command:
    path: Path
    line: int  # 1-based line of the command in its file
    argv: tuple[str, ...]
    expected: tuple[str, ...]
    slow: bool

    @property
    def id(self) -> str:
        return f"{self.path.relative_to(ROOT)}:{self.line}"


def runnable_commands(path: Path) -> list[Command]:
    """Every command of every runnable block in ``path``."""
    lines = path.read_text(encoding="utf-8").splitlines()
    commands: list[Command] = []
    i = 0
    while i < len(lines):
        marker = MARKER.match(lines[i])
        fence = FENCE.match(lines[i + 1]) if marker and i + 1 < len(lines) else None
        if not fence:
            if marker:
                raise AssertionError(f"{path}:{i + 1}: a runnable marker must precede a fence")
            i += 1
            continue
        close, start = fence["fence"], i + 2
        end = start
        while end < len(lines) and not lines[end].startswith(close):
            end += 1
        body = lines[start:end]
        current: tuple[int, str] | None = None
        output: list[str] = []
        for k, text in enumerate(body):
            if text.startswith("$ "):
                if current:
                    commands.append(_command(path, current, output, bool(marker["slow"])))
                current, output = (start + k + 1, text[2:]), []
            elif current is None:
                raise AssertionError(f"{path}:{start + k + 1}: a runnable block starts with $")
            else:
                output.append(text)
        if current is None:
            raise AssertionError(f"{path}:{i + 1}: a runnable block without a command")
        commands.append(_command(path, current, output, bool(marker["slow"])))
        i = end + 1
    return commands


def _command(path: Path, current: tuple[int, str], output: list[str], slow: bool) -> Command:
    line, text = current
    argv = shlex.split(text, comments=True)
    if not argv or argv[0] != "qcards":
        raise AssertionError(f"{path}:{line}: runnable commands are qcards commands: {text!r}")
    return Command(path, line, tuple(argv[1:]), tuple(output), slow)


def output_matches(expected: list[str], actual: list[str]) -> bool:
    """Line by line, trailing spaces and blank lines at the end ignored; ``...`` matches any run
    of lines (none included)."""
    expected = _trim(expected)
    actual = _trim(actual)

    def match(e: int, a: int) -> bool:
        if e == len(expected):
            return a == len(actual)
        if expected[e] == ELLIPSIS:
            return any(match(e + 1, k) for k in range(a, len(actual) + 1))
        return a < len(actual) and _line_matches(expected[e], actual[a]) and match(e + 1, a + 1)

    return match(0, 0)


def _line_matches(expected: str, actual: str) -> bool:
    """Equal, or equal with each ``...`` inside the expected line standing for any text."""
    if ELLIPSIS not in expected:
        return expected == actual
    pattern = ".*".join(re.escape(part) for part in expected.split(ELLIPSIS))
    return re.fullmatch(pattern, actual) is not None


def _trim(lines: list[str]) -> list[str]:
    lines = [line.rstrip() for line in lines]
    while lines and not lines[-1]:
        lines.pop()
    return lines


def _all_commands() -> list[Command]:
    return [command for path in DOCS for command in runnable_commands(path)]


def _params() -> list:
    return [
        pytest.param(command, id=command.id, marks=[pytest.mark.slow] if command.slow else [])
        for command in _all_commands()
    ]


@pytest.mark.parametrize("command", _params())
def test_runnable_block(command: Command, monkeypatch):
    from qcards.cli import main

    monkeypatch.chdir(ROOT)
    buffer = io.StringIO()
    with contextlib.redirect_stdout(buffer), contextlib.redirect_stderr(buffer):
        status = main(list(command.argv))
    actual = buffer.getvalue().splitlines()
    expected_status = 2 if any(line.startswith("error:") for line in command.expected) else 0
    assert output_matches(list(command.expected), actual), (
        f"{command.id}: `qcards {shlex.join(command.argv)}` printed\n"
        + "\n".join(actual)
        + _unpinned()
    )
    assert status == expected_status, f"{command.id}: exit status {status}"


def _unpinned() -> str:
    """What a failure adds when the installed versions are not constraints.txt's (the
    documented outputs were made with those)."""
    from test_constraints import differences

    moved = differences()
    if not moved:
        return ""
    return "\n\nnot the versions the documentation was made with: " + ", ".join(moved)


def test_runnable_blocks_exist():
    """The README and the pages keep some runnable blocks, so the convention stays in use."""
    paths = {command.path for command in _all_commands()}
    assert README in paths
    assert len(paths) >= 5


def test_output_matching():
    assert output_matches(["a", "...", "d"], ["a", "b", "c", "d"])
    assert output_matches(["a", "..."], ["a"])
    assert output_matches(["...", "c", "..."], ["a", "b", "c", "d"])
    assert output_matches(["a  ", ""], ["a"])
    assert not output_matches(["a", "b"], ["a", "c"])
    assert not output_matches(["a"], ["a", "b"])
    assert not output_matches(["...", "x"], ["a", "b"])
    assert output_matches(["depth ..., 15 qubits"], ["depth 1265, 15 qubits"])
    assert not output_matches(["depth ..., 15 qubits"], ["depth 1265, 16 qubits"])
    assert output_matches(["p_win ... from"], ["p_win 0.2970 from"])
    assert not output_matches(["p_win ... from"], ["p_win 0.2970 in"])


def test_runnable_parser(tmp_path):
    page = tmp_path / "page.md"
    page.write_text(
        "text\n<!-- runnable slow -->\n```console\n$ qcards tables --json  # note\n{\n...\n"
        "$ qcards cats deduce --cards 7H --call red\nout\n```\n\n```console\n$ qcards no\n```\n"
    )
    commands = runnable_commands(page)
    assert [c.argv for c in commands] == [
        ("tables", "--json"),
        ("cats", "deduce", "--cards", "7H", "--call", "red"),
    ]
    assert commands[0].expected == ("{", "...") and commands[1].expected == ("out",)
    assert all(c.slow for c in commands) and commands[1].line == 7


def test_readme_is_short():
    lines = README.read_text(encoding="utf-8").splitlines()
    assert len(lines) <= README_MAX_LINES, f"README.md has {len(lines)} lines"


def test_readme_keeps_the_setup_commands():
    """.ci/run finds the README's two set-up commands with these patterns."""
    text = README.read_text(encoding="utf-8")
    assert re.search(r"(?m)^python3 -m venv \.venv && .* qcards reproduce$", text)
    assert re.search(r"(?m)^python3 -m venv \.venv && .* pytest$", text)


LINK = re.compile(r"!?\[[^\]]*\]\((?P<target>[^)\s]+)(?:\s+\"[^\"]*\")?\)")


def _relative_links(path: Path) -> list[str]:
    text = path.read_text(encoding="utf-8")
    text = re.sub(r"(?ms)^(`{3,}|~{3,}).*?^\1", "", text)  # not inside code blocks
    text = re.sub(r"`[^`\n]*`", "", text)  # nor inside inline code
    targets = [m["target"] for m in LINK.finditer(text)]
    return [t for t in targets if not re.match(r"^[a-z][a-z0-9+.-]*:", t) and t[0] != "#"]


@pytest.mark.parametrize("path", DOCS, ids=lambda p: str(p.relative_to(ROOT)))
def test_relative_links_resolve(path: Path):
    """Every relative link (and image) of the README and the pages names an existing file, so
    they work on GitHub as in the site."""
    missing = [
        target
        for target in _relative_links(path)
        if not (path.parent / target.split("#", 1)[0]).exists()
    ]
    assert not missing, f"{path.relative_to(ROOT)}: links to missing files: {missing}"


def test_readme_links_into_the_docs():
    targets = {t.split("#", 1)[0] for t in _relative_links(README)}
    pages = ["getting-started", "how-to/reproduce", "how-to/count", "api/index", "benchmarks"]
    assert {f"docs/{page}.md" for page in pages} <= targets


def test_public_api_is_documented():
    """The API reference lists every name of ``qcards.__all__``."""
    import qcards

    text = (ROOT / "docs" / "api" / "index.md").read_text(encoding="utf-8")
    missing = [name for name in qcards.__all__ if f"`qcards.{name}`" not in text]
    assert not missing, f"docs/api/index.md does not list {missing}"


def shown_files(path: Path) -> dict[str, list[list[str]]]:
    """The blocks of ``path`` that show a file (``<!-- file: PATH -->`` before the fence), by
    file, in page order."""
    lines = path.read_text(encoding="utf-8").splitlines()
    shown: dict[str, list[list[str]]] = {}
    for i, line in enumerate(lines):
        marker = FILE_MARKER.match(line)
        if not marker:
            continue
        fence = FENCE.match(lines[i + 1]) if i + 1 < len(lines) else None
        if not fence:
            raise AssertionError(f"{path}:{i + 1}: a file marker must precede a fence")
        end = i + 2
        while end < len(lines) and not lines[end].startswith(fence["fence"]):
            end += 1
        shown.setdefault(marker["path"], []).append(lines[i + 2 : end])
    return shown


def _shown_file_params() -> list:
    return [
        pytest.param(page, name, blocks, id=f"{page.relative_to(ROOT)}:{name}")
        for page in DOCS
        for name, blocks in shown_files(page).items()
    ]


@pytest.mark.parametrize(("page", "name", "blocks"), _shown_file_params())
def test_shown_files_are_the_files(page: Path, name: str, blocks: list[list[str]]):
    """What a page shows of a file is that file, so the runnable commands that read it run
    what the reader sees."""
    path = ROOT / name
    assert path.is_file(), f"{page.relative_to(ROOT)} shows {name}, which does not exist"
    shown = "\n\n".join("\n".join(block) for block in blocks) + "\n"
    assert shown == path.read_text(encoding="utf-8"), (
        f"{page.relative_to(ROOT)}: its blocks differ from {name}; copy one into the other"
    )


def test_the_spec_page_shows_a_spec_with_a_prior_that_runs():
    """The spec page's format block and its [prior] block are one file that a runnable command
    of the page evaluates."""
    page = ROOT / "docs" / "how-to" / "write-a-spec.md"
    (name,) = shown_files(page)
    assert any(block[0] == "[prior]" for block in shown_files(page)[name])
    assert any(name in command.argv for command in runnable_commands(page))


def test_shown_files_parser(tmp_path):
    page = tmp_path / "page.md"
    page.write_text(
        "<!-- file: a.toml -->\n```toml\nx = 1\n```\n\n<!-- file: a.toml -->\n"
        "```toml\n[t]\ny = 2\n```\n"
    )
    assert shown_files(page) == {"a.toml": [["x = 1"], ["[t]", "y = 2"]]}


NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb"))


@pytest.mark.parametrize("notebook", NOTEBOOKS, ids=lambda p: p.name)
def test_notebook_titles_are_numbered(notebook: Path):
    """Every tutorial starts with ``# NN · Title``, NN its file's number."""
    import json

    cells = json.loads(notebook.read_text(encoding="utf-8"))["cells"]
    first = next(cell for cell in cells if cell["cell_type"] == "markdown")
    title = "".join(first["source"]).splitlines()[0]
    number = notebook.name[:2]
    assert re.fullmatch(rf"# {number} · \S.*", title), f"{notebook.name}: title {title!r}"


def test_tutorials_index_lists_every_notebook():
    """docs/tutorials/ links every notebook of notebooks/ and its index lists each in the table
    and in the table of contents."""
    index = (ROOT / "docs" / "tutorials" / "index.md").read_text(encoding="utf-8")
    assert len(NOTEBOOKS) == 9
    for notebook in NOTEBOOKS:
        link = ROOT / "docs" / "tutorials" / notebook.name
        assert link.resolve() == notebook.resolve(), f"docs/tutorials/{notebook.name}"
        assert f"`{notebook.name}`" in index
        assert re.search(rf"(?m)^{re.escape(notebook.stem)}$", index), notebook.stem


def _site_config() -> dict:
    import runpy

    return runpy.run_path(str(ROOT / "docs" / "conf.py"))


def test_the_site_runs_the_notebooks():
    """The tutorials show outputs: the build executes them (through a cache), and a failing
    cell fails it."""
    config = _site_config()
    assert config["nb_execution_mode"] == "cache"
    assert config["nb_execution_raise_on_error"] is True
    assert 0 < config["nb_execution_timeout"] <= 600


def test_the_site_serves_mathjax_itself():
    """Math renders without a network: MathJax is a static file of the site."""
    config = _site_config()
    path = config["mathjax_path"]
    assert "://" not in path and not path.startswith("//")
    assert any((Path(d) / path).is_file() for d in config["html_static_path"])


TRACKER_WORDS = re.compile(r"\bissues? #?\d+\b|\bthe issue'?s? target", re.IGNORECASE)
"""How a page speaks of the project's tracker instead of the project: "issue 19", "the issue's
target"."""


@pytest.mark.parametrize("page", [*DOCS, *NOTEBOOKS], ids=lambda p: str(p.relative_to(ROOT)))
def test_user_pages_speak_of_the_project_not_its_tracker(page: Path):
    """A reader of the site never met the tracker: no page names an issue by number."""
    found = TRACKER_WORDS.findall(page.read_text(encoding="utf-8"))
    assert not found, f"{page.relative_to(ROOT)}: {found}"


def test_tracker_words_are_caught():
    assert TRACKER_WORDS.search("as issue 20 asked") and TRACKER_WORDS.search("the issue's target")
    assert TRACKER_WORDS.search("see issue #19")
    assert not TRACKER_WORDS.search("an issue with 3 cards")
