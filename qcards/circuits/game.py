"""Build the whole game circuit of a spec (Eq. 17): U_ini, then the rounds R_1 ... R_T.

The circuit is built, never run. Each stage of the game (the deal, every card played, every
trick taken) is one instruction, so the circuit up to any stage -- the state of one of the
paper's histograms -- is a prefix of it.
"""

from __future__ import annotations

from dataclasses import dataclass

from qiskit.circuit import QuantumCircuit

from qcards.circuits.construction import DEFAULT_CONSTRUCTION, Construction, get_construction
from qcards.circuits.gates.card_code_updates import HandCodesGate
from qcards.circuits.gates.deal import GameDealGate
from qcards.circuits.gates.play import CardPlayGate
from qcards.circuits.gates.trick import TrickTakingGate
from qcards.circuits.layout import GameLayout
from qcards.circuits.syntheses.hardware import WeightedPlays
from qcards.errors import ModelError, ParameterError
from qcards.skat.players.play_models import PlayModel, get_model
from qcards.skat.position.spec import Endgame
from qcards.skat.position.stages import Stage, check_first, stages
from qcards.skat.rules.cards import Card


@dataclass(frozen=True)
class GameCircuit:
    """A game circuit with its layout and stage markers.

    Attributes:
        spec: the endgame.
        first: the declarer's fixed first card, if any.
        layout: the named registers.
        circuit: the whole game (all stages).
        stages: the stages in order; ``prefix_lengths[i]`` instructions reach ``stages[i]``.
        construction: the :class:`~qcards.circuits.construction.Construction` whose
            syntheses define the gates.
        model: the play model the card plays prepare (``random``: Eq. 9's uniform choice).
    """

    spec: Endgame
    first: Card | None
    layout: GameLayout
    circuit: QuantumCircuit
    stages: tuple[Stage, ...]
    prefix_lengths: tuple[int, ...]
    construction: Construction
    model: str = "random"

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
    model: PlayModel | str = "random",
) -> GameCircuit:
    """The game circuit of ``spec`` in its construction's layout
    (:class:`~qcards.circuits.layout.GameLayout`): the deal, then one gate per card played and
    per trick taken, each defined by the construction's synthesis.

    Args:
        spec: the endgame.
        first: fix the declarer's first card (the declarer must lead the first trick).
        paper_codes: also keep every card's state in the paper's own code (Table 4 for two
            players, Table 6 for three) in ``card_<c>`` registers, updated by every gate
            (constructions that keep them: ``paper``).
        construction: a registered :class:`~qcards.circuits.construction.Construction` or its
            name; every construction acts the same on game states.
        model: the play model whose policy weights every card play (Sec. X.1's parameterised
            CP gates, :mod:`qcards.circuits.gates.policy_play`); ``random`` is the paper's
            uniform choice. A weighted card play is defined by the care-set synthesis
            (:class:`~qcards.circuits.syntheses.hardware.WeightedPlays`) in every
            construction, built when a definition is first asked for.

    Raises:
        ModelError: a model without a policy (``adversarial``, ``best-response``).
        SpecError: ``paper_codes`` for a spec with a Skat, which the paper's tables cannot code.
        ParameterError: an unknown construction, ``paper_codes`` with one that cannot keep
            them, or an endgame too large for the construction.
    """
    construction = get_construction(construction)
    if paper_codes and not construction.keeps_paper_codes:
        raise ParameterError(
            "paper_codes",
            f"the {construction} construction does not keep the paper's card codes",
        )
    check_first(spec, first)
    play_model = get_model(model)
    policy = None if play_model.name == "random" else play_model.policy
    if policy is None and play_model.name != "random":
        raise ModelError(
            f"the {play_model.name} model has no policy for the card-play gates to weigh by "
            "(it looks ahead): the circuits prepare random play or a policy model "
            "(heuristic, softmax, ...)"
        )
    layout = construction.layout(spec, paper_codes)
    weighted = None if policy is None else WeightedPlays(layout, first, policy)
    plan = construction.plan(layout, first) if construction.plan is not None else None
    qc = layout.circuit("game")
    lengths = []
    if layout.owner_width:  # otherwise every unknown card goes to its one receiver
        qc.append(GameDealGate(layout, construction, plan), qc.qubits)
    if layout.code is not None:
        qc.append(HandCodesGate(layout), qc.qubits)
    all_stages = stages(spec)
    for stage in all_stages:
        if stage.kind == "play":
            gate = CardPlayGate(
                layout, stage.trick, stage.position, first, construction, plan,
                policy, play_model.name, weighted,
            )  # fmt: skip
            qc.append(gate, qc.qubits)
        elif stage.kind == "trick":
            qc.append(TrickTakingGate(layout, stage.trick, construction, plan), qc.qubits)
        lengths.append(len(qc.data))
    return GameCircuit(
        spec, first, layout, qc, all_stages, tuple(lengths), construction, play_model.name
    )
