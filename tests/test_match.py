"""Matches (:mod:`qcards.analysis.match`) and the rule bidder they share
(:mod:`qcards.skat.rules.bidding_rules`)."""

from __future__ import annotations

import json

import pytest

from qcards.analysis.match import deal_cards, match
from qcards.analysis.match_players import Player, parse_player
from qcards.cli import main
from qcards.errors import FileError, ParameterError, ResourceError
from qcards.plan import limits
from qcards.skat.players.play_models import FEATURES
from qcards.skat.records.game_record import load_record, score_record
from qcards.skat.rules import bidding_rules as rules
from qcards.skat.rules.cards import Card
from qcards.skat.rules.scoring import BID_VALUES


def cards(text: str) -> list[Card]:
    return [Card.parse(c) for c in text.split()]


# ----------------------------------------------------------------------------- bidding rules


def test_suit_grand_and_null_rules():
    clubs = cards("CJ SJ CA C10 C9 C7 HA S8 D7 D8")  # 6 trumps (2 jacks), a side ace
    assert rules.suit_playable(clubs, "clubs") and not rules.suit_playable(clubs, "hearts")
    assert rules.limit(clubs) == rules.Plan("clubs", 12 * 3)  # with 2, game 3
    thin = cards("CJ CA C9 C7 HA S8 D7 D8 H7 S7")  # four trumps, one jack: passes
    assert rules.limit(thin) is None
    grand = cards("CJ SJ HJ CA SA HK H9 D7 D8 S7")  # three jacks, two aces
    assert rules.grand_playable(grand) and rules.plans(grand)[0].game == "grand"
    assert rules.limit(grand).value == 24 * 4  # with 3, game 4
    null = cards("C7 C8 S7 S9 SK H7 H8 D7 D9 D8")  # one card above the nine, guarded
    assert rules.null_playable(null) and rules.limit(null) == rules.Plan("null", 23)
    assert not rules.null_playable(cards("C8 C9 S7 S9 SK H7 H8 D7 D9 CA"))


def test_auction_forehand_holds_and_the_bid_is_just_above_the_runner_up():
    p = rules.Plan
    assert rules.auction([None, None, None]) is None
    assert rules.auction([None, p("clubs", 24), None]) == (1, 18)
    assert rules.auction([p("hearts", 30), p("clubs", 30), None]) == (0, 30)  # forehand holds
    assert rules.auction([p("hearts", 20), p("clubs", 36), p("grand", 48)]) == (2, 40)
    assert rules.auction([p("grand", 48), None, p("clubs", 48)]) == (0, 48)  # the winner holds
    assert all(b in BID_VALUES for b in (18, 30, 40, 48))


def test_declare_puts_away_short_side_cards_and_reaches_the_bid():
    twelve = cards("CJ SJ CA C10 C9 C7 HA S10 D7 D8 HK C8")
    game, discard = rules.declare(twelve, 18)
    assert game == "clubs"
    assert set(discard) == set(cards("S10 HK"))  # the bare ten first, then the short hearts
    assert rules.put_away(cards("CA CK CQ C9 C8 C7 H7 H8 S7 S8 DA DK"), "null") == tuple(
        cards("CA DA")
    )


# ----------------------------------------------------------------------------- matches


def test_a_match_repeats_from_its_seed_and_rotates_every_player_through_the_seats():
    first = match(["heuristic", "random", "softmax"], 4, seed=7)
    again = match(["heuristic", "random", "softmax"], 4, seed=7)
    assert first.to_json() == again.to_json()
    assert [g.record for g in first.games] == [g.record for g in again.games]
    assert len(first.games) == 12
    for deal in range(4):
        seatings = {g.seats for g in first.games if g.deal == deal}
        assert seatings == {(0, 1, 2), (1, 2, 0), (2, 0, 1)}
    assert deal_cards(7, 0) == deal_cards(7, 0) and deal_cards(7, 0) != deal_cards(7, 1)


