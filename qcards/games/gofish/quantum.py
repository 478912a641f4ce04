"""Quantum Go Fish as a quantum state: the deals consistent with a record, and their number.

Nobody's cards exist in Quantum Go Fish until the questions pin them down; the state of the game
*is* the set of deals still consistent with what was asked and answered. This module prepares
that set as a uniform superposition and counts it with amplitude estimation, reusing the Skat
machinery:

* the deal: :class:`~qcards.circuits.gates.dicke.MultinomialDealGate` (the polynomial U_ini of Skat,
  Eq. 1) deals the physical cards (four of each of n suits, in suit order) into n hands of
  four, every deal with the same amplitude; each card's owner register holds the player's
  index;
* the record: every question and answer bounds one entry of the *initial* count matrix (cards
  change hands only by known transfers, so "player p holds at least one s now" is "p was dealt
  at least 1 - (s-cards p received since)"; see :class:`~.knowledge.Knowledge`). The oracle
  counts the cards of each bounded cell into a small register with controlled increments, flags
  the cells whose count lies in bounds, and sets the objective qubit to the AND of the flags;
  the counts and flags are uncomputed, so the objective's 1-branch is exactly the uniform
  superposition of the consistent deals, with every ancilla back at 0;
* the number: amplitude estimation of the objective
  (:func:`qcards.estimation.amplitude.estimate_amplitude`, the same estimators as Skat's
  weighted counting) gives a = N / N_total, so N = N_total a.

Two notions of "deal" are offered. ``cards`` counts deals of the physical cards (suit-mates
told apart, the measure a shuffled deck gives): all 4n cards are dealt. ``hands`` counts count
matrices, the game's own states (how many of each suit each hand holds). There the cards the
record commits (each cell's lower bound) are put in place first and only the rest is dealt,
and the oracle also demands that the dealt cards of each suit have non-decreasing owners,
which keeps exactly one dealt arrangement per count matrix. Placing the committed cards shrinks
the prepared set N_total by orders of magnitude late in a game (for the three-player sample
game of seed 000: from 34,650 to 90 deals), and with it the precision amplitude estimation
needs to pin the count to a whole number. The exact numbers come from :func:`count_deals`, a
dynamic program over suits.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from qiskit import QuantumCircuit, QuantumRegister
from qiskit.circuit import Qubit
from qiskit.circuit.library import MCXGate
from qiskit.primitives import BaseSamplerV2
from qiskit_algorithms import EstimationProblem

from qcards.circuits.gates.arithmetic import decrement, increment
from qcards.circuits.gates.cubes import cube_x
from qcards.circuits.gates.dicke import MultinomialDealGate
from qcards.errors import ModelError
from qcards.estimation.amplitude import estimate_amplitude
from qcards.estimation.options import EstimationOptions
from qcards.execution.sampling import default_sampler
from qcards.files import json_fields
from qcards.games.gofish.knowledge import Knowledge
from qcards.games.gofish.record import Record, replay
from qcards.skat.deals.count import multinomial

HAND = 4
"""Cards per hand at the deal, and cards per suit."""
KINDS = ("cards", "hands")

Matrix = tuple[tuple[int, ...], ...]
Cell = tuple[int, int]
"""(player, suit), both indices from 0."""


@dataclass(frozen=True)
class DealConstraints:
    """Bounds on the initial count matrix: ``bounds[(p, s)] = (low, high)`` for player p, suit s.

    Cells not listed may hold anything from 0 to 4. ``players`` is n (there are n suits).
    """

    players: int
    bounds: Mapping[Cell, tuple[int, int]]

    def __post_init__(self) -> None:
        if not 2 <= self.players <= 8:
            raise ModelError(f"players must lie in 2..8, got {self.players}")
        for (p, s), (low, high) in self.bounds.items():
            if not (0 <= p < self.players and 0 <= s < self.players):
                raise ModelError(f"cell {(p, s)} outside a {self.players}-player game")
            if not 0 <= low <= high <= HAND:
                raise ModelError(f"cell {(p, s)}: bounds {(low, high)} outside 0..{HAND}")

    @classmethod
    def from_knowledge(cls, knowledge: Knowledge) -> DealConstraints:
        """The referee's bounds on the initial deal (named suits first, in naming order).

        Raises:
            ModelError: if the knowledge is inconsistent (a paradox: no deal is consistent).
        """
        if not knowledge.feasible:
            raise ModelError("the game ended in a paradox: no deal is consistent with it")
        n = knowledge.size
        return cls(
            n,
            {
                (p, s): (knowledge.lower[p][s], knowledge.upper[p][s])
                for p in range(n)
                for s in range(n)
            },
        )

    def limits(self, cell: Cell) -> tuple[int, int]:
        return self.bounds.get(cell, (0, HAND))

    def restricting(self) -> list[Cell]:
        """The cells whose bounds exclude some count (the oracle only looks at these)."""
        return sorted(c for c, b in self.bounds.items() if b != (0, HAND))


def count_deals(constraints: DealConstraints, kind: str = "cards") -> int:
    """Exact number of consistent deals (the classical referee of :func:`count_with_circuit`).

    Suits are dealt one after the other; the state is how many cards each hand still takes.
    A suit's column (c_0, ..., c_{n-1}) adds weight 4!/prod c_p! (``cards``: its physical
    cards' deals) or 1 (``hands``).
    """
    _check_kind(kind)
    n = constraints.players
    states: dict[tuple[int, ...], int] = {(HAND,) * n: 1}
    for suit in range(n):
        nxt: dict[tuple[int, ...], int] = {}
        for room, ways in states.items():
            for column in _columns(constraints, suit, room):
                weight = multinomial(column) if kind == "cards" else 1
                rest = tuple(r - c for r, c in zip(room, column, strict=True))
                nxt[rest] = nxt.get(rest, 0) + ways * weight
        states = nxt
    return states.get((0,) * n, 0)


def _columns(constraints: DealConstraints, suit: int, room: Sequence[int]):
    """Every split of the suit's four cards among the hands, within bounds and room."""

    def split(p: int, left: int):
        if p == len(room):
            if left == 0:
                yield ()
            return
        low, high = constraints.limits((p, suit))
        for c in range(low, min(high, room[p], left) + 1):
            for tail in split(p + 1, left - c):
                yield (c, *tail)

    yield from split(0, HAND)


