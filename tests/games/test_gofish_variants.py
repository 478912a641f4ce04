"""The lose-a-turn and playing-on variants: hand-made games, brute force on random games, and
record replay with the flags (text and JSON)."""

from __future__ import annotations

import io
import itertools
import json
import random

import gofish_brute as brute
import pytest

from qcards.cli import main
from qcards.games.gofish import GoFish, Outcome, load_record, parse_record, replay
from qcards.games.gofish.errors import RuleError
from qcards.games.gofish.randomplay import random_move
from qcards.games.gofish.record import write_record
from qcards.games.gofish.terminal import draw, play_game
from qcards.games.gofish.tournament import tournament


def played(players: str, *moves: str, **variants: bool) -> GoFish:
    """A game after moves written 'A C x yes' (asker, target, suit, answer)."""
    game = GoFish(list(players), **variants)
    for move in moves:
        game.play(*move.split())
    return game


# -- lose a turn ---------------------------------------------------------------------------

REFUSED = ("A B x no", "B C y yes", "C B z no")  # B's "no" is a paradox in the standard game


def test_refused_answer_is_replaced_and_its_author_skips_a_turn() -> None:
    assert played("ABC", *REFUSED).outcome.status == "paradox"
    game = played("ABC", *REFUSED, lose_a_turn=True)
    move = game.moves[-1]
    assert move.refused and move.answer == "no" and move.applied == "yes"
    assert not move.paradox and move.allowed == ("yes",)
    assert game.outcome.status == "ongoing" and game.skips == {"A": 0, "B": 1, "C": 0}
    # the knowledge is that of the consistent answer
    honest = played("ABC", *REFUSED[:2], "C B z yes")
    assert game.knowledge == honest.knowledge
    assert game.turn == "A"
    game.play("A", "C", "x", "yes")
    assert game.turn == "C" and game.skips["B"] == 0  # B sat out this turn
    game.play("C", "A", "x", "yes")
    assert game.turn == "A"  # B's penalty is spent: back to the usual order, B is next
    game.play("A", "C", "y", "no")
    assert game.turn == "B"


def test_penalties_add_up() -> None:
    # B refuses twice (a "yes" with no x left) before its turn comes: B sits out two turns.
    game = played("ABC", "A B x no", "B C y no", "C B x yes", lose_a_turn=True)
    assert game.turn == "A" and game.skips["B"] == 1
    game.play("A", "B", "x", "yes")
    assert game.turn == "C" and game.skips["B"] == 1  # one turn sat out, one still owed
    game.play("C", "A", "x", "yes")
    assert game.turn == "A"
    game.play("A", "C", "y", "no")
    assert game.turn == "C" and game.skips["B"] == 0


def test_two_players_the_asker_asks_again() -> None:
    game = GoFish(["A", "B"], no_four=True, lose_a_turn=True)
    game.play("A", "B", "x", "no")  # under no-four A cannot hold four x: refused
    assert game.moves[-1].refused and game.turn == "A" and game.skips == {"A": 0, "B": 0}
    assert not game.over


def test_refused_answer_can_decide_the_game() -> None:
    # The consistent answer applied may decide the game: the usual wins apply.
    moves = ("A C narwhals yes", "B C unicorns yes", "C B radishes no", "A B unicorns no")
    assert played("ABC", *moves).outcome.status == "paradox"
    game = played("ABC", *moves, lose_a_turn=True)
    assert game.moves[-1].refused
    assert game.outcome == Outcome("win", ("A",), "determined")
    assert game.outcome == played("ABC", *moves[:3], "A B unicorns yes").outcome


# -- playing on ----------------------------------------------------------------------------

LAY_DOWN = (
    "A C narwhals yes",
    "B C narwhals yes",
    "C A unicorns no",
    "A C radishes yes",  # A provably holds four radishes and lays them down
    "B C unicorns yes",  # B lays down four unicorns, and C gives away the last card
)


def test_playing_on_implies_no_four() -> None:
    assert GoFish(["A", "B"], playing_on=True).no_four
    assert GoFish(["A", "B"], playing_on=True).allowed_answers("A", "B", "x") == {"yes"}


def test_lay_down_and_win_by_running_out() -> None:
    game = played("ABC", *LAY_DOWN[:4], playing_on=True)
    assert game.moves[-1].laid_down == (("A", "radishes"),)
    assert game.outcome.status == "ongoing"  # a four is not a win in this variant
    hands = game.hands()
    assert hands["A"].size == 2 and "radishes" not in hands["A"].known
    assert all("radishes" in h.excluded for h in hands.values())  # out of play
    game.play("B", "C", "unicorns", "yes")
    assert game.moves[-1].laid_down == (("B", "unicorns"),)
    assert game.outcome == Outcome("win", ("C",), "empty")
    assert game.laid_down == (("A", "radishes"), ("B", "unicorns"))
    states = brute.replay_moves(3, game.moves, list("ABC"), list(game.suits), playing_on=True)
    assert brute.ranges(states)[0] == game.knowledge.counts.minimum


