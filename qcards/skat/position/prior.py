"""Priors over deals: what the table has shown, and a product-form likelihood.

The paper deals the unknown cards uniformly and names the weighting of deals "according to the
cards that appear on the table" as the next step (its outlook). A :class:`Prior` does that. A
deal d (card -> receiver) gets the weight

.. math:: W(d) = \\prod_{c} w_{d(c)}(c) \\; \\prod_{t} g_t(n_t(d)),

where :math:`w_r(c)` is the weight of card c in receiver r's hand (0 where a constraint forbids
it) and each count factor :math:`g_t` looks at :math:`n_t(d)`, how many cards of a set receiver
r_t is dealt (an ``at_least`` constraint is the indicator :math:`n_t \\ge k`, and the random-play
likelihood of a history is :math:`1/(\\text{cards of the led suit held})` per followed card). The
deal's probability is :math:`W(d)/Z` with :math:`Z = \\sum_d W(d)`.

:func:`deal_partition` computes Z (and everything the circuits need) by dynamic programming over
the cards, in time polynomial in the number of cards: no deal is enumerated. The referee
(:mod:`qcards.skat.solvers.plain_referee`) enumerates the deals and weighs each by
:meth:`Prior.deal_weight`; the two agree exactly (``tests/test_prior.py``).

Spec syntax (a ``[prior]`` table, every part optional)::

    [prior]
    void = { B = ["spades"] }          # B failed to follow spades: no card of that (effective) suit
    holds = { C = ["SJ"] }             # C holds the jack of spades (``skat`` for the Skat)
    at_least = { B = { trumps = 1 } }  # from the bidding: B holds a trump
    weight = { B = { CA = 2.0 } }      # B holding CA is twice as likely

Weights are read exactly: ``2.0`` is 2, ``0.1`` is 1/10 (the decimal as written), ``"2/3"`` is
2/3. Pure Python: no qiskit.
"""

from __future__ import annotations

import dataclasses
import math
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, ClassVar, Protocol

from qcards.errors import SpecError
from qcards.skat.deals.count import multinomial
from qcards.skat.rules.cards import SUIT_NAMES, TRUMP, Card, CardError, Rules


class PriorSpec(Protocol):
    """What this module reads of a spec (:class:`qcards.skat.position.spec.Endgame`, which holds a
    :class:`Prior` and so cannot be imported here); a dataclass, since :func:`parse_prior`
    replaces its prior."""

    __dataclass_fields__: ClassVar[dict[str, Any]]

    @property
    def rules(self) -> Rules: ...
    @property
    def players(self) -> tuple[str, ...]: ...
    @property
    def receivers(self) -> tuple[str, ...]: ...
    @property
    def hands(self) -> Mapping[str, tuple[Card, ...]]: ...
    @property
    def unknown(self) -> tuple[Card, ...]: ...
    @property
    def sizes(self) -> Mapping[str, int]: ...
    @property
    def prior(self) -> Prior: ...
    def owner_of_known(self, card: Card) -> str | None: ...


Endgame = PriorSpec  # the Protocol's former name (deprecated; the spec class is spec.Endgame)

CATEGORIES = (*SUIT_NAMES.values(), "trumps")
"""Names a void or an ``at_least`` may use: the four suits and ``trumps``."""

PRIOR_FIELDS = ("void", "holds", "at_least", "weight", "likelihood")


def category_suit(rules: Rules, name: str) -> str:
    """The effective suit (a suit letter or :data:`~qcards.skat.rules.cards.TRUMP`) a category
    names.

    A suit that is trump in a suit game names the trumps (failing to follow a trump lead shows
    that the player holds no trump, jacks included)."""
    if name == "trumps":
        return TRUMP
    letter = {v: k for k, v in SUIT_NAMES.items()}[name]
    return TRUMP if rules.trump.suit == letter else letter


def category_cards(rules: Rules, name: str, cards: Sequence[Card]) -> tuple[Card, ...]:
    """The cards of ``cards`` in a category (:func:`category_suit`)."""
    suit = category_suit(rules, name)
    return tuple(c for c in cards if rules.effective_suit(c) == suit)


@dataclass(frozen=True)
class CountFactor:
    """A factor on how many cards of a set a receiver is dealt: ``factors[n]`` for n cards."""

    receiver: str
    cards: frozenset[Card]
    factors: tuple[Fraction, ...]


