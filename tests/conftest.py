"""Shared fixtures: the paper's specs and a generator of small random endgames."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from qcards.cards import FULL_DECK, Trump
from qcards.encoding import GameLayout
from qcards.paper import FOUR_CARD, SIX_CARD
from qcards.spec import Endgame, parse_spec

REPO = Path(__file__).resolve().parents[1]


@pytest.fixture
def four_card() -> Endgame:
    return FOUR_CARD.spec()


@pytest.fixture
def six_card() -> Endgame:
    return SIX_CARD.spec()


def random_spec(
    seed: int,
    players: int,
    tricks: int,
    trump: Trump,
    winner_leads: bool,
    declarer_known: bool,
    max_qubits: int = 22,
) -> Endgame:
    """A random endgame with ``players`` x ``tricks`` cards, small enough to simulate.

    Cards are drawn from few suits (with jacks) so that suit following, trumps and jacks matter.
    """
    rng = random.Random(seed)
    names = ["A", "B", "C", "D"][:players]
    suits = rng.sample("CSHD", 2)
    pool = [c for c in FULL_DECK if c.suit in suits or c.rank == "J"]
    for _ in range(200):
        cards = rng.sample(pool, players * tricks)
        hands = {}
        unknown = cards
        if declarer_known:
            hands["A"] = cards[:tricks]
            unknown = cards[tricks:]
        receivers = names[1:] if declarer_known else names
        text = "\n".join(
            [
                "players = [" + ", ".join(f'"{n}"' for n in names) + "]",
                f'trump = "{trump.value}"',
                f'leader = "{rng.choice(names)}"',
                f"winner_leads = {'true' if winner_leads else 'false'}",
                f"declarer_points = {rng.randrange(0, 30)}",
                f"target = {rng.randrange(20, 75)}",
                "[hands]",
                *(
                    f"{p} = [{', '.join(f'{chr(34)}{c}{chr(34)}' for c in h)}]"
                    for p, h in hands.items()
                ),
                "[unknown]",
                "cards = [" + ", ".join(f'"{c}"' for c in unknown) + "]",
                "sizes = { " + ", ".join(f"{r} = {tricks}" for r in receivers) + " }",
            ]
        )
        spec = parse_spec(text, source=f"random-{seed}")
        if spec.declarer_points + spec.points_in_play() <= 120:
            if GameLayout(spec).num_qubits <= max_qubits:
                return spec
    raise RuntimeError("could not generate a small enough spec")


GENERATED_CASES = [
    # (players, tricks, declarer hand known)
    (2, 1, False),
    (2, 2, False),
    (2, 2, True),
    (3, 1, False),
    (3, 2, True),
]


def generated_specs(count_per_case: int = 1):
    """Parameters covering every trump kind, both ``winner_leads`` values, 2 and 3 players."""
    out = []
    seed = 0
    for players, tricks, known in GENERATED_CASES:
        for trump in Trump:
            for winner_leads in (True, False):
                if tricks == 1 and not winner_leads:
                    continue  # identical to winner_leads = true with a single trick
                for _ in range(count_per_case):
                    seed += 1
                    out.append((seed, players, tricks, trump, winner_leads, known))
    return out
