from __future__ import annotations

import math
from fractions import Fraction
from pathlib import Path

import pytest

from qcards.errors import ModelError
from qcards.skat.deals.count import num_deals
from qcards.skat.deals.enumeration import deals
from qcards.skat.position.spec import SKAT, parse_spec
from qcards.skat.position.stages import skat_points
from qcards.skat.rules.cards import Card
from qcards.skat.solvers.plain_referee import evaluate, paths, recommend, stage_distributions

from conftest import generated_specs, random_spec, spec_id

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
    assert len(all_deals) == num_deals(six_card) == 6
    assert len({tuple(sorted((str(c), p) for c, p in d.items())) for d in all_deals}) == 6


@pytest.mark.parametrize(
    "params", generated_specs()[::3] + generated_specs(skat=True)[::3], ids=lambda p: str(p[0])
)
def test_memoised_evaluation_equals_path_enumeration(params):
    spec = random_spec(*params)
    all_paths = list(paths(spec))
    assert sum(p.probability for p in all_paths) == 1
    p_win = sum(p.probability for p in all_paths if p.declarer_won(spec))
    points = sum(p.probability * p.declarer_points(spec) for p in all_paths)
    ev = evaluate(spec)
    assert ev.p_win == p_win and ev.expected_points == points
    assert ev.num_paths == len(all_paths)


def _minimax(spec, hands, leader, trick, pts, tricks=0):
    """Independent plain double-dummy search (no memo) to check the referee's adversarial model."""
    n = len(spec.players)
    if not any(hands.values()) and not trick:
        won = tricks == 0 if spec.trump.is_null else pts >= spec.target
        return int(won), pts
    player = spec.players[(spec.players.index(leader) + len(trick)) % n]
    options = []
    for card in spec.rules.legal_cards(hands[player], trick[0][1] if trick else None):
        rest = {**hands, player: hands[player] - {card}}
        now = [*trick, (player, card)]
        if len(now) < n:
            options.append(_minimax(spec, rest, leader, now, pts, tricks))
            continue
        winner = now[spec.rules.trick_winner([c for _, c in now])][0]
        gained = sum(c.value for _, c in now) if winner == spec.declarer else 0
        nxt = winner if spec.winner_leads else spec.leader
        took = tricks + (winner == spec.declarer)
        options.append(_minimax(spec, rest, nxt, [], pts + gained, took))
    pick = max if player == spec.declarer else min
    return pick(o[0] for o in options), pick(o[1] for o in options)


@pytest.mark.parametrize(
    "params", generated_specs()[::4] + generated_specs(skat=True)[::4], ids=lambda p: str(p[0])
)
def test_adversarial_equals_independent_minimax(params):
    spec = random_spec(*params)
    wins, pts = [], []
    for deal in deals(spec):
        hands = {p: frozenset(c for c, q in deal.items() if q == p) for p in spec.players}
        in_skat = sum(c.value for c, q in deal.items() if q == "skat")
        w, v = _minimax(spec, hands, spec.leader, [], spec.declarer_points + in_skat)
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


# ----------------------------------------------------------------------------- the Skat


def test_skat_deals_are_multinomial(skat_one_trick, skat_two_tricks, skat_only):
    for spec, expected in ((skat_one_trick, 6), (skat_two_tricks, 6), (skat_only, 1)):
        all_deals = list(deals(spec))
        assert len(all_deals) == num_deals(spec) == expected
        assert (
            len({tuple(sorted((str(c), p) for c, p in d.items())) for d in all_deals}) == expected
        )
        for deal in all_deals:
            assert sum(1 for q in deal.values() if q == SKAT) == spec.skat_size
            assert all(deal[c] == p for p in spec.players for c in spec.hands[p])


def test_skat_num_deals_full_game():
    """A real Skat endgame: 22 unknown cards, 10 each for the defenders and 2 in the Skat."""
    from qcards.skat.rules.cards import FULL_DECK

    hand, unknown = FULL_DECK[:10], FULL_DECK[10:]
    spec = parse_spec(
        f'players = ["A", "B", "C"]\n[hands]\nA = {[str(c) for c in hand]}\n'
        f"[unknown]\ncards = {[str(c) for c in unknown]}\nsizes = {{ B = 10, C = 10, skat = 2 }}"
    )
    assert spec.receivers == ("B", "C", SKAT) and spec.hand_size == 10
    assert num_deals(spec) == math.comb(22, 10) * math.comb(12, 10)  # 22!/(10! 10! 2!)