@dataclass(frozen=True)
class Prior:
    """What is known about the deal beyond the hands. Empty: every deal equally likely.

    Attributes:
        void: per player, the categories (:data:`CATEGORIES`) it holds no card of.
        holds: per receiver (a player or the Skat), cards it holds.
        at_least: per player, the least number of cards of a category it holds in total
            (known hand included).
        weight: per receiver, the likelihood weight of each unknown card in its hand (default 1).
        likelihood: further count factors (a history's random-play likelihood, built by
            :mod:`qcards.skat.position.history`, or written as ``likelihood = [{ holder = "B", cards
            = ["C8"], factors = ["1", "1/2"] }]``: ``factors[n]`` when the holder gets n of the
            cards).
    """

    void: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    holds: Mapping[str, tuple[Card, ...]] = field(default_factory=dict)
    at_least: Mapping[str, Mapping[str, int]] = field(default_factory=dict)
    weight: Mapping[str, Mapping[Card, Fraction]] = field(default_factory=dict)
    likelihood: tuple[CountFactor, ...] = ()

    @property
    def is_uniform(self) -> bool:
        """No constraint and no weight: the paper's uniform deal."""
        return not (self.void or self.holds or self.at_least or self.weight or self.likelihood)

    def card_weight(self, spec: PriorSpec, card: Card, receiver: str) -> Fraction:
        """:math:`w_r(c)`: 0 where a void or a ``holds`` forbids it, else the card's weight."""
        rules = spec.rules
        voids = {category_suit(rules, v) for v in self.void.get(receiver, ())}
        if rules.effective_suit(card) in voids:
            return Fraction(0)
        for other, cards in self.holds.items():
            if card in cards and other != receiver:
                return Fraction(0)
        return self.weight.get(receiver, {}).get(card, Fraction(1))

    def count_factors(self, spec: PriorSpec) -> tuple[CountFactor, ...]:
        """The ``at_least`` constraints as indicator factors on the unknown cards, then the
        likelihood's factors."""
        out = []
        for player, minimums in self.at_least.items():
            for name, least in minimums.items():
                known = len(category_cards(spec.rules, name, spec.hands[player]))
                pool = frozenset(category_cards(spec.rules, name, spec.unknown))
                need = least - known
                if need <= 0 or player not in spec.receivers:  # the latter checked when read
                    continue
                top = min(len(pool), spec.sizes.get(player, 0))
                out.append(
                    CountFactor(player, pool, tuple(Fraction(n >= need) for n in range(top + 1)))
                )
        return (*out, *self.likelihood)

    def deal_weight(self, spec: PriorSpec, owner: Mapping[Card, str]) -> Fraction:
        """W(d) of one deal (card -> receiver, known cards may be included)."""
        return self.weigher(spec)(owner)

    def weigher(self, spec: PriorSpec) -> Callable[[Mapping[Card, str]], Fraction]:
        """:meth:`deal_weight` with the card weights and count factors worked out once (the
        referee weighs every deal with it)."""
        table = {(c, r): self.card_weight(spec, c, r) for c in spec.unknown for r in spec.receivers}
        factors = self.count_factors(spec)

        def weight_of(owner: Mapping[Card, str]) -> Fraction:
            weight = Fraction(1)
            for card in spec.unknown:
                weight *= table[card, owner[card]]
                if not weight:
                    return weight
            for factor in factors:
                n = sum(1 for c in factor.cards if owner[c] == factor.receiver)
                weight *= factor.factors[n] if n < len(factor.factors) else Fraction(0)
            return weight

        return weight_of

    def tables(
        self, spec: PriorSpec
    ) -> tuple[list[list[Fraction]], list[tuple[int, frozenset[int], tuple[Fraction, ...]]]]:
        """The prior in the circuits' terms: ``weights[j][r]`` for unknown card j (spec order)
        and receiver r (:attr:`PriorSpec.receivers` order), and the count factors as
        ``(receiver index, card indices, factors)``."""
        receivers = spec.receivers
        weights = [[self.card_weight(spec, c, r) for r in receivers] for c in spec.unknown]
        index = {c: j for j, c in enumerate(spec.unknown)}
        tallies = [
            (receivers.index(f.receiver), frozenset(index[c] for c in f.cards), f.factors)
            for f in self.count_factors(spec)
        ]
        return weights, tallies

    def to_toml_lines(self) -> list[str]:
        """The ``[prior]`` table as TOML lines (empty for the uniform prior)."""
        if self.is_uniform:
            return []

        def quoted(items) -> str:
            return "[" + ", ".join(f'"{i}"' for i in items) + "]"

        def table(entries: dict[str, str]) -> str:
            return "{ " + ", ".join(f'"{k}" = {v}' for k, v in entries.items()) + " }"

        lines = ["[prior]"]
        if self.void:
            lines.append("void = " + table({p: quoted(v) for p, v in self.void.items()}))
        if self.holds:
            lines.append("holds = " + table({p: quoted(v) for p, v in self.holds.items()}))
        if self.at_least:
            inner = {p: table({k: str(n) for k, n in m.items()}) for p, m in self.at_least.items()}
            lines.append("at_least = " + table(inner))
        if self.weight:
            inner = {
                p: table({str(c): f'"{w}"' for c, w in m.items()}) for p, m in self.weight.items()
            }
            lines.append("weight = " + table(inner))
        if self.likelihood:
            lines.append("likelihood = [")
            for f in self.likelihood:
                cards = quoted(sorted(f.cards, key=lambda c: (c.suit, c.rank)))
                factors = quoted(f.factors)
                lines.append(
                    f'  {{ holder = "{f.receiver}", cards = {cards}, factors = {factors} }},'
                )
            lines.append("]")
        return lines


