from __future__ import annotations

import pickle
import subprocess
import sys

import pytest

from qcards.skat.rules.cards import FULL_DECK, TRUMP, Card, CardError, Rules, Trump, points


def cards(text):
    return tuple(Card.parse(t) for t in text.split())


def test_parse_letters_symbols_and_case():
    assert Card.parse("CA") == Card("C", "A")
    assert Card.parse("h10") == Card("H", "10")
    assert Card.parse("♠J") == Card("S", "J")
    assert Card.parse("♦7") == Card("D", "7")
    assert str(Card.parse("♥q")) == "HQ"


@pytest.mark.parametrize("bad", ["", "X", "CX", "Z7", "C1", "C11", "10C"])
def test_parse_rejects_unknown_cards(bad):
    with pytest.raises(CardError, match="unknown card"):
        Card.parse(bad)


def test_deck_and_values_table2():
    assert len(FULL_DECK) == 32
    assert points(FULL_DECK) == 120
    for suit in "CSHD":
        assert points(c for c in FULL_DECK if c.suit == suit) == 30
    assert [Card("C", r).value for r in ("7", "8", "9", "10", "J", "Q", "K", "A")] == [
        0,
        0,
        0,
        10,
        2,
        3,
        4,
        11,
    ]


def test_suit_game_trump_order():
    rules = Rules(Trump.SPADES)
    order = cards("CJ SJ HJ DJ SA S10 SK SQ S9 S8 S7")
    for high, low in zip(order, order[1:], strict=False):
        assert rules.beats(high, low, TRUMP) and not rules.beats(low, high, TRUMP)
    assert rules.effective_suit(Card("H", "J")) == TRUMP  # jacks follow trump
    assert rules.effective_suit(Card("H", "A")) == "H"


def test_plain_suit_order_and_led_suit():
    rules = Rules(Trump.SPADES)
    assert rules.trick_winner(cards("HK HA H10")) == 1
    assert rules.trick_winner(cards("HK CA H7")) == 0  # CA does not follow hearts
    assert rules.trick_winner(cards("HA S7 H10")) == 1  # any trump beats the plain suit
    assert rules.trick_winner(cards("HA S7 DJ")) == 2  # a jack is the higher trump


def test_grand_only_jacks_are_trumps():
    rules = Rules(Trump.GRAND)
    assert rules.is_trump(Card("D", "J")) and not rules.is_trump(Card("S", "A"))
    assert rules.trick_winner(cards("SA DJ S10")) == 1
    assert rules.trick_winner(cards("DJ CJ SJ")) == 1


def test_none_has_no_trumps_and_keeps_jack_in_suit():
    rules = Rules(Trump.NONE)
    assert not any(rules.is_trump(c) for c in FULL_DECK)
    assert rules.trick_winner(cards("CJ CQ C9")) == 1  # A 10 K Q J 9 8 7
    assert rules.trick_winner(cards("CJ C9 HA")) == 0
    assert rules.effective_suit(Card("C", "J")) == "C"


def test_legal_cards_follow_effective_suit():
    rules = Rules(Trump.HEARTS)
    hand = cards("CJ C7 HA D9")
    # a club lead must be followed with C7: the club jack is a trump, not a club
    assert rules.legal_cards(hand, Card("C", "A")) == (Card("C", "7"),)
    # a trump lead (a jack) must be followed by any trump: CJ or HA
    assert set(rules.legal_cards(hand, Card("S", "J"))) == set(cards("CJ HA"))
    # no spades in hand: anything goes
    assert set(rules.legal_cards(hand, Card("S", "A"))) == set(hand)
    assert set(rules.legal_cards(hand, None)) == set(hand)


def test_trump_parse():
    assert Trump.parse("Grand") is Trump.GRAND
    with pytest.raises(ValueError, match="unknown trump"):
        Trump.parse("nullo")


def test_paper_card_order_fig3():
    rules = Rules(Trump.SPADES)
    assert [str(c) for c in rules.sorted(cards("H10 C8 CK CA C9 C10"))] == [
        "CA",
        "C10",
        "CK",
        "C9",
        "C8",
        "H10",
    ]


def test_equal_cards_hash_alike_in_every_process():
    assert len({hash(c) for c in FULL_DECK}) == len(FULL_DECK)
    assert hash(Card("H", "10")) == hash(Card.parse("h10")) and Card("H", "10") in set(FULL_DECK)
    # a card pickled here and one made there are the same dict key in another process
    code = (
        "import pickle, sys; from qcards.skat.rules.cards import Card; "
        "card = pickle.loads(sys.stdin.buffer.read()); print({Card('S', 'A'): 1}.get(card))"
    )
    out = subprocess.run([sys.executable, "-c", code], input=pickle.dumps(Card("S", "A")),
                         capture_output=True, check=True).stdout  # fmt: skip
    assert out.strip() == b"1"
