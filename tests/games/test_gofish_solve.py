"""The Go Fish solver: its rules against the referee, its fixed point, and an independent
retrograde analysis of the two-player game built on the referee itself."""

from __future__ import annotations

import random

import gofish_brute
import pytest

from qcards.games.gofish import GoFish
from qcards.games.gofish.randomplay import random_move
from qcards.games.gofish.solve import (
    Position,
    all_deals,
    ask_options,
    canonical,
    explore,
    forced_wins,
    solve,
    start,
)


@pytest.mark.parametrize("players, no_four", [(2, False), (3, False), (3, True), (4, True)])
def test_initial_deals_match_brute_force(players, no_four):
    assert all_deals(players, no_four) == frozenset(gofish_brute.deals(players, no_four))


@pytest.mark.parametrize(
    "players, no_four, playing_on, games",
    [
        (2, False, False, 30),
        (3, False, False, 25),
        (3, True, False, 25),
        (2, True, True, 30),
        (3, True, True, 25),
    ],
)
def test_solver_rules_agree_with_the_referee(players, no_four, playing_on, games):
    """Random games through the referee and the solver's positions side by side: the same
    legal asks, the same consistent answers, the same ends, the same consistent deals (also
    playing on, where fours are laid down and an empty hand wins)."""
    rng = random.Random(players * 100 + no_four + 10 * playing_on)
    names = [f"P{k}" for k in range(players)]
    ends: set[str] = set()
    for _ in range(games):
        game = GoFish(names, no_four=no_four, playing_on=playing_on)
        position = start(players, no_four, playing_on)
        while not game.over:
            options = {(o.target, o.suit): o for o in ask_options(position)}
            suits = list(game.suits)
            asks = {
                (names.index(a.target), len(suits) if a.suit is None else suits.index(a.suit))
                for a in game.legal_asks()
            }
            assert set(options) == asks
            move = random_move(game, rng)
            option = options[(names.index(move.target), game.suits.index(move.suit))]
            answers = dict(option.answers)
            assert set(answers) == set(move.allowed)
            result = answers[move.answer]
            outcome = game.outcome
            if game.over:
                assert result.winners == tuple(names.index(w) for w in outcome.winners)
                assert result.reason == outcome.reason
                ends.add(outcome.reason)
                break
            assert result.position.turn == names.index(game.turn)
            position = result.position
            counts = game.knowledge.counts
            assert counts.minimum == tuple(
                tuple(min(m[p][s] for m in position.deals) for s in range(players))
                for p in range(players)
            )
            assert counts.maximum == tuple(
                tuple(max(m[p][s] for m in position.deals) for s in range(players))
                for p in range(players)
            )
    # the random games reached an end, and playing on only an empty hand ends a game
    assert ends == {"empty"} if playing_on else ends and "empty" not in ends


@pytest.fixture(scope="module")
def three_player_graph():
    return explore(3)


@pytest.mark.parametrize("team", [(0,), (1,), (0, 1), (1, 2)])
def test_forced_wins_is_the_least_fixed_point(team, three_player_graph):
    """Every winning position wins in one turn from positions of smaller depth, and no other
    position satisfies the one-turn condition with the final set (a fixed point)."""
    graph = three_player_graph
    turns = forced_wins(graph, team)

    def wins(result, won):
        if result.winners:
            return bool(set(team) & set(result.winners))
        return result.position in won

    def one_turn(position, won):
        asks = [
            (any if o.target in team else all)(wins(r, won) for _, r in o.answers)
            for o in graph.options[position]
        ]
        return (any if position.turn in team else all)(asks)

    before = {k: {p for p, d in turns.items() if d < k} for k in set(turns.values())}
    for position in graph.options:
        assert one_turn(position, turns) == (position in turns)
        if position in turns:
            assert one_turn(position, before[turns[position]])


def _referee_graph(players: int):
    """The game graph built with the referee: positions are (knowledge, turn, suits named)."""

    def key(game: GoFish):
        return (game.knowledge, game.turn, len(game.suits))

    names = [f"P{k}" for k in range(players)]
    root = GoFish(names)
    graph, games, todo = {}, {key(root): root}, [root]
    while todo:
        game = todo.pop()
        asks = []
        for ask in game.legal_asks():
            suit = ask.suit or f"s{len(game.suits) + 1}"
            results = []
            for answer in sorted(game.allowed_answers(ask.asker, ask.target, suit)):
                after = game.copy()
                after.play(ask.asker, ask.target, suit, answer)
                if after.over:
                    results.append(("win", tuple(names.index(w) for w in after.outcome.winners)))
                else:
                    if key(after) not in games:
                        games[key(after)] = after
                        todo.append(after)
                    results.append(("next", key(after)))
            asks.append((names.index(ask.target), results))
        graph[key(game)] = (names.index(game.turn), asks)
    return key(root), graph, games


@pytest.mark.parametrize("seat", [0, 1])
def test_two_player_solution_matches_a_retrograde_analysis_on_the_referee(seat):
    """An independent fixed point over the referee's own positions gives, position by
    position, the same forced wins as the solver (positions matched through their deals)."""
    root, graph, games = _referee_graph(2)
    won: set = set()
    while True:
        new = set()
        for k, (mover, asks) in graph.items():
            if k in won:
                continue
            oks = []
            for target, results in asks:
                each = [seat in v if kind == "win" else v in won for kind, v in results]
                oks.append(any(each) if target == seat else all(each))
            if any(oks) if mover == seat else all(oks):
                new.add(k)
        if not new:
            break
        won |= new
    solver = forced_wins(explore(2), (seat,))
    for k, game in games.items():
        deals = frozenset(
            now
            for _, now in gofish_brute.replay_moves(
                2, game.moves, list(game.players), list(game.suits)
            )
        )
        position = canonical(Position(deals, game.players.index(k[1]), k[2]))
        assert (k in won) == (position in solver)
    assert root not in won


@pytest.mark.slow
def test_solutions_of_two_and_three_players():
    two = solve(2)
    assert two.positions == len(explore(2).options)
    assert two.winners == () and two.verdict.startswith("draw")
    three = solve(3, no_four=True)
    assert three.initial_deals == len(gofish_brute.deals(3, no_four=True))
    pairs = {t.team: t for t in three.teams if len(t.team) == 2}
    singles = {t.team: t for t in three.teams if len(t.team) == 1}
    assert set(pairs) == {(0, 1), (0, 2), (1, 2)} and set(singles) == {(0,), (1,), (2,)}
    # a team's forced wins include each member's (more choices, the same opponents or fewer)
    for team, result in pairs.items():
        assert result.share >= max(singles[(m,)].share for m in team)


def test_a_cut_off_search_is_refused():
    with pytest.raises(ValueError, match="did not finish"):
        solve(3, limit=100)


def test_answers_are_exactly_the_consistent_ones():
    """At the start and one move later, each ask's answers are those brute force allows."""
    for players in (2, 3):
        states = gofish_brute.start(players)
        position = start(players)
        for option in ask_options(position):
            answers = {a for a, _ in option.answers}
            assert answers == set(gofish_brute.allowed(states, 0, option.target, option.suit))
        option = next(iter(ask_options(position)))
        answer, result = option.answers[0]
        states = gofish_brute.step(states, 0, option.target, option.suit, answer)
        assert result.position.deals == frozenset(now for _, now in states)
        for later in ask_options(result.position):
            allowed = gofish_brute.allowed(states, result.position.turn, later.target, later.suit)
            assert {a for a, _ in later.answers} == set(allowed)
