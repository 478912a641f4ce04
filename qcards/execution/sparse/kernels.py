"""The sparse engine's gate kernels: numpy passes over every row of a
:class:`~qcards.execution.sparse.state.SparseState` at once.

Each kernel is a function of the state and the gate's qubits (indices into the state's qubits):

* classical gates (:func:`mcx` with any ``ctrl_state``, :func:`swap`, :func:`permute`) rewrite
  the bits in place; the control test of a multi-controlled gate is one AND and one compare
  per 64-qubit word, whatever the number of controls (``SparseState.cond``);
* diagonal gates (:func:`diagonal`, the diagonal case of :func:`unitary_1q`) multiply
  amplitudes;
* a (multi-)controlled or uniformly controlled single-qubit unitary (:func:`unitary_1q`,
  :func:`multiplexed_1q`) scales the rows it acts on in place and appends a copy with the
  target flipped where its matrix column has two nonzero entries (entries of modulus <=
  :data:`CHOP` count as zero: RY(pi) flips without branching);
* any other small unitary (:func:`unitary`) splits each row into the nonzero entries of its
  column.

The kernels work on the state's raw storage (words-major bits ``_w`` with the pending flips
``_flip``, amplitudes ``_a``, pending phase ``_phase``); new rows go through
``SparseState.reserve`` (the memory guard, which may merge first) and ``SparseState.grow``.
This module imports only numpy.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import cast

import numpy as np

CHOP = 1e-14
"""Gate-matrix entries of modulus at most this count as zero (cos(pi/2) = 6e-17 is no branch)."""

_HASH_MULT = np.uint64(0x9E3779B97F4A7C15)


def chop(matrix) -> np.ndarray:
    """A complex copy of ``matrix`` with entries of modulus <= :data:`CHOP` set to zero."""
    m = np.array(matrix, dtype=complex)
    m[np.abs(m) <= CHOP] = 0
    return m


def write_local(w: np.ndarray, flip: list[int], qubits, values: np.ndarray) -> None:
    """Write local index ``values`` (bit k -> qubits[k]) into the word columns ``w``
    (words-major), taking the pending ``flip`` mask into account."""
    values = values.astype(np.uint64)
    for k, q in enumerate(qubits):
        wi, b = divmod(q, 64)
        bit = (values >> np.uint64(k)) & np.uint64(1)
        if (flip[wi] >> b) & 1:
            bit ^= np.uint64(1)
        col = w[wi]
        col &= ~np.uint64(1 << b)
        col |= bit << np.uint64(b)


def group(w: np.ndarray, a: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Rows (words-major ``w``) with equal words summed into one (values ``a``).

    Sorts a 64-bit hash of the words; equal hashes are checked to hold equal words, and a
    collision falls back to an exact ``lexsort``.
    """
    n = a.shape[0]
    if n <= 1:
        return w, a
    nw = w.shape[0]
    if nw == 1:
        key = w[0]
    else:
        key = w[0].copy()
        for i in range(1, nw):
            key *= _HASH_MULT
            key ^= key >> np.uint64(29)
            key += w[i]
    order = np.argsort(key)
    ks = key[order]
    same = ks[1:] == ks[:-1]
    if not same.any():
        return w, a
    ws = w[:, order]
    if nw > 1:
        eq = np.all(ws[:, 1:] == ws[:, :-1], axis=0)
        if np.any(same & ~eq):  # hash collision: exact sort instead
            order = np.lexsort(w[::-1])
            ws = w[:, order]
            same = np.all(ws[:, 1:] == ws[:, :-1], axis=0)
    starts = np.flatnonzero(np.concatenate(([True], ~same)))
    return ws[:, starts], np.add.reduceat(a[order], starts)


COMPILED_ROWS = 4096
"""From this many rows on, :func:`match_words` runs compiled (numba): one fused pass per word
instead of numpy's AND, compare and logical AND with their temporaries: several times faster a
row on three-word rows (``SparseState.cond`` with controls in every word; figures in
``benchmarks/results/sharded.md``). Below :data:`COMPILED_ROWS` rows the call's overhead would
outweigh it."""

_MATCH = None


