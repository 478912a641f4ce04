"""State-preparation gates: the uniform one-hot superposition (Eq. 9) and the deal U_ini (Eq. 1).

The deal may be weighted: :func:`deal_distribution` gives the exact probability of every deal
under per-card weights and :class:`Tally` factors, and :class:`DealGate` prepares it.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

import numpy as np
from qiskit import transpile
from qiskit.circuit import Gate, QuantumCircuit
from qiskit.circuit.library import StatePreparation

from qcards.circuits.gates.classical import classical_domain
from qcards.circuits.gates.row_state import RowState
from qcards.skat.deals.count import multinomial
from qcards.skat.deals.sample import ReceiverTable


class WStateGate(Gate):
    """Uniform superposition of the one-hot states, the uncontrolled CP gate of Eq. (9).

    Maps :math:`|0\\dots0\\rangle` to :math:`\\frac{1}{\\sqrt{k}}(|10\\dots0\\rangle + \\dots +
    |0\\dots01\\rangle)`: "play one of k cards", each with the same weight.

    Args:
        num_qubits: k >= 1, the number of playable cards.
    """

    def __init__(self, num_qubits: int, label: str | None = None) -> None:
        if not isinstance(num_qubits, int) or num_qubits < 1:
            raise ValueError(f"WStateGate needs at least one qubit, got {num_qubits!r}")
        super().__init__("w_state", num_qubits, [], label=label)

    def _define(self) -> None:
        self.definition = _synth_w_state(self.num_qubits)


def _synth_w_state(k: int) -> QuantumCircuit:
    # Qiskit has no W-state gate; the cascade below is the textbook linear construction:
    # move amplitude 1/sqrt(k - i) of the remaining weight one qubit to the right at each step.
    # (The paper builds the same state with the Boolean method of Mozafari et al. [33].)
    qc = QuantumCircuit(k, name="w_state")
    qc.x(0)
    for i in range(k - 1):
        theta = 2 * math.acos(math.sqrt(1 / (k - i)))
        qc.cry(theta, i, i + 1)
        qc.cx(i + 1, i)
    return qc


@dataclass(frozen=True)
class Tally:
    """A factor on a deal that depends on how many of some cards one receiver gets.

    A deal d is weighted by ``factors[k]``, k the number of the card indices in ``cards``
    dealt to ``receiver``. "Receiver 1 holds at least one trump" is ``factors = (0, 1, 1, ...)``;
    a likelihood is any list of non-negative numbers. ``factors`` needs an entry for every count
    the deal allows: at least ``min(len(cards), sizes[receiver]) + 1`` of them.
    """

    receiver: int
    cards: frozenset[int]
    factors: tuple[Fraction, ...]

    def __post_init__(self) -> None:
        if not isinstance(self.receiver, int | np.integer) or self.receiver < 0:
            raise ValueError(f"Tally receiver must be an index >= 0, got {self.receiver!r}")
        cards = frozenset(int(c) for c in self.cards)
        if any(c < 0 for c in cards):
            raise ValueError(f"Tally cards must be indices >= 0, got {sorted(cards)}")
        factors = tuple(Fraction(f) for f in self.factors)
        if any(f < 0 for f in factors):
            raise ValueError(f"Tally factors must be >= 0, got {[str(f) for f in factors]}")
        object.__setattr__(self, "receiver", int(self.receiver))
        object.__setattr__(self, "cards", cards)
        object.__setattr__(self, "factors", factors)

    def count_range(self, sizes: Sequence[int]) -> int:
        """The largest count a deal with these ``sizes`` allows."""
        return min(len(self.cards), sizes[self.receiver])


Weights = tuple[tuple[Fraction, ...], ...]


def check_deal_shape(sizes: Sequence[int], width: int) -> tuple[int, ...]:
    """``sizes`` as a tuple, checked with ``width`` (every deal gate's contract)."""
    sizes = tuple(sizes)
    if not sizes or any(not isinstance(s, int) or s < 0 for s in sizes):
        raise ValueError(f"deal sizes must be whole numbers >= 0, got {sizes!r}")
    if not isinstance(width, int) or width < 0:
        raise ValueError(f"width must be a whole number >= 0, got {width!r}")
    if len(sizes) > 1 and (1 << width) < len(sizes):
        raise ValueError(f"width {width} cannot index {len(sizes)} receivers")
    return sizes


def normalise_weights(sizes: Sequence[int], weights) -> Weights:
    """``weights`` as an n x R tuple of Fractions (all 1 for None); ValueError when malformed."""
    n, num_receivers = sum(sizes), len(sizes)
    if weights is None:
        return tuple((Fraction(1),) * num_receivers for _ in range(n))
    try:
        rows = [list(row) for row in weights]
    except TypeError:
        raise ValueError(f"weights must be rows of numbers, got {weights!r}") from None
    if len(rows) != n or any(len(row) != num_receivers for row in rows):
        raise ValueError(
            f"weights must have one row per card ({n}) and one entry per receiver "
            f"({num_receivers}), got shape {[len(row) for row in rows]}"
        )
    try:
        out = tuple(tuple(Fraction(x) for x in row) for row in rows)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"weights must be rational numbers: {exc}") from None
    if any(x < 0 for row in out for x in row):
        raise ValueError("weights must be >= 0")
    return out


