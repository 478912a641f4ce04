"""Error detection from the game's invariants (issue 17): keep every state of the game, drop
every other outcome."""

from __future__ import annotations

import random

import pytest

from qcards.circuits.decode import decode_counts, outcome_verdicts
from qcards.circuits.game import build_game
from qcards.paper.examples import CA, FOUR_CARD, SIX_CARD
from qcards.skat.position.consistency import violation
from qcards.skat.solvers.plain_referee import stage_distributions

from conftest import generated_specs, random_spec

CASES = [
    ("four", FOUR_CARD.spec(), None),
    ("six", SIX_CARD.spec(), None),
    ("six-CA", SIX_CARD.spec(), CA),
]
CASES += [(f"gen{k}", random_spec(*p), None) for k, p in enumerate(generated_specs()[::5])]
CASES += [
    (f"skat{k}", random_spec(*p), None) for k, p in enumerate(generated_specs(skat=True)[::4])
]


@pytest.mark.parametrize("name,spec,first", CASES, ids=[c[0] for c in CASES])
def test_every_reachable_state_is_consistent_and_nothing_else_nearby(name, spec, first):
    game = build_game(spec, first, construction="paper")
    layout = game.layout
    rng = random.Random(len(name))
    width = len(layout.measured)
    for stage, distribution in stage_distributions(spec, first):
        reachable = {layout.encode(snap) for snap in distribution}
        for snap in distribution:
            assert violation(spec, snap, stage, first) is None, (name, stage.name, snap)
        # outcomes one or two bit flips away: consistent exactly when reachable
        nearby = set()
        for outcome in reachable:
            for _ in range(6):
                flipped = outcome
                for bit in rng.sample(range(width), rng.choice((1, 2))):
                    flipped ^= 1 << bit
                nearby.add(flipped)
        verdicts = outcome_verdicts(spec, game, nearby, stage)
        for outcome, (_label, _won, consistent) in verdicts.items():
            assert consistent == (outcome in reachable), (name, stage.name, bin(outcome))


def test_detection_keeps_a_noiseless_run_and_drops_injected_outcomes():
    spec = FOUR_CARD.spec()
    game = build_game(spec, construction="paper")
    final = dict(stage_distributions(spec))[game.stages[-1]]
    counts = {game.layout.encode(snap): int(p * 1200) for snap, p in final.items()}
    clean = decode_counts(spec, game, counts, detect=True)
    assert clean.kept == clean.shots and clean.kept_fraction == 1.0
    assert abs(clean.p_win - 5 / 12) < 1e-12
    injected = dict(counts)
    bad = [o ^ 0b11 for o in counts][:3] + [(1 << len(game.layout.measured)) - 1]
    for outcome in bad:
        assert outcome not in counts
        injected[outcome] = injected.get(outcome, 0) + 100
    noisy = decode_counts(spec, game, injected, detect=True)
    assert noisy.shots == clean.shots + 100 * len(bad)
    assert noisy.kept == clean.shots
    assert abs(noisy.p_win - 5 / 12) < 1e-12
    undetected = decode_counts(spec, game, injected)
    assert undetected.kept == undetected.shots and undetected.p_win != noisy.p_win