def _compiled_match():
    """The numba kernel of :func:`match_words`, compiled (and cached on disk) on first use."""
    global _MATCH
    if _MATCH is None:
        import numba

        @numba.njit(cache=True, nogil=True)
        def match(w, words, masks, vals, out):  # pragma: no cover - compiled
            n = w.shape[1]
            col = w[words[0]]
            m0, v0 = masks[0], vals[0]
            for i in range(n):
                out[i] = (col[i] & m0) == v0
            for j in range(1, words.shape[0]):
                col = w[words[j]]
                mj, vj = masks[j], vals[j]
                for i in range(n):
                    out[i] &= (col[i] & mj) == vj
            return out

        _MATCH = match
    return _MATCH


def match_words(w: np.ndarray, masks: Mapping[int, Sequence[int]]) -> np.ndarray:
    """Rows of the words-major ``w`` where ``w[word] & mask == value`` for every ``word:
    (mask, value)`` of ``masks`` (at least one), as a bool array."""
    n = w.shape[1]
    if n >= COMPILED_ROWS:
        words = np.fromiter(masks, dtype=np.intp, count=len(masks))
        both = np.array(list(masks.values()), dtype=np.uint64)
        return _compiled_match()(w, words, both[:, 0], both[:, 1], np.empty(n, dtype=bool))
    cond = None
    for word, (mask, val) in masks.items():
        c = np.bitwise_and(w[word], np.uint64(mask)) == np.uint64(val)
        cond = c if cond is None else np.logical_and(cond, c, out=cond)
    return cast(np.ndarray, cond)  # masks holds at least one word


_SUMS = None


def _compiled_sums():
    """The numba kernel of :func:`weighted_bit_sums`, compiled (and cached on disk) on first use."""
    global _SUMS
    if _SUMS is None:
        import numba

        @numba.njit(cache=True, nogil=True)
        def sums(w, first, starts, words, shifts, weights, out):  # pragma: no cover
            n = out.shape[1]
            # blocks of 2048 rows: a block's sums stay in cache while every bit is added
            for lo in range(0, n, 2048):
                hi = min(n, lo + 2048)
                for g in range(starts.shape[0] - 1):
                    acc = out[g, lo:hi]  # 1-d slices: the inner loop vectorises (20x the 2-d)
                    acc[:] = 0
                    for e in range(starts[g], starts[g + 1]):
                        col = w[words[e], first + lo : first + hi]
                        shift, weight = shifts[e], weights[e]
                        for i in range(hi - lo):
                            acc[i] += np.int64((col[i] >> shift) & np.uint64(1)) * weight
            return out

        _SUMS = sums
    return _SUMS


def weighted_bit_sums(
    w: np.ndarray, groups: Sequence[Sequence[tuple[int, int]]], rows: slice = slice(None)
) -> np.ndarray:
    """``out[g, row] = sum(weight * bit(q))`` over the ``(qubit, weight)`` pairs of
    ``groups[g]``, on the rows ``rows`` (a step-1 slice) of the words-major ``w`` (no pending
    flips), as int64.

    Registers are groups with weights 1, 2, 4, ...; a trick's card points are a group weighted
    by the cards' values. Written by hand (one compiled pass over the rows, in blocks that stay
    in cache) because reading a final state bit by bit with numpy, each bit a temporary array of
    every row, was about a quarter of the sparse engine's time on fifteen cards."""
    starts, words, shifts, weights = [0], [], [], []
    for pairs in groups:
        for q, weight in pairs:
            word, shift = divmod(q, 64)
            words.append(word)
            shifts.append(shift)
            weights.append(weight)
        starts.append(len(words))
    first, last, _ = rows.indices(w.shape[1])
    return _compiled_sums()(
        w,
        first,
        np.array(starts, dtype=np.intp),
        np.array(words, dtype=np.intp),
        np.array(shifts, dtype=np.uint64),
        np.array(weights, dtype=np.int64),
        np.empty((len(groups), max(0, last - first)), dtype=np.int64),
    )


def _all_ones(controls: Sequence[int], ctrl_state: int | None) -> int:
    return (1 << len(controls)) - 1 if ctrl_state is None else ctrl_state


