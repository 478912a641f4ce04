"""Shared fixtures: the paper's specs and a generator of small random endgames."""

from __future__ import annotations

import itertools
import os
import random
from collections.abc import Iterable
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

from qcards.circuits.layout import GameLayout
from qcards.paper.examples import FOUR_CARD, SIX_CARD
from qcards.skat.position.spec import Endgame, parse_spec
from qcards.skat.rules.cards import FULL_DECK, Trump, points

REPO = Path(__file__).resolve().parents[1]

TEST_SPECS = REPO / "tests" / "specs"
"""The tests' own endgames, TOML files like the paper's in ``qcards/specs``."""


def spec_text(name: str) -> str:
    """The text of the test endgame ``tests/specs/<name>.toml``."""
    return (TEST_SPECS / f"{name}.toml").read_text(encoding="utf-8")


@pytest.fixture
def four_card() -> Endgame:
    return FOUR_CARD.spec()


@pytest.fixture
def six_card() -> Endgame:
    return SIX_CARD.spec()


SKAT_ONE_TRICK = spec_text("skat-one-trick")
SKAT_TWO_TRICKS = spec_text("skat-two-tricks")
SKAT_ONLY = spec_text("skat-only")
TINY = spec_text("tiny")
"""A leads CA; B trumps it when dealt HK (1 deal in 3): p_win = 2/3, 9 qubits."""


@pytest.fixture
def skat_one_trick() -> Endgame:
    """Three players, one trick, one card in the Skat (hand-checked in test_classical)."""
    return parse_spec(SKAT_ONE_TRICK, source="skat-one-trick")


@pytest.fixture
def skat_two_tricks() -> Endgame:
    """Two players, two tricks, the declarer's hand known, two cards in the Skat (19 qubits)."""
    return parse_spec(SKAT_TWO_TRICKS, source="skat-two-tricks")


@pytest.fixture
def skat_only() -> Endgame:
    """Every hand known, only the Skat unknown: no owner registers at all."""
    return parse_spec(SKAT_ONLY, source="skat-only")


def random_spec(
    seed: int,
    players: int,
    tricks: int,
    trump: Trump,
    winner_leads: bool,
    declarer_known: bool,
    skat: int = 0,
    max_qubits: int = 22,
) -> Endgame:
    """A random endgame with ``players`` x ``tricks`` cards, small enough to simulate.

    Cards are drawn from few suits (with jacks) so that suit following, trumps and jacks matter.
    With ``skat`` > 0, that many more unknown cards are dealt into the Skat, and the target is
    drawn within reach (1 to all the points in play above ``declarer_points``) so that wins and
    losses both occur.
    """
    rng = random.Random(seed)
    names = ["A", "B", "C", "D"][:players]
    suits = rng.sample("CSHD", 2)
    pool = [c for c in FULL_DECK if c.suit in suits or c.rank == "J"]
    for _ in range(200):
        cards = rng.sample(pool, players * tricks + skat)
        hands = {}
        unknown = cards
        if declarer_known:
            hands["A"] = cards[:tricks]
            unknown = cards[tricks:]
        receivers = names[1:] if declarer_known else names
        sizes = [f"{r} = {tricks}" for r in receivers] + ([f"skat = {skat}"] if skat else [])
        leader = rng.choice(names)
        declarer_points = rng.randrange(0, 30)
        if skat:
            target = declarer_points + rng.randrange(1, max(points(cards), 1) + 1)
        else:
            target = rng.randrange(20, 75)
        text = "\n".join(
            [
                "players = [" + ", ".join(f'"{n}"' for n in names) + "]",
                f'trump = "{trump.value}"',
                f'leader = "{leader}"',
                f"winner_leads = {'true' if winner_leads else 'false'}",
                f"declarer_points = {declarer_points}",
                *([] if trump.is_null else [f"target = {target}"]),
                "[hands]",
                *(
                    f"{p} = [{', '.join(f'{chr(34)}{c}{chr(34)}' for c in h)}]"
                    for p, h in hands.items()
                ),
                "[unknown]",
                "cards = [" + ", ".join(f'"{c}"' for c in unknown) + "]",
                "sizes = { " + ", ".join(sizes) + " }",
            ]
        )
        spec = parse_spec(text, source=f"random-{seed}")
        if spec.declarer_points + spec.points_in_play() <= 120:
            if GameLayout(spec).num_qubits <= max_qubits:
                return spec
    raise RuntimeError("could not generate a small enough spec")


