"""Weighted deal preparation in polynomial size.

Prepares :math:`\\sum_d \\sqrt{P(d)}\\,|d\\rangle` for the weighted deal of
:func:`~qcards.circuits.gates.states.deal_distribution` one card at a time, without listing the
deals. What the rest of a deal may be depends only on a few counts: how many cards each
receiver already has, and how many of each tally's cards went to its receiver. Call those
counts the state s. The partition sum :math:`Z_j(s)`, the total weight of the ways to deal
cards j..n-1 from state s, follows from :math:`Z_{j+1}` by a backward recursion over the
(polynomially many) states, in exact fractions. Given s, card j goes to r with probability
:math:`w_{jr} Z_{j+1}(s + e_r) / Z_j(s)`: its owner register is rotated into that distribution
bit by bit from the top, each bit by a multiplexed RY (Qiskit's UCRYGate) controlled on the
counter registers that hold s and on the owner bits already set. Then the counters are advanced
by controlled increments, and after the last card they are uncomputed (undone in reverse, or
reset by X gates when every deal leaves them with the same value), so the ancillas end clean.

A multiplexer with k controls costs 2**k CX, so each rotation keeps only the controls its
angle depends on over the reachable states (greedily), and counters no rotation reads are
never built. The cost is polynomial in the number of cards for a fixed number of receivers and
tallies, but exponential in the counters' total width: each card pays up to
2**(counter qubits + owner bits) CX.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache

from qiskit import transpile
from qiskit.circuit import Gate, QuantumCircuit, QuantumRegister
from qiskit.circuit.library import MCXGate, UCRYGate

from qcards.circuits.gates.states import (
    Tally,
    WeightedDeal,
    check_deal_shape,
    normalise_tallies,
    normalise_weights,
)
from qcards.skat.position.prior import deal_partition

State = tuple[int, ...]
"""Counts so far: one per receiver, then one per tally."""


@dataclass(frozen=True)
class _Counter:
    """A counter register: cards of ``cards`` (every card if None) dealt to ``receiver``."""

    receiver: int
    cards: frozenset[int] | None
    slot: int  # its count's place in a State
    bits: int

    def counts(self, card: int, receiver: int) -> bool:
        return receiver == self.receiver and (self.cards is None or card in self.cards)


class _Model:
    """The reachable states before each card, their partition sums, and the conditional
    probabilities of the next card's receiver (exact)."""

    def __init__(self, sizes, weights, tallies: tuple[Tally, ...]) -> None:
        self.sizes, self.weights, self.tallies = sizes, weights, tallies
        n, num_receivers = sum(sizes), len(sizes)
        start = (0,) * (num_receivers + len(tallies))
        # the partition sums Z_j(s) over the reachable states (the prior's dynamic program)
        z = deal_partition(sizes, weights, [(t.receiver, t.cards, t.factors) for t in tallies])
        if z[0][start] == 0:
            raise ValueError(
                "no deal has positive weight (the weights and tallies exclude them all)"
            )
        # live[j][s]: the receivers card j may go to from s, with their probabilities
        self.live: list[dict[State, dict[int, Fraction]]] = []
        states = {start}
        for j in range(n):
            table = {}
            for s in sorted(states):
                p = {
                    r: self.weights[j][r] * z[j + 1][self.step(s, j, r)] / z[j][s]
                    for r in self.moves(s, j)
                }
                table[s] = {r: x for r, x in p.items() if x > 0}
            self.live.append(table)
            states = {self.step(s, j, r) for s, p in table.items() for r in p}
        self.final = states

    def moves(self, s: State, j: int) -> list[int]:
        return [r for r, x in enumerate(self.weights[j]) if x > 0 and s[r] < self.sizes[r]]

    def step(self, s: State, j: int, r: int) -> State:
        out = list(s)
        out[r] += 1
        base = len(self.sizes)
        for k, t in enumerate(self.tallies):
            if t.receiver == r and j in t.cards:
                out[base + k] += 1
        return tuple(out)


