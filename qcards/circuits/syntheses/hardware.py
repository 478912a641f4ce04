"""The hardware construction: game gates synthesised for few two-qubit gates on today's devices.

For small endgames (the paper's examples and a little beyond). The registers are the paper
construction's (``owner``, ``play``, ``winner``, one ``flag``), so every outcome decodes and is
checked the same way; only the synthesis of each stage differs. A stage gate is built from the
rules evaluated on the basis states the circuit reaches just before it -- its *care set*,
followed exactly while the circuit is built (the deal's support, then every branch each gate
adds). On every other basis state the gate may do anything: that freedom (don't-cares, as in
logic synthesis with reachability) is what makes the gates small. The referee's path list is
never read; the tests compare the circuit's exact final state with the referee's fractions.

* **Deal** (Eq. 1): Qiskit's :class:`~qiskit.circuit.library.StatePreparation` of the uniform
  deal state (11 CX for the four-card example).
* **Card play** (Eqs. 9-12): the player to move chooses uniformly among its legal cards
  (:meth:`~qcards.skat.position.stages.Snapshot.to_move`), one card after another: card c's play bit
  is rotated by :math:`2\\arcsin\\sqrt{1/r}`, r the legal cards from c on, unless a card was chosen
  already. For each rotation angle, the care states that need it are covered by a few cubes
  (:func:`cover`), computed into ``flag`` with relative-phase Toffolis and uncomputed after one
  controlled rotation (a forced card, r = 1, is an X).
* **Policy-weighted card play** (Sec. X.1, for every construction): the same sequential choice
  with card c's rotation :math:`2\\arcsin\\sqrt{\\pi(c) / \\sum_{c' \\ge c} \\pi(c')}`, the
  policy's weights on the mover's view of each care state (:func:`weighted_plays`); cards of
  weight 0 are skipped.
* **Trick taking** (Eq. 15): each bit of ``winner_t`` is a Boolean function of the cards on the
  table (:meth:`~qcards.skat.position.stages.Snapshot.trick_winner`), covered by cubes the same way
  and XOR-ed in through ``flag``.

The relative-phase Toffolis (:class:`~qiskit.circuit.library.RCCXGate`, ``RC3XGate``) are exact
here because every one is undone by its inverse before anything else touches its qubits but the
controlled operation, which only reads ``flag``. Qubit reuse by mid-circuit reset is not used:
every register is measured at the end.
"""

from __future__ import annotations

import itertools
import math
import threading
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from qiskit.circuit import Gate, QuantumCircuit, Qubit
from qiskit.circuit.library import MCXGate, RC3XGate, RCCXGate, RYGate, XGate

from qcards.circuits.gates.cubes import open_controls
from qcards.circuits.gates.deal import GameDealGate, reference_deal
from qcards.circuits.gates.play import CardPlayGate
from qcards.circuits.gates.trick import TrickTakingGate
from qcards.circuits.layout import GameLayout
from qcards.errors import ParameterError
from qcards.skat.deals.count import num_deals
from qcards.skat.position.seat_view import Policy
from qcards.skat.position.stages import Stage, stages
from qcards.skat.rules.cards import Card

HARDWARE_MAX_STATES = 20_000
"""Most care states a stage may have: the construction is for small endgames."""

_FORCED = math.pi

_ORDER_SEARCH = 4
"""Card plays with at most this many candidate cards try every order of the sequential choice
(the order changes the cubes); larger ones try three orders."""


@dataclass(frozen=True)
class _Mask:
    """A cube while the cover is searched: ``state & mask == value`` on basis states as
    integers (bit i: layout qubit i), which keeps the search fast; :meth:`cube` turns it into
    qcards' one cube type, ``{qubit: bit}`` (:mod:`qcards.circuits.gates.cubes`)."""

    mask: int
    value: int

    def holds(self, state: int) -> bool:
        return state & self.mask == self.value

    def cube(self, qubits: Sequence[Qubit]) -> dict[Qubit, int]:
        """The cube on the layout's ``qubits``."""
        return {qubits[i]: bit for i, bit in self.literals()}

    def literals(self) -> list[tuple[int, int]]:
        """(qubit index, wanted bit) of every literal."""
        out, mask, i = [], self.mask, 0
        while mask:
            if mask & 1:
                out.append((i, (self.value >> i) & 1))
            mask >>= 1
            i += 1
        return out