def all_deals(spec: Endgame):
    """Every deal as a map card -> owner: each assignment of the unknown cards to the receivers
    with their sizes, by brute force (one per deal, uniform; no prior, no library code)."""
    receivers = list(spec.sizes)
    for choice in itertools.product(receivers, repeat=len(spec.unknown)):
        if all(choice.count(r) == spec.sizes[r] for r in receivers):
            owner = {c: p for p in spec.players for c in spec.hands[p]}
            owner.update(zip(spec.unknown, choice, strict=True))
            yield owner


GENERATED_CASES = [
    # (players, tricks, declarer hand known)
    (2, 1, False),
    (2, 2, False),
    (2, 2, True),
    (3, 1, False),
    (3, 2, True),
]


SKAT_CASES = [
    # (players, tricks, declarer hand known, cards in the Skat): at most 16 qubits each
    (2, 1, False, 2),
    (2, 2, True, 1),
    (2, 2, True, 2),
    (3, 1, False, 1),
    (3, 1, True, 2),
]


def generated_specs(count_per_case: int = 1, skat: bool = False):
    """Parameters covering every trump kind, both ``winner_leads`` values, 2 and 3 players.

    With ``skat``, the cases of :data:`SKAT_CASES` instead, each parameter tuple ending with the
    number of cards in the Skat (seeds from 1001, apart from the cases without a Skat).
    """
    out = []
    seed = 1000 if skat else 0
    cases = SKAT_CASES if skat else [(*case, 0) for case in GENERATED_CASES]
    # the null games come after the others, so the point games keep their seeds
    point_games = [t for t in Trump if not t.is_null]
    null_games = [t for t in Trump if t.is_null]
    for trumps in (point_games, null_games):
        for players, tricks, known, skat_size in cases:
            for trump in trumps:
                for winner_leads in (True, False):
                    if tricks == 1 and not winner_leads:
                        continue  # identical to winner_leads = true with a single trick
                    for _ in range(count_per_case):
                        seed += 1
                        params = (seed, players, tricks, trump, winner_leads, known)
                        out.append((*params, skat_size) if skat else params)
    return out


def covering_sample(cases: list) -> set[int]:
    """The positions in ``cases`` (parameter tuples of :func:`generated_specs`) of a sample that
    shows every value of every property at least once: each trump kind, player count, number of
    tricks, ``winner_leads``, whether the declarer's hand is known, and Skat or none.

    Greedy, in the list's order: a case is kept when it shows a value no kept case shows yet.
    """
    seen: set[tuple[int, object]] = set()
    kept: set[int] = set()
    for position, case in enumerate(cases):
        properties = {(i, value) for i, value in enumerate(case[1:6], start=1)}
        if len(case) > 6:
            properties.add((6, case[6] > 0))
        if not properties <= seen:
            seen |= properties
            kept.add(position)
    return kept


def sampled(cases: list, values: Iterable | None = None) -> list:
    """``values`` (default: ``cases`` themselves; one for each case, in order) as
    ``pytest.param`` values: those of a :func:`covering_sample` of ``cases`` run by default, the
    rest carry the ``crosscheck`` marker (the breadth tier: ``pytest -m crosscheck``; CI runs it).
    """
    kept = covering_sample(cases)
    values = list(cases if values is None else values)
    assert len(values) == len(cases), "one value for each case"
    return [
        pytest.param(value) if i in kept else pytest.param(value, marks=pytest.mark.crosscheck)
        for i, value in enumerate(values)
    ]


def breadth(values: Iterable, default_tier: Iterable) -> list:
    """``values`` as ``pytest.param`` values: those in ``default_tier`` (one for each way the
    test can go) run by default, the others carry the ``crosscheck`` marker (the breadth tier,
    which CI runs). For parameter lists that are not :func:`generated_specs` cases."""
    values, keep = list(values), list(default_tier)
    missing = [value for value in keep if value not in values]
    assert not missing, f"not among the values: {missing}"
    return [
        pytest.param(v) if v in keep else pytest.param(v, marks=pytest.mark.crosscheck)
        for v in values
    ]


def sampled_indices(cases: list) -> list:
    """``range(len(cases))`` marked as :func:`sampled` marks ``cases``: for tests parametrized
    by a position in a list of specs built from ``cases``."""
    return sampled(cases, range(len(cases)))


def generated_specs_within_16_qubits() -> list:
    """The cases of :func:`generated_specs` that ``random_spec(..., max_qubits=16)`` can build:
    all but three players with two tricks each (none of those fits in 16 qubits)."""
    return [p for p in generated_specs() if p[1:3] != (3, 2)]


