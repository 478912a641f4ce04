"""The one player interface (``qcards.analysis.seat_players``): every player a match seats is a
``CardPlayer`` asked through one ``Decision``, and a player kind another package registers
(``probe_players`` in ``tests/plugins_players``, entry-point group ``qcards.players``) plays a
match and gives advice as the player it wraps.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import numpy as np
import pytest

from qcards.analysis import match_players
from qcards.analysis.match import match
from qcards.analysis.match_players import Player, parse_player, player_card, seated
from qcards.analysis.seat_players import CardPlayer, Decision, player_kinds
from qcards.errors import ModelError, ParameterError, PluginError
from qcards.skat.position.spec import load_spec
from qcards.skat.rules.cards import Card

from conftest import REPO

PLUGINS = REPO / "tests" / "plugins_players"
SIX = REPO / "qcards" / "specs" / "six-card.toml"
HISTORY = "A:CA B:C8 C:C9"


def _forget() -> None:
    player_kinds.cache_clear()
    seated.cache_clear()


@pytest.fixture
def probe(monkeypatch):
    """The plugin installed for the test (and forgotten after it)."""
    monkeypatch.syspath_prepend(str(PLUGINS))
    _forget()
    import probe_players

    probe_players.ASKED.clear()
    yield probe_players
    monkeypatch.undo()
    sys.modules.pop("probe_players", None)
    _forget()


def _games(result) -> list[tuple]:
    """Each game's scores and record without its comment line (which names the players)."""
    return [(g.points, [line for line in (g.record or "").splitlines()
                        if not line.startswith("#")]) for g in result.games]  # fmt: skip


@pytest.mark.parametrize(
    "text", ["random", "heuristic", "learned", "adversarial:3", "best-response:3"]
)
def test_every_built_in_player_is_one_card_player(text):
    player = seated(parse_player(text))
    assert isinstance(player, CardPlayer)


def test_a_decision_builds_only_what_its_player_reads():
    spec = load_spec(SIX)

    def never():
        raise AssertionError("built without being read")

    legal = tuple(Card.parse(c) for c in ("CA", "CK"))
    searcher = Decision(legal, (), np.random.default_rng(0), view=never, game=lambda: spec)
    assert seated(Player("adversarial", 3)).step(searcher) in legal
    with pytest.raises(ModelError, match="within a match"):
        searcher.request  # noqa: B018 (reading it is the test)


def test_without_the_plugin_the_probe_is_unknown():
    _forget()
    with pytest.raises(ParameterError, match="unknown or unusable model 'probe-player'"):
        parse_player("probe-player")


def test_the_probe_is_a_player_with_its_options(probe):
    assert parse_player("probe-player") == Player("probe-player")
    assert parse_player("probe-player:adversarial:3").label == "probe-player:adversarial:3"
    with pytest.raises(ParameterError, match="probe refuses the options 'broken'"):
        parse_player("probe-player:broken")
    assert "probe-player" in str(pytest.raises(ParameterError, parse_player, "nope").value)


def test_the_probe_plays_a_match_as_the_player_it_wraps(probe):
    seats = ["heuristic", "random", "adversarial:3"]
    wrapped = match(["probe-player", *seats[1:]], 2, seed=4, force=True)
    plain = match(seats, 2, seed=4, force=True)
    assert _games(wrapped) == _games(plain)
    assert wrapped.players[0].label == "probe-player"
    assert len(probe.ASKED) >= 2 * 10  # ten cards a game, in at least two games


def test_the_probe_gives_advice_as_the_player_it_wraps(probe):
    spec = load_spec(SIX)
    for inner in ("heuristic", "adversarial:5"):
        for seed in (0, 1):
            assert player_card(spec, HISTORY, f"probe-player:{inner}", seed) == player_card(
                spec, HISTORY, inner, seed
            )
    assert probe.ASKED


def test_a_wrong_answer_names_the_player(probe):
    with pytest.raises(ModelError, match="the player probe-player:illegal answered 'no card'"):
        match(["probe-player:illegal", "heuristic", "heuristic"], 1, seed=0, force=True)


def test_a_name_a_built_in_player_has_is_refused(tmp_path, monkeypatch):
    info = tmp_path / "taken-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: taken\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text("[qcards.players]\nheuristic = probe_players:PROBE\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    _forget()
    try:
        with pytest.raises(PluginError, match="'heuristic' in the entry-point group"):
            match_players.registered()
    finally:
        monkeypatch.undo()
        _forget()


def test_the_cli_seats_the_probe_and_asks_it(tmp_path):
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(PLUGINS), str(REPO)])}
    code = "import sys; from qcards.cli import main; sys.exit(main())"
    argv = ["recommend", str(SIX), "--history", HISTORY, "--player", "probe-player", "--seed",
            "2", "--json"]  # fmt: skip
    done = subprocess.run([sys.executable, "-c", code, *argv], env=env, capture_output=True,
                          text=True)  # fmt: skip
    assert done.returncode == 0, done.stderr
    answer = json.loads(done.stdout)
    expected = player_card(load_spec(SIX), HISTORY, "heuristic", 2)
    assert answer == {"player": "probe-player", "card": str(expected)}
    argv = ["match", "--player", "probe-player:illegal", "--player", "heuristic", "--player",
            "heuristic", "--deals", "1"]  # fmt: skip
    done = subprocess.run([sys.executable, "-c", code, *argv], env=env, capture_output=True,
                          text=True)  # fmt: skip
    assert done.returncode == 2
    assert done.stderr.startswith("error: ") and len(done.stderr.splitlines()) == 1, done.stderr
    assert "probe-player:illegal" in done.stderr


def test_the_movers_view_after_a_history_holds_its_tricks():
    from qcards.skat.position.history import mover_view

    spec = load_spec(SIX)
    view = mover_view(spec, HISTORY + " A:CK")
    first = tuple(Card.parse(c) for c in ("CA", "C8", "C9"))
    assert view.tricks == ((0, first),)
    assert set(first) <= view.played and Card.parse("CK") in view.trick
    assert view.seat == spec.players.index("B") and not view.hand & view.out
