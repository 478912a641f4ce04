"""Build the whole game circuit of a spec (Eq. 17): U_ini, then the rounds R_1 ... R_T.

The circuit is built, never run. Each stage of the game (the deal, every card played, every
trick taken) is one instruction, so the circuit up to any stage -- the state of one of the
paper's histograms -- is a prefix of it.
"""

from __future__ import annotations

from dataclasses import dataclass

from qiskit.circuit import QuantumCircuit

from qcards.circuits.construction import DEFAULT_CONSTRUCTION, Construction
from qcards.circuits.deal import deal_gate
from qcards.circuits.gates import (
    CardPlayGate,
    LegalPlayGate,
    TrickTakingGate,
    TrickWinnerGate,
)
from qcards.circuits.gates.codes import HandCodesGate
from qcards.circuits.hardware import build_hardware_stages
from qcards.circuits.layout import GameLayout, Workspace
from qcards.errors import ParameterError
from qcards.skat.cards import Card
from qcards.skat.spec import Endgame
from qcards.skat.stages import Stage, check_first, stages


@dataclass(frozen=True)
class GameCircuit:
    """A game circuit with its layout and stage markers.

    Attributes:
        spec: the endgame.
        first: the declarer's fixed first card, if any.
        layout: the named registers.
        circuit: the whole game (all stages).
        stages: the stages in order; ``prefix_lengths[i]`` instructions reach ``stages[i]``.
        construction: ``paper`` or ``efficient``.
    """

    spec: Endgame
    first: Card | None
    layout: GameLayout
    circuit: QuantumCircuit
    stages: tuple[Stage, ...]
    prefix_lengths: tuple[int, ...]
    construction: Construction = DEFAULT_CONSTRUCTION

    @property
    def num_qubits(self) -> int:
        return self.circuit.num_qubits

    def upto(self, stage: Stage) -> QuantumCircuit:
        """The circuit from the start up to and including ``stage``."""
        k = self.prefix_lengths[self.stages.index(stage)]
        out = self.layout.circuit(f"{self.circuit.name}_{stage.name.replace(' ', '_')}")
        for instruction in self.circuit.data[:k]:
            out.append(instruction)
        return out


def build_game(
    spec: Endgame,
    first: Card | None = None,
    paper_codes: bool = False,
    construction: Construction | str = DEFAULT_CONSTRUCTION,
) -> GameCircuit:
    """The game circuit of ``spec`` in qcards' layout (:class:`~qcards.circuits.layout.GameLayout`).

    Args:
        spec: the endgame.
        first: fix the declarer's first card (the declarer must lead the first trick).
        paper_codes: also keep every card's state in the paper's own code (Table 4 for two
            players, Table 6 for three) in ``card_<c>`` registers, updated by every gate
            (paper construction only).
        construction: a :class:`~qcards.circuits.construction.Construction` (or its name);
            both act the same on the measured registers.

    Raises:
        SpecError: ``paper_codes`` for a spec with a Skat, which the paper's tables cannot code.
        ParameterError: an unknown construction, or ``paper_codes`` with the efficient one.
    """
    construction = Construction.parse(construction)
    efficient = construction is Construction.EFFICIENT
    if paper_codes and construction is not Construction.PAPER:
        raise ParameterError(
            "paper_codes", "the paper's card codes are kept by the paper construction only"
        )
    check_first(spec, first)
    if construction is Construction.HARDWARE:
        return _build_hardware_game(spec, first)
    width = GameLayout.owner_width_for(spec)
    deal = None
    if width:  # otherwise every unknown card goes to the one receiver: nothing to prepare
        deal = deal_gate(spec, width, polynomial=efficient)
    workspace = None
    if efficient:
        workspace = Workspace(spec, deal.num_ancillas if deal else 0)
    layout = GameLayout(spec, paper_codes, workspace)
    qc = layout.circuit("game")
    lengths = []
    if deal is not None:
        owner_qubits = [q for c in spec.unknown for q in layout.owner[c]]
        ancillas = list(workspace.held[: deal.num_ancillas]) if efficient else []
        qc.append(deal, [*owner_qubits, *ancillas])
    if layout.code is not None:
        qc.append(HandCodesGate(layout), qc.qubits)
    play_gate = LegalPlayGate if efficient else CardPlayGate
    take_gate = TrickWinnerGate if efficient else TrickTakingGate
    all_stages = stages(spec)
    for stage in all_stages:
        if stage.kind == "play":
            qc.append(play_gate(layout, stage.trick, stage.position, first), qc.qubits)
        elif stage.kind == "trick":
            qc.append(take_gate(layout, stage.trick), qc.qubits)
        lengths.append(len(qc.data))
    return GameCircuit(spec, first, layout, qc, all_stages, tuple(lengths), construction)


def _build_hardware_game(spec: Endgame, first: Card | None) -> GameCircuit:
    layout = GameLayout(spec)
    all_stages = stages(spec)
    deal, gates = build_hardware_stages(spec, layout, first, all_stages)
    qc = layout.circuit("game")
    if deal is not None:
        qc.append(deal, qc.qubits)
    lengths = [len(qc.data)]  # the deal stage
    for gate in gates:
        qc.append(gate, qc.qubits)
        lengths.append(len(qc.data))
    return GameCircuit(spec, first, layout, qc, all_stages, tuple(lengths), Construction.HARDWARE)
