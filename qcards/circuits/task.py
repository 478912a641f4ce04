"""A game task: the spec, the declarer's fixed first card and the construction, as one record.

Everything that runs a game circuit (evaluation, counting, sampling, hardware jobs) starts from
a :class:`GameTask`; the job store keeps one per job (:mod:`qcards.execution.jobs`), so the
circuit can be rebuilt deterministically to decode a result fetched later.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, cast

from qcards.circuits.construction import DEFAULT_CONSTRUCTION, Construction
from qcards.errors import ParameterError
from qcards.skat.players.play_models import get_model
from qcards.skat.position.spec import Endgame, parse_spec
from qcards.skat.rules.cards import Card

if TYPE_CHECKING:
    from qcards.circuits.game import GameCircuit
    from qcards.circuits.oracle import WinCircuit


@dataclass(frozen=True)
class GameTask:
    """What to build: ``spec`` with the declarer's ``first`` card fixed (or not), by
    ``construction``, its card plays weighted by ``model``'s policy (``random``: the paper's
    uniform choice, Eq. 9)."""

    spec: Endgame
    first: Card | None = None
    # a construction's name is taken too: __post_init__ parses it into the record
    construction: Construction = field(default=cast(Construction, DEFAULT_CONSTRUCTION))
    model: str = "random"

    if TYPE_CHECKING:  # the constructor dataclass writes, with the names it also takes

        def __init__(
            self,
            spec: Endgame,
            first: Card | None = None,
            construction: Construction | str = DEFAULT_CONSTRUCTION,
            model: str = "random",
        ) -> None: ...

    def __post_init__(self) -> None:
        object.__setattr__(self, "construction", Construction.parse(self.construction))
        object.__setattr__(self, "model", get_model(self.model).name)

    def build(self, paper_codes: bool = False) -> GameCircuit:
        """The game circuit (Eq. 17)."""
        from qcards.circuits.game import build_game  # qiskit: imported when a circuit is built

        return build_game(self.spec, self.first, paper_codes, self.construction, self.model)

    def win_circuit(self) -> WinCircuit:
        """The game circuit followed by the win oracle (the state preparation A of counting)."""
        from qcards.circuits.oracle import build_win_circuit

        return build_win_circuit(self.spec, self.first, self.construction, self.model)

    def to_json(self) -> dict:
        """The task as the job store keeps it: the spec's TOML text and where it came from."""
        return {
            "spec_path": self.spec.source,
            "spec_text": self.spec.to_toml(),
            "first": None if self.first is None else str(self.first),
            "construction": self.construction.value,
            "model": self.model,
        }

    @classmethod
    def from_json(cls, data: dict) -> GameTask:
        """Inverse of :meth:`to_json`."""
        spec = parse_spec(data["spec_text"], source=data["spec_path"])
        first = data.get("first")
        first_card = None if first is None else Card.parse(first)
        return cls(spec, first_card, data["construction"], data.get("model", "random"))


def as_task(
    game: GameTask | Endgame,
    first: Card | None = None,
    construction: Construction | str | None = None,
) -> GameTask:
    """The task that ``evaluate``, ``recommend``, ``run`` and ``count`` all take as their first
    input: a :class:`GameTask` as it is, or a spec with the declarer's ``first`` card and the
    ``construction`` (the default one when not given).

    A task already says its first card and construction, so giving either beside a task is
    refused (:class:`ParameterError`) rather than silently overriding or ignoring it."""
    if isinstance(game, GameTask):
        for name, value in (("first", first), ("construction", construction)):
            if value is not None:
                raise ParameterError(
                    name,
                    f"{{{name}}} is given twice: the GameTask already holds it; give a spec with "
                    f"{{{name}}}, or set it in the GameTask",
                )
        return game
    if not isinstance(game, Endgame):
        raise ParameterError(
            "game", f"{{game}} must be an Endgame (a spec) or a GameTask, got {type(game).__name__}"
        )
    return GameTask(game, first, DEFAULT_CONSTRUCTION if construction is None else construction)
