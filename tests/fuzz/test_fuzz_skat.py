"""Fuzzing the Skat commands: generated valid specs, specs that break a rule, mangled text and
options; every call keeps the CLI's contract (:func:`fuzzlib.check_contract`)."""

from __future__ import annotations

import tempfile
from fractions import Fraction
from pathlib import Path

import pytest
from fuzzlib import examples, run_checked, run_cli, toml_text, write
from hypothesis import assume, given
from hypothesis import strategies as st
from skat_strategies import (
    REFUSED_KINDS,
    any_mutations,
    refused_mutations,
    spec_size,
    text_mutation,
    valid_specs,
)

from qcards.skat.position.spec import SKAT, parse_spec
from qcards.skat.rules.cards import Card

COUNT_MAX_UNKNOWN = 4
"""Amplitude estimation runs on specs with at most this many unknown cards (about a second)."""

RUN_MAX_UNKNOWN = 6
"""Sampling runs on specs with at most this many unknown cards (a few seconds at most)."""


def spec_file(directory: str, table: dict) -> tuple[Path, str]:
    text = toml_text(table)
    return write(Path(directory), "endgame.toml", text), text


def evaluate(path: Path, expect: str = "any"):
    return run_checked(["evaluate", path, "--method", "classical", "--json"], expect)


def count(path: Path, expect: str = "any"):
    argv = ["count", path, "--algorithm", "iae", "--epsilon", "0.1", "--seed", "1", "--json"]
    return run_checked(argv, expect)


def sample(path: Path, expect: str = "any"):
    argv = ["run", path, "--backend", "sparse", "--shots", "50", "--seed", "1", "--json"]
    return run_checked(argv, expect)


def recommend(path: Path, expect: str = "any"):
    return run_checked(["recommend", path, "--json"], expect)


def probability(x) -> bool:
    return isinstance(x, int | float) and 0 <= x <= 1


@examples(0.75)
@given(valid_specs(max_tricks=2, max_unknown=RUN_MAX_UNKNOWN))
def test_valid_specs_are_answered(table):
    """Every command answers a valid spec, with numbers that make sense."""
    with tempfile.TemporaryDirectory() as tmp:
        path, text = spec_file(tmp, table)
        spec = parse_spec(text)  # the generator's own check: the library reads it
        unknown, _ = spec_size(table)

        data = evaluate(path, "ok")
        exact = Fraction(data["p_win_exact"])
        assert probability(data["p_win"]) and 0 <= exact <= 1
        assert abs(data["p_win"] - float(exact)) < 1e-12
        low, high = spec.declarer_points, spec.declarer_points + spec.points_in_play()
        assert low - 1e-9 <= data["expected_points"] <= high + 1e-9
        assert data["num_deals"] >= 1

        # recommend ranks the leader's cards: the declarer's known ones, or a defender's when
        # the spec knows its whole hand (the advice); else one error line
        if spec.leader == spec.declarer:
            applies = bool(spec.hands[spec.declarer])
        else:
            applies = not spec.sizes.get(spec.leader) and bool(spec.hands[spec.leader])
        ranked = recommend(path, "ok" if applies else "error")
        if applies:
            cards = [Card.parse(c["card"]) for c in ranked["cards"]]
            assert sorted(cards) == sorted(spec.hands[spec.leader])
            assert all(probability(c["p_win"]) for c in ranked["cards"])
            if spec.leader == spec.declarer:
                values = [Fraction(c["p_win_exact"]) for c in ranked["cards"]]
                assert values == sorted(values, reverse=True)
            else:  # a defender's best card leaves the declarer the least
                values = [Fraction(c["value_exact"]) for c in ranked["cards"]]
                assert values == sorted(values) and ranked["side"] == "defenders"

        if unknown <= COUNT_MAX_UNKNOWN:
            counted = count(path, "ok")
            assert probability(counted["estimate"])
            assert 0 <= counted["ci"][0] <= counted["ci"][1] <= 1
            assert Fraction(counted["exact_fraction"]) == exact

        sampled = sample(path, "ok")
        assert probability(sampled["p_win"])
        assert sum(sampled["counts"].values()) == 50


