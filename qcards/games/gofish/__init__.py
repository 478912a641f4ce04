"""Quantum Go Fish: an exact referee (:mod:`qcards.games.gofish.game`, :mod:`.knowledge`),
record replay, bots (:mod:`qcards.games.gofish.bots`), bot leagues (:mod:`.tournament`) and
terminal play (:mod:`qcards.games.gofish.terminal`).

The book's variants (no-four, lose-a-turn, playing-on) are options of :class:`.game.GoFish`.
The knowledge of the table is computed exactly by flows over the deal matrices
(:mod:`.transport`), never by enumerating deals.
"""

from qcards.games.gofish.game import Ask, GoFish, Hand, Move, Outcome
from qcards.games.gofish.knowledge import Knowledge
from qcards.games.gofish.record import (
    Record,
    RecordedMove,
    Replay,
    load_record,
    parse_record,
    replay,
    replay_json,
)

__all__ = [
    "Ask",
    "GoFish",
    "Hand",
    "Knowledge",
    "Move",
    "Outcome",
    "Record",
    "RecordedMove",
    "Replay",
    "load_record",
    "parse_record",
    "replay",
    "replay_json",
]
