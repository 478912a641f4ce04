"""The declarer's decisions (issue 38 item 5) against brute force on small endgames: every
discard and game, and every Hand game and Skat, valued path by path over the plain referee's
enumeration (the independent oracle); the equivalent-card pruning never drops an option's value;
the sampled decisions cover the exact values; the CLI's shapes and refusals."""

from __future__ import annotations

import itertools
import json
import math
from fractions import Fraction

import pytest
from brute_minimax import minimax_score
from toml_text import toml_text

from qcards.analysis.decision_plays import PlayComputation, run_plays, runner_for
from qcards.analysis.decisions import (
    PLAYS,
    _declarations,
    _read,
    _variant,
    bid,
    declare_twelve,
    discard_choices,
    holds_two_more,
    twelve_card_specs,
)
from qcards.cli import main
from qcards.errors import ModelError, ParameterError, QcardsError, ResourceError, SpecError
from qcards.skat.deals.enumeration import weighted_deals
from qcards.skat.position.declaration import skat_of
from qcards.skat.rules.cards import Card, Rules
from qcards.skat.rules.scoring import Declaration, settle
from qcards.skat.solvers.plain_referee import MODELS, paths

from conftest import TEST_SPECS, spec_text

TWELVE = spec_text("twelve-small")
BID = spec_text("bid-small")


def brute_sf(spec, declaration, model: str = "random") -> Fraction:
    """The expected Seeger-Fabian score by brute force: path by path under random play
    (matadors from each path's deal), or deal by deal by plain minimax (adversarial)."""
    if model == "adversarial":

        def sf(spec, points, tricks, matadors):
            return settle(declaration, matadors, points, tricks).declarer_seeger_fabian

        return sum(
            (q * minimax_score(spec, owner, sf) for owner, q in weighted_deals(spec)), Fraction(0)
        )
    total = Fraction(0)
    for path in paths(spec):
        tricks = spec.declarer_tricks + path.winners.count(spec.declarer)
        m = spec.declaration.matadors_of(skat_of(path.owner))
        s = settle(declaration, m, path.declarer_points(spec), tricks)
        total += path.probability * s.declarer_seeger_fabian
    return total


def every_option(
    text: str, source: str, bid_value: int = 18, model: str = "random"
) -> dict[tuple, Fraction]:
    """Every (game name, discard) of a twelve-card spec, brute force, no pruning."""
    data = _read(text, source)
    declarer = data["players"][0]
    twelve = [Card.parse(c) for c in data["hands"][declarer]]
    out = {}
    for trump in PLAYS:
        for discard in itertools.combinations(Rules(trump).sorted(twelve), 2):
            hand = [c for c in twelve if c not in discard]
            spec = _variant(
                data, source, trump, hand, hand=False, discard=[str(c) for c in discard]
            )
            for name, d in _declarations(trump, False, bid_value):
                out[(name, discard)] = brute_sf(spec, d, model)
    return out


@pytest.mark.parametrize("model", MODELS)
def test_twelve_cards_equal_brute_force_and_pruning_keeps_every_value(model):
    decision = declare_twelve(TWELVE, "twelve-small", runner=PlayComputation(model=model))
    brute = every_option(TWELVE, "twelve-small", model=model)
    seen = 0
    for option in decision.options:
        for discard in (option.discard, *option.equivalent):
            assert brute[(option.game, discard)] == option.figures.seeger_fabian_exact
            seen += 1
    assert seen == len(brute)  # every discard of every game is accounted for
    assert decision.best.figures.seeger_fabian_exact == max(brute.values())
    assert decision.plays < len(brute)  # the pruning merged some discards


def test_equivalent_cards():
    rules = Rules(PLAYS[0])  # clubs
    mine = [Card.parse(c) for c in ("S9", "S8", "S7", "SA", "HK", "HQ")]
    others = [Card.parse(c) for c in ("S10", "HA", "H9")]
    choices = discard_choices(rules, mine, others, null=False)
    groups = {tuple(map(str, rep)): [tuple(map(str, e)) for e in eq] for rep, eq in choices}
    # the spades nine, eight and seven are one class (no card of the others between, no
    # points); the king and queen of hearts differ in points; the ace stands alone (the ten
    # of spades lies between it and the nine)
    assert ("S8", "S7") in groups[("S9", "S8")]
    assert ("S9", "HK") in groups and ("S8", "HK") in groups[("S9", "HK")]
    assert not any(("SA", "S9") in eq for eq in groups.values())
    assert len(choices) < len(list(itertools.combinations(mine, 2)))


