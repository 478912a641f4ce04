"""One loader for every registry's entry points (``qcards.plugins``) and its one rule: a name
taken twice in a group -- by two entry points, or by an entry point and a built-in -- is a
``PluginError`` naming the group, the name and both providers, in every registry and in the
CLI (one ``error:`` line, exit status 2). Entry points are faked by replacing
``importlib.metadata.entry_points`` for the group under test."""

from __future__ import annotations

import importlib.metadata
from types import SimpleNamespace

import pytest

from qcards.analysis.methods import registry as methods
from qcards.circuits import construction
from qcards.cli import main
from qcards.errors import PluginError, QcardsError
from qcards.estimation import algorithms
from qcards.plugins import entry_points_by_name, load_group, load_record
from qcards.skat.players import play_models
from qcards.skat.solvers import objectives

from conftest import REPO

FOUR = str(REPO / "qcards" / "specs" / "four-card.toml")


class _Entry:
    """An entry point of a distribution: only its name, value and distribution are read
    until it is loaded, and loading gives ``record``."""

    def __init__(self, group: str, name: str, value: str, dist: str, record=None) -> None:
        self.group, self.name, self.value = group, name, value
        self.dist = SimpleNamespace(name=dist, version="1.0")
        self._record = record

    def load(self):
        if self._record is None:
            raise AssertionError(f"{self.value} was imported")
        if isinstance(self._record, Exception):
            raise self._record
        return self._record


def _forget() -> None:
    construction.reload_constructions()
    algorithms.registry.cache_clear()
    play_models.registry.cache_clear()
    objectives.registry.cache_clear()
    methods.reload_methods()


@pytest.fixture
def installed(monkeypatch):
    """``installed(*entries)`` adds fake entry points to the groups they name (beside the real
    ones: qcards' own constructions, qiskit's plugins) for the test; the registries are read
    again before and after."""
    real = importlib.metadata.entry_points

    def install(*entries: _Entry) -> None:
        def entry_points(*args, **kwargs):
            group, name = kwargs.get("group"), kwargs.get("name")
            if group is None:
                return real(*args, **kwargs)
            fake = [e for e in entries if e.group == group and name in (None, e.name)]
            return [*real(*args, **kwargs), *fake]

        monkeypatch.setattr(importlib.metadata, "entry_points", entry_points)
        _forget()

    yield install
    monkeypatch.undo()
    _forget()


REGISTRIES = {
    "qcards.constructions": (construction.construction_names, "paper"),
    "qcards.estimation_algorithms": (algorithms.algorithm_names, "iae"),
    "qcards.play_models": (play_models.model_names, "random"),
    "qcards.objectives": (objectives.objective_names, "win"),
    "qcards.evaluation_methods": (methods.method_names, "classical"),
}
"""Each group: what reads its registry, and one of its built-in names."""


@pytest.mark.parametrize("group", sorted(REGISTRIES))
def test_two_plugins_of_one_name_are_an_error_naming_both(installed, group):
    names, _ = REGISTRIES[group]
    installed(
        _Entry(group, "twin", "first_pkg:TWIN", "first-pkg"),
        _Entry(group, "twin", "second_pkg:TWIN", "second-pkg"),
    )
    with pytest.raises(PluginError) as raised:
        names()
    message = str(raised.value)
    assert f"'twin' in the entry-point group {group} is taken twice" in message
    assert "by first_pkg:TWIN from first-pkg 1.0 and by second_pkg:TWIN from second-pkg 1.0" in (
        message
    )


@pytest.mark.parametrize("group", sorted(REGISTRIES))
def test_a_plugin_called_like_a_built_in_is_an_error_naming_both(installed, group):
    names, built_in = REGISTRIES[group]
    installed(_Entry(group, built_in, "third_pkg:RECORD", "third-pkg"))
    with pytest.raises(PluginError) as raised:
        names()
    message = str(raised.value)
    assert f"{built_in!r} in the entry-point group {group} is taken twice" in message
    assert "and by third_pkg:RECORD from third-pkg 1.0" in message
    if group == "qcards.constructions":  # qcards' own are entry points too: named as such
        assert f"by qcards.circuits.syntheses.records:{built_in.upper()} from qcards " in message
    else:
        assert "by qcards' own record and" in message


def test_a_plugin_cannot_take_the_methods_reserved_name(installed):
    installed(_Entry(methods.ENTRY_POINT_GROUP, "auto", "auto_pkg:AUTO", "auto-pkg"))
    with pytest.raises(PluginError, match="'auto' in .* by qcards' own record and by auto_pkg"):
        methods.method_names()


def test_constructions_read_by_name_obey_the_rule(installed):
    """Constructions load one name at a time; asking for any name reads the whole group's
    names first, so a name taken twice is refused before anything is imported."""
    group = construction.ENTRY_POINT_GROUP
    installed(_Entry(group, "twin", "a:TWIN", "a"), _Entry(group, "twin", "b:TWIN", "b"))
    with pytest.raises(PluginError, match="'twin' .* by a:TWIN from a 1.0 and by b:TWIN"):
        construction.get_construction("twin")


