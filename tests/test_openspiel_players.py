"""OpenSpiel's bots as players of a match (:mod:`qcards.analysis.openspiel_player`, issue 54
item 4): they play legal cards, repeat from the match's seed, and their bad forms and a
missing extra are refused naming ``--player``; the OpenSpiel game's states resample from a
seat's information state."""

from __future__ import annotations

import numpy as np
import pytest

from qcards.analysis.match import deal_cards, match
from qcards.analysis.match_players import Player, parse_player, seat_spec
from qcards.cli import main
from qcards.errors import ParameterError, PlayerError
from qcards.execution import extras
from qcards.skat.openspiel import openspiel_game
from qcards.skat.players.beliefs import believe, check_beliefs
from qcards.skat.records.game_record import load_record, score_record

pytest.importorskip("pyspiel", reason="OpenSpiel is the optional extra qcards[openspiel]")

PLAYERS = ["openspiel-ismcts:4", "openspiel-mcts:2"]


@pytest.mark.parametrize("bot", PLAYERS)
def test_a_bot_plays_legal_cards_its_records_replay_and_it_repeats_from_its_seed(tmp_path, bot):
    """A few simulations a card keep it quick; the records' replay checks every card's
    legality."""
    result = match([bot, "heuristic", "heuristic"], 2, seed=3, records=tmp_path)
    played = [g for g in result.games if g.declarer is not None]
    assert played and result.players[0].label == bot
    for g in played:
        score_record(load_record(tmp_path / f"deal-{g.deal + 1:04d}-r{g.rotation}.toml"))
    again = match([bot, "heuristic", "heuristic"], 2, seed=3)
    assert [g.record for g in again.games] == [g.record for g in result.games]


def test_bots_parse_and_bad_forms_are_refused_naming_the_player(capsys):
    assert parse_player("openspiel-ismcts:50") == Player("openspiel-ismcts", iterations=50)
    assert parse_player("openspiel-mcts:7").label == "openspiel-mcts:7"
    for bad in ("openspiel-mcts:", "openspiel-mcts:0", "openspiel-mcts:x", "openspiel-mcts",
                "openspiel-ismcts:-1", "openspiel-ismcts:5:voids"):  # fmt: skip
        with pytest.raises(ParameterError, match="positive number of simulations"):
            parse_player(bad)
        assert main(["match", "--player", bad, "--player", "heuristic", "--player",
                     "heuristic", "--deals", "1"]) == 2  # fmt: skip
        err = capsys.readouterr().err.strip().splitlines()
        assert len(err) == 1 and err[0].startswith(f"error: --player {bad!r}"), err


def test_a_missing_extra_is_one_error_line_naming_it(monkeypatch, capsys):
    real = extras._installed
    monkeypatch.setattr(extras, "_installed", lambda m: m != "pyspiel" and real(m))
    assert main(["match", "--player", "openspiel-ismcts:10", "--player", "heuristic",
                 "--player", "heuristic", "--deals", "1"]) == 2  # fmt: skip
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("error:") and "qcards[openspiel]" in err[0], err


def test_an_illegal_answer_is_an_error_naming_the_player(monkeypatch):
    from open_spiel.python.algorithms import ismcts

    monkeypatch.setattr(ismcts.ISMCTSBot, "step", lambda self, state: 99)
    with pytest.raises(PlayerError, match="openspiel-ismcts:3.*not a legal card"):
        match(["openspiel-ismcts:3", "heuristic", "heuristic"], 1, seed=3)


def test_the_plan_costs_a_bot_by_its_simulations():
    from qcards.analysis.match import plan_match

    def seconds(bot):
        return plan_match([parse_player(bot), Player("heuristic"), Player("heuristic")], 10,
                          force=True).seconds  # fmt: skip

    assert seconds("openspiel-ismcts:10") < seconds("openspiel-ismcts:100")
    assert seconds("openspiel-mcts:10") < seconds("openspiel-mcts:100")


def test_resampled_states_are_ones_the_seat_cannot_tell_apart():
    """After a trick and a card, a defender's resampled states keep its hand and the plays,
    and give every other seat cards that replay them: the deals among the sampled ones that
    fit its information state, and more than one of them."""
    c = deal_cards(0, 0)
    spec = seat_spec(["P1", "P2", "P3"], "clubs", "P2", "P1", c[1], list(c[0] + c[2]), c[3],
                     False, 18)  # fmt: skip
    owners = believe(spec, [], check_beliefs("random")).sample(30, np.random.default_rng(1))
    game = openspiel_game(spec, "win", [(o, 1 / 30) for o in owners])
    state = game.new_initial_state()
    state.apply_action(0)
    seat = 1  # P2
    while len(state.plays) < 3 or state.current_player() != seat:
        state.apply_action(state.legal_actions()[0])
    rng = np.random.default_rng(2)
    seen = set()
    for _ in range(40):
        other = state.resample_from_infostate(seat, rng.uniform)
        assert other.information_state_string(seat) == state.information_state_string(seat)
        assert str(other) == str(state) and other.legal_actions() == state.legal_actions()
        assert any(other.hands[s] != state.hands[s] for s in (0, 2)) or other.deal == 0
        seen.add(other.deal)
    assert len(seen) > 1
