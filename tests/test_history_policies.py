"""Policies that read who played which card (``SeatView.tricks``): every engine gives the view
its record of the finished tricks, and the searches that share a position's value between the
orders of play reaching it keep those orders apart for such a policy.

The reference is a walk of every play path on the table state (no sharing at all)."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import numpy as np
import pytest

from qcards.circuits.decode import regroup
from qcards.circuits.game import build_game
from qcards.execution.exact import sparse_final_outcomes
from qcards.skat.deals.enumeration import weighted_deals
from qcards.skat.learned.features import (
    FEATURE_NAMES,
    FEATURE_NAMES_V1,
    card_features,
)
from qcards.skat.players.best_response import best_response
from qcards.skat.players.play_models import PlayModel
from qcards.skat.position.seat_view import SeatView, reads_history, table_view
from qcards.skat.position.spec import SKAT
from qcards.skat.position.stages import skat_points
from qcards.skat.rules.cards import FULL_DECK, TRUMP, Card, Trump, rules_of
from qcards.skat.rules.table import Table
from qcards.skat.solvers.outcome_distributions import outcome_distribution

from conftest import random_spec


@dataclass(frozen=True)
class HistoryProbe:
    """A policy whose weights hang on the history: the points the mover's side has taken and
    the voids shown change them (exact Fractions)."""

    reads_history: bool = True

    def __call__(self, view: SeatView) -> dict[Card, Fraction]:
        legal = view.legal
        own, other = view.taken()
        voids = view.voids()
        shown = {suit for _seat, suit in voids}
        raw = [1 + i * (1 + (own + 2 * other) % 3) + 2 * (view.rules.effective_suit(c) in shown)
               for i, c in enumerate(legal)]  # fmt: skip
        total = sum(raw)
        return {c: Fraction(w, total) for c, w in zip(legal, raw, strict=True)}


PROBE = HistoryProbe()
BLIND = HistoryProbe(reads_history=False)  # the same weights, the flag unset

QUICK = [(1, 3, 3, Trump.CLUBS, True, True), (5, 3, 3, Trump.NULL, True, True)]
# the larger specs (a minute each on one core) in the breadth tier
BROAD = [
    pytest.param((2, 3, 3, Trump.GRAND, True, False), marks=pytest.mark.crosscheck),
    pytest.param((3, 3, 4, Trump.SPADES, True, True), marks=pytest.mark.crosscheck),
    pytest.param((4, 4, 3, Trump.HEARTS, True, True), marks=pytest.mark.crosscheck),
]
SPECS = QUICK + BROAD


def every_path(spec, policy) -> dict[tuple[int, int], Fraction]:
    """The exact (points, tricks) distribution from walking every play path on ``Table``."""
    cards = frozenset(spec.cards) | spec.put_away
    out: dict[tuple[int, int], Fraction] = {}

    def walk(table: Table, p: Fraction, skat: frozenset[Card], base: int) -> None:
        if table.over:
            key = (base + table.taken[0], spec.declarer_tricks + table.won[0])
            out[key] = out.get(key, Fraction(0)) + p
            return
        for card, w in policy(table_view(table, cards, skat)).items():
            if w:
                walk(table.play(card), p * w, skat, base)

    for owner, q in weighted_deals(spec):
        skat = frozenset(c for c, p in owner.items() if p == SKAT) | spec.put_away
        walk(Table.from_owner(spec, owner), q, skat, spec.declarer_points + skat_points(owner))
    return out


def referee(spec, policy) -> dict[tuple[int, int], Fraction]:
    dist = outcome_distribution(spec, None, policy)
    return {k: q for k, q in regroup(dist, lambda o: o[:2]).items() if q}


@pytest.mark.parametrize("params", SPECS)
def test_the_referee_keeps_the_orders_of_play_apart(params):
    spec = random_spec(*params, max_qubits=10_000)
    assert referee(spec, PROBE) == every_path(spec, PROBE)


def test_without_the_flag_the_shared_positions_answer_another_question():
    """The control: the same weights without ``reads_history`` are shared between orders of
    play (and see no tricks), which changes the distribution on some spec."""
    assert reads_history(PROBE) and not reads_history(BLIND)
    differs = [
        referee(spec, BLIND) != every_path(spec, PROBE)
        for spec in (random_spec(*p, max_qubits=10_000) for p in QUICK)
    ]
    assert any(differs)


@pytest.mark.parametrize("params", SPECS[:4])
def test_the_weighted_circuit_follows_the_history(params):
    spec = random_spec(*params, max_qubits=10_000)
    game = build_game(spec, model=PlayModel("probe", "reads the tricks", PROBE))
    got = regroup(sparse_final_outcomes(game), lambda o: tuple(o[:2]))
    want = every_path(spec, PROBE)
    assert {k for k, p in got.items() if p > 1e-12} == set(want)
    for key, p in want.items():
        assert abs(got[key] - float(p)) < 1e-9, key


@pytest.mark.parametrize("params", SPECS[:4])
def test_the_best_response_to_a_history_policy_beats_playing_it(params):
    spec = random_spec(*params, max_qubits=10_000)
    response = best_response(spec, "win", others=PROBE, clairvoyant=False)
    played = every_path(spec, PROBE)
    assert response.value >= sum(q for (p, t), q in played.items() if spec.declarer_wins(p, t))
    assert sum(response.outcomes.values()) == 1


def random_tables(count: int, seed: int = 0):
    rng = np.random.default_rng(seed)
    for _ in range(count):
        deck = [FULL_DECK[i] for i in rng.permutation(len(FULL_DECK))]
        rules = rules_of((Trump.CLUBS, Trump.GRAND, Trump.NULL)[rng.integers(3)])
        table = Table.deal(rules, [deck[10 * k : 10 * k + 10] for k in range(3)])
        for _ in range(int(rng.integers(30))):
            legal = table.legal()
            table = table.play(legal[rng.integers(len(legal))])
        yield table, frozenset(deck), frozenset(deck[30:])


def test_a_table_view_shows_the_tables_voids_and_points():
    for table, cards, skat in random_tables(300):
        view = table_view(table, cards, skat)
        assert view.voids() == table.voids()
        assert view.played == frozenset(c for _s, c in table.plays) - set(table.trick)
        own = table.taken[view.seat] if view.seat == 0 else sum(table.taken[1:])
        assert view.taken() == (own, sum(table.taken) - own)


def test_a_view_in_another_seat_order_names_the_same_seats():
    for table, cards, skat in random_tables(100, seed=1):
        order = [2, 0, 1]  # view seat i is table seat order[i]
        view = table_view(table, cards, skat, order)
        assert view.voids() == {(order.index(s), suit) for s, suit in table.voids()}
        assert view.hand == table.hands_at_trick_start()[table.to_move]


def test_version_two_reads_the_shown_voids_and_version_one_is_its_first_columns():
    rules = rules_of(Trump.GRAND)
    deck = {str(c): c for c in FULL_DECK}
    c = [deck[n] for n in ("CA", "C10", "HA", "CK", "CQ", "C9", "H10")]
    # trick 1: seat 0 leads CA, seat 1 plays HA (void in clubs), seat 2 plays C10
    hands = [[c[0], c[3], c[4]], [c[2], c[6], deck["S7"]], [c[1], c[5], deck["S8"]]]
    table = Table.deal(rules, hands)
    for card in (c[0], c[2], c[1]):
        table = table.play(card)
    view = table_view(table, frozenset(FULL_DECK), frozenset())
    assert view.seat == 0 and view.voids() == {(1, "C")}
    x = card_features(view)
    col = {name: i for i, name in enumerate(FEATURE_NAMES)}
    clubs = [i for i, card in enumerate(view.legal) if card.suit == "C"]
    assert clubs and all(x[i, col["foes_void"]] == 0.5 for i in clubs)
    assert x[0, col["own_points"]] == (11 + 11 + 10) / 120
    assert x[0, col["declarer_tricks"]] == 1 / 10
    assert x[0, col["foes_void_trump"]] == 0.0 and TRUMP != "C"
    np.testing.assert_array_equal(card_features(view, version=1), x[:, : len(FEATURE_NAMES_V1)])