def _check_kind(kind: str) -> None:
    if kind not in KINDS:
        raise ModelError(f"kind must be one of {KINDS}, got {kind!r}")


# ----------------------------------------------------------------------------- the circuit


@dataclass(frozen=True)
class DealCircuit:
    """A = (deal) . (consistency oracle): objective reads 1 exactly on the consistent deals.

    Attributes:
        circuit: the state preparation A (no measurements).
        objective: index of the objective qubit in ``circuit``.
        owners: for each dealt card, the indices of its owner register (low bit first).
        suits: the suit of each dealt card.
        placed: cards put in hand before the deal, ``placed[player][suit]``.
        total: deals prepared with equal amplitude (the multinomial of the dealt cards over the
            hands' room; (4n)!/(4!)^n when nothing is placed).
        kind: ``cards`` or ``hands`` (what a flagged basis state stands for).
    """

    circuit: QuantumCircuit
    objective: int
    owners: tuple[tuple[int, ...], ...]
    suits: tuple[int, ...]
    placed: Matrix
    total: int
    kind: str

    @property
    def num_qubits(self) -> int:
        return self.circuit.num_qubits

    def problem(self) -> EstimationProblem:
        """The amplitude-estimation problem a = P(objective = 1) = N / total."""
        return EstimationProblem(state_preparation=self.circuit, objective_qubits=[self.objective])


