"""The quantum view of the possible worlds agrees with the classical referee."""

from __future__ import annotations

import itertools
import random

import numpy as np
import pytest
from qiskit.circuit.library import StatePreparation
from qiskit.quantum_info import Statevector

from qcards.games.cats.cards import COLOURS, Colour
from qcards.games.cats.errors import CatsError
from qcards.games.cats.quantum import (
    QuantumKnowledge,
    index_world,
    projector,
    uniform_worlds,
    world_index,
)
from qcards.games.cats.referee import Reasoner, at_least_one, colour_worlds, deduce


def test_uniform_worlds_is_the_uniform_superposition():
    n = 4
    uniform = np.full(2**n, 2 ** (-n / 2))
    assert Statevector(uniform_worlds(n)).equiv(Statevector(StatePreparation(uniform)))
    assert uniform_worlds(n).qregs[0].name == "colour"
    with pytest.raises(CatsError, match="1 to 10 players"):
        uniform_worlds(11)


def test_world_indices_round_trip():
    for k in range(32):
        assert world_index(index_world(k, 5)) == k
    assert world_index((Colour.RED, Colour.BLACK, Colour.BLACK)) == 1  # qubit 0 is player 1


@pytest.mark.parametrize("call", COLOURS)
def test_dealer_projector_removes_only_the_world_without_the_call(call):
    n = 3
    missing = world_index((call.other,) * n)
    expected = np.eye(2**n)
    expected[missing, missing] = 0
    assert np.allclose(projector(n, at_least_one(call)).data, expected)


@pytest.mark.parametrize("call", COLOURS)
def test_quantum_and_classical_rounds_agree_up_to_five_players(call):
    for n in range(1, 6):
        for world in itertools.product(COLOURS, repeat=n):
            if call not in world:
                continue
            quantum = deduce(world, call, initial=QuantumKnowledge.uniform(n))
            assert quantum == deduce(world, call)


def test_support_follows_the_classical_worlds():
    n, call = 4, Colour.BLACK
    classical = colour_worlds(n).announce(at_least_one(call))
    quantum = QuantumKnowledge.uniform(n).announce(at_least_one(call))
    assert quantum.worlds == classical.worlds
    state = quantum.state.data
    assert np.allclose(np.abs(state[state != 0]), 15**-0.5)  # renormalised, still uniform


def test_knowing_is_a_certain_measurement_of_her_qubit():
    state = QuantumKnowledge.uniform(2).announce(at_least_one(Colour.RED))
    # player 0 sees player 1 black: only "red" is left for her qubit
    assert state.marginal(0, (Colour.RED, Colour.BLACK)) == pytest.approx((0.0, 1 / 3))
    assert state.own_values(0, (Colour.RED, Colour.BLACK)) == {Colour.RED}
    assert state.own_values(1, (Colour.RED, Colour.BLACK)) == set(COLOURS)


def test_agreement_with_imperfect_players():
    rng = random.Random(5)
    for _ in range(30):
        n = rng.randint(2, 5)
        world = tuple(rng.choice(COLOURS) for _ in range(n))
        call = rng.choice(sorted(set(world)))
        reasoners = [Reasoner(int(rng.random() < 0.3), rng.random() < 0.2) for _ in range(n)]
        seed = rng.getrandbits(32)
        classical = deduce(world, call, reasoners, random.Random(seed))
        quantum = deduce(world, call, reasoners, random.Random(seed), QuantumKnowledge.uniform(n))
        assert quantum == classical
