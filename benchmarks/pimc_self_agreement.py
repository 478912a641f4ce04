"""How often PIMC agrees with itself: the held-out games (every tenth) of a positions file,
labelled again on other sampled worlds (:func:`qcards.analysis.train.label_game` with another
``worlds_stream``), and the share of positions where the card is the same. The scale for a
network imitating PIMC: its agreement on held-out games cannot usefully pass this.

    python benchmarks/pimc_self_agreement.py [GAMES] [--data FILE]
"""

from __future__ import annotations

import argparse

from qcards.analysis.train import label_game, read_positions


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", type=int, nargs="?", default=40, help="held-out games to relabel")
    parser.add_argument("--data", default="benchmarks/training/heuristic0/model.positions.jsonl")
    args = parser.parse_args()
    header, games = read_positions(args.data)
    held_out = [g for g in range(len(games)) if g % 10 == 9][: args.games]
    same = total = 0
    for g in held_out:
        again = label_game(int(header["seed"]), int(header["worlds"]), g, header["behaviour"],
                           worlds_stream=3)  # fmt: skip
        assert [row[:8] for row in again] == [row[:8] for row in games[g]], g
        same += sum(new[8] == old[8] for new, old in zip(again, games[g], strict=True))
        total += len(again)
    print(f"{args.data}: {len(held_out)} held-out games, {total} positions; PIMC at "
          f"{header['worlds']} worlds picks the same card on other worlds on {same} "
          f"({same / total:.1%})")  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
