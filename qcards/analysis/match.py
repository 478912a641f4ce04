"""Matches: complete games of Skat between players, on duplicate deals, scored in Seeger-Fabian
points with paired 95% intervals.

A *player* is a play model with its budget and beliefs
(:mod:`qcards.analysis.match_players`: ``heuristic``, ``random``, ``softmax`` or
``softmax:FILE`` with fitted parameters, ``adversarial:20`` for PIMC with 20 worlds a card,
``best-response:20:heuristic`` for the declarer's exact best response to heuristic opponents
in the last tricks). Every deal is played three
times with the players rotated through the seats (forehand, middlehand, rearhand), so each
player holds every hand once and luck of the deal cancels in the differences between players.
A game goes as at the table: the auction and the declarer's choice (Hand or a pick-up, the
game and the discard) by each player's bidder (:mod:`qcards.skat.players.bidders`: the club rules of
:mod:`qcards.skat.rules.bidding_rules` unless ``bidding`` says otherwise, the same for every player
then, so that a match compares card play), ten tricks in which each seat plays its player's
card (chosen from what its seat has seen), and the ISkO settlement
(:func:`qcards.skat.rules.scoring.settle`; Seeger-Fabian points, a deal everyone passes scores 0).

Every game is written as a record (:mod:`qcards.skat.records.game_record`) that ``qcards score``
replays card by card, and the whole match repeats from its seed.

A match is planned before it plays (:func:`plan_match`, :mod:`qcards.plan`): its time from each
player's measured seconds a game (:func:`~qcards.analysis.match_players.game_seconds`), the
games it holds and each searching player's worlds held at a decision against the memory
limit. Past the memory limit it is refused, past the time limit too unless forced.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass, field, replace
from functools import partial
from pathlib import Path
from typing import Any, cast

import numpy as np

from qcards.analysis import exec_player
from qcards.analysis.exec_player import EXEC
from qcards.analysis.match_journal import add_deal, journal_header, read_journal, start_journal
from qcards.analysis.match_players import (
    DEFAULT_WORLDS,
    HAND,
    Player,
    bidding_seconds,
    decision_bytes,
    game_seconds,
    parse_player,
    play,
    seat_spec,
)
from qcards.analysis.seat_players import Decision
from qcards.errors import FileError, ParameterError
from qcards.execution.sweeps import CORES, LOCAL, sweep
from qcards.files import write_text
from qcards.intervals import mean_interval
from qcards.plan import Plan, check, current_limits
from qcards.skat.deals.sample import fresh_seed
from qcards.skat.players.bidders import get_bidder
from qcards.skat.position.seat_view import table_view
from qcards.skat.records.game_record import parse_record, record_toml
from qcards.skat.rules import bidding_rules
from qcards.skat.rules.cards import FULL_DECK, Card, Trump, points, rules_of
from qcards.skat.rules.scoring import Declaration, matadors, settle
from qcards.skat.rules.table import Table

SEATS = 3

GAME_BYTES = 4096
"""Bytes a played game takes until the match ends: its :class:`Game` and its record's text
(tracemalloc: 3.9 KB a game over a match of 100 deals), the deal's task and result included."""


@dataclass(frozen=True)
class Game:
    """One game of a match: who sat where, what was declared, and the Seeger-Fabian points of
    each player (by its index in the match); ``record`` is the game's record (TOML), ``None``
    for a deal everyone passed."""

    deal: int
    rotation: int
    seats: tuple[int, ...]  # player index at forehand, middlehand, rearhand
    declarer: int | None  # player index
    game: str | None
    bid: int | None
    won: bool | None
    declarer_points: int | None
    points: tuple[int, ...]  # Seeger-Fabian by player index
    record: str | None = field(default=None, repr=False)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Game:
        """The game of :func:`dataclasses.asdict`'s object (a journal's line)."""
        return cls(**{**data, "seats": tuple(data["seats"]), "points": tuple(data["points"])})


