"""Advice for the seat to move at any moment (:mod:`qcards.analysis.advice`), checked against a
brute force that shares none of its bookkeeping: every deal of the spec weighted by the random-
play likelihood of the history, replayed card by card, and the rest of the game after each
candidate card walked play by play (minimax, uniform play or a model's policy)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from qcards.analysis.advice import advise
from qcards.cli import main
from qcards.errors import ModelError, ParameterError, ResourceError
from qcards.skat.players.play_models import get_model
from qcards.skat.position.history import moment
from qcards.skat.position.seat_view import seat_view
from qcards.skat.position.spec import parse_spec
from qcards.skat.rules.cards import Card
from qcards.skat.solvers.objectives import get_objective
from tests.conftest import all_deals

DEFENDER_VIEW = """
players = ["A", "B", "C"]
trump = "clubs"
leader = "A"
declarer_points = 40
target = 61
[hands]
B = ["HA", "H10", "S7"]
[unknown]
cards = ["CJ", "HK", "SA", "S10", "H7", "D7"]
sizes = { A = 3, C = 3 }
"""

DECLARER_VIEW = """
players = ["A", "B", "C"]
trump = "spades"
leader = "B"
declarer_points = 30
target = 61
[hands]
A = ["SJ", "SA", "H10"]
[unknown]
cards = ["S7", "HA", "HK", "C10", "CK", "D7"]
sizes = { B = 3, C = 3 }
"""

NULL_VIEW = """
players = ["A", "B", "C"]
trump = "null"
leader = "A"
[hands]
C = ["H9", "H7", "S8"]
[unknown]
cards = ["H10", "H8", "S7", "SK", "CA", "C9"]
sizes = { A = 3, B = 3 }
"""

DECLARED = """
players = ["A", "B", "C"]
trump = "hearts"
leader = "C"
declarer_points = 52
declarer_tricks = 4
[declaration]
hand = false
matadors = 1
bid = 20
[hands]
A = ["HJ", "H10", "CA"]
[unknown]
cards = ["H7", "C10", "CK", "D10", "DA", "S9"]
sizes = { B = 3, C = 3 }
"""

FOUR_TRICKS = """
players = ["A", "B", "C"]
trump = "spades"
leader = "A"
declarer_points = 44
target = 61
[hands]
A = ["S8", "HA", "H9", "C9"]
[unknown]
cards = ["S7", "SK", "H10", "HK", "H7", "H8", "C10", "CK"]
sizes = { B = 4, C = 4 }
"""

CASES = [
    # (spec, history): a defender second and third to a trick, after a whole trick (voids), the
    # declarer second and third, a null defender, a declared game's declarer
    (DEFENDER_VIEW, "A:SA"),
    (DEFENDER_VIEW, "A:HK"),
    (DEFENDER_VIEW, "A:CJ"),
    (DECLARER_VIEW, "B:CK C:C10 A:H10 C:D7"),
    (DECLARER_VIEW, "B:C10 C:CK"),
    (DECLARER_VIEW, "B:HK C:D7"),
    (DECLARER_VIEW, "B:S7 C:HA A:SA"),
    (NULL_VIEW, "A:H8 B:H10"),
    (NULL_VIEW, "A:S7 B:SK"),
    (DECLARED, "C:C10"),
    (FOUR_TRICKS, "A:H9 B:H7 C:H8"),  # the likelihood of following hearts matters here
]


def replay(spec, owner, plays, policy=None, tremble=0):
    """The random-play likelihood of ``plays`` on one deal (``policy``: that model's, each
    play's probability mixed with ``tremble`` evenly over the legal cards, for every seat), and
    the position after them: (likelihood, (hands at the current trick's start by seat, leader,
    current trick, points, tricks))."""
    rules, n = spec.rules, len(spec.players)
    hands = [frozenset(c for c, p in owner.items() if p == who) for who in spec.players]
    leader, trick = spec.players.index(spec.leader), ()
    points = spec.declarer_points + sum(c.value for c, p in owner.items() if p == "skat")
    tricks, likelihood = spec.declarer_tricks, Fraction(1)
    for player, card in plays:
        seat = (leader + len(trick)) % n
        assert spec.players[seat] == player
        legal = rules.legal_cards(hands[seat], trick[0] if trick else None)
        if card not in legal:
            return Fraction(0), None
        if policy is None:
            likelihood /= len(legal)
        else:
            skat = frozenset(c for c, p in owner.items() if p == "skat")
            view = seat_view(rules, frozenset(spec.cards), tuple(hands), leader, trick, skat)
            pi = policy(view).get(card, 0)
            likelihood *= (1 - tremble) * pi + tremble / len(legal)
        trick = (*trick, card)
        if len(trick) == n:
            hands, leader, points, tricks = finish(spec, hands, leader, trick, points, tricks)
            trick = ()
    return likelihood, (hands, leader, trick, points, tricks)


def finish(spec, hands, leader, trick, points, tricks):
    n = len(spec.players)
    hands = [h - set(trick) for h in hands]
    winner = (leader + spec.rules.trick_winner(trick)) % n
    if winner == 0:
        points += sum(c.value for c in trick)
        tricks += 1
    return hands, winner if spec.winner_leads else spec.players.index(spec.leader), points, tricks


def rest_value(spec, state, value, mode, policy=None, skat=frozenset()):
    """The value of the rest of the game from ``state``: ``minimax`` (declarer max, defenders
    min) or the expectation under uniform play / ``policy``."""
    rules, n = spec.rules, len(spec.players)
    cards = frozenset(spec.cards)
    declared = spec.declaration
    matadors = declared.matadors_of(()) if declared and not declared.declaration.is_null else 0

    def walk(hands, leader, trick, points, tricks):
        if not any(hands) and not trick:
            return Fraction(value(spec, points, tricks, matadors))
        seat = (leader + len(trick)) % n
        held = hands[seat] - set(trick)
        legal = rules.legal_cards(held, trick[0] if trick else None)
        if policy is None:
            weights = {c: Fraction(1, len(legal)) for c in legal}
        else:
            view = seat_view(rules, cards, tuple(hands), leader, tuple(trick), skat)
            weights = policy(view)
        results = {}
        for card in legal:
            played = (*trick, card)
            if len(played) < n:
                results[card] = walk(hands, leader, played, points, tricks)
            else:
                after, winner, gained, taken = finish(spec, hands, leader, played, points, tricks)
                results[card] = walk(after, winner, (), gained, taken)
        if mode == "minimax":
            return max(results.values()) if seat == 0 else min(results.values())
        return sum(weights[c] * v for c, v in results.items() if weights.get(c))

    return walk(*state)


def brute_advice(spec, history_text, model, objective="win", beliefs="random", tremble=0):
    """Each legal card's exact value for the declarer, by brute force (``beliefs="voids"``:
    every deal consistent with the history weighs the same; a model's name: the likelihood of
    every play under its policy, with ``tremble``)."""
    goal = get_objective(objective)
    plays = [(item.split(":")[0], Card.parse(item.split(":")[1])) for item in history_text.split()]
    where = moment(spec, history_text)
    mode = "minimax" if model == "adversarial" else "expect"
    policy = get_model(model).policy
    totals: dict[Card, Fraction] = {}
    z = Fraction(0)
    for owner in all_deals(spec):
        likelihood, _ = replay(spec, owner, plays)
        if not likelihood:
            continue
        if beliefs == "voids":
            likelihood = Fraction(1)
        elif beliefs != "random":
            likelihood, _ = replay(spec, owner, plays, get_model(beliefs).policy, tremble)
        z += likelihood
        for card in where.legal_cards():
            _, state = replay(spec, owner, (*plays, (where.mover, card)))
            v = rest_value(spec, state, goal.value, mode, policy)
            totals[card] = totals.get(card, Fraction(0)) + likelihood * v
    return {card: v / z for card, v in totals.items()}


@pytest.mark.parametrize("model", ["adversarial", "random", "heuristic"])
@pytest.mark.parametrize("text,history", CASES, ids=[f"{i}:{h}" for i, (_, h) in enumerate(CASES)])
def test_advice_equals_brute_force(text, history, model):
    spec = parse_spec(text)
    objective = "score" if spec.declaration is not None else "win"
    advice = advise(spec, history, model=model, objective=objective)
    expected = brute_advice(spec, history, model, objective)
    assert {v.card: v.value_exact for v in advice.cards} == expected
    mover_is_declarer = advice.mover == spec.declarer
    values = [v.value_exact for v in advice.cards]
    assert values == sorted(values, reverse=mover_is_declarer)
    assert advice.side == ("declarer" if mover_is_declarer else "defenders")


@pytest.mark.parametrize("text,history", [*CASES[3:7], CASES[-1]])
def test_advice_without_inference_weighs_consistent_deals_equally(text, history):
    spec = parse_spec(text)
    advice = advise(spec, history, model="adversarial", beliefs="voids")
    expected = brute_advice(spec, history, "adversarial", beliefs="voids")
    assert {v.card: v.value_exact for v in advice.cards} == expected
    if history == CASES[-1][1]:  # and there the inference changes the values
        inferred = advise(spec, history, model="adversarial")
        assert {v.card: v.value_exact for v in inferred.cards} != expected


def test_sampled_advice_agrees_with_exact_and_repeats_from_its_seed():
    """PIMC and Monte Carlo on 1,200 deals: within 0.07 of the exact values (a chance's
    standard error is at most 0.5 / sqrt(1200) = 0.0144 here, so about five of them), the same
    numbers from the same seed."""
    spec = parse_spec(DECLARER_VIEW)
    for model in ("adversarial", "heuristic"):
        exact = {v.card: v.value for v in advise(spec, "B:C10 C:CK", model=model).cards}
        sampled = advise(spec, "B:C10 C:CK", model=model, samples=1200, seed=5)
        assert sampled.method == ("pimc" if model == "adversarial" else "monte-carlo")
        for v in sampled.cards:
            assert abs(v.value - exact[v.card]) < 0.07
            assert v.ci[0] <= v.value <= v.ci[1]
        assert sampled.cards[0].delta_vs_best == 0
        again = advise(spec, "B:C10 C:CK", model=model, samples=1200, seed=5)
        assert again == sampled


def test_errors_are_clear():
    spec = parse_spec(DEFENDER_VIEW)
    with pytest.raises(ModelError, match="needs A's cards"):
        advise(spec, "")  # A leads, its hand is unknown
    with pytest.raises(ModelError, match="it is A's turn"):
        advise(spec, "B:HA")
    with pytest.raises(ModelError, match="must follow"):
        advise(spec, "A:HK B:S7")
    with pytest.raises(ModelError, match="best-response"):
        advise(spec, "A:SA", model="best-response")
    with pytest.raises(ParameterError, match="unknown advice method"):
        advise(spec, "A:SA", method="quantum")
    with pytest.raises(ParameterError, match="draws no samples"):
        advise(spec, "A:SA", method="exact", samples=10)
    with pytest.raises(ModelError, match="unknown play model|unknown model"):
        advise(spec, "A:SA", model="oracle")
    with pytest.raises(ModelError, match="game is over"):
        advise(spec, "A:SA B:S7 C:S10 A:CJ B:HA C:H7 A:HK B:H10 C:D7")


def test_exact_refuses_a_game_too_large_to_enumerate():
    spec = parse_spec(
        """
