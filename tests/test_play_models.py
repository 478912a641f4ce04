"""Play models as records (issue 39 item 1): the registry, every heuristic rule on a position,
the softmax family (theta = 0 is random play), and each policy model's numbers from the
referee against an independent reweighting of the plain enumeration of play paths, with
Monte Carlo covering them."""

from __future__ import annotations

from fractions import Fraction

import pytest

from qcards.analysis.decision_plays import PlayComputation
from qcards.analysis.decisions import declare_twelve
from qcards.analysis.evaluate import evaluate
from qcards.errors import ModelError
from qcards.skat.players.play_models import (
    BUILT_IN,
    SeatView,
    get_model,
    heuristic,
    model_names,
    softmax_policy,
)
from qcards.skat.position.spec import parse_spec
from qcards.skat.rules.cards import Card, Rules, Trump
from qcards.skat.solvers.outcome_distributions import outcome_distribution
from qcards.skat.solvers.plain_referee import paths

from conftest import generated_specs, random_spec, sampled, spec_text

CLUBS = Rules(Trump.CLUBS)


def cards(text: str) -> frozenset[Card]:
    return frozenset(Card.parse(c) for c in text.split())


def view(hand, trick="", seat=0, leader=0, out="", played="", rules=CLUBS, players=3):
    return SeatView(rules, seat, players, cards(hand),
                    tuple(Card.parse(c) for c in trick.split()), leader, cards(played),
                    cards(out))  # fmt: skip


def chosen(v: SeatView) -> set[str]:
    return {str(c) for c, w in heuristic(v).items() if w}


def test_registry():
    assert set(model_names()) >= {"random", "adversarial", "heuristic", "softmax"}
    assert get_model("heuristic") is BUILT_IN["heuristic"]
    assert get_model("adversarial").minimax and get_model("random").circuits
    with pytest.raises(ModelError, match="unknown model 'clairvoyant'.*heuristic"):
        get_model("clairvoyant")
    with pytest.raises(ModelError, match="unknown feature 'luck'"):
        softmax_policy({"declarer": {"luck": 1.0}})


# ----------------------------------------------------------------------------- the rules


def test_rule_1_the_declarer_long_in_trumps_draws_them():
    v = view("CJ HJ CA SA S7", out="SJ C7 H8 H9 D7 D8")
    assert chosen(v) == {"CJ"}  # three trumps against two out


def test_rule_2_a_sure_trick_is_cashed_points_first():
    v = view("C7 SA S7 HK", out="CJ HJ C8 C9 SK H8 H9 DA")  # short in trumps: cash the ace
    assert chosen(v) == {"SA"}


def test_rule_3_a_defender_leads_low_through_the_declarer():
    # seat 2 leads, the declarer (seat 0) plays next, the partner (seat 1) last
    v = view("SK S8 H7 HQ", seat=2, leader=2, out="CJ SA S10 HA H10 D7 D8 D9")
    assert chosen(v) == {"H7"}  # no sure trick: the lowest side-suit card


def test_rule_4_otherwise_the_lowest_side_card():
    # one trump against two out, no card tops its suit: the fewest points, the weakest
    v = view("HJ S8 SK D9", out="CJ SJ SA S10 DA D10 H7 H8")
    assert chosen(v) == {"S8"}


def test_rule_5_smear_on_the_partners_trick():
    # seat 2 last; seat 1 (partner) wins the trick over the declarer's card
    v = view("HA H7 CQ", trick="H8 HK", seat=2, leader=0, out="C7 C8 S7")
    assert chosen(v) == {"HA"}


def test_rule_6_last_to_play_take_the_trick_with_the_most_points():
    v = view("HA H10 H7", trick="H8 HK", seat=0, leader=1, out="C7 C8 S7")
    assert chosen(v) == {"HA"}


def test_rule_7_a_sure_winner_in_second_seat_is_played_cheaply():
    v = view("CJ SJ C7 H9", trick="C8", seat=1, leader=0, out="HJ DJ CA C10")
    assert chosen(v) == {"SJ"}  # both jacks beat every unseen trump; the spades jack is weaker


def test_rule_8_follow_low_and_keep_a_guarded_ten():
    # cannot follow hearts nor win: discard low, but not the seven that guards the spades
    # ten while the spades ace is out
    v = view("S10 S7 D7", trick="HA", seat=1, leader=0, out="SA H8 D8 CJ")
    assert chosen(v) == {"D7"}
    unguarded = view("S10 S7 D7", trick="HA", seat=1, leader=0, out="SK H8 D8 CJ")
    assert chosen(unguarded) == {"S7", "D7"}  # the ace is not out: both sevens are weakest


def test_null_declarer_ducks_under_the_trick():
    rules = Rules(Trump.NULL)
    v = view("HA H9 H7", trick="H10", seat=0, leader=1, rules=rules, out="HQ HK S7 S8")
    assert chosen(v) == {"H9"}  # the highest card that stays under the ten


# ----------------------------------------------------------------------------- numbers


