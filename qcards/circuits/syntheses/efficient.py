"""The efficient construction: polynomial syntheses of every game gate, with clean ancillas.

* Deal: Dicke states and their multinomial generalisation
  (:class:`~qcards.circuits.gates.dicke.MultinomialDealGate`), or conditional rotations whose
  angles come from the prior's partition sums
  (:class:`~qcards.circuits.gates.weighted_deal.WeightedDealGate`).
* Card play: the workspace (:class:`~qcards.circuits.layout.Workspace`) receives which cards
  the player holds, the led suit and whether the player is void in it
  (:mod:`qcards.circuits.gates.predicates`), a counter receives how many cards are legal, and
  the cards are then passed in order, each chosen with probability 1/(legal cards not yet
  passed) unless one was chosen already -- the sequential form of the uniform one-hot
  superposition of Eq. (9). The counter ends at 0 and every other ancilla is uncomputed:
  :math:`O(|\\text{cards}| \\cdot |\\text{players}|)` multi-controlled gates.
* Trick: card c takes the trick exactly when it lies on the table, no card that beats it does
  (:meth:`~qcards.skat.rules.cards.Rules.stronger`), and -- unless c is a trump -- its suit was led.
  That fact is computed into ``pick``, the winner's seat is copied from the owner of c, and the
  fact is uncomputed: :math:`O(|\\text{cards}|)` multi-controlled gates.
"""

from __future__ import annotations

import math
from functools import lru_cache

from qiskit.circuit import Gate, QuantumCircuit
from qiskit.circuit.library import UCRYGate

from qcards.circuits.gates.arithmetic import decrement, increment
from qcards.circuits.gates.cubes import cube_x, cube_xor
from qcards.circuits.gates.deal import GameDealGate, reference_deal
from qcards.circuits.gates.dicke import MultinomialDealGate
from qcards.circuits.gates.play import CardPlayGate
from qcards.circuits.gates.predicates import legal_cubes, mark_held, mark_led_suit, mark_void
from qcards.circuits.gates.states import DealGate
from qcards.circuits.gates.trick import TrickTakingGate
from qcards.circuits.gates.weighted_deal import WeightedDealGate
from qcards.circuits.layout import GameLayout, Workspace
from qcards.circuits.register_sizes import owner_width
from qcards.skat.position.spec import Endgame


@lru_cache(maxsize=16)
def _polynomial_deal(reference: DealGate) -> Gate:
    if all(all(w == 1 for w in row) for row in reference.weights) and not reference.tallies:
        return MultinomialDealGate(reference.sizes, reference.width)
    return WeightedDealGate(reference.sizes, reference.width, reference.weights, reference.tallies)


def deal(gate: GameDealGate) -> Gate:
    """The polynomial deal of ``gate``'s reference state (uniform or weighted)."""
    return _polynomial_deal(gate.reference)


def layout(spec: Endgame, paper_codes: bool) -> GameLayout:
    """The paper's registers plus a workspace, wide enough for the deal's ancillas too."""
    width = owner_width(spec)
    ancillas = _polynomial_deal(reference_deal(spec, width)).num_ancillas if width else 0
    return GameLayout(spec, paper_codes, Workspace(spec, ancillas))


def legal_play(gate: CardPlayGate) -> QuantumCircuit:
    """CP in polynomial size: the sequential uniform choice among the legal cards."""
    layout, t, position = gate.layout, gate.trick, gate.position
    layout.require_workspace("the efficient card play")
    work = layout.work
    assert work is not None  # require_workspace has checked
    qc = layout.circuit(gate.name)
    forced = gate.forced_card
    if forced is not None:
        qc.x(layout.play[forced][t - 1])
        return qc
    cards = gate.cards
    following = position > 0
    compute = layout.circuit("legal_cards")
    mark_held(compute, layout, t, position, cards)
    if following:
        mark_led_suit(compute, layout, t)
        mark_void(compute, layout, cards)
    qc.compose(compute, inplace=True)
    counter = work.count[: (layout.spec.hand_size - t + 1).bit_length()]
    legal = [legal_cubes(layout, cards, i, following) for i in range(len(cards))]
    for cubes in legal:
        for cube in cubes:
            increment(qc, cube, counter)
    # angle index = pick + 2 * counter: choose the card with probability 1/counter when picking.
    angles = [0.0] * 2 ** (len(counter) + 1)
    for remaining in range(1, 2 ** len(counter)):
        angles[1 + 2 * remaining] = 2 * math.asin(math.sqrt(1 / remaining))
    for c, cubes in zip(cards, legal, strict=True):
        play = layout.play[c][t - 1]
        for cube in cubes:
            cube_x(qc, {**cube, work.done: 0}, work.pick)
        qc.append(UCRYGate(angles), [play, work.pick, *counter])
        for cube in cubes:
            cube_x(qc, {**cube, work.done: 0}, work.pick)
        # Only a legal card's play bit: cards led earlier in the trick have theirs set too.
        for cube in cubes:
            cube_x(qc, {**cube, play: 1}, work.done)
            decrement(qc, cube, counter)
    # Exactly one card was chosen on every game state: "done" is 1 everywhere.
    qc.x(work.done)
    qc.compose(compute.inverse(), inplace=True)
    return qc


def trick_winner(gate: TrickTakingGate) -> QuantumCircuit:
    """TT in polynomial size: per card, "it takes the trick" into ``pick``, then the seat of
    its owner into ``winner_<trick>``."""
    layout, t = gate.layout, gate.trick
    layout.require_workspace("the efficient trick taking")
    work, spec = layout.work, layout.spec
    assert work is not None  # require_workspace has checked
    rules = spec.rules
    qc = layout.circuit(gate.name)
    led = layout.circuit("led_suit")
    mark_led_suit(led, layout, t)
    qc.compose(led, inplace=True)
    on_table = {c: layout.play[c][t - 1] for c in layout.cards}
    register = layout.winner[t]
    for c in layout.cards:
        takes = {on_table[c]: 1}
        takes.update({on_table[o]: 0 for o in rules.stronger(c, layout.cards)})
        if not rules.is_trump(c):
            takes[work.of_suit(rules.effective_suit(c))] = 1
        cube_x(qc, takes, work.pick)
        for player in spec.players:
            owner = layout.owner_condition(c, player)
            seat = spec.players.index(player)
            flips = [register[b] for b in range(register.size) if (seat >> b) & 1]
            if owner is not None and flips:
                cube_xor(qc, {work.pick: 1, **owner}, flips, layout.flag[0])
        cube_x(qc, takes, work.pick)
    qc.compose(led.inverse(), inplace=True)
    return qc