@examples(1.25)
@given(st.data())
def test_specs_breaking_a_rule_are_refused(data):
    """A spec that breaks any rule of the spec gets one error line naming the file, from every
    command that reads specs (a number here would be a wrong answer)."""
    table = data.draw(valid_specs(max_tricks=2, max_unknown=COUNT_MAX_UNKNOWN), label="valid")
    mutated, what = data.draw(refused_mutations(table), label="mutation")
    check_refused(mutated, what)


@pytest.mark.parametrize("kind", REFUSED_KINDS)
@examples(0.25)
@given(data=st.data())
def test_each_rule_is_enforced(kind, data):
    """:func:`test_specs_breaking_a_rule_are_refused`, a few examples of each rule."""
    table = data.draw(valid_specs(max_tricks=2, max_unknown=COUNT_MAX_UNKNOWN), label="valid")
    mutated, what = data.draw(refused_mutations(table, kind), label="mutation")
    check_refused(mutated, what)


def check_refused(mutated: dict, what: str) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        path, text = spec_file(tmp, mutated)
        note = f"mutation: {what}\nspec:\n{text}"
        for command in (evaluate, count, sample, recommend):
            try:
                command(path, "error")
            except AssertionError as exc:
                raise AssertionError(f"{exc}\n{note}") from None
        # every refusal of a spec names the file
        err = run_cli(["evaluate", path, "--json"]).err
        assert str(path) in err, f"{err!r} does not name the spec\n{note}"


@examples(0.5)
@given(valid_specs(max_tricks=2, max_unknown=COUNT_MAX_UNKNOWN, skat=False), st.data())
def test_a_known_card_also_unknown_is_refused(table, data):
    """The overlap alone: a known card listed again among the unknown cards, with one more
    card for the Skat so that the sizes still add up and every hand keeps its size."""
    known = [(p, c) for p, cards in table.get("hands", {}).items() for c in cards]
    assume(known)
    player, card = data.draw(st.sampled_from(known), label="card")
    unknown = table.setdefault("unknown", {"cards": [], "sizes": {}})
    unknown.setdefault("cards", []).append(card)
    unknown.setdefault("sizes", {})[SKAT] = unknown["sizes"].get(SKAT, 0) + 1
    with tempfile.TemporaryDirectory() as tmp:
        path, text = spec_file(tmp, table)
        evaluate(path, "error")
        err = _error(path)
        assert "duplicate card" in err and "unknown.cards" in err, err


def _error(path: Path) -> str:
    return run_cli(["evaluate", path, "--method", "classical", "--json"]).err


@examples(1.0)
@given(st.data())
def test_mutated_specs_keep_the_contract(data):
    """Mutations that may leave the spec valid: an answer or one error line, nothing else."""
    table = data.draw(valid_specs(max_tricks=2, max_unknown=COUNT_MAX_UNKNOWN), label="valid")
    mutated, what = data.draw(any_mutations(table), label="mutation")
    with tempfile.TemporaryDirectory() as tmp:
        path, text = spec_file(tmp, mutated)
        answered = evaluate(path)
        if answered is not None:
            assert probability(answered["p_win"])
            sample(path, "ok")


@examples(1.0)
@given(valid_specs(max_tricks=2, max_unknown=COUNT_MAX_UNKNOWN), st.data())
def test_mangled_spec_text_keeps_the_contract(table, data):
    """The TOML text cut, repeated, spliced or made into bytes that are not UTF-8."""
    content = text_mutation(toml_text(table), data)
    with tempfile.TemporaryDirectory() as tmp:
        path = write(Path(tmp), "endgame.toml", content)
        answered = evaluate(path)
        if answered is not None:
            assert probability(answered["p_win"])


SMALL_SPEC = """
players = ["A", "B"]
trump = "grand"
declarer_points = 30
target = 45
[hands]
A = ["CA", "SJ"]
[unknown]
cards = ["C10", "C7", "HK"]
sizes = { B = 2, skat = 1 }
"""
"""Small enough for every option at once (a few seconds for the slowest combination)."""