def normalise_tallies(sizes: Sequence[int], tallies) -> tuple[Tally, ...]:
    """``tallies`` as a tuple of :class:`Tally`, checked against ``sizes``."""
    out = tuple(tallies)
    n = sum(sizes)
    for t in out:
        if not isinstance(t, Tally):
            raise ValueError(f"tallies must be Tally objects, got {t!r}")
        if t.receiver >= len(sizes):
            raise ValueError(f"Tally receiver {t.receiver} is not one of {len(sizes)} receivers")
        if any(c >= n for c in t.cards):
            raise ValueError(f"Tally cards {sorted(t.cards)} outside the {n} cards")
        if len(t.factors) < t.count_range(sizes) + 1:
            raise ValueError(
                f"Tally factors need {t.count_range(sizes) + 1} entries (counts "
                f"0..{t.count_range(sizes)}), got {len(t.factors)}"
            )
    return out


def _integer_table(values: Sequence[Fraction]) -> np.ndarray | None:
    """``values`` scaled to integers by a common factor (object array), or None when all the
    positive values are equal (a constant factor, which normalisation removes)."""
    if len({v for v in values if v > 0}) <= 1:
        return None
    scale = math.lcm(*(v.denominator for v in values))
    return np.array([int(v * scale) for v in values], dtype=object)


def _deal_weights(
    sizes: Sequence[int], weights: Weights, tallies: tuple[Tally, ...]
) -> tuple[np.ndarray, np.ndarray | None]:
    """The deals of positive weight and their weights, up to one common factor, as Python
    integers (None: all equal). Zero weights and zero factors are filtered with numpy."""
    deals = enumerate_deals(sizes)
    keep = np.ones(len(deals), dtype=bool)
    num = None
    for j, row in enumerate(weights):
        owner = deals[:, j]
        zero = [r for r, x in enumerate(row) if x == 0]
        if zero:
            keep &= ~np.isin(owner, zero)
        table = _integer_table(row)
        if table is not None:
            num = table[owner] if num is None else num * table[owner]
    for t in tallies:
        cols = sorted(t.cards)
        count = (deals[:, cols] == t.receiver).sum(axis=1) if cols else np.zeros(len(deals), int)
        factors = np.array(t.factors, dtype=object)
        keep &= factors[count] != 0
        table = _integer_table(t.factors)
        if table is not None:
            num = table[count] if num is None else num * table[count]
    deals = deals[keep]
    if num is not None:
        num = num[keep]
    if not len(deals) or (num is not None and sum(num.tolist()) == 0):
        raise ValueError("no deal has positive weight (the weights and tallies exclude them all)")
    return deals, num


def deal_distribution(
    sizes: Sequence[int], weights=None, tallies: Sequence[Tally] = ()
) -> tuple[np.ndarray, list[Fraction]]:
    """The deals of positive probability and their exact probabilities.

    A deal d (card j to receiver ``d[j]``, receiver r getting ``sizes[r]`` cards) has weight
    ``W(d) = prod_j weights[j][d[j]] * prod_t t.factors[count_t(d)]`` and probability
    ``W(d) / Z``, Z the sum over all deals.

    Args:
        sizes: cards received by each receiver.
        weights: ``weights[j][r] >= 0`` (rationals), or None for all 1 (the uniform deal).
        tallies: :class:`Tally` factors.

    Returns:
        The deals as rows (as in :func:`enumerate_deals`, same order) and their probabilities
        (Fractions summing to 1).

    Raises:
        ValueError: malformed weights or tallies, or Z == 0 (no deal has positive weight).
    """
    sizes = tuple(sizes)
    weights = normalise_weights(sizes, weights)
    tallies = normalise_tallies(sizes, tallies)
    deals, num = _deal_weights(sizes, weights, tallies)
    if num is None:
        return deals, [Fraction(1, len(deals))] * len(deals)
    ints = num.tolist()
    total = sum(ints)
    return deals, [Fraction(x, total) for x in ints]