# A control candidate: ("c", counter index, bit) or ("o", owner bit of the current card).
Control = tuple


def _fewest(candidates: list[Control], fits: Callable[[list[int]], bool]) -> list[int]:
    """A small subset of the candidate indices that still ``fits`` (greedy removal, tried in
    two orders; the full set must fit)."""
    best = None
    for order in (range(len(candidates)), range(len(candidates) - 1, -1, -1)):
        kept = list(range(len(candidates)))
        for c in order:
            trial = [k for k in kept if k != c]
            if fits(trial):
                kept = trial
        if best is None or len(kept) < len(best):
            best = kept
    assert best is not None  # the loop ran (two orders)
    return best


@dataclass
class _Rotation:
    card: int
    bit: int
    controls: list[Control]
    angles: list[float]


@dataclass
class _Flip:
    """Part of a controlled increment: X on ``target`` when the controls hold ``pattern``."""

    target: Control
    controls: list[Control]
    pattern: list[int]


@dataclass
class _Plan:
    rotations: list[list[_Rotation]]  # per card
    counters: list[_Counter]
    bits: dict[int, list[int]]  # counter -> allocated bits (only the ones needed)
    flips: list[list[_Flip]]  # per card, the increments, in order
    undo: list[_Flip]  # applied in this order at the end
    reset: list[Control]  # X at the end
    cost: int  # estimated CX

    @property
    def num_ancillas(self) -> int:
        return sum(len(b) for b in self.bits.values())


@cache
def _mcx_cx(num_controls: int) -> int:
    """CX of Qiskit's MCX with ``num_controls`` controls and no ancillas (transpiled once)."""
    if num_controls <= 1:
        return num_controls
    qc = QuantumCircuit(num_controls + 1)
    qc.append(MCXGate(num_controls), range(num_controls + 1))
    return transpile(qc, basis_gates=["u", "cx"], optimization_level=0).count_ops().get("cx", 0)


def _counters(sizes, tallies, drop: int | None) -> list[_Counter]:
    out = [
        _Counter(r, None, r, size.bit_length())
        for r, size in enumerate(sizes)
        if r != drop and size
    ]
    out += [
        _Counter(t.receiver, t.cards, len(sizes) + k, t.count_range(sizes).bit_length())
        for k, t in enumerate(tallies)
        if t.count_range(sizes)
    ]
    return out


def _plan_rotations(model: _Model, counters: list[_Counter], width: int) -> list[list[_Rotation]]:
    counter_bits = [("c", x, i) for x, c in enumerate(counters) for i in reversed(range(c.bits))]
    out = []
    for j, table in enumerate(model.live):
        card = []
        for b in range(width - 1, -1, -1):
            candidates: list[Control] = counter_bits + [("o", h) for h in range(b + 1, width)]
            rows = []
            for s, p in table.items():
                for prefix in range(1 << (width - 1 - b)):
                    group = {r: x for r, x in p.items() if r >> (b + 1) == prefix}
                    mass = sum(group.values(), Fraction(0))
                    if not mass:
                        continue
                    ones = sum((x for r, x in group.items() if (r >> b) & 1), Fraction(0))
                    key = tuple(
                        (s[counters[c[1]].slot] >> c[2]) & 1
                        if c[0] == "c"
                        else (prefix >> (c[1] - b - 1)) & 1
                        for c in candidates
                    )
                    rows.append((key, ones / mass))
            if all(v == 0 for _, v in rows):
                continue

            def fits(kept, rows=rows):
                seen = {}
                for key, v in rows:
                    if seen.setdefault(tuple(key[k] for k in kept), v) != v:
                        return False
                return True

            kept = _fewest(candidates, fits)
            angles = [0.0] * (1 << len(kept))
            for key, v in rows:
                index = sum(key[k] << pos for pos, k in enumerate(kept))
                angles[index] = 2 * math.atan2(math.sqrt(v), math.sqrt(1 - v))
            card.append(_Rotation(j, b, [candidates[k] for k in kept], angles))
        out.append(card)
    return out


