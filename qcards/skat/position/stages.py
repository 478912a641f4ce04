"""The stages of a game and what the registers hold at each: shared by the referee, the circuits
and the execution layer.

A :class:`Stage` is a point after which the state can be inspected (one of the paper's
histograms); a :class:`Snapshot` is the content of the game registers there (who was dealt each
card, which trick each card was played in, who took each trick); a :class:`Path` is one way the
game can go under the random model, with its exact probability. Pure Python: no qiskit.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction

from qcards.errors import ModelError
from qcards.skat.position.seat_view import Policy, SeatView, Weights, seat_view
from qcards.skat.position.spec import SKAT, Endgame
from qcards.skat.rules.cards import Card
from qcards.skat.rules.turns import player_to_move

STAGE_KINDS = ("deal", "play", "trick")
"""What a stage follows: the deal (U_ini), one card played (CP), one trick taken (TT)."""


def skat_points(owner: Mapping[Card, str]) -> int:
    """Card points a deal (card -> receiver) puts into the Skat; they belong to the declarer."""
    return sum(c.value for c, who in owner.items() if who == SKAT)


@dataclass(frozen=True)
class Stage:
    """A point in the game after which the state can be inspected (a histogram of the paper).

    ``kind`` is one of :data:`STAGE_KINDS`: ``"deal"`` (after U_ini), ``"play"`` (after the card
    at ``position`` of trick ``trick`` is played; position 0 is the lead) or ``"trick"`` (after
    trick ``trick`` is taken).
    """

    kind: str
    trick: int = 0
    position: int = 0

    @property
    def name(self) -> str:
        if self.kind == "deal":
            return "deal"
        if self.kind == "play":
            return f"trick {self.trick} card {self.position + 1}"
        return f"trick {self.trick} taken"

    def cards_played(self, num_players: int) -> int:
        """How many cards have been played by this stage."""
        if self.kind == "deal":
            return 0
        if self.kind == "play":
            return (self.trick - 1) * num_players + self.position + 1
        return self.trick * num_players

    @property
    def tricks_taken(self) -> int:
        if self.kind == "deal":
            return 0
        return self.trick if self.kind == "trick" else self.trick - 1


def stages(spec: Endgame) -> tuple[Stage, ...]:
    """All stages of a spec's game in order: deal, then per trick each card and the taking."""
    out = [Stage("deal")]
    n = len(spec.players)
    for t in range(1, spec.num_tricks + 1):
        out += [Stage("play", t, i) for i in range(n)]
        out.append(Stage("trick", t))
    return tuple(out)


