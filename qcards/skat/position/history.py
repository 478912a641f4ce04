"""What the cards already played say about the deal: the posterior of a history.

A history is the cards played so far in this deal, in order (``"B:SA C:S7 A:SK"``), starting
from the position a spec describes. Under the random-play model (every player picks uniformly
among its legal cards, the model of the paper's circuits, Eq. 9) the history has, for a deal d
of the unknown cards, the likelihood

.. math:: L(d) = \\prod_{\\text{plays}} \\frac{[\\text{the card is legal in that hand}]}
                                            {\\#\\text{legal cards of that hand}},

and Bayes' rule gives the posterior :math:`P(d \\mid H) \\propto P(d)\\,L(d)`. Every factor is
of a form the prior (:mod:`qcards.skat.position.prior`) already speaks:

* a card played from an unknown hand is *held* by its player;
* a failure to follow suit makes the player *void* in the led (effective) suit;
* following suit has probability 1/(cards of the led suit in the hand then), a count factor on
  how many of the remaining unknown cards of that suit the player was dealt; leading, or
  discarding when void, has probability 1/(hand size), the same for every deal.

:func:`after_history` returns the rest of the game as a new spec: the played cards removed, the
completed tricks' points and tricks credited, the next leader, and the posterior as its prior.
The referee and the circuits then evaluate that spec exactly like any other. Pure Python.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from qcards.errors import ModelError
from qcards.skat.position.prior import CountFactor, Prior, category_cards, partition_function
from qcards.skat.position.seat_view import SeatView
from qcards.skat.position.spec import Endgame
from qcards.skat.rules.cards import FULL_DECK, SUIT_NAMES, TRUMP, Card, CardError
from qcards.skat.rules.turns import player_leads_next, player_to_move

OPTION = "--history"
"""How messages name the history (the command-line option; ``history`` in the library)."""


def parse_history(text: str, spec: Endgame) -> tuple[tuple[str, Card], ...]:
    """``"B:SA C:S7 A:SK"`` as ``(player, card)`` pairs (raises :class:`ModelError`)."""
    out = []
    for k, item in enumerate(str(text).split(), start=1):
        player, sep, card = item.partition(":")
        if not sep or player not in spec.players:
            raise ModelError(
                f"{OPTION}: play {k} {item!r}: write PLAYER:CARD with a player of "
                f"{', '.join(spec.players)}, e.g. {spec.leader}:SA"
            )
        try:
            out.append((player, Card.parse(card)))
        except CardError as exc:
            raise ModelError(f"{OPTION}: play {k} {item!r}: {exc}") from None
    return tuple(out)


@dataclass(frozen=True)
class Moment:
    """Where a game stands after a history, as the seat to move sees it.

    Attributes:
        spec: the game from the start of the current trick: the completed tricks' cards
            removed and their points and tricks credited, the current trick's leader, the cards
            already played to the current trick still in their players' hands (an unknown one
            moved into its player's known hand: the table has seen it), and the posterior over
            the deal given every play of the history as its prior.
        trick: the cards already played to the current trick, in play order (empty at a trick
            boundary); every deal of ``spec`` replays them.
    """

    spec: Endgame
    trick: tuple[tuple[str, Card], ...]

    @property
    def mover(self) -> str:
        """The player whose turn it is."""
        return player_to_move(self.spec, self.spec.leader, len(self.trick))

    @property
    def opening(self) -> tuple[Card, ...]:
        """The current trick's cards, as the forced opening plays of :attr:`spec`."""
        return tuple(card for _, card in self.trick)

    def legal_cards(self) -> tuple[Card, ...]:
        """The mover's legal cards (:class:`ModelError` when its hand is not all known)."""
        spec, mover = self.spec, self.mover
        if spec.sizes.get(mover):
            raise ModelError(
                f"{OPTION}: advice for {mover}, whose turn it is, needs {mover}'s cards: the "
                f"spec deals {spec.sizes[mover]} of them at random (list them under [hands])"
            )
        played = set(self.opening)
        hand = [c for c in spec.hands[mover] if c not in played]
        if not hand:  # the callers say the game's result first (referee.game_over)
            raise ModelError(f"{OPTION}: the game is over, every card has been played")
        return spec.rules.legal_cards(hand, self.opening[0] if self.trick else None)

    def view(self, tricks: tuple[tuple[int, tuple[Card, ...]], ...] = ()) -> SeatView:
        """The mover's view: its hand, the open trick, every card not in :attr:`spec` as
        played, every other card it does not hold as unseen; ``tricks`` the finished tricks
        it has seen (:attr:`SeatView.tricks`; :func:`mover_view` passes the history's)."""
        spec = self.spec
        players = spec.players
        hand = frozenset(spec.hands[self.mover]) - frozenset(self.opening)
        in_play = frozenset(spec.cards)
        unseen = in_play - hand - frozenset(self.opening)
        return SeatView(spec.rules, players.index(self.mover), len(players), hand, self.opening,
                        players.index(spec.leader), frozenset(FULL_DECK) - in_play, unseen,
                        tricks)  # fmt: skip