def test_records_replay_to_the_match_scores(tmp_path):
    result = match(["heuristic", "random", "heuristic"], 3, seed=2, records=tmp_path)
    played = [g for g in result.games if g.declarer is not None]
    assert played and len(list(tmp_path.glob("*.toml"))) == len(played)
    for g in played:
        record = load_record(tmp_path / f"deal-{g.deal + 1:04d}-r{g.rotation}.toml")
        score = score_record(record)
        assert (record.declarer_points, score.settlement.won) == (g.declarer_points, g.won)
        assert [score.seeger_fabian[f"P{i + 1}"] for i in range(3)] == list(g.points)
    passed = [g for g in result.games if g.declarer is None]
    assert all(g.points == (0, 0, 0) for g in passed)


def test_paired_differences_are_the_means_differences():
    result = match(["heuristic", "random", "heuristic"], 6, seed=4)
    (m1, _), (m2, _), (m3, _) = result.means()
    diffs = {(i, j): m for i, j, m, _ in result.differences()}
    assert diffs[(0, 1)] == pytest.approx(m1 - m2) and diffs[(1, 2)] == pytest.approx(m2 - m3)


@pytest.mark.parametrize("pimc", ["adversarial:2", "adversarial:2:heuristic"])
def test_a_pimc_player_plays_legal_cards_and_its_records_replay(tmp_path, pimc):
    """Two worlds a card keep it quick; the records' replay checks every card's legality.
    With heuristic beliefs the worlds are resampled by the heuristic's likelihood."""
    result = match([pimc, "heuristic", "heuristic"], 1, seed=1, records=tmp_path)
    for g in result.games:
        if g.declarer is not None:
            score_record(load_record(tmp_path / f"deal-0001-r{g.rotation}.toml"))


def test_players_parse_and_bad_ones_are_refused():
    assert parse_player("adversarial:20") == Player("adversarial", 20)
    assert parse_player("heuristic") == Player("heuristic")
    assert parse_player("adversarial:5:voids") == Player("adversarial", 5, "voids")
    assert parse_player("adversarial:5:heuristic").label == "adversarial:5:heuristic"
    assert parse_player("adversarial:5:random").label == "adversarial:5"
    assert parse_player("best-response:5:heuristic") == Player("best-response", 5, "heuristic")
    assert parse_player("best-response").label == "best-response:10"
    for bad in ("oracle", "heuristic:3", "adversarial:0", "best-response:0", "adversarial:5:oracle",
                "adversarial:5:adversarial", "heuristic:3:voids", "random:x.json",
                "adversarial:", "best-response:", "adversarial:5:"):  # fmt: skip
        with pytest.raises(ParameterError):
            parse_player(bad)
    with pytest.raises(ParameterError, match="three"):
        match(["heuristic"], 1)
    with pytest.raises(ParameterError, match="positive"):
        match(["heuristic"] * 3, 0)
    with pytest.raises(ParameterError, match="non-negative"):
        match(["heuristic"] * 3, 1, seed=-1)


