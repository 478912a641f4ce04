"""The stored plain-referee answers (tests/plain_referee_store.py) are the plain referee's."""

from __future__ import annotations

import plain_referee_store as store
import pytest

from qcards.skat.solvers import plain_referee as referee


def groups() -> dict[str, list[str]]:
    """The stored entries by (spec, model), the unit the plain referee computes in one search."""
    table: dict[str, list[str]] = {}
    for key in store.stored():
        spec, model, _first = key.split(" ")
        table.setdefault(f"{spec} {model}", []).append(key)
    return table


def test_the_store_holds_the_slow_specs_and_nothing_stale():
    specs = {store.spec_key(spec): spec for spec in store.crosscheck_specs()}
    assert len(groups()) >= 10, "the store is missing: run python tests/plain_referee_store.py"
    for key in store.stored():
        spec_key, model, first = key.split(" ")
        assert spec_key in specs, f"{key}: no cross-check spec has this TOML any more"
        assert model in referee.MODELS
        spec = specs[spec_key]
        assert first in {str(card) for card in store.every_first(spec)} | {"-"}
    for group, keys in groups().items():
        spec = specs[group.split(" ")[0]]
        assert len(keys) == len(store.every_first(spec)), f"{group}: a first card is missing"


@pytest.mark.slow  # the plain referee on the two cheapest stored searches, about 2 s
def test_the_cheapest_stored_searches_are_what_the_plain_referee_computes():
    seconds = store.stored_seconds()
    specs = {store.spec_key(spec): spec for spec in store.crosscheck_specs()}
    for group in sorted(seconds, key=seconds.get)[:2]:
        spec_key, model = group.split(" ")
        spec = specs[spec_key]
        firsts = store.every_first(spec)
        live = referee.evaluate_each(spec, model, firsts)
        assert store.evaluate_each(spec, model, firsts) == live, group
