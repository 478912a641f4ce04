"""One round of the game, Eq. (16): R_t = TT_t . U^{(n-1)} ... U^{(1)} . U^{(0)}."""

from __future__ import annotations

from qiskit.circuit import Gate, QuantumCircuit

from qcards.cards import Card
from qcards.encoding import GameLayout
from qcards.gates.play import CardPlayGate
from qcards.gates.trick import TrickTakingGate


class RoundGate(Gate):
    """Trick ``trick`` from the lead to the taking: every seat plays (CP), then TT (Eq. 16).

    The paper writes the round with the players in fixed order (A, B, C); with a dynamic leader
    the factors are per *position* in the trick, each conditioned on who leads.

    Args:
        layout: registers of the game circuit.
        trick: 1-based trick number.
        first: force the declarer's first card (only used in trick 1).
    """

    def __init__(self, layout: GameLayout, trick: int, first: Card | None = None) -> None:
        layout.check_trick(trick)
        self.layout = layout
        self.trick = trick
        self.first = first
        super().__init__(f"round_{trick}", layout.num_qubits, [])

    def _define(self) -> None:
        self.definition = _synth_round(self)


def _synth_round(gate: RoundGate) -> QuantumCircuit:
    layout = gate.layout
    qc = layout.circuit(gate.name)
    for position in range(len(layout.spec.players)):
        qc.append(CardPlayGate(layout, gate.trick, position, gate.first), qc.qubits)
    qc.append(TrickTakingGate(layout, gate.trick), qc.qubits)
    return qc
