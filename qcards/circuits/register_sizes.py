"""The sizes of a game circuit's registers, known without building them (no Qiskit).

:class:`~qcards.circuits.layout.GameLayout` and its
:class:`~qcards.circuits.layout.Workspace` create their registers from these tables, so the
width a construction record reports (:meth:`qcards.circuits.construction.Construction.num_qubits`)
is the width of the circuit it would build, and a command that only reports the width (the
classical ``evaluate``) never imports Qiskit. The registers are those of the layout's module
docstring, in the same order.
"""

from __future__ import annotations

import math

from qcards.circuits.card_codes import paper_code
from qcards.skat.position.spec import Endgame


def bits_for(count: int) -> int:
    """Qubits that index ``count`` values (0 for one value or none)."""
    return max(1, math.ceil(math.log2(count))) if count > 1 else 0


def owner_width(spec: Endgame) -> int:
    """Qubits per owner register: enough to index the receivers of unknown cards."""
    return bits_for(len(spec.receivers))


def winner_width(spec: Endgame) -> int:
    """Qubits per winner register: enough to index the players' seats."""
    return bits_for(len(spec.players))


def deal_sizes(spec: Endgame) -> tuple[int, ...]:
    """Cards each receiver gets, in :attr:`~qcards.skat.position.spec.Endgame.receivers` order."""
    return tuple(spec.sizes[r] for r in spec.receivers)


def history_registers(spec: Endgame, paper_codes: bool = False) -> dict[str, int]:
    """Name -> size of the game's history registers (the paper's card codes first, when
    kept; then ``owner_<card>``, ``play_<card>``, ``winner_<t>``) and ``flag``.

    Raises:
        SpecError: ``paper_codes`` for a spec the paper's codes do not cover.
    """
    sizes: dict[str, int] = {}
    if paper_codes:
        width = paper_code(spec).width
        sizes.update((f"card_{c}", width) for c in spec.cards)
    owner = owner_width(spec)
    if owner:
        sizes.update((f"owner_{c}", owner) for c in spec.unknown)
    sizes.update((f"play_{c}", spec.num_tricks) for c in spec.cards)
    winner = winner_width(spec)
    sizes.update((f"winner_{t}", winner) for t in range(1, spec.num_tricks + 1))
    sizes["flag"] = 1
    return sizes


def effective_suits(spec: Endgame) -> tuple[str, ...]:
    """The effective suits of the spec's cards, in the order of their first card."""
    return tuple(dict.fromkeys(spec.rules.effective_suit(c) for c in spec.cards))


def workspace_registers(spec: Endgame, deal_ancillas: int = 0) -> dict[str, int]:
    """Name -> size of the polynomial construction's clean ancillas (``held``, also the deal's
    ``deal_ancillas``; ``led``, one per effective suit; ``count``; ``scratch``)."""
    return {
        "held": max(len(spec.cards), deal_ancillas),
        "led": len(effective_suits(spec)),
        "count": max(1, spec.hand_size.bit_length()),
        "scratch": 3,
    }
