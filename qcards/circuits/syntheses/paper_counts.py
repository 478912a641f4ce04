"""The paper construction's gate counts by formula, where its circuits are too large to build.

The paper's construction grows exponentially (the deal is a dense state preparation on all
owner qubits, card play a product over all hands, Eq. 12), so beyond the paper's sizes it is
counted from its exact term structure (:func:`paper_play_terms`) and calibrated per-term gate
costs, validated against built circuits at small N (``tests/test_resources.py``).

Counts are for the unrouted circuit lowered to {cx, u} (:mod:`qcards.circuits.lowering`).
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache

from qiskit import QuantumCircuit
from qiskit.circuit.library import MCXGate

from qcards.circuits.gates.states import WStateGate
from qcards.circuits.gates.trick import TrickTakingGate
from qcards.circuits.layout import GameLayout
from qcards.circuits.lowering import depth, lower
from qcards.circuits.register_sizes import owner_width
from qcards.circuits.syntheses.paper_terms import trick_terms
from qcards.circuits.syntheses.records import PAPER
from qcards.skat.position.spec import Endgame
from qcards.skat.rules.cards import Card
from qcards.skat.rules.turns import player_to_move


@dataclass(frozen=True)
class Count:
    """CX count and depth of one part of the circuit; ``source`` is ``built`` or ``formula``."""

    cx: int
    depth: int
    source: str

    def to_json(self) -> dict:
        return {"cx": self.cx, "depth": self.depth, "source": self.source}


@cache
def _calibrated(kind: str, size: int) -> tuple[int, int]:
    """(CX, depth) of one building block, lowered inside a wide circuit like the game's.

    ``mcx``: a multi-controlled X with ``size`` controls (Qiskit then uses idle qubits as dirty
    ancillas: 6 size - 6 CX); ``cw``: the controlled uniform one-hot state on ``size`` qubits.
    """
    spare = size + 4
    qc = QuantumCircuit(size + 1 + spare)
    if kind == "mcx":
        qc.append(MCXGate(size), range(size + 1))
    else:
        qc.append(WStateGate(size).control(1), range(size + 1))
    lowered = lower(qc)
    return lowered.count_ops().get("cx", 0), depth(lowered)


def _cube_cost(size: int) -> tuple[int, int]:
    """Computing (or uncomputing) a cube of ``size`` conditions into the flag."""
    return _calibrated("mcx", size) if size else (0, 0)


def paper_deal_count(spec: Endgame) -> Count:
    """U_ini as Qiskit's dense state preparation on q owner qubits: 2^q - q - 1 CX."""
    q = len(spec.unknown) * owner_width(spec)
    if q == 0:
        return Count(0, 0, "formula")
    cx = 2**q - q - 1
    return Count(cx, 2 * cx + 1, "formula")


def paper_play_terms(spec: Endgame, trick: int, position: int) -> Iterator[tuple[int, int, int]]:
    """The terms of CP (Eq. 12) counted by hand composition: (cube size, legal cards, count).

    A term is a hand of the player to move (k cards among its candidates) and, after the lead,
    a led card. Its cube conditions the leader, each hand card's owner register and earlier play
    bits, and the led card's owner and play bit; its W state spans the legal cards. Hands with
    the same number of cards in each (known/unknown, suit) group give the same term, so they
    are counted with binomials instead of listed.
    """
    layout = GameLayout(spec)
    rules = spec.rules
    w = layout.owner_width
    k = spec.hand_size - trick + 1
    lead_bits = 0 if trick == 1 or not spec.winner_leads else layout.winner_width

    def group(card: Card) -> tuple[bool, str]:
        return (spec.owner_of_known(card) is None, rules.effective_suit(card))

    for leader in layout.possible_leaders(trick):
        player = player_to_move(spec, leader, position)
        groups = Counter(group(c) for c in spec.candidates(player))
        keys = sorted(groups)
        led_groups = Counter(group(c) for c in spec.candidates(leader)) if position else None
        for counts in _compositions([groups[g] for g in keys], k):
            hands = math.prod(math.comb(groups[g], h) for g, h in zip(keys, counts, strict=True))
            held = dict(zip(keys, counts, strict=True))
            cube = lead_bits + sum(
                h * ((w if unknown else 0) + trick - 1) for (unknown, _), h in held.items()
            )
            if not position:
                yield cube, k, hands
                continue
            assert led_groups is not None  # counted whenever position > 0
            for (unknown, suit), available in led_groups.items():
                free = available - (held.get((unknown, suit), 0) if unknown else 0)
                if free <= 0:
                    continue
                following = sum(h for (_, s), h in held.items() if s == suit)
                led_bits = (w if unknown else 0) + 1
                yield cube + led_bits, following or k, hands * free


def _compositions(limits: list[int], total: int) -> Iterator[tuple[int, ...]]:
    if not limits:
        if total == 0:
            yield ()
        return
    for first in range(min(limits[0], total) + 1):
        for rest in _compositions(limits[1:], total - first):
            yield (first, *rest)


def paper_play_count(spec: Endgame) -> Count:
    """Every CP gate of the paper construction, from :func:`paper_play_terms`."""
    cx = depth = 0
    for trick in range(1, spec.num_tricks + 1):
        for position in range(len(spec.players)):
            for cube, legal, count in paper_play_terms(spec, trick, position):
                mcx = _cube_cost(cube)
                w_cx, w_depth = _calibrated("cw", legal) if cube else (3 * (legal - 1), legal)
                cx += count * (2 * mcx[0] + w_cx)
                depth += count * (2 * mcx[1] + w_depth)
    return Count(cx, depth, "formula")


def paper_trick_count(spec: Endgame) -> Count:
    """Every TT gate of the paper construction, from its terms (Eq. 15; polynomially many)."""
    layout = GameLayout(spec)
    rules = spec.rules
    cx = depth = 0
    for trick in range(1, spec.num_tricks + 1):
        for term in trick_terms(TrickTakingGate(layout, trick, PAPER)):
            seat = spec.players.index(term.seats[rules.trick_winner(term.cards)])
            flips = seat.bit_count()
            size = len(term.cube)
            if flips == 1:
                c, d = _cube_cost(size)
            elif flips > 1:
                c, d = _cube_cost(size)
                c, d = 2 * c + flips, 2 * d + 1
            else:
                c = d = 0
            cx += c
            depth += d
    return Count(cx, depth, "formula")


def paper_formula(spec: Endgame) -> tuple[int, dict[str, Count]]:
    stages = {
        "deal": paper_deal_count(spec),
        "play": paper_play_count(spec),
        "trick": paper_trick_count(spec),
    }
    stages["game"] = Count(
        sum(c.cx for c in stages.values()), sum(c.depth for c in stages.values()), "formula"
    )
    return GameLayout(spec).num_qubits, stages