# ----------------------------------------------------------------------------- partition sums


Tallies = Sequence[tuple[int, frozenset[int], tuple[Fraction, ...]]]


def count_step(
    state: tuple[int, ...], j: int, r: int, receivers: int, tallies: Tallies
) -> tuple[int, ...]:
    """The counts after card j goes to receiver r: that receiver's count, and the count of every
    tally of r whose cards hold j (the states of :func:`deal_partition`)."""
    counts = list(state)
    counts[r] += 1
    for t, (receiver, cards, _) in enumerate(tallies):
        if receiver == r and j in cards:
            counts[receivers + t] += 1
    return tuple(counts)


def deal_partition(
    sizes: Sequence[int], weights: Sequence[Sequence[Fraction]], tallies: Tallies = ()
) -> list[dict[tuple[int, ...], Fraction]]:
    """Partition sums of a weighted deal, card by card from the last.

    ``out[j][s]`` is the total weight of the ways to deal cards j..n-1 when the counters hold
    ``s`` after cards 0..j-1: s lists, per receiver, the cards it has got, then per tally, the
    cards of its set its receiver has got. ``out[0][(0, ..., 0)]`` is Z. Only states reachable
    from the start are listed. Work: cards x reachable states x receivers (polynomial; no deal
    is enumerated). The probability that card j goes to r in state s is
    ``weights[j][r] * out[j+1][s + r] / out[j][s]`` -- the angles of the weighted deal circuit.
    """
    n, receivers = len(weights), len(sizes)

    def step(state: tuple[int, ...], j: int, r: int) -> tuple[int, ...]:
        return count_step(state, j, r, receivers, tallies)

    layers: list[set[tuple[int, ...]]] = [{(0,) * (receivers + len(tallies))}]
    for j in range(n):
        layers.append(
            {
                step(s, j, r)
                for s in layers[-1]
                for r in range(receivers)
                if s[r] < sizes[r] and weights[j][r]
            }
        )
    out: list[dict[tuple[int, ...], Fraction]] = [{} for _ in range(n + 1)]
    for s in layers[n]:
        value = Fraction(int(list(s[:receivers]) == list(sizes)))
        for t, (_, _, factors) in enumerate(tallies):
            count = s[receivers + t]
            value *= factors[count] if count < len(factors) else 0
        out[n][s] = value
    for j in range(n - 1, -1, -1):
        for s in layers[j]:
            out[j][s] = sum(
                (
                    weights[j][r] * out[j + 1][step(s, j, r)]
                    for r in range(receivers)
                    if s[r] < sizes[r] and weights[j][r]
                ),
                Fraction(0),
            )
    return out


def partition_function(spec: PriorSpec) -> Fraction:
    """Z, the total weight of the spec's deals under its prior (the number of deals if uniform)."""
    if spec.prior.is_uniform:
        return Fraction(multinomial(spec.sizes[r] for r in spec.receivers))
    weights, tallies = spec.prior.tables(spec)
    sizes = [spec.sizes[r] for r in spec.receivers]
    return deal_partition(sizes, weights, tallies)[0][(0,) * (len(sizes) + len(tallies))]


