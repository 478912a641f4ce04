"""Beliefs from a model's likelihood of the plays (:mod:`qcards.skat.players.beliefs`): the uniform
policy's reweighing equals the count factors' posterior deal by deal, advice under a model's
beliefs equals a brute force that weighs every deal by that model's likelihood of every play,
sampling-importance-resampling approaches the exact values, and bad beliefs are refused."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

from qcards.analysis.advice import advise
from qcards.cli import main
from qcards.errors import ModelError, ResourceError
from qcards.skat.players.beliefs import (
    MAX_OVERSAMPLE,
    MAX_REWEIGHED,
    Beliefs,
    believe,
    believed_sample,
    check_beliefs,
    likelihood,
)
from qcards.skat.position.seat_view import uniform
from qcards.skat.position.spec import load_spec, parse_spec
from qcards.skat.rules.cards import Card
from tests.test_advice import CASES, DECLARER_VIEW, FOUR_TRICKS, brute_advice

FULL_GAME = Path(__file__).resolve().parents[1] / "qcards" / "specs" / "full-game.toml"


def _by_deal(deals):
    return {frozenset(owner.items()): q for owner, q in deals if q}


@pytest.mark.parametrize("text,history", CASES, ids=[f"{i}:{h}" for i, (_, h) in enumerate(CASES)])
def test_uniform_policy_reweighing_is_the_random_posterior(text, history):
    """Two routes to the random-play posterior: count factors in the prior (``random``) and
    the voids' deals reweighed by the uniform policy's likelihood, play by play."""
    spec = parse_spec(text)
    counted = believe(spec, history, check_beliefs("random")).exact()
    replayed = believe(spec, history, Beliefs("uniform", uniform, Fraction(0))).exact()
    assert _by_deal(replayed) == _by_deal(counted)
    assert sum(q for _o, q in replayed) == 1


@pytest.mark.parametrize("model", ["adversarial", "heuristic"])
@pytest.mark.parametrize("text,history", CASES, ids=[f"{i}:{h}" for i, (_, h) in enumerate(CASES)])
def test_advice_under_heuristic_beliefs_equals_brute_force(text, history, model):
    spec = parse_spec(text)
    objective = "score" if spec.declaration is not None else "win"
    advice = advise(spec, history, model=model, objective=objective, beliefs="heuristic")
    expected = brute_advice(spec, history, model, objective, "heuristic", Fraction(1, 10))
    assert {v.card: v.value_exact for v in advice.cards} == expected
    assert advice.beliefs == "heuristic (tremble 0.1)"
    assert "heuristic (tremble 0.1) model's likelihood" in advice.reason


def test_model_beliefs_change_the_values_where_the_plays_say_something():
    """After A:H9 B:H7 C:H8, a heuristic C who held H10 or HK would have taken the trick (last
    to play, the declarer winning): heuristic beliefs all but rule that out, random-play ones
    do not, and the values differ."""
    spec = parse_spec(FOUR_TRICKS)
    history = CASES[-1][1]
    heuristic = advise(spec, history, beliefs="heuristic", tremble=0.05)
    expected = brute_advice(spec, history, "adversarial", "win", "heuristic", Fraction(1, 20))
    assert {v.card: v.value_exact for v in heuristic.cards} == expected
    randomly = advise(spec, history)
    assert {v.card: v.value_exact for v in heuristic.cards} != {
        v.card: v.value_exact for v in randomly.cards
    }


def test_softmax_beliefs_are_floats_equal_to_brute_force():
    spec = parse_spec(DECLARER_VIEW)
    history = "B:C10 C:CK"
    advice = advise(spec, history, model="adversarial", beliefs="softmax", tremble=0.2)
    expected = brute_advice(spec, history, "adversarial", "win", "softmax", 0.2)
    for v in advice.cards:
        assert v.value_exact is None
        assert v.value == pytest.approx(float(expected[v.card]), abs=1e-9)


def test_likelihood_leaves_out_the_seats_the_spec_knows():
    """The declarer's spec knows A's hand: A's own plays do not enter the likelihood (the
    heuristic would not lead H9 here: with it the likelihood would be the tremble's share), so
    a history of A's play alone has likelihood 1 in every deal and weighs them the same."""
    spec = parse_spec(FOUR_TRICKS)
    beliefs = check_beliefs("heuristic")
    source = believe(spec, "A:H9", beliefs)
    deals = source.exact()
    assert len(deals) == 70 and len({q for _o, q in deals}) == 1
    assert all(likelihood(spec, source.plays, o, beliefs) == 1 for o, _q in deals)
    b_plays = believe(spec, "A:H9 B:H7", beliefs)
    assert {likelihood(spec, b_plays.plays, o, beliefs) for o, _q in b_plays.exact()} != {1}