@dataclass(frozen=True)
class MatchResult:
    """The games and each player's Seeger-Fabian points per game with paired intervals."""

    players: tuple[Player, ...]
    deals: int
    seed: int
    games: tuple[Game, ...]

    def per_deal(self) -> np.ndarray:
        """(deals, players): each player's points on each deal, summed over its rotations."""
        out = np.zeros((self.deals, len(self.players)))
        for g in self.games:
            out[g.deal] += g.points
        return out

    def means(self) -> list[tuple[float, tuple[float, float]]]:
        """Each player's mean points per game with the 95% interval over the deals."""
        per_game = self.per_deal() / SEATS
        return [_mean_interval(per_game[:, i]) for i in range(len(self.players))]

    def differences(self) -> list[tuple[int, int, float, tuple[float, float]]]:
        """Every pair's mean difference in points per game, paired by deal, with its 95%
        interval: (i, j, mean of i minus j, interval)."""
        per_game = self.per_deal() / SEATS
        out = []
        for i in range(len(self.players)):
            for j in range(i + 1, len(self.players)):
                mean, ci = _mean_interval(per_game[:, i] - per_game[:, j])
                out.append((i, j, mean, ci))
        return out

    def to_json(self) -> dict[str, Any]:
        return {
            "players": [p.label for p in self.players],
            "deals": self.deals,
            "seed": self.seed,
            "games": len(self.games),
            "played": sum(g.declarer is not None for g in self.games),
            "seeger_fabian_per_game": [
                {"player": i + 1, "model": p.label, "mean": m, "ci": list(ci)}
                for i, (p, (m, ci)) in enumerate(zip(self.players, self.means(), strict=True))
            ],
            "differences": [
                {"players": [i + 1, j + 1], "mean": m, "ci": list(ci)}
                for i, j, m, ci in self.differences()
            ],
        }


def _mean_interval(values: np.ndarray) -> tuple[float, tuple[float, float]]:
    return float(np.mean(values)), mean_interval(values)


def match(
    players: Sequence[Player | str],
    deals: int,
    seed: int | None = 0,
    records: str | Path | None = None,
    scheduler: str | None = None,
    force: bool = False,
    bidding: str | Sequence[str] | None = None,
    resume: str | Path | None = None,
) -> MatchResult:
    """Play ``deals`` duplicate deals between three players (each deal three games, the
    players rotated through the seats), from ``seed``; write every game's record into the
    directory ``records`` when given (``deal-0001-r0.toml``, ...; a record already there is
    refused, never overwritten). ``scheduler`` spreads the deals over Dask workers
    (:func:`~qcards.execution.sweeps.sweep`), with the same results. ``bidding`` names the
    bidder (:data:`qcards.skat.players.bidders.BIDDERS`) of every player, or of each in turn (three
    names); ``None`` keeps each player's own (the club rules unless set). ``resume`` is a
    journal file (:mod:`qcards.analysis.match_journal`): each deal's games are written to it as
    the deal ends, and the deals already there are not played again, so an interrupted match
    run again with the same file ends as an uninterrupted one.

    The match is planned first (:func:`plan_match`): refused past the memory limit, and past
    the time limit unless ``force``.

    Raises:
        ParameterError: not three players, a bad player, or ``deals`` below 1.
        ResourceError: the plan is past the limits (:mod:`qcards.plan`).
        FileError: ``records`` holds a record the match would write, or ``resume`` is not a
            match journal.
        ParameterError: ``resume`` is the journal of another match.
    """
    seed = fresh_seed(seed)  # a fresh one for None; a bad one refused
    chosen = tuple(p if isinstance(p, Player) else parse_player(p) for p in players)
    if len(chosen) != SEATS:
        raise ParameterError(
            "player", f"a match seats three players (three {{player}}), got {len(chosen)}"
        )
    if isinstance(deals, bool) or not isinstance(deals, int) or deals < 1:
        raise ParameterError("deals", f"{{deals}} must be a positive integer, got {deals!r}")
    chosen = with_bidding(chosen, bidding)
    header = journal_header(chosen, seed) if resume is not None else {}
    kept = read_journal(resume, header) if resume is not None else {}
    # planned before the deals to play are listed: a trillion deals are refused, not listed
    plan_match(chosen, deals - sum(d < deals for d in kept), scheduler, force)
    todo = [deal for deal in range(deals) if deal not in kept]
    folder = None if records is None else Path(records)
    if folder is not None:
        _check_records(folder, deals)

    if resume is not None:
        start_journal(resume, header)

    def keep(index: int, games: list[Game]) -> None:
        add_deal(cast(str | Path, resume), todo[index], [asdict(g) for g in games])

    try:
        played = sweep(partial(_deal_games, chosen, seed), todo, scheduler, "deals played",
                       on_result=keep if resume is not None else None)  # fmt: skip
    finally:  # the outside programs this process started (a Dask worker ends its own at exit)
        exec_player.close_all()
    by_deal = dict(zip(todo, played, strict=True))
    for deal in range(deals):
        if deal not in by_deal:
            try:
                by_deal[deal] = [Game.from_json(g) for g in kept[deal]]
            except (TypeError, ValueError) as exc:
                raise FileError(f"{{resume}} {resume}: deal {deal + 1}'s games are not "
                                f"games ({exc})", parameters=("resume",)) from None  # fmt: skip
    flat = tuple(g for deal in range(deals) for g in by_deal[deal])
    if folder is not None:
        folder.mkdir(parents=True, exist_ok=True)
        for g in flat:
            if g.record is not None:
                write_text(folder / record_name(g.deal, g.rotation), g.record)
    return MatchResult(chosen, deals, seed, flat)