def _xor_bit(state, qubit: int, where) -> None:
    """Flip ``qubit`` in the rows of the bool mask ``where``."""
    w, b = divmod(qubit, 64)
    col = state._w[w]
    np.bitwise_xor(col, np.uint64(1 << b), out=col, where=where)


# --------------------------------------------------------------------- classical gates
def mcx(state, controls: Sequence[int], target: int, ctrl_state: int | None = None) -> None:
    """Multi-controlled X; ``ctrl_state`` bit k is the value wanted on controls[k] (default all
    ones). Covers CX and CCX."""
    cond = state.cond(controls, _all_ones(controls, ctrl_state))
    if cond is None:
        state.x(target)
        return
    _xor_bit(state, target, cond)


def swap(
    state, a: int, b: int, controls: Sequence[int] = (), ctrl_state: int | None = None
) -> None:
    """(Controlled) SWAP of qubits a and b."""
    diff = state.bit(a) != state.bit(b)
    cond = state.cond(controls, _all_ones(controls, ctrl_state))
    if cond is not None:
        diff &= cond
    for q in (a, b):
        _xor_bit(state, q, diff)


def permute(state, qubits: Sequence[int], perm: Sequence[int], phases=None) -> None:
    """Classical map on ``qubits``: local basis state j -> perm[j] (times phases[j])."""
    table = np.asarray(perm, dtype=np.intp)
    idx = state.index(qubits)
    if np.any(table != np.arange(table.size)):
        write_local(state._w, state._flip, qubits, table[idx])
    if phases is not None:
        ph = np.asarray(phases, dtype=complex)
        if np.any(ph != 1):
            state._a *= ph[idx]


# --------------------------------------------------------------------- phases
def diagonal(state, qubits: Sequence[int], diag: Sequence[complex]) -> None:
    """Multiply each row by ``diag[local index of qubits]``."""
    d = np.asarray(diag, dtype=complex)
    if d.size == 1:
        state._phase *= complex(d[0])
        return
    state._a *= d[state.index(qubits)]


def _scale_by_bit(state, target: int, if0: complex, if1: complex, cond) -> None:
    factor = np.where(state.bit(target).astype(bool), if1, if0)
    if cond is None:
        state._a *= factor
    else:
        np.multiply(state._a, factor, out=state._a, where=cond)


# --------------------------------------------------------------------- branching gates
def unitary_1q(
    state,
    target: int,
    matrix,
    controls: Sequence[int] = (),
    ctrl_state: int | None = None,
) -> None:
    """A single-qubit unitary on ``target``, controlled on ``controls`` == ``ctrl_state``."""
    m = chop(matrix)
    ctrl_state = _all_ones(controls, ctrl_state)
    if m[0, 1] == 0 and m[1, 0] == 0:  # diagonal
        if m[0, 0] == 1 and m[1, 1] == 1:
            return
        cond = state.cond(controls, ctrl_state)
        if cond is None and m[0, 0] == m[1, 1]:
            state._phase *= complex(m[0, 0])
            return
        _scale_by_bit(state, target, m[0, 0], m[1, 1], cond)
        return
    if m[0, 0] == 0 and m[1, 1] == 0:  # anti-diagonal: flip and scale
        cond = state.cond(controls, ctrl_state)
        if not (m[1, 0] == 1 and m[0, 1] == 1):
            _scale_by_bit(state, target, m[1, 0], m[0, 1], cond)
        if cond is None:
            state.x(target)
        else:
            _xor_bit(state, target, cond)
        return
    mats = np.stack([np.eye(2, dtype=complex), m])
    while True:
        cond = state.cond(controls, ctrl_state)
        sel = None if cond is None else np.flatnonzero(cond)
        if branch(state, target, sel, mats, None):
            return


def multiplexed_1q(state, target: int, controls: Sequence[int], matrices) -> None:
    """Uniformly controlled single-qubit gate: ``matrices[j]`` acts on ``target`` where the
    controls' local index is j (bit k = controls[k]); UCRY/UCRZ/UCGate."""
    mats = np.stack([chop(m) for m in matrices])
    if mats.shape[0] != 2 ** len(controls):
        raise ValueError("need 2**len(controls) matrices")
    while True:
        idx = state.index(controls) if controls else None
        if branch(state, target, None, mats, idx):
            return


