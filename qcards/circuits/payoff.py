"""The payoff oracle: the score operator of Eq. (18) generalised from "the declarer won" to any
objective of :mod:`qcards.skat.solvers.objectives` (the ISkO list score, Seeger-Fabian points).

After the game circuit, :class:`OutcomeGate` computes the outcome a game is scored by into
three registers: the card points the declarer gains in the endgame (its tricks and the Skat,
Draper additions as in :class:`~qcards.circuits.oracle.WinOracleGate`), the tricks it takes,
and, in a Hand game whose Skat is unknown, a code of its matadors, read from which cards were
dealt into the Skat. A uniformly controlled RY (Qiskit's :class:`UCRYGate`) then turns the
payoff qubit by :math:`2\\arcsin\\sqrt{g}` for each value of the registers, with
:math:`g = (f - f_{low}) / (f_{high} - f_{low})` the objective normalised to [0, 1]. The payoff
qubit reads 1 with probability :math:`E[g]`, so

.. math:: E[f] = f_{low} + (f_{high} - f_{low})\\, P(\\text{payoff} = 1),

which amplitude estimation estimates: weighted counting of a payoff, as option pricing does
with amplitude estimation (the payoff rotation of Stamatopoulos et al., Quantum 4, 291, 2020).
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass
from typing import cast

from qiskit.circuit import Gate, QuantumCircuit, QuantumRegister
from qiskit.circuit.library import UCRYGate

from qcards.circuits.construction import DEFAULT_CONSTRUCTION, Construction
from qcards.circuits.game import GameCircuit, build_game
from qcards.circuits.gates.cubes import cube_x
from qcards.circuits.gates.row_state import RowState
from qcards.circuits.layout import GameLayout
from qcards.circuits.oracle import _cube_value, _point_conditions, add_terms_sparse, draper_add
from qcards.skat.position.spec import SKAT, Endgame
from qcards.skat.rules.cards import Card
from qcards.skat.solvers.objectives import Objective, check_objective


@dataclass(frozen=True)
class OutcomeLayout:
    """The outcome registers' sizes and the matador codes of a game.

    Attributes:
        points: qubits of the points register (the points gained in the endgame).
        tricks: qubits of the tricks register.
        matadors: the matador values the codes stand for (code k is ``matadors[k]``); one
            value when the matadors do not vary with the deal.
        skats: ``(cards, code)`` for every Skat of unknown cards whose code is not 0.
    """

    points: int
    tricks: int
    matadors: tuple[int, ...]
    skats: tuple[tuple[tuple[Card, ...], int], ...]

    @property
    def code_bits(self) -> int:
        return math.ceil(math.log2(len(self.matadors))) if len(self.matadors) > 1 else 0

    @property
    def width(self) -> int:
        return self.points + self.tricks + self.code_bits


def outcome_layout(layout: GameLayout) -> OutcomeLayout:
    """The registers :class:`OutcomeGate` writes for ``layout``'s game."""
    spec = layout.spec
    points = max(1, math.ceil(math.log2(spec.points_in_play() + 1)))
    tricks = max(1, math.ceil(math.log2(spec.num_tricks + 1)))
    declared = spec.declaration
    if declared is None or declared.declaration.is_null:
        return OutcomeLayout(points, tricks, (0,), ())
    if not declared.per_deal or not layout.owner_width:
        return OutcomeLayout(points, tricks, (declared.matadors_of(_fixed_skat(layout)),), ())
    unknown = [c for c in spec.unknown]
    by_skat = {
        skat: declared.matadors_of(skat) for skat in itertools.combinations(unknown, spec.skat_size)
    }
    counts: dict[int, int] = {}
    for m in by_skat.values():
        counts[m] = counts.get(m, 0) + 1
    values = tuple(sorted(counts, key=lambda m: (-counts[m], m)))  # the commonest is code 0
    code = {m: k for k, m in enumerate(values)}
    skats = tuple((skat, code[m]) for skat, m in by_skat.items() if code[m])
    return OutcomeLayout(points, tricks, values, skats)


def _in_skat(layout: GameLayout, cards: tuple[Card, ...]) -> dict:
    """The cube "every one of ``cards`` was dealt into the Skat"."""
    cube: dict = {}
    for c in cards:
        cube.update(cast(dict, layout.owner_condition(c, SKAT)))  # some deal puts c there
    return cube


def _fixed_skat(layout: GameLayout) -> tuple[Card, ...]:
    """The Skat's cards when every deal puts the same ones there (the Skat the one receiver)."""
    if layout.spec.receivers == (SKAT,):
        return layout.spec.unknown
    return ()


def _trick_terms(layout: GameLayout):
    """+1 on each cube "the declarer took trick t"."""
    declarer_seat = 0
    return [
        (1, {q: (declarer_seat >> b) & 1 for b, q in enumerate(layout.winner[t])})
        for t in range(1, layout.num_tricks + 1)
    ]


