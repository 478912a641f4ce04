"""The score operator S_A (Eq. 18) and the favourable-outcome oracle for P_fav (Sec. VI.6).

``score_operator`` is the observable whose expectation on the final game state is the declarer's
expected card points. ``WinOracleGate`` computes, reversibly, whether the declarer won (reached
the target; in a null game, took no trick) into one qubit, so that
:math:`p_{win} = \\langle P_{fav} \\rangle` is the probability of that qubit being 1 -- the
"good" state of quantum counting and amplitude estimation.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass

from qiskit.circuit import Gate, QuantumCircuit, QuantumRegister, Qubit
from qiskit.circuit.library import MCPhaseGate, QFTGate
from qiskit.quantum_info import SparsePauliOp

from qcards.circuits.construction import DEFAULT_CONSTRUCTION, Construction
from qcards.circuits.game import GameCircuit, build_game
from qcards.circuits.gates.cubes import open_controls
from qcards.circuits.gates.row_state import RowState
from qcards.circuits.layout import GameLayout
from qcards.skat.position.spec import SKAT, Endgame
from qcards.skat.rules.cards import Card


def _point_conditions(layout: GameLayout) -> list[tuple[Card, dict[Qubit, int]]]:
    """Every way a card's points go to the declarer, as disjoint cubes.

    For every card with points and every trick: the cube "card played in this trick, and the
    declarer won it"; for every unknown card with points, if the spec has a Skat: the cube
    "card dealt into the Skat" (its owner register holds the Skat's index; known cards are never
    in the Skat). On every basis state of a game at most one cube of a card holds.
    """
    declarer_seat = 0
    out = []
    for card in layout.cards:
        if card.value == 0:
            continue
        for t in range(1, layout.num_tricks + 1):
            cube = {layout.play[card][t - 1]: 1}
            for b, q in enumerate(layout.winner[t]):
                cube[q] = (declarer_seat >> b) & 1
            out.append((card, cube))
        skat = layout.owner_condition(card, SKAT)
        if skat is not None:
            out.append((card, skat))
    return out


def score_operator(layout: GameLayout, include_taken: bool = True) -> SparsePauliOp:
    """S_A of Eq. (18) as a :class:`SparsePauliOp` on the layout's qubits (qubit i = index i).

    :math:`S_A = \\sum_i \\mathcal{V}(i) P_A^{(i)}`, with :math:`P_A^{(i)}` the projector onto
    "card i lies in the declarer's stack": played in trick t and trick t won by the declarer,
    summed over t, plus, with a Skat, the projector onto "card i was dealt into the Skat" (the
    Skat belongs to the declarer). With ``include_taken`` the points the declarer already holds
    are added as a multiple of the identity, so the expectation is the referee's
    ``expected_points``.
    """
    index = {q: i for i, q in enumerate(layout.qubits)}
    terms: list[tuple[str, list[int], float]] = []
    for card, cube in _point_conditions(layout):
        qubits = list(cube)
        # |1><1| = (I - Z)/2 and |0><0| = (I + Z)/2; expand the product over every subset.
        for subset in itertools.chain.from_iterable(
            itertools.combinations(qubits, r) for r in range(len(qubits) + 1)
        ):
            sign = 1
            for q in subset:
                sign *= -1 if cube[q] == 1 else 1
            coeff = card.value * sign / 2 ** len(qubits)
            terms.append(("Z" * len(subset), [index[q] for q in subset], coeff))
    if include_taken and layout.spec.declarer_points:
        terms.append(("", [], float(layout.spec.declarer_points)))
    if not terms:
        terms.append(("", [], 0.0))
    return SparsePauliOp.from_sparse_list(terms, num_qubits=layout.num_qubits).simplify()


def _win_terms(layout: GameLayout) -> tuple[list[tuple[int, dict[Qubit, int]]], int]:
    """What the win oracle adds to its score register: ``(value, cube)`` terms and a constant.

    Point games: each card's value on each cube of :func:`_point_conditions`, and the constant
    :math:`2^m - K` (K the points still needed), so the top bit is "S >= K". Null games (the
    declarer wins by taking no trick, ISkO 5.2.7): -1 on each cube "the declarer took trick t"
    and the constant :math:`2^m` (:math:`2^m - 1` when a trick was taken before the endgame, so
    the game is lost), with :math:`2^m` above the number of tricks: the register then holds
    :math:`2^m` minus the tricks taken, whose top bit is 1 exactly when none was taken.
    """
    spec = layout.spec
    top = 2 ** (score_register_size(spec) - 1)
    if spec.is_null:
        declarer_seat = 0
        terms = []
        for t in range(1, layout.num_tricks + 1):
            cube = {q: (declarer_seat >> b) & 1 for b, q in enumerate(layout.winner[t])}
            terms.append((-1, cube))
        return terms, top - (1 if spec.declarer_tricks else 0)
    terms = [(card.value, cube) for card, cube in _point_conditions(layout)]
    return terms, top - target_gap(spec)


def score_register_size(spec: Endgame) -> int:
    """Qubits of the score register: m + 1 with :math:`2^m \\ge` every value compared (null
    games: :math:`2^m` above the number of tricks)."""
    if spec.is_null:
        return max(1, math.ceil(math.log2(spec.num_tricks + 1))) + 1
    needed = target_gap(spec)
    in_play = spec.points_in_play()
    m = max(1, math.ceil(math.log2(max(needed, in_play - needed + 1, 2))))
    return m + 1


def target_gap(spec: Endgame) -> int:
    """Card points the declarer still has to take from the tricks to reach the target."""
    return spec.target - spec.declarer_points


class WinOracleGate(Gate):
    r"""Compute "the declarer won" into the top qubit of a score register.

    Point games (described below): "the declarer reached the target". Null games: "the declarer
    took no trick", by the same additions with the terms of :func:`_win_terms`.

    Acts on the game layout's qubits followed by ``m + 1`` score qubits (initially 0). In the
    Fourier basis of the score register (Qiskit's :class:`QFTGate`) it adds, for every card and
    trick, the card's value controlled on "played in that trick and the trick won by the
    declarer", and for every card that may lie in the Skat, its value controlled on "dealt into
    the Skat" (multi-controlled phases), then the constant :math:`2^m - K` with K the points
    still needed. After the inverse QFT the register holds :math:`S + 2^m - K`, whose top bit is
    1 exactly when the declarer's points S from the tricks and the Skat reach K. Qiskit's adders
    add registers, not controlled constants, hence the phases are written here (Draper's
    construction).

    As a map on basis states the gate is classical: the score register s becomes
    :math:`(s + S + 2^m - K) \bmod 2^{m+1}`, S summed over the cubes that hold
    (:meth:`sparse_apply`, checked against the decomposition in the tests).

    Args:
        layout: registers of the game circuit.
        subtract: the inverse gate (subtracts instead of adding).
    """

    def __init__(self, layout: GameLayout, subtract: bool = False) -> None:
        self.layout = layout
        self.subtract = subtract
        self.score_size = score_register_size(layout.spec)
        name = "win_oracle_dg" if subtract else "win_oracle"
        super().__init__(name, layout.num_qubits + self.score_size, [])

    def _define(self) -> None:
        adder = _synth_win_oracle(self)
        self.definition = adder.inverse() if self.subtract else adder

    def inverse(self, annotated: bool = False) -> WinOracleGate:
        return WinOracleGate(self.layout, not self.subtract)

    def sparse_apply(self, state: RowState, qubits: tuple[int, ...]) -> None:
        """The gate's action on every row of a sparse state (:mod:`qcards.execution.sparse`):
        the same modular addition as the decomposition, read and written as integers."""
        position = dict(zip(self.layout.qubits, qubits, strict=False))
        score = qubits[self.layout.num_qubits :]
        terms, constant = _win_terms(self.layout)
        add_terms_sparse(state, position, score, terms, constant, -1 if self.subtract else 1)


def _cube_value(cube: dict[Qubit, int]) -> int:
    """The integer the cube's qubits hold (bit k = the k-th qubit of the cube) when it holds."""
    return sum(v << k for k, v in enumerate(cube.values()))


def _synth_win_oracle(gate: WinOracleGate) -> QuantumCircuit:
    layout = gate.layout
    score = QuantumRegister(gate.score_size, "score")
    qc = QuantumCircuit(*layout.registers, score, name="win_oracle")
    terms, constant = _win_terms(layout)
    draper_add(qc, score, terms, constant)
    return qc


def draper_add(
    qc: QuantumCircuit,
    register: QuantumRegister,
    terms: list[tuple[int, dict[Qubit, int]]],
    constant: int = 0,
) -> None:
    """``register += constant + sum(value for value, cube in terms if cube holds)`` modulo
    :math:`2^n`: in the Fourier basis of the register (Qiskit's :class:`QFTGate`), each term a
    multi-controlled phase on every qubit (Draper's adder; Qiskit's adders add registers, not
    controlled constants, hence the phases are written here)."""
    n = len(register)
    qc.append(QFTGate(n), register)

    def add_constant(value: int, cube: dict[Qubit, int]) -> None:
        with open_controls(qc, cube):
            for j in range(n):
                angle = 2 * math.pi * value * 2**j / 2**n
                angle = math.remainder(angle, 2 * math.pi)
                if abs(angle) < 1e-15:
                    continue
                if cube:
                    qc.append(MCPhaseGate(angle, len(cube)), [*cube, register[j]])
                else:
                    qc.p(angle, register[j])

    for value, cube in terms:
        add_constant(value, cube)
    add_constant(constant, {})
    qc.append(QFTGate(n).inverse(), register)


def add_terms_sparse(
    state: RowState, positions, register, terms, constant: int = 0, sign: int = 1
) -> None:
    """:func:`draper_add`'s action on every row of a sparse state: the cubes read as integers
    (``positions`` maps the layout's qubits to the state's), the register written back."""
    added = constant
    for value, cube in terms:
        holds = state.read([positions[q] for q in cube]) == _cube_value(cube)
        added = added + value * holds
    state.write(register, (state.read(register) + sign * added) % 2 ** len(register))


@dataclass(frozen=True)
class WinCircuit:
    """The state preparation A of counting: game circuit then the win oracle.

    ``objective`` is the qubit that is 1 exactly on the favourable outcomes (P_fav).
    """

    game: GameCircuit
    circuit: QuantumCircuit
    objective: int

    @property
    def num_qubits(self) -> int:
        return self.circuit.num_qubits


def build_win_circuit(
    spec: Endgame,
    first: Card | None = None,
    construction: Construction | str = DEFAULT_CONSTRUCTION,
    model: str = "random",
) -> WinCircuit:
    """A = WinOracle . game: marks the favourable subspace in one objective qubit.

    ``construction`` picks the game circuit (:class:`~qcards.circuits.construction.Construction`);
    the oracle reads only the layout's card registers, so it serves both. ``model`` weighs
    the card plays by a play model's policy (:func:`~qcards.circuits.game.build_game`).
    """
    game = build_game(spec, first, construction=construction, model=model)
    oracle = WinOracleGate(game.layout)
    score = QuantumRegister(oracle.score_size, "score")
    qc = QuantumCircuit(*game.layout.registers, score, name="win_state")
    qc.compose(game.circuit, qubits=list(range(game.layout.num_qubits)), inplace=True)
    qc.append(oracle, qc.qubits)
    return WinCircuit(game, qc, qc.num_qubits - 1)