@pytest.mark.parametrize("model", MODELS)
def test_bid_equals_brute_force(model):
    decision = bid(BID, "bid-small", PlayComputation(model=model))
    data = _read(BID, "bid-small")
    declarer = data["players"][0]
    hand = [Card.parse(c) for c in data["hands"][declarer]]
    for option in decision.options:
        trump = next(t for t in PLAYS if option.game.split()[0] in (t.value,))
        spec = _variant(data, "bid-small", trump, hand, hand=True)
        d = next(d for name, d in _declarations(trump, True, 18)
                 if name == option.game and d.announced == option.announced)  # fmt: skip
        assert option.figures.seeger_fabian_exact == brute_sf(spec, d, model), option.name
    # picking up: the mean over every Skat of the best option with it
    unknown = [Card.parse(c) for c in data["unknown"]["cards"]]
    values = []
    for skat in itertools.combinations(unknown, 2):
        picked = dict(data)
        picked["hands"] = {declarer: [str(c) for c in (*hand, *skat)]}
        picked["unknown"] = {
            "cards": [str(c) for c in unknown if c not in skat],
            "sizes": {k: v for k, v in data["unknown"]["sizes"].items() if k != "skat"},
        }
        values.append(max(every_option(toml_text(picked), "picked", model=model).values()))
    assert decision.pick_up.seeger_fabian_exact == sum(values) / len(values)
    assert decision.hand.key == decision.options[0].figures.key  # exact: the best Hand game
    best = max(decision.pick_up.seeger_fabian_exact, decision.options[0].figures.key)
    assert (decision.recommendation == "pick up") == (best == decision.pick_up.key)
    # the highest bid worth making: above 0 there, not at the next bid value
    values_by_bid = decision.bid_values
    assert values_by_bid[decision.max_bid] > 0
    later = [b for b in values_by_bid if b > decision.max_bid]
    assert later and values_by_bid[later[0]] <= 0


@pytest.mark.parametrize(
    ("model", "shots"),
    [
        ("random", 4000),
        ("adversarial", 1500),
        pytest.param("learned", 2000, marks=pytest.mark.slow),
    ],
)
def test_sampled_decisions_cover_the_exact_values(model, shots):
    exact = {
        (o.game, o.discard): o.figures.seeger_fabian_exact
        for o in declare_twelve(TWELVE, "t", runner=PlayComputation(model=model)).options
    }
    sampled = declare_twelve(TWELVE, "t", runner=PlayComputation(shots=shots, seed=3, model=model))
    method = {"random": "shots", "adversarial": "pimc"}.get(model, "monte-carlo")
    assert sampled.method == method and sampled.seed == 3
    # the learned policy's weights are floats: its exact values carry rounding (1e-8 in a
    # certain loss), which a zero-width interval of a certain outcome must not count
    slack = 1e-6 if model == "learned" else 0
    missed = [
        o.name
        for o in sampled.options
        if not o.figures.seeger_fabian_ci[0] - slack
        <= exact[(o.game, o.discard)]
        <= o.figures.seeger_fabian_ci[1] + slack
    ]
    # 95% intervals over correlated options: at most a tenth may miss (fixed seed)
    assert len(missed) <= len(sampled.options) // 10, missed


def test_sampled_bid_runs_on_drawn_skats():
    decision = bid(BID, "bid-small", PlayComputation(shots=2000, seed=4), skats=3)
    assert decision.skats == 3 and decision.method == "shots"
    low, high = decision.pick_up.seeger_fabian_ci
    assert low <= decision.pick_up.expected_seeger_fabian <= high
    # the best Hand game is chosen on the even shots and valued on the odd ones
    names = {o.name: o for o in decision.options}
    assert decision.hand_choice in names and decision.hand.seeger_fabian_ci is not None
    assert decision.to_json()["hand"]["game"] == decision.hand_choice
    assert decision.hand.expected_seeger_fabian != names[decision.hand_choice].figures.key


