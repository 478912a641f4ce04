"""Resource counts of the game circuits: qubits, CX count and depth, paper vs efficient.

Counts are for the unrouted circuit lowered to the basis {cx, u} by Qiskit's transpiler
(optimization level 0, so nothing is cancelled that the construction did not cancel itself).

The endgame of ``N`` cards per player (:func:`resource_spec`) is three players with ``N`` cards
each and two cards in the skat, the declarer's hand known: ``N = 10`` is the real game, with 22
unknown cards. Circuits of the efficient construction are built and counted at every N. The
paper's construction grows exponentially (the deal is a dense state preparation on all owner
qubits, card play a product over all hands, Eq. 12), so beyond :data:`PAPER_BUILD_LIMIT` it is
counted from its exact term structure (:func:`paper_play_terms`) and calibrated per-term gate
costs, validated against built circuits at small N (tests); each stage says which it is.
"""

from __future__ import annotations

import math
import tomllib
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache

from qiskit import QuantumCircuit
from qiskit.circuit.library import MCXGate
from qiskit.converters import circuit_to_dag

from qcards.circuits.construction import CONSTRUCTIONS
from qcards.circuits.game import build_game
from qcards.circuits.gates.states import WStateGate
from qcards.circuits.gates.trick import TrickTakingGate
from qcards.circuits.layout import GameLayout
from qcards.errors import ResourceError, SpecError
from qcards.execution.transpile import LOWERED_BASIS, lower
from qcards.skat.cards import RANKS, SUITS, Card
from qcards.skat.spec import Endgame, spec_from_dict

PAPER_BUILD_LIMIT = 2
"""Largest N for which the paper construction is built (N = 3 already needs a dense state
preparation on 32 qubits)."""

BASIS = LOWERED_BASIS
STAGE_KINDS = ("deal", "play", "trick")


@dataclass(frozen=True)
class Count:
    """CX count and depth of one part of the circuit; ``source`` is ``built`` or ``formula``."""

    cx: int
    depth: int
    source: str

    def to_json(self) -> dict:
        return {"cx": self.cx, "depth": self.depth, "source": self.source}


@dataclass(frozen=True)
class ResourceReport:
    """What ``qcards resources`` reports for one construction and N."""

    construction: str
    cards_per_player: int
    num_qubits: int
    stages: dict[str, Count]

    def to_json(self) -> dict:
        return {
            "construction": self.construction,
            "cards_per_player": self.cards_per_player,
            "num_qubits": self.num_qubits,
            "stages": {name: count.to_json() for name, count in self.stages.items()},
        }


# ----------------------------------------------------------------------------- the endgame


def resource_spec(cards_per_player: int, skat: bool = True) -> Endgame:
    """Three players with N cards each and (by default) two in the skat; A's hand is known.

    The 3N (+ 2) cards are the first ones of the deck taken rank by rank (all jacks, then all
    aces, ...), so every suit is present at every N; the declarer holds every third of them.
    Clubs are trump, the declarer leads, the trick winner leads the next trick.
    """
    n = cards_per_player
    if not isinstance(n, int) or not 1 <= n <= 10:
        raise ResourceError(f"cards per player must be in 1..10, got {n!r}")
    deck = [Card(s, r) for r in ("J", *[r for r in RANKS if r != "J"]) for s in SUITS]
    cards = deck[: 3 * n + (2 if skat else 0)]
    declarer = cards[0::3][:n]
    unknown = [c for c in cards if c not in declarer]
    sizes = {"B": n, "C": n, **({"skat": 2} if skat else {})}
    return spec_from_dict(
        {
            "players": ["A", "B", "C"],
            "trump": "clubs",
            "leader": "A",
            "winner_leads": True,
            "declarer_points": 0,
            "target": 61,
            "hands": {"A": [str(c) for c in declarer]},
            "unknown": {"cards": [str(c) for c in unknown], "sizes": sizes},
        },
        source=f"{n} cards per player{' and the skat' if skat else ''}",
    )


def with_prior_text(spec: Endgame, prior: str, source: str) -> Endgame:
    """``spec`` with the ``[prior]`` table of the TOML text ``prior`` (checked like a spec's)."""
    try:
        table = tomllib.loads(prior)
    except tomllib.TOMLDecodeError as exc:
        raise SpecError(f"{source}: TOML syntax error: {exc}") from None
    extra = sorted(set(table) - {"prior"})
    if extra or "prior" not in table:
        raise SpecError(f"{source}: field '{(extra or ['prior'])[0]}': expected one [prior] table")
    data = tomllib.loads(spec.to_toml())
    data["prior"] = table["prior"]
    return spec_from_dict(data, source=source)


