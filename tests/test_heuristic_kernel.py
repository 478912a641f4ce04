"""The compiled heuristic (:mod:`qcards.skat.players.heuristic_kernel`) picks the cards the Python
``heuristic`` picks, on views of random positions of every kind of game: each seat, leading
and following, early and late in the game."""

from __future__ import annotations

import random

import numpy as np
import pytest

from qcards.skat.players.heuristic_kernel import heuristic_set
from qcards.skat.players.play_models import heuristic
from qcards.skat.position.seat_view import seat_view
from qcards.skat.rules.cards import FULL_DECK, Trump, rules_of
from qcards.skat.rules.rule_tables import CARD_INDEX, TRUMP_ROW, card_mask, rule_tables

SEATS = 3


def random_views(trump: Trump, count: int, seed: int):
    """Views of the seat to move in random positions: a random deal (ten cards each, two in
    the Skat), then a random number of random legal plays."""
    rules = rules_of(trump)
    rng = random.Random(seed)
    views = []
    while len(views) < count:
        deck = list(FULL_DECK)
        rng.shuffle(deck)
        hands = [frozenset(deck[10 * s : 10 * s + 10]) for s in range(SEATS)]
        skat = frozenset(deck[30:])
        cards = frozenset(deck)
        leader, trick = rng.randrange(SEATS), ()
        for _ in range(rng.randrange(30)):
            seat = (leader + len(trick)) % SEATS
            held = hands[seat] - set(trick)
            card = rng.choice(rules.legal_cards(held, trick[0] if trick else None))
            trick = (*trick, card)
            if len(trick) == SEATS:
                winner = (leader + rules.trick_winner(trick)) % SEATS
                hands = [h - {trick[(s - leader) % SEATS]} for s, h in enumerate(hands)]
                leader, trick = winner, ()
        views.append(seat_view(rules, cards, tuple(hands), leader, trick, skat))
    return views


@pytest.mark.parametrize("trump", [Trump.CLUBS, Trump.HEARTS, Trump.GRAND, Trump.NONE, Trump.NULL])
def test_the_compiled_heuristic_picks_the_python_heuristics_cards(trump):
    t = rule_tables(trump)
    null = trump.is_null
    agreed = 0
    for view in random_views(trump, 1500, seed=list(Trump).index(trump)):
        hand = view.hand - set(view.trick)
        trick = np.full(4, -1, dtype=np.int64)
        trick[: len(view.trick)] = [CARD_INDEX[c] for c in view.trick]
        mask = heuristic_set(
            np.int64(card_mask(hand)), np.int64(card_mask(view.out)), trick, len(view.trick),
            view.leader, view.seat, view.players, null, t.eff, t.power, t.value, t.strength,
            t.sort_rank, t.suit_mask, TRUMP_ROW,
        )  # fmt: skip
        expected = {c for c, w in heuristic(view).items() if w}
        assert {c for c in FULL_DECK if mask >> CARD_INDEX[c] & 1} == expected, view
        agreed += 1
    assert agreed == 1500
