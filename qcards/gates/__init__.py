"""Gate families of the game circuits, one module each.

``states``: uniform one-hot superposition (Eq. 9) and the deal preparation U_ini (Eq. 1);
``play``: the card-play gate CP_k^n with suit following (Eqs. 9-13);
``trick``: the trick-taking gate TT (Eqs. 14-15);
``round``: one round R_t = TT . U^C . U^B . U^A (Eq. 16).
"""

from qcards.gates.play import CardPlayGate
from qcards.gates.round import RoundGate
from qcards.gates.states import DealGate, WStateGate
from qcards.gates.trick import TrickTakingGate

__all__ = ["CardPlayGate", "DealGate", "RoundGate", "TrickTakingGate", "WStateGate"]