# ----------------------------------------------------------------------------- built circuits


def depth(circuit: QuantumCircuit) -> int:
    """Circuit depth, as ``QuantumCircuit.depth()`` but through the DAG's longest path (in Rust);
    the Python loop of ``QuantumCircuit.depth`` took three quarters of a full-game count."""
    return circuit_to_dag(circuit).depth()


def _built(construction: str, spec: Endgame) -> tuple[int, dict[str, Count]]:
    game = build_game(spec, construction=construction)
    layout = game.layout
    kinds = ["deal"] * (len(game.circuit.data) - len(game.stages) + 1)
    kinds += ["play" if s.kind == "play" else "trick" for s in game.stages[1:]]
    totals = {kind: Counter() for kind in STAGE_KINDS}
    whole = layout.circuit("lowered")
    for kind, instruction in zip(kinds, game.circuit.data, strict=True):
        piece = layout.circuit(instruction.operation.name)
        piece.append(instruction)
        lowered = lower(piece)
        totals[kind]["cx"] += lowered.count_ops().get("cx", 0)
        totals[kind]["depth"] += depth(lowered)
        whole.compose(lowered, inplace=True)
    stages = {k: Count(v["cx"], v["depth"], "built") for k, v in totals.items()}
    stages["game"] = Count(sum(v["cx"] for v in totals.values()), depth(whole), "built")
    return game.num_qubits, stages


# ----------------------------------------------------------------------------- paper formulas


@cache
def _calibrated(kind: str, size: int) -> tuple[int, int]:
    """(CX, depth) of one building block, lowered inside a wide circuit like the game's.

    ``mcx``: a multi-controlled X with ``size`` controls (Qiskit then uses idle qubits as dirty
    ancillas: 6 size - 6 CX); ``cw``: the controlled uniform one-hot state on ``size`` qubits.
    """
    spare = size + 4
    qc = QuantumCircuit(size + 1 + spare)
    if kind == "mcx":
        qc.append(MCXGate(size), range(size + 1))
    else:
        qc.append(WStateGate(size).control(1), range(size + 1))
    lowered = lower(qc)
    return lowered.count_ops().get("cx", 0), depth(lowered)


def _cube_cost(size: int) -> tuple[int, int]:
    """Computing (or uncomputing) a cube of ``size`` conditions into the flag."""
    return _calibrated("mcx", size) if size else (0, 0)


def paper_deal_count(spec: Endgame) -> Count:
    """U_ini as Qiskit's dense state preparation on q owner qubits: 2^q - q - 1 CX."""
    q = len(spec.unknown) * GameLayout.owner_width_for(spec)
    if q == 0:
        return Count(0, 0, "formula")
    cx = 2**q - q - 1
    return Count(cx, 2 * cx + 1, "formula")


def paper_play_terms(spec: Endgame, trick: int, position: int) -> Iterator[tuple[int, int, int]]:
    """The terms of CP (Eq. 12) counted by hand composition: (cube size, legal cards, count).

    A term is a hand of the player to move (k cards among its candidates) and, after the lead,
    a led card. Its cube conditions the leader, each hand card's owner register and earlier play
    bits, and the led card's owner and play bit; its W state spans the legal cards. Hands with
    the same number of cards in each (known/unknown, suit) group give the same term, so they
    are counted with binomials instead of listed.
    """
    layout = GameLayout(spec)
    rules = spec.rules
    w = layout.owner_width
    k = spec.hand_size - trick + 1
    n = len(spec.players)
    lead_bits = 0 if trick == 1 or not spec.winner_leads else layout.winner_width

    def group(card: Card) -> tuple[bool, str]:
        return (spec.owner_of_known(card) is None, rules.effective_suit(card))

    for leader in layout.possible_leaders(trick):
        player = spec.players[(spec.players.index(leader) + position) % n]
        groups = Counter(group(c) for c in spec.candidates(player))
        keys = sorted(groups)
        led_groups = Counter(group(c) for c in spec.candidates(leader)) if position else None
        for counts in _compositions([groups[g] for g in keys], k):
            hands = math.prod(math.comb(groups[g], h) for g, h in zip(keys, counts, strict=True))
            held = dict(zip(keys, counts, strict=True))
            cube = lead_bits + sum(
                h * ((w if unknown else 0) + trick - 1) for (unknown, _), h in held.items()
            )
            if not position:
                yield cube, k, hands
                continue
            for (unknown, suit), available in led_groups.items():
                free = available - (held.get((unknown, suit), 0) if unknown else 0)
                if free <= 0:
                    continue
                following = sum(h for (_, s), h in held.items() if s == suit)
                led_bits = (w if unknown else 0) + 1
                yield cube + led_bits, following or k, hands * free


