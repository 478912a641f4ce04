"""Fuzzing priors and histories: generated ``[prior]`` tables (valid and not) and ``--history``
strings keep the CLI's contract, and every answered one is exact on the circuit too."""

from __future__ import annotations

import tempfile
from pathlib import Path

from fuzzlib import examples, run_checked, toml_text, write
from hypothesis import given
from hypothesis import strategies as st
from skat_strategies import ANY_VALUE, valid_specs

from qcards.skat.position.prior import CATEGORIES, PRIOR_FIELDS
from qcards.skat.position.spec import SKAT

MAX_UNKNOWN = 4
"""Unknown cards per spec: the sparse engine answers each in well under a second."""

TOLERANCE = 1e-9


def _cards_of(table: dict) -> list[str]:
    cards = [c for hand in table.get("hands", {}).values() for c in hand]
    return cards + list(table.get("unknown", {}).get("cards", []))


@st.composite
def prior_tables(draw, table: dict) -> dict:
    """A ``[prior]`` table for ``table``: names, cards and numbers mostly from the spec, some
    not, and now and then a value of the wrong type."""
    players = table["players"]
    names = st.one_of(st.sampled_from([*players, SKAT]), st.text(min_size=1, max_size=3))
    cards = st.one_of(st.sampled_from(_cards_of(table) or ["CA"]), st.sampled_from(["CA", "ZZ"]))
    categories = st.one_of(st.sampled_from(CATEGORIES), st.sampled_from(["cups", "", "Spades"]))
    weights = st.one_of(
        st.integers(-2, 5),
        st.floats(-1, 5),
        st.sampled_from([float("nan"), float("inf"), "2/3", "0", "x", "1/0", "0.1"]),
    )
    parts = {
        "void": st.dictionaries(names, st.lists(categories, max_size=3), max_size=2),
        "holds": st.dictionaries(names, st.lists(cards, max_size=2), max_size=2),
        "at_least": st.dictionaries(
            names, st.dictionaries(categories, st.integers(-1, 4), max_size=2), max_size=2
        ),
        "weight": st.dictionaries(names, st.dictionaries(cards, weights, max_size=3), max_size=2),
        "likelihood": st.lists(
            st.fixed_dictionaries(
                {
                    "holder": names,
                    "cards": st.lists(cards, max_size=3),
                    "factors": st.lists(weights, max_size=4),
                }
            ),
            max_size=2,
        ),
    }
    out = {}
    for key in draw(st.sets(st.sampled_from([*PRIOR_FIELDS, "other"]), min_size=1, max_size=3)):
        wrong = draw(st.integers(0, 9)) == 0
        out[key] = draw(ANY_VALUE if wrong or key == "other" else parts[key])
    return out


def _exact_on_the_circuit(path: Path, answered: dict, extra: list[str]) -> None:
    """An answered spec: the sparse engine's p_win is the referee's exact fraction."""
    circuit = run_checked(["evaluate", path, "--method", "sparse", "--json", *extra], "ok")
    num, den = (int(x) for x in answered["p_win_exact"].split("/"))
    assert abs(circuit["p_win"] - num / den) < TOLERANCE
    assert abs(circuit["expected_points"] - answered["expected_points"]) < 1e-7


@examples(0.75)
@given(st.data())
def test_priors_keep_the_contract(data):
    table = data.draw(valid_specs(max_tricks=2, max_unknown=MAX_UNKNOWN), label="spec")
    table["prior"] = data.draw(prior_tables(table), label="prior")
    with tempfile.TemporaryDirectory() as tmp:
        path = write(Path(tmp), "endgame.toml", toml_text(table))
        answered = run_checked(["evaluate", path, "--method", "classical", "--json"])
        if answered is not None:
            assert 0 <= answered["p_win"] <= 1
            _exact_on_the_circuit(path, answered, [])


@st.composite
def histories(draw, table: dict) -> str:
    players = table["players"]
    cards = _cards_of(table) or ["CA"]
    length = draw(st.sampled_from([len(players), len(players), 0, 1, 2 * len(players)]))
    plays = []
    for _ in range(length):
        who = draw(st.one_of(st.sampled_from(players), st.sampled_from(["", "Z"])))
        card = draw(st.one_of(st.sampled_from(cards), st.sampled_from(["XX", "C"])))
        plays.append(f"{who}:{card}" if draw(st.integers(0, 19)) else f"{who}{card}")
    return " ".join(plays)


@examples(0.75)
@given(st.data())
def test_histories_keep_the_contract(data):
    table = data.draw(valid_specs(max_tricks=3, max_unknown=MAX_UNKNOWN + 1), label="spec")
    history = data.draw(histories(table), label="history")
    with tempfile.TemporaryDirectory() as tmp:
        path = write(Path(tmp), "endgame.toml", toml_text(table))
        argv = ["--history", history]
        answered = run_checked(["evaluate", path, "--method", "classical", "--json", *argv])
        if answered is not None:
            assert 0 <= answered["p_win"] <= 1
            _exact_on_the_circuit(path, answered, argv)
