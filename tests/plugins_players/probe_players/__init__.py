"""A third party's player kind, ``probe-player[:PLAYER]``.

Registered through ``probe_players-0.1.dist-info/entry_points.txt`` (what ``pip install`` of a
package declaring the entry-point group ``qcards.players`` would write);
``tests/test_seat_players.py`` puts this directory on the path. The probe plays as the qcards
player its options name (``heuristic`` without options), so its cards are known; it counts
the decisions it was asked. ``probe-player:illegal`` answers a card that is never legal.
"""

from qcards.analysis.match_players import parse_player, seated
from qcards.analysis.seat_players import PlayerKind

ASKED = []
"""The legal cards of every decision the probe answered in this process."""


class Probe:
    def __init__(self, inner):
        self.inner = inner

    def step(self, decision):
        ASKED.append(decision.legal)
        if self.inner is None:
            return "no card"
        return self.inner.step(decision)


def make(options: str) -> Probe:
    if options == "illegal":
        return Probe(None)
    if options == "broken":
        raise ValueError("the probe refuses the options 'broken'")
    return Probe(seated(parse_player(options or "heuristic")))


PROBE = PlayerKind("probe-player", make, "plays as the player its options name", 0.01)
