"""Compiled row kernels of the card-play and trick-taking gates' classical actions.

The card-play gate CP (Eqs. 9-13) and the trick-taking gate TT (Eqs. 14-15) state their
classical actions through *cubes*: conjunctions of qubit values such as "the leader of trick t
is West, the card was dealt to East and not played before" (:mod:`.predicates`). On a sparse
state every cube is one AND and one compare per 64-bit word of a row. Written with numpy, each
cube is a pass over every row with its own temporary, and a card play asks several dozen
cubes: on eighteen cards the two gates were about three quarters of the sparse engine's time.

Here a gate's cubes become arrays once (:class:`Cubes`, per gate and placement), and one
compiled pass (numba; written by hand because no library evaluates predicates over packed
bits) asks them all of one row while the row is in cache:

- :func:`play_legal` gives every row its legal cards as a bit mask (bit i: ``cards[i]``) and
  whether the row is a game state the action describes;
- :func:`play_children` and :func:`play_expand` make one row per legal card with that card's
  flips, amplitude times :math:`1/\\sqrt{m}` (the uniform superposition of Eq. 9);
- :func:`trick_keys` numbers every row's table (leader and the card of each seat), and
  :func:`xor_rows` applies each table's flips (the winner's seat, Eq. 15).

The semantics are those the gates' docstrings state; ``tests/test_classical_actions.py`` checks
each gate's action against its decomposition on reached and on random basis states.
"""

from __future__ import annotations

import threading
from collections.abc import Mapping, Sequence

import numpy as np

from qcards.skat.compiled.jit import njit


class Cubes:
    """Cubes as arrays over a state's words: row ``r`` satisfies cube ``k`` when
    ``words[w, r] & mask[k, w] == value[k, w]`` for every word ``w``.

    Args:
        cubes: each a mapping of qubit to required bit, or None for an impossible cube (a value
            bit outside the mask: no row satisfies it).
        position: the state's qubit index of each qubit.
        num_words: 64-bit words of a row.
    """

    def __init__(self, cubes: Sequence[Mapping | None], position: Mapping, num_words: int) -> None:
        self.mask = np.zeros((len(cubes), num_words), dtype=np.uint64)
        self.value = np.zeros((len(cubes), num_words), dtype=np.uint64)
        for k, cube in enumerate(cubes):
            if cube is None:
                self.value[k, 0] = 1
                continue
            for qubit, bit in cube.items():
                word, shift = divmod(position[qubit], 64)
                self.mask[k, word] |= np.uint64(1 << shift)
                if bit:
                    self.value[k, word] |= np.uint64(1 << shift)


_TABLES_LOCK = threading.Lock()


def placed_tables(gate, qubits: tuple[int, ...], num_words: int, make):
    """``make(gate, qubits, num_words)``, the arrays of ``gate``'s action for one placement,
    made once (under a lock: shards run on several threads share the gates) and kept on the
    gate."""
    cache = gate.__dict__.setdefault("_placed_tables", {})
    tables = cache.get((qubits, num_words))
    if tables is None:
        with _TABLES_LOCK:
            tables = cache.get((qubits, num_words))
            if tables is None:
                tables = cache[qubits, num_words] = make(gate, qubits, num_words)
    return tables


def grouped_cubes(
    groups: Sequence[Sequence[tuple[int, Mapping | None]]], position: Mapping, num_words: int
) -> tuple[Cubes, np.ndarray, np.ndarray]:
    """Groups of (tag, cube) pairs (one group per possible leader) as one :class:`Cubes`, the
    tag of each cube and the groups' bounds (group g is cubes ``starts[g]`` to
    ``starts[g + 1]``); impossible cubes (None) are left out."""
    cubes, tags, starts = [], [], [0]
    for group in groups:
        for tag, cube in group:
            if cube is not None:
                cubes.append(cube)
                tags.append(tag)
        starts.append(len(cubes))
    return (
        Cubes(cubes, position, num_words),
        np.array(tags, dtype=np.int64),
        np.array(starts, dtype=np.int64),
    )