# ----------------------------------------------------------------------------- parsing


MAX_WEIGHT_DIGITS = 100
"""The most characters a weight is written with (an integer's digits; a string's digits,
sign, point, exponent and fraction bar): read exactly, a number of a million digits would take
minutes to multiply."""

MAX_WEIGHT_EXPONENT = 400
"""The largest decimal exponent a weight may be written with (``"1e400"``; a float's is at most
308, or 324 below one). ``"1e100000000"`` is eleven characters but a hundred million digits."""

_EXPONENT = re.compile(r"[eE]\s*([+-]?\d+)")


def _check_size(value: int | str) -> None:
    """``ValueError`` for a weight written with too many digits or too large an exponent."""
    text = str(abs(value)) if isinstance(value, int) else value.strip()
    if len(text) > MAX_WEIGHT_DIGITS:
        kind = "digits" if isinstance(value, int) else "characters"
        raise ValueError(
            f"is written with {len(text):,} {kind}; at most {MAX_WEIGHT_DIGITS} are read"
        )
    for exponent in _EXPONENT.findall(text):
        if abs(int(exponent)) > MAX_WEIGHT_EXPONENT:
            raise ValueError(
                f"has the exponent {exponent}; at most {MAX_WEIGHT_EXPONENT} either way is read"
            )


def exact_weight(value: Any, zero: bool = False) -> Fraction:
    """A weight read exactly: an integer, a decimal as written (``0.1`` is 1/10) or ``"p/q"``.

    Raises ``ValueError`` for anything else, for weights that are not finite and positive
    (with ``zero``, 0 is allowed: a likelihood factor may rule a count out), and for weights
    written with more than :data:`MAX_WEIGHT_DIGITS` characters or an exponent beyond
    :data:`MAX_WEIGHT_EXPONENT`.
    """
    if isinstance(value, bool):
        raise ValueError(f"must be a positive number, got {value!r}")
    if isinstance(value, float):
        if not math.isfinite(value):
            raise ValueError(f"must be a finite positive number, got {value!r}")
        value = repr(value)  # the shortest decimal that reads back as the float: as written
    if not isinstance(value, int | str):
        raise ValueError(f"must be a positive number, got {value!r}")
    _check_size(value)
    try:
        weight = Fraction(value)
    except (ValueError, ZeroDivisionError):
        raise ValueError(
            f'must be a positive number or a fraction like "2/3", got {value!r}'
        ) from None
    if weight < 0 or (weight == 0 and not zero):
        bound = ">= 0" if zero else "> 0 (forbid a card with 'void' or 'holds')"
        raise ValueError(f"must be {bound}, got {value!r}")
    return weight


def parse_prior(raw: Any, spec: PriorSpec, fail: Callable[[str, str], SpecError]) -> Prior:
    """Read and check a spec's ``[prior]`` table against the validated ``spec``.

    Every problem is raised as ``fail(field, message)``, naming the field (``prior.void.B``,
    ``prior.weight.B.CA``, ...): unknown players, categories or cards, weights that are not
    positive, a void or a ``holds`` contradicted by a known hand, and constraints no deal
    satisfies.
    """
    if not isinstance(raw, dict):
        raise fail("prior", f"must be a table with any of: {', '.join(PRIOR_FIELDS)}")
    extra = sorted(set(raw) - set(PRIOR_FIELDS))
    if extra:
        raise fail(f"prior.{extra[0]}", f"unknown field (allowed: {', '.join(PRIOR_FIELDS)})")
    reader = _PriorReader(raw, spec, fail)
    prior = Prior(
        void=reader.void(),
        holds=reader.holds(),
        at_least=reader.at_least(),
        weight=reader.weight(),
        likelihood=reader.likelihood(),
    )
    if not partition_function(dataclasses.replace(spec, prior=prior)):
        raise fail("prior", "no deal of the unknown cards satisfies these constraints")
    return prior


