"""``qcards tables``: the recomputed paper numbers, checked against independent computations."""

from __future__ import annotations

import itertools
import json
import math
from fractions import Fraction

import pytest

from qcards.analysis.resources import count_resources
from qcards.cli import main
from qcards.paper import tables
from qcards.paper.printed import Printed, agrees
from qcards.skat.position.spec import spec_from_dict
from qcards.skat.rules.cards import Card
from qcards.skat.solvers.plain_referee import paths

KEYS = ["quantity", "paper", "computed", "agrees", "note"]


@pytest.fixture(scope="module")
def rows() -> dict[str, dict]:
    """The JSON of ``qcards tables --json`` by quantity (computed once, then cached)."""
    data = tables.comparison_json()
    assert list(data) == ["rows"]
    return {r["quantity"]: r for r in data["rows"]}


def brute_force_deals(cards: int, sizes: list[int]) -> int:
    """Assign every card a receiver and keep the assignments with the right sizes."""
    return sum(
        1
        for owners in itertools.product(range(len(sizes)), repeat=cards)
        if all(owners.count(r) == size for r, size in enumerate(sizes))
    )


# ----------------------------------------------------------------------------- the CLI


def test_cli_json_shape_and_types(capsys, rows):
    assert main(["tables", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert {r["quantity"]: r for r in data["rows"]} == rows
    assert len(rows) == len(data["rows"])  # quantities are unique
    for row in data["rows"]:
        assert list(row) == KEYS
        assert type(row["agrees"]) is bool
        assert isinstance(row["note"], str) and row["note"]
        assert isinstance(row["paper"], int | float) and isinstance(row["computed"], int | float)
    for x in range(3, 11):
        for table in (8, 9):
            deals = rows[f"Table {table}, {x} cards: deals"]
            assert type(deals["computed"]) is int
            (time,) = (v for k, v in rows.items() if k.startswith(f"Table {table}, {x} cards: t"))
            assert type(time["computed"]) is float and type(time["paper"]) is float
    for quantity in ("Eq. 32", "Eq. 34", "Eq. 35", "Eq. 38"):
        (row,) = (v for k, v in rows.items() if k.startswith(quantity + ":"))
        assert type(row["paper"]) is int and type(row["computed"]) is int


def test_cli_text(capsys):
    assert main(["tables"]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[0].split() == ["quantity", "agrees", "note"]
    assert "Table 9, 6 cards: deals" in out and "NO" in out and "yes" in out
    assert "agree at the printed precision" in out
    assert max(len(line) for line in out.splitlines()) <= 100  # issue 41: readable widths
    for r in tables.comparison():  # every quantity, its values and its note are shown
        assert r.quantity in out and r.note.split()[0] in out


# ----------------------------------------------------------------------------- deals


@pytest.mark.parametrize("x", [1, 2])
def test_deal_counts_against_brute_force(x):
    # Table 8: all 3x + 2 cards dealt to A, B, C (x each) and the skat (2)
    assert tables.deals(x, declarer_known=False) == brute_force_deals(3 * x + 2, [x, x, x, 2])
    # Table 9: A's x cards known, the other 2x + 2 dealt
    assert tables.deals(x, declarer_known=True) == brute_force_deals(2 * x + 2, [x, x, 2])


@pytest.mark.parametrize("x", range(3, 11))
def test_tables_8_and_9_closed_forms(x, rows):
    all_dealt = math.factorial(3 * x + 2) // (math.factorial(x) ** 3 * 2)
    known = math.comb(2 * x + 2, x) * math.comb(x + 2, x)
    assert rows[f"Table 8, {x} cards: deals"]["computed"] == all_dealt
    assert rows[f"Table 9, {x} cards: deals"]["computed"] == known
    # Sec. VIII.1: knowing A's hand divides by C(3x + 2, x)
    assert all_dealt == known * math.comb(3 * x + 2, x)


def test_times_independently(rows):
    year = 365 * 86400
    assert rows["Table 8, 10 cards: total (years)"]["computed"] == pytest.approx(
        2753294408504640 * 0.1 / year
    )
    assert rows["Table 9, 10 cards: total (days)"]["computed"] == pytest.approx(
        42678636 * 0.1 / 86400
    )
    assert rows["Table 9, 3 cards: total (sec)"]["computed"] == pytest.approx(56.0)


# ----------------------------------------------------------------------------- paths


def all_trump_spec(n: int) -> object:
    """Three players with n cards each and the skat, every card a trump: every card is always
    legal, the unrestricted play of Eqs. 33-35."""
    trumps = ["CJ", "SJ", "HJ", "DJ", "CA", "C10", "CK", "CQ", "C9", "C8", "C7"]
    cards = trumps[: 3 * n + 2]
    return spec_from_dict(
        {
            "players": ["A", "B", "C"],
            "trump": "clubs",
            "target": 61,
            "hands": {"A": cards[:n]},
            "unknown": {"cards": cards[n:], "sizes": {"B": n, "C": n, "skat": 2}},
        }
    )


@pytest.mark.parametrize("n", [2, pytest.param(3, marks=pytest.mark.slow)])
def test_eqs_34_35_against_the_referee(n):
    spec = all_trump_spec(n)
    assert all(spec.rules.is_trump(Card.parse(c)) for c in map(str, spec.cards))
    counted = sum(1 for _ in paths(spec))
    deals = tables.deals(n, declarer_known=True)
    assert tables.unrestricted_paths(n) == math.factorial(n) ** 3
    assert counted == deals * tables.unrestricted_paths(n)  # Eq. 35 at n cards


def test_equations(rows):
    assert rows["Eq. 34: paths per deal, every card playable"]["computed"] == (
        math.factorial(10) ** 3
    )
    eq35 = rows["Eq. 35: paths over all deals, declarer known"]["computed"]
    assert eq35 == math.comb(22, 10) * math.comb(12, 10) * math.factorial(10) ** 3
    eq37 = rows["Eq. 37: paths with mean branching mu_Suit"]["computed"]
    assert eq37 == pytest.approx(2.844**30 * 42678636)
    assert rows["Eq. 38: N^App_max, evaluations per game"]["computed"] == 10 * 11 // 2
    assert rows["Eq. 39: mean N^App"]["computed"] == pytest.approx(28.44)


# ----------------------------------------------------------------------------- Sec. IX


def test_sec9_paper_model():
    assert tables.paper_model_play_cx(10) == math.comb(20, 10) * 10 // 4 * 12 * 10
    assert tables.paper_model_trick_cx(10) == math.comb(20, 10) * (24 * 10 + 3)
    assert tables.years(10**16) == Fraction(10**16 * 40, 10**9 * 365 * 86400)


def test_sec9_counts_come_from_resources(rows):
    small = tables.paper_circuit_cx(2)
    assert small.game == count_resources(2, "paper", use_formula=True).stages["game"].cx
    full = tables.paper_circuit_cx()
    assert full.deal_no_skat == 2**20 - 20 - 1  # dense preparation on 20 owner qubits
    assert full.deal_skat == 2**44 - 44 - 1  # 22 cards x 2 owner qubits
    qcards_total = rows["Sec. IX.0.5: total CX with 1000 shots (qcards paper construction)"]
    assert qcards_total["computed"] == 1000 * full.game


# ----------------------------------------------------------------------------- agreement


def test_agreement_rules():
    two = Printed("2.57", 2.57, "decimals", 2)
    assert agrees(two, Fraction(2565, 1000)) and agrees(two, Fraction(25749, 10000))
    assert not agrees(two, Fraction(2575, 1000))
    sig = Printed("9.251e13", 9.251e13, "significant", 4)
    assert agrees(sig, 92514999999999) and not agrees(sig, 92516613189000)
    assert agrees(Printed("1e12", 10**12, "order"), 3 * 10**12)
    assert not agrees(Printed("1e12", 10**12, "order"), 4 * 10**12)
    assert agrees(Printed("55", 55, "exact"), 55) and not agrees(Printed("55", 55, "exact"), 54)


def test_which_rows_differ(rows):
    """The disagreements found, each with its explanation in the note."""
    differ = {q for q, r in rows.items() if not r["agrees"]}
    assert differ == {
        "Table 8, 9 cards: deals",
        "Table 8, 6 cards: deals",
        "Table 8, 6 cards: total (years)",
        "Table 9, 10 cards: total (days)",
        "Table 9, 7 cards: total (hours)",
        "Table 9, 6 cards: deals",
        "Table 9, 6 cards: total (hours)",
        "Sec. IX.0.1: CX of U_ini, B and C with 10 of 20 cards",
        "Sec. IX.0.3: CX of one defender's card play, N = 10",
        "Sec. IX.0.5: CX of card play + trick taking (paper's model)",
        "Sec. IX.0.5: CX of card play + trick taking (qcards paper construction)",
        "Sec. IX.0.5: total CX with 1000 shots (paper's components)",
        "Sec. IX.0.5: years for the printed 10^16 CX at 40 ns",
        "Sec. IX.0.5: years, paper's components at 40 ns",
        "Sec. IX.0.5: years, qcards paper construction at 40 ns",
    }
    for q in differ:
        assert "DIFFERS: " in rows[q]["note"], q
    for q in set(rows) - differ:
        assert "DIFFERS" not in rows[q]["note"], q