def _cube_cx(literals: int) -> int:
    """CX count of flipping ``flag`` on a cube of k literals (CX, RCCX, RC3X, then Qiskit's
    MCX synthesis without ancillas, roughly)."""
    return {0: 0, 1: 1, 2: 3, 3: 6, 4: 20}.get(literals, 12 * literals)


_SEARCH_LITERALS = 3
"""Cubes up to this many literals are searched exhaustively (around the uncovered states)."""


def cover(on: Iterable[int], off: Iterable[int], variables: Sequence[int]) -> list[_Mask]:
    """Cubes over ``variables`` (qubit indices) such that every state of ``on`` satisfies
    exactly one and no state of ``off`` satisfies any: on the care set ``on | off`` their XOR
    (and their OR) is the indicator of ``on``. The cheapest (:func:`cover_cx`) of three greedy
    covers: most new states per CX, most new states, and literals dropped from minterms.

    (Logic minimisers such as espresso give sums of products, not the disjoint covers an XOR
    of multi-controlled gates needs; with the care sets of small endgames this search is
    quick.)
    """
    on, off = list(dict.fromkeys(on)), list(off)
    covers = [_greedy_cover(on, off, variables, way) for way in ("ratio", "gain", "grow")]
    return min(covers, key=cover_cx)


def cover_cx(cubes: Sequence[_Mask]) -> int:
    """CX count of computing a cover into ``flag`` and uncomputing it."""
    return 2 * sum(_cube_cx(len(c.literals())) for c in cubes)


def _greedy_cover(on: list[int], off: list[int], variables: Sequence[int], way: str):
    uncovered = set(on)
    covered: list[int] = []
    cubes: list[_Mask] = []

    def clear(mask: int, value: int) -> bool:
        return not any(s & mask == value for s in off) and not any(
            s & mask == value for s in covered
        )

    search = min(_SEARCH_LITERALS, len(variables)) if way != "grow" else -1
    masks = [
        [sum(1 << v for v in chosen) for chosen in itertools.combinations(variables, k)]
        for k in range(search + 1)
    ]
    # clear() for every cube of a mask at once: the values the off states take on it, and
    # those of the covered states (brought up to date with the states covered since, when a
    # value passes the first test)
    off_values: dict[int, set[int]] = {}
    covered_values: dict[int, tuple[set[int], int]] = {}

    while uncovered:
        best: tuple[Any, int, int] | None = None  # (score, mask, value): one way's scores
        for k, of_size in enumerate(masks):
            for mask in of_size:
                blocked = off_values.get(mask)
                if blocked is None:
                    blocked = off_values[mask] = {s & mask for s in off}
                taken: set[int] | None = None
                seen = set()
                for s in uncovered:
                    value = s & mask
                    if value in seen:
                        continue
                    seen.add(value)
                    if value in blocked:
                        continue
                    if taken is None:
                        taken, known = covered_values.get(mask) or (set(), 0)
                        taken.update(c & mask for c in covered[known:])
                        covered_values[mask] = (taken, len(covered))
                    if value in taken:
                        continue
                    gain = sum(1 for u in uncovered if u & mask == value)
                    score = gain / max(1, _cube_cx(k)) if way == "ratio" else (gain, -k)
                    if best is None or score > best[0]:
                        best = (score, mask, value)
        if best is None:
            best = (0, *_grow(min(uncovered), variables, clear))
        cube = _Mask(best[1], best[2])
        newly = {s for s in uncovered if cube.holds(s)}
        uncovered -= newly
        covered.extend(newly)
        cubes.append(cube)
    return cubes


