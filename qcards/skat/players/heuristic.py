"""The ``heuristic`` play model: a rule-based player written from Skat's playing conventions
(:func:`heuristic`), a policy over a seat's view (:mod:`qcards.skat.position.seat_view`). Registered
by
:mod:`qcards.skat.players.play_models`; its compiled twin for the searches is
:mod:`qcards.skat.players.heuristic_kernel`, held equal to it by the tests."""

from __future__ import annotations

from fractions import Fraction

from qcards.skat.position.seat_view import SeatView
from qcards.skat.rules.cards import TRUMP, Card
from qcards.skat.rules.turns import seat_to_move


def _evenly(cards) -> dict[Card, Fraction]:
    cards = tuple(dict.fromkeys(cards))
    return {c: Fraction(1, len(cards)) for c in cards}


def _lowest(view: SeatView, cards) -> list[Card]:
    """The cards of fewest points, then weakest, keeping a guarded ten when another card of
    equal points can go (a ten with one guard while the ace of its suit is out)."""
    rules = view.rules
    cheapest = min(c.value for c in cards)
    low = [c for c in cards if c.value == cheapest]
    unguarding = {c for c in low if _guards_a_ten(view, c)}
    low = [c for c in low if c not in unguarding] or low
    weakest = min(rules.strength(c) for c in low)
    return [c for c in low if rules.strength(c) == weakest]


def _guards_a_ten(view: SeatView, card: Card) -> bool:
    rules = view.rules
    suit = rules.effective_suit(card)
    if suit == TRUMP:
        return False
    mine = [c for c in view.hand if rules.effective_suit(c) == suit]
    ten = next((c for c in mine if c.rank == "10"), None)
    ace_out = any(c.rank == "A" and rules.effective_suit(c) == suit for c in view.out)
    return ten is not None and card != ten and len(mine) == 2 and ace_out


def _most_points(cards) -> list[Card]:
    top = max(c.value for c in cards)
    return [c for c in cards if c.value == top]


def heuristic(view: SeatView) -> dict[Card, Fraction]:
    """A rule-based player from Skat's playing conventions; the first rule that applies picks
    the cards (equally likely among them), as below.

    Suit and grand games, leading:
      1. *draw trumps*: the declarer holding at least as many trumps as are out leads its
         highest trump;
      2. *cash a sure trick*: a card no unseen card beats in its suit, the most points first
         (a defender leads it only through the declarer, or from any seat when it is an ace or
         a ten);
      3. *lead through the declarer*: a defender with the declarer to play next leads low in
         a side suit, so that the partner sits behind the declarer;
      4. otherwise the lowest side-suit card (the lowest trump when only trumps are left).

    Following:
      5. *smear*: last to play on a trick the partner wins, add the most points (a side-suit
         card before a trump);
      6. *take it*: last to play, when a card wins the trick, the winner with the most points;
      7. *win for sure*: not last, a winning card no unseen card beats, the cheapest;
      8. *follow low*: otherwise the fewest points, the weakest, keeping a guarded ten.

    Null games: the declarer plays the highest card that stays under the trick's winner (or,
    leading, its lowest card); a defender ducks under a declarer's winning card, else plays
    its lowest card.
    """
    rules = view.rules
    legal = view.legal
    if rules.trump.is_null:
        return _evenly(_null_choice(view, legal))
    won = view.winning()
    if won is None:
        trumps = [c for c in legal if rules.is_trump(c)]
        side = [c for c in legal if not rules.is_trump(c)]
        out_trumps = [c for c in view.out if rules.is_trump(c)]
        if view.declarer and trumps and out_trumps and len(trumps) >= len(out_trumps):
            return _evenly([max(trumps, key=rules.strength)])
        # a defender leading with the declarer next plays "through" it
        through = not view.declarer and seat_to_move(view.seat, 1, view.players) == 0
        sure = [c for c in legal if view.top(c)]
        if not view.declarer:
            sure = [c for c in sure if through or c.rank in ("A", "10")]
        if sure:
            return _evenly(_most_points(sure))
        return _evenly(_lowest(view, side or legal))
    seat, _card = won
    winners = [c for c in legal if view.wins_now(c)]
    if view.last and view.friend(seat):
        plain = [c for c in legal if not rules.is_trump(c)] or list(legal)
        return _evenly(_most_points(plain))
    if view.last and winners:
        return _evenly(_most_points(winners))
    if not view.last and not view.friend(seat):
        sure = [c for c in winners if view.top(c)]
        if sure:
            return _evenly(_lowest(view, sure))
    return _evenly(_lowest(view, legal))


def _null_choice(view: SeatView, legal) -> list[Card]:
    rules = view.rules
    won = view.winning()
    if view.declarer:
        if won is None:
            return [min(legal, key=rules.strength)]
        under = [c for c in legal if not view.wins_now(c)]
        return [max(under, key=rules.strength)] if under else [min(legal, key=rules.strength)]
    if won is not None and won[0] == 0:
        under = [c for c in legal if not view.wins_now(c)]
        if under:
            return [max(under, key=rules.strength)]
    return [min(legal, key=rules.strength)]
