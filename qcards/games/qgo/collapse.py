"""Entangled groups of stones and the three-step collapse process.

When a move places stones and one of them touches any other stone (the other stone of the same
new pair included: the rules say *any* other stone), the collapse runs in this order:

1. the mover keeps one stone of each of her older entangled groups that touches a new stone;
2. the opponent does the same for his entangled groups that touch a new stone;
3. the mover keeps one stone of the group she has just placed; if some of its stones touch a
   stone kept in step 1 or 2, she must keep one of those.

A stone removed in step 1 or 2 does not count as "just collapsed" for step 3: the paper's
first figure says the opponent may choose freely once the touched stone is gone. Steps 1 and 2
depend only on which points the new stones occupy, never on choices made before them, so the
order of the decisions within a step does not matter. With W-type triplets a collapse keeps
two stones, which stay entangled as a pair; they count as just collapsed for step 3.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from itertools import combinations

from qcards.games.qgo.board import Colour, Point, format_points
from qcards.games.qgo.errors import QgoError
from qcards.games.qgo.rules import Rules

KEEPS = {"pair": 1, "ghz": 1, "w": 2}
"""How many stones survive the collapse of each kind of entangled group."""


@dataclass(frozen=True)
class Entangled:
    """Stones of one colour of which only some will stay: a pair, or a GHZ- or W-type triplet.

    Attributes:
        colour: the owner.
        points: where the stones are, in the order they were played.
        kind: ``"pair"``, ``"ghz"`` or ``"w"``.
        label: the number of the move that placed the stones (names the group on screen).
    """

    colour: Colour
    points: tuple[Point, ...]
    kind: str = "pair"
    label: int = 0

    @property
    def keeps(self) -> int:
        return KEEPS[self.kind]

    def options(self) -> list[tuple[Point, ...]]:
        """Every set of stones its owner may keep when it collapses."""
        return list(combinations(self.points, self.keeps))

    def after(self, kept: tuple[Point, ...]) -> Entangled | None:
        """What is left entangled once only ``kept`` remain (``None``: one ordinary stone)."""
        return replace(self, points=kept, kind="pair") if len(kept) > 1 else None

    def describe(self) -> str:
        name = "pair" if self.kind == "pair" else f"{self.kind.upper()} triplet"
        return f"{self.colour.label} {name} {format_points(self.points)}"


@dataclass(frozen=True)
class Decision:
    """One choice the collapse asks of a player.

    Attributes:
        step: 1, 2 or 3 (see the module docstring).
        group: the entangled group that collapses.
        options: the sets of stones the owner may keep (after the step-3 duty).
        forced_by: the just-collapsed stones that rule out some step-3 choices, else empty.
    """

    step: int
    group: Entangled
    options: tuple[tuple[Point, ...], ...]
    forced_by: tuple[Point, ...] = ()

    @property
    def colour(self) -> Colour:
        return self.group.colour

    def explain(self) -> str:
        """What may be kept, in words: e.g. ``"keep D3 or C2"``."""
        choices = " or ".join(format_points(o) for o in self.options)
        if self.forced_by:
            return f"keep {choices} (must touch {format_points(self.forced_by)}, just collapsed)"
        return f"keep {choices}"


Chooser = Callable[[Decision], tuple[Point, ...]]
"""Answers a decision with the stones to keep (one of ``decision.options``)."""


@dataclass(frozen=True)
class Collapse:
    """One entangled group that collapsed: which step, what stayed, what left the board."""

    step: int
    group: Entangled
    kept: tuple[Point, ...]

    @property
    def removed(self) -> tuple[Point, ...]:
        return tuple(p for p in self.group.points if p not in self.kept)


def touches(stones: dict[Point, Colour], new: tuple[Point, ...], rules: Rules) -> bool:
    """Whether a stone just placed at ``new`` touches any other stone (collapse starts)."""
    return any(q in stones for p in new for q in rules.touching(p))


def collapse(
    stones: dict[Point, Colour],
    entangled: list[Entangled],
    new: tuple[Point, ...],
    rules: Rules,
    choose: Chooser,
) -> list[Collapse]:
    """Run the collapse process for the stones just placed at ``new``, in place.

    Args:
        stones: every stone on the board (entangled or not), the new ones included.
        entangled: the entangled groups, the new one (if ``new`` holds several stones) last.
        new: the points of the stones just placed.
        rules: for what counts as touching.
        choose: asked once per collapsing group, in step order.

    Returns:
        The collapses, in the order they happened; empty when nothing was touched.

    Raises:
        QgoError: ``choose`` answered with stones that are not among the options.
    """
    if not touches(stones, new, rules):
        return []
    mover = stones[new[0]]
    near = {q for p in new for q in rules.touching(p)}
    own_group = entangled[-1] if len(new) > 1 else None
    older = [g for g in entangled if g is not own_group and near.intersection(g.points)]
    done: list[Collapse] = []
    for step, colour in ((1, mover), (2, mover.other)):
        for g in (g for g in older if g.colour is colour):
            done.append(_decide(Decision(step, g, tuple(g.options())), stones, entangled, choose))
    if own_group is not None:
        survivors = {p for c in done for p in c.kept}
        options = own_group.options()
        allowed = [o for o in options if any(_touch(p, survivors, rules) for p in o)]
        decision = (
            Decision(3, own_group, tuple(allowed), _touched(own_group, survivors, rules))
            if allowed and allowed != options
            else Decision(3, own_group, tuple(options))
        )
        done.append(_decide(decision, stones, entangled, choose))
    return done


def _touch(point: Point, others: set[Point], rules: Rules) -> bool:
    return any(q in others for q in rules.touching(point))


def _touched(group: Entangled, survivors: set[Point], rules: Rules) -> tuple[Point, ...]:
    return tuple(sorted({q for p in group.points for q in rules.touching(p) if q in survivors}))


def _decide(
    decision: Decision,
    stones: dict[Point, Colour],
    entangled: list[Entangled],
    choose: Chooser,
) -> Collapse:
    kept = tuple(choose(decision))
    if kept not in decision.options:
        said = format_points(kept) or "nothing"
        raise QgoError(f"{decision.group.describe()} collapses: {decision.explain()}, not {said}")
    g = decision.group
    for p in g.points:
        if p not in kept:
            del stones[p]
    index = entangled.index(g)
    rest = g.after(kept)
    if rest is None:
        del entangled[index]
    else:
        entangled[index] = rest
    return Collapse(decision.step, g, kept)