def clean_cube(qubits: Sequence, position: Mapping, num_words: int) -> Cubes:
    """The one cube "every qubit of ``qubits`` is 0" (the clean ancillas)."""
    return Cubes([dict.fromkeys(qubits, 0)], position, num_words)


def bit_positions(qubits: Sequence, position: Mapping) -> tuple[np.ndarray, np.ndarray]:
    """The word and the shift of each qubit's bit in a row."""
    places = [divmod(position[q], 64) for q in qubits]
    return (
        np.array([w for w, _ in places], dtype=np.int64),
        np.array([b for _, b in places], dtype=np.uint64),
    )


def bit_masks(qubit_sets: Sequence[Sequence], position: Mapping, num_words: int) -> np.ndarray:
    """One row of word masks per set of qubits (the qubits' bits set): the flips to XOR in."""
    out = np.zeros((len(qubit_sets), num_words), dtype=np.uint64)
    for k, qubits in enumerate(qubit_sets):
        for qubit in qubits:
            word, shift = divmod(position[qubit], 64)
            out[k, word] |= np.uint64(1 << shift)
    return out


@njit
def _holds(words, r, mask, value, k):  # pragma: no cover - compiled
    for w in range(words.shape[0]):
        if (words[w, r] & mask[k, w]) != value[k, w]:
            return False
    return True


@njit
def _first_holding(words, r, mask, value):  # pragma: no cover - compiled
    """The first cube that row ``r`` satisfies, or -1 (the leader: leaders' cubes are
    disjoint)."""
    for k in range(mask.shape[0]):
        if _holds(words, r, mask, value, k):
            return k
    return -1


@njit
def _popcount(x):  # pragma: no cover - compiled
    count = 0
    while x:
        x &= x - np.uint64(1)
        count += 1
    return count


@njit
def play_legal(
    words,
    zero_mask,
    zero_value,
    lead_mask,
    lead_value,
    held_starts,
    held_mask,
    held_value,
    held_card,
    expected,
    led_starts,
    led_mask,
    led_value,
    led_suit,
    suit_cards,
    played_word,
    played_shift,
    forced,
    legal,
    inside,
):  # pragma: no cover - compiled
    """Every row's legal cards (``legal``, bit i = card i) and whether the row is a game state
    of the card play (``inside``): ancillas clean (the cube ``zero_*``); the leader found by
    its cube (``lead_*``; leaders' cubes are disjoint); the mover holding ``expected`` cards
    (the held cubes of that leader, ``held_starts[l]`` to ``held_starts[l + 1]``, each naming
    its card); when ``led_starts`` has groups (after the lead), exactly one card led (that
    leader's led cubes), whose effective suit decides suit following through ``suit_cards``;
    and none of the held cards already on the table (``played_word``/``played_shift``: the
    card's play bit of this trick). ``forced`` >= 0 makes that card the only legal one."""
    one = np.uint64(1)
    for r in range(words.shape[1]):
        ok = _holds(words, r, zero_mask, zero_value, 0)
        leader = _first_holding(words, r, lead_mask, lead_value)
        held = np.uint64(0)
        suit = -1
        if leader >= 0:
            for k in range(held_starts[leader], held_starts[leader + 1]):
                if _holds(words, r, held_mask, held_value, k):
                    held ^= one << np.uint64(held_card[k])
        if _popcount(held) != expected:
            ok = False
        if led_starts.shape[0] > 1:
            led = 0
            if leader >= 0:
                for k in range(led_starts[leader], led_starts[leader + 1]):
                    if _holds(words, r, led_mask, led_value, k):
                        led += 1
                        suit = led_suit[k]
            if led != 1:
                ok = False
        for i in range(played_word.shape[0]):
            if (held >> np.uint64(i)) & one:
                if (words[played_word[i], r] >> played_shift[i]) & one:
                    ok = False
        if forced >= 0:
            choice = one << np.uint64(forced)
        elif suit >= 0 and held & suit_cards[suit]:
            choice = held & suit_cards[suit]
        else:
            choice = held
        legal[r] = choice
        inside[r] = ok


