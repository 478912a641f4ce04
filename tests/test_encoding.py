from __future__ import annotations

import pytest

from qcards.circuits.card_codes import (
    TABLE1,
    TABLE4,
    TABLE6,
    paper_code,
    paper_label,
    readable_label,
)
from qcards.circuits.game import build_game
from qcards.circuits.layout import GameLayout
from qcards.errors import SpecError
from qcards.paper.examples import SIX_CARD
from qcards.skat.position.spec import SKAT, parse_spec
from qcards.skat.solvers.plain_referee import stage_distributions


@pytest.mark.parametrize("code,players", [(TABLE4, 2), (TABLE6, 3), (TABLE1, 3)])
def test_paper_codes_round_trip(code, players, four_card, six_card):
    spec = four_card if players == 2 else six_card
    locations = [(k, p) for k in ("hand", "table", "stack") for p in spec.players]
    for loc in locations:
        bits = code.encode(loc, spec)
        assert len(bits) == code.width
        assert code.decode(bits, spec) == code.normalise(loc, spec)
    codes = {code.encode(loc, spec) for loc in locations}
    for bits in codes:
        assert code.encode(code.decode(bits, spec), spec) == bits


def test_table6_values_match_the_paper(six_card):
    enc = {
        ("hand", "A"): "000",
        ("hand", "B"): "100",
        ("hand", "C"): "010",
        ("table", "A"): "001",
        ("table", "B"): "101",
        ("table", "C"): "011",
        ("stack", "A"): "111",
        ("stack", "B"): "110",
        ("stack", "C"): "110",
    }
    for loc, bits in enc.items():
        assert TABLE6.encode(loc, six_card) == bits


def test_paper_example_state_label(six_card):
    # Sec. VII.2: "000 100 000 100 010 010": ace and king with A, C10 and C9 with B
    from qcards.skat.position.stages import Snapshot
    from qcards.skat.rules.cards import Card

    owner = {"CA": "A", "CK": "A", "C10": "B", "C9": "B", "C8": "C", "H10": "C"}
    snap = Snapshot(
        owner=tuple((c, owner[str(c)]) for c in six_card.cards),
        played=tuple((c, 0) for c in six_card.cards),
        winners=(),
    )
    assert paper_label(snap, six_card) == "000 100 000 100 010 010"
    assert readable_label(snap, six_card) == "A:CA,CK B:C10,C9 C:C8,H10"
    assert Card("C", "A") in dict(snap.owner)


def test_four_card_final_favourable_states_match_paper(four_card):
    # footnote 4: |011,011,011,011>, |011,011,111,111>, |011,111,011,111> are A's wins
    final_stage, dist = stage_distributions(four_card)[-1]
    winning = {
        paper_label(s, four_card) for s in dist if s.declarer_points(four_card) >= four_card.target
    }
    assert winning == {"011 011 011 011", "011 011 111 111", "011 111 011 111"}


@pytest.mark.parametrize("example", ["four", "six"])
def test_layout_decode_round_trips(example, four_card, six_card):
    spec = four_card if example == "four" else six_card
    layout = GameLayout(spec)
    first = SIX_CARD.firsts[0] if example == "six" else None
    for stage, dist in stage_distributions(spec, first):
        for snap in dist:
            assert layout.decode(layout.encode(snap), stage) == snap


def test_layout_register_names(six_card):
    layout = GameLayout(six_card)
    names = set(layout.register_sizes())
    assert {"owner_C10", "play_CA", "winner_1", "winner_2", "flag"} <= names
    assert "owner_CA" not in names  # known cards need no owner qubits
    assert layout.num_qubits == 4 * 1 + 6 * 2 + 2 * 2 + 1


# ----------------------------------------------------------------------------- the Skat


def test_skat_location_and_readable_label(skat_two_tricks):
    spec = skat_two_tricks
    _, dist = stage_distributions(spec)[-1]
    labels = {readable_label(s, spec) for s in dist}
    # B held HK D10 and trumped A's CA; C10 and C7 lay in the Skat
    assert "stack A:HJ,HK B:D10,CA | skat:C10,C7" in labels
    for snap in dist:
        skat = [c for c, where in snap.locations().items() if where == (SKAT, SKAT)]
        assert len(skat) == 2
        assert readable_label(snap, spec).endswith(" | skat:" + ",".join(map(str, skat)))


@pytest.mark.parametrize("fixture", ["skat_one_trick", "skat_two_tricks", "skat_only"])
def test_layout_decode_round_trips_with_skat(fixture, request):
    spec = request.getfixturevalue(fixture)
    layout = GameLayout(spec)
    assert layout.receivers == spec.receivers and layout.receivers[-1] == SKAT
    for stage, dist in stage_distributions(spec):
        for snap in dist:
            assert layout.decode(layout.encode(snap), stage) == snap


def test_table1_codes_the_skat(skat_one_trick):
    assert TABLE1.encode((SKAT, SKAT), skat_one_trick) == "11000"
    assert TABLE1.decode("11000", skat_one_trick) == (SKAT, SKAT)
    with pytest.raises(ValueError, match="not a Table 1 card state"):
        TABLE1.decode("11010", skat_one_trick)
    _, dist = stage_distributions(skat_one_trick)[0]
    labels = {paper_label(s, skat_one_trick, TABLE1) for s in dist}
    # cards SK C7 HA H10: SK in the Skat (11), C7 with C (10), HA with A (00), H10 with B (01)
    assert "11000 10000 00000 01000" in labels and len(labels) == 6


FOUR_PLAYERS_WITH_SKAT = """
players = ["A", "B", "C", "D"]
[hands]
A = ["CA"]
[unknown]
cards = ["C7", "C8", "C9", "H7"]
sizes = { B = 1, C = 1, D = 1, skat = 1 }
"""


@pytest.mark.parametrize("fixture", ["skat_one_trick", "skat_two_tricks", "four_players"])
def test_paper_codes_refuse_the_skat(fixture, request):
    if fixture == "four_players":
        spec = parse_spec(FOUR_PLAYERS_WITH_SKAT, source="four.toml")
        table = "Table 1"
    else:
        spec = request.getfixturevalue(fixture)
        table = {2: "Table 4", 3: "Table 6"}[len(spec.players)]
    message = f"the paper's {table} has no code for the skat"
    with pytest.raises(SpecError, match=f"field 'unknown.sizes.skat': {message}") as info:
        paper_code(spec)
    assert "build without paper codes" in str(info.value)
    with pytest.raises(SpecError, match=message):
        build_game(spec, paper_codes=True, construction="paper")
    with pytest.raises(ValueError, match=message):
        {2: TABLE4, 3: TABLE6, 4: TABLE1}[len(spec.players)].encode((SKAT, SKAT), spec)
    assert (
        build_game(spec, construction="paper").layout.code is None
    )  # fine without the paper's codes