def placed_cards(constraints: DealConstraints, kind: str) -> Matrix:
    """Cards put in place before the deal: none for ``cards``; for ``hands`` every card the
    record commits (the lower bounds), so that only the rest is dealt."""
    n = constraints.players
    if kind == "cards":
        return tuple((0,) * n for _ in range(n))
    return tuple(tuple(constraints.limits((p, s))[0] for s in range(n)) for p in range(n))


def build_deal_circuit(constraints: DealConstraints, kind: str = "cards") -> DealCircuit:
    """Deal the cards uniformly, then flag the deals the constraints allow (see the module
    docstring). Raises :class:`ModelError` for a ``kind`` other than ``cards`` or ``hands``."""
    _check_kind(kind)
    n = constraints.players
    placed = placed_cards(constraints, kind)
    room = tuple(HAND - sum(row) for row in placed)
    suit_of = [s for s in range(n) for _ in range(HAND - sum(row[s] for row in placed))]
    if min(room) < 0 or len(suit_of) != sum(room):
        raise ModelError("the lower bounds commit more cards than a hand or a suit holds")
    width = max(1, math.ceil(math.log2(n)))
    deal = MultinomialDealGate(room, width)
    owner = QuantumRegister(len(suit_of) * width, "owner")
    deal_ancilla = QuantumRegister(deal.num_ancillas, "deal_anc") if deal.num_ancillas else None
    counter = QuantumRegister(3, "count")  # a cell holds 0..4 cards
    cells = constraints.restricting()
    orders = [
        (first, first + 1)
        for first in range(len(suit_of) - 1)
        if kind == "hands" and suit_of[first] == suit_of[first + 1]
    ]
    flags = QuantumRegister(len(cells) + len(orders), "flag") if cells or orders else None
    objective = QuantumRegister(1, "objective")
    registers = [owner, *([deal_ancilla] if deal_ancilla else []), counter]
    registers += [*([flags] if flags else []), objective]
    qc = QuantumCircuit(*registers, name="gofish_deals")
    if suit_of:
        qc.append(deal, [*owner, *(deal_ancilla or [])])

    def holds(card: int, player: int) -> dict[Qubit, int]:
        code = owner[card * width : (card + 1) * width]
        return {q: (player >> b) & 1 for b, q in enumerate(code)}

    def flag_cell(cell: Cell, target: Qubit) -> None:
        player, suit = cell
        dealt = [card for card, s in enumerate(suit_of) if s == suit]
        for card in dealt:
            increment(qc, holds(card, player), counter)
        low, high = constraints.limits(cell)
        base = placed[player][suit]
        # dealt counts are exclusive values: an XOR of their cubes is their OR
        for value in range(max(low - base, 0), min(high - base, len(dealt)) + 1):
            cube_x(qc, {q: (value >> b) & 1 for b, q in enumerate(counter)}, target)
        for card in reversed(dealt):
            decrement(qc, holds(card, player), counter)

    def flag_order(order: tuple[int, int], target: Qubit) -> None:
        first, second = order
        qc.x(target)  # in order unless the two owners decrease
        for a in range(n):
            for b in range(a):
                cube_x(qc, {**holds(first, a), **holds(second, b)}, target)

    def compute_flags() -> None:
        for cell, target in zip(cells, flags or [], strict=False):
            flag_cell(cell, target)
        for order, target in zip(orders, (flags or [])[len(cells) :], strict=True):
            flag_order(order, target)

    compute_flags()
    if flags:
        qc.append(MCXGate(len(flags)), [*flags, objective[0]])
    else:
        qc.x(objective[0])
    compute_flags()  # every flag step is self-inverse: running them again clears the flags
    owners = tuple(
        tuple(qc.find_bit(q).index for q in owner[card * width : (card + 1) * width])
        for card in range(len(suit_of))
    )
    return DealCircuit(
        qc,
        qc.find_bit(objective[0]).index,
        owners,
        tuple(suit_of),
        placed,
        prepared_deals(constraints, kind),
        kind,
    )


