"""The seat arithmetic of :mod:`qcards.skat.rules.turns`: its rules on positions, its compiled
twins, and that no other module spells it again (issue 40, item 3)."""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path

import pytest

from qcards.skat.position.spec import load_spec
from qcards.skat.rules import turns, turns_kernel
from qcards.skat.rules.cards import Card, Trump, rules_of

PACKAGE = Path(__file__).resolve().parent.parent / "qcards"
SPECS = PACKAGE / "specs"


def cards(text: str) -> tuple[Card, ...]:
    return tuple(Card.parse(c) for c in text.split())


@pytest.mark.parametrize("n", [2, 3, 4])
def test_seat_to_move_goes_round_the_table_and_place_in_trick_inverts_it(n):
    for leader in range(n):
        seats = [turns.seat_to_move(leader, k, n) for k in range(n)]
        assert seats[0] == leader
        assert sorted(seats) == list(range(n))
        assert [turns.place_in_trick(s, leader, n) for s in seats] == list(range(n))


def test_winner_seat_counts_from_the_leader():
    rules = rules_of(Trump.CLUBS)
    trick = cards("H7 CJ HA")  # the jack (a trump) takes it, played second
    assert [turns.winner_seat(rules, leader, trick, 3) for leader in range(3)] == [1, 2, 0]
    grand = rules_of(Trump.GRAND)
    assert turns.winner_seat(grand, 2, cards("HA H10 HK"), 3) == 2


def test_the_winner_leads_next_unless_the_paper_fixes_the_leader():
    spec = replace(load_spec(SPECS / "four-card.toml"), winner_leads=True)
    leader = spec.players.index(spec.leader)
    for winner in range(len(spec.players)):
        assert turns.leads_next(spec, winner) == winner
        assert turns.player_leads_next(spec, spec.players[winner]) == spec.players[winner]
        fixed = replace(spec, winner_leads=False)
        assert turns.leads_next(fixed, winner) == leader
        assert turns.player_leads_next(fixed, spec.players[winner]) == spec.leader


def test_player_to_move_names_the_seat():
    spec = load_spec(SPECS / "four-card.toml")
    players = spec.players
    for leader in players:
        for k in range(len(players)):
            seat = turns.seat_to_move(players.index(leader), k, len(players))
            assert turns.player_to_move(spec, leader, k) == players[seat]


def test_hands_after_takes_each_seats_own_card():
    hands = (frozenset(cards("CA C7")), frozenset(cards("SA S7")), frozenset(cards("HA H7")))
    trick = cards("S7 H7 C7")  # led by seat 1
    assert turns.hands_after(hands, trick, 1) == (
        frozenset(cards("CA")), frozenset(cards("SA")), frozenset(cards("HA"))
    )  # fmt: skip


def test_the_compiled_twins_answer_as_the_python_functions():
    for n in (2, 3, 4):
        for a in range(n):
            for k in range(-1, 2 * n):
                assert turns_kernel.seat_to_move(a, k, n) == turns.seat_to_move(a, k, n)
                assert turns_kernel.place_in_trick(k, a, n) == turns.place_in_trick(k, a, n)
    for leads in (True, False):
        assert turns_kernel.next_lead(2, leads, 1) == turns.next_lead(2, leads, 1)


SEAT_ARITHMETIC = re.compile(
    r"(lead|seat)[^%\n]*[+-][^%\n]*\)\s*%\s*(n\b|nplayers\b|len\(|[\w.]*players\b)"
)


def test_no_module_but_the_core_spells_the_seat_arithmetic():
    """Who moves, who leads next and where a seat plays in a trick are asked of
    :mod:`qcards.skat.rules.turns`; a module that works them out again fails here."""
    spelled = []
    for path in sorted(PACKAGE.rglob("*.py")):
        if path.name == "turns.py" or "games" in path.parts:  # Go Fish seats its own way
            continue
        for number, line in enumerate(path.read_text().splitlines(), 1):
            if SEAT_ARITHMETIC.search(line):
                spelled.append(f"{path.relative_to(PACKAGE)}:{number}: {line.strip()}")
    assert spelled == []


def test_the_guard_sees_the_spellings_it_forbids():
    for line in ("winner = (leader + rules.trick_winner(trick)) % n",
                 "seat = (leader[lv] + tlen[lv]) % n",
                 "x = trick[(seat - leader) % n]",
                 "p = players[(players.index(leader) + i) % len(players)]",
                 "return (self.leader + index) % self.players, self.trick[index]",
                 "after = [(view.seat + k) % view.players for k in range(3)]"):  # fmt: skip
        assert SEAT_ARITHMETIC.search(line), line
