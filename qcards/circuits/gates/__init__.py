"""Gate families of the game circuits, one module each.

``states``: uniform one-hot superposition (Eq. 9) and the paper's deal preparation U_ini (Eq. 1);
``dicke``: the polynomial deal preparation (Dicke states and their multinomial generalisation);
``weighted_deal``: the polynomial preparation of a weighted deal (per-card weights, tallies);
``play``: the card-play gate CP_k^n with suit following (Eqs. 9-13), paper and polynomial;
``trick``: the trick-taking gate TT (Eqs. 14-15), paper and polynomial;
``predicates``: facts about a trick computed into ancillas, for the polynomial gates;
``codes``: the paper's card codes kept in registers; ``cubes``: multi-controlled X over cubes.

A round R_t = TT . U^C . U^B . U^A (Eq. 16) is not a gate of its own:
:func:`~qcards.circuits.game.build_game`
appends its factors one stage at a time, so that every stage is a prefix of the circuit.
"""

from qcards.circuits.gates.dicke import DickeGate, MultinomialDealGate, SubsetDickeGate
from qcards.circuits.gates.play import CardPlayGate, LegalPlayGate
from qcards.circuits.gates.states import DealGate, Tally, WStateGate
from qcards.circuits.gates.trick import TrickTakingGate, TrickWinnerGate
from qcards.circuits.gates.weighted_deal import WeightedDealGate

__all__ = [
    "CardPlayGate",
    "DealGate",
    "DickeGate",
    "LegalPlayGate",
    "MultinomialDealGate",
    "SubsetDickeGate",
    "Tally",
    "TrickTakingGate",
    "TrickWinnerGate",
    "WStateGate",
    "WeightedDealGate",
]