def test_sampled_beliefs_approach_the_exact_values_and_repeat_from_the_seed():
    """PIMC on 3,000 resampled deals: within 0.05 of the exact values under the same beliefs
    (several standard errors at this size); the same seed gives the same deals."""
    spec = parse_spec(DECLARER_VIEW)
    history = "B:C10 C:CK"
    exact = {v.card: v.value for v in advise(spec, history, beliefs="heuristic").cards}
    sampled = advise(spec, history, beliefs="heuristic", samples=3000, seed=4)
    assert sampled.method == "pimc"
    for v in sampled.cards:
        assert v.value == pytest.approx(exact[v.card], abs=0.05)
    assert "effective of 15000 deals drawn" in sampled.reason
    again = advise(spec, history, beliefs="heuristic", samples=3000, seed=4)
    assert [v.value for v in again.cards] == [v.value for v in sampled.cards]
    played = advise(spec, history, model="heuristic", beliefs="heuristic", samples=500, seed=4)
    assert played.method == "monte-carlo"


def test_resampling_keeps_only_deals_the_likelihood_allows():
    """With no tremble, the heuristic's deterministic plays rule deals out: every resampled
    deal has a positive likelihood, and the effective size is below the candidates'."""
    spec = parse_spec(FOUR_TRICKS)
    history = CASES[-1][1]
    beliefs = check_beliefs("heuristic", 0)
    source = believe(spec, history, beliefs)
    drawn = believed_sample(
        spec, source.plays, source.where, 200, np.random.default_rng(1), beliefs
    )
    assert len(drawn.owners) == 200 and drawn.candidates % 1000 == 0
    assert all(likelihood(spec, source.plays, o, beliefs) > 0 for o in drawn.owners)
    assert drawn.effective < drawn.candidates
    # candidates were drawn until their effective size reached the deals kept (or the cap)
    assert drawn.effective >= 200 or drawn.candidates == 200 * MAX_OVERSAMPLE


@pytest.mark.parametrize(
    "name,tremble,message",
    [
        ("nonsense", 0.1, "unknown or unusable beliefs 'nonsense'"),
        ("adversarial", 0.1, "unknown or unusable beliefs 'adversarial'"),
        ("best-response", 0.1, "unknown or unusable beliefs 'best-response'"),
        ("heuristic", 1.5, "tremble must be a number from 0 to 1"),
        ("heuristic", True, "tremble must be a number from 0 to 1"),
    ],
)
def test_bad_beliefs_are_refused(name, tremble, message):
    with pytest.raises(ModelError, match=message):
        check_beliefs(name, tremble)


def test_a_history_the_model_cannot_play_without_tremble_is_refused():
    """After A:H9, B:S7 says B is void in hearts, so B holds S7 SK C10 CK and C the four
    hearts; C, last to a trick its partner wins, smears its ten under the heuristic and never
    plays H8. With no tremble no deal explains the history; with a tremble it is possible."""
    spec = parse_spec(FOUR_TRICKS)
    with pytest.raises(ModelError, match="no deal explains the history"):
        believe(spec, "A:H9 B:S7 C:H8", check_beliefs("heuristic", 0)).exact()
    assert believe(spec, "A:H9 B:S7 C:H8", check_beliefs("heuristic", 0.1)).exact()
    assert believe(spec, "A:H9 B:H7 C:H8", check_beliefs("heuristic", 0)).exact()


def test_exact_reweighing_refuses_too_many_deals():
    spec = load_spec(FULL_GAME)
    with pytest.raises(ResourceError, match=f"more than the {MAX_REWEIGHED:,}"):
        believe(spec, "", check_beliefs("heuristic")).exact()


def test_cli_recommend_with_model_beliefs(capsys, tmp_path):
    path = tmp_path / "spec.toml"
    path.write_text(DECLARER_VIEW)
    code = main(["recommend", str(path), "--history", "B:C10 C:CK", "--beliefs", "heuristic",
                 "--json"])  # fmt: skip
    assert code == 0
    out = capsys.readouterr().out
    assert '"beliefs": "heuristic (tremble 0.1)"' in out
    code = main(["recommend", str(path), "--history", "B:C10", "--beliefs", "adversarial"])
    assert code == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and "beliefs 'adversarial'" in err


def test_a_declared_games_discard_is_unseen_by_the_defenders():
    """After a pick-up the declarer put CA away; the defenders never saw it. B, leading after
    taking the first trick, cashes C10 as a sure trick under the heuristic only when CA is
    known gone; while CA may be out it leads its cheapest side card, CK if it holds it. So
    after B leads C10 the heuristic's beliefs make "B holds CK" less likely in the declared
    game than in the same game with CA out of play and known to all."""
    plain = parse_spec(FOUR_TRICKS.replace("declarer_points = 44", "declarer_points = 55"))
    declared = parse_spec(
        FOUR_TRICKS + '\n[declaration]\nbid = 18\nmatadors = 1\ndiscard = ["CA", "D8"]\n'
    )
    assert declared.declarer_points == plain.declarer_points

    def holds_ck(spec) -> Fraction:
        deals = believe(spec, "A:H9 B:H10 C:H7 B:C10", check_beliefs("heuristic")).exact()
        return sum((q for owner, q in deals if owner[Card.parse("CK")] == "B"), Fraction(0))

    assert 0 < holds_ck(declared) < holds_ck(plain)
