"""qcards' own bidding: the hand evaluator's encoding, its expected scores, the bidders and
their use in matches (Hand games included)."""

from __future__ import annotations

import itertools
import json
import pickle
import shlex
import sys
from pathlib import Path

import numpy as np
import pytest

from qcards.analysis.match import deal_cards, match
from qcards.analysis.train_bidder import play_out, train_bidder
from qcards.cli import main
from qcards.errors import ModelError, ParameterError
from qcards.skat.learned import hand_value
from qcards.skat.learned.hand_value import (
    FEATURE_NAMES,
    GAMES,
    HAND,
    OUTCOMES,
    SHIPPED,
    WON,
    HandEvaluator,
    features,
    outcome_class,
    slot_order,
    utilities,
)
from qcards.skat.learned.network import SHIPPED as PLAY_SHIPPED
from qcards.skat.learned.network import load_network, save_network
from qcards.skat.players.bidders import BIDDERS, RulesBidder, get_bidder
from qcards.skat.records.game_record import parse_record
from qcards.skat.rules import bidding_rules
from qcards.skat.rules.cards import FULL_DECK, Card
from qcards.skat.rules.scoring import BID_VALUES, Declaration, matadors, settle

C = Card.parse


def _cards(*names):
    return tuple(C(n) for n in names)


def _model(path, outcome: str, rng_seed: int | None = None):
    """A model file of the hand evaluator's kind whose every estimate is ``outcome`` (zero
    weights, a bias on that class), or random weights with ``rng_seed``."""
    sizes = (len(FEATURE_NAMES), 8, len(OUTCOMES))
    if rng_seed is None:
        weights = [np.zeros((sizes[0], sizes[1])), np.zeros((sizes[1], sizes[2]))]
        bias = np.full(sizes[2], -20.0)
        bias[OUTCOMES.index(outcome)] = 20.0
        biases = [np.zeros(sizes[1]), bias]
    else:
        rng = np.random.default_rng(rng_seed)
        weights = [rng.normal(0, 0.3, (sizes[0], sizes[1])), rng.normal(0, 0.3, sizes[1:])]
        biases = [np.zeros(sizes[1]), np.zeros(sizes[2])]
    save_network(path, weights, biases, 1.0, {"note": "test"}, HAND)
    return str(path)


@pytest.mark.parametrize("game", GAMES)
def test_slot_order_is_a_permutation_in_the_games_order(game):
    kept = deal_cards(0, 1)[0]
    order = slot_order(game, kept)
    assert sorted(order) == sorted(FULL_DECK)
    if game != "null":
        assert order[:4] == list(_cards("CJ", "SJ", "HJ", "DJ"))
    if game == "clubs":
        assert order[4:11] == list(_cards("CA", "C10", "CK", "CQ", "C9", "C8", "C7"))


def test_renaming_two_side_suits_of_the_same_length_changes_no_feature():
    kept = _cards("CJ", "SJ", "CA", "C10", "CK", "C9", "HA", "H7", "DA", "D8")
    away = _cards("H10", "D10")
    swapped = tuple(C(str(c).replace("H", "x").replace("D", "H").replace("x", "D"))
                    for c in kept)  # fmt: skip
    away_swapped = _cards("D10", "H10")
    assert np.array_equal(features([("clubs", kept, away, 0)]),
                          features([("clubs", swapped, away_swapped, 0)]))  # fmt: skip
    x = features([("clubs", kept, away, 2)])
    assert x.shape == (1, len(FEATURE_NAMES)) and x.sum() == 10 + 2 + 1 + 1


@pytest.mark.parametrize(
    ("game", "points", "tricks", "name"),
    [("clubs", 0, 0, "lost schwarz"), ("clubs", 30, 2, "lost schneider"),
     ("clubs", 31, 3, "lost"), ("clubs", 60, 5, "lost"), ("clubs", 61, 5, "won"),
     ("grand", 89, 7, "won"), ("grand", 90, 7, "won schneider"), ("grand", 120, 10, "won schwarz"),
     ("null", 0, 0, "won"), ("null", 0, 1, "lost")],
)  # fmt: skip
def test_outcome_classes(game, points, tricks, name):
    assert OUTCOMES[outcome_class(game, points, tricks)] == name


