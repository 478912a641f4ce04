"""Gate families of the game circuits, one module each.

``states``: uniform one-hot superposition (Eq. 9) and the paper's deal preparation U_ini (Eq. 1);
``dicke``: the polynomial deal preparation (Dicke states and their multinomial generalisation);
``play``: the card-play gate CP_k^n with suit following (Eqs. 9-13), paper and polynomial;
``trick``: the trick-taking gate TT (Eqs. 14-15), paper and polynomial;
``predicates``: facts about a trick computed into ancillas, for the polynomial gates;
``round``: one round R_t = TT . U^C . U^B . U^A (Eq. 16).
"""

from qcards.gates.dicke import DickeGate, MultinomialDealGate, SubsetDickeGate
from qcards.gates.play import CardPlayGate, LegalPlayGate
from qcards.gates.round import RoundGate
from qcards.gates.states import DealGate, WStateGate
from qcards.gates.trick import TrickTakingGate, TrickWinnerGate

__all__ = [
    "CardPlayGate",
    "DealGate",
    "DickeGate",
    "LegalPlayGate",
    "MultinomialDealGate",
    "RoundGate",
    "SubsetDickeGate",
    "TrickTakingGate",
    "TrickWinnerGate",
    "WStateGate",
]
