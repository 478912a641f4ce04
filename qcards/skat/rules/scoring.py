"""Skat's scoring by the International Skat Order (ISkO, rules of 1999): game values,
matadors, overbidding, the list score and Seeger-Fabian points.

Pure Python (no qiskit), and the one place in qcards that knows these rules: game records
(:mod:`qcards.skat.records.game_record`), the evaluation objectives and the payoff oracle all score
through :func:`settle`.

The rules, as implemented (section numbers of the ISkO):

* **Base values** (4.1.2): diamonds 9, hearts 10, spades 11, clubs 12, grand 24. A suit or
  grand game's value is its base value times its multiplier.
* **Multiplier** (4.1.3-4.1.4): the matadors "with" or "without" N (the unbroken run of top
  trumps the declarer holds, or lacks, counted from the clubs jack over the declarer's twelve
  cards: the ten dealt and the Skat, also in Hand games where the Skat is never seen; the jacks
  alone in a grand), plus one each for game, Hand, Schneider, Schneider announced, Schwarz,
  Schwarz announced and Ouvert.
* **Schneider** (4.1.5, 5.2.3): the declarer at 90 card points or more, or at 30 or fewer;
  **Schwarz**: one side takes every trick (counted by tricks, not by points). Both count for
  whichever side reaches them.
* **Announcements** (4.1.6, 5.1.4): only in Hand games. Schwarz announced includes Schneider
  announced, Ouvert (in a suit or grand game, always Hand) includes Schwarz announced. An
  announced level counts whether reached or not, and so does the level it announces
  (Schneider announced counts Schneider too). The declarer needs 90 points after announcing
  Schneider and every trick after announcing Schwarz; otherwise 61.
* **Null** (4.2): fixed values 23, Hand 35, Ouvert 46, Ouvert Hand 59; won by taking no trick.
* **Overbidding** (5.4): a game whose value falls short of the bid is lost, and its value is
  the lowest multiple of its base value (a null game: of its fixed value) that reaches the bid.
* **List score** (5.7.1): a won game counts its value, a lost one minus twice its value.
* **Seeger-Fabian**: the declarer gets the list score plus 50 for a won game, and minus 50
  for a lost one; every other player at the table gets 40 for each game the declarer loses (30
  at a four-player table).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from qcards.errors import QcardsError
from qcards.skat.rules.cards import SUITS, Card

BASE_VALUES = {"diamonds": 9, "hearts": 10, "spades": 11, "clubs": 12, "grand": 24}
"""Base values of the suit and grand games (ISkO 4.1.2)."""

NULL_VALUES = {(False, False): 23, (True, False): 35, (False, True): 46, (True, True): 59}
"""Null values by (Hand, Ouvert) (ISkO 4.2)."""

GAMES = ("clubs", "spades", "hearts", "diamonds", "grand", "null")
"""The games a declarer can announce (a null ouvert is the null game with ``ouvert``)."""

ANNOUNCEMENTS = ("schneider", "schwarz", "ouvert")
"""What a declarer may announce, lowest first; each includes the ones before it."""

SCHNEIDER_POINTS = 90
"""Card points at which the declarer makes the defenders Schneider (ISkO 4.1.5)."""

SCHNEIDER_LOSS = 30
"""The declarer with this many card points or fewer is Schneider."""

WIN_POINTS = 61
"""Card points a suit or grand game is won with, unless Schneider or Schwarz was announced."""

TRICKS = 10
"""Tricks in a game of Skat (three players with ten cards each)."""

WON_BONUS = 50
"""Seeger-Fabian: the declarer's bonus for a won game, and its penalty for a lost one."""

DEFENDER_BONUS = {3: 40, 4: 30}
"""Seeger-Fabian: what each other player gets for a game the declarer loses, by table size."""

_SUIT_ORDER = ("A", "10", "K", "Q", "9", "8", "7")


