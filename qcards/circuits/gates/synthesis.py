"""What a game gate needs of its construction, and nothing of the registry.

The deal, card-play and trick gates are defined by a construction's syntheses (Eqs. 1, 9-13
and 14-15, or their polynomial and hardware versions). A gate is handed the construction's
record itself and reads only the members of :class:`GateSyntheses`; it never looks a name up
(``get_construction(name)`` in :mod:`qcards.circuits.construction` does that for the callers),
so the gates do not import the registry, whose records in turn name the gates' types.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol


class GateSyntheses(Protocol):
    """The members of a :class:`~qcards.circuits.construction.Construction` the gates read."""

    @property
    def name(self) -> str:
        """What ``--construction`` calls it (for messages)."""
        ...

    @property
    def tag(self) -> str:
        """Suffix of the gates' names, so circuits show which synthesis they hold."""
        ...

    @property
    def deal(self) -> Callable[[Any], Any]:
        """The deal's state preparation, a function of the deal gate."""
        ...

    @property
    def play(self) -> Callable[[Any], Any]:
        """A card play's definition, a function of the card-play gate."""
        ...

    @property
    def trick(self) -> Callable[[Any], Any]:
        """A trick's definition, a function of the trick-taking gate."""
        ...


def syntheses_of(construction: GateSyntheses, gate: str) -> GateSyntheses:
    """``construction``, refused with a clear error when it is a name rather than a record."""
    if isinstance(construction, str):
        raise TypeError(
            f"{gate} takes a construction record, not its name: pass "
            f"qcards.circuits.construction.get_construction({construction!r})"
        )
    return construction