def reweighted(spec, policy) -> tuple[Fraction | float, Fraction | float]:
    """p_win and expected points of ``policy`` by reweighting every path of the plain
    enumeration move by move, the seat's view rebuilt from the path (independent of the
    outcome search)."""
    all_cards = frozenset(spec.cards)
    n = len(spec.players)
    seat_of = {p: i for i, p in enumerate(spec.players)}
    win = points = 0
    for path in paths(spec):
        prob = path.probability * path_count(spec, path)  # the deal's probability
        hands = [frozenset(c for c, p in path.owner.items() if p == who) for who in spec.players]
        finished: set[Card] = set()
        leader = seat_of[spec.leader]
        weight = Fraction(1)
        for k in range(0, len(path.plays), n):
            trick = path.plays[k : k + n]
            played = [c for _t, _p, c in trick]
            for i, (_t, player, card) in enumerate(trick):
                seat = seat_of[player]
                hand = hands[seat]
                out = all_cards - hand - frozenset(finished) - frozenset(played[:i])
                v = SeatView(spec.rules, seat, n, hand, tuple(played[:i]), leader,
                             frozenset(finished), out)  # fmt: skip
                weight = weight * policy(v).get(card, 0)
            for _t, player, card in trick:
                hands[seat_of[player]] = hands[seat_of[player]] - {card}
            finished.update(played)
            winner = seat_of[path.winners[k // n]]
            leader = winner if spec.winner_leads else seat_of[spec.leader]
        win += prob * weight * int(path.declarer_won(spec))
        points += prob * weight * path.declarer_points(spec)
    return win, points


def path_count(spec, path) -> Fraction:
    """1 / the uniform probability of the path's plays (its probability is the deal's times
    the product of 1/legal)."""
    rules = spec.rules
    n = len(spec.players)
    seat_of = {p: i for i, p in enumerate(spec.players)}
    hands = [set(c for c, p in path.owner.items() if p == who) for who in spec.players]
    factor = Fraction(1)
    for k in range(0, len(path.plays), n):
        trick = path.plays[k : k + n]
        for i, (_t, player, card) in enumerate(trick):
            led = trick[0][2] if i else None
            factor *= len(rules.legal_cards(hands[seat_of[player]], led))
            hands[seat_of[player]].discard(card)
    return factor


POLICY_CASES = generated_specs()[::3]


@pytest.mark.parametrize("params", sampled(POLICY_CASES), ids=str)
def test_heuristic_referee_equals_reweighted_paths(params):
    spec = random_spec(*params)
    report = evaluate(spec, model="heuristic", method="classical")
    p_win, points = reweighted(spec, heuristic)
    assert report.p_win_exact == p_win
    assert abs(report.expected_points - float(points)) < 1e-9


@pytest.mark.parametrize("params", POLICY_CASES[:6], ids=str)
def test_softmax_with_theta_zero_is_random_play(params):
    spec = random_spec(*params)
    uniform = outcome_distribution(spec)
    zero = outcome_distribution(spec, policy=softmax_policy({}))
    assert set(zero) == set(uniform)
    for outcome, q in uniform.items():
        assert abs(zero[outcome] - float(q)) < 1e-12


@pytest.mark.parametrize("params", POLICY_CASES[:6], ids=str)
def test_softmax_referee_equals_reweighted_paths(params):
    spec = random_spec(*params)
    policy = get_model("softmax").policy
    report = evaluate(spec, model="softmax")
    p_win, points = reweighted(spec, policy)
    assert report.p_win_exact is None and report.method == "classical"
    assert abs(report.p_win - float(p_win)) < 1e-9
    assert abs(report.expected_points - float(points)) < 1e-9


def test_monte_carlo_covers_the_exact_values():
    spec = parse_spec(spec_text("declared-hand"))
    exact = evaluate(spec, model="heuristic")
    sampled = evaluate(spec, model="heuristic", shots=3000, seed=2)
    assert sampled.method == "monte-carlo"
    low, high = sampled.samples.p_win_ci
    assert low <= exact.p_win <= high
    for key, value in exact.scores.exact.items():  # 95% intervals, a fixed seed
        lo, hi = sampled.scores.ci[key]
        assert lo <= value <= hi, key


def test_circuits_prepare_a_policy_model_with_a_skat():
    """The policy-weighted circuit (tests/test_policy_gates.py) of a spec with a Skat, whose
    cards no seat sees: the sparse engine gives the referee's Fractions under the model."""
    spec = parse_spec(spec_text("skat-two-tricks"))
    circuit = evaluate(spec, model="heuristic", method="sparse")
    referee = evaluate(spec, model="heuristic", method="classical")
    assert circuit.method == "sparse" and circuit.p_win_exact == referee.p_win_exact
    assert abs(circuit.p_win - float(referee.p_win_exact)) < 1e-9
    assert abs(circuit.expected_points - referee.expected_points) < 1e-9


def test_decisions_under_a_policy_model():
    text = spec_text("twelve-small")
    exact = declare_twelve(text, "t", runner=PlayComputation(model="heuristic"))
    assert exact.method == "classical" and exact.best.figures.seeger_fabian_exact is not None
    sampled = declare_twelve(text, "t", runner=PlayComputation(shots=400, seed=1, model="softmax"))
    assert sampled.method == "monte-carlo" and sampled.best.figures.seeger_fabian_ci