class ScoringError(QcardsError, ValueError):
    """A declaration the ISkO does not allow (an announcement outside a Hand game, a bid that
    no game can be worth, ...); the message names the field. One of qcards' errors, so one that
    reaches the command line is one ``error:`` line (a caller that knows which option or spec
    field set the value names it instead: ``qcards declare --bid``, a spec's
    ``declaration.bid``)."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"{field}: {message}")
        self.field = field
        self.reason = message


def _bid_values() -> tuple[int, ...]:
    values = set(NULL_VALUES.values())
    for base in BASE_VALUES.values():
        values.update(base * m for m in range(2, 19))
    return tuple(sorted(v for v in values if v >= 18))


BID_VALUES = _bid_values()
"""Every value a bid may take: 18, 20, 22, 23, 24, 27, 30, ... (every game value from 18 up)."""


def check_bid(bid: int, field: str = "bid") -> int:
    """``bid`` if it is a Skat bid value (:data:`BID_VALUES`), else :class:`ScoringError`."""
    if isinstance(bid, bool) or not isinstance(bid, int):
        raise ScoringError(field, f"must be a whole number, got {bid!r}")
    if bid not in BID_VALUES:
        lower = max((v for v in BID_VALUES if v < bid), default=None)
        higher = min((v for v in BID_VALUES if v > bid), default=None)
        near = " or ".join(str(v) for v in (lower, higher) if v is not None)
        raise ScoringError(field, f"{bid} is not a Skat bid value (the nearest are {near})")
    return bid


@dataclass(frozen=True)
class Declaration:
    """What the declarer announced: the game, Hand or not, the announcements and the bid.

    ``announced`` is normalised to the announcements implied (ISkO 4.1.6): ``("schwarz",)``
    becomes ``("schneider", "schwarz")``; ``("ouvert",)`` in a suit or grand game all three.
    Build with :meth:`make`, which checks the ISkO's rules on declarations.
    """

    game: str
    hand: bool = False
    announced: tuple[str, ...] = ()
    bid: int = 18

    @classmethod
    def make(
        cls, game: str, hand: bool = False, announced: Sequence[str] = (), bid: int = 18
    ) -> Declaration:
        """A checked declaration (:class:`ScoringError` naming the field otherwise).

        ``announced`` must be a list or tuple of strings (a string, a table or a number is
        refused: it is read from records and specs as given)."""
        if not isinstance(game, str) or game not in GAMES:
            raise ScoringError("game", f"unknown game {game!r} (expected {' | '.join(GAMES)})")
        if not isinstance(hand, bool):
            raise ScoringError("hand", f"must be true or false, got {hand!r}")
        if not isinstance(announced, list | tuple) or not all(
            isinstance(a, str) for a in announced
        ):
            raise ScoringError(
                "announced", f'must be a list such as ["schneider"], got {announced!r}'
            )
        announced = tuple(announced)
        for a in announced:
            if a not in ANNOUNCEMENTS:
                raise ScoringError(
                    "announced",
                    f"unknown announcement {a!r} (expected {' | '.join(ANNOUNCEMENTS)})",
                )
        if len(set(announced)) != len(announced):
            raise ScoringError("announced", "an announcement is listed twice")
        if game == "null":
            if set(announced) - {"ouvert"}:
                raise ScoringError(
                    "announced", "a null game announces nothing but ouvert (no Schneider, Schwarz)"
                )
            normal = tuple(announced)
        else:
            if announced and not hand:
                raise ScoringError(
                    "announced",
                    f"{', '.join(announced)} announced in a game that is not Hand: announcements "
                    "are made only in Hand games (ISkO 4.1.6; an ouvert suit or grand game is "
                    "always Hand)",
                )
            top = max((ANNOUNCEMENTS.index(a) for a in announced), default=-1)
            normal = ANNOUNCEMENTS[: top + 1]
        return cls(game, hand, normal, check_bid(bid))

    @property
    def is_null(self) -> bool:
        return self.game == "null"

    @property
    def ouvert(self) -> bool:
        return "ouvert" in self.announced

    @property
    def base_value(self) -> int:
        """The base value (a null game's fixed value)."""
        if self.is_null:
            return NULL_VALUES[(self.hand, self.ouvert)]
        return BASE_VALUES[self.game]

    @property
    def points_needed(self) -> int:
        """Card points the declarer needs in a suit or grand game (61, or 90 after announcing
        Schneider); after announcing Schwarz every trick is needed as well."""
        return SCHNEIDER_POINTS if "schneider" in self.announced else WIN_POINTS

    def wins(self, points: int, tricks: int, num_tricks: int = TRICKS) -> bool:
        """Whether the declarer won the play (overbidding aside) with ``points`` card points
        (the Skat included) and ``tricks`` of ``num_tricks`` tricks."""
        if self.is_null:
            return tricks == 0
        if "schwarz" in self.announced and tricks < num_tricks:
            return False
        return points >= self.points_needed


def matadors(cards: Iterable[Card], game: str) -> int:
    """The matadors of the declarer's twelve cards (ISkO 4.1.3): ``+N`` "with N" (the top N
    trumps held, from the clubs jack down), ``-N`` "without N" (the top N trumps missing
    before the first held one). A grand counts the jacks alone; a null game has none (0)."""
    if game == "null":
        return 0
    held = set(cards)
    order = [Card(s, "J") for s in SUITS]
    if game != "grand":
        suit = {"clubs": "C", "spades": "S", "hearts": "H", "diamonds": "D"}[game]
        order += [Card(suit, r) for r in _SUIT_ORDER]
    with_top = order[0] in held
    run = 0
    for card in order:
        if (card in held) != with_top:
            break
        run += 1
    return run if with_top else -run


@dataclass(frozen=True)
class Settlement:
    """The ISkO result of one game: its value, the verdict and the list score.

    Attributes:
        game_value: the value the game counts with (after overbidding, the lowest multiple of
            the base value that reaches the bid).
        won: the declarer won (overbid games are lost).
        overbid: the game's value fell short of the bid.
        matadors: +N with, -N without (0 in null games).
        multiplier: the levels the value was counted with (1 for null games; the multiple
            of the base value after overbidding).
        list_score: the declarer's list entry: the value when won, minus twice it when lost.
        schneider: the declarer reached 90 or stayed at 30 or fewer (suit and grand games).
        schwarz: one side took every trick (suit and grand games).
    """

    game_value: int
    won: bool
    overbid: bool
    matadors: int
    multiplier: int
    list_score: int
    schneider: bool = False
    schwarz: bool = False

    def seeger_fabian(self, declarer: str, players: Sequence[str]) -> dict[str, int]:
        """Seeger-Fabian points of every player at the table (``players``, the declarer
        among them; three or four): see :func:`seeger_fabian`."""
        return seeger_fabian(self, declarer, players)

    @property
    def declarer_seeger_fabian(self) -> int:
        """The declarer's Seeger-Fabian points: the list score plus 50 won, minus 50 lost."""
        return self.list_score + (WON_BONUS if self.won else -WON_BONUS)


def settle(
    declaration: Declaration,
    matadors: int,
    points: int,
    tricks: int,
    num_tricks: int = TRICKS,
) -> Settlement:
    """Score one finished game (ISkO 4-5).

    Args:
        declaration: the game, Hand, announcements and bid.
        matadors: :func:`matadors` of the declarer's twelve cards (ignored in null games).
        points: the declarer's card points at the end, the Skat included (0..120).
        tricks: the tricks the declarer took (0..``num_tricks``).
        num_tricks: the tricks of the game (10 in Skat).
    """
    d = declaration
    won = d.wins(points, tricks, num_tricks)
    if d.is_null:
        value, multiplier, schneider, schwarz = d.base_value, 1, False, False
        matadors = 0
    else:
        schwarz = tricks in (0, num_tricks)
        schneider = schwarz or points >= SCHNEIDER_POINTS or points <= SCHNEIDER_LOSS
        announced = len(d.announced)  # schneider, schwarz, ouvert: one level each
        levels = [
            abs(matadors),
            1,  # game
            d.hand,
            schneider or "schneider" in d.announced,
            schwarz or "schwarz" in d.announced,
            announced,
        ]
        multiplier = sum(int(x) for x in levels)
        value = d.base_value * multiplier
    overbid = value < d.bid
    if overbid:
        won = False
        multiplier = -(-d.bid // d.base_value)  # the lowest multiple that reaches the bid
        value = d.base_value * multiplier
    return Settlement(
        game_value=value,
        won=won,
        overbid=overbid,
        matadors=matadors,
        multiplier=multiplier,
        list_score=value if won else -2 * value,
        schneider=schneider,
        schwarz=schwarz,
    )


def seeger_fabian(settlement: Settlement, declarer: str, players: Sequence[str]) -> dict[str, int]:
    """Seeger-Fabian points of one game for every player at the table, in ``players``' order:
    the declarer's list score plus 50 won or minus 50 lost; every other player 40 when the
    declarer loses (30 at a four-player table), else 0."""
    if declarer not in players:
        raise ScoringError("declarer", f"{declarer!r} is not at the table ({', '.join(players)})")
    if len(players) not in DEFENDER_BONUS:
        raise ScoringError("players", f"Seeger-Fabian counts 3 or 4 players, got {len(players)}")
    other = 0 if settlement.won else DEFENDER_BONUS[len(players)]
    return {p: settlement.declarer_seeger_fabian if p == declarer else other for p in players}