def _plan_flip(model: _Model, counters, x: int, bit: int, j: int, width: int) -> _Flip | None:
    """Bit ``bit`` of counter ``x``'s increment for card j: the cube that flips it."""
    counter = counters[x]
    candidates = [("o", h) for h in range(width)] + [("c", x, i) for i in range(bit)]
    pattern = [(counter.receiver >> h) & 1 for h in range(width)] + [1] * bit
    rows = []
    for s, p in model.live[j].items():
        v = s[counter.slot]
        for r in p:
            key = tuple(((r >> h) & 1) for h in range(width)) + tuple(
                (v >> i) & 1 for i in range(bit)
            )
            rows.append((key, counter.counts(j, r) and ((v ^ (v + 1)) >> bit) & 1))
    if not any(want for _, want in rows):
        return None

    def fits(kept):
        return all(want or any(key[k] != pattern[k] for k in kept) for key, want in rows)

    kept = _fewest(candidates, fits)
    return _Flip(("c", x, bit), [candidates[k] for k in kept], [pattern[k] for k in kept])


def _flip_cx(flip: _Flip) -> int:
    return _mcx_cx(len(flip.controls))


def _plan(sizes, width, model: _Model, drop: int | None) -> _Plan:
    n = sum(sizes)
    counters = _counters(sizes, model.tallies, drop)
    rotations = _plan_rotations(model, counters, width)
    cost = sum(1 << len(rot.controls) for card in rotations for rot in card if rot.controls)
    flips: list[list[_Flip]] = [[] for _ in range(n)]
    undo: list[_Flip] = []
    reset: list[Control] = []
    bits: dict[int, list[int]] = {}
    for x, counter in enumerate(counters):
        reads = [
            (rot.card, c[2])
            for card in rotations
            for rot in card
            for c in rot.controls
            if c[0] == "c" and c[1] == x
        ]
        if not reads:
            continue
        finals = {s[counter.slot] for s in model.final}
        options = [(max(j for j, _ in reads), False)]
        if len(finals) == 1:
            options.append((n, True))
        best = None
        for until, by_reset in options:
            needed = {i for _, i in reads}
            chosen: dict[int, list[_Flip]] = {}
            for i in range(counter.bits - 1, -1, -1):
                if i not in needed:
                    continue
                for j in range(until):
                    flip = _plan_flip(model, counters, x, i, j, width)
                    if flip is not None:
                        chosen.setdefault(j, []).append(flip)
                        needed |= {c[2] for c in flip.controls if c[0] == "c"}
            price = sum(_flip_cx(f) for fs in chosen.values() for f in fs) * (1 if by_reset else 2)
            if best is None or price < best[0]:
                best = (price, needed, chosen, by_reset)
        assert best is not None  # options holds at least one choice
        price, needed, chosen, by_reset = best
        cost += price
        bits[x] = sorted(needed)
        for j, fs in chosen.items():
            fs.sort(key=lambda f: -f.target[2])  # top bit first: each sees the old lower bits
            flips[j].extend(fs)
            if not by_reset:
                undo.extend(fs)
        if by_reset:
            (final,) = finals
            reset += [("c", x, i) for i in sorted(needed) if (final >> i) & 1]
    order = {id(f): k for k, f in enumerate(f for fs in flips for f in fs)}
    undo.sort(key=lambda f: -order[id(f)])
    return _Plan(rotations, counters, bits, flips, undo, reset, cost)


def _cheapest_plan(sizes, width, weights, tallies) -> _Plan:
    """The cheapest plan (by estimated CX) over the choice of the receiver whose counter is
    left out (its count is the card index minus the others'), or none left out."""
    model = _Model(sizes, weights, tallies)
    best = None
    for drop in [None, *range(len(sizes))]:
        plan = _plan(sizes, width, model, drop)
        if best is None or (plan.cost, plan.num_ancillas) < (best.cost, best.num_ancillas):
            best = plan
    assert best is not None  # drop=None is always tried
    return best