players = ["A", "B", "C"]
trump = "grand"
leader = "A"
[hands]
A = ["CJ", "SJ", "HJ", "DJ", "CA", "C10", "CK", "SA", "S10", "HA"]
[unknown]
cards = ["CQ", "C9", "C8", "C7", "SK", "SQ", "S9", "S8", "S7", "H10", "HK", "HQ", "H9", "H8",
         "H7", "DA", "D10", "DK", "DQ", "D9", "D8", "D7"]
sizes = { B = 10, C = 10, skat = 2 }
"""
    )
    with pytest.raises(ResourceError, match="PIMC"):
        advise(spec, "A:CJ B:CQ C:C9", method="exact")


def test_recommend_advises_a_defender_in_the_middle_of_a_trick(tmp_path, capsys):
    path = tmp_path / "b.toml"
    path.write_text(DEFENDER_VIEW)
    assert main(["recommend", str(path), "--history", "A:HK", "--model", "adversarial",
                 "--json"]) == 0  # fmt: skip
    import json

    out = json.loads(capsys.readouterr().out)
    assert out["mover"] == "B" and out["side"] == "defenders" and out["trick"] == ["A:HK"]
    assert [c["card"] for c in out["cards"]][0] == "HA"
    assert main(["recommend", str(path), "--history", "A:HK B:S7"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("error: --history") and "must follow" in err[0]


def test_equal_cards_follow_the_conventions():
    """S8 and S7 are worth the same to B under double dummy (same chance, same points): the
    tie goes to Skat's habit of following low, the S7, whichever the hand lists first."""
    spec = parse_spec(
        DEFENDER_VIEW.replace('B = ["HA", "H10", "S7"]', 'B = ["S8", "S7", "HA"]').replace(
            '"HK", "SA", "S10", "H7", "D7"', '"HK", "SA", "H10", "SK", "D7"'
        )
    )
    advice = advise(spec, "A:SA", model="adversarial")
    first, second = advice.cards
    assert (first.card, second.card) == (Card.parse("S7"), Card.parse("S8"))
    assert (first.value_exact, first.expected_points) == (
        second.value_exact,
        second.expected_points,
    )