def with_bidding(players: tuple[Player, ...], bidding: str | Sequence[str] | None):
    """``players`` with the bidders ``bidding`` names: one name for all, or one each."""
    if bidding is None:
        return players
    names = [bidding] * SEATS if isinstance(bidding, str) else list(bidding)
    if len(names) == 1:
        names *= SEATS
    if len(names) != SEATS:
        raise ParameterError(
            "bidding", f"{{bidding}}: one bidder for every player or one each (three), got "
            f"{len(names)}",
        )  # fmt: skip
    for name in names:
        get_bidder(name)
    return tuple(replace(p, bidding=b) for p, b in zip(players, names, strict=True))


def record_name(deal: int, rotation: int) -> str:
    """The file name of the record of deal ``deal`` (from 0) in rotation ``rotation``."""
    return f"deal-{deal + 1:04d}-r{rotation}.toml"


def _check_records(folder: Path, deals: int) -> None:
    """Refuse a records folder that holds a file the match could write (a passed deal writes
    none, which only the play tells)."""
    if not folder.is_dir():
        return
    names = {p.name for p in folder.glob("deal-*-r*.toml")}
    for deal in range(deals):
        if not names:
            return
        for rotation in range(SEATS):
            name = record_name(deal, rotation)
            if name in names:
                raise FileError(
                    f"{{records}} {folder}: {name} is already there, and a match does not "
                    "overwrite records: give an empty or new folder",
                    parameters=("records",),
                )
            names.discard(name)


