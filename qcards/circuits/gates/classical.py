"""Classical actions of the game gates: what each gate does to basis states, on many at once.

Most game gates permute basis states (trick taking, the win oracle, the code bookkeeping); the
card play and the deal branch into a known uniform superposition. An exact engine that knows
this can apply a gate in a handful of vectorized steps instead of its decomposition (as
Qualtran's bloqs do with ``on_classical_vals``). A gate offers its action as a method
``sparse_apply(state, qubits)``, which :mod:`qcards.execution.sparse` calls instead of
simulating the definition.

The ``state`` is used through a small interface (duck-typed, so this layer does not import the
engine): ``match(qubits, values)`` (rows where the qubits hold the values), ``read``/``write``
(integers held by some qubits), ``flip(qubit, where)``, ``expand(parents, scale)`` (row
splitting), ``split_off``/``absorb`` and ``run_definition``.

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

from qcards.circuits.gates.predicates import held_cubes, led_cubes
from qcards.circuits.layout import GameLayout
from qcards.skat.cards import Card


class Rows:
    """The registers of a game layout, read on every row of a sparse state at once.

    Args:
        state: the engine's state.
        layout: the layout the gate acts on.
        qubits: the state's qubit for each of ``layout.qubits`` (the gate's qubit order).
    """

    def __init__(self, state, layout: GameLayout, qubits: Sequence[int]) -> None:
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

    def parity(self, cubes: Iterable[Mapping[Qubit, int] | None]) -> np.ndarray:
        """XOR over ``cubes`` of "the cube holds": what a chain of ``cube_x`` onto one clean
        target leaves in it."""
        out = np.zeros(self.count, dtype=bool)
        for cube in cubes:
            out ^= self.holds(cube)
        return out


@contextmanager
def classical_domain(
    state, gate: Gate, qubits: Sequence[int], inside: np.ndarray
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


def held_matrix(
    rows: Rows, layout: GameLayout, trick: int, position: int, cards: Sequence[Card]
) -> np.ndarray:
    """``held[i]`` of the polynomial construction (:func:`~.predicates.mark_held`) on every
    row: shape ``(len(cards), rows)``."""
    pairs = held_cubes(layout, trick, position, cards)
    if not cards:
        return np.zeros((0, rows.count), dtype=bool)
    return np.stack([rows.parity(cube for _leader, cube in p) for p in pairs])


@lru_cache(maxsize=1024)
def trick_suits(layout: GameLayout) -> tuple[str, ...]:
    """The effective suits of the layout's cards, in the order :func:`led_cards` numbers them."""
    rules = layout.spec.rules
    return tuple(sorted({rules.effective_suit(c) for c in layout.cards}))


def led_cards(rows: Rows, layout: GameLayout, trick: int) -> tuple[np.ndarray, np.ndarray]:
    """``(count, suit)`` on every row: how many cards were led to ``trick`` (1 on a game state
    after the lead) and the effective suit of the (last) one, as an index into
    :func:`trick_suits` (-1 where none was)."""
    rules = layout.spec.rules
    suits = trick_suits(layout)
    count = np.zeros(rows.count, dtype=np.int64)
    suit = np.full(rows.count, -1, dtype=np.int64)
    for _leader, card, cube in led_cubes(layout, trick):
        on = rows.holds(cube)
        count += on
        suit[on] = suits.index(rules.effective_suit(card))
    return count, suit


def legal_matrix(
    layout: GameLayout, cards: Sequence[Card], held: np.ndarray, led_suit: np.ndarray
) -> np.ndarray:
    """The legal cards of every row, shape ``(cards, rows)``: :meth:`Rules.legal_cards
    <qcards.skat.cards.Rules.legal_cards>` on all rows at once -- the held cards of the led
    suit (an index from :func:`led_cards`) where the player holds one, else every held card."""
    rules = layout.spec.rules
    suits = trick_suits(layout)
    if not len(cards):
        return held
    follows = np.stack(
        [held[i] & (led_suit == suits.index(rules.effective_suit(c))) for i, c in enumerate(cards)]
    )
    return np.where(follows.any(axis=0), follows, held)


def choose_uniformly(rows: Rows, legal: np.ndarray, flips: Sequence[Sequence[Qubit]]) -> None:
    """The uniform one-hot superposition of Eq. (9) on every row at once.

    ``legal`` has shape ``(cards, rows)``; a row with m > 0 legal cards is replaced by m rows,
    one per legal card c with the qubits ``flips[c]`` flipped, each with amplitude
    :math:`1/\\sqrt{m}` times the row's; rows with no legal card are kept as they are.
    """
    # the temporaries of the old rows' size are freed before the state grows, and only the
    # parents and their scale (8 + 8 bytes a new row) live beside the old and the new state
    # (the sparse engine's estimate_bytes counts on it)
    m = legal.sum(axis=0)
    blocks = [np.flatnonzero(m == 0)]
    blocks += [np.flatnonzero(row) for row in legal]
    sizes = [block.size for block in blocks]
    parents = np.concatenate(blocks)
    del blocks
    inverse = np.ones(m.size)
    np.divide(1.0, np.sqrt(m), out=inverse, where=m > 0)
    del m
    scale = inverse[parents]
    del inverse
    rows.state.expand(parents, scale)
    del parents, scale
    start = sizes[0]
    for size, qubits in zip(sizes[1:], flips, strict=True):
        end = start + size
        if end > start:
            for q in qubits:
                rows.flip(q, slice(start, end))
        start = end
