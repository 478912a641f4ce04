"""The declarer who cannot see the cards (issue 39 item 4, exact part): its best response to
random defenders against independent computations: with one deal it is the plain expectimax;
the clairvoyant declarer is the per-deal expectimax averaged; with one decision it is the best
card's average; it is never below random play nor above the clairvoyant declarer, and the gap
(what seeing the cards is worth) is measured on the test specs."""

from __future__ import annotations

from fractions import Fraction

import pytest
from test_advice import DECLARER_VIEW

from qcards.analysis.evaluate import evaluate
from qcards.errors import ModelError
from qcards.skat.deals.enumeration import weighted_deals
from qcards.skat.players.beliefs import Beliefs, believe, check_beliefs
from qcards.skat.players.best_response import best_response, first_cards
from qcards.skat.players.play_models import get_model
from qcards.skat.position.seat_view import seat_view
from qcards.skat.position.spec import parse_spec
from qcards.skat.rules.cards import Card, Trump

from conftest import generated_specs, random_spec, sampled, spec_text

CASES = generated_specs()[::2]


def expectimax(spec, owner) -> Fraction:
    """The declarer's win chance on one open deal: it maximises, the others play at random."""
    rules = spec.rules
    n = len(spec.players)

    def walk(hands, leader, trick, points, tricks):
        if not any(hands) and not trick:
            return Fraction(int(spec.declarer_wins(points, spec.declarer_tricks + tricks)))
        seat = (leader + len(trick)) % n
        legal = rules.legal_cards(hands[seat], trick[0] if trick else None)
        values = []
        for card in legal:
            rest = tuple(h - {card} if i == seat else h for i, h in enumerate(hands))
            done = (*trick, card)
            if len(done) < n:
                values.append(walk(rest, leader, done, points, tricks))
                continue
            winner = (leader + rules.trick_winner(done)) % n
            gain = sum(c.value for c in done) if winner == 0 else 0
            nxt = winner if spec.winner_leads else spec.players.index(spec.leader)
            values.append(walk(rest, nxt, (), points + gain, tricks + (winner == 0)))
        return max(values) if seat == 0 else sum(values, Fraction(0)) / len(values)

    hands = tuple(frozenset(c for c, p in owner.items() if p == who) for who in spec.players)
    base = spec.declarer_points + sum(c.value for c, p in owner.items() if p == "skat")
    return walk(hands, spec.players.index(spec.leader), (), base, 0)


@pytest.mark.parametrize("params", sampled(CASES), ids=str)
def test_between_random_play_and_the_clairvoyant_declarer(params):
    spec = random_spec(*params)
    br = best_response(spec)
    clairvoyant = sum((q * expectimax(spec, o) for o, q in weighted_deals(spec)), Fraction(0))
    assert br.clairvoyant == clairvoyant
    assert evaluate(spec, method="classical").p_win_exact <= br.value <= clairvoyant
    assert sum(br.outcomes.values()) == 1
    assert br.value == sum(q for (p, t, _m), q in br.outcomes.items() if spec.declarer_wins(p, t))


OPEN = """
players = ["A", "B", "C"]
trump = "clubs"
leader = "A"
declarer_points = 30
[hands]
A = ["CJ", "SA", "H7"]
B = ["C7", "S10", "HA"]
C = ["SK", "S9", "H10"]
"""


def test_one_deal_is_the_expectimax():
    spec = parse_spec(OPEN)
    ((owner, _),) = weighted_deals(spec)
    br = best_response(spec)
    assert br.value == br.clairvoyant == expectimax(spec, owner)
    assert 0 < br.value < 1


def test_one_decision_is_the_best_cards_average():
    # two tricks the declarer leads: its second card is forced, so its only decision is the
    # first card, taken without seeing the deal: the best response is the best card's average
    checked = 0
    for params in generated_specs():
        spec = random_spec(*params)
        if spec.num_tricks != 2 or spec.leader != spec.declarer or not spec.hands["A"]:
            continue
        best = max(evaluate(spec, c, method="classical").p_win_exact for c in spec.hands["A"])
        assert best_response(spec).value == best
        checked += 1
    assert checked >= 3


FUSION = (15, 3, 3, Trump.CLUBS, True, True)
"""A three-trick endgame where seeing the cards changes the declarer's best play."""


def test_strategy_fusion_is_measured():
    spec = random_spec(*FUSION, max_qubits=400)
    br = best_response(spec)
    clairvoyant = sum((q * expectimax(spec, o) for o, q in weighted_deals(spec)), Fraction(0))
    assert br.clairvoyant == clairvoyant > br.value  # 0.483 against 0.378
    assert br.value > evaluate(spec, method="classical").p_win_exact


def test_evaluate_and_refusals():
    spec = parse_spec(spec_text("skat-two-tricks"))
    report = evaluate(spec, model="best-response")
    assert report.p_win_exact == best_response(spec).value and report.method == "classical"
    with pytest.raises(ModelError, match="no method samples the best-response model"):
        evaluate(spec, model="best-response", shots=100)


def test_pimcs_first_card_is_never_better_than_the_best_response():
    for params in CASES[:8]:
        spec = random_spec(*params)
        if spec.leader != spec.declarer or not spec.hands["A"]:
            continue
        rows = first_cards(spec)
        pimc = max(rows, key=lambda r: r.clairvoyant)
        assert pimc.value <= rows[0].value == best_response(spec).value
        assert all(r.clairvoyant >= r.value for r in rows)