def test_skat_one_trick_by_hand(skat_one_trick):
    """A (spades trump) leads HA; B and C hold one card each, one card lies in the Skat.

    The 3! = 6 deals of H10, C7, SK (B, C, Skat) are equally likely; every play is forced.
    SK is a trump, so whoever holds it takes the trick; the Skat's card goes to A.

    ====  ====  ====  ======================  ================
    B     C     Skat  trick                   A's points
    ====  ====  ====  ======================  ================
    H10   C7    SK    A takes HA H10 C7 (21)  21 + 4 (Skat) = 25
    C7    H10   SK    A takes 21              25
    H10   SK    C7    C trumps                0
    C7    SK    H10   C trumps                0 + 10 = 10
    SK    H10   C7    B trumps                0
    SK    C7    H10   B trumps                10
    ====  ====  ====  ======================  ================

    Target 10: A wins in 4 of 6 deals (two of them only thanks to the Skat), p_win = 2/3;
    expected points (25 + 25 + 0 + 10 + 0 + 10) / 6 = 35/3. Nothing to choose: adversarial equal.
    """
    for model in ("random", "adversarial"):
        ev = evaluate(skat_one_trick, model)
        assert ev.p_win == Fraction(2, 3) and ev.expected_points == Fraction(35, 3)
        assert ev.num_deals == 6 and ev.num_paths == 6


def test_skat_two_tricks_by_hand(skat_two_tricks):
    """Diamonds trump (the jacks and D10 are trumps); A holds CA HJ, leads, has 5 points taken.

    B gets two of C10 C7 HK D10, the other two lie in the Skat: 6 deals. All 37 points in play
    (CA 11, HJ 2, C10 10, HK 4, D10 10) end with A -- 42 with the 5 taken -- except when B holds
    HK D10 and A leads CA (probability 1/2): B, void in clubs, plays either card (1/2 each); with
    D10 B trumps CA and takes 21, then A trumps HK with HJ: A has 5 + 6 + 10 (Skat C10 C7) = 21.
    Leading HJ first draws D10 and A takes everything.

    Random: p_win (target 30) = (5 + 3/4) / 6 = 23/24; expected points
    (5 * 42 + 3/4 * 42 + 1/4 * 21) / 6 = 329/8. Adversarial: A leads HJ, every deal gives 42.
    Paths: 4 + 3 + 2 + 3 + 2 + 3 = 17 (B = C10 C7, C10 HK, C10 D10, C7 HK, C7 D10, HK D10).
    """
    ev = evaluate(skat_two_tricks)
    assert ev.p_win == Fraction(23, 24) and ev.expected_points == Fraction(329, 8)
    assert ev.num_deals == 6 and ev.num_paths == 17
    adv = evaluate(skat_two_tricks, "adversarial")
    assert adv.p_win == 1 and adv.expected_points == 42
    assert evaluate(skat_two_tricks, first=Card.parse("HJ")).p_win == 1
    assert recommend(skat_two_tricks)[0] == (Card.parse("HJ"), 1)


def test_skat_only_counts_for_the_declarer(skat_only):
    ev = evaluate(skat_only)  # A takes CA C7 (11) + Skat HK D10 (14) + 40 taken = 65
    assert ev.p_win == 1 and ev.expected_points == 65 and ev.num_deals == 1


def _skat_specs():
    return [pytest.param(p, id=spec_id(p)) for p in generated_specs(skat=True)[::2]]


@pytest.mark.parametrize("params", _skat_specs())
def test_skat_cards_are_never_played(params):
    spec = random_spec(*params)
    for path in paths(spec):
        played = [card for _t, _p, card in path.plays]
        in_skat = {c for c, q in path.owner.items() if q == SKAT}
        assert len(in_skat) == spec.skat_size
        assert not in_skat & set(played)
        assert sorted(played) == sorted(c for c in spec.cards if c not in in_skat)
        assert all(path.owner[card] == player for _t, player, card in path.plays)
        tricks = path.declarer_points(spec) - spec.declarer_points - skat_points(path.owner)
        assert 0 <= tricks <= spec.points_in_play() - skat_points(path.owner)


def test_skat_stage_distributions(skat_two_tricks):
    spec = skat_two_tricks
    by_path = sum(p.probability * p.declarer_points(spec) for p in paths(spec))
    stages = stage_distributions(spec)
    for _stage, dist in stages:
        assert sum(dist.values()) == 1
        for snap in dist:
            where = snap.locations()
            in_skat = [c for c in spec.cards if where[c] == (SKAT, SKAT)]
            assert len(in_skat) == spec.skat_size
            assert all(dict(snap.owner)[c] == SKAT for c in in_skat)
    final = stages[-1][1]
    assert sum(p * s.declarer_points(spec) for s, p in final.items()) == by_path
    assert by_path == evaluate(spec).expected_points


def test_a_finished_game_reports_the_construction_asked_for():
    """A history that played every card is answered by the referee; the report still names
    the construction the caller chose (it said ``efficient`` whatever was asked)."""
    from qcards.analysis.evaluate import evaluate
    from qcards.skat.position.history import after_history
    from qcards.skat.position.spec import load_spec

    six = load_spec(Path(__file__).resolve().parent.parent / "qcards" / "specs" / "six-card.toml")
    rest = after_history(six, "A:CA B:C10 C:C9 A:CK B:C8 C:H10")
    for construction in ("paper", "efficient", "hardware"):
        report = evaluate(rest, construction=construction)
        assert str(report.construction) == construction
