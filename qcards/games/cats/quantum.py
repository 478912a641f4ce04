"""The possible worlds of Philosopher Cats as a quantum state.

One qubit per player, ``|1>`` for red and ``|0>`` for black (qubit ``i`` is player ``i``,
Qiskit's little-endian order). Before the announcement every colouring is possible: the
uniform superposition made by a Hadamard on each qubit. An announcement is the projector onto
the worlds where it holds, applied to the statevector and renormalised; the support of the
state is then exactly the classical model's set of worlds.

Player ``i`` sees every qubit but her own. Fixing the others to what she sees leaves her qubit
in a pure state ``a|0> + b|1>`` (the state restricted to the two worlds she cannot tell
apart); she knows her colour when that state is a basis state, i.e. when measuring her qubit
would be certain. :class:`QuantumKnowledge` plugs into :func:`~qcards.games.cats.referee.deduce`
in place of the classical model, and the tests check both give the same rounds.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from qiskit import QuantumCircuit, QuantumRegister
from qiskit.quantum_info import Operator, Statevector

from qcards.games.cats.cards import Colour
from qcards.games.cats.errors import CatsError
from qcards.games.cats.worlds import Predicate, World

MAX_PLAYERS = 10
"""Projectors are dense ``2**n`` matrices: 10 players is a 1024 x 1024 operator."""

_TOLERANCE = 1e-12


def uniform_worlds(players: int) -> QuantumCircuit:
    """Hadamards on a register ``colour``: every colouring with amplitude ``2**(-n/2)``."""
    if not 1 <= players <= MAX_PLAYERS:
        raise CatsError(f"the quantum view holds 1 to {MAX_PLAYERS} players, not {players}")
    colour = QuantumRegister(players, "colour")
    circuit = QuantumCircuit(colour, name="worlds")
    circuit.h(colour)
    return circuit


def world_index(world: Sequence[Colour]) -> int:
    """The basis state of a world: bit ``i`` set when player ``i`` is red."""
    return sum(1 << i for i, colour in enumerate(world) if colour is Colour.RED)


def index_world(index: int, players: int) -> World:
    """The world of basis state ``index`` (inverse of :func:`world_index`)."""
    return tuple(Colour.RED if index >> i & 1 else Colour.BLACK for i in range(players))


def projector(players: int, predicate: Predicate) -> Operator:
    """The diagonal projector onto the worlds where ``predicate`` holds."""
    mask = [float(predicate(index_world(k, players))) for k in range(2**players)]
    return Operator(np.diag(mask))


class QuantumKnowledge:
    """A knowledge state held as a statevector (see the module docstring).

    Args:
        state: amplitudes over the ``2**n`` colourings; its support is the set of worlds.
    """

    def __init__(self, state: Statevector) -> None:
        self.state = state
        self.players = state.num_qubits
        # the probabilities as an n-index tensor: axis i is qubit i (reversed by reshape)
        self._probabilities = state.probabilities().reshape((2,) * self.players).transpose()

    @classmethod
    def uniform(cls, players: int) -> QuantumKnowledge:
        """Every colouring possible: the state of :func:`uniform_worlds`."""
        return cls(Statevector(uniform_worlds(players)))

    @property
    def worlds(self) -> frozenset[World]:
        """The support of the state."""
        support = np.flatnonzero(self.state.probabilities() > _TOLERANCE)
        return frozenset(index_world(int(k), self.players) for k in support)

    def marginal(self, agent: int, world: World) -> tuple[float, float]:
        """Probabilities of black and red for ``agent``'s qubit, the others fixed to ``world``
        (unnormalised: both 0 when what she sees is outside the support)."""
        seen = tuple(
            slice(None) if i == agent else int(c is Colour.RED) for i, c in enumerate(world)
        )
        black, red = self._probabilities[seen]
        return float(black), float(red)

    def own_values(self, agent: int, world: World) -> frozenset[Colour]:
        """The colours ``agent`` considers possible for herself at ``world``."""
        black, red = self.marginal(agent, world)
        return frozenset(
            colour for colour, p in ((Colour.BLACK, black), (Colour.RED, red)) if p > _TOLERANCE
        )

    def announce(self, predicate: Predicate) -> QuantumKnowledge:
        """Project onto the worlds where ``predicate`` holds and renormalise.

        The predicate is only asked about worlds in the support (outside it the projector's
        entry does not matter); an announcement no world satisfies leaves the zero vector.
        """
        support = self.worlds
        projected = self.state.evolve(
            projector(self.players, lambda w: w in support and predicate(w))
        )
        norm = np.linalg.norm(projected.data)
        data = projected.data / norm if norm > _TOLERANCE else np.zeros_like(projected.data)
        return QuantumKnowledge(Statevector(data))
