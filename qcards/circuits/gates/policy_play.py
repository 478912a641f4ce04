"""Policy-weighted card plays: the amplitudes sqrt(pi(card | view)) of the paper's outlook.

Sec. X.1 of the paper proposes parameterised card-play gates CP_k^n(c_1, ..., c_k) whose
amplitudes replace the uniform :math:`1/\\sqrt{k}` of Eq. (9). A play model's policy
(:mod:`qcards.skat.play_models`) gives them: on a game state, the player to move sees its view
(:meth:`qcards.skat.stages.Snapshot.view`: its hand, the trick, the tricks played, the cards it
cannot see), and each legal card ``c`` gets the amplitude :math:`\\sqrt{\\pi(c)}`. This module
computes those weights on the rows of the sparse engine's state, for the card play's classical
action (:meth:`qcards.circuits.gates.play.CardPlayGate.sparse_apply`); the circuits' own
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
from qcards.skat.cards import Card
from qcards.skat.seat_view import Policy
from qcards.skat.stages import Snapshot


def row_snapshots(rows: Rows, layout: GameLayout, trick: int) -> list[Snapshot]:
    """The game state of every row before a card of ``trick`` is played (the deal, the cards
    played so far, the winners of the tricks before ``trick``), as
    :meth:`GameLayout.decode` would read it; the rows are game states of that stage."""
    spec = layout.spec
    count = rows.count
    owners: list[Sequence[str]] = []
    for c in layout.cards:
        known = spec.owner_of_known(c)
        if known is not None:
            owners.append([known] * count)
        elif layout.owner_width:
            owners.append([layout.receivers[i] for i in rows.value(layout.owner[c]).tolist()])
        else:
            owners.append([layout.receivers[0]] * count)
    played = [
        [int(v).bit_length() for v in rows.value(layout.play[c]).tolist()] for c in layout.cards
    ]
    winners = [
        [spec.players[i] for i in rows.value(layout.winner[t]).tolist()] for t in range(1, trick)
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
    :math:`\\sqrt{\\pi(c)}`, m the cards of positive weight. A row with no legal card keeps
    factor 1."""
    index = {c: i for i, c in enumerate(cards)}
    spec = layout.spec
    snapshots = row_snapshots(rows, layout, trick)
    memo: dict = {}
    masks = np.zeros(len(snapshots), dtype=np.uint64)
    factors: list[float] = []
    for r, snap in enumerate(snapshots):
        if not int(legal[r]):
            factors.append(1.0)
            continue
        view = snap.view(spec, trick, position)
        weights = memo.get(view)
        if weights is None:
            weights = memo[view] = snap.play_weights(spec, trick, position, policy, first)
        chosen = sorted((index[c], float(w)) for c, w in weights.items())
        mask = 0
        for i, _w in chosen:
            mask |= 1 << i
        if mask & ~int(legal[r]):
            raise AssertionError(f"the policy chose a card that is not legal: {weights}")
        masks[r] = mask
        m = len(chosen)
        factors.extend(np.sqrt(m * w) for _i, w in chosen)
    return masks, np.asarray(factors)