def test_utilities_are_the_settlements_relative_to_the_table():
    # clubs with one jack (with 1): 2 levels of 12 = 24; won 24 + 50, lost -48 - 50 - 40
    u = utilities("clubs", 1, False, 18)
    assert u[OUTCOMES.index("won")] == 74
    assert u[OUTCOMES.index("lost")] == -138
    assert u[OUTCOMES.index("won schneider")] == 36 + 50
    # at bid 30 with 1 (24): overbid unless Schneider (36) or Schwarz (48) lifts the value
    lost = [-2 * 48 - 90, -2 * 36 - 90, -2 * 36 - 90, -2 * 36 - 90]  # overbid: 36 lost
    assert list(utilities("clubs", 1, False, 30)) == [*lost, 36 + 50, 48 + 50]
    hand = settle(Declaration.make("null", True, (), 18), 0, 0, 0)
    assert utilities("null", 0, True, 18)[WON] == hand.declarer_seeger_fabian == 35 + 50


def test_a_model_file_of_another_kind_is_refused(tmp_path):
    with pytest.raises(ModelError, match="format is not 'qcards-hand-value'"):
        load_network(PLAY_SHIPPED, HAND)
    with pytest.raises(ModelError, match="format is not 'qcards-learned-policy'"):
        load_network(_model(tmp_path / "h.npz", "won"))
    with pytest.raises(ModelError, match="no such file"):
        HandEvaluator(str(tmp_path / "missing.npz")).limit(deal_cards(0, 0)[0], 0)


def test_the_shipped_model_loads_and_its_bids_are_bid_values():
    load_network(SHIPPED, HAND)
    evaluator = get_bidder("qcards")
    for deal in range(4):
        cards = deal_cards(3, deal)
        for seat in range(3):
            plan = evaluator.limit(cards[seat], seat)
            assert plan is None or (plan.value in BID_VALUES and plan.game in GAMES)


def test_a_sure_win_bids_to_the_top_of_its_best_game_and_plays_hand(tmp_path):
    evaluator = HandEvaluator(_model(tmp_path / "win.npz", "won schwarz"))
    hand = deal_cards(0, 2)[0]
    plan = evaluator.limit(hand, 0)
    assert plan is not None
    # every game is won Schwarz: the bid stops where no game's value reaches it any more
    pick_ups, hands = evaluator.values(
        hand, 0, (plan.value, BID_VALUES[BID_VALUES.index(plan.value) + 1])
    )
    assert max(pick_ups[0].score, hands[0].score) > 0 >= max(pick_ups[1].score, hands[1].score)
    skat = deal_cards(0, 2)[3]
    choice = evaluator.declare(hand, skat, 18, 0)
    assert choice.hand and choice.away == skat  # Hand adds a level to the same sure win


def test_a_sure_loss_passes_and_picks_the_discard_among_the_twelve(tmp_path):
    evaluator = HandEvaluator(_model(tmp_path / "loss.npz", "lost schwarz"))
    cards = deal_cards(0, 2)
    assert evaluator.limit(cards[0], 0) is None
    choice = evaluator.declare(cards[0], cards[3], 18, 0)
    assert not choice.hand and set(choice.away) <= set(cards[0]) | set(cards[3])
    assert len(set(choice.away)) == 2


def test_the_evaluator_is_deterministic_and_pickles(tmp_path):
    path = _model(tmp_path / "r.npz", "won", rng_seed=1)
    a, b = HandEvaluator(path), pickle.loads(pickle.dumps(HandEvaluator(path)))
    hand = deal_cards(5, 0)[1]
    assert a.values(hand, 1) == b.values(hand, 1)
    best = a.best_pick_up((*hand, *deal_cards(5, 0)[3]), 18, 1)
    # the best pick-up is the maximum over every game and discard
    twelve = (*hand, *deal_cards(5, 0)[3])
    rows = [(g, tuple(c for c in twelve if c not in d), d, 1)
            for g in GAMES for d in itertools.combinations(twelve, 2)]  # fmt: skip
    p = hand_value.probabilities(a.network, features(rows))
    scores = [p[i] @ utilities(r[0], matadors(twelve, r[0]), False, 18)
              for i, r in enumerate(rows)]  # fmt: skip
    assert best.score == pytest.approx(max(scores), abs=1e-9)


def test_the_rules_bidder_is_the_club_rules():
    rules = RulesBidder()
    for deal in range(20):
        cards = deal_cards(7, deal)
        assert rules.limit(cards[0], 0) == bidding_rules.limit(cards[0])
        choice = rules.declare(cards[1], cards[3], 18, 1)
        assert (choice.game, choice.away) == bidding_rules.declare((*cards[1], *cards[3]), 18)
        assert not choice.hand
    with pytest.raises(ParameterError, match="bidding 'x': unknown bidder"):
        get_bidder("x")
    assert set(BIDDERS) == {"rules", "qcards"}


