"""Classical actions of the game gates: what each gate does to basis states, on many at once.

Most game gates permute basis states (trick taking, the win oracle, the code bookkeeping); the
card play and the deal branch into a known uniform superposition. An exact engine that knows
this can apply a gate in a handful of vectorized steps instead of its decomposition (as
Qualtran's bloqs do with ``on_classical_vals``). A gate offers its action as a method
``sparse_apply(state, qubits)``, which :mod:`qcards.execution.sparse` calls instead of
simulating the definition.

The ``state`` is a :class:`~qcards.circuits.gates.row_state.RowState`, the protocol the
engine's state is checked against (so this layer does not import the engine): ``match(qubits,
values)`` (rows where the qubits hold the values), ``read``/``write`` (integers held by some
qubits), ``flip(qubit, where)``, ``expand(parents, scale)`` (row splitting),
``split_off``/``absorb`` and ``run_definition``; the compiled actions of the card play and the
trick taking (:mod:`.action_kernels`) read the packed rows themselves (``words``, ``amps``,
``num_words``) and hand back new ones (``check_rows``, ``replace_rows``).

An action states what the gate does on the basis states it was built for: clean ancillas, and
at most one configuration of the paper's products (Eqs. 12 and 15) holding. Every other row is
sent through the gate's own definition (:func:`classical_domain`), so the action equals the
decomposed unitary on *every* basis state, and the engine still simulates the circuit rather
than the referee; ``tests/test_classical_actions.py`` checks each gate both on random basis
states and on the states the game circuits reach.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from functools import lru_cache

import numpy as np
from qiskit.circuit import Gate, Qubit

from qcards.circuits.gates.row_state import RowState
from qcards.circuits.layout import GameLayout


class Rows:
    """The registers of a game layout, read on every row of a sparse state at once.

    Args:
        state: the engine's state.
        layout: the layout the gate acts on.
        qubits: the state's qubit for each of ``layout.qubits`` (the gate's qubit order).
    """

    def __init__(self, state: RowState, layout: GameLayout, qubits: Sequence[int]) -> None:
        self.state = state
        self.layout = layout
        self.position = dict(zip(layout.qubits, qubits, strict=False))

    @property
    def count(self) -> int:
        return self.state.num_rows

    def holds(self, cube: Mapping[Qubit, int] | None) -> np.ndarray:
        """Rows where the cube holds (none for an impossible cube, all for an empty one)."""
        if cube is None:
            return np.zeros(self.count, dtype=bool)
        return self.state.match([self.position[q] for q in cube], list(cube.values()))

    def clean(self, qubits: Iterable[Qubit]) -> np.ndarray:
        """Rows where every qubit of ``qubits`` is 0."""
        return self.holds(dict.fromkeys(qubits, 0))

    def value(self, register: Sequence[Qubit]) -> np.ndarray:
        """The integer held by ``register`` on every row (bit k = register[k])."""
        return self.state.read([self.position[q] for q in register])

    def xor(self, register: Sequence[Qubit], delta: np.ndarray) -> None:
        """``register ^= delta`` on every row."""
        where = np.asarray(delta) != 0
        if where.any():
            self.state.write(
                [self.position[q] for q in register], self.value(register) ^ np.asarray(delta)
            )

    def flip(self, qubit: Qubit, where=None) -> None:
        """X on ``qubit`` in the rows ``where`` (a bool mask or a slice; all rows if None)."""
        self.state.flip(self.position[qubit], where)


@contextmanager
def classical_domain(
    state: RowState, gate: Gate, qubits: Sequence[int], inside: np.ndarray
) -> Iterator[np.ndarray | None]:
    """Rows outside ``inside`` (bool mask) are run through ``gate``'s definition and set aside;
    the block applies the classical action to the rest, then the two are joined again.

    Yields None when every row is inside, else the mask, for narrowing arrays computed before
    (:func:`narrow`).
    """
    if inside.all():
        yield None
        return
    outside = state.split_off(~inside)
    outside.run_definition(gate, qubits)
    try:
        yield inside
    finally:
        state.absorb(outside)


def narrow(kept: np.ndarray | None, array: np.ndarray) -> np.ndarray:
    """``array`` (rows last) restricted to the rows :func:`classical_domain` kept."""
    return array if kept is None else array[..., kept]


@lru_cache(maxsize=1024)
def trick_suits(layout: GameLayout) -> tuple[str, ...]:
    """The effective suits of the layout's cards, in the order the card plays' compiled action
    numbers them (:mod:`.play`)."""
    rules = layout.spec.rules
    return tuple(sorted({rules.effective_suit(c) for c in layout.cards}))