def test_laid_down_suit_cannot_be_asked_for() -> None:
    game = played("ABC", *LAY_DOWN[:4], playing_on=True)
    game.play("B", "A", "narwhals", "yes")
    game.play("C", "B", "unicorns", "yes")
    with pytest.raises(RuleError, match="provably holds no radishes"):
        game.play("A", "B", "radishes", "no")
    assert all(ask.suit != "radishes" for ask in game.legal_asks())


def test_simultaneous_empty_hands_share_the_win() -> None:
    game = played("AB", "A B narwhals yes", "B A unicorns yes", "A B narwhals no", playing_on=True)
    assert game.moves[-1].laid_down == (("A", "narwhals"), ("B", "unicorns"))
    assert game.outcome == Outcome("win", ("A", "B"), "empty")
    assert game.outcome.describe() == "A, B win (no cards left)"


# -- brute force ---------------------------------------------------------------------------

VARIANTS = {
    "lose-a-turn": {"lose_a_turn": True},
    "playing-on": {"playing_on": True},
    "both": {"lose_a_turn": True, "playing_on": True},
}
GAMES = {2: 12, 3: 10, 4: 3}
MAX_MOVES = 30


def next_turn(seat: int, sizes: list[int], skips: list[int]) -> int:
    """The test's own turn order: skip empty hands, and players who owe a turn."""
    for k in itertools.count(1):
        q = (seat + k) % len(sizes)
        if sizes[q] and skips[q]:
            skips[q] -= 1
        elif sizes[q]:
            return q
    raise AssertionError("unreachable")


@pytest.mark.parametrize("variant", sorted(VARIANTS))
@pytest.mark.parametrize("players", sorted(GAMES))
def test_random_games_match_brute_force(players: int, variant: str) -> None:
    options = VARIANTS[variant]
    lose, on = options.get("lose_a_turn", False), options.get("playing_on", False)
    names = [f"P{k}" for k in range(players)]
    initial = brute.start(players, no_four=on)
    seen = set()
    for seed in range(GAMES[players]):
        rng = random.Random(1000 * players + seed)
        game, states, skips = GoFish(names, **options), initial, [0] * players
        while not game.over and len(game.moves) < MAX_MOVES:
            seat = names.index(game.turn)
            move = random_move(game, rng, paradox=0.2)
            a, t = seat, names.index(move.target)
            s = game.suits.index(move.suit)
            assert move.allowed == brute.allowed(states, a, t, s)
            states, refused, laid = brute.play(states, a, t, s, move.answer, lose, on)
            assert move.refused == refused
            assert move.laid_down == tuple((names[p], game.suits[x]) for p, x in laid)
            assert game.outcome.status == "paradox" or states
            status, winners = brute.outcome(names, states, move.asker, on)
            assert (game.outcome.status, game.outcome.winners) == (status, winners)
            if status == "paradox":
                assert not lose
                break
            brute.check_state(game, states)
            skips[t] += refused
            if not game.over:
                sizes = [sum(row) for row in states[0][1]]
                assert names.index(game.turn) == next_turn(seat, sizes, skips)
                assert list(game.skips.values()) == skips
            seen |= {"refused"} if refused else set()
            seen |= {"laid down"} if laid else set()
            seen |= {"open hands"} if on and not game.over and game.knowledge.determined else set()
        seen.add(game.outcome.reason or game.outcome.status)
    expected = {"refused"} if lose else {"paradox"}
    if on:  # four-player games are few and capped: they need not reach the end
        expected |= {"laid down", "empty", "open hands"} if players < 4 else {"laid down"}
    assert expected <= seen, seen
    if lose:
        assert "paradox" not in seen


# -- records and the command line ----------------------------------------------------------


def record_text(players: str, moves: tuple[str, ...]) -> str:
    lines = [f"players {' '.join(players)}"]
    for m in moves:
        asker, target, suit, answer = m.split()
        lines.append(f"{asker} asks {target} for {suit}: {answer}")
    return "\n".join(lines) + "\n"


def test_replay_with_the_variants() -> None:
    record = parse_record(record_text("ABC", (*REFUSED, "A C x yes", "C A x yes")))
    standard = replay(record)
    assert standard.outcome.status == "paradox" and standard.ignored
    lose = replay(record, lose_a_turn=True)
    assert lose.outcome.status == "ongoing" and len(lose.moves) == 5
    assert [m.refused for m in lose.moves] == [False, False, True, False, False]
    on = replay(parse_record(record_text("ABC", LAY_DOWN)), playing_on=True)
    assert on.outcome == Outcome("win", ("C",), "empty")


