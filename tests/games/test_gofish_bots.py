"""Quantum Go Fish bots and leagues: legal play, greedy wins, search against brute force."""

from __future__ import annotations

from pathlib import Path

import pytest

from qcards.games.gofish import GoFish, load_record
from qcards.games.gofish.bots import (
    GreedyBot,
    SearchBot,
    after,
    allowed,
    bot_move,
    make_bot,
    previews,
)
from qcards.games.gofish.errors import RuleError
from qcards.games.gofish.game import Ask
from qcards.games.gofish.randomplay import fresh_suit
from qcards.games.gofish.terminal import replayed
from qcards.games.gofish.tournament import seatings, tournament

DATA = Path(__file__).parent / "data"


def position(name: str, moves: int) -> GoFish:
    """The sample game ``name`` after its first ``moves`` moves."""
    record = load_record(DATA / name)
    game = GoFish(record.players)
    for m in record.moves[:moves]:
        game.play(m.asker, m.target, m.suit, m.answer)
    return game


class Checked:
    """Wraps a bot and checks every ask is legal and every answer consistent."""

    def __init__(self, bot) -> None:
        self.bot = bot

    def choose_ask(self, game: GoFish) -> Ask:
        ask = self.bot.choose_ask(game)
        assert ask.asker == game.turn and ask.suit is not None
        game.allowed_answers(ask.asker, ask.target, ask.suit)  # raises if illegal
        return ask

    def choose_answer(self, game: GoFish, ask: Ask) -> str:
        answer = self.bot.choose_answer(game, ask)
        assert answer in allowed(game, ask)
        return answer


@pytest.mark.parametrize("kind", ["random", "greedy", "search"])
@pytest.mark.parametrize("no_four", [False, True], ids=["standard", "no-four"])
def test_bots_play_legally_and_never_cause_a_paradox(kind: str, no_four: bool) -> None:
    statuses = set()
    for seed in range(12):
        players = 2 + seed % 3
        names = [f"P{k}" for k in range(players)]
        depth = 2 if players < 4 else 1
        bots = {n: Checked(make_bot(kind, seed * 10 + k, depth)) for k, n in enumerate(names)}
        game = GoFish(names, no_four)
        while not game.over and len(game.moves) < 60:
            move = bot_move(game, bots)
            assert move.answer in move.allowed
        assert game.outcome.status != "paradox"
        statuses.add(game.outcome.status)
    assert "win" in statuses


def test_bots_are_repeatable_for_a_seed() -> None:
    def game_moves(seed: int) -> tuple:
        names = ["A", "B", "C"]
        kinds = ["random", "greedy", "search"]
        bots = {n: make_bot(k, seed) for n, k in zip(names, kinds, strict=True)}
        game = GoFish(names)
        while not game.over and len(game.moves) < 50:
            bot_move(game, bots)
        return game.moves

    assert game_moves(4) == game_moves(4)
    assert len({game_moves(s) for s in range(6)}) > 1


def test_greedy_takes_a_sure_win() -> None:
    game = position("wikipedia.txt", 3)  # A to ask: a new suit wins whatever the answer
    sure = {
        p.ask.target
        for p in previews(game)
        if p.ask.suit is None and len(p.winning("A")) == len(p.outcomes)
    }
    assert sure == {"B", "C"} and len(previews(game)) > len(sure)
    for seed in range(5):
        ask = GreedyBot(seed).choose_ask(game)
        assert ask.target in sure and ask.suit == fresh_suit(game)
        assert after(game, ask, allowed(game, ask)[0]).outcome.winners == ("A",)


def test_greedy_answer_denies_the_asker_a_win() -> None:
    game = position("book.txt", 3)  # Xia asks Zoe for 1: a "no" would hand Xia four 1's
    ask = Ask("Xia", "Zoe", "1")
    assert after(game, ask, "no").outcome.winners == ("Xia",)
    assert {GreedyBot(seed).choose_answer(game, ask) for seed in range(5)} == {"yes"}
    # and as the asker, Xia prefers an ask that wins under some answer
    assert GreedyBot(0).choose_ask(game) in {Ask("Xia", "Zoe", "1"), Ask("Xia", "Zoe", "2")}


