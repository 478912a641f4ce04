"""Policy-weighted card plays: the amplitudes sqrt(pi(card | view)) of the paper's outlook.

Sec. X.1 of the paper proposes parameterised card-play gates CP_k^n(c_1, ..., c_k) whose
amplitudes replace the uniform :math:`1/\\sqrt{k}` of Eq. (9). A play model's policy
(:mod:`qcards.skat.players.play_models`) gives them: on a game state, the player to move sees its
view (:meth:`qcards.skat.position.stages.Snapshot.view`: its hand, the trick, the tricks played, the
cards it cannot see), and each legal card ``c`` gets the amplitude :math:`\\sqrt{\\pi(c)}`. This
module computes those weights on the rows of the sparse engine's state, for the card play's
classical action (:meth:`qcards.circuits.gates.play.CardPlayGate.sparse_apply`); the circuits' own
definition of the weighted gate is the care-set synthesis of
:mod:`qcards.circuits.syntheses.hardware`.

The policy is called once per distinct view (many deals share one: the mover does not see how
the other cards lie), so the cost grows with the views, not with the deals.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from qcards.circuits.gates.classical import Rows
from qcards.circuits.layout import GameLayout
from qcards.skat.position.seat_view import Policy, reads_history
from qcards.skat.position.stages import Snapshot
from qcards.skat.rules.cards import Card
from qcards.skat.rules.turns import seat_to_move


def row_snapshots(
    rows: Rows, layout: GameLayout, trick: int, which: np.ndarray | None = None
) -> list[Snapshot]:
    """The game state of the rows ``which`` (default: every row) before a card of ``trick``
    is played (the deal, the cards played so far, the winners of the tricks before
    ``trick``), as :meth:`GameLayout.decode` would read it; the rows are game states of that
    stage."""
    spec = layout.spec
    which = np.arange(rows.count) if which is None else which
    count = len(which)
    owners: list[Sequence[str]] = []
    for c in layout.cards:
        known = spec.owner_of_known(c)
        if known is not None:
            owners.append([known] * count)
        elif layout.owner_width:
            values = rows.value(layout.owner[c])[which].tolist()
            owners.append([layout.receivers[i] for i in values])
        else:
            owners.append([layout.receivers[0]] * count)
    played = [
        [int(v).bit_length() for v in rows.value(layout.play[c])[which].tolist()]
        for c in layout.cards
    ]
    winners = [
        [spec.players[i] for i in rows.value(layout.winner[t])[which].tolist()]
        for t in range(1, trick)
    ]
    cards = layout.cards
    return [
        Snapshot(
            owner=tuple(zip(cards, (o[r] for o in owners), strict=True)),
            played=tuple(zip(cards, (p[r] for p in played), strict=True)),
            winners=tuple(w[r] for w in winners),
        )
        for r in range(count)
    ]


def view_classes(rows: Rows, layout: GameLayout, trick: int, position: int, history: bool = False):
    """Rows grouped by what the player to move sees: (one row of each group, the group of
    every row). Two rows are in one group when the trick's leader is the same and every card
    is in the same place for the mover -- in its hand, on the table from the same seat,
    in a finished trick, or out of its sight (another hand or the Skat) -- which is all a
    :class:`~qcards.skat.position.seat_view.SeatView` holds without its tricks; with ``history`` (a
    policy that reads :attr:`~qcards.skat.position.seat_view.SeatView.tricks`) a finished card must
    also be of the same trick and seat. Vectorised over the rows."""
    spec = layout.spec
    players = spec.players
    n = len(players)
    count = rows.count
    if trick > 1 and spec.winner_leads:
        leader = rows.value(layout.winner[trick - 1]).astype(np.int64)
    else:
        leader = np.full(count, players.index(spec.leader), dtype=np.int64)
    mover = seat_to_move(leader, position, n)  # on arrays of rows
    seat_of = np.array([players.index(r) if r in players else n for r in layout.receivers])
    codes = [leader]
    for c in layout.cards:
        known = spec.owner_of_known(c)
        if known is not None:
            owner = np.full(count, players.index(known), dtype=np.int64)
        elif layout.owner_width:
            owner = seat_of[rows.value(layout.owner[c]).astype(np.int64)]
        else:
            owner = np.full(count, seat_of[0], dtype=np.int64)
        bits = rows.value(layout.play[c]).astype(np.int64)
        played = np.where(bits > 0, np.log2(np.maximum(bits, 1)).astype(np.int64) + 1, 0)
        code = np.where(owner == mover, 1, 0)  # in the mover's hand, or out of its sight
        finished = 2 if not history else 3 + n + (played - 1) * (n + 1) + owner
        code = np.where((played > 0) & (played < trick), finished, code)  # a finished trick
        code = np.where(played == trick, 3 + owner, code)  # on the table, from that seat
        codes.append(code)
    keys = np.stack(codes)
    _unique, first, inverse = np.unique(keys, axis=1, return_index=True, return_inverse=True)
    return first, inverse.reshape(-1)


def weighted_choice(
    rows: Rows,
    layout: GameLayout,
    trick: int,
    position: int,
    cards: Sequence[Card],
    legal: np.ndarray,
    policy: Policy,
    first: Card | None,
) -> tuple[np.ndarray, np.ndarray]:
    """The policy's choice on every row: the legal masks without the cards of weight 0, and
    for each child row in the order the compiled expansion writes them (row by row, cards in
    ``cards`` order) the factor that turns its uniform amplitude :math:`1/\\sqrt{m}` into
    :math:`\\sqrt{\\pi(c)}`, m the cards of positive weight. The policy is asked once per
    group of rows with the same view (:func:`view_classes`). Every row is a game state of
    the stage, with at least one legal card."""
    index = {c: i for i, c in enumerate(cards)}
    spec = layout.spec
    first_rows, group = view_classes(rows, layout, trick, position, reads_history(policy))
    table = np.zeros((len(first_rows), len(cards)))
    for g, snap in enumerate(row_snapshots(rows, layout, trick, first_rows)):
        for c, w in snap.play_weights(spec, trick, position, policy, first).items():
            table[g, index[c]] = float(w)
    weights = table[group]
    chosen = weights > 0
    masks = (chosen * (np.uint64(1) << np.arange(len(cards), dtype=np.uint64))).sum(
        axis=1, dtype=np.uint64
    )
    if np.any(masks & ~legal.astype(np.uint64)) or not np.all(masks):
        raise AssertionError("the policy's cards are not the legal cards of some row")
    m = chosen.sum(axis=1)
    factors = np.sqrt(weights * m[:, None])[chosen]  # row by row, cards in order
    return masks, factors