class OutcomeGate(Gate):
    """Compute the outcome a game is scored by into fresh registers (all 0 before): the points
    the declarer gains (its tricks and the unknown cards of the Skat), its tricks, and the code
    of its matadors (:class:`OutcomeLayout`). Classical on basis states (:meth:`sparse_apply`,
    checked against the decomposition in the tests)."""

    def __init__(self, layout: GameLayout, uncompute: bool = False) -> None:
        self.layout = layout
        self.uncompute = uncompute
        self.outcome = outcome_layout(layout)
        name = "outcome_dg" if uncompute else "outcome"
        super().__init__(name, layout.num_qubits + self.outcome.width, [])

    def inverse(self, annotated: bool = False) -> OutcomeGate:
        return OutcomeGate(self.layout, not self.uncompute)

    def _registers(self):
        o = self.outcome
        return (
            QuantumRegister(o.points, "points"),
            QuantumRegister(o.tricks, "tricks"),
            *([QuantumRegister(o.code_bits, "matadors")] if o.code_bits else []),
        )

    def _define(self) -> None:
        layout = self.layout
        registers = self._registers()
        qc = QuantumCircuit(*layout.registers, *registers, name="outcome")
        draper_add(qc, registers[0], [(c.value, cube) for c, cube in _point_conditions(layout)])
        draper_add(qc, registers[1], _trick_terms(layout))
        for cards, code in self.outcome.skats:
            cube = _in_skat(layout, cards)
            for bit in range(self.outcome.code_bits):
                if (code >> bit) & 1:
                    cube_x(qc, cube, registers[2][bit])
        self.definition = qc.inverse() if self.uncompute else qc

    def sparse_apply(self, state: RowState, qubits: tuple[int, ...]) -> None:
        layout, o = self.layout, self.outcome
        position = dict(zip(layout.qubits, qubits, strict=False))
        rest = qubits[layout.num_qubits :]
        points, tricks = rest[: o.points], rest[o.points : o.points + o.tricks]
        terms = [(c.value, cube) for c, cube in _point_conditions(layout)]
        sign = -1 if self.uncompute else 1
        add_terms_sparse(state, position, points, terms, sign=sign)
        add_terms_sparse(state, position, tricks, _trick_terms(layout), sign=sign)
        if o.code_bits:
            code = rest[o.points + o.tricks :]
            flips = 0
            for cards, k in o.skats:  # XOR, as the definition's Toffolis: its own inverse
                cube = _in_skat(layout, cards)
                flips = flips ^ (k * (state.read([position[q] for q in cube]) == _cube_value(cube)))
            state.write(code, state.read(code) ^ flips)


@dataclass(frozen=True)
class PayoffCircuit:
    """The state preparation A of a payoff's estimation: game circuit, outcome registers and
    the payoff rotation; ``objective`` is the payoff qubit, and
    ``low + (high - low) * P(payoff = 1)`` is the expected payoff."""

    game: GameCircuit
    circuit: QuantumCircuit
    objective: int
    low: float
    high: float
    name: str

    @property
    def num_qubits(self) -> int:
        return self.circuit.num_qubits

    def payoff(self, probability: float) -> float:
        """The expected payoff a probability of the payoff qubit stands for."""
        return self.low + (self.high - self.low) * probability


def payoff_angles(
    spec: Endgame, objective: Objective, outcome: OutcomeLayout
) -> tuple[list[float], float, float]:
    """The UCRY angles over every value of the outcome registers (points bits first, then
    tricks, then the matador code: the integer's low bits are the points), and the payoff's
    normalisation ``(low, high)`` over the values a game can reach."""
    values: dict[int, float] = {}
    for code, m in enumerate(outcome.matadors):
        for t in range(spec.num_tricks + 1):
            for s in range(spec.points_in_play() + 1):
                index = s | t << outcome.points | code << (outcome.points + outcome.tricks)
                value = objective.value(spec, spec.declarer_points + s, spec.declarer_tricks + t, m)
                values[index] = value
    low, high = min(values.values()), max(values.values())
    span = high - low
    angles = [0.0] * 2**outcome.width
    for index, v in values.items():
        g = (v - low) / span if span else 1.0
        angles[index] = 2 * math.asin(math.sqrt(min(1.0, max(0.0, g))))
    return angles, float(low), float(high)


def build_payoff_circuit(
    spec: Endgame,
    objective: str,
    first: Card | None = None,
    construction: Construction | str = DEFAULT_CONSTRUCTION,
    model: str = "random",
) -> PayoffCircuit:
    """A = payoff rotation . outcome . game for ``objective`` (``score``, ``seeger-fabian``,
    or ``win``, for which the payoff qubit is the win indicator); ``model`` weighs the card
    plays by a play model's policy (:func:`~qcards.circuits.game.build_game`)."""
    record = check_objective(spec, objective)
    game = build_game(spec, first, construction=construction, model=model)
    gate = OutcomeGate(game.layout)
    angles, low, high = payoff_angles(spec, record, gate.outcome)
    registers = gate._registers()
    payoff = QuantumRegister(1, "payoff")
    qc = QuantumCircuit(*game.layout.registers, *registers, payoff, name="payoff_state")
    qc.compose(game.circuit, qubits=list(range(game.layout.num_qubits)), inplace=True)
    qc.append(gate, qc.qubits[: gate.num_qubits])
    controls = [q for r in registers for q in r]
    qc.append(UCRYGate(angles), [payoff[0], *controls])
    return PayoffCircuit(game, qc, qc.num_qubits - 1, low, high, objective)
