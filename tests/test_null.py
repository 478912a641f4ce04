"""Null games (ISkO 2.3.4, 5.2.7) against an independent brute force, on the referee and circuits.

The brute force below does not use :class:`qcards.skat.rules.cards.Rules`: it has its own rank
order,
suit following and trick winner for null games, enumerates the deals as assignments
(``conftest.all_deals``), and plays every card sequence out.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

import qcards
from qcards.circuits.oracle import build_win_circuit
from qcards.cli import main
from qcards.execution.sparse import engine as sparse
from qcards.skat.position.spec import parse_spec
from qcards.skat.rules.cards import Card, Rules, Trump
from qcards.skat.solvers.plain_referee import evaluate, recommend

from conftest import all_deals, random_spec

TOL = 1e-9
NULL_RANKS = ("A", "K", "Q", "J", "10", "9", "8", "7")


def null_winner(cards: list[Card]) -> int:
    """Index of the trick's winner: the highest card of the led (printed) suit."""
    led = cards[0].suit
    best = min((c for c in cards if c.suit == led), key=lambda c: NULL_RANKS.index(c.rank))
    return cards.index(best)


def null_legal(hand: frozenset[Card], led: Card | None) -> list[Card]:
    same = [c for c in hand if led is not None and c.suit == led.suit]
    return same or list(hand)


def brute_force(spec, adversarial: bool = False, first: Card | None = None) -> Fraction:
    """P(the declarer takes no trick): random play, or double dummy (declarer maximises);
    ``first`` fixes the declarer's first lead."""
    players, n = spec.players, len(spec.players)

    def play(hands, leader, trick, took):
        if not any(hands.values()) and not trick:
            return Fraction(int(took == 0))
        player = players[(players.index(leader) + len(trick)) % n]
        options = null_legal(hands[player], trick[0][1] if trick else None)
        if not trick and first in hands[player]:  # only the declarer's first lead holds it
            options = [first]
        results = []
        for card in options:
            rest = {**hands, player: hands[player] - {card}}
            now = [*trick, (player, card)]
            if len(now) < n:
                results.append(play(rest, leader, now, took))
                continue
            winner = now[null_winner([c for _, c in now])][0]
            nxt = winner if spec.winner_leads else spec.leader
            results.append(play(rest, nxt, [], took + (winner == spec.declarer)))
        if adversarial:
            return (max if player == spec.declarer else min)(results)
        return sum(results, Fraction(0)) / len(results)

    values = []
    for owner in all_deals(spec):
        hands = {p: frozenset(c for c, q in owner.items() if q == p) for p in players}
        values.append(play(hands, spec.leader, [], spec.declarer_tricks))
    return sum(values, Fraction(0)) / len(values)


NULL_PARAMS = [
    (seed, players, tricks, trump, leads, known)
    for seed, (players, tricks, known) in enumerate(
        [(2, 1, False), (2, 2, False), (2, 2, True), (3, 1, False), (3, 2, True), (2, 3, True)] * 3,
        start=7000,
    )
    for trump in (Trump.NULL, Trump.NULL_OUVERT)
    for leads in (True, False)
    if tricks > 1 or leads
]


def test_null_rank_order():
    rules = Rules(Trump.NULL)
    order = sorted((Card("H", r) for r in NULL_RANKS), key=rules.strength, reverse=True)
    assert [c.rank for c in order] == list(NULL_RANKS)
    assert not any(rules.is_trump(Card(s, "J")) for s in "CSHD")
    # the ten loses to the jack, and a jack follows its own suit
    assert rules.trick_winner([Card("H", "10"), Card("H", "J")]) == 1
    assert rules.legal_cards([Card("C", "J"), Card("S", "7")], Card("C", "A")) == (Card("C", "J"),)


@pytest.mark.parametrize("params", NULL_PARAMS, ids=lambda p: "-".join(map(str, p)))
def test_referee_equals_brute_force(params):
    spec = random_spec(*params)
    assert spec.is_null
    assert evaluate(spec).p_win == brute_force(spec)
    assert evaluate(spec, "adversarial").p_win == brute_force(spec, adversarial=True)


