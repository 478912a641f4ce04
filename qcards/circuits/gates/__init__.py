"""Gate families of the game circuits, one module each.

``states``: uniform one-hot superposition (Eq. 9) and the paper's deal preparation U_ini (Eq. 1);
``dicke``: the polynomial deal preparation (Dicke states and their multinomial generalisation);
``weighted_deal``: the polynomial preparation of a weighted deal (per-card weights, tallies);
``deal``, ``play``, ``trick``: the game's gates, one per concept -- the deal U_ini (Eq. 1),
the card play CP_k^n with suit following (Eqs. 9-13), the trick taking TT (Eqs. 14-15) -- each
with one classical action and its definition from the construction's synthesis
(:mod:`qcards.circuits.syntheses`);
``classical``: helpers of the classical actions; ``predicates``: facts about a trick computed
into ancillas, for the polynomial syntheses; ``arithmetic``: controlled counters;
``codes``: the paper's card codes kept in registers; ``cubes``: multi-controlled X over cubes.

A round R_t = TT . U^C . U^B . U^A (Eq. 16) is not a gate of its own:
:func:`~qcards.circuits.game.build_game`
appends its factors one stage at a time, so that every stage is a prefix of the circuit.
"""

from qcards.circuits.gates.deal import GameDealGate
from qcards.circuits.gates.dicke import DickeGate, MultinomialDealGate, SubsetDickeGate
from qcards.circuits.gates.play import CardPlayGate
from qcards.circuits.gates.states import DealGate, Tally, WStateGate
from qcards.circuits.gates.trick import TrickTakingGate
from qcards.circuits.gates.weighted_deal import WeightedDealGate

__all__ = [
    "CardPlayGate",
    "DealGate",
    "DickeGate",
    "GameDealGate",
    "MultinomialDealGate",
    "SubsetDickeGate",
    "Tally",
    "TrickTakingGate",
    "WStateGate",
    "WeightedDealGate",
]