def prepared_deals(constraints: DealConstraints, kind: str = "cards") -> int:
    """N_total: the deals :func:`build_deal_circuit` prepares, the multinomial of the dealt
    cards over the room left in each hand ((4n)!/(4!)^n when nothing is placed)."""
    room = [HAND - sum(row) for row in placed_cards(constraints, kind)]
    total = math.factorial(sum(room))
    for r in room:
        total //= math.factorial(r)
    return total


# ----------------------------------------------------------------------------- counting


@dataclass(frozen=True)
class DealCount:
    """Consistent deals counted by amplitude estimation, beside the exact number.

    Attributes:
        kind: ``cards`` or ``hands``.
        estimate: N_total times the estimated amplitude.
        ci: confidence interval for N.
        exact: the exact count (:func:`count_deals`).
        total: N_total, the card deals the circuit prepares.
        oracle_calls: Grover-operator applications, summed over shots.
        num_qubits: width of A.
    """

    kind: str
    estimate: float
    ci: tuple[float, float]
    exact: int
    total: int
    oracle_calls: int
    num_qubits: int
    method: str

    @property
    def rounded(self) -> int:
        return round(self.estimate)

    @property
    def resolved(self) -> bool:
        """Whether the interval holds a single whole number: the count is then pinned."""
        return math.floor(self.ci[1]) - math.ceil(self.ci[0]) == 0

    def to_json(self) -> dict:
        return {
            **json_fields(self, "kind estimate rounded"),
            "ci": list(self.ci),
            **json_fields(self, "resolved exact total method oracle_calls num_qubits"),
        }


def exact_fraction(constraints: DealConstraints, kind: str = "cards") -> Fraction:
    """P(objective = 1) in exact arithmetic: N / N_total."""
    return Fraction(count_deals(constraints, kind), prepared_deals(constraints, kind))


def record_constraints(
    record: Record, no_four: bool = False, lose_a_turn: bool = False, playing_on: bool = False
) -> DealConstraints:
    """The constraints a replayed record puts on the initial deal (see :meth:`from_knowledge`),
    under the variants given (a refused answer constrains nothing; a lay-down only moves cards).

    Raises:
        ModelError: if the record ends in a paradox (no deal is consistent with it).
    """
    played = replay(record, no_four, lose_a_turn, playing_on)
    if played.outcome.status == "paradox":
        raise ModelError(
            f"{record.source}: the game ends in a paradox at line {played.lines[-1]}: "
            "no deal is consistent with it"
        )
    return DealConstraints.from_knowledge(played.knowledge)


DEFAULT_OPTIONS = EstimationOptions(epsilon=0.002, eval_qubits=6)
"""Go Fish's default estimation: counts of hundreds of deals need a tight epsilon."""


def count_with_circuit(
    constraints: DealConstraints,
    kind: str = "cards",
    options: EstimationOptions = DEFAULT_OPTIONS,
    sampler: BaseSamplerV2 | None = None,
) -> DealCount:
    """Count the consistent deals by amplitude estimation on :func:`build_deal_circuit`.

    The estimators, options and backends are those of Skat's counting
    (:func:`qcards.estimation.amplitude.estimate_amplitude`); ``options.epsilon`` bounds the error
    of the
    probability a = N / N_total, so the count's error is about ``epsilon * N_total``: the count
    is pinned (:attr:`DealCount.resolved`) once that is below a half.
    """
    circuit = build_deal_circuit(constraints, kind)
    sampler = sampler or default_sampler(options.backend, options.shots, options.seed)
    found = estimate_amplitude(circuit.problem(), options, sampler)
    total = circuit.total
    return DealCount(
        kind=kind,
        estimate=found.estimate * total,
        ci=(found.ci[0] * total, found.ci[1] * total),
        exact=count_deals(constraints, kind),
        total=total,
        oracle_calls=found.oracle_calls,
        num_qubits=circuit.num_qubits + options.extra_qubits,
        method=options.algorithm,
    )