def test_a_match_with_qcards_bidding_plays_hand_games_that_replay(tmp_path, monkeypatch):
    monkeypatch.setenv(hand_value.ENVIRONMENT, _model(tmp_path / "win.npz", "won schwarz"))
    result = match(["heuristic"] * 3, 2, 4, records=tmp_path / "rec", bidding="qcards",
                   force=True)  # fmt: skip
    assert all(p.label == "heuristic (qcards bidding)" for p in result.players)
    played = [g for g in result.games if g.record is not None]
    assert played and all("hand = true" in g.record for g in played)
    for g in played:
        record = parse_record(g.record, "<test>")
        assert record.declarer_points == g.declarer_points
    # only the first player bids by the evaluator: the rules' players keep their games
    mixed = match(["heuristic"] * 3, 2, 4, bidding=["qcards", "rules", "rules"], force=True)
    rules_only = match(["heuristic"] * 3, 2, 4, force=True)
    assert [p.bidding for p in mixed.players] == ["qcards", "rules", "rules"]
    assert [p.bidding for p in rules_only.players] == ["rules"] * 3


def test_match_bidding_errors():
    with pytest.raises(ParameterError, match="one each"):
        match(["heuristic"] * 3, 1, 0, bidding=["qcards", "rules"])
    with pytest.raises(ParameterError, match="unknown bidder"):
        match(["heuristic"] * 3, 1, 0, bidding="club")


def test_cli_bidding_errors(capsys):
    assert main(["match", "--bidding", "qcards", "--bidding", "rules", "--deals", "1"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("error: --bidding: one bidder")
    assert main(["train-bidder", "--games", "5", "--out", "x.npz"]) == 2
    assert "error: --games must be an integer of at least 10" in capsys.readouterr().err


def test_play_out_repeats_and_counts_the_discard():
    a, b = play_out(2, 5), play_out(2, 5)
    assert a == b
    game, discard, points, tricks = a
    assert game in GAMES and len(set(discard)) == 2 and 0 <= points <= 120 and 0 <= tricks <= 10


def test_train_bidder_trains_resumes_and_writes_a_loadable_model(tmp_path):
    pytest.importorskip("jax")
    out = tmp_path / "h.npz"
    result = train_bidder(out, 40, epochs=2, hidden=8, seed=3, force=True)
    assert result.games == 40 and 0 <= result.held_out_accuracy <= 1
    net = load_network(out, HAND)
    again = train_bidder(tmp_path / "h2.npz", 40, epochs=2, hidden=8, seed=3,
                         data=tmp_path / "h.outcomes.jsonl", force=True)  # fmt: skip
    assert np.array_equal(load_network(again.out, HAND).weights[0], net.weights[0])
    with pytest.raises(ParameterError, match="same seed"):
        train_bidder(tmp_path / "h3.npz", 40, epochs=1, seed=4, data=tmp_path / "h.outcomes.jsonl")


def test_an_outside_declarer_of_a_hand_game_is_told_so_and_never_sees_the_skat(
    tmp_path, monkeypatch
):
    monkeypatch.setenv(hand_value.ENVIRONMENT, _model(tmp_path / "win.npz", "won schwarz"))
    log = tmp_path / "requests.jsonl"
    script = Path(__file__).parent / "players" / "first_legal.py"
    player = "exec:" + shlex.join([sys.executable, str(script), str(log)])
    match([player, "heuristic", "heuristic"], 2, 4, bidding="qcards", force=True)
    requests = [json.loads(line) for line in log.read_text().splitlines()[1:]]
    assert requests and all(r["hand_game"] is True for r in requests)
    declaring = [r for r in requests if r["seat"] == "declarer"]
    assert declaring and not any("discard" in r for r in requests)


def test_a_match_plan_counts_the_evaluators_bidding():
    from qcards.analysis.match import plan_match, with_bidding
    from qcards.analysis.match_players import parse_player

    players = tuple(parse_player("heuristic") for _ in range(3))
    rules = plan_match(players, 100)
    qcards = plan_match(with_bidding(players, "qcards"), 100)
    assert qcards.seconds > rules.seconds + 100 * 1.5  # three hands valued once a deal
    one = plan_match(with_bidding(players, ["qcards", "rules", "rules"]), 100)
    assert rules.seconds < one.seconds < qcards.seconds
    assert "the bidders" in qcards.size and "the bidders" not in rules.size