BAD_NUMBERS = st.sampled_from(["nan", "inf", "-inf", "0", "-0.1", "1", "x", "", "1e999"])
SEEDS_OUT_OF_RANGE = ("-1", str(-(2**40)), str(2**63), str(2**70))
OPTIONS = {
    # flag: (values that are valid, values that must be refused)
    "--first": (
        st.sampled_from(["CA", "sj", "♣A", " SJ "]),
        st.one_of(
            st.sampled_from(["C10", "HK", "XX", "", "CA CA", "JOKER", "C"]),
            st.text(max_size=4).filter(lambda t: t.strip().upper() not in ("CA", "SJ", "♣A")),
        ),
    ),
    "--seed": (
        st.one_of(st.integers(0, 1000).map(str), st.just(str(2**63 - 1))),
        st.sampled_from([*SEEDS_OUT_OF_RANGE, "1.5", "x", ""]),
    ),
    "--shots": (st.sampled_from(["1", "50", "300"]), st.sampled_from(["0", "-1", "2.5", ""])),
    "--epsilon": (st.floats(0.1, 0.49).map(repr), BAD_NUMBERS.filter(lambda t: t != "0.1")),
    "--alpha": (st.floats(0.01, 0.99).map(repr), BAD_NUMBERS),
    "--algorithm": (st.sampled_from(["iae", "mlae", "canonical"]), st.just("qae")),
    "--eval-qubits": (st.integers(1, 4).map(str), st.sampled_from(["0", "-1", "13", "x"])),
    "--method": (
        st.sampled_from(["classical", "sparse", "aer", "statevector", "auto"]),
        st.sampled_from(["nope", "SPARSE", ""]),
    ),
    "--model": (st.sampled_from(["random", "adversarial"]), st.just("perfect")),
    "--construction": (
        st.sampled_from(["efficient", "paper", "hardware"]),
        st.sampled_from(["nope", "Paper"]),
    ),
    "--backend": (
        st.sampled_from(["sparse", "aer", "statevector"]),
        st.sampled_from(["nope", "fake:NoSuchDevice", "", "mps:"]),
    ),
}
COMMAND_OPTIONS = {
    "evaluate": ["--first", "--seed", "--shots", "--method", "--model", "--construction"],
    "recommend": ["--seed", "--method", "--model", "--construction"],
    "run": ["--first", "--seed", "--shots", "--construction", "--backend"],
    "count": [
        "--first",
        "--seed",
        "--shots",
        "--epsilon",
        "--alpha",
        "--algorithm",
        "--eval-qubits",
        "--construction",
    ],  # on the sparse backend: counting on Aer takes tens of seconds
}


@st.composite
def command_lines(draw) -> tuple[list[str], str]:
    """A Skat command with some of its options, at most one of them out of range; returns
    the arguments after the spec and what must happen (``"error"`` if one is out of range)."""
    command = draw(st.sampled_from(sorted(COMMAND_OPTIONS)))
    flags = draw(st.lists(st.sampled_from(COMMAND_OPTIONS[command]), unique=True))
    broken = draw(st.none() | st.sampled_from(flags)) if flags else None
    values = {f: draw(OPTIONS[f][1] if f == broken else OPTIONS[f][0]) for f in flags}
    expect = "any" if broken is None else "error"
    if broken == "--seed" and values["--seed"] in SEEDS_OUT_OF_RANGE:
        # a seed out of range is refused wherever one is used: always by run and count, by
        # evaluate and recommend when they sample (--method aer)
        if command in ("evaluate", "recommend") and values.get("--method") != "aer":
            expect = "any"
    return [command, *(f"{f}={v}" for f, v in values.items()), "--json"], expect


@examples(1.0)
@given(command_lines())
def test_command_options_keep_the_contract(line):
    """Options of the Skat commands, in range and out of it: one option out of range (a seed,
    shots, epsilon, alpha, a first card not in the declarer's hand, an unknown method,
    construction, backend or model) must be refused; in range, any answer keeps the contract
    (some combinations are refused, e.g. the adversarial model on a circuit)."""
    argv, expect = line
    with tempfile.TemporaryDirectory() as tmp:
        path = write(Path(tmp), "small.toml", SMALL_SPEC)
        run_checked([argv[0], path, *argv[1:]], expect)
