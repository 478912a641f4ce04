"""qcards: imperfect-information card games evaluated with quantum circuits.

Layers (imports flow left to right only): cards/spec/classical (pure Python, exact
referee) -> encoding/gates/game (circuits, never run) -> backends/plotting/paper -> cli.
"""

from qcards.errors import ModelError, QcardsError, ResourceError, SpecError
from qcards.skat.cards import Card, Rules, Trump
from qcards.skat.spec import Endgame, load_spec, parse_spec

__all__ = [
    "Card",
    "Endgame",
    "ModelError",
    "QcardsError",
    "ResourceError",
    "Rules",
    "SpecError",
    "Trump",
    "load_spec",
    "parse_spec",
]
__version__ = "0.1.0"