@njit
def play_children(legal):  # pragma: no cover - compiled
    """Rows after the uniform choice: one per legal card, one for a row with none."""
    total = 0
    for r in range(legal.shape[0]):
        m = _popcount(legal[r])
        total += m if m else 1
    return total


@njit
def play_expand(words, amps, legal, flips, out_words, out_amps):  # pragma: no cover - compiled
    """Eq. (9) on every row: a row with m > 0 legal cards becomes m rows, the i-th legal card's
    ``flips[i]`` applied, amplitude times 1/sqrt(m); a row with none is kept. Children follow
    their parent in card order."""
    one = np.uint64(1)
    j = 0
    for r in range(words.shape[1]):
        choice = legal[r]
        m = _popcount(choice)
        if m == 0:
            for w in range(words.shape[0]):
                out_words[w, j] = words[w, r]
            out_amps[j] = amps[r]
            j += 1
            continue
        amp = amps[r] / np.sqrt(m)
        for i in range(flips.shape[0]):
            if (choice >> np.uint64(i)) & one:
                for w in range(words.shape[0]):
                    out_words[w, j] = words[w, r] ^ flips[i, w]
                out_amps[j] = amp
                j += 1


@njit
def trick_keys(
    words,
    zero_mask,
    zero_value,
    seats,
    lead_mask,
    lead_value,
    card_word,
    card_shift,
    candidate,
    owner_mask,
    owner_value,
    radix,
    offsets,
    keys,
):  # pragma: no cover - compiled
    """Every row's table as one number (``keys``; -1 where the row is not a game state at the
    end of the trick). The row must have its ancillas clean (the cube ``zero_*``), a leader
    (``lead_*``; leaders' cubes are disjoint), exactly ``seats`` cards on the table (card
    ``j``'s play bit of this trick: ``card_word[j]``, ``card_shift[j]``), and for each seat
    exactly one card on the table that is among its candidates (``candidate[l, s, j]``: card
    j's index among them, or -1) and dealt to it (owner cube ``l * seats * cards + s * cards +
    j``). The number is ``offsets[l]`` plus the candidates' indices in mixed radix
    (``radix[l, s]``, seat 0 lowest)."""
    one = np.uint64(1)
    cards = card_word.shape[0]
    found = np.empty(seats, dtype=np.int64)
    count = np.empty(seats, dtype=np.int64)
    for r in range(words.shape[1]):
        keys[r] = -1
        if not _holds(words, r, zero_mask, zero_value, 0):
            continue
        leader = _first_holding(words, r, lead_mask, lead_value)
        if leader < 0:
            continue
        on_table = 0
        found[:] = -1
        count[:] = 0
        for j in range(cards):
            if (words[card_word[j], r] >> card_shift[j]) & one:
                on_table += 1
                for s in range(seats):
                    index = candidate[leader, s, j]
                    if index >= 0:
                        cube = (leader * seats + s) * cards + j
                        if _holds(words, r, owner_mask, owner_value, cube):
                            count[s] += 1
                            if found[s] < 0 or index < found[s]:
                                found[s] = index
        if on_table != seats:
            continue
        key = 0
        stride = 1
        ok = True
        for s in range(seats):
            if count[s] != 1:
                ok = False
                break
            key += stride * found[s]
            stride *= radix[leader, s]
        if ok:
            keys[r] = offsets[leader] + key


@njit
def xor_rows(words, keys, table):  # pragma: no cover - compiled
    """``words[:, r] ^= table[keys[r]]`` on every row with ``keys[r] >= 0``."""
    for r in range(words.shape[1]):
        k = keys[r]
        if k >= 0:
            for w in range(words.shape[0]):
                words[w, r] ^= table[k, w]