def after_history(spec: Endgame, history: Sequence[tuple[str, Card]] | str) -> Endgame:
    """The rest of the game after ``history``, with the posterior over the deal as its prior.

    The history must follow the turn order from the spec's leader, play cards in play (each
    once), keep the rules (a known hand that could follow suit must), be possible for at least
    one deal under the spec's prior, and end at the end of a trick (an endgame spec starts at
    a trick; :func:`moment` takes any history). Every violation is a :class:`ModelError`
    naming the play. The returned spec writes its posterior as a ``[prior]`` table
    (:meth:`Endgame.to_toml`), likelihood included.
    """
    history = as_plays(spec, history)
    n = len(spec.players)
    if len(history) % n:
        raise ModelError(
            f"{OPTION}: {len(history)} cards played; a history must end at the end of a trick "
            f"({n} cards each), since the rest of the game starts at a trick"
        )
    return moment(spec, history).spec


def moment(
    spec: Endgame, history: Sequence[tuple[str, Card]] | str, inference: bool = True
) -> Moment:
    """Where the game stands after ``history``, which may end in the middle of a trick: the
    spec from the current trick's start with the posterior given every play (:class:`Moment`).
    ``inference=False`` keeps only what the plays prove (the cards played, the voids) and
    drops the random-play likelihood of following suit: every deal consistent with the plays
    is then equally likely (as the spec's prior weighs it).

    Raises:
        ModelError: as :func:`after_history`, for any play that breaks a rule.
    """
    history = as_plays(spec, history)
    players, n, rules = spec.players, len(spec.players), spec.rules
    if len(history) > n * spec.num_tricks:
        raise ModelError(
            f"{OPTION}: {len(history)} cards played; the game has {n * spec.num_tricks} to play"
        )

    in_hand = {p: set(spec.hands[p]) for p in players}  # known cards not yet played
    pinned: dict[str, list[Card]] = {r: [] for r in spec.sizes}  # unknown cards played, by player
    voids: dict[str, set[str]] = {p: set() for p in players}
    follows: list[tuple[str, str, int]] = []  # (player, led effective suit, play index)
    leader, points, tricks = spec.leader, spec.declarer_points, spec.declarer_tricks
    done = len(history) - len(history) % n  # plays in completed tricks
    for t in range(0, len(history), n):
        trick = history[t : t + n]
        for i, (player, card) in enumerate(trick):
            k = t + i
            where = f"{OPTION}: play {k + 1} ({player}:{card})"
            expected = player_to_move(spec, leader, i)
            if player != expected:
                raise ModelError(f"{where}: it is {expected}'s turn")
            if any(c == card for _, c in history[:k]):
                raise ModelError(f"{where}: {card} was already played")
            led = rules.effective_suit(trick[0][1]) if i else None
            if rules.effective_suit(card) in voids[player]:
                raise ModelError(f"{where}: {player} failed to follow this suit before")
            if card in in_hand[player]:
                in_hand[player].discard(card)
            elif card in spec.unknown and len(pinned.get(player, ())) < spec.sizes.get(player, 0):
                if not spec.prior.card_weight(spec, card, player):
                    raise ModelError(f"{where}: the spec's prior rules out {player} holding it")
                pinned[player].append(card)
            else:
                owner = spec.owner_of_known(card)
                why = f"it is in {owner}'s known hand" if owner else f"{player} cannot hold it"
                raise ModelError(f"{where}: {why}")
            if led is None:
                continue
            if rules.effective_suit(card) == led:
                follows.append((player, led, k))
                continue
            shown = [c for c in in_hand[player] if rules.effective_suit(c) == led]
            if shown:
                raise ModelError(
                    f"{where}: {player} must follow with {' '.join(map(str, rules.sorted(shown)))}"
                )
            voids[player].add(led)
        if len(trick) < n:
            break
        cards = [c for _, c in trick]
        winner = trick[rules.trick_winner(cards)][0]
        if winner == spec.declarer:
            points += sum(c.value for c in cards)
            tricks += 1
        leader = player_leads_next(spec, winner)

    gone = {c for _, c in history[:done]}  # the completed tricks' cards
    current = history[done:]
    revealed = {p: tuple(c for q, c in current if q == p and c in spec.unknown) for p in players}
    rest = dataclasses.replace(
        spec,
        leader=leader,
        declarer_points=points,
        declarer_tricks=tricks,
        hands={p: tuple(c for c in spec.hands[p] if c not in gone) + revealed[p] for p in players},
        unknown=tuple(c for c in spec.unknown if c not in {c for _, c in history}),
        sizes={
            r: spec.sizes[r] - len(pinned[r]) for r in spec.sizes if spec.sizes[r] > len(pinned[r])
        },
        prior=Prior(),
    )
    follows = follows if inference else []
    rest = dataclasses.replace(rest, prior=_posterior(spec, rest, history, voids, follows))
    if not partition_function(rest):
        raise ModelError(f"{OPTION}: no deal is consistent with this history and the spec's prior")
    return Moment(rest, tuple(current))