FULL_GAME = "qcards/specs/full-game.toml"


def test_auto_samples_the_full_game_and_the_budget_refuses_up_front():
    """Mid-trick in the full game, ``auto`` runs PIMC on its default deals and says why; a
    sample count past the time budget is refused before any deal is solved."""
    from qcards.skat.position.spec import load_spec

    spec = load_spec(FULL_GAME)
    history = "A:D7 B:DA C:D8 B:HA C:H7"  # A third to a hearts trick: HK or H10
    auto = advise(spec, history, model="adversarial", seed=2)
    assert auto.method == "pimc" and auto.deals == 100 and "PIMC" in auto.reason
    assert auto.cards[0].expected_points is None and auto.cards[0].level is not None  # levels
    advice = advise(spec, history, model="adversarial", samples=100, seed=2)
    assert advice.best == Card.parse("HK")  # the king, keeping the ten: the same deals say so
    assert advice.cards[1].delta_ci[1] < 0  # the ten is worse on the same deals, significantly
    with pytest.raises(ResourceError, match="fewer --shots|fewer"):
        advise(spec, history, model="adversarial", samples=10**8)


def test_a_negative_seed_is_one_clear_error(capsys):
    """NumPy refuses negative seeds with a ValueError; qcards names the option instead."""
    assert main(["evaluate", FULL_GAME, "--shots", "100", "--seed", "-1", "--json"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err == ["error: --seed must be a non-negative integer, got -1"]


@pytest.mark.parametrize("model", ["random", "adversarial", "heuristic"])
def test_the_declarers_ranking_and_the_advice_agree_where_both_run(model):
    """At the declarer's lead both paths of ``recommend`` could answer: the same Fractions,
    the same order (ties by the conventions in both)."""
    from qcards.analysis.evaluate import recommend
    from qcards.skat.position.spec import load_spec

    for spec in (load_spec("qcards/specs/six-card.toml"), parse_spec(FOUR_TRICKS)):
        advice = advise(spec, (), model=model)
        ranked = recommend(spec, model, method="classical")
        assert [v.card for v in advice.cards] == [card for card, _ in ranked]
        assert [v.value_exact for v in advice.cards] == [r.p_win_exact for _, r in ranked]


def test_pimc_times_its_first_sampled_deals_and_solves_none_twice(monkeypatch):
    """The time estimate of sampled double-dummy advice comes from the sample's own first
    deals, whose solutions are kept: every deal is solved once for every card, plus one card
    that warms the compiled solver up (before, two more deals of the prior were solved for the
    estimate and thrown away). Forced work is not timed, and gives the same values."""
    import qcards.analysis.advice as advice_module
    from qcards.skat.position.spec import load_spec

    spec = load_spec(FULL_GAME)
    history = "A:D7 B:DA C:D8 B:HA C:H7"  # two legal cards
    solved = []
    real = advice_module.deal_outcome

    def counted(*args, **kwargs):
        solved.append(args[1])
        return real(*args, **kwargs)

    monkeypatch.setattr(advice_module, "deal_outcome", counted)
    timed = advise(spec, history, model="adversarial", samples=12, seed=5)
    assert len(solved) == 12 * 2 + 1
    del solved[:]
    forced = advise(spec, history, model="adversarial", samples=12, seed=5, force=True)
    assert len(solved) == 12 * 2
    assert [(c.card, c.value, c.level) for c in timed.cards] == [
        (c.card, c.value, c.level) for c in forced.cards
    ]


def test_equivalent_cards_are_solved_once_and_valued_as_if_each_were_solved(monkeypatch):
    """PIMC and the exact double-dummy advice solve one card of each class of equivalent
    cards a deal; every value must be what solving each card gives."""
    import qcards.analysis.advice as advice_module
    from qcards.analysis.match import _game, deal_cards
    from qcards.analysis.match_players import Player

    positions = []

    def observe(decision):
        if len(decision.legal) > 2 and len(positions) < 12:
            positions.append((decision.game, decision.history))

    for deal in range(3):
        _game((Player("heuristic"),) * 3, 5, deal, 0, deal_cards(5, deal), observe)
    classes = [advice_module._class_representatives(moment(spec, h), moment(spec, h)
               .legal_cards()) for spec, h in positions]  # fmt: skip
    assert any(any(i is not None for i in c) for c in classes)  # some cards were merged

    def values(spec, history):
        a = advise(spec, history, "adversarial", samples=12, seed=3, force=True)
        return [(c.card, c.value, c.p_win, c.expected_points, c.level) for c in a.cards]

    pruned = [values(spec, h) for spec, h in positions]
    monkeypatch.setattr(
        advice_module, "_class_representatives", lambda _w, legal: [None] * len(legal)
    )
    assert pruned == [values(spec, h) for spec, h in positions]