def deal_amplitudes(
    sizes: Sequence[int], weights=None, tallies: Sequence[Tally] = ()
) -> tuple[np.ndarray, np.ndarray]:
    """:func:`deal_distribution` as floats: the deals and their amplitudes sqrt(P(d))."""
    sizes = tuple(sizes)
    deals, num = _deal_weights(
        sizes, normalise_weights(sizes, weights), normalise_tallies(sizes, tallies)
    )
    if num is None:
        return deals, np.full(len(deals), 1 / math.sqrt(len(deals)))
    total = sum(num.tolist())
    return deals, np.sqrt(np.array([x / total for x in num.tolist()], dtype=float))


def deal_index(deals: np.ndarray, width: int) -> np.ndarray:
    """The basis index of each deal row (card j's register at bits ``j*width ..``)."""
    index = np.zeros(len(deals), dtype=np.int64)
    for j in range(deals.shape[1] if width else 0):
        index |= deals[:, j].astype(np.int64) << (j * width)
    return index


class DealActions:
    """The classical actions of a deal gate, which has ``sizes``, ``width`` and
    ``deal_table()`` (mixed into each deal gate, before :class:`~qiskit.circuit.Gate`)."""

    def sparse_apply(self, state: RowState, qubits: tuple[int, ...]) -> None:
        """The classical action: see :func:`deal_action`."""
        deal_action(self, state, qubits)

    def sparse_sample(self, state: RowState, qubits: tuple[int, ...], rng) -> None:
        """One shot's branch per row: see :func:`deal_sample_action`."""
        deal_sample_action(self, state, qubits, rng)


class WeightedDeal(DealActions):
    """What the deal gates of :func:`deal_distribution` share (:class:`DealGate` and
    :class:`~qcards.circuits.gates.weighted_deal.WeightedDealGate`): the deal's table and
    state from ``sizes``, ``width``, ``weights`` and ``tallies``, and equality by them."""

    sizes: tuple[int, ...]
    width: int
    weights: Weights
    tallies: tuple[Tally, ...]
    name: str

    def deal_table(self) -> tuple[np.ndarray, np.ndarray]:
        """The deals with P(d) > 0 (rows as in :func:`enumerate_deals`) and their amplitudes
        sqrt(P(d))."""
        return deal_amplitudes(self.sizes, self.weights, self.tallies)

    def reference_state(self) -> np.ndarray:
        """The prepared state on the owner registers (``2**(n*width)`` amplitudes for n cards;
        ancillas, if any, end in ``|0>``, so on the whole gate it is this vector padded with
        zeros)."""
        deals, amps = self.deal_table()
        vec = np.zeros(2 ** (sum(self.sizes) * self.width))
        vec[deal_index(deals, self.width)] = amps
        return vec

    def _key(self) -> tuple:
        return (self.sizes, self.width, self.weights, self.tallies)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, type(self)) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash((self.name, *self._key()))


class DealGate(WeightedDeal, Gate):
    """U_ini for the unknown cards: the superposition over all deals (Eqs. 1 and 25).

    Acts on one ``width``-qubit register per unknown card (card j on qubits
    ``j*width .. (j+1)*width-1``, little-endian); the register holds the index of the player
    that receives the card. Deal d (receiver r getting exactly ``sizes[r]`` cards) has amplitude
    :math:`\\sqrt{P(d)}`, P as in :func:`deal_distribution`: :math:`1/\\sqrt{N}` (N the
    multinomial number of deals) with the default weights, the paper's deal.

    This is the reference construction (Qiskit's :class:`StatePreparation`, exponential in the
    number of unknown cards, like the paper's Boolean method, Fig. 15).

    Args:
        sizes: cards received by each receiver, in receiver order.
        width: qubits per card register (at least ceil(log2(len(sizes)))).
        weights: ``weights[j][r] >= 0``, the weight of card j going to receiver r (None: 1).
        tallies: :class:`Tally` factors of the deal's weight.
    """

    def __init__(
        self,
        sizes: tuple[int, ...],
        width: int,
        label: str | None = None,
        weights=None,
        tallies: Sequence[Tally] = (),
    ) -> None:
        sizes = check_deal_shape(sizes, width)
        self.sizes = sizes
        self.width = width
        self.weights = normalise_weights(sizes, weights)
        self.tallies = normalise_tallies(sizes, tallies)
        super().__init__("u_ini", sum(sizes) * width, [], label=label)

    @property
    def num_deals(self) -> int:
        """The multinomial number of deals, whatever their weights (some may have P = 0)."""
        return multinomial(self.sizes)

    def deals(self) -> list[tuple[int, ...]]:
        """Every deal as the tuple of receiver indices of the cards (whatever its weight)."""
        return [tuple(row) for row in enumerate_deals(self.sizes).tolist()]

    def _define(self) -> None:
        self.definition = _synth_deal(self)