@pytest.mark.parametrize("construction", ["efficient", "paper"])
@pytest.mark.parametrize("params", NULL_PARAMS[::3], ids=lambda p: "-".join(map(str, p)))
def test_circuits_equal_the_referee(params, construction):
    spec = random_spec(*params)
    report = qcards.evaluate(spec, method="sparse", construction=construction)
    referee = evaluate(spec)
    assert abs(report.p_win - float(referee.p_win)) < TOL
    assert abs(report.expected_points - float(referee.expected_points)) < TOL


@pytest.mark.parametrize("construction", ["efficient", "paper"])
@pytest.mark.parametrize("params", NULL_PARAMS[1::4], ids=lambda p: "-".join(map(str, p)))
def test_win_oracle_marks_the_null_wins(params, construction):
    """The oracle's objective qubit is 1 with the referee's p_win (the good state of counting)."""
    spec = random_spec(*params)
    win = build_win_circuit(spec, construction=construction)
    state = sparse.simulate(win.circuit)
    p = state.probabilities([win.objective]).get(1, 0.0)
    assert abs(p - float(evaluate(spec).p_win)) < TOL


def test_hardware_construction_on_a_null_game():
    spec = random_spec(7002, 2, 2, Trump.NULL, True, True)
    report = qcards.evaluate(spec, method="statevector", construction="hardware")
    assert abs(report.p_win - float(evaluate(spec).p_win)) < TOL


NULL_SIX = """
players = ["A", "B", "C"]
trump = "null"
leader = "A"
declarer_tricks = {taken}
[hands]
A = ["C9", "H8"]
[unknown]
cards = ["C10", "C8", "C7", "HK"]
sizes = {{ B = 2, C = 2 }}
"""


def test_a_trick_taken_before_loses_the_null_game():
    clean = parse_spec(NULL_SIX.format(taken=0))
    lost = parse_spec(NULL_SIX.format(taken=1))
    assert 0 < evaluate(clean).p_win < 1
    assert evaluate(lost).p_win == 0 == brute_force(lost)
    for spec in (clean, lost):
        report = qcards.evaluate(spec, method="sparse")
        assert abs(report.p_win - float(evaluate(spec).p_win)) < TOL
        win = build_win_circuit(spec)
        p = sparse.simulate(win.circuit).probabilities([win.objective]).get(1, 0.0)
        assert abs(p - float(evaluate(spec).p_win)) < TOL


def test_recommend_in_a_null_game():
    """Each first card's p_win equals the brute force with that lead fixed."""
    spec = parse_spec(NULL_SIX.format(taken=0))
    ranked = dict(recommend(spec))
    for card, p in ranked.items():
        assert p == brute_force(spec, first=card)


def test_null_spec_refuses_a_target(tmp_path, capsys):
    path = tmp_path / "null.toml"
    path.write_text(NULL_SIX.format(taken=0).replace("leader", "target = 61\nleader"))
    assert main(["evaluate", str(path)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "field 'target'" in err[0] and "no trick" in err[0]


def test_null_ouvert_evaluates_like_null():
    null = parse_spec(NULL_SIX.format(taken=0))
    ouvert = parse_spec(NULL_SIX.format(taken=0).replace('"null"', '"null-ouvert"'))
    assert evaluate(null) == evaluate(ouvert)


def test_histogram_of_a_null_game(tmp_path, capsys):
    """``qcards run --plot`` on a null game: sampled p_win within 5 standard errors of exact
    (2000 shots, seed 1), the histogram written."""
    spec_path = tmp_path / "null.toml"
    spec_path.write_text(NULL_SIX.format(taken=0))
    figure = tmp_path / "null.png"
    argv = ["run", str(spec_path), "--backend", "sparse", "--shots", "2000", "--seed", "1"]
    assert main([*argv, "--plot", str(figure), "--json"]) == 0
    import json

    sampled = json.loads(capsys.readouterr().out)["p_win"]
    exact = float(evaluate(parse_spec(NULL_SIX.format(taken=0))).p_win)
    assert abs(sampled - exact) < 5 * (exact * (1 - exact) / 2000) ** 0.5
    assert figure.stat().st_size > 0
