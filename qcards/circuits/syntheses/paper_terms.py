"""The term structure of the paper's card play and trick taking (Eqs. 12 and 15): one term per
configuration of the game, each conditioned on a cube. The paper construction synthesises the
terms (:mod:`qcards.circuits.syntheses.paper`); :mod:`~qcards.circuits.syntheses.paper_counts`
counts them.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

from qiskit.circuit import Qubit

from qcards.circuits.gates.play import CardPlayGate
from qcards.circuits.gates.trick import TrickTakingGate
from qcards.circuits.layout import merge_conditions
from qcards.skat.rules.cards import Card


@dataclass(frozen=True)
class PlayTerm:
    """One factor of Eq. (12): on the configuration ``cube``, play one of ``legal`` uniformly."""

    cube: dict[Qubit, int]
    player: str
    hand: tuple[Card, ...]
    led: Card | None
    legal: tuple[Card, ...]


def play_terms(gate: CardPlayGate) -> list[PlayTerm]:
    """The configurations of Eq. (12) with their legal cards (impossible ones dropped).

    A configuration fixes who leads the trick (``winner_{trick-1}``, when the winner leads),
    the exact hand :math:`\\vec\\alpha` of the player to move (k cards dealt to it and not
    played before this trick), and, after the lead, the card that was led.
    """
    layout, t = gate.layout, gate.trick
    spec = layout.spec
    k = spec.hand_size - (t - 1)
    out = []
    for leader in layout.possible_leaders(t):
        player = gate.seat(leader)
        lead_cond = layout.leader_condition(t, leader)
        for hand in itertools.combinations(spec.candidates(player), k):
            hand_cond = merge_conditions(
                lead_cond,
                *(layout.owner_condition(c, player) for c in hand),
                *({layout.play[c][s]: 0 for s in range(t - 1)} for c in hand),
            )
            if hand_cond is None:
                continue
            led_options: list[Card | None] = [None]
            if gate.position > 0:
                led_options = [c for c in spec.candidates(leader) if c not in hand]
            for led in led_options:
                cube = hand_cond
                if led is not None:
                    merged = merge_conditions(
                        hand_cond, layout.owner_condition(led, leader), {layout.play[led][t - 1]: 1}
                    )
                    if merged is None:
                        continue
                    cube = merged
                forced = gate.forced_card
                legal = (forced,) if forced is not None else spec.rules.legal_cards(hand, led)
                out.append(PlayTerm(cube, player, hand, led, legal))
    return out


@dataclass(frozen=True)
class TrickTerm:
    """One factor of Eq. (15): on ``cube`` the cards ``cards`` (in play order) lie on the table."""

    cube: dict[Qubit, int]
    leader: str
    cards: tuple[Card, ...]
    seats: tuple[str, ...]


def trick_terms(gate: TrickTakingGate) -> list[TrickTerm]:
    """The tables of Eq. (15): who led, and which card each seat put on the table (play bit
    ``trick`` set, dealt to that seat); impossible ones dropped."""
    layout, t = gate.layout, gate.trick
    spec = layout.spec
    out = []
    for leader in layout.possible_leaders(t):
        seats = gate.seats(leader)
        for cards in itertools.product(*(spec.candidates(p) for p in seats)):
            if len(set(cards)) < len(seats):
                continue
            cube = merge_conditions(
                layout.leader_condition(t, leader),
                *(layout.owner_condition(c, p) for c, p in zip(cards, seats, strict=True)),
                *({layout.play[c][t - 1]: 1} for c in cards),
            )
            if cube is not None:
                out.append(TrickTerm(cube, leader, cards, tuple(seats)))
    return out
