"""Endgame specs: TOML in, a validated :class:`Endgame` out.

A spec describes the end of a Skat-like game from the declarer's point of view (the first player
is the declarer; the others defend together)::

    players = ["A", "B", "C"]
    trump = "spades"          # clubs, spades, hearts, diamonds, grand, none, null, null-ouvert
    leader = "A"              # who leads the first trick
    winner_leads = true       # false: the leader leads every trick (the paper's four-card toy)
    declarer_points = 40      # card points the declarer already has
    target = 61               # the declarer wins with at least this many points (not in null games)
    declarer_tricks = 0       # tricks the declarer has already taken (a null game is then lost)
    [hands]                   # known hands (may be empty)
    A = ["CA", "CK"]
    [unknown]                 # dealt uniformly at random into these hand sizes
    cards = ["C10", "C9", "C8", "H10"]
    sizes = { B = 2, C = 2 }

In a null game (``trump = "null"`` or ``"null-ouvert"``) the declarer wins by taking no trick
(ISkO 5.2.7); card points are still counted (``expected_points``) but decide nothing, so a null
spec has no ``target``.

An optional ``[prior]`` table (:mod:`qcards.skat.position.prior`) replaces the uniform deal by one
conditioned on what the table has shown and weighted by a product-form likelihood.

The reserved receiver ``skat`` in ``unknown.sizes`` (e.g. ``sizes = { B = 10, C = 10, skat = 2 }``)
deals that many unknown cards into the Skat: dealt at random with the other unknown cards, never
played, and counted for the declarer at the end of the game.

Every problem is reported as a :class:`~qcards.errors.SpecError` naming the file and the field.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from qcards.errors import SpecError
from qcards.files import parse_toml, read_text
from qcards.skat.position.declaration import SpecDeclaration, discard_points, parse_declaration
from qcards.skat.position.prior import Prior, parse_prior
from qcards.skat.rules.cards import Card, CardError, Rules, Trump, points, rules_of

FIELDS = frozenset(
    {
        "players",
        "trump",
        "leader",
        "winner_leads",
        "declarer_points",
        "target",
        "declarer_tricks",
        "hands",
        "unknown",
        "prior",
        "declaration",
    }
)
"""The top-level fields a spec may have (any other is refused, naming it)."""
MAX_PLAYERS = 4
SKAT = "skat"
"""The reserved receiver of ``unknown.sizes`` for the Skat (no player may have this name)."""


@dataclass(frozen=True)
class Endgame:
    """A validated endgame.

    Attributes:
        players: seat order (play goes round in this order); ``players[0]`` is the declarer.
        trump: kind of game.
        leader: who leads the first trick.
        winner_leads: whether the trick winner leads the next trick (else ``leader`` always does).
        declarer_points: card points the declarer has already taken.
        target: the declarer wins with at least this many points (suit, grand and no-trump
            games; a null game is won by taking no trick).
        hands: known cards of each player (every player is a key, possibly with no cards).
        unknown: cards dealt uniformly at random.
        sizes: how many unknown cards each player receives, in seat order, followed by
            :data:`SKAT` for the cards dealt into the Skat (receivers of none omitted).
        declarer_tricks: tricks the declarer has already taken (decides null games).
        prior: what is known about the deal beyond the hands
            (:class:`~qcards.skat.position.prior.Prior`;
            empty: every deal equally likely).
        declaration: how the game was declared (:mod:`qcards.skat.position.declaration`), for its
            score; ``None``: only the win and the card points are asked. Its discard's points
            are part of ``declarer_points``.
        source: where the spec came from, for messages.
    """

    players: tuple[str, ...]
    trump: Trump
    leader: str
    winner_leads: bool
    declarer_points: int
    target: int
    hands: Mapping[str, tuple[Card, ...]]
    unknown: tuple[Card, ...]
    sizes: Mapping[str, int]
    declarer_tricks: int = 0
    prior: Prior = field(default_factory=Prior)
    declaration: SpecDeclaration | None = None
    source: str = field(default="<spec>", compare=False)

    @property
    def is_null(self) -> bool:
        """A null game (``null`` or ``null-ouvert``): won by taking no trick (ISkO 5.2.7)."""
        return self.trump.is_null

    def declarer_wins(self, points: int, tricks: int) -> bool:
        """Whether the declarer wins with ``points`` card points and ``tricks`` tricks taken in
        total (those of :attr:`declarer_tricks` included). Suit, grand and no-trump games:
        ``points >= target`` (ISkO 5.2.2, 61 by default). Null games: no trick (ISkO 5.2.7)."""
        if self.is_null:
            return tricks == 0
        return points >= self.target

    @property
    def declarer(self) -> str:
        return self.players[0]

    @property
    def defenders(self) -> tuple[str, ...]:
        return self.players[1:]

    @property
    def rules(self) -> Rules:
        return rules_of(self.trump)

    @property
    def skat_size(self) -> int:
        """Unknown cards dealt into the Skat (0 without a Skat)."""
        return self.sizes.get(SKAT, 0)

    @property
    def hand_size(self) -> int:
        """Cards each player holds at the start of the endgame (= number of tricks)."""
        return len(self.hands[self.players[0]]) + self.sizes.get(self.players[0], 0)

    @property
    def num_tricks(self) -> int:
        return self.hand_size

    @property
    def receivers(self) -> tuple[str, ...]:
        """Players that receive unknown cards, in seat order, then :data:`SKAT` if it gets any."""
        return tuple(r for r in (*self.players, SKAT) if self.sizes.get(r, 0) > 0)

    @property
    def put_away(self) -> frozenset[Card]:
        """A declared game's discard: out of play and seen by the declarer alone. The views
        the play models' policies read (:mod:`qcards.skat.position.seat_view`) count it among the
        cards no seat sees, as they do an unknown Skat: what the defenders saw at the table."""
        return frozenset(self.declaration.discard) if self.declaration else frozenset()

    @functools.cached_property
    def cards(self) -> tuple[Card, ...]:
        """All cards in play, in the paper's order (trumps first, strongest first); computed
        once (decoding reads it for every outcome)."""
        known = [c for p in self.players for c in self.hands[p]]
        return self.rules.sorted(known + list(self.unknown))

    def owner_of_known(self, card: Card) -> str | None:
        """The player a known card belongs to, ``None`` for an unknown card."""
        return self._known_owners.get(card)

    @functools.cached_property
    def _known_owners(self) -> dict[Card, str]:
        return {c: p for p in self.players for c in self.hands[p]}

    def candidates(self, player: str) -> tuple[Card, ...]:
        """Cards the player may hold: the known hand plus, if it receives any, the unknown cards.

        Only players have candidates: nobody plays the Skat's cards.
        """
        cards = list(self.hands[player])
        if self.sizes.get(player, 0) > 0:
            cards += list(self.unknown)
        return self.rules.sorted(cards)

    def points_in_play(self) -> int:
        return points(self.cards)

    def to_toml(self) -> str:
        """The spec written back as TOML (the same shape :func:`parse_spec` reads)."""

        def cards(cs: tuple[Card, ...]) -> str:
            return "[" + ", ".join(f'"{c}"' for c in cs) + "]"

        lines = [
            "players = [" + ", ".join(f'"{p}"' for p in self.players) + "]",
            f'trump = "{self.trump.value}"',
            f'leader = "{self.leader}"',
            f"winner_leads = {'true' if self.winner_leads else 'false'}",
            f"declarer_points = {self.declarer_points - discard_points(self.declaration)}",
        ]
        if not self.is_null:
            lines.append(f"target = {self.target}")
        if self.declarer_tricks:
            lines.append(f"declarer_tricks = {self.declarer_tricks}")
        lines.append("[hands]")
        lines += [f'"{p}" = {cards(self.hands[p])}' for p in self.players if self.hands[p]]
        if self.unknown:
            sizes = ", ".join(f'"{p}" = {n}' for p, n in self.sizes.items())
            lines += ["[unknown]", f"cards = {cards(self.unknown)}", f"sizes = {{ {sizes} }}"]
        lines += self.prior.to_toml_lines()
        if self.declaration is not None:
            lines += self.declaration.to_toml_lines()
        return "\n".join(lines) + "\n"


def load_spec(path: str | Path) -> Endgame:
    """Read and validate a TOML spec file."""
    path = Path(path)
    text = read_text(path, SpecError, "spec")  # a regular file of at most 1 MiB
    return parse_spec(text, source=str(path))


def parse_spec(text: str, source: str = "<spec>") -> Endgame:
    """Parse and validate spec text (TOML)."""
    return spec_from_dict(parse_toml(text, source, SpecError), source)


def spec_from_dict(data: Mapping[str, Any], source: str = "<spec>") -> Endgame:
    """Validate an already-parsed spec table."""

    def fail(fieldname: str, message: str) -> SpecError:
        return SpecError(f"{source}: field '{fieldname}': {message}")

    extra = sorted(set(data) - FIELDS)
    if extra:
        raise fail(extra[0], f"unknown field (allowed: {', '.join(sorted(FIELDS))})")

    players = data.get("players")
    if not isinstance(players, list) or not all(isinstance(p, str) and p for p in players):
        raise fail("players", 'must be a list of player names, e.g. ["A", "B", "C"]')
    if not 2 <= len(players) <= MAX_PLAYERS:
        raise fail("players", f"needs 2 to {MAX_PLAYERS} players, got {len(players)}")
    if len(set(players)) != len(players):
        raise fail("players", "player names must be distinct")
    if SKAT in players:
        raise fail("players", f"{SKAT!r} is reserved for the Skat and cannot name a player")

    def player(name: Any, fieldname: str, skat: bool = False) -> str:
        if name not in players and not (skat and name == SKAT):
            also = f", or {SKAT} for the Skat" if skat else ""
            raise fail(
                fieldname, f"unknown player {name!r} (players are {', '.join(players)}{also})"
            )
        return name

    try:
        trump = Trump.parse(data.get("trump", "spades"))
    except ValueError as exc:
        raise fail("trump", str(exc)) from None
    leader = player(data.get("leader", players[0]), "leader")

    winner_leads = data.get("winner_leads", True)
    if not isinstance(winner_leads, bool):
        raise fail("winner_leads", "must be true or false")

    def points_field(name: str, default: int) -> int:
        value = data.get(name, default)
        if isinstance(value, bool) or not isinstance(value, int):
            raise fail(name, f"must be a whole number of card points, got {value!r}")
        if not 0 <= value <= 120:
            raise fail(name, f"must lie in 0..120 (the deck has 120 points), got {value}")
        return value

    declarer_points = points_field("declarer_points", 0)
    if trump.is_null and "target" in data:
        raise fail("target", f"a {trump.value} game is won by taking no trick: it has no target")
    target = points_field("target", 61)
    declarer_tricks = data.get("declarer_tricks", 0)
    if isinstance(declarer_tricks, bool) or not isinstance(declarer_tricks, int):
        raise fail("declarer_tricks", f"must be a whole number of tricks, got {declarer_tricks!r}")
    if not 0 <= declarer_tricks <= 10:
        raise fail("declarer_tricks", f"must lie in 0..10, got {declarer_tricks}")

    def card_list(value: Any, fieldname: str) -> tuple[Card, ...]:
        if not isinstance(value, list):
            raise fail(fieldname, 'must be a list of cards like ["CA", "H10"]')
        try:
            return tuple(Card.parse(v) for v in value)
        except CardError as exc:
            raise fail(fieldname, str(exc)) from None

    raw_hands = data.get("hands", {})
    if not isinstance(raw_hands, dict):
        raise fail("hands", "must be a table of player = [cards]")
    hands: dict[str, tuple[Card, ...]] = {p: () for p in players}
    for name, cards in raw_hands.items():
        hands[player(name, f"hands.{name}")] = card_list(cards, f"hands.{name}")

    raw_unknown = data.get("unknown", {})
    if not isinstance(raw_unknown, dict):
        raise fail("unknown", "must be a table with 'cards' and 'sizes'")
    extra = sorted(set(raw_unknown) - {"cards", "sizes"})
    if extra:
        raise fail(f"unknown.{extra[0]}", "unknown field (allowed: cards, sizes)")
    unknown = card_list(raw_unknown.get("cards", []), "unknown.cards")
    raw_sizes = raw_unknown.get("sizes", {})
    if not isinstance(raw_sizes, dict):
        raise fail("unknown.sizes", "must be a table of player (or skat) = number of cards")
    sizes: dict[str, int] = {}
    for name, n in raw_sizes.items():
        player(name, f"unknown.sizes.{name}", skat=True)
        if isinstance(n, bool) or not isinstance(n, int) or n < 0:
            raise fail(f"unknown.sizes.{name}", f"must be a whole number >= 0, got {n!r}")
        if n:
            sizes[name] = n
    sizes = {r: sizes[r] for r in (*players, SKAT) if r in sizes}

    seen: dict[Card, str] = {}
    for fieldname, cards in [
        *((f"hands.{p}", hands[p]) for p in players),
        ("unknown.cards", unknown),
    ]:
        for c in cards:
            if c in seen:
                where = "twice" if seen[c] == fieldname else f"also in '{seen[c]}'"
                raise fail(fieldname, f"duplicate card {c} ({where})")
            seen[c] = fieldname

    if sum(sizes.values()) != len(unknown):
        raise fail(
            "unknown.sizes",
            f"sizes add up to {sum(sizes.values())} but {len(unknown)} unknown cards are listed",
        )
    totals = {p: len(hands[p]) + sizes.get(p, 0) for p in players}
    if len(set(totals.values())) != 1:
        listing = ", ".join(f"{p}={n}" for p, n in totals.items())
        raise fail("hands", f"every player must hold the same number of cards, got {listing}")
    if next(iter(totals.values())) == 0:
        raise fail("hands", "no cards to play: give the players known or unknown cards")

    endgame = Endgame(
        players=tuple(players),
        trump=trump,
        leader=leader,
        winner_leads=winner_leads,
        declarer_points=declarer_points,
        target=target,
        hands={p: rules_of(trump).sorted(hands[p]) for p in players},
        unknown=rules_of(trump).sorted(unknown),
        sizes=sizes,
        declarer_tricks=declarer_tricks,
        source=source,
    )
    if "prior" in data:
        prior = parse_prior(data["prior"], endgame, fail)
        endgame = dataclasses.replace(endgame, prior=prior)
    if "declaration" in data:
        declared = parse_declaration(data["declaration"], endgame, fail)
        needed = declared.declaration.points_needed
        if not declared.declaration.is_null:
            if "target" in data and target != needed:
                raise fail("target", f"the declaration needs {needed} points, not {target}")
            target = needed
        declarer_points += discard_points(declared)
        endgame = dataclasses.replace(
            endgame, declaration=declared, target=target, declarer_points=declarer_points
        )
    if declarer_points + endgame.points_in_play() > 120:
        raise fail(
            "declarer_points",
            f"{declarer_points} plus the {endgame.points_in_play()} points in play exceed 120",
        )
    return endgame
