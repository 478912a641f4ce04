"""The table state (qcards.skat.rules.table): its transition against the engines' rules, and its
compiled twin (qcards.skat.rules.table_kernel) on every legal move of random games."""

from __future__ import annotations

import random
import re
from pathlib import Path

import numpy as np
import pytest

import qcards
from qcards.errors import IllegalPlay
from qcards.skat.rules.cards import FULL_DECK, Rules, Trump
from qcards.skat.rules.rule_tables import CARD_INDEX, SUIT_ROWS, card_mask, rule_tables
from qcards.skat.rules.table import Table
from qcards.skat.rules.table_kernel import LEADING, legal_mask, trick_taker
from tests.conftest import breadth

TRUMPS = tuple(Trump)


def random_table(rng: random.Random, seats: int = 3, per_hand: int = 10) -> Table:
    trump = rng.choice(TRUMPS)
    deck = list(FULL_DECK)
    rng.shuffle(deck)
    hands = [deck[i * per_hand : (i + 1) * per_hand] for i in range(seats)]
    return Table.deal(Rules(trump), hands, rng.randrange(seats), winner_leads=rng.random() < 0.9)


def play_out(table: Table, rng: random.Random, check) -> Table:
    while not table.over:
        legal = table.legal()
        check(table, legal)
        table = table.play(rng.choice(legal))
    return table


@pytest.mark.parametrize("games", breadth([1_000, 10_000], default_tier=[1_000]))
def test_the_compiled_twin_agrees_with_the_table_on_every_legal_move(games):
    rng = random.Random(7)
    moves = 0

    def check(table, legal):
        nonlocal moves
        tables = rule_tables(table.rules.trump)
        led = (SUIT_ROWS.index(table.rules.effective_suit(table.trick[0]))
               if table.trick else LEADING)  # fmt: skip
        hand = card_mask(table.hands[table.to_move])
        assert legal_mask(hand, led, tables.suit_mask) == card_mask(legal)
        moves += 1

    for _ in range(games):
        seats = rng.choice((3, 3, 4))
        table = random_table(rng, seats, rng.choice((2, 5, 10) if seats == 3 else (2, 8)))
        before = table
        table = play_out(table, rng, check)
        # every closed trick: the compiled taker names the seat the table credited
        tables = rule_tables(before.rules.trump)
        leader = before.leader
        for first_seat, cards in table.tricks():
            assert first_seat == leader
            packed = np.array([CARD_INDEX[c] for c in cards], dtype=np.int64)
            taker = (first_seat + trick_taker(packed, len(cards), tables.eff, tables.power)) % seats
            assert taker == (first_seat + before.rules.trick_winner(cards)) % seats
            leader = taker if table.winner_leads else table.fixed_leader
        assert sum(table.won) == len(table.tricks())
        assert sum(table.taken) == sum(c.value for hand in before.hands for c in hand)
    assert moves > games


def test_a_trick_is_closed_credited_and_led_by_its_winner():
    rules = Rules(Trump.CLUBS)
    c = {str(card): card for card in FULL_DECK}
    table = Table.deal(rules, [[c["SA"], c["H7"]], [c["S10"], c["HA"]], [c["CJ"], c["H8"]]], 0)
    table = table.play(c["SA"]).play(c["S10"])
    assert table.trick == (c["SA"], c["S10"]) and table.to_move == 2
    assert table.hands_at_trick_start()[0] == {c["SA"], c["H7"]}
    table = table.play(c["CJ"])  # the jack trumps in
    assert table.trick == () and table.leader == 2 and table.to_move == 2
    assert table.taken == (0, 0, 23) and table.won == (0, 0, 1)
    assert table.voids() == {(2, "S")}
    assert table.tricks() == ((0, (c["SA"], c["S10"], c["CJ"])),)


def test_the_fixed_leader_leads_every_trick_in_the_papers_variant():
    rules = Rules(Trump.NONE)
    c = {str(card): card for card in FULL_DECK}
    table = Table.deal(rules, [[c["S7"], c["H7"]], [c["SA"], c["HA"]]], 0, winner_leads=False)
    table = table.play(c["S7"]).play(c["SA"])
    assert table.won == (0, 1) and table.leader == 0


def test_an_illegal_card_is_refused_naming_the_seat_and_the_options():
    rules = Rules(Trump.CLUBS)
    c = {str(card): card for card in FULL_DECK}
    table = Table.deal(rules, [[c["SA"]], [c["S10"], c["HA"]]], 0).play(c["SA"])
    with pytest.raises(IllegalPlay, match="seat 1 plays HA but must follow suit with one of S10"):
        table.play(c["HA"])
    with pytest.raises(IllegalPlay, match="seat 1 plays D7 but does not hold it") as caught:
        table.play(c["D7"])
    assert not caught.value.held and caught.value.legal == (c["S10"],)


# the rules' two questions spelt on bit masks outside the compiled twin: a legal-cards mask
# worked out by hand ("follow = hand & suit_mask[...]"), a card's power compared by hand
SPELT_AGAIN = re.compile(r"follow = \w+ & suit_mask\[|power\[[^\]]+\] > power\[")


def test_no_compiled_search_spells_the_table_rules_again():
    """Every compiled search asks :mod:`qcards.skat.rules.table_kernel` which cards may be
    played and which card takes the trick; a kernel that works them out again fails here."""
    package = Path(qcards.__file__).parent / "skat"
    spelt = [f"{path.relative_to(package)}:{number}: {line.strip()}"
             for path in sorted(package.rglob("*.py")) if path.name != "table_kernel.py"
             for number, line in enumerate(path.read_text().splitlines(), 1)
             if SPELT_AGAIN.search(line)]  # fmt: skip
    assert spelt == []


def test_the_guard_sees_the_spellings_it_forbids():
    for line in ("follow = hand & suit_mask[led]", "if power[led, c] > power[led, win]:"):
        assert SPELT_AGAIN.search(line), line
