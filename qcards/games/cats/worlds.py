"""Possible worlds, what each agent can tell apart, and public announcements.

A small model of public-announcement logic, independent of the card game: a set of worlds
(tuples with one coordinate per agent), a *view* saying what an agent observes of a world, and
announcements that keep only the worlds where a predicate holds. Two worlds are
indistinguishable for an agent when her views of them are equal; she *knows* a fact at a world
when the fact has one value over all the worlds she cannot tell from it.

For Philosopher Cats the coordinates are the players' colours and the view is
:func:`hide_own` (everyone sees every card but her own).
"""

from __future__ import annotations

import itertools
from collections import defaultdict
from collections.abc import Callable, Hashable, Iterable
from dataclasses import dataclass, replace
from functools import cached_property

World = tuple[Hashable, ...]
View = Callable[[int, World], Hashable]
Predicate = Callable[[World], bool]


def hide_own(agent: int, world: World) -> World:
    """What ``agent`` observes of ``world``: every coordinate but her own."""
    return world[:agent] + world[agent + 1 :]


@dataclass(frozen=True)
class EpistemicModel:
    """Worlds still possible after the announcements so far, and the agents' views.

    Attributes:
        worlds: the worlds not yet ruled out (public knowledge).
        agents: the number of agents.
        view: what an agent observes of a world; equal views mean indistinguishable worlds.
    """

    worlds: frozenset[World]
    agents: int
    view: View = hide_own

    @classmethod
    def product(
        cls, values: Iterable[Hashable], agents: int, view: View = hide_own
    ) -> EpistemicModel:
        """Every world with each agent's coordinate drawn from ``values``."""
        return cls(frozenset(itertools.product(tuple(values), repeat=agents)), agents, view)

    @cached_property
    def _cells(self) -> tuple[dict[Hashable, frozenset[World]], ...]:
        # each agent's partition of the worlds into what she cannot tell apart, keyed by view
        cells = []
        for agent in range(self.agents):
            cell: dict[Hashable, set[World]] = defaultdict(set)
            for world in self.worlds:
                cell[self.view(agent, world)].add(world)
            cells.append({key: frozenset(ws) for key, ws in cell.items()})
        return tuple(cells)

    def accessible(self, agent: int, world: World) -> frozenset[World]:
        """The worlds of the model ``agent`` cannot tell from ``world``.

        ``world`` itself need not be in the model: an agent who observes something no
        remaining world explains gets the empty set.
        """
        return self._cells[agent].get(self.view(agent, world), frozenset())

    def possible_values(
        self, agent: int, world: World, fact: Callable[[World], Hashable]
    ) -> frozenset[Hashable]:
        """The values ``fact`` takes over the worlds ``agent`` considers possible at ``world``."""
        return frozenset(fact(w) for w in self.accessible(agent, world))

    def knows(self, agent: int, world: World, fact: Callable[[World], Hashable]) -> bool:
        """Whether ``agent`` knows the value of ``fact`` at ``world`` (one possible value)."""
        return len(self.possible_values(agent, world, fact)) == 1

    def own_values(self, agent: int, world: World) -> frozenset[Hashable]:
        """The values ``agent`` considers possible for her own coordinate at ``world``."""
        return self.possible_values(agent, world, lambda w: w[agent])

    def announce(self, predicate: Predicate) -> EpistemicModel:
        """The model after a truthful public announcement of ``predicate``."""
        return replace(self, worlds=frozenset(w for w in self.worlds if predicate(w)))
