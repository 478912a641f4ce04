"""A brute-force double-dummy oracle for the tests: the minimax of any score of a finished game
over every play of one deal, with no levels, bounds or tables (the independent check of
:func:`qcards.skat.solvers.double_dummy.outcome.deal_outcome` and of the decisions under the
adversarial model)."""

from __future__ import annotations

from collections.abc import Callable


def minimax_score(spec, owner, value: Callable, first=None) -> int:
    """``value(spec, points, tricks, matadors)``'s double-dummy value on one deal: plain minimax
    over every play, the declarer maximising, the score at every leaf."""
    rules = spec.rules
    n = len(spec.players)
    matadors = 0
    if not spec.declaration.declaration.is_null:
        matadors = spec.declaration.matadors_of(tuple(c for c, w in owner.items() if w == "skat"))
    start = spec.players.index(spec.leader)

    def walk(hands, leader, trick, points, taken, forced):
        if not any(hands) and not trick:
            return value(spec, points, spec.declarer_tricks + taken, matadors)
        seat = (leader + len(trick)) % n
        legal = (forced,) if forced else rules.legal_cards(hands[seat], trick[0] if trick else None)
        values = []
        for card in legal:
            rest = tuple(h - {card} if i == seat else h for i, h in enumerate(hands))
            played = (*trick, card)
            if len(played) < n:
                values.append(walk(rest, leader, played, points, taken, None))
                continue
            winner = (leader + rules.trick_winner(played)) % n
            gain = sum(c.value for c in played) if winner == 0 else 0
            values.append(walk(rest, winner, (), points + gain, taken + (winner == 0), None))
        return max(values) if seat == 0 else min(values)

    hands = tuple(frozenset(c for c, w in owner.items() if w == p) for p in spec.players)
    base = spec.declarer_points + sum(c.value for c, w in owner.items() if w == "skat")
    return walk(hands, start, (), base, 0, first)