@dataclass(frozen=True)
class Snapshot:
    """What the game registers hold at a stage.

    Attributes:
        owner: (card, player dealt the card, or :data:`SKAT`) for every card, in the spec's
            card order.
        played: (card, trick the card was played in, 0 = still in hand).
        winners: winner of each trick taken so far.
    """

    owner: tuple[tuple[Card, str], ...]
    played: tuple[tuple[Card, int], ...]
    winners: tuple[str, ...]

    def points_of(self, player: str) -> int:
        """Card points in ``player``'s stack."""
        return sum(c.value for c, where in self.locations().items() if where == ("stack", player))

    def declarer_points(self, spec: Endgame) -> int:
        """The declarer's points: those already taken, its stack and the Skat (S_A, Eq. 18)."""
        return spec.declarer_points + self.points_of(spec.declarer) + skat_points(dict(self.owner))

    def declarer_tricks(self, spec: Endgame) -> int:
        """Tricks the declarer has taken: those of the spec and those won so far."""
        return spec.declarer_tricks + self.winners.count(spec.declarer)

    def declarer_won(self, spec: Endgame) -> bool:
        """Whether the declarer wins with what it holds now (:meth:`Endgame.declarer_wins`)."""
        return spec.declarer_wins(self.declarer_points(spec), self.declarer_tricks(spec))

    def leader(self, spec: Endgame, trick: int) -> str:
        """Who leads ``trick`` (its predecessor's winner, taken from :attr:`winners`, when the
        winner leads)."""
        if trick == 1 or not spec.winner_leads:
            return spec.leader
        return self.winners[trick - 2]

    def to_move(
        self, spec: Endgame, trick: int, position: int, first: Card | None = None
    ) -> tuple[str, tuple[Card, ...]]:
        """The player at ``position`` of ``trick`` and its legal cards: its hand (dealt, not
        yet played) following the led card's suit if it can (:meth:`Rules.legal_cards`);
        ``first`` forces the declarer's first card."""
        leader = self.leader(spec, trick)
        mover = player_to_move(spec, leader, position)
        if first is not None and trick == 1 and mover == spec.declarer:
            return mover, (first,)
        owner, played = dict(self.owner), dict(self.played)
        hand = [c for c in spec.cards if owner[c] == mover and played[c] == 0]
        led = None
        if position:
            led = next(c for c in spec.cards if played[c] == trick and owner[c] == leader)
        return mover, spec.rules.legal_cards(hand, led)

    def view(self, spec: Endgame, trick: int, position: int) -> SeatView:
        """What the player at ``position`` of ``trick`` sees (:class:`SeatView`): the view a
        play model's policy reads, the same one the referee builds
        (:func:`qcards.skat.solvers.outcome_distributions.outcome_distribution`)."""
        owner, played = dict(self.owner), dict(self.played)
        hands = tuple(
            frozenset(c for c in spec.cards if owner[c] == p and played[c] in (0, trick))
            for p in spec.players
        )
        leader, table = self._trick(spec, trick, position, owner, played)
        skat = frozenset(c for c in spec.cards if owner[c] == SKAT) | spec.put_away
        tricks = tuple(self._trick(spec, t, len(spec.players), owner, played)
                       for t in range(1, trick))  # fmt: skip
        return seat_view(spec.rules, frozenset(spec.cards) | spec.put_away, hands, leader, table,
                         skat, tricks)  # fmt: skip

    def _trick(
        self, spec: Endgame, trick: int, count: int, owner: dict, played: dict
    ) -> tuple[int, tuple[Card, ...]]:
        """``trick``'s leader (a seat) and its first ``count`` cards in play order (``owner``
        and ``played``: the snapshot's as dicts)."""
        leader = self.leader(spec, trick)
        seats = [player_to_move(spec, leader, i) for i in range(count)]
        cards = tuple(next(c for c in spec.cards if played[c] == trick and owner[c] == seat)
                      for seat in seats)  # fmt: skip
        return spec.players.index(leader), cards

    def play_weights(
        self,
        spec: Endgame,
        trick: int,
        position: int,
        policy: Policy | None = None,
        first: Card | None = None,
    ) -> Weights:
        """The probability of each card the player at ``position`` of ``trick`` may play: the
        uniform choice of Eq. (9) without ``policy``, else the policy's weights on the mover's
        view (:meth:`view`); a forced ``first`` card has weight 1. Cards of weight 0 are left
        out."""
        _mover, legal = self.to_move(spec, trick, position, first)
        if policy is None or len(legal) == 1:
            return {c: Fraction(1, len(legal)) for c in legal}
        weights = policy(self.view(spec, trick, position))
        return {c: w for c, w in weights.items() if w}

    def trick_winner(self, spec: Endgame, trick: int) -> str:
        """Who takes ``trick``, from the cards on the table (:meth:`Rules.trick_winner`)."""
        owner, played = dict(self.owner), dict(self.played)
        leader, cards = self._trick(spec, trick, len(spec.players), owner, played)
        return player_to_move(spec, spec.players[leader], spec.rules.trick_winner(cards))

    def locations(self) -> dict[Card, tuple[str, str]]:
        """Where each card is: ``("hand"|"table"|"stack", player)``; stacks by trick winner.

        A card in the Skat is at ``(SKAT, SKAT)``.
        """
        owner = dict(self.owner)
        out = {}
        for card, trick in self.played:
            if owner[card] == SKAT:
                out[card] = (SKAT, SKAT)
            elif trick == 0:
                out[card] = ("hand", owner[card])
            elif trick <= len(self.winners):
                out[card] = ("stack", self.winners[trick - 1])
            else:
                out[card] = ("table", owner[card])
        return out


@dataclass(frozen=True)
class Path:
    """One way the game can go: a deal and the cards played, with its probability (random model).

    ``owner`` is the deal (card -> player or :data:`SKAT`); ``plays`` lists
    ``(trick, player, card)`` in play order; ``winners`` the trick winners.
    """

    probability: Fraction
    owner: Mapping[Card, str]
    plays: tuple[tuple[int, str, Card], ...]
    winners: tuple[str, ...]

    def snapshot(self, spec: Endgame, stage: Stage) -> Snapshot:
        count = stage.cards_played(len(spec.players))
        played = {c: 0 for c in spec.cards}
        for trick, _player, card in self.plays[:count]:
            played[card] = trick
        return Snapshot(
            owner=tuple((c, self.owner[c]) for c in spec.cards),
            played=tuple((c, played[c]) for c in spec.cards),
            winners=self.winners[: stage.tricks_taken],
        )

    def declarer_points(self, spec: Endgame) -> int:
        """The declarer's points at the end: those already taken, its tricks and the Skat."""
        n = len(spec.players)
        won = sum(
            card.value
            for k, (_t, _p, card) in enumerate(self.plays)
            if self.winners[k // n] == spec.declarer
        )
        return spec.declarer_points + won + skat_points(self.owner)

    def declarer_won(self, spec: Endgame) -> bool:
        """Whether the declarer wins the game on this path (:meth:`Endgame.declarer_wins`)."""
        tricks = spec.declarer_tricks + self.winners.count(spec.declarer)
        return spec.declarer_wins(self.declarer_points(spec), tricks)


def check_first(spec: Endgame, first: Card | None) -> None:
    if first is None:
        return
    if first not in spec.hands[spec.declarer]:
        raise ModelError(
            f"first card {first} is not in the declarer's known hand "
            f"({' '.join(map(str, spec.hands[spec.declarer])) or 'empty'})"
        )
    if spec.leader != spec.declarer:
        raise ModelError(
            f"fixing the first card needs the declarer {spec.declarer} to lead the first trick "
            f"(the leader is {spec.leader})"
        )