def mover_view(spec: Endgame, history: Sequence[tuple[str, Card]] | str) -> SeatView:
    """The view of the seat to move after ``history`` (:meth:`Moment.view`), the history's
    finished tricks among its :attr:`~qcards.skat.position.seat_view.SeatView.tricks`, each led
    by its first player (seats numbered in ``spec.players``' order, the declarer 0).

    Raises:
        ModelError: as :func:`moment`.
    """
    plays = as_plays(spec, history)
    return moment(spec, plays).view(finished_tricks(spec, plays))


def finished_tricks(
    spec: Endgame, plays: Sequence[tuple[str, Card]]
) -> tuple[tuple[int, tuple[Card, ...]], ...]:
    """The finished tricks of ``plays`` (checked ``(player, card)`` pairs) as
    :attr:`~qcards.skat.position.seat_view.SeatView.tricks` holds them: each trick's first
    player's seat in ``spec.players``' order, and its cards in play order."""
    n = len(spec.players)
    finished = len(plays) - len(plays) % n
    return tuple(
        (spec.players.index(plays[t][0]), tuple(card for _, card in plays[t : t + n]))
        for t in range(0, finished, n)
    )


def as_plays(spec: Endgame, history: Sequence[tuple[str, Card]] | str) -> tuple:
    """The history as ``(player, card)`` pairs (a string is parsed: :func:`parse_history`)."""
    return parse_history(history, spec) if isinstance(history, str) else tuple(history)


def _category_name(suit: str) -> str:
    return "trumps" if suit == TRUMP else SUIT_NAMES[suit]


def _posterior(
    spec: Endgame,
    rest: Endgame,
    history: tuple[tuple[str, Card], ...],
    voids: dict[str, set[str]],
    follows: list[tuple[str, str, int]],
) -> Prior:
    """The prior of the rest of the game: the spec's prior without the played cards, the
    history's voids, and one count factor 1/(cards of the led suit held) per followed card."""
    rules, prior = spec.rules, spec.prior
    played = {c for _, c in history}
    played_by = {p: [c for q, c in history if q == p] for p in spec.players}
    void = {p: set(prior.void.get(p, ())) for p in spec.players}
    for p, suits in voids.items():
        void[p] |= {_category_name(s) for s in suits}
    at_least = {
        p: {
            name: max(0, least - len(category_cards(rules, name, played_by[p])))
            for name, least in minimums.items()
        }
        for p, minimums in prior.at_least.items()
    }
    likelihood = []
    for f in prior.likelihood:
        # the spec's own count factors, on the cards not played: the holder's played ones count
        m = sum(1 for c in played_by.get(f.receiver, ()) if c in f.cards)
        rest_cards = frozenset(c for c in f.cards if c not in played)
        top = min(len(rest_cards), rest.sizes.get(f.receiver, 0))
        likelihood.append(CountFactor(f.receiver, rest_cards, f.factors[m : m + top + 1]))
    for player, led, k in follows:
        # cards of the led suit in the player's hand at play k: its known ones not played
        # before, the unknown ones it plays from k on (pinned by the history), and those of
        # the remaining unknown cards the rest of the deal gives it (the factor's count)
        before = {c for _, c in history[:k]}
        known = [c for c in spec.hands[player] if c not in before]
        later = [c for c in played_by[player] if c not in before and c in spec.unknown]
        held = sum(1 for c in (*known, *later) if rules.effective_suit(c) == led)
        pool = frozenset(c for c in rest.unknown if rules.effective_suit(c) == led)
        top = min(len(pool), rest.sizes.get(player, 0))
        likelihood.append(
            CountFactor(player, pool, tuple(Fraction(1, held + m) for m in range(top + 1)))
        )
    return Prior(
        void={p: tuple(sorted(v)) for p, v in void.items() if v},
        holds={
            r: tuple(c for c in cards if c not in played)
            for r, cards in prior.holds.items()
            if any(c not in played for c in cards)
        },
        at_least={p: m for p, m in at_least.items() if any(m.values())},
        weight={
            r: {c: w for c, w in weights.items() if c not in played}
            for r, weights in prior.weight.items()
            if any(c not in played for c in weights)
        },
        # a factor on a player who is dealt none of the rest (or on no card) is a constant
        likelihood=tuple(f for f in likelihood if f.receiver in rest.receivers and f.cards),
    )