def branch(state, target: int, sel, mats: np.ndarray, idx) -> bool:
    """Apply per-row 2x2 matrices ``mats[idx]`` (``mats[1]`` on ``sel`` rows when idx is None)
    to ``target``. False if a merge changed the rows first (call again)."""
    if idx is None:
        if sel is None:
            sel_idx = np.ones(state.num_rows, dtype=np.intp)
            rows: slice | np.ndarray = slice(None)
        else:
            sel_idx = np.ones(sel.size, dtype=np.intp)
            rows = sel
    else:
        # rows whose matrix is the identity are left alone
        ident = np.array(
            [m[0, 0] == 1 and m[1, 1] == 1 and m[0, 1] == 0 and m[1, 0] == 0 for m in mats]
        )
        if ident.any():
            keep = ~ident[idx]
            rows = np.flatnonzero(keep)
            sel_idx = idx[rows]
        else:
            rows = slice(None)
            sel_idx = idx
    bit = state.bit(target)[rows].astype(np.intp)
    stay = mats[sel_idx, bit, bit]
    move = mats[sel_idx, 1 - bit, bit]
    s_nz = stay != 0
    m_nz = move != 0
    both = s_nz & m_nz
    n_new = int(np.count_nonzero(both))
    if n_new and not state.reserve(n_new):
        return False
    a = state._a[rows]
    new_amp = move[both] * a[both]
    state._a[rows] = np.where(s_nz, stay, move) * a
    w, b = divmod(target, 64)
    flip_only = ~s_nz
    if flip_only.any():
        r = np.arange(state.num_rows)[rows][flip_only]
        state._w[w, r] ^= np.uint64(1 << b)
    if n_new:
        r = np.arange(state.num_rows)[rows][both]
        new_w = state._w[:, r]
        new_w[w] ^= np.uint64(1 << b)
        state.grow([new_w], [new_amp])
    return True


def unitary(state, qubits: Sequence[int], matrix) -> None:
    """Any unitary on ``qubits`` (bit k of its index = qubits[k], Qiskit's order):
    permutation-with-phases matrices act in place, others split each row into the nonzero
    entries of its column."""
    m = chop(matrix)
    dim = 2 ** len(qubits)
    if m.shape != (dim, dim):
        raise ValueError(f"matrix shape {m.shape} does not fit {len(qubits)} qubits")
    nz = m != 0
    per_col = nz.sum(axis=0)
    if np.all(per_col == 1):
        perm = np.argmax(nz, axis=0)
        phases = m[perm, np.arange(dim)]
        if np.all(phases == phases[0]) and np.all(perm == np.arange(dim)):
            state._phase *= complex(phases[0])
            return
        permute(state, qubits, perm, None if np.all(phases == 1) else phases)
        return
    if len(qubits) == 1:
        unitary_1q(state, qubits[0], m)
        return
    d = int(per_col.max())
    out_i = np.zeros((dim, d), dtype=np.intp)
    out_c = np.zeros((dim, d), dtype=complex)
    for j in range(dim):
        rows = np.flatnonzero(nz[:, j])
        out_i[j, : rows.size] = rows
        out_c[j, : rows.size] = m[rows, j]
    while True:
        idx = state.index(qubits)
        coef = out_c[idx]  # (rows, d)
        extra = coef[:, 1:] != 0
        n_new = int(np.count_nonzero(extra))
        if n_new and not state.reserve(n_new):
            continue
        break
    a = state._a
    new_w, new_a = [], []
    for s in range(1, d):
        r = np.flatnonzero(extra[:, s - 1])
        if r.size == 0:
            continue
        copy_w = state._w[:, r]  # a copy (fancy indexing)
        write_local(copy_w, state._flip, qubits, out_i[idx[r], s])
        new_w.append(copy_w)
        new_a.append(coef[r, s] * a[r])
    state._a = coef[:, 0] * a
    write_local(state._w, state._flip, qubits, out_i[idx, 0])
    if new_w:
        state.grow(new_w, new_a)