def enumerate_deals(sizes: Sequence[int]) -> np.ndarray:
    """Every deal, one row each in lexicographic order: column j holds the index of the
    receiver of card j, and receiver r gets ``sizes[r]`` cards. Built card by card with numpy
    (work in proportion to the deals, not to ``len(sizes) ** cards``)."""
    sizes = tuple(sizes)
    deals = np.zeros((1, 0), dtype=np.int8)
    left = np.array([sizes], dtype=np.int64)
    for _card in range(sum(sizes)):
        grown, remaining = [], []
        for r in range(len(sizes)):
            ok = left[:, r] > 0
            column = np.full((int(ok.sum()), 1), r, dtype=np.int8)
            grown.append(np.concatenate([deals[ok], column], axis=1))
            rest = left[ok].copy()
            rest[:, r] -= 1
            remaining.append(rest)
        deals, left = np.concatenate(grown), np.concatenate(remaining)
    if deals.shape[1]:
        deals = deals[np.lexsort(deals.T[::-1])]
    return deals


def deal_action(
    gate: Gate, state, qubits: Sequence[int], owner: Sequence[int] | None = None
) -> None:
    """Classical action of a deal gate (:mod:`~qcards.circuits.gates.classical`): a row whose
    owner registers and ancillas are all 0 becomes one row per deal of positive probability,
    with amplitude :math:`\\sqrt{P(d)}` (:math:`1/\\sqrt{N}` for the uniform deal, Eq. 1); any
    other row takes the gate's definition.

    ``gate`` has ``sizes``, ``width`` and ``deal_table()`` (the deals and their amplitudes);
    card j's register is ``owner[j*width:(j+1)*width]`` (``owner`` defaults to ``qubits``, the
    gate's qubits).
    """
    owner = qubits if owner is None else owner
    fresh = state.match(qubits, [0] * len(qubits))
    with classical_domain(state, gate, qubits, fresh):
        deals, amps = gate.deal_table()
        count = state.num_rows
        state.expand(np.repeat(np.arange(count), len(deals)), np.tile(amps, count))
        w = gate.width
        for j in range(deals.shape[1] if w else 0):
            state.write(owner[j * w : (j + 1) * w], np.tile(deals[:, j], count))


def deal_sample_action(
    gate: Gate,
    state,
    qubits: Sequence[int],
    rng: np.random.Generator,
    owner: Sequence[int] | None = None,
) -> None:
    """The deal of one shot per row (ideal-device sampling, :mod:`qcards.execution.shots`): a
    row whose owner registers and ancillas are all 0 gets one deal drawn with probability
    :math:`P(d) = |\\langle d|U_{ini}|0\\rangle|^2`, the branch of :func:`deal_action` a
    measurement would find; any other row takes the gate's definition (all its branches).

    ``gate`` has ``sizes``, ``width`` and, when weighted, ``weights`` and ``tallies``; card
    j's register is ``owner[j*width:(j+1)*width]`` (default: the gate's ``qubits``).
    """
    owner = qubits if owner is None else owner
    fresh = state.match(qubits, [0] * len(qubits))
    with classical_domain(state, gate, qubits, fresh):
        sizes = gate.sizes
        weights = getattr(gate, "weights", None) or normalise_weights(sizes, None)
        tallies = tuple((t.receiver, t.cards, t.factors) for t in getattr(gate, "tallies", ()))
        deals = _receiver_table(sizes, weights, tallies).draw(rng, state.num_rows)
        w = gate.width
        for j in range(deals.shape[1] if w else 0):
            state.write(owner[j * w : (j + 1) * w], deals[:, j])


@functools.lru_cache(maxsize=32)
def _receiver_table(sizes, weights, tallies) -> ReceiverTable:
    return ReceiverTable(sizes, weights, tallies)


def _synth_deal(gate: DealGate) -> QuantumCircuit:
    qc = QuantumCircuit(gate.num_qubits, name="u_ini")
    if gate.num_qubits:
        qc.append(StatePreparation(gate.reference_state()), range(gate.num_qubits))
        # Lower to {u, cx} here: the isometry's uniformly-controlled gates reach Aer as
        # "multiplexer" instructions, and Aer 0.18 crashes on their inverses (seen in the
        # Grover operator A S_0 A^dagger of amplitude estimation).
        qc = transpile(qc, basis_gates=["u", "cx"], optimization_level=1)
        qc.name = "u_ini"
    return qc