def brute_values(game: GoFish, turns: int, root: int) -> tuple[float, ...]:
    """Max^n by plain recursion, no memo: ties go against ``root``, then to the first option
    (asks in ``legal_asks`` order, "yes" before "no")."""
    if game.over:
        return tuple(float(p in game.outcome.winners) for p in game.players)
    if turns == 0:
        return tuple(0.1 * max(row) for row in game.knowledge.counts.minimum)
    asker = game.players.index(game.turn)
    options = []
    for ask in game.legal_asks():
        suit = ask.suit or fresh_suit(game)
        target = game.players.index(ask.target)
        answers = []
        for answer in sorted(game.allowed_answers(ask.asker, ask.target, suit), reverse=True):
            twin = game.copy()
            twin.play(ask.asker, ask.target, suit, answer)
            answers.append(brute_values(twin, turns - 1, root))
        options.append(max(answers, key=lambda v, t=target: (v[t], -v[root])))
    return max(options, key=lambda v: (v[asker], -v[root]))


@pytest.mark.parametrize(("record", "moves", "depth"), [("book.txt", 3, 2), ("book.txt", 1, 3)])
def test_search_agrees_with_brute_force(record: str, moves: int, depth: int) -> None:
    game = position(record, moves)
    bot = SearchBot(seed=1, depth=depth)
    values = bot.ask_values(game)
    seat = game.players.index(game.turn)
    for ask, v in values.items():
        expected = [brute_values(after(game, ask, a), depth - 1, seat) for a in allowed(game, ask)]
        target = game.players.index(ask.target)
        assert v == max(expected, key=lambda e: (e[target], -e[seat]))
    best = max(v[seat] for v in values.values())
    assert values[bot.choose_ask(game)][seat] == best == brute_values(game, depth, seat)[seat]


def test_search_sees_the_win_and_bad_depth_is_refused() -> None:
    game = position("wikipedia.txt", 3)
    ask = SearchBot(seed=0, depth=1).choose_ask(game)
    assert after(game, ask, allowed(game, ask)[0]).outcome.winners == ("A",)
    with pytest.raises(RuleError, match="at least 1"):
        SearchBot(depth=0)
    with pytest.raises(RuleError, match="unknown bot 'clever'"):
        make_bot("clever")


def test_seatings_balance_the_first_move() -> None:
    assert len(set(seatings(3, ["random", "greedy", "search"]))) == 6
    assert seatings(4, ["random", "greedy"]) == (
        ("random", "greedy", "random", "greedy"),
        ("greedy", "random", "greedy", "random"),
    )
    assert seatings(3, ["greedy"]) == (("greedy",) * 3,)


def test_tournament_is_deterministic_and_adds_up() -> None:
    def run(seed: int) -> dict:
        data = tournament(3, 2, ["random", "greedy", "search"], seed=seed, depth=1).to_json()
        del data["seconds"]
        return data

    first = run(7)
    assert first == run(7)
    assert first["games"] == 12 and first["paradoxes"] == 0
    standings = {s["bot"]: s for s in first["standings"]}
    assert all(s["seats"] == 12 for s in standings.values())
    wins = sum(s["wins"] for s in standings.values())
    shared = sum(s["shared"] for s in standings.values())
    # every game has a sole winner, two or more sharing, or no result within the cap
    assert wins + first["unfinished"] <= 12 <= wins + first["unfinished"] + shared
    assert sum(first["seat_wins"]) == wins + shared
    assert len({str(run(k)["standings"]) for k in (1, 2, 3)} | {str(standings)}) > 1


def test_tournament_move_cap_and_errors() -> None:
    capped = tournament(3, 3, ["random"], seed=1, max_moves=1)
    assert capped.unfinished == 3 and capped.mean_moves == 1.0
    assert capped.standings[0].unfinished == 9 and capped.standings[0].win_rate == 0.0
    for kwargs, message in [
        ({"bots": ["random", "greedy", "search"], "players": 2}, "3 bots for 2 seats"),
        ({"bots": ["greedy", "greedy"]}, "listed twice"),
        ({"bots": ["smart"]}, "unknown bot 'smart'"),
        ({"games": 0}, "at least one game"),
        ({"players": 9}, "2 to 8"),
        ({"depth": 0}, "at least one turn"),
        ({"max_moves": 0}, "at least one move"),
    ]:
        with pytest.raises(RuleError, match=message):
            tournament(**kwargs)


def test_replayed_rebuilds_the_same_position() -> None:
    game = position("book.txt", 5)
    again = replayed(game, game.moves)
    assert again.hands() == game.hands() and again.turn == game.turn