class WeightedDealGate(WeightedDeal, Gate):
    """The weighted deal :math:`\\sum_d \\sqrt{P(d)}|d\\rangle`, P as in
    :func:`~qcards.circuits.gates.states.deal_distribution`, prepared in polynomial size.

    Same contract as :class:`~qcards.circuits.gates.states.DealGate` on its first
    ``n * width`` qubits (card j's owner register on qubits ``j*width ..``, holding the
    receiver's index, little-endian), followed by :attr:`num_ancillas` clean ancillas (the
    counters) that end clean.

    Args:
        sizes: cards received by each receiver, in receiver order.
        width: qubits per owner register (at least ceil(log2(len(sizes)))).
        weights: ``weights[j][r] >= 0``, the weight of card j going to receiver r (0: never);
            None for all 1.
        tallies: :class:`~qcards.circuits.gates.states.Tally` factors of a deal's weight.

    Raises:
        ValueError: bad sizes, width too small, weights of the wrong shape or negative, bad
            tallies, or no deal of positive weight.
    """

    def __init__(
        self,
        sizes: Sequence[int],
        width: int,
        weights=None,
        tallies: Sequence[Tally] = (),
        label: str | None = None,
    ) -> None:
        sizes = check_deal_shape(sizes, width)
        self.sizes = sizes
        self.width = width
        self.num_cards = sum(sizes)
        self.weights = normalise_weights(sizes, weights)
        self.tallies = normalise_tallies(sizes, tallies)
        self.plan = _cheapest_plan(sizes, width, self.weights, self.tallies)
        self.num_ancillas = self.plan.num_ancillas
        super().__init__(
            "u_ini_weighted", self.num_cards * width + self.num_ancillas, [], label=label
        )

    def _define(self) -> None:
        self.definition = _synth_weighted_deal(self)


def _synth_weighted_deal(gate: WeightedDealGate) -> QuantumCircuit:
    n, w, plan = gate.num_cards, gate.width, gate.plan
    owner = QuantumRegister(n * w, "owner")
    ancilla = QuantumRegister(gate.num_ancillas, "counter")
    qc = QuantumCircuit(owner, ancilla, name="u_ini_weighted")
    place = {}
    free = iter(ancilla)
    for x, bits in plan.bits.items():
        for i in bits:
            place[("c", x, i)] = next(free)

    def qubit(control: Control, card: int):
        return owner[card * w + control[1]] if control[0] == "o" else place[control]

    def flip(f: _Flip, card: int) -> None:
        # A controlled +1 is a cascade of multi-controlled X (top bit first). Qiskit's adders
        # add registers, which would need a register holding the 1; the cascade is the direct
        # form, and lets each MCX keep only the controls the reachable counts need.
        controls = [qubit(c, card) for c in f.controls]
        state = sum(v << k for k, v in enumerate(f.pattern))
        if controls:
            qc.append(MCXGate(len(controls), ctrl_state=state), [*controls, place[f.target]])
        else:
            qc.x(place[f.target])

    card_of = {}
    for j in range(n):
        for rot in plan.rotations[j]:
            target = owner[j * w + rot.bit]
            if rot.controls:
                controls = [qubit(c, j) for c in rot.controls]
                qc.append(UCRYGate(rot.angles), [target, *controls])
            else:
                qc.ry(rot.angles[0], target)
        for f in plan.flips[j]:
            card_of[id(f)] = j
            flip(f, j)
    for f in plan.undo:
        flip(f, card_of[id(f)])
    for c in plan.reset:
        qc.x(place[c])
    return qc


def weighted_deal_cx(sizes, width, weights=None, tallies: Sequence[Tally] = ()) -> int:
    """CX count of :class:`WeightedDealGate`, found by transpiling its circuit to
    ``{u, cx}`` at optimization level 0 (not a formula: the MCX lowering is Qiskit's)."""
    gate = WeightedDealGate(sizes, width, weights, tallies)
    qc = QuantumCircuit(gate.num_qubits)
    qc.append(gate, range(gate.num_qubits))
    return transpile(qc, basis_gates=["u", "cx"], optimization_level=0).count_ops().get("cx", 0)