def test_cli_match(capsys, tmp_path):
    argv = ["match", "--player", "heuristic", "--player", "random", "--player", "heuristic",
            "--deals", "2", "--seed", "1", "--json"]  # fmt: skip
    assert main(argv) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["games"] == 6 and [r["model"] for r in data["seeger_fabian_per_game"]] == [
        "heuristic", "random", "heuristic"
    ]  # fmt: skip
    assert main(["match", "--player", "heuristic", "--deals", "1"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("error:") and "--player" in err[0]


def test_a_softmax_player_reads_fitted_parameters(tmp_path):
    """``softmax:FILE`` plays the parameters of ``qcards fit --json``; all-zero parameters are
    the uniform policy, so the match is the random player's, game for game (the same draws)."""
    zero = {role: {f: 0.0 for f in FEATURES} for role in ("declarer", "defender")}
    path = tmp_path / "fit.json"
    path.write_text(json.dumps({"objective": "win", "theta": zero}))
    player = parse_player(f"softmax:{path}")
    assert player.parameters == zero and player.label == f"softmax:{path}"
    other = parse_player(f"softmax:{path}")
    assert other == player and hash(other) == hash(player)
    path.write_text(json.dumps({"declarer": {"points": 1.0}}))  # the same file, new contents
    changed = parse_player(f"softmax:{path}")
    assert changed != player and changed.parameters == {"declarer": {"points": 1.0}}
    fitted = match([player, "heuristic", "heuristic"], 2, seed=3)
    uniform = match(["random", "heuristic", "heuristic"], 2, seed=3)
    assert [g.points for g in fitted.games] == [g.points for g in uniform.games]
    assert fitted.to_json()["players"][0] == f"softmax:{path}"


@pytest.mark.parametrize(
    "content,message",
    [
        (None, "no such file"),
        ("{", "not JSON"),
        ('{"theta": [1, 2]}', "expected"),
        ('{"declarer": {"colour": 1.0}}', "unknown feature 'colour'"),
        ('{"chooser": {"points": 1.0}}', "unknown role 'chooser'"),
        ('{"declarer": {"points": NaN}}', "must be a finite number"),
        ('{"declarer": {"points": Infinity}}', "must be a finite number"),
    ],
)
def test_bad_parameter_files_are_refused(tmp_path, content, message):
    path = tmp_path / "theta.json"
    if content is not None:
        path.write_text(content)
    with pytest.raises(ParameterError, match=message) as caught:
        parse_player(f"softmax:{path}")
    assert caught.value.parameter == "player"


def test_a_best_response_player_plays_legal_cards_and_its_records_replay(tmp_path, monkeypatch):
    """The best response takes over from PIMC in the declarer's last tricks (a spy counts its
    searches); every card it plays is legal (the records replay), and the match repeats from
    its seed."""
    import qcards.analysis.match_players as match_players

    searched = []
    original = match_players.first_cards

    def spy(spec, *args, **kwargs):
        searched.append(spec.hand_size)
        return original(spec, *args, **kwargs)

    monkeypatch.setattr(match_players, "first_cards", spy)
    players = ["best-response:2:heuristic", "heuristic", "heuristic"]
    result = match(players, 1, seed=1, records=tmp_path)
    assert searched and max(searched) <= 5  # it searched, in the last tricks only
    assert any(g.declarer == 0 for g in result.games)  # it declared at least once
    for g in result.games:
        if g.declarer is not None:
            score_record(load_record(tmp_path / f"deal-0001-r{g.rotation}.toml"))
    again = match(players, 1, seed=1)
    assert [g.points for g in again.games] == [g.points for g in result.games]


def test_the_seats_specs_know_what_each_seat_knows():
    """The declarer's game carries its discard as the declaration's (points counted, cards out
    of play); a defender's has the Skat among the unseen cards."""
    from qcards.analysis.match_players import seat_spec
    from qcards.skat.rules.cards import Card, points

    hands, skat = deal_cards(5, 0)[:3], deal_cards(5, 0)[3]
    discard = tuple(skat)
    names = ["P1", "P2", "P3"]
    declarer = seat_spec(names, "grand", "P1", "P2", hands[0], [*hands[1], *hands[2]], discard,
                         True, 24)  # fmt: skip
    assert declarer.declaration.discard == discard
    assert declarer.declarer_points == points(discard)
    assert declarer.sizes == {"P2": 10, "P3": 10}
    defender = seat_spec(names, "grand", "P2", "P2", hands[1], [*hands[0], *hands[2]], discard,
                         False, 24)  # fmt: skip
    assert defender.declaration is None and defender.sizes["skat"] == 2
    assert all(isinstance(c, Card) for c in defender.unknown) and set(discard) <= set(
        defender.unknown
    )


# ----------------------------------------------------------------------------- plans


def test_an_empty_budget_is_refused_naming_the_player(capsys):
    """Issue 53, item 15: ``adversarial:`` played the default budget."""
    with pytest.raises(ParameterError, match="'adversarial:'.*empty"):
        parse_player("adversarial:")
    assert main(["match", "--player", "adversarial:", "--player", "heuristic", "--player",
                 "heuristic", "--deals", "1"]) == 2  # fmt: skip
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("error: --player 'adversarial:'"), err


def test_records_already_there_are_refused_before_any_game(tmp_path, capsys):
    """Issue 53, item 15: ``--records DIR`` overwrote ``deal-0001-r0.toml``."""
    (tmp_path / "deal-0002-r1.toml").write_text("mine")
    (tmp_path / "deal-0009-r0.toml").write_text("beyond the match's deals")
    with pytest.raises(FileError, match="deal-0002-r1.toml"):
        match(["heuristic", "random", "heuristic"], 2, seed=2, records=tmp_path)
    assert (tmp_path / "deal-0002-r1.toml").read_text() == "mine"
    assert len(list(tmp_path.iterdir())) == 2  # nothing written
    argv = ["match", "--player", "heuristic", "--player", "random", "--player", "heuristic",
            "--deals", "2", "--records", str(tmp_path)]  # fmt: skip
    assert main(argv) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "--records" in err[0] and "deal-0002-r1.toml" in err[0], err
    match(["heuristic", "random", "heuristic"], 1, seed=2, records=tmp_path)  # no clash


def test_a_match_past_the_memory_limit_is_refused_at_once(capsys):
    """Issue 53, item 6: a trillion deals ended in a MemoryError traceback."""
    argv = ["match", "--player", "heuristic", "--player", "heuristic", "--player", "random",
            "--deals", "1000000000000", "--force"]  # fmt: skip
    assert main(argv) == 2  # memory is never forced
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("error: a match of 1,000,000,000,000 deals"), err
    assert "GiB" in err[0] and "--deals" in err[0]


def test_worlds_past_the_memory_limit_are_refused_before_any_game(capsys):
    """Issue 53, item 8: a billion worlds a card grew to 23.8 GB before the kernel killed it."""
    argv = ["match", "--player", "heuristic", "--player", "random", "--player",
            "adversarial:1000000000", "--deals", "1", "--seed", "1", "--json",
            "--force"]  # fmt: skip
    assert main(argv) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("error: --player adversarial:1000000000 would "
                                               "need about"), err  # fmt: skip
    assert "worlds fit" in err[0]
    with limits(memory=2**20), pytest.raises(ResourceError, match="adversarial:1000 "):
        match(["heuristic", "random", "adversarial:1000"], 1, force=True)


def test_a_match_past_the_time_limit_is_refused_unless_forced(capsys):
    """Issue 53, item 9: ``qcards match --deals 100000`` planned nothing (about 85 hours)."""
    assert main(["match", "--deals", "100000"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("error: a match of 100,000 deals"), err
    assert "adversarial:10" in err[0] and "--force" in err[0] and "--deals" in err[0]
    players = ["heuristic", "random", "softmax"]
    with limits(seconds=0.01):
        with pytest.raises(ResourceError, match="would take about"):
            match(players, 2, seed=3)
        forced = match(players, 2, seed=3, force=True)
    assert forced.to_json() == match(players, 2, seed=3).to_json()
    with limits(seconds=0.01):
        assert main(["match", *(a for p in players for a in ("--player", p)), "--deals", "2",
                     "--force", "--json"]) == 0  # fmt: skip
    assert json.loads(capsys.readouterr().out)["games"] == 6


def test_the_plan_costs_every_player_kind():
    """Every player's seconds a game come from the cost model; a search costs more with more
    worlds, a best response more than PIMC's, and the local Dask workers share the time."""
    from qcards.analysis.match import plan_match

    def seconds(*players, scheduler=None):
        return plan_match([parse_player(p) for p in players], 10, scheduler, force=True).seconds

    cheap = seconds("random", "heuristic", "softmax")
    assert 0 < cheap < seconds("adversarial:2", "heuristic", "softmax")
    assert seconds("adversarial:2", "heuristic", "heuristic") < seconds(
        "adversarial:20", "heuristic", "heuristic"
    )
    assert seconds("adversarial:5", "random", "random") < seconds("best-response:5", "random",
                                                                  "random")  # fmt: skip
    assert seconds("random", "heuristic", "softmax", scheduler="local") <= cheap


# ----------------------------------------------------------------------------- journals


def test_an_interrupted_match_resumes_from_its_journal_to_the_uninterrupted_result(tmp_path):
    journal = tmp_path / "match.jsonl"
    players = ["heuristic", "random", "learned"]
    first = match(players, 2, 3, resume=journal)
    assert len(journal.read_text().splitlines()) == 1 + 2  # the header and a line a deal
    resumed = match(players, 4, 3, resume=journal)  # deals 0 and 1 are read, 2 and 3 played
    fresh = match(players, 4, 3)
    assert resumed.games[: len(first.games)] == first.games
    assert resumed.games == fresh.games and resumed.to_json() == fresh.to_json()
    assert match(players, 1, 3, resume=journal).games == fresh.games[:3]  # fewer deals: a part


def test_a_journal_of_another_match_or_no_journal_is_refused(tmp_path, capsys):
    journal = tmp_path / "match.jsonl"
    match(["heuristic", "random", "heuristic"], 1, 3, resume=journal)
    with pytest.raises(ParameterError, match="players"):
        match(["heuristic", "heuristic", "heuristic"], 1, 3, resume=journal)
    with pytest.raises(ParameterError, match="seed"):
        match(["heuristic", "random", "heuristic"], 1, 4, resume=journal)
    other = tmp_path / "other.jsonl"
    other.write_text('{"format": "something else"}\n')
    argv = ["match", "--player", "heuristic", "--player", "random", "--player", "heuristic",
            "--deals", "1", "--resume", str(other)]  # fmt: skip
    assert main(argv) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("error: --resume")
    assert "not a match journal" in err[0]


def test_a_retrained_model_file_starts_a_new_journal(tmp_path):
    from qcards.skat.learned.network import SHIPPED

    model = tmp_path / "model.npz"
    model.write_bytes(SHIPPED.read_bytes())
    journal = tmp_path / "match.jsonl"
    players = [f"learned:{model}", "heuristic", "heuristic"]
    match(players, 1, 3, resume=journal)
    model.write_bytes(model.read_bytes() + b"\0")  # another file under the same name
    with pytest.raises(ParameterError, match="files"):
        match(players, 1, 3, resume=journal)


def test_a_journal_cut_short_replays_its_last_deal_and_a_bad_line_is_named(tmp_path, capsys):
    journal = tmp_path / "match.jsonl"
    players = ["heuristic", "random", "heuristic"]
    whole = match(players, 2, 3, resume=journal)
    text = journal.read_text()
    journal.write_text(text[: len(text) - 40])  # the last deal's line cut short
    assert match(players, 2, 3, resume=journal).games == whole.games
    assert match(players, 2, 3, resume=journal).games == whole.games  # the replayed line read
    assert len(journal.read_text().splitlines()) == 3
    lines = journal.read_text().splitlines()
    journal.write_text("\n".join([lines[0], '{"deal": 0, "games": 5}']) + "\n")
    argv = ["match", "--player", "heuristic", "--player", "random", "--player", "heuristic",
            "--deals", "2", "--seed", "3", "--resume", str(journal)]  # fmt: skip
    assert main(argv) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "line 2: not a deal's games" in err[0]


def test_the_model_the_environment_names_is_part_of_the_journal(tmp_path, monkeypatch):
    from qcards.skat.learned.network import ENVIRONMENT, SHIPPED

    journal = tmp_path / "match.jsonl"
    players = ["learned", "heuristic", "heuristic"]
    match(players, 1, 3, resume=journal)
    other = tmp_path / "other.npz"
    other.write_bytes(SHIPPED.read_bytes() + b"\0")
    monkeypatch.setenv(ENVIRONMENT, str(other))
    with pytest.raises(ParameterError, match="files"):
        match(players, 1, 3, resume=journal)


def test_a_match_with_an_outside_program_is_not_resumed(tmp_path):
    with pytest.raises(ParameterError, match="outside program"):
        match(["heuristic", "exec:true", "heuristic"], 1, 3, resume=tmp_path / "j.jsonl")