def _grow(seed: int, variables: Sequence[int], clear) -> tuple[int, int]:
    """A cube around ``seed``: its full minterm with literals dropped while still clear."""
    mask = sum(1 << v for v in variables)
    value = seed & mask
    for v in variables:
        m = mask & ~(1 << v)
        if clear(m, value & m):
            mask, value = m, value & m
    return mask, value


@dataclass(frozen=True)
class _Step:
    """One controlled operation of a stage: RY(angle) (X for pi) on ``target`` on ``cubes``."""

    target: int
    angle: float
    cubes: tuple[_Mask, ...]

    @property
    def direct(self) -> bool:
        """Controlled on the cube's qubits themselves instead of through ``flag``."""
        limit = 2 if self.angle == _FORCED else 1
        return len(self.cubes) == 1 and len(self.cubes[0].literals()) <= limit

    @property
    def cx(self) -> int:
        if self.direct:
            k = len(self.cubes[0].literals())
            return {0: 0, 1: 1, 2: 6}[k] if self.angle == _FORCED else 2 * k
        return cover_cx(self.cubes) + (1 if self.angle == _FORCED else 2)


class HardwarePlan:
    """The hardware syntheses of one game, built stage after stage when the game is built (the
    care set of each stage is what the stages before it reach)."""

    def __init__(
        self, layout: GameLayout, first: Card | None, policy: Policy | None = None
    ) -> None:
        spec = layout.spec
        self.spec, self.layout, self.first, self.policy = spec, layout, first, policy
        self.index = {q: i for i, q in enumerate(layout.qubits)}
        measured = len(layout.measured)
        if layout.qubits[:measured] != layout.measured:
            raise AssertionError("the measured registers must come first in the layout")
        self.measured_mask = (1 << measured) - 1
        self.flag = self.index[layout.flag[0]]
        self.states: set[int] = {0}

    # -- care set ---------------------------------------------------------------------------
    def snapshot(self, state: int, stage: Stage):
        return self.layout.decode(state & self.measured_mask, stage)

    def _check_size(self) -> None:
        if len(self.states) > HARDWARE_MAX_STATES:
            raise ParameterError(
                "construction",
                f"the hardware construction is for small endgames: this one reaches "
                f"{len(self.states)} basis states in one stage, more than {HARDWARE_MAX_STATES}",
            )

    # -- gates ------------------------------------------------------------------------------
    def deal(self) -> None:
        """The care set after the deal: the support of the reference deal state."""
        spec, layout = self.spec, self.layout
        if not layout.owner_width:
            return
        deals = num_deals(spec)
        if deals > HARDWARE_MAX_STATES:  # refused before the deal table is built
            raise ParameterError(
                "construction",
                f"the hardware construction and policy-weighted card plays are synthesised "
                f"from the basis states the circuit reaches, for small endgames: this one has "
                f"{deals} deals, more than {HARDWARE_MAX_STATES}",
            )
        owner_qubits = [self.index[q] for c in spec.unknown for q in layout.owner[c]]
        width = layout.owner_width
        states = set()
        for deal in reference_deal(spec, width).deal_table()[0].tolist():
            state = 0
            for j, receiver in enumerate(deal):
                for b in range(width):
                    if (receiver >> b) & 1:
                        state |= 1 << owner_qubits[j * width + b]
            states.add(state)
        self.states = states
        self._check_size()

    def play(self, trick: int, position: int) -> QuantumCircuit:
        spec = self.spec
        stage = Stage("play", trick, position)
        weights = {
            s: self.snapshot(s, stage).play_weights(spec, trick, position, self.policy, self.first)
            for s in self.states
        }
        cards = [c for c in spec.cards if any(c in w for w in weights.values())]
        if len(cards) <= _ORDER_SEARCH:
            orders = list(itertools.permutations(cards))
        else:
            orders = [tuple(cards), tuple(reversed(cards)), spec.rules.sorted(cards)]
        plans = [self._plan_play(order, trick, weights) for order in orders]
        steps, states = min(plans, key=lambda plan: sum(step.cx for step in plan[0]))
        self.states = states
        self._check_size()
        kind = "cp_hw" if self.policy is None else "cp_w"
        return self._gate(f"{kind}_t{trick}_p{position}", steps)

    def _plan_play(self, order, trick: int, weights) -> tuple[list[_Step], set[int]]:
        """The steps of the sequential choice in card order ``order`` (card c rotated by
        2 arcsin sqrt(w_c / the weight of the cards from c on), an X for the last one; uniform
        weights give 2 arcsin sqrt(1/r)), and the care states after it."""
        steps = []
        # per current state: (the state before the gate, the card chosen so far or None)
        current = {s: (s, None) for s in self.states}
        for card in order:
            target = self.index[self.layout.play[card][trick - 1]]
            angles: dict[int, float] = {}
            for state, (origin, chosen) in current.items():
                weight = weights[origin]
                cards = [c for c in order if c in weight]
                if chosen is None and card in cards:
                    rest = cards[cards.index(card) :]
                    if len(rest) == 1:
                        angles[state] = _FORCED
                    else:
                        share = weight[card] / sum(weight[c] for c in rest)
                        angles[state] = 2 * math.asin(math.sqrt(share))
            for angle in sorted(set(angles.values())):
                on = [s for s, a in angles.items() if a == angle]
                off = [s for s in current if angles.get(s) != angle]
                steps.append(self._step(on, off, target, angle))
            nxt = {}
            for state, (origin, chosen) in current.items():
                rotated = angles.get(state)
                if rotated is None:
                    nxt[state] = (origin, chosen)
                    continue
                nxt[state | (1 << target)] = (origin, card)
                if rotated != _FORCED:
                    nxt[state] = (origin, None)
            current = nxt
        return steps, set(current)

    def take(self, trick: int) -> QuantumCircuit:
        layout, spec = self.layout, self.spec
        stage = Stage("play", trick, len(spec.players) - 1)
        register = [self.index[q] for q in layout.winner[trick]]
        seat = {
            s: spec.players.index(self.snapshot(s, stage).trick_winner(spec, trick))
            for s in self.states
        }
        steps = []
        for b, target in enumerate(register):
            on = [s for s in self.states if (seat[s] >> b) & 1]
            off = [s for s in self.states if not (seat[s] >> b) & 1]
            if on:
                steps.append(self._step(on, off, target, _FORCED))
        self.states = {
            s | sum(1 << q for b, q in enumerate(register) if (seat[s] >> b) & 1)
            for s in self.states
        }
        return self._gate(f"tt_hw_{trick}", steps)

    # -- synthesis --------------------------------------------------------------------------
    def _step(self, on: list[int], off: list[int], target: int, angle: float) -> _Step:
        """RY(angle) on ``target`` (0 on every care state) exactly on the states ``on``."""
        care = on + off
        variables = [
            i
            for i in range(self.layout.num_qubits)
            if i not in (target, self.flag) and len({(s >> i) & 1 for s in care}) > 1
        ]
        return _Step(target, angle, tuple(cover(on, off, variables)))

    def _gate(self, name: str, steps: Sequence[_Step]) -> QuantumCircuit:
        qc = self.layout.circuit(name)
        qubits = self.layout.qubits
        flag = qubits[self.flag]
        for step in steps:
            target = qubits[step.target]
            op = RYGate(step.angle) if step.angle != _FORCED else None
            if step.direct:
                _apply_on_cube(qc, step.cubes[0].cube(qubits), target, op)
                continue
            for mask in step.cubes:
                _relative_phase_x(qc, mask.cube(qubits), flag)
            if op is None:
                qc.cx(flag, target)
            else:
                qc.append(op.control(1), [flag, target])
            for mask in reversed(step.cubes):
                _relative_phase_x(qc, mask.cube(qubits), flag, inverse=True)
        return qc


