"""Is a measured game state one the game can reach? The rules' invariants, for error detection.

A noiseless game circuit only ever holds states of the game; on a noisy device many shots do
not. :func:`violation` replays a :class:`~qcards.skat.position.stages.Snapshot` against the rules
and
names the first invariant it breaks:

* the deal: every receiver got as many unknown cards as the spec says;
* the Skat's cards are never played, and no card is played after the stage;
* every trick so far has one card from each seat (the current one from the seats that have
  played), each card from its owner's hand and legal when it was played (suit following,
  :meth:`~qcards.skat.position.stages.Snapshot.to_move`);
* every trick taken was taken by the seat the rules name (its one winner).

Pure Python: shared by every backend's decoding (``detect`` in
:func:`qcards.circuits.decode.decode_counts`).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

from qcards.skat.position.spec import SKAT, Endgame
from qcards.skat.position.stages import Snapshot, Stage
from qcards.skat.rules.cards import Card


def violation(spec: Endgame, snap: Snapshot, stage: Stage, first: Card | None = None) -> str | None:
    """Why ``snap`` is no state of ``spec``'s game at ``stage`` (None if it is one)."""
    owner, played = dict(snap.owner), dict(snap.played)
    dealt = Counter(owner[c] for c in spec.unknown)
    for receiver in spec.receivers:
        if dealt.get(receiver, 0) != spec.sizes[receiver]:
            return f"{receiver} was dealt {dealt.get(receiver, 0)} unknown cards"
    if any(played[c] for c in spec.cards if owner[c] == SKAT):
        return "a card of the Skat was played"
    n = len(spec.players)
    plays_now = stage.cards_played(n)
    if sum(1 for c in spec.cards if played[c]) != plays_now:
        return f"{sum(1 for c in spec.cards if played[c])} cards on the table or in stacks"
    if len(snap.winners) != stage.tricks_taken:
        return "the tricks taken do not match the stage"
    # replay: each card from the mover's hand, legal when it was played
    so_far = Snapshot(snap.owner, tuple((c, 0) for c in spec.cards), ())
    for k in range(plays_now):
        trick, position = divmod(k, n)
        trick += 1
        mover, legal = so_far.to_move(spec, trick, position, first)
        cards = [c for c in spec.cards if played[c] == trick and owner[c] == mover]
        if len(cards) != 1:
            return f"{mover} put {len(cards)} cards into trick {trick}"
        if cards[0] not in legal:
            return f"{mover} played {cards[0]} in trick {trick}, which was not legal"
        so_far = replace(
            so_far,
            played=tuple((c, trick if c == cards[0] else t) for c, t in so_far.played),
        )
        if position == n - 1 and trick <= stage.tricks_taken:
            winner = so_far.trick_winner(spec, trick)
            if snap.winners[trick - 1] != winner:
                return f"trick {trick} is marked as taken by {snap.winners[trick - 1]}"
            so_far = replace(so_far, winners=(*so_far.winners, winner))
    return None
