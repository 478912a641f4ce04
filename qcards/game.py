"""Build the whole game circuit of a spec (Eq. 17): U_ini, then the rounds R_1 ... R_T.

The circuit is built, never run. Each stage of the game (the deal, every card played, every
trick taken) is one instruction, so the circuit up to any stage -- the state of one of the
paper's histograms -- is a prefix of it.
"""

from __future__ import annotations

from dataclasses import dataclass

from qiskit.circuit import QuantumCircuit

from qcards.cards import Card
from qcards.classical import Stage, _check_first, stages
from qcards.encoding import GameLayout
from qcards.gates import CardPlayGate, DealGate, TrickTakingGate
from qcards.gates.codes import HandCodesGate
from qcards.spec import Endgame


@dataclass(frozen=True)
class GameCircuit:
    """A game circuit with its layout and stage markers.

    Attributes:
        spec: the endgame.
        first: the declarer's fixed first card, if any.
        layout: the named registers.
        circuit: the whole game (all stages).
        stages: the stages in order; ``prefix_lengths[i]`` instructions reach ``stages[i]``.
    """

    spec: Endgame
    first: Card | None
    layout: GameLayout
    circuit: QuantumCircuit
    stages: tuple[Stage, ...]
    prefix_lengths: tuple[int, ...]

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


def build_game(spec: Endgame, first: Card | None = None, paper_codes: bool = False) -> GameCircuit:
    """The game circuit of ``spec`` in qcards' layout (:class:`~qcards.encoding.GameLayout`).

    Args:
        spec: the endgame.
        first: fix the declarer's first card (the declarer must lead the first trick).
        paper_codes: also keep every card's state in the paper's own code (Table 4 for two
            players, Table 6 for three) in ``card_<c>`` registers, updated by every gate.

    Raises:
        SpecError: ``paper_codes`` for a spec with a Skat, which the paper's tables cannot code.
    """
    _check_first(spec, first)
    layout = GameLayout(spec, paper_codes)
    qc = layout.circuit("game")
    lengths = []
    owner_qubits = [q for c in spec.unknown if c in layout.owner for q in layout.owner[c]]
    if owner_qubits:
        sizes = tuple(spec.sizes[p] for p in layout.receivers)
        qc.append(DealGate(sizes, layout.owner_width), owner_qubits)
    if layout.code is not None:
        qc.append(HandCodesGate(layout), qc.qubits)
    all_stages = stages(spec)
    for stage in all_stages:
        if stage.kind == "play":
            qc.append(CardPlayGate(layout, stage.trick, stage.position, first), qc.qubits)
        elif stage.kind == "take":
            qc.append(TrickTakingGate(layout, stage.trick), qc.qubits)
        lengths.append(len(qc.data))
    return GameCircuit(spec, first, layout, qc, all_stages, tuple(lengths))