def _apply_on_cube(qc: QuantumCircuit, cube: dict[Qubit, int], target: Qubit, op) -> None:
    """X (``op`` None) or ``op`` on ``target``, controlled exactly on the cube."""
    controls = list(cube)
    with open_controls(qc, cube):
        if op is None:
            qc.append(MCXGate(len(controls)) if controls else XGate(), [*controls, target])
        elif controls:
            qc.append(op.control(len(controls)), [*controls, target])
        else:
            qc.append(op, [target])


def _relative_phase_x(
    qc: QuantumCircuit, cube: dict[Qubit, int], flag: Qubit, inverse: bool = False
) -> None:
    """``flag ^= cube`` up to a diagonal phase that the same call with ``inverse`` undoes."""
    controls = list(cube)
    with open_controls(qc, cube):
        if not controls:
            qc.x(flag)
        elif len(controls) == 1:
            qc.cx(controls[0], flag)
        elif len(controls) in (2, 3):
            gate = RCCXGate() if len(controls) == 2 else RC3XGate()
            qc.append(gate.inverse() if inverse else gate, [*controls, flag])
        else:
            qc.append(MCXGate(len(controls)), [*controls, flag])


def plan(layout: GameLayout, first: Card | None) -> dict[Stage, QuantumCircuit]:
    """Every stage's definition, synthesised in game order (each from the basis states the
    stages before it reach); :class:`~qcards.errors.ParameterError` when a stage reaches more
    than :data:`HARDWARE_MAX_STATES` of them."""
    builder = HardwarePlan(layout, first)
    builder.deal()
    out = {}
    for stage in stages(layout.spec):
        if stage.kind == "play":
            out[stage] = builder.play(stage.trick, stage.position)
        elif stage.kind == "trick":
            out[stage] = builder.take(stage.trick)
    return out


