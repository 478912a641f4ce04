from __future__ import annotations

from fractions import Fraction

import pytest

from qcards.cards import Card
from qcards.classical import count_deals, deals, evaluate, paths, recommend
from qcards.errors import ModelError

from conftest import generated_specs, random_spec

CA, CK = Card("C", "A"), Card("C", "K")


def test_four_card_referee(four_card):
    ev = evaluate(four_card)
    assert ev.p_win == Fraction(5, 12)  # derived by hand in the README
    assert ev.num_deals == 6 and ev.num_paths == 24
    assert ev.expected_points == 14  # symmetric game: half of 28 on average


def test_six_card_referee_both_models(six_card):
    assert evaluate(six_card, first=CA).p_win == Fraction(2, 3)
    assert evaluate(six_card, first=CK).p_win == Fraction(2, 3)
    assert evaluate(six_card, "adversarial", first=CA).p_win == Fraction(1, 3)
    assert evaluate(six_card, "adversarial", first=CK).p_win == Fraction(2, 3)
    assert evaluate(six_card, first=CA).num_paths == 12


def test_deals_are_uniform_and_counted(six_card):
    all_deals = list(deals(six_card))
    assert len(all_deals) == count_deals(six_card) == 6
    assert len({tuple(sorted((str(c), p) for c, p in d.items())) for d in all_deals}) == 6


@pytest.mark.parametrize("params", generated_specs()[::3], ids=lambda p: str(p[0]))
def test_memoised_evaluation_equals_path_enumeration(params):
    spec = random_spec(*params)
    all_paths = list(paths(spec))
    assert sum(p.probability for p in all_paths) == 1
    p_win = sum(p.probability for p in all_paths if p.declarer_points(spec) >= spec.target)
    points = sum(p.probability * p.declarer_points(spec) for p in all_paths)
    ev = evaluate(spec)
    assert ev.p_win == p_win and ev.expected_points == points
    assert ev.num_paths == len(all_paths)


def _minimax(spec, hands, leader, trick, pts):
    """Independent plain double-dummy search (no memo) to check the referee's adversarial model."""
    n = len(spec.players)
    if not any(hands.values()) and not trick:
        return (1 if pts >= spec.target else 0), pts
    player = spec.players[(spec.players.index(leader) + len(trick)) % n]
    options = []
    for card in spec.rules.legal_cards(hands[player], trick[0][1] if trick else None):
        rest = {**hands, player: hands[player] - {card}}
        now = [*trick, (player, card)]
        if len(now) < n:
            options.append(_minimax(spec, rest, leader, now, pts))
            continue
        winner = now[spec.rules.trick_winner([c for _, c in now])][0]
        gained = sum(c.value for _, c in now) if winner == spec.declarer else 0
        nxt = winner if spec.winner_leads else spec.leader
        options.append(_minimax(spec, rest, nxt, [], pts + gained))
    pick = max if player == spec.declarer else min
    return pick(o[0] for o in options), pick(o[1] for o in options)


@pytest.mark.parametrize("params", generated_specs()[::4], ids=lambda p: str(p[0]))
def test_adversarial_equals_independent_minimax(params):
    spec = random_spec(*params)
    wins, pts = [], []
    for deal in deals(spec):
        hands = {p: frozenset(c for c, q in deal.items() if q == p) for p in spec.players}
        w, v = _minimax(spec, hands, spec.leader, [], spec.declarer_points)
        wins.append(w)
        pts.append(v)
    ev = evaluate(spec, "adversarial")
    assert ev.p_win == Fraction(sum(wins), len(wins))
    assert ev.expected_points == Fraction(sum(pts), len(pts))


def test_first_card_errors(six_card):
    with pytest.raises(ModelError, match="not in the declarer's known hand"):
        evaluate(six_card, first=Card("C", "10"))


def test_recommend_sorted(six_card):
    ranked = recommend(six_card, "adversarial")
    assert [c for c, _ in ranked] == [CK, CA]
    assert ranked[0][1] == Fraction(2, 3)


def test_unknown_model(six_card):
    with pytest.raises(ModelError, match="unknown model"):
        evaluate(six_card, "optimal")