def test_written_record_names_the_variants_and_replays() -> None:
    game = played("ABC", *REFUSED, "A C x yes", lose_a_turn=True, playing_on=True)
    text = write_record(game)
    assert text.splitlines()[0].startswith("# variants: no-four lose-a-turn playing-on")
    assert "C asks B for z: no" in text  # the refused answer as said
    again = replay(parse_record(text), **game.variants)
    assert again.moves == game.moves


def cli_json(capsys, path, *flags: str) -> dict:
    assert main(["gofish", "replay", str(path), *flags, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_cli_json(tmp_path, capsys) -> None:
    lose = tmp_path / "lose.txt"
    lose.write_text(record_text("ABC", REFUSED))
    data = cli_json(capsys, lose, "--lose-a-turn")
    assert list(data) == ["players", "suits", "moves", "result", "hands", "variants", "skips"]
    assert data["variants"] == ["lose-a-turn"] and data["skips"] == {"A": 0, "B": 1, "C": 0}
    assert data["moves"][-1] == {
        "line": 4,
        "asker": "C",
        "target": "B",
        "suit": "z",
        "answer": "no",
        "allowed": ["yes"],
        "refused": True,
        "applied": "yes",
    }
    assert data["result"] == {"status": "ongoing", "winners": [], "reason": None}
    on = tmp_path / "on.txt"
    on.write_text(record_text("ABC", LAY_DOWN))
    data = cli_json(capsys, on, "--playing-on")
    assert data["variants"] == ["no-four", "playing-on"] and "skips" not in data
    assert data["moves"][3]["laid_down"] == [{"player": "A", "suit": "radishes"}]
    assert "refused" not in data["moves"][3]
    assert data["result"] == {"status": "win", "winners": ["C"], "reason": "empty"}
    assert data["hands"]["C"]["size"] == 0


def test_cli_text(tmp_path, capsys) -> None:
    path = tmp_path / "both.txt"
    path.write_text(record_text("ABC", LAY_DOWN))
    assert main(["gofish", "replay", str(path), "--playing-on", "--lose-a-turn"]) == 0
    out = capsys.readouterr().out
    assert "A lays down radishes" in out and "result: C wins (no cards left)" in out
    path.write_text(record_text("ABC", REFUSED))
    assert main(["gofish", "replay", str(path), "--lose-a-turn"]) == 0
    out = capsys.readouterr().out
    assert "refused: yes applied, B sits out a turn" in out
    assert "result: ongoing" in out


# -- terminal play and leagues -------------------------------------------------------------


def terminal(script: str, **options) -> tuple[GoFish, str]:
    out = io.StringIO()
    game = play_game(
        players=3, bots=0, names=["A", "B", "C"], inp=io.StringIO(script), out=out, **options
    )
    return game, out.getvalue()


def test_terminal_human_may_take_the_penalty(tmp_path) -> None:
    record = tmp_path / "lose.txt"
    script = "B x\nno\nC y\nyes\nB z\nno\n"
    game, out = terminal(script, lose_a_turn=True, record=record)
    assert "B: only yes is consistent; no will be refused and cost you a turn" in out
    assert "3. C asks B for z: no (new suit, refused: yes applied, B sits out a turn)" in out
    assert "(4 cards, sits out 1 turn)" in out
    assert game.turn == "A" and game.moves[-1].refused
    again = replay(load_record(record), lose_a_turn=True)
    assert again.moves == game.moves
    # without the variant the forced answer is given for B
    game, out = terminal(script, record=tmp_path / "plain.txt")
    assert "B must say yes" in out and not game.over and len(game.moves) == 3


def test_terminal_playing_on_draws_laid_down_suits() -> None:
    script = "C narwhals\nyes\nC narwhals\nyes\nA unicorns\nno\nC radishes\nyes\nC unicorns\n"
    game, out = terminal(script, playing_on=True)
    assert "4. A asks C for radishes: yes (new suit, A lays down radishes)" in out
    assert "=radishes=" in draw(game) and "=suit=: four cards laid down" in out
    row = next(line for line in draw(game).splitlines() if line.startswith("  B"))
    assert "=unicorns=" in row and "#radishes#" in row
    assert game.outcome == Outcome("win", ("C",), "empty")
    assert "result: C wins (no cards left)" in out


def test_tournament_with_the_variants(capsys) -> None:
    league = tournament(3, 1, ["random", "greedy"], seed=1, max_moves=40, playing_on=True)
    data = league.to_json()
    assert data["playing_on"] and data["no_four"] and not data["lose_a_turn"]
    assert league.paradoxes == 0
    argv = ["gofish", "tournament", "--games", "1", "--bots", "random", "--lose-a-turn"]
    assert main([*argv, "--playing-on", "--max-moves", "30", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["lose_a_turn"] and data["playing_on"] and data["paradoxes"] == 0
    assert main([*argv[:-1], "--playing-on", "--max-moves", "30"]) == 0
    assert "3 players (no-four, playing-on), seed 0" in capsys.readouterr().out