class WeightedPlays:
    """The definitions of a game's policy-weighted card plays, for any construction's layout
    without the paper's codes: the care sets followed from the deal (the construction's own
    deal and trick gates act the same on them), each card play synthesised from the policy's
    weights (:meth:`HardwarePlan.play`). Built on first use, once, for every stage: the sparse
    engine applies the weighted gates by their classical action and never asks for a
    definition on game states, so large endgames run without it.

    Raises (on first use) :class:`~qcards.errors.ParameterError` when a stage reaches more than
    :data:`HARDWARE_MAX_STATES` basis states.
    """

    def __init__(self, layout: GameLayout, first: Card | None, policy: Policy) -> None:
        if layout.code is not None:
            raise ParameterError(
                "paper_codes",
                "policy-weighted card plays do not keep the paper's card codes: leave them out",
            )
        self.layout, self.first, self.policy = layout, first, policy
        self._plays: dict[Stage, QuantumCircuit] | None = None
        self._lock = threading.Lock()

    def __getstate__(self) -> dict:
        """Pickled without the lock (circuits go to simulators' child processes)."""
        return {k: v for k, v in self.__dict__.items() if k != "_lock"}

    def __setstate__(self, state: dict) -> None:
        self.__dict__.update(state)
        self._lock = threading.Lock()

    def __call__(self, gate: CardPlayGate) -> QuantumCircuit:
        return self.plays()[Stage("play", gate.trick, gate.position)]

    def plays(self) -> dict[Stage, QuantumCircuit]:
        """Every weighted card play's definition, by stage (built on the first call)."""
        with self._lock:
            if self._plays is None:
                builder = HardwarePlan(self.layout, self.first, self.policy)
                builder.deal()
                plays = {}
                for stage in stages(self.layout.spec):
                    if stage.kind == "play":
                        plays[stage] = builder.play(stage.trick, stage.position)
                    elif stage.kind == "trick":
                        builder.take(stage.trick)
                self._plays = plays
        return self._plays


def card_play(gate: CardPlayGate) -> QuantumCircuit:
    """The stage's definition from the game's plan."""
    return gate.plan[Stage("play", gate.trick, gate.position)]


def trick_taking(gate: TrickTakingGate) -> QuantumCircuit:
    """The stage's definition from the game's plan."""
    return gate.plan[Stage("trick", gate.trick)]


def deal(gate: GameDealGate) -> Gate:
    """Qiskit's state preparation of the deal state (11 CX for the four-card example)."""
    return gate.reference
