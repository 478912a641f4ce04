"""The deal U_ini (Eq. 1) as one gate of the game layout, whatever the construction.

:class:`GameDealGate` deals the spec's unknown cards into the owner registers: uniformly (the
paper's deal, Eq. 1) or weighted by the spec's prior (:mod:`qcards.skat.position.prior`; forbidden
cards get weight 0, so constraints are dealt exactly, never post-selected). Its classical
action is the same for every construction (:func:`~qcards.circuits.gates.states.deal_action`:
one row per deal, amplitude :math:`\\sqrt{P(d)}`); its definition is the construction's deal
synthesis -- a state-preparation gate such as
:class:`~qcards.circuits.gates.states.DealGate` (the exponential reference),
:class:`~qcards.circuits.gates.dicke.MultinomialDealGate` or
:class:`~qcards.circuits.gates.weighted_deal.WeightedDealGate` (polynomial) -- placed on the
owner registers and, when it needs them, the workspace's ``held`` ancillas.
"""

from __future__ import annotations

from functools import cached_property
from typing import TYPE_CHECKING, Any, cast

from qiskit.circuit import Gate, Qubit

from qcards.circuits.gates.row_state import RowState
from qcards.circuits.gates.states import DealGate, Tally, deal_action, deal_sample_action
from qcards.circuits.gates.synthesis import GateSyntheses, syntheses_of
from qcards.circuits.layout import GameLayout, Workspace
from qcards.circuits.register_sizes import deal_sizes
from qcards.skat.position.spec import Endgame

if TYPE_CHECKING:
    import numpy as np


def prior_tables(spec: Endgame) -> tuple[list[list], tuple[Tally, ...]]:
    """The spec's prior as the deal gates' ``weights`` (unknown card x receiver) and
    :class:`Tally` factors."""
    weights, tallies = spec.prior.tables(spec)
    return weights, tuple(Tally(r, cards, factors) for r, cards, factors in tallies)


def reference_deal(spec: Endgame, width: int) -> DealGate:
    """The exponential reference deal of ``spec`` on its owner registers (``width`` qubits per
    unknown card): the state every construction's deal prepares."""
    sizes = deal_sizes(spec)
    if spec.prior.is_uniform:
        return DealGate(sizes, width)
    weights, tallies = prior_tables(spec)
    return DealGate(sizes, width, weights=weights, tallies=tallies)


class GameDealGate(Gate):
    """U_ini on a game layout: the deal of the unknown cards (Eq. 1, or weighted by the prior).

    Args:
        layout: the registers of the game circuit (owner registers, and a workspace when the
            construction's deal needs ancillas).
        construction: whose deal synthesis defines the gate.
        plan: what the construction prepared for this game (:attr:`Construction.plan`).
    """

    def __init__(self, layout: GameLayout, construction: GateSyntheses, plan: Any = None) -> None:
        self.layout = layout
        self.construction = syntheses_of(construction, "GameDealGate")
        self.plan = plan
        if not layout.owner_width:
            raise ValueError("this spec deals nothing: every unknown card has one receiver")
        super().__init__(f"u_ini{self.construction.tag}", layout.num_qubits, [])

    @cached_property
    def reference(self) -> DealGate:
        """The reference deal (what is prepared, card by card): sizes, weights, tallies."""
        return reference_deal(self.layout.spec, self.layout.owner_width)

    @property
    def sizes(self) -> tuple[int, ...]:
        return self.reference.sizes

    @property
    def width(self) -> int:
        return self.reference.width

    @property
    def weights(self):
        return self.reference.weights

    @property
    def tallies(self) -> tuple[Tally, ...]:
        return self.reference.tallies

    def deal_table(self) -> tuple[np.ndarray, np.ndarray]:
        """The deals with P(d) > 0 and their amplitudes (every construction prepares these)."""
        return self.reference.deal_table()

    @property
    def owner_qubits(self) -> list[Qubit]:
        """The owner registers, card after card in the spec's unknown order."""
        return [q for c in self.layout.spec.unknown for q in self.layout.owner[c]]

    def _define(self) -> None:
        layout = self.layout
        prepare = self.construction.deal(self)
        owner = self.owner_qubits
        extra = prepare.num_qubits - len(owner)
        if extra and (layout.work is None or extra > len(layout.work.held)):
            raise ValueError(
                f"the {self.construction.name} deal needs {extra} ancillas the layout lacks"
            )
        qc = layout.circuit(self.name)
        held = cast(Workspace, layout.work).held[:extra] if extra else []  # checked above
        qc.append(prepare, [*owner, *held])
        self.definition = qc

    def _owner_positions(self, qubits: tuple[int, ...]) -> list[int]:
        index = {q: i for i, q in enumerate(self.layout.qubits)}
        return [qubits[index[q]] for q in self.owner_qubits]

    def sparse_apply(self, state: RowState, qubits: tuple[int, ...]) -> None:
        """The classical action: see :func:`~qcards.circuits.gates.states.deal_action`."""
        deal_action(self, state, qubits, self._owner_positions(qubits))

    def sparse_sample(self, state: RowState, qubits: tuple[int, ...], rng) -> None:
        """One shot's branch per row: see
        :func:`~qcards.circuits.gates.states.deal_sample_action`."""
        deal_sample_action(self, state, qubits, rng, self._owner_positions(qubits))