def plan_match(
    players: Sequence[Player], deals: int, scheduler: str | None = None, force: bool = False
) -> Plan:
    """The plan of a match of ``deals`` deals between ``players`` (:mod:`qcards.plan`),
    checked: each searching player's worlds held at a card decision (in every local Dask
    worker at once) against the memory limit, then the games held against it and the time
    (each deal's three games, every player's measured seconds a game, spread over the cores
    with ``scheduler`` ``"local"``) against the time limit unless ``force``. Returns the
    match's plan.

    Raises:
        ResourceError: a player's worlds or the games past the memory limit, or the time past
            the time limit (unless ``force``).
    """
    workers = CORES if scheduler == LOCAL else 1
    memory = current_limits().memory
    for player in players:
        held = decision_bytes(player) * workers
        if held:
            fits = int(memory // (held / player.worlds))
            check(Plan(
                f"{{player}} {player.label}",
                bytes=held,
                size=f"{player.worlds:,} sampled deals held at each card decision"
                + (f", in each of {workers} workers" if workers > 1 else ""),
                memory_fits=f"at most about {fits:,} worlds fit",
                ways=(f"give the player fewer worlds ({player.model}:{DEFAULT_WORLDS})",),
            ))  # fmt: skip
    seats = [game_seconds(p) for p in players]
    bidding = bidding_seconds(players)
    per_deal = SEATS * sum(seats) + bidding  # each player sits once in each of a deal's games
    seconds = deals * per_deal / workers
    size = ", ".join(f"{p.label} {s:.2g} s" for p, s in zip(players, seats, strict=True))
    plan = Plan(
        f"a match of {deals:,} deals ({SEATS * deals:,} games)",
        seconds=seconds,
        bytes=deals * SEATS * GAME_BYTES,
        size=f"about {per_deal / workers:.2g} s a deal; a seat's cards a game: {size}"
        + (f"; the bidders {bidding:.2g} s a deal" if bidding else ""),
        time_fits=f"about {int(current_limits().seconds * workers // per_deal):,} deals",
        memory_fits=f"at most about {int(memory // (SEATS * GAME_BYTES)):,} deals fit",
        ways=("fewer {deals}",),
    )
    return check(plan, force)


def deal_cards(seed: int, deal: int) -> tuple[tuple[Card, ...], ...]:
    """Deal ``deal`` of a match: forehand's, middlehand's and rearhand's ten cards, the Skat."""
    rng = np.random.default_rng([seed, deal])
    order = rng.permutation(len(FULL_DECK))
    cards = [FULL_DECK[i] for i in order]
    return tuple(tuple(cards[k * HAND : (k + 1) * HAND]) for k in range(SEATS)) + (
        tuple(cards[SEATS * HAND :]),
    )


def _deal_games(players: tuple[Player, ...], seed: int, deal: int) -> list[Game]:
    cards = deal_cards(seed, deal)
    return [_game(players, seed, deal, r, cards) for r in range(SEATS)]


NAMES = ("P1", "P2", "P3")
"""The players' names in records (player index + 1)."""


def _game(players, seed: int, deal: int, rotation: int, cards, observe=None) -> Game:
    """One game of a deal with the players rotated ``rotation`` seats (``observe``: see
    :func:`_play`)."""
    seats = tuple((s + rotation) % SEATS for s in range(SEATS))  # player index by seat
    hands, skat = [list(h) for h in cards[:SEATS]], cards[SEATS]
    bidders = [get_bidder(players[seats[s]].bidding) for s in range(SEATS)]
    limits = [bidders[s].limit(tuple(hands[s]), s) for s in range(SEATS)]
    won_auction = bidding_rules.auction(limits)
    if won_auction is None:
        return Game(deal, rotation, seats, None, None, None, None, None, (0,) * SEATS)
    declarer_seat, bid = won_auction
    twelve = (*hands[declarer_seat], *skat)
    choice = bidders[declarer_seat].declare(tuple(hands[declarer_seat]), skat, bid, declarer_seat)
    game, discard = choice.game, choice.away  # a Hand game's "discard" is the Skat, unseen
    declaration = Declaration.make(game, choice.hand, (), bid)
    hands[declarer_seat] = [c for c in twelve if c not in discard]
    rng = np.random.default_rng([seed, deal, rotation, 1])
    about = {"deal": deal + 1, "rotation": rotation, "game": game, "hand_game": choice.hand,
             "bid": bid, "declarer": declarer_seat}  # fmt: skip
    for seat in _outside(players, seats):
        hand = {"hand": _spelled(rules_of(_trump(game)), hands[seat])}
        mine = _discard(seat, declarer_seat, discard, choice.hand)
        _tell(players, seats, seat, exec_player.request("start", about, seat, **hand, **mine))
    tricks, taken = _play(players, seats, hands, declarer_seat, game, discard, about, rng,
                          observe)  # fmt: skip
    declarer_points = points(discard) + taken[0]
    settlement = settle(declaration, matadors(twelve, game), declarer_points, taken[1])
    names = [NAMES[p] for p in seats]
    by_name = settlement.seeger_fabian(names[declarer_seat], names)
    scores = tuple(by_name[NAMES[i]] for i in range(SEATS))
    for seat in _outside(players, seats):
        result = {"declarer_points": declarer_points, "declarer_tricks": taken[1],
                  "won": settlement.won, "score": scores[seats[seat]]}  # fmt: skip
        _tell(players, seats, seat, exec_player.request("end", about, seat, **result))
    text = record_toml(
        names, names[declarer_seat], declaration, dict(zip(names, cards[:SEATS], strict=True)),
        skat, () if choice.hand else discard, tricks,
        comment=f"match seed {seed}, deal {deal + 1}, rotation {rotation}: "
        + ", ".join(f"{NAMES[i]} {p.label}" for i, p in enumerate(players)),
    )  # fmt: skip
    record = parse_record(text, "<match record>")  # the record replays to the same result
    assert (record.declarer_points, record.declarer_tricks) == (declarer_points, taken[1])
    return Game(deal, rotation, seats, seats[declarer_seat], game, bid, settlement.won,
                declarer_points, scores, text)  # fmt: skip


def _trump(game: str) -> Trump:
    return Trump.NULL if game == "null" else Trump(game)


def _spelled(rules, cards) -> list[str]:
    """Cards as the outside programs read them: spelled, in the rules' order."""
    return [str(c) for c in rules.sorted(cards)]


def _discard(seat: int, declarer_seat: int, discard, hand: bool) -> dict:
    """The discard as the declarer's requests give it; nothing for a defender, nor in a Hand
    game (the Skat stays unseen)."""
    if seat != declarer_seat or hand:
        return {}
    return {"discard": [str(c) for c in discard]}


def _outside(players, seats) -> list[int]:
    """The seats (positions) whose players are outside programs."""
    return [s for s in range(SEATS) if players[seats[s]].model == EXEC]


def _key(players, seats, seat: int) -> tuple[int, str]:
    """The outside program of the player at ``seat``: one per player of the match."""
    return seats[seat], players[seats[seat]].label


def _tell(players, seats, seat: int, request: dict) -> None:
    player = players[seats[seat]]
    exec_player.tell(_key(players, seats, seat), player.label, player.argv, request)


def _card_request(
    about, seat, rules, table, legal, number, finished, declarer_seat, discard, hand_game
) -> dict:
    """The ``card`` request of the outside programs' protocol for the seat to move, whose
    ``legal`` cards are the table's."""
    own = table.taken[declarer_seat]
    return exec_player.request(
        "card", about, seat, hand=_spelled(rules, table.hands[seat]), trick_number=number,
        leader=table.leader, trick=[str(c) for c in table.trick], tricks=list(finished),
        points={"declarer": own, "defenders": sum(table.taken) - own},
        legal=_spelled(rules, legal), **_discard(seat, declarer_seat, discard, hand_game),
    )  # fmt: skip


def _play(
    players, seats, hands, declarer_seat, game, discard, about, rng, observe=None
) -> tuple[list[tuple[Card, ...]], tuple[int, int]]:
    """Ten tricks: each seat's player picks its card, asked through the one player interface
    (:func:`~qcards.analysis.match_players.play` on a
    :class:`~qcards.analysis.seat_players.Decision`). Returns the tricks (leader's card first)
    and the declarer's (card points, tricks) from them. ``about`` is the game as the outside
    programs' requests give it (:func:`exec_player.request`). ``observe``, when given, is
    called with each decision before its card is played (its view, game and history are
    built when read)."""
    bid, hand_game = about["bid"], about.get("hand_game", False)
    rules = rules_of(_trump(game))
    # the spec order puts the declarer first (seat_view and the specs count seats from it)
    order = [(declarer_seat + k) % SEATS for k in range(SEATS)]
    names = [NAMES[seats[s]] for s in order]
    at_start = {s: tuple(hands[s]) for s in range(SEATS)}
    all_cards = frozenset(c for h in hands for c in h) | frozenset(discard)
    history: list[tuple[str, Card]] = []
    finished: list[dict] = []  # the tricks as the outside programs' requests give them
    table = Table.deal(rules, [hands[s] for s in range(SEATS)], 0)  # forehand leads the first
    for number in range(1, HAND + 1):
        leader = table.leader
        for _ in range(SEATS):
            seat = table.to_move
            player = players[seats[seat]]
            me = names[order.index(seat)]
            hidden = [c for s in order if s != seat for c in at_start[s]]
            seat_game = partial(seat_spec, names, game, me, names[order.index(0)], at_start[seat],
                                hidden, discard, seat == declarer_seat, bid,
                                hand_game)  # fmt: skip
            legal = table.legal()
            decision = Decision(
                legal, tuple(history), rng,
                view=partial(table_view, table, all_cards, frozenset(discard), order),
                game=seat_game,
                request=partial(_card_request, about, seat, rules, table, legal, number,
                                finished, declarer_seat, discard, hand_game),
                index=seats[seat],
            )  # fmt: skip
            if observe is not None:
                observe(decision)
            card = play(player, decision)
            table = table.play(card)
            history.append((me, card))
        trick = table.tricks()[-1][1]
        finished.append({"leader": leader, "cards": [str(c) for c in trick],
                         "winner": table.leader})  # fmt: skip
    tricks = [cards for _leader, cards in table.tricks()]
    return tricks, (table.taken[declarer_seat], table.won[declarer_seat])