class _PriorReader:
    """The fields of one ``[prior]`` table, each read and checked by a method of its own (in
    the order :func:`parse_prior` calls them, which is the order errors are found in)."""

    def __init__(self, raw: dict, spec: PriorSpec, fail: Callable[[str, str], SpecError]) -> None:
        self.raw, self.spec, self.fail = raw, spec, fail

    # -- the pieces every field is made of

    def table(self, name: str) -> dict:
        """The sub-table ``prior.<name>`` (empty if absent), keyed by player."""
        value = self.raw.get(name, {})
        if not isinstance(value, dict):
            raise self.fail(f"prior.{name}", "must be a table keyed by player")
        return value

    def who(self, name: Any, fieldname: str, skat: bool) -> str:
        """``name`` if it is a player (``skat``: a receiver of unknown cards, Skat included)."""
        allowed = self.spec.receivers if skat else self.spec.players
        if name not in allowed:
            kind = "a player or the skat receiving unknown cards" if skat else "a player"
            raise self.fail(
                fieldname, f"unknown receiver {name!r} (expected {kind}: {', '.join(allowed)})"
            )
        return name

    def card_list(self, value: Any, fieldname: str) -> tuple[Card, ...]:
        """A list of card names as cards."""
        if not isinstance(value, list):
            raise self.fail(fieldname, 'must be a list of cards like ["SJ", "CA"]')
        return tuple(self.card(v, fieldname) for v in value)

    def card(self, key: Any, fieldname: str) -> Card:
        """One card name as a card."""
        try:
            return Card.parse(key)
        except CardError as exc:
            raise self.fail(fieldname, str(exc)) from None

    def category(self, value: Any, fieldname: str) -> str:
        """A suit name, a suit letter or ``trumps``, as one of :data:`CATEGORIES`."""
        name = str(value).lower()
        name = SUIT_NAMES.get(name.upper(), name)
        if name not in CATEGORIES:
            raise self.fail(
                fieldname, f"unknown category {value!r} (expected {' | '.join(CATEGORIES)})"
            )
        trump = self.spec.rules.trump
        if name == "trumps" and trump.suit is None and trump.value != "grand":
            raise self.fail(fieldname, f"a {trump.value} game has no trumps")
        return name

    def weight_of(self, value: Any, fieldname: str, zero: bool = False) -> Fraction:
        """:func:`exact_weight`, its complaint raised for ``fieldname``."""
        try:
            return exact_weight(value, zero)
        except ValueError as exc:
            raise self.fail(fieldname, str(exc)) from None

    # -- the fields

    def void(self) -> dict[str, tuple[str, ...]]:
        """``prior.void``: per player, the categories it holds no card of."""
        void: dict[str, tuple[str, ...]] = {}
        for player, names in self.table("void").items():
            fieldname = f"prior.void.{player}"
            self.who(player, fieldname, skat=False)
            if not isinstance(names, list):
                raise self.fail(fieldname, 'must be a list of suits like ["spades"]')
            void[player] = tuple(dict.fromkeys(self.category(n, fieldname) for n in names))
            for name in void[player]:
                shown = category_cards(self.spec.rules, name, self.spec.hands[player])
                if shown:
                    raise self.fail(
                        fieldname,
                        f"{player} cannot be void in {name}: the known hand holds "
                        f"{' '.join(map(str, shown))}",
                    )
        return void

    def holds(self) -> dict[str, tuple[Card, ...]]:
        """``prior.holds``: per receiver, the unknown cards it holds (a player receiving no
        unknown cards may only name cards of its known hand)."""
        spec = self.spec
        holds: dict[str, tuple[Card, ...]] = {}
        for receiver, names in self.table("holds").items():
            fieldname = f"prior.holds.{receiver}"
            if receiver not in spec.receivers and receiver in spec.players:
                self.check_known_holds(receiver, self.card_list(names, fieldname), fieldname)
                continue
            self.who(receiver, fieldname, skat=True)
            cards = self.card_list(names, fieldname)
            for c in cards:
                self.check_held_card(c, receiver, holds, fieldname)
            unknown_cards = tuple(c for c in cards if c in spec.unknown)
            if unknown_cards:
                holds[receiver] = unknown_cards
        return holds

    def check_known_holds(self, player: str, cards: tuple[Card, ...], fieldname: str) -> None:
        """A player receiving no unknown cards holds only its known hand."""
        missing = [c for c in cards if c not in self.spec.hands[player]]
        if missing:
            raise self.fail(
                fieldname,
                f"{player} receives no unknown cards and its known hand lacks "
                f"{' '.join(map(str, missing))}",
            )

    def check_held_card(
        self, card: Card, receiver: str, holds: Mapping[str, tuple[Card, ...]], fieldname: str
    ) -> None:
        """``card`` is in play, not in another's known hand and not held by another already."""
        owner = self.spec.owner_of_known(card)
        if owner is not None and owner != receiver:
            raise self.fail(fieldname, f"{card} is in {owner}'s known hand")
        if owner is None and card not in self.spec.unknown:
            raise self.fail(
                fieldname, f"{card} is not in play (neither a known nor an unknown card)"
            )
        for other, theirs in holds.items():
            if card in theirs:
                raise self.fail(
                    fieldname, f"{card} is also held by {other} ('prior.holds.{other}')"
                )

    def at_least(self) -> dict[str, dict[str, int]]:
        """``prior.at_least``: per player, the least number of cards of each category."""
        spec = self.spec
        at_least: dict[str, dict[str, int]] = {}
        for player, minimums in self.table("at_least").items():
            fieldname = f"prior.at_least.{player}"
            self.who(player, fieldname, skat=False)
            if not isinstance(minimums, dict):
                raise self.fail(
                    fieldname, "must be a table of category = number, e.g. { trumps = 1 }"
                )
            at_least[player] = {}
            for name, least in minimums.items():
                sub = f"{fieldname}.{name}"
                if isinstance(least, bool) or not isinstance(least, int) or least < 0:
                    raise self.fail(sub, f"must be a whole number >= 0, got {least!r}")
                category = self.category(name, sub)
                at_least[player][category] = least
                known = len(category_cards(spec.rules, category, spec.hands[player]))
                if player not in spec.receivers and known < least:
                    raise self.fail(
                        sub, f"{player} receives no unknown cards and its known hand has {known}"
                    )
            if not at_least[player]:
                del at_least[player]
        return at_least

    def weight(self) -> dict[str, dict[Card, Fraction]]:
        """``prior.weight``: per receiver, the weight of each unknown card in its hand."""
        weight: dict[str, dict[Card, Fraction]] = {}
        for receiver, weights in self.table("weight").items():
            fieldname = f"prior.weight.{receiver}"
            self.who(receiver, fieldname, skat=True)
            if not isinstance(weights, dict):
                raise self.fail(fieldname, "must be a table of card = weight, e.g. { CA = 2.0 }")
            weight[receiver] = {}
            for key, value in weights.items():
                sub = f"{fieldname}.{key}"
                card = self.card(key, sub)
                if card not in self.spec.unknown:
                    raise self.fail(
                        sub, f"{card} is not an unknown card: only unknown cards are weighted"
                    )
                weight[receiver][card] = self.weight_of(value, sub)
        return weight

    def likelihood(self) -> tuple[CountFactor, ...]:
        """``prior.likelihood``: a list of count factors."""
        entries = self.raw.get("likelihood", [])
        if not isinstance(entries, list):
            raise self.fail(
                "prior.likelihood", "must be a list of { holder, cards, factors } tables"
            )
        return tuple(
            self.count_factor(entry, f"prior.likelihood[{k}]")
            for k, entry in enumerate(entries, start=1)
        )

    def count_factor(self, entry: Any, fieldname: str) -> CountFactor:
        """One entry of ``prior.likelihood``: a holder, distinct unknown cards and one factor
        per count of them the holder can get."""
        if not isinstance(entry, dict) or set(entry) != {"holder", "cards", "factors"}:
            raise self.fail(fieldname, "must be a table with exactly: holder, cards, factors")
        holder = self.who(entry["holder"], f"{fieldname}.holder", skat=True)
        cards = self.card_list(entry["cards"], f"{fieldname}.cards")
        outside = [str(c) for c in cards if c not in self.spec.unknown]
        if outside or len(set(cards)) != len(cards):
            why = f"not unknown cards: {' '.join(outside)}" if outside else "a card twice"
            raise self.fail(f"{fieldname}.cards", why)
        needed = min(len(cards), self.spec.sizes[holder]) + 1
        raw_factors = entry["factors"]
        if not isinstance(raw_factors, list) or len(raw_factors) != needed:
            raise self.fail(
                f"{fieldname}.factors",
                f"needs {needed} factors, one per count 0..{needed - 1} of those cards "
                f"{holder} can get",
            )
        # 0 is allowed: a factor may rule a count out
        factors = tuple(self.weight_of(v, f"{fieldname}.factors", zero=True) for v in raw_factors)
        return CountFactor(holder, frozenset(cards), factors)
