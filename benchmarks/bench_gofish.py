"""Benchmark: exact Quantum Go Fish deduction time per move.

Run ``python benchmarks/bench_gofish.py [--moves N] [--runs R]``. Random games (uniform legal
asks, uniform consistent answers) are played until N moves are collected; each move is timed
as ``play`` (legality, allowed answers, the new knowledge and the outcome) plus ``hands()``.
The table shows, per number of players, the median and the 90th percentile per move, each the
median over R runs with different seeds.

A second table solves the 2- and 3-player games (:func:`qcards.games.gofish.solve.solve`): the
positions of the whole game graph, the time (median of R runs), which seats or pairs of seats
can force a win, and how many turns they need. Four players are tried with a cap on the
number of positions (``--cap``); the search does not finish there.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from qcards.games.gofish import GoFish
from qcards.games.gofish.randomplay import random_move
from qcards.games.gofish.solve import explore, solve


def move_times(players: int, moves: int, seed: int) -> list[float]:
    """Seconds per move (``play`` + ``hands()``) over random games, ``moves`` of them."""
    rng = random.Random(seed)
    names = [f"P{k}" for k in range(players)]
    times: list[float] = []
    games = 0
    while len(times) < moves:
        game = GoFish(names)
        games += 1
        while not game.over and len(times) < moves:
            start = time.perf_counter()
            random_move(game, rng)
            game.hands()
            times.append(time.perf_counter() - start)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--moves", type=int, default=300)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--players", type=int, nargs="+", default=[3, 4, 6, 8])
    parser.add_argument("--cap", type=int, default=3000, help="positions tried for 4 players")
    args = parser.parse_args()
    deduction_table(args)
    print()
    solver_table(args)


def solver_table(args) -> None:
    print(
        "| players | no-four | playing on | initial deals | positions | s | verdict "
        "| forcing teams (turns) |"
    )
    print("|---|---|---|---|---|---|---|---|")
    for players, no_four, playing_on in [
        (2, False, False),
        (2, True, False),
        (2, True, True),
        (3, False, False),
        (3, True, False),
        (3, True, True),
    ]:
        times = []
        for _ in range(args.runs):
            begin = time.perf_counter()
            solution = solve(players, no_four, playing_on=playing_on)
            times.append(time.perf_counter() - begin)
        teams = ", ".join(
            f"{'+'.join(str(s + 1) for s in t.team)} ({t.turns})"
            for t in solution.teams
            if t.forced
        )
        print(
            f"| {players} | {no_four} | {playing_on} | {solution.initial_deals} | "
            f"{solution.positions} | "
            f"{statistics.median(times):.2f} | {solution.verdict} | {teams or '-'} |"
        )
    begin = time.perf_counter()
    graph = explore(4, True, limit=args.cap)
    spent = time.perf_counter() - begin
    state = "complete" if graph.complete else "not finished"
    print(f"\n4 players (no-four): {len(graph.options)} positions in {spent:.0f} s, {state}")


def deduction_table(args) -> None:
    print(f"{'players':>7}  {'median ms':>9}  {'p90 ms':>7}  moves x runs")
    for n in args.players:
        medians, p90s = [], []
        for run in range(args.runs):
            times = sorted(move_times(n, args.moves, seed=1000 * n + run))
            medians.append(statistics.median(times))
            p90s.append(times[int(0.9 * (len(times) - 1))])
        print(
            f"{n:>7}  {1e3 * statistics.median(medians):>9.3f}  "
            f"{1e3 * statistics.median(p90s):>7.3f}  {args.moves} x {args.runs}"
        )


if __name__ == "__main__":
    main()
