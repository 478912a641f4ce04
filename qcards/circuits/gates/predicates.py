"""Facts about the current trick computed into clean ancillas (the polynomial construction).

The paper conditions every factor of CP and TT (Eqs. 12 and 15) on a whole configuration of the
game: one term per possible hand, per led card, per table. Here the same facts are computed once
per card into the :class:`~qcards.circuits.layout.Workspace`, each with one multi-controlled X per
(card, player) pair, so the gates grow polynomially:

* ``held[i]``: the i-th card the player to move may hold is in its hand (dealt to it, not
  played in an earlier trick);
* ``led[s]``: the card led to the trick has effective suit s;
* ``void``: the player to move cannot follow the led suit.

A card is then legal (Skat's suit-following rule, as
:meth:`qcards.skat.rules.cards.Rules.legal_cards`)
when it is held and follows the led suit, or held while the player is void: two cubes that never
overlap (:func:`legal_cubes`). Each ``mark_*`` function appends a *compute* block; callers undo
it by appending the block's inverse after use (the qubits it reads are unchanged in between).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import cast

from qiskit.circuit import QuantumCircuit, Qubit

from qcards.circuits.gates.cubes import cube_x
from qcards.circuits.layout import GameLayout, Workspace, merge_conditions
from qcards.skat.rules.cards import Card
from qcards.skat.rules.turns import player_to_move


def _work(layout: GameLayout) -> Workspace:
    """The layout's workspace: these predicates mark its ancillas (the efficient construction's
    layouts, which have one)."""
    return cast(Workspace, layout.work)


def mover(layout: GameLayout, position: int, leader: str) -> str:
    """The player at ``position`` of a trick led by ``leader``."""
    return player_to_move(layout.spec, leader, position)


@lru_cache(maxsize=4096)
def movable_cards(layout: GameLayout, trick: int, position: int) -> tuple[Card, ...]:
    """Cards the player at ``position`` may hold, over every possible leader of ``trick``."""
    wanted = {
        c
        for leader in layout.possible_leaders(trick)
        for c in layout.spec.candidates(mover(layout, position, leader))
    }
    return tuple(c for c in layout.cards if c in wanted)


def held_cubes(
    layout: GameLayout, trick: int, position: int, cards: Sequence[Card]
) -> list[list[tuple[str, dict[Qubit, int]]]]:
    """For each of ``cards``: the (leader, cube) pairs on which it is in the hand of the player
    to move (dealt to that player and not played in an earlier trick). The leaders' cubes are
    disjoint, so at most one holds on a basis state. Computed once per layout and stage (the
    classical actions ask again on every call): the result must not be changed."""
    return _held_cubes(layout, trick, position, tuple(cards))


@lru_cache(maxsize=4096)
def _held_cubes(layout, trick, position, cards):
    out = [[] for _ in cards]
    for leader, lead, each in held_cubes_by_leader(layout, trick, position, cards):
        for pairs, cube in zip(out, each, strict=True):
            merged = merge_conditions(lead, cube)
            if merged is not None:
                pairs.append((leader, merged))
    return out


@lru_cache(maxsize=4096)
def held_cubes_by_leader(
    layout: GameLayout, trick: int, position: int, cards: tuple[Card, ...]
) -> list[tuple[str, dict[Qubit, int] | None, list[dict[Qubit, int] | None]]]:
    """For each possible leader of ``trick``: (leader, "it leads" cube, for each of ``cards``
    the cube on which the card is in the hand of the player ``position`` seats after it --
    dealt to that player and not played in an earlier trick -- or None). :func:`held_cubes`
    is their conjunction; the compiled card play asks the leader first."""
    out = []
    for leader in layout.possible_leaders(trick):
        player = mover(layout, position, leader)
        each = [
            merge_conditions(
                layout.owner_condition(c, player),
                {layout.play[c][s]: 0 for s in range(trick - 1)},
            )
            for c in cards
        ]
        out.append((leader, layout.leader_condition(trick, leader), each))
    return out


@lru_cache(maxsize=4096)
def led_cubes(layout: GameLayout, trick: int) -> list[tuple[str, Card, dict[Qubit, int]]]:
    """(leader, card, cube): on ``cube`` the leader of ``trick`` has put ``card`` on the table."""
    out = []
    for leader, lead, each in led_cubes_by_leader(layout, trick):
        for c, cube in each:
            merged = merge_conditions(lead, cube)
            if merged is not None:
                out.append((leader, c, merged))
    return out


@lru_cache(maxsize=4096)
def led_cubes_by_leader(
    layout: GameLayout, trick: int
) -> list[tuple[str, dict[Qubit, int] | None, list[tuple[Card, dict[Qubit, int] | None]]]]:
    """For each possible leader of ``trick``: (leader, "it leads" cube, (card, cube) for each
    card it may hold: on the cube, it has put that card on the table in this trick)."""
    return [
        (
            leader,
            layout.leader_condition(trick, leader),
            [
                (
                    c,
                    merge_conditions(
                        layout.owner_condition(c, leader), {layout.play[c][trick - 1]: 1}
                    ),
                )
                for c in layout.spec.candidates(leader)
            ],
        )
        for leader in layout.possible_leaders(trick)
    ]


def mark_held(
    qc: QuantumCircuit, layout: GameLayout, trick: int, position: int, cards: Sequence[Card]
) -> None:
    """``held[i]`` ^= ``cards[i]`` is in the hand of the player to move."""
    for i, pairs in enumerate(held_cubes(layout, trick, position, cards)):
        for _leader, cube in pairs:
            cube_x(qc, cube, _work(layout).held[i])


def mark_led_suit(qc: QuantumCircuit, layout: GameLayout, trick: int) -> None:
    """``led[s]`` ^= the leader's card on the table in ``trick`` has effective suit s."""
    work, rules = _work(layout), layout.spec.rules
    for _leader, c, cube in led_cubes(layout, trick):
        cube_x(qc, cube, work.of_suit(rules.effective_suit(c)))


def mark_void(qc: QuantumCircuit, layout: GameLayout, cards: Sequence[Card]) -> None:
    """``void`` ^= the player to move holds no card of the led suit (``held``, ``led`` marked)."""
    work, rules = _work(layout), layout.spec.rules
    for suit in work.suits:
        cube = {work.of_suit(suit): 1}
        cube.update(
            {work.held[i]: 0 for i, c in enumerate(cards) if rules.effective_suit(c) == suit}
        )
        cube_x(qc, cube, work.void)


def legal_cubes(layout: GameLayout, cards: Sequence[Card], i: int, following: bool) -> list[dict]:
    """Disjoint cubes whose union is "``cards[i]`` may be played now"."""
    work = _work(layout)
    held = {work.held[i]: 1}
    if not following:
        return [held]
    suit = layout.spec.rules.effective_suit(cards[i])
    # A held card of the led suit means the player is not void: the cubes never overlap.
    return [{**held, work.of_suit(suit): 1}, {**held, work.void: 1}]