def test_the_cli_prints_the_error_as_one_line(installed, capsys):
    group = play_models.ENTRY_POINT_GROUP
    installed(
        _Entry(group, "twin", "first_pkg:TWIN", "first-pkg"),
        _Entry(group, "twin", "second_pkg:TWIN", "second-pkg"),
    )
    assert main(["evaluate", FOUR, "--json"]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    (line,) = captured.err.splitlines()
    assert line.startswith("error: the name 'twin' in the entry-point group qcards.play_models")
    assert "first_pkg:TWIN from first-pkg 1.0" in line and "second_pkg:TWIN" in line


# ----------------------------------------------------------------------------- the loader


@pytest.fixture
def group(monkeypatch):
    """``group(*entries)``: the entry points of the group ``probe.group`` are exactly these."""
    real = importlib.metadata.entry_points

    def install(*entries: _Entry) -> None:
        def entry_points(*args, **kwargs):
            if kwargs.get("group") != "probe.group":
                return real(*args, **kwargs)
            return list(entries)

        monkeypatch.setattr(importlib.metadata, "entry_points", entry_points)

    return install


def _probe(name: str, value: str = "", dist: str = "probe-pkg", record=None) -> _Entry:
    return _Entry("probe.group", name, value or f"probe_pkg:{name.upper()}", dist, record)


def test_the_entry_points_by_name_import_nothing(group):
    group(_probe("a"), _probe("b"))
    found = entry_points_by_name("probe.group", built_in=("c",))
    assert list(found) == ["a", "b"]  # not loaded: _Entry.load would have failed


def test_one_object_named_twice_is_one_provider(group):
    """One package seen twice on the path (two entry points naming the same object) is not a
    second provider."""
    group(_probe("a", "pkg:A", "pkg"), _probe("a", "pkg:A", "pkg-copy"))
    assert list(entry_points_by_name("probe.group")) == ["a"]


def test_three_providers_are_all_named(group):
    group(_probe("a", "x:A", "x"), _probe("a", "y:A", "y"))
    with pytest.raises(PluginError) as raised:
        entry_points_by_name("probe.group", built_in=("a",))
    assert str(raised.value) == (
        "the name 'a' in the entry-point group probe.group is taken 3 times: by qcards' own "
        "record, by x:A from x 1.0 and by y:A from y 1.0; uninstall or rename all but one"
    )


def test_a_provider_without_a_distribution_is_named_by_its_value(group):
    twin = _probe("a", "x:A")
    twin.dist = None
    group(twin, _probe("a", "y:A", "y"))
    with pytest.raises(PluginError, match="by x:A and by y:A from y 1.0"):
        entry_points_by_name("probe.group")


def test_load_group_adds_the_plugins_after_the_built_ins(group):
    record = SimpleNamespace(name="b")
    group(_probe("b", record=record))
    built = SimpleNamespace(name="a")
    assert load_group("probe.group", [built], SimpleNamespace) == {"a": built, "b": record}


@pytest.mark.parametrize(
    ("record", "message"),
    [
        (ImportError("no module named probe_pkg"), "failed to load: no module named probe_pkg"),
        ("a string", "must be a qcards SimpleNamespace called 'a', not 'a string'"),
        (SimpleNamespace(name="b"), "must be a qcards SimpleNamespace called 'a', not namespace"),
    ],
)
def test_a_broken_plugin_is_named(record, message):
    entry = _probe("a", record=record)
    with pytest.raises(PluginError) as raised:
        load_record("probe.group", entry, SimpleNamespace)
    assert str(raised.value).startswith(
        "the plugin 'a' of probe.group (probe_pkg:A from probe-pkg 1.0) "
    )
    assert message in str(raised.value)


def test_the_error_is_a_qcards_error():
    assert issubclass(PluginError, QcardsError)


def test_real_distributions_are_named(tmp_path, monkeypatch):
    """With two installed distributions (their metadata on the path, as ``pip install``
    writes it) declaring one objective, the error names both by their metadata."""
    for dist in ("first_probe", "second_probe"):
        info = tmp_path / f"{dist}-0.3.dist-info"
        info.mkdir()
        info.joinpath("METADATA").write_text(
            f"Metadata-Version: 2.1\nName: {dist.replace('_', '-')}\nVersion: 0.3\n"
        )
        info.joinpath("entry_points.txt").write_text(f"[qcards.objectives]\ntwin = {dist}:TWIN\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    objectives.registry.cache_clear()
    try:
        with pytest.raises(PluginError) as raised:
            objectives.get_objective("win")
    finally:
        monkeypatch.undo()
        objectives.registry.cache_clear()
    message = str(raised.value)  # the path lists the two in no set order
    assert "'twin' in the entry-point group qcards.objectives is taken twice" in message
    assert "first_probe:TWIN from first-probe 0.3" in message
    assert "second_probe:TWIN from second-probe 0.3" in message


def test_the_former_names_are_aliases_of_the_loader(group):
    from qcards.skat.plugins import lookup, with_plugins

    record = SimpleNamespace(name="b")
    group(_probe("b", record=record), _probe("b", "other_pkg:B", "other-pkg"))
    with pytest.raises(PluginError, match="'b' .* taken twice"):  # no longer skipped
        with_plugins("probe.group", [], SimpleNamespace, "probe", ValueError)
    group(_probe("b", record=record))
    records = with_plugins("probe.group", [], SimpleNamespace, "probe", ValueError)
    assert lookup(records, "b", SimpleNamespace, lambda: KeyError("b")) is record