def test_mode_detection():
    assert holds_two_more(TWELVE, "t")
    assert not holds_two_more(BID, "b")


def test_refusals():
    with pytest.raises(ModelError, match="unknown model 'clairvoyant'"):
        runner_for(model="clairvoyant")
    with pytest.raises(
        ModelError,
        match="classical .exact. or shots with shots, not method sparse",
    ):
        runner_for(method="sparse")
    with pytest.raises(ModelError, match="double-dummy or classical .exact. or pimc"):
        runner_for(model="adversarial", method="shots", shots=10)
    with pytest.raises(ModelError, match="method pimc needs shots"):
        runner_for(model="adversarial", method="pimc")
    assert runner_for(model="adversarial", shots=10).method == "pimc"
    assert runner_for(model="adversarial").method == "double-dummy"
    with pytest.raises(SpecError, match="bid needs the declarer's hand known and the two cards"):
        bid((TEST_SPECS.parent.parent / "qcards" / "specs" / "six-card.toml").read_text(), "x")


def test_cli_declare_twelve_and_bid(capsys):
    twelve = str(TEST_SPECS / "twelve-small.toml")
    assert main(["declare", twelve, "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert set(data["best"]) >= {"game", "discard", "expected_seeger_fabian", "announced"}
    assert data["best"] == data["options"][0]
    assert data["method"] == "classical"
    assert main(["bid", str(TEST_SPECS / "bid-small.toml"), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["recommendation"] in ("hand", "pick up")
    assert isinstance(data["max_bid"], int) and data["options"]
    adversarial = ["bid", str(TEST_SPECS / "bid-small.toml"), "--model", "adversarial", "--json"]
    assert main(adversarial) == 0
    assert json.loads(capsys.readouterr().out)["method"] == "double-dummy"
    assert main([*adversarial, "--method", "shots", "--shots", "10"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and err.count("\n") == 1


def test_twelve_cards_rank_by_the_objective():
    for objective, value in (
        ("score", lambda f: f.score_exact),
        ("win", lambda f: f.p_won),
        ("seeger-fabian", lambda f: f.seeger_fabian_exact),
    ):
        options = declare_twelve(TWELVE, "t", objective=objective).options
        values = [value(o.figures) for o in options]
        assert values == sorted(values, reverse=True), objective


def test_cli_bid_refuses_no_skats(capsys):
    path = str(TEST_SPECS / "bid-small.toml")
    assert main(["bid", path, "--skats", "0", "--shots", "10"]) == 2
    assert capsys.readouterr().err == "error: --skats must be at least 1\n"


def test_run_plays_seeds_a_sampling_runner_given_none():
    """A runner with shots and no seed, handed straight to run_plays, gets a fresh seed there
    (as declare and bid give theirs) instead of failing inside numpy."""
    spec = twelve_card_specs(_read(TWELVE, "t"), "t")[0][-1]
    for model in ("random", "heuristic", "adversarial"):
        (play,) = run_plays([spec], PlayComputation(shots=40, model=model))
        assert play.counts is not None and play.counts.sum() == 40


@pytest.mark.parametrize("bid_value", [17, 0, -18, 1000])
def test_declare_refuses_a_bid_that_is_no_bid_value(capsys, bid_value):
    """Issue 53 item 4: the ScoringError escaped as a traceback; now one line naming --bid,
    before any play is computed."""
    with pytest.raises(ParameterError, match=r"^bid: .* is not a Skat bid value") as refused:
        declare_twelve(TWELVE, "t", bid_value, PlayComputation())
    assert refused.value.parameter == "bid"
    twelve = str(TEST_SPECS / "twelve-small.toml")
    assert main(["declare", twelve, "--bid", str(bid_value)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: --bid: ") and "not a Skat bid value" in err
    assert err.count("\n") == 1 and "Traceback" not in err


def test_a_scoring_error_is_one_of_qcards_errors():
    """What reaches the command line unnamed is still one error line, never a traceback."""
    with pytest.raises(QcardsError, match="bid: 17 is not a Skat bid value"):
        Declaration.make("clubs", bid=17)


@pytest.mark.parametrize("shots", ["0", "-5"])
@pytest.mark.parametrize("command", ["bid", "declare"])
@pytest.mark.parametrize("model", ["adversarial", "random", "heuristic"])
def test_decisions_refuse_shots_that_are_not_positive(capsys, command, model, shots):
    """Issue 53 item 5: --model adversarial --shots 0 failed inside numpy (not enough values
    to unpack)."""
    spec = TEST_SPECS / ("bid-small.toml" if command == "bid" else "twelve-small.toml")
    assert main([command, str(spec), "--model", model, "--shots", shots]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: --shots must be a whole number in 1..") and err.count("\n") == 1
    with pytest.raises(ParameterError, match="shots must be a whole number"):
        declare_twelve(TWELVE, "t", runner=PlayComputation(shots=int(shots), model=model))


def test_bid_refuses_a_single_shot(capsys, recwarn):
    """Issue 53 item 16: one shot left the half the best Hand game is valued on empty (NumPy's
    RuntimeWarning, a nan value and a pass); a bid needs a shot in each half."""
    with pytest.raises(ParameterError, match="shots must be at least 2 for a bid, got 1"):
        bid(BID, "b", PlayComputation(shots=1, seed=1))
    assert main(["bid", str(TEST_SPECS / "bid-small.toml"), "--shots", "1"]) == 2
    assert capsys.readouterr().err.startswith("error: --shots must be at least 2 for a bid")
    assert not [w for w in recwarn if issubclass(w.category, RuntimeWarning)]
    decision = bid(BID, "b", PlayComputation(shots=2, seed=1), skats=2)
    assert math.isfinite(decision.hand.expected_seeger_fabian)


def test_flags_a_decision_would_ignore_are_refused(capsys):
    """Issue 53 item 16: --bid and --top did nothing with ten cards, --skats nothing without
    --shots; each is one error line saying why."""
    ten = str(TEST_SPECS.parent.parent / "qcards" / "specs" / "six-card.toml")
    for flag, value in (("--bid", "20"), ("--top", "3")):
        assert main(["declare", ten, flag, value]) == 2
        err = capsys.readouterr().err
        assert err.startswith(f"error: {flag} applies to a declarer holding twelve cards")
        assert err.count("\n") == 1
    assert main(["bid", str(TEST_SPECS / "bid-small.toml"), "--skats", "3"]) == 2
    assert capsys.readouterr().err == (
        "error: --skats is the number of Skats a sampled bid draws: give --shots too, or "
        "leave it out (the exact bid values every Skat)\n"
    )
    with pytest.raises(ModelError, match="skats is the number of Skats"):
        bid(BID, "b", PlayComputation(), skats=3)
    assert main(["declare", str(TEST_SPECS / "twelve-small.toml"), "--top", "0"]) == 2
    assert capsys.readouterr().err == "error: --top must be at least 1\n"


@pytest.mark.parametrize("model", ["random", "adversarial"])
def test_an_exact_bid_too_large_is_refused_before_the_skats_plays_are_prepared(monkeypatch, model):
    """Issue 53 item 16: on ten cards the bid prepared every Skat's every discard (77,000
    specs, 40 s) before its first play refused the size; it plans the Hand plays first."""
    from qcards.analysis import decisions

    def prepared(*_args, **_kwargs):
        raise AssertionError("the Skats' plays were prepared before the refusal")

    monkeypatch.setattr(decisions, "twelve_card_specs", prepared)
    full_game = (TEST_SPECS.parent.parent / "qcards" / "specs" / "full-game.toml").read_text()
    with pytest.raises(ResourceError, match="give shots to sample") as refused:
        bid(full_game, "full-game", runner_for(model=model))
    assert "method" not in refused.value.parameters  # bid has no --method sparse to offer
