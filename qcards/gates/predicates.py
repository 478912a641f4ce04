"""Facts about the current trick computed into clean ancillas (the polynomial construction).

The paper conditions every factor of CP and TT (Eqs. 12 and 15) on a whole configuration of the
game: one term per possible hand, per led card, per table. Here the same facts are computed once
per card into the :class:`~qcards.encoding.Workspace`, each with one multi-controlled X per
(card, player) pair, so the gates grow polynomially:

* ``held[c]``: card c is in the hand of the player at ``position`` of ``trick``
  (dealt to that player, not played in an earlier trick);
* ``led[s]``: the card led to ``trick`` has effective suit s;
* ``has[s]``, ``void``: the player to move holds a card of suit s / cannot follow the led suit;
* ``legal[c]``: c may be played (Skat's suit-following rule, as
  :meth:`qcards.cards.Rules.legal_cards`).

Each ``mark_*`` function appends a *compute* block; callers undo it by appending the block's
inverse after use (the qubits it reads are not changed in between).
"""

from __future__ import annotations

from collections.abc import Sequence

from qiskit.circuit import QuantumCircuit, Qubit

from qcards.encoding import GameLayout, merge_conditions
from qcards.gates.cubes import cube_x


def mover(layout: GameLayout, trick: int, position: int, leader: str) -> str:
    """The player at ``position`` of a trick led by ``leader``."""
    players = layout.spec.players
    return players[(players.index(leader) + position) % len(players)]


def mark_held(qc: QuantumCircuit, layout: GameLayout, trick: int, position: int) -> None:
    """``held[c]`` ^= c is in the hand of the player to move (every possible leader)."""
    work = layout.work
    cards = layout.cards
    # legal[c] temporarily holds "c was played in an earlier trick" (one-hot play bits: XOR = OR).
    earlier = [(c, layout.play[c][s]) for c in cards for s in range(trick - 1)]
    for c, bit in earlier:
        qc.cx(bit, work.of_card(work.legal, c))
    for leader in layout.possible_leaders(trick):
        player = mover(layout, trick, position, leader)
        for c in layout.spec.candidates(player):
            cube = merge_conditions(
                layout.leader_condition(trick, leader),
                layout.owner_condition(c, player),
                {work.of_card(work.legal, c): 0} if trick > 1 else {},
            )
            if cube is not None:
                cube_x(qc, cube, work.of_card(work.held, c))
    for c, bit in reversed(earlier):
        qc.cx(bit, work.of_card(work.legal, c))


def mark_led_suit(qc: QuantumCircuit, layout: GameLayout, trick: int) -> None:
    """``led[s]`` ^= the leader's card on the table in ``trick`` has effective suit s."""
    work, rules = layout.work, layout.spec.rules
    for leader in layout.possible_leaders(trick):
        for c in layout.spec.candidates(leader):
            cube = merge_conditions(
                layout.leader_condition(trick, leader),
                layout.owner_condition(c, leader),
                {layout.play[c][trick - 1]: 1},
            )
            if cube is not None:
                cube_x(qc, cube, work.of_suit(work.led, rules.effective_suit(c)))


def mark_legal(qc: QuantumCircuit, layout: GameLayout, cards: Sequence) -> None:
    """``legal[c]`` for a following player, from ``held`` and ``led`` (which must be marked).

    A held card is legal if it follows the led suit, or if the player holds no card of it.
    """
    work, rules = layout.work, layout.spec.rules
    by_suit: dict[str, list] = {}
    for c in cards:
        by_suit.setdefault(rules.effective_suit(c), []).append(c)
    for suit, members in by_suit.items():
        has = work.of_suit(work.has, suit)
        qc.x(has)
        cube_x(qc, {work.of_card(work.held, c): 0 for c in members}, has)
    for suit in work.suits:
        cube = {work.of_suit(work.led, suit): 1, work.of_suit(work.has, suit): 0}
        cube_x(qc, cube, work.void)
    # The led suit is on the table, so "void" cannot hold together with a led suit the
    # player holds: the two terms below never overlap and XOR is OR.
    for c in cards:
        held = work.of_card(work.held, c)
        target = work.of_card(work.legal, c)
        cube_x(qc, {held: 1, work.of_suit(work.led, rules.effective_suit(c)): 1}, target)
        cube_x(qc, {held: 1, work.void: 1}, target)


def increment(qc: QuantumCircuit, control: Qubit, register: Sequence[Qubit]) -> None:
    """Add 1 (mod 2^len) to ``register`` when ``control`` is set; inverse: the reversed gates.

    Qiskit's adders add registers; a controlled +1 on a 4-qubit counter is a short MCX cascade.
    """
    for j in range(len(register) - 1, -1, -1):
        qc.mcx([control, *register[:j]], register[j])


def decrement(qc: QuantumCircuit, control: Qubit, register: Sequence[Qubit]) -> None:
    """Subtract 1 when ``control`` is set (the inverse of :func:`increment`)."""
    for j in range(len(register)):
        qc.mcx([control, *register[:j]], register[j])