def _compositions(limits: list[int], total: int) -> Iterator[tuple[int, ...]]:
    if not limits:
        if total == 0:
            yield ()
        return
    for first in range(min(limits[0], total) + 1):
        for rest in _compositions(limits[1:], total - first):
            yield (first, *rest)


def paper_play_count(spec: Endgame) -> Count:
    """Every CP gate of the paper construction, from :func:`paper_play_terms`."""
    cx = depth = 0
    for trick in range(1, spec.num_tricks + 1):
        for position in range(len(spec.players)):
            for cube, legal, count in paper_play_terms(spec, trick, position):
                mcx = _cube_cost(cube)
                w_cx, w_depth = _calibrated("cw", legal) if cube else (3 * (legal - 1), legal)
                cx += count * (2 * mcx[0] + w_cx)
                depth += count * (2 * mcx[1] + w_depth)
    return Count(cx, depth, "formula")


def paper_trick_count(spec: Endgame) -> Count:
    """Every TT gate of the paper construction, from its terms (Eq. 15; polynomially many)."""
    layout = GameLayout(spec)
    cx = depth = 0
    for trick in range(1, spec.num_tricks + 1):
        for term in TrickTakingGate(layout, trick).terms():
            seat = spec.players.index(term.winner)
            flips = seat.bit_count()
            size = len(term.cube)
            if flips == 1:
                c, d = _cube_cost(size)
            elif flips > 1:
                c, d = _cube_cost(size)
                c, d = 2 * c + flips, 2 * d + 1
            else:
                c = d = 0
            cx += c
            depth += d
    return Count(cx, depth, "formula")


def _paper_formula(spec: Endgame) -> tuple[int, dict[str, Count]]:
    stages = {
        "deal": paper_deal_count(spec),
        "play": paper_play_count(spec),
        "trick": paper_trick_count(spec),
    }
    stages["game"] = Count(
        sum(c.cx for c in stages.values()), sum(c.depth for c in stages.values()), "formula"
    )
    return GameLayout(spec).num_qubits, stages


# ----------------------------------------------------------------------------- entry point


def count_resources(
    cards_per_player: int,
    construction: str = "efficient",
    use_formula: bool | None = None,
    prior: str | None = None,
    prior_source: str = "<prior>",
) -> ResourceReport:
    """Qubits, CX count and depth of the whole game for N cards per player.

    Args:
        cards_per_player: N in 1..10 (:func:`resource_spec`).
        construction: ``paper`` or ``efficient``.
        use_formula: count the paper construction from its formula (default: beyond
            :data:`PAPER_BUILD_LIMIT`); the efficient construction is always built.
        prior: TOML text of a ``[prior]`` table (:mod:`qcards.skat.prior`) for the endgame's
            deal: the efficient construction then deals with
            :class:`~qcards.circuits.gates.weighted_deal.WeightedDealGate`. Problems are
            :class:`~qcards.errors.SpecError` naming ``prior_source`` and the field.
    """
    if construction not in CONSTRUCTIONS:
        raise ResourceError(
            f"unknown construction {construction!r} (expected {' | '.join(CONSTRUCTIONS)})"
        )
    spec = resource_spec(cards_per_player)
    if prior is not None:
        if construction != "efficient":
            raise ResourceError(
                "a weighted deal is counted for the efficient construction (the paper's dense "
                "state preparation has the same gates for any amplitudes)"
            )
        spec = with_prior_text(spec, prior, prior_source)
    if construction == "paper":
        formula = cards_per_player > PAPER_BUILD_LIMIT if use_formula is None else use_formula
        if formula:
            qubits, stages = _paper_formula(spec)
        else:
            qubits, stages = _built("paper", spec)
    else:
        qubits, stages = _built("efficient", spec)
    return ResourceReport(construction, cards_per_player, qubits, stages)