@pytest.mark.parametrize("model", ["random", "heuristic"])
@pytest.mark.parametrize("params", CASES[:10], ids=str)
def test_the_compiled_chooser_gives_the_python_walks_numbers(params, model):
    # the compiled walk picks the declarer's cards, the exact walk follows them: the same
    # Fractions and the same outcome distribution as the walk that tries every card itself,
    # against random and against heuristic opponents (the heuristic's compiled twin)
    spec = random_spec(*params)
    others = get_model(model).policy
    fast = best_response(spec, others=others, compiled=True)
    slow = best_response(spec, others=others, compiled=False)
    assert (fast.value, fast.clairvoyant, fast.outcomes) == (slow.value, slow.clairvoyant,
                                                             slow.outcomes)  # fmt: skip


@pytest.mark.slow
def test_the_compiled_chooser_on_a_twelve_card_endgame_and_a_score():
    spec = random_spec(3, 3, 4, Trump.CLUBS, True, True, max_qubits=10_000)
    fast, slow = best_response(spec, compiled=True), best_response(spec, compiled=False)
    assert fast.value == slow.value > 0 and fast.clairvoyant == slow.clairvoyant > fast.value
    others = get_model("heuristic").policy
    fast = best_response(spec, others=others, clairvoyant=False)
    slow = best_response(spec, others=others, clairvoyant=False, compiled=False)
    assert (fast.value, fast.outcomes) == (slow.value, slow.outcomes)
    for name in ("declared-hand", "declared-pickup", "declared-tiny"):
        declared = parse_spec(spec_text(name))
        for objective in ("score", "seeger-fabian"):
            fast = best_response(declared, objective, compiled=True)
            slow = best_response(declared, objective, compiled=False)
            assert (fast.value, fast.clairvoyant) == (slow.value, slow.clairvoyant)


def test_pruning_needs_a_monotone_objective():
    import numpy as np

    from qcards.skat.players.best_response import _monotone

    up = np.arange(2 * 121 * 3, dtype=float).reshape(2, 121, 3)
    assert _monotone(up) and _monotone(-up)
    bumpy = up.copy()
    bumpy[0, 60, 1] = 10_000.0
    assert not _monotone(bumpy)


def test_the_compiled_chooser_plays_against_random_or_heuristic_opponents_only():
    spec = parse_spec(OPEN)
    with pytest.raises(ModelError, match="random or heuristic opponents only"):
        best_response(spec, others=get_model("softmax").policy, compiled=True)


DECLARED_VIEW = (
    DECLARER_VIEW
    + """
[declaration]
bid = 18
matadors = 1
discard = ["S8", "D8"]
"""
)
"""The same position after a pick-up: the discard (S8, D8) is out of play, seen by the
declarer only; the heuristic defenders count it among the cards they cannot see."""


@pytest.mark.parametrize("text", [DECLARER_VIEW, DECLARED_VIEW], ids=["plain", "declared"])
@pytest.mark.parametrize("model", ["random", "heuristic"])
def test_the_best_response_after_an_opening_is_consistent_with_the_whole_trick(model, text):
    """Beliefs and the best response agree (Bayes): from the trick's start, where the defenders
    lead and the declarer answers, the best response's value is the average over the defenders'
    two opening cards, weighted by their probability under the policy, of the best answer's
    value after them, each valued from the beliefs that policy gives (no tremble), with the
    opening as :func:`best_response` takes it. The compiled chooser (random opponents) gives
    the same values after the opening."""
    spec = parse_spec(text)
    policy = get_model(model).policy
    put_away = spec.put_away
    rules, cards = spec.rules, frozenset(spec.cards) | put_away
    whole = best_response(spec, others=policy, clairvoyant=False, compiled=False).value
    leader = spec.players.index(spec.leader)
    openings: dict[tuple, Fraction] = {}
    for owner, q in weighted_deals(spec):
        hands = tuple(frozenset(c for c, p in owner.items() if p == w) for w in spec.players)
        first = seat_view(rules, cards, hands, leader, (), put_away)
        for b, pb in policy(first).items():
            second = seat_view(rules, cards, hands, leader, (b,), put_away)
            for c, pc in policy(second).items():
                openings[(b, c)] = openings.get((b, c), Fraction(0)) + q * pb * pc
    beliefs = Beliefs(model, policy, Fraction(0))
    total = Fraction(0)
    for (b, c), p in openings.items():
        if not p:
            continue
        source = believe(spec, f"B:{b} C:{c}", beliefs)
        where, deals = source.where, source.exact()
        rows = first_cards(where.spec, "win", policy, where.opening, deals, clairvoyant=False)
        total += p * rows[0].value
        for row in rows:  # first_cards ran the compiled chooser; the walk tries every card
            walked = best_response(where.spec, "win", row.card, policy, False, False,
                                   opening=where.opening, deals=deals)  # fmt: skip
            assert walked.value == row.value
    assert total == whole
    assert 0 < whole < 1


def test_an_opening_must_end_at_the_declarers_turn():
    spec = parse_spec(DECLARER_VIEW)
    with pytest.raises(ModelError, match="it is C's turn"):
        best_response(spec, opening=(Card.parse("C10"),))
    source = believe(spec, "B:C10 C:CK", check_beliefs("random"))
    with pytest.raises(ModelError, match="not a legal card"):
        best_response(source.where.spec, first=Card.parse("HA"), opening=source.where.opening)
