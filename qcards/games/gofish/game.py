"""The referee of one Quantum Go Fish game: whose turn, which asks are legal, which answers are
free or forced, and when the game ends.

Rules as enforced (see the README's "Quantum Go Fish" section for the reading of the sources):

- 2 to 8 players in seat order; the first player listed asks first, and after every answer
  (yes or no) the turn passes to the next seat. A player with no cards left cannot ask (an ask
  commits the asker to holding a card), so the turn skips them.
- As many suits as players. A suit gets its name from the first ask that uses it; once every
  suit has a name, a new name is refused.
- A player may ask another player for a suit only if they might hold a card of it; the ask
  commits them to holding at least one.
- An answer is allowed if some deal agrees with it. Answering against every deal is not refused:
  it is a paradox and ends the game with no winner.
- After a consistent answer: if every count is provable, the asker wins ("determined");
  otherwise every player who provably holds four cards of one suit, named or not, wins
  ("four"; more than one such player share the win).

Variants (keyword arguments of :class:`GoFish`, any combination):

- ``no_four``: no hand may start with four cards of one suit.
- ``lose_a_turn``: an answer no deal agrees with is *refused* instead of ending the game. The
  move keeps the answer as said (``Move.refused``), the only consistent answer is applied
  (``Move.applied``), and its author sits out the next turn they would take (penalties add
  up; an empty hand takes no turns anyway, and never fills again). No paradox can happen.
- ``playing_on`` (implies ``no_four``, which is switched on): after every answer, each player
  who provably holds four cards of one suit lays them down (``Move.laid_down``); those cards
  leave the game, so nobody can hold or ask for that suit again. The only win is running out
  of cards: every player whose hand is empty after an answer (by giving the last card or by
  laying down) wins ("empty"; several share). "determined" and "four" are not wins, and the
  game may go on for ever. Under ``no_four`` nobody ever holds four of a suit nobody has
  named (those counts never change from the deal), so only named suits are laid down.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

from qcards.games.gofish.errors import RuleError
from qcards.games.gofish.knowledge import Knowledge

YES, NO = "yes", "no"
ANSWERS = (YES, NO)
MIN_PLAYERS, MAX_PLAYERS = 2, 8


@dataclass(frozen=True)
class Ask:
    """A legal ask; ``suit`` None stands for any suit nobody has named yet."""

    asker: str
    target: str
    suit: str | None


@dataclass(frozen=True)
class Move:
    """One ask and its answer, with the answers that were consistent at that moment.

    Attributes:
        asker: who asked.
        target: who was asked.
        suit: the suit's name.
        answer: the answer as given (also when it was refused or a paradox).
        allowed: the consistent answers.
        refused: the answer was inconsistent and refused (variant ``lose_a_turn``).
        laid_down: (player, suit) of every four laid down after the answer, in seat order
            (variant ``playing_on``).
    """

    asker: str
    target: str
    suit: str
    answer: str
    allowed: tuple[str, ...]
    refused: bool = False
    laid_down: tuple[tuple[str, str], ...] = ()

    @property
    def forced(self) -> bool:
        """Only one answer was consistent."""
        return len(self.allowed) == 1

    @property
    def applied(self) -> str:
        """The answer that took effect: the only consistent one if ``answer`` was refused."""
        return self.allowed[0] if self.refused else self.answer

    @property
    def paradox(self) -> bool:
        """The answer was inconsistent and ended the game (it was not refused)."""
        return self.answer not in self.allowed and not self.refused


@dataclass(frozen=True)
class Outcome:
    """``status`` is "ongoing", "win" or "paradox"; ``reason`` is "determined", "four", "empty"
    (variant ``playing_on``: the winners ran out of cards) or None."""

    status: str
    winners: tuple[str, ...] = ()
    reason: str | None = None

    def describe(self) -> str:
        """One line for people: who won and why, the paradox, or "ongoing"."""
        if self.status == "paradox":
            return "paradox (no deal agrees with the last answer): everybody loses"
        if self.status == "ongoing":
            return "ongoing"
        verb = "wins" if len(self.winners) == 1 else "win"
        why = {
            "determined": "every hand is determined",
            "four": "provably holds four cards of one suit",
            "empty": "no cards left",
        }[self.reason or ""]
        return f"{', '.join(self.winners)} {verb} ({why})"


ONGOING = Outcome("ongoing")


def variant_names(options: Mapping[str, bool]) -> tuple[str, ...]:
    """The variant options that are on (keyword arguments of :class:`GoFish`, in their order)
    as command-line words: ``{"no_four": True, ...}`` gives ``("no-four", ...)``."""
    return tuple(key.replace("_", "-") for key, on in options.items() if on)


@dataclass(frozen=True)
class Hand:
    """What is provable about one hand.

    Attributes:
        size: cards held.
        known: provable minimum per suit, for the suits where it is positive.
        excluded: suits the player provably holds none of.
        unknown: cards whose suit is not provable (``size`` minus the known minimums).

    Suits nobody has named yet appear as ``?1``, ``?2``, ... in the order they would be named
    next. Unnamed suits are interchangeable, so each of them has the same entry.
    """

    size: int
    known: Mapping[str, int]
    excluded: tuple[str, ...]
    unknown: int


class GoFish:
    """A game in progress.

    Args:
        players: names in seat order; the first asks first.
        no_four: the variant in which no hand may start with four cards of one suit.
        lose_a_turn: the variant in which an inconsistent answer is refused and its author
            sits out their next turn (see the module docstring).
        playing_on: the variant in which fours are laid down and the only win is running out
            of cards; it implies ``no_four`` (``self.no_four`` is then True whatever is passed).

    Raises:
        RuleError: for fewer than 2 or more than 8 players, or a repeated or empty name.
    """

    def __init__(
        self,
        players: Sequence[str],
        no_four: bool = False,
        lose_a_turn: bool = False,
        playing_on: bool = False,
    ) -> None:
        players = tuple(players)
        if not MIN_PLAYERS <= len(players) <= MAX_PLAYERS:
            raise RuleError(
                f"{len(players)} players: the game needs {MIN_PLAYERS} to {MAX_PLAYERS}"
            )
        repeated = sorted({p for p in players if players.count(p) > 1})
        if repeated:
            raise RuleError(f"player {repeated[0]!r} is listed twice")
        if not all(players):
            raise RuleError("a player name is empty")
        self.players = players
        self.no_four = no_four or playing_on
        self.lose_a_turn = lose_a_turn
        self.playing_on = playing_on
        self._seat = {name: i for i, name in enumerate(players)}
        self._suits: list[str] = []
        self._moves: list[Move] = []
        self._skips = [0] * len(players)
        self._knowledge = Knowledge.start(len(players), self.no_four)
        self._outcome = ONGOING
        self._turn = 0

    # -- state ---------------------------------------------------------------------------

    @property
    def suits(self) -> tuple[str, ...]:
        """Suit names in the order they were first asked for."""
        return tuple(self._suits)

    @property
    def labels(self) -> tuple[str, ...]:
        """Every suit: the names in naming order, then ``?1``, ``?2``, ... for unnamed ones."""
        return tuple(self._suit_labels())

    @property
    def moves(self) -> tuple[Move, ...]:
        return tuple(self._moves)

    @property
    def skips(self) -> dict[str, int]:
        """Turns each player still has to sit out (variant ``lose_a_turn``; else all 0)."""
        return dict(zip(self.players, self._skips, strict=True))

    @property
    def laid_down(self) -> tuple[tuple[str, str], ...]:
        """(player, suit) of every four laid down so far, in order (variant ``playing_on``)."""
        return tuple(cell for m in self._moves for cell in m.laid_down)

    @property
    def variant_names(self) -> tuple[str, ...]:
        """The variants in force as command-line words (``"no-four"``, ``"lose-a-turn"``,
        ``"playing-on"``), in that order."""
        return variant_names(self.variants)

    @property
    def variants(self) -> dict[str, bool]:
        """The variant options, as keyword arguments of :class:`GoFish`."""
        return {
            "no_four": self.no_four,
            "lose_a_turn": self.lose_a_turn,
            "playing_on": self.playing_on,
        }

    @property
    def knowledge(self) -> Knowledge:
        """The exact knowledge (after a paradox: the last consistent one, before the answer)."""
        return self._knowledge

    @property
    def outcome(self) -> Outcome:
        return self._outcome

    @property
    def over(self) -> bool:
        return self._outcome.status != "ongoing"

    @property
    def turn(self) -> str | None:
        """The player who asks next (None once the game is over)."""
        if self.over:
            return None
        return self.players[self._turn]

    def copy(self) -> GoFish:
        """An independent copy (the knowledge is immutable and shared)."""
        twin = copy.copy(self)
        twin._suits = list(self._suits)
        twin._moves = list(self._moves)
        twin._skips = list(self._skips)
        return twin

    # -- asks and answers ----------------------------------------------------------------

    def legal_asks(self) -> tuple[Ask, ...]:
        """Every ask the player to move may make (none once the game is over)."""
        asker = self.turn
        if asker is None:
            return ()
        a = self._seat[asker]
        suits: list[tuple[str | None, int]] = [(name, s) for s, name in enumerate(self._suits)]
        if len(self._suits) < len(self.players):
            suits.append((None, len(self._suits)))  # unnamed suits are interchangeable
        return tuple(
            Ask(asker, target, name)
            for name, s in suits
            if self._knowledge.count_range(a, s)[1] > 0
            for target in self.players
            if target != asker
        )

    def allowed_answers(self, asker: str, target: str, suit: str) -> frozenset[str]:
        """The answers some deal agrees with (never empty for a legal ask).

        Raises:
            RuleError: if the ask itself breaks a rule.
        """
        a, t, s = self._check_ask(asker, target, suit)
        return frozenset(self._allowed(self._knowledge.holds_some(a, s), t, s))

    def play(self, asker: str, target: str, suit: str, answer: str) -> Move:
        """Ask, answer, and move on to the next seat (or end the game).

        An answer no deal agrees with ends the game as a paradox; it is not an error. Under
        ``lose_a_turn`` it is refused instead: the consistent answer is applied and the target
        sits out their next turn. Under ``playing_on`` every provable four is laid down after
        the answer.

        Raises:
            RuleError: if the ask breaks a rule, the answer is not yes/no, or the game is over.
        """
        a, t, s = self._check_ask(asker, target, suit)
        if answer not in ANSWERS:
            raise RuleError(f"the answer must be {YES!r} or {NO!r}, not {answer!r}")
        asked = self._knowledge.holds_some(a, s)
        allowed = self._allowed(asked, t, s)
        if s == len(self._suits):
            self._suits.append(suit)
        refused = self.lose_a_turn and answer not in allowed
        move = Move(asker, target, suit, answer, allowed, refused)
        if move.paradox:
            self._moves.append(move)
            self._knowledge = asked
            self._outcome = Outcome("paradox")
            return move
        knowledge = asked.answer(a, t, s, move.applied == YES)
        if self.playing_on:
            laid = knowledge.four_cells()
            for p, x in laid:
                knowledge = knowledge.lay_down(p, x)
            labels = self._suit_labels()
            move = replace(move, laid_down=tuple((self.players[p], labels[x]) for p, x in laid))
        self._knowledge = knowledge
        self._skips[t] += move.refused
        self._moves.append(move)
        self._outcome = self._judge(a)
        if not self.over:
            self._turn = self._next_seat(a)
        return move

    def _judge(self, asker: int) -> Outcome:
        """The outcome after a consistent answer to ``asker``'s ask."""
        k = self._knowledge
        if self.playing_on:
            empty = tuple(name for p, name in enumerate(self.players) if k.hand_size(p) == 0)
            return Outcome("win", empty, "empty") if empty else ONGOING
        if k.determined:
            return Outcome("win", (self.players[asker],), "determined")
        if fours := k.fours():
            return Outcome("win", tuple(self.players[p] for p in fours), "four")
        return ONGOING

    def hands(self) -> dict[str, Hand]:
        """What is provable about each hand, by player name (seat order)."""
        k = self._knowledge
        labels = self._suit_labels()
        return {
            name: Hand(
                size=k.hand_size(p),
                known={lab: x for lab, x in zip(labels, k.counts.minimum[p], strict=True) if x},
                excluded=tuple(labels[s] for s in k.excluded(p)),
                unknown=k.unknown(p),
            )
            for p, name in enumerate(self.players)
        }

    # -- helpers -------------------------------------------------------------------------

    def _suit_labels(self) -> list[str]:
        unnamed = len(self.players) - len(self._suits)
        return self._suits + [f"?{k + 1}" for k in range(unnamed)]

    def _next_seat(self, seat: int) -> int:
        """The next seat after ``seat`` whose player holds a card and has no turn to sit out;
        a player passed over with a turn to sit out has now sat it out. The asker always holds
        a card and owes no turn (only the target of an ask earns a penalty), so this ends."""
        n = len(self.players)
        while True:
            seat = (seat + 1) % n
            if self._knowledge.hand_size(seat) == 0:
                continue
            if self._skips[seat]:
                self._skips[seat] -= 1
                continue
            return seat

    def _player(self, name: str) -> int:
        if name not in self._seat:
            raise RuleError(f"unknown player {name!r} (players: {', '.join(self.players)})")
        return self._seat[name]

    def _check_ask(self, asker: str, target: str, suit: str) -> tuple[int, int, int]:
        """Seats of asker and target and the suit's index, or a RuleError naming the broken rule."""
        if self.over:
            raise RuleError("the game is over")
        a, t = self._player(asker), self._player(target)
        if asker != self.turn:
            raise RuleError(f"it is {self.turn}'s turn, not {asker}'s")
        if a == t:
            raise RuleError(f"{asker} asks themselves")
        if suit in self._suits:
            s = self._suits.index(suit)
        elif len(self._suits) == len(self.players):
            raise RuleError(
                f"{suit!r} would be a new suit, but all {len(self.players)} suits are named "
                f"({', '.join(self._suits)})"
            )
        elif not suit or suit.startswith("?") or any(c.isspace() for c in suit):
            raise RuleError(f"{suit!r} is not a usable suit name ('?' marks suits not named yet)")
        else:
            s = len(self._suits)
        if self._knowledge.count_range(a, s)[1] == 0:
            if s < len(self._suits):
                raise RuleError(f"{asker} provably holds no {suit}, so cannot ask for it")
            raise RuleError(
                f"{asker} provably holds no card of an unnamed suit, so cannot name {suit!r}"
            )
        return a, t, s

    @staticmethod
    def _allowed(asked: Knowledge, target: int, suit: int) -> tuple[str, ...]:
        low, high = asked.count_range(target, suit)
        return tuple(answer for answer, ok in ((YES, high > 0), (NO, low == 0)) if ok)