def over_specs_within_16_qubits(step: int):
    """A test's ``params`` parametrized over every ``step``-th case of
    :func:`generated_specs_within_16_qubits`, with :func:`spec_id` ids."""
    cases = generated_specs_within_16_qubits()[::step]
    return pytest.mark.parametrize("params", sampled(cases), ids=spec_id)


def spec_id(params: tuple) -> str:
    """A test id for a parameter tuple of :func:`generated_specs` (or :func:`random_spec`):
    everything but the seed, e.g. ``2-2-Trump.SPADES-True-False``."""
    return "-".join(map(str, params[1:]))


@pytest.fixture
def offline_ibm(request, monkeypatch, tmp_path):
    """No IBM account (neither the environment's nor a saved one) and a job store in tmp_path.

    The runtime reads its account file from a path fixed at import time
    (``~/.qiskit/qiskit-ibm.json``), so that path is redirected as well as ``HOME``. Tests
    marked ``ibm`` (real credentials) are left alone.
    """
    if request.node.get_closest_marker("ibm"):
        return None
    for name in ("TOKEN", "INSTANCE", "CHANNEL", "URL"):
        monkeypatch.delenv(f"QISKIT_IBM_{name}", raising=False)
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setattr(
        "qiskit_ibm_runtime.accounts.management._DEFAULT_ACCOUNT_CONFIG_JSON_FILE",
        str(home / ".qiskit" / "qiskit-ibm.json"),
    )
    monkeypatch.setenv("QCARDS_DATA_DIR", str(tmp_path / "data"))
    return home


# -- Hypothesis profiles of the fuzz suite (tests/fuzz/) -----------------------------------
# They live here, not in tests/fuzz/conftest.py: a second conftest module would shadow this one
# for the tests that import from it.
# ``qcards-ci`` (the default): a fixed budget of examples per test, derandomized, so every run
# (CI's included) tries the same inputs and the suite finishes in a few minutes on two cores.
# ``qcards-thorough``: ten times the examples, still derandomized. ``qcards-random``: fresh random
# inputs on every run (to find new failures; a failure prints the input to replay).
#
# Choose one with ``QCARDS_FUZZ_PROFILE=NAME`` or pytest's ``--hypothesis-profile NAME``;
# ``QCARDS_FUZZ_EXAMPLES=N`` scales any of them to N examples for the tests that run the CI
# budget's BASE_EXAMPLES (the others keep their proportion: fuzzlib.examples). Hypothesis
# keeps no example database (``database=None``), so nothing is written into the repository.

BASE_EXAMPLES = 100
"""Examples per test in the CI profile (tests that do more work per example ask for fewer)."""

_COMMON = dict(
    deadline=None,  # the hang guard of fuzzlib.run_cli bounds each call instead
    database=None,
    print_blob=True,
    # generation filters names and cards; tests that do little work per example would trip
    # the too_slow check on a busy machine
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)

settings.register_profile("qcards-ci", max_examples=BASE_EXAMPLES, derandomize=True, **_COMMON)
settings.register_profile(
    "qcards-thorough", max_examples=10 * BASE_EXAMPLES, derandomize=True, **_COMMON
)
settings.register_profile(
    "qcards-random", max_examples=10 * BASE_EXAMPLES, derandomize=False, **_COMMON
)


def pytest_configure(config) -> None:
    # Under pytest-xdist every core already runs a worker; Aer's OpenMP threads (one per core in
    # each worker, for states above 14 qubits) would oversubscribe them: tests/test_game.py took
    # 205 s on two workers with them and 160 s without. Set here, in the controller before it
    # starts the workers, the variable is in their environment (and in every process they spawn)
    # from the start, before Aer's OpenMP runtime or NumPy's BLAS reads it.
    if getattr(config.option, "numprocesses", None) and "PYTEST_XDIST_WORKER" not in os.environ:
        os.environ.setdefault("OMP_NUM_THREADS", "1")
    if config.getoption("hypothesis_profile", default=None):
        return  # --hypothesis-profile NAME was given: the Hypothesis plugin loaded it
    settings.load_profile(os.environ.get("QCARDS_FUZZ_PROFILE", "qcards-ci"))


FUZZ_DIR = REPO / "tests" / "fuzz"


def pytest_collection_modifyitems(config, items) -> None:
    # the fuzz suite is one tier (``pytest -m fuzz``), marked here by its folder rather than in
    # each of its modules, so a new fuzz module cannot land in the default tier by mistake
    for item in items:
        if FUZZ_DIR in Path(str(item.path)).parents:
            item.add_marker(pytest.mark.fuzz)
