"""Benchmark: exact simulators on the same decomposed game circuits.

Run ``python benchmarks/bench_engines.py [--timeout S] [--repeat N] [--cases a,b]``.

Every game circuit is first flattened, in its own gate order, into the gates MQT DDSIM accepts
(``x, cx, ccx, mcx, ry, ...``: the game gates, UCRY included, are replaced by their Qiskit
definitions recursively; :func:`flatten`). Qiskit's ``transpile`` is not used for this step: its
DAG round trip reorders commuting gates (all first RYs of the play stage's decomposed UCRYs end
up side by side), which makes the intermediate states dense. Each engine then runs that shared
circuit in a fresh subprocess with a timeout, and the p_win it yields is checked against the
classical referee before its time is reported.

Engines: ``ours`` (:mod:`qcards.execution.sparse` on the shared circuit), ``ours-gates``
(the engine on the undecomposed game circuit: every game gate run through its definition,
multi-controlled and multiplexed gates kept whole), ``ours-native`` (the same circuit with the
game gates' classical actions, :mod:`qcards.circuits.gates.classical`: what qcards runs), ``ddsim``
(:func:`qcards.execution.ddsim.dd_amplitudes`, which transpiles to DDSIM's target itself),
``aer-mps`` (Aer's matrix product state simulator, ``save_probabilities_dict``), ``qsharp``
(Microsoft's sparse simulator, the circuit as OpenQASM 3 fragments, state read with
``dump_machine``) and ``qrack`` (``QrackSimulator(is_sparse=True, is_gpu=False)`` driven gate by
gate; support read with ``highest_n_prob_perm``). Times: ``convert`` (to the engine's input),
``sim``, ``read`` (probabilities of the measured qubits and p_win).
"""

from __future__ import annotations

import argparse
import datetime
import multiprocessing
import os
import statistics
import sys
import time
from pathlib import Path
from queue import Empty

import numpy as np
from qiskit import QuantumCircuit

sys.path.insert(0, str(Path(__file__).parent))

from bench_scale import scale_spec  # noqa: E402

from qcards.circuits.game import GameCircuit, build_game  # noqa: E402
from qcards.paper.examples import FOUR_CARD, SIX_CARD  # noqa: E402
from qcards.skat.solvers.plain_referee import evaluate  # noqa: E402

CASES = {
    "four-card paper": (FOUR_CARD.spec, "paper"),
    "four-card eff": (FOUR_CARD.spec, "efficient"),
    "six-card paper": (SIX_CARD.spec, "paper"),
    "six-card eff": (SIX_CARD.spec, "efficient"),
    "nine-card eff": (lambda: scale_spec(3), "efficient"),
    "twelve-card eff": (lambda: scale_spec(4), "efficient"),
    "fifteen-card eff": (lambda: scale_spec(5), "efficient"),
}
ENGINES = ("ours", "ours-gates", "ours-native", "ddsim", "aer-mps", "qsharp", "qrack")


def _ddsim_names() -> set[str]:
    from mqt.ddsim import DDSIMProvider

    target = DDSIMProvider().get_backend("qasm_simulator").target
    names = set(target.operation_names) - {"measure", "reset", "barrier"}
    # "u" has no definition in Qiskit 2 (DDSIM's transpile turns it into u3 itself)
    return {n for n in names if not n.startswith("mcx_")} | {"mcx", "u"}


def flatten(circuit: QuantumCircuit, keep: set[str]) -> QuantumCircuit:
    """``circuit`` with every gate outside ``keep`` replaced by its definition, in order."""
    out = QuantumCircuit(*circuit.qregs, global_phase=circuit.global_phase)

    def walk(qc: QuantumCircuit, qubits) -> None:
        for inst in qc.data:
            op = inst.operation
            qs = [qubits[qc.find_bit(q).index] for q in inst.qubits]
            if op.name in keep:
                out.append(op, qs)
            else:
                definition = op.definition
                out.global_phase += definition.global_phase
                walk(definition, qs)

    walk(circuit, list(out.qubits))
    return out


def measured_positions(game: GameCircuit) -> list[int]:
    return [game.circuit.find_bit(q).index for q in game.layout.measured]


def p_win_from_probabilities(game: GameCircuit, probs: dict[int, float]) -> float:
    """p_win by qcards' own decoder (``GameLayout.decode``), outcome bit k = measured[k]."""
    spec, last = game.spec, game.stages[-1]
    return sum(
        p
        for k, p in probs.items()
        if p > 1e-14 and game.layout.decode(k, last).declarer_points(spec) >= spec.target
    )


def declarer_points_vectorised(game: GameCircuit, bit) -> np.ndarray:
    """Final declarer points of every row, ``bit(q)`` giving qubit q's 0/1 column (final
    stage: every card played and every trick taken). Mirrors ``GameLayout.decode`` +
    ``Snapshot.declarer_points``; checked against them in :func:`run_engine`."""
    from qcards.skat.position.spec import SKAT

    layout, spec = game.layout, game.spec
    index = {q: i for i, q in enumerate(game.circuit.qubits)}

    def value(reg) -> np.ndarray:
        v = 0
        for b, q in enumerate(reg):
            v = v + (bit(index[q]).astype(np.int64) << b)
        return v

    seats = {t: value(layout.winner[t]) for t in layout.winner}
    declarer_seat = spec.players.index(spec.declarer)
    points = None
    for c in layout.cards:
        known = spec.owner_of_known(c)
        if known is not None:
            in_skat = known == SKAT
        elif layout.owner_width:
            idx = value(layout.owner[c])
            skat_index = [i for i, r in enumerate(layout.receivers) if r == SKAT]
            in_skat = np.isin(idx, skat_index)
        else:
            in_skat = layout.receivers[0] == SKAT
        won = 0
        for t, q in enumerate(layout.play[c], start=1):
            if t in seats:
                won = won | ((bit(index[q]) == 1) & (seats[t] == declarer_seat))
        term = c.value * (np.asarray(in_skat) | (np.asarray(won) & ~np.asarray(in_skat)))
        points = term if points is None else points + term
    return spec.declarer_points + points


# ---------------------------------------------------------------------------- engines


def run_ours(game, shared, engine: str):
    from qcards.execution.sparse.engine import simulate

    t0 = time.perf_counter()
    if engine == "ours":
        state = simulate(shared)
    else:
        state = simulate(game.circuit, classical_actions=engine == "ours-native")
    t1 = time.perf_counter()
    amps = state.amps
    bits = state.bits

    def bit(q):
        w, b = divmod(q, 64)
        return ((bits[:, w] >> np.uint64(b)) & np.uint64(1)).astype(np.int64)

    pts = declarer_points_vectorised(game, bit)
    p = np.abs(amps) ** 2
    p_win = float(p[pts >= game.spec.target].sum())
    t2 = time.perf_counter()
    extra = {"nnz": state.num_nonzero, "peak_rows": state.peak_rows}
    return p_win, 0.0, t1 - t0, t2 - t1, extra, state


def run_ddsim(game, shared):
    from qcards.execution.ddsim import dd_amplitudes

    t0 = time.perf_counter()
    amps = dd_amplitudes(shared, [shared.qubits[i] for i in measured_positions(game)])
    t1 = time.perf_counter()
    p_win = p_win_from_probabilities(game, {k: abs(a) ** 2 for k, a in amps.items()})
    return p_win, 0.0, t1 - t0, time.perf_counter() - t1, {"nnz": len(amps)}, None


def run_aer_mps(game, shared):
    from qiskit import transpile
    from qiskit_aer import AerSimulator

    t0 = time.perf_counter()
    sim = AerSimulator(method="matrix_product_state", max_memory_mb=2**62)
    qc = transpile(shared, sim, optimization_level=0)
    qc.save_probabilities_dict([qc.qubits[i] for i in measured_positions(game)], label="p")
    t1 = time.perf_counter()
    data = sim.run(qc, shots=1).result().data(0)["p"]
    t2 = time.perf_counter()
    probs = {int(k, 16) if isinstance(k, str) else int(k): float(v) for k, v in data.items()}
    p_win = p_win_from_probabilities(game, probs)
    return p_win, t1 - t0, t2 - t1, time.perf_counter() - t2, {"nnz": len(probs)}, None


_QASM_NAMES = {"x", "y", "z", "h", "s", "sdg", "t", "tdg", "sx", "rx", "ry", "rz", "p", "swap", "u"}


def to_qasm_fragments(qc: QuantumCircuit) -> str:
    """OpenQASM 3 for Q#: controlled gates as ``ctrl(n) @`` with X around open controls."""
    lines = ['include "stdgates.inc";', f"qubit[{qc.num_qubits}] q;"]
    for inst in qc.data:
        op = inst.operation
        qs = [qc.find_bit(q).index for q in inst.qubits]
        ctrls, targets, base, opened = [], qs, op, []
        if hasattr(op, "base_gate") and hasattr(op, "num_ctrl_qubits"):
            n = op.num_ctrl_qubits
            ctrls, targets, base = qs[:n], qs[n:], op.base_gate
            opened = [c for k, c in enumerate(ctrls) if not (op.ctrl_state >> k) & 1]
        if base.name not in _QASM_NAMES:
            raise ValueError(f"no OpenQASM for {op.name}")
        params = f"({', '.join(repr(float(p)) for p in base.params)})" if base.params else ""
        mod = f"ctrl({len(ctrls)}) @ " if ctrls else ""
        args = ", ".join(f"q[{i}]" for i in [*ctrls, *targets])
        for c in opened:
            lines.append(f"x q[{c}];")
        name = "U" if base.name == "u" else base.name
        lines.append(f"{mod}{name}{params} {args};")
        for c in opened:
            lines.append(f"x q[{c}];")
    return "\n".join(lines) + "\n"


def run_qsharp(game, shared):
    import warnings

    warnings.simplefilter("ignore")
    import qsharp  # the qdk package's qsharp module
    from qsharp.openqasm import ProgramType, import_openqasm

    n = shared.num_qubits
    t0 = time.perf_counter()
    source = to_qasm_fragments(shared)
    t1 = time.perf_counter()
    import_openqasm(source, program_type=ProgramType.Fragments)
    dump = qsharp.dump_machine()
    t2 = time.perf_counter()
    pos = measured_positions(game)
    probs: dict[int, float] = {}
    for key in dump:  # qubit 0 is the most significant bit of the key
        bits = format(key, f"0{n}b")
        outcome = sum(1 << k for k, i in enumerate(pos) if bits[i] == "1")
        probs[outcome] = probs.get(outcome, 0.0) + abs(dump[key]) ** 2
    p_win = p_win_from_probabilities(game, probs)
    return p_win, t1 - t0, t2 - t1, time.perf_counter() - t2, {"nnz": len(dump)}, None


def run_qrack(game, shared, nnz_hint: int):
    from pyqrack import Pauli, QrackSimulator

    t0 = time.perf_counter()
    n = shared.num_qubits
    ops = []
    for inst in shared.data:
        op = inst.operation
        qs = [shared.find_bit(q).index for q in inst.qubits]
        ops.append((op, qs))
    t1 = time.perf_counter()
    sim = QrackSimulator(n, is_gpu=False, is_sparse=True)
    for op, qs in ops:
        name = op.name
        if name == "x":
            sim.x(qs[0])
        elif name in ("cx", "ccx", "mcx"):
            nc = len(qs) - 1
            state = op.ctrl_state
            ones = [c for k, c in enumerate(qs[:nc]) if (state >> k) & 1]
            zeros = [c for k, c in enumerate(qs[:nc]) if not (state >> k) & 1]
            for c in zeros:
                sim.x(c)
            sim.mcx(qs[:nc], qs[-1])
            for c in zeros:
                sim.x(c)
            del ones
        elif name == "ry":
            sim.r(Pauli.PauliY, float(op.params[0]), qs[0])
        elif name == "h":
            sim.h(qs[0])
        elif op.num_qubits == 1:
            sim.mtrx(list(np.asarray(op.to_matrix(), dtype=complex).flatten()), qs[0])
        elif hasattr(op, "base_gate") and op.base_gate.num_qubits == 1:
            nc = op.num_ctrl_qubits
            zeros = [c for k, c in enumerate(qs[:nc]) if not (op.ctrl_state >> k) & 1]
            for c in zeros:
                sim.x(c)
            m = np.asarray(op.base_gate.to_matrix(), dtype=complex).flatten()
            sim.mcmtrx(qs[:nc], list(m), qs[-1])
            for c in zeros:
                sim.x(c)
        elif name == "swap":
            sim.swap(qs[0], qs[1])
        else:
            raise ValueError(f"qrack driver: no mapping for {name}")
    t2 = time.perf_counter()
    perms = [p for p in sim.highest_n_prob_perm(2 * nnz_hint + 16)]
    probs: dict[int, float] = {}
    pos = measured_positions(game)
    everything = list(range(n))
    for perm in set(perms):
        p = sim.prob_perm(everything, [bool((perm >> i) & 1) for i in everything])
        if p < 1e-14:
            continue
        outcome = sum(1 << k for k, i in enumerate(pos) if (perm >> i) & 1)
        probs[outcome] = probs.get(outcome, 0.0) + p
    p_win = p_win_from_probabilities(game, probs)
    extra = {"nnz": len(probs), "mass": sum(probs.values())}
    return p_win, t1 - t0, t2 - t1, time.perf_counter() - t2, extra, None


def run_engine(case: str, engine: str, nnz_hint: int) -> dict:
    factory, construction = CASES[case]
    spec = factory()
    t0 = time.perf_counter()
    game = build_game(spec, construction=construction)
    t_build = time.perf_counter() - t0
    t0 = time.perf_counter()
    shared = flatten(game.circuit, _ddsim_names())
    t_flatten = time.perf_counter() - t0
    if engine in ("ours", "ours-gates", "ours-native"):
        p_win, conv, sim, read, extra, state = run_ours(game, shared, engine)
        if engine != "ours" and state.num_rows <= 5000:  # the decoder check
            probs = state.probabilities(measured_positions(game))
            check = p_win_from_probabilities(game, probs)
            assert abs(check - p_win) < 1e-12, (check, p_win)
    elif engine == "ddsim":
        p_win, conv, sim, read, extra, _ = run_ddsim(game, shared)
    elif engine == "aer-mps":
        p_win, conv, sim, read, extra, _ = run_aer_mps(game, shared)
    elif engine == "qsharp":
        p_win, conv, sim, read, extra, _ = run_qsharp(game, shared)
    elif engine == "qrack":
        p_win, conv, sim, read, extra, _ = run_qrack(game, shared, nnz_hint)
    else:
        raise ValueError(engine)
    return {
        "p_win": p_win,
        "build": t_build,
        "flatten": t_flatten,
        "convert": conv,
        "sim": sim,
        "read": read,
        "qubits": shared.num_qubits,
        "gates": shared.size(),
        **extra,
    }


def _worker(case, engine, nnz_hint, queue) -> None:
    try:
        queue.put(("ok", run_engine(case, engine, nnz_hint)))
    except BaseException as exc:  # reported, not raised: the table goes on
        queue.put(("error", f"{type(exc).__name__}: {str(exc)[:120]}"))


def in_subprocess(case: str, engine: str, timeout: float, nnz_hint: int = 0):
    ctx = multiprocessing.get_context("spawn")
    queue = ctx.Queue()
    proc = ctx.Process(target=_worker, args=(case, engine, nnz_hint, queue))
    proc.start()
    try:
        status, payload = queue.get(timeout=timeout)
    except Empty:
        proc.kill()
        proc.join()
        return "timeout", None
    proc.join()
    return status, payload


def referee(case: str) -> tuple[float, float]:
    factory, _ = CASES[case]
    spec = factory()
    times = []
    for _ in range(3):
        t0 = time.perf_counter()
        result = evaluate(spec)
        times.append(time.perf_counter() - t0)
    return statistics.median(times), float(result.p_win)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--timeout", type=float, default=300)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--cases", default=",".join(CASES))
    parser.add_argument("--engines", default=",".join(ENGINES))
    args = parser.parse_args()
    engines = args.engines.split(",")
    print(f"# engines benchmark {datetime.datetime.now():%Y-%m-%d %H:%M}")
    print(f"load at start {os.getloadavg()}, {os.cpu_count()} cores; timeout {args.timeout:.0f} s")
    header = ["circuit", "qubits", "gates", "nonzero", "referee s"]
    header += [f"{e} s" for e in engines]
    print("| " + " | ".join(header) + " |")
    print("|" + "---|" * len(header))
    timed_out: dict[str, str] = {}
    for case in args.cases.split(","):
        ref_t, ref_p = referee(case)
        cells: dict[str, str] = {}
        info: dict = {}
        for engine in engines:
            if engine in timed_out:
                cells[engine] = f"skipped (> {args.timeout:.0f} on {timed_out[engine]})"
                continue
            runs = []
            for _ in range(args.repeat):
                status, res = in_subprocess(case, engine, args.timeout, info.get("nnz", 0))
                if status != "ok":
                    runs = [status, res]
                    break
                runs.append(res)
                if res["convert"] + res["sim"] + res["read"] > 20:
                    break  # one run for slow ones
            if runs and runs[0] == "timeout":
                cells[engine] = f"> {args.timeout:.0f}"
                timed_out[engine] = case
                continue
            if runs and runs[0] == "error":
                cells[engine] = f"error ({runs[1]})"
                continue
            info.setdefault("qubits", runs[0]["qubits"])
            info.setdefault("gates", runs[0]["gates"])
            if "nnz" in runs[0] and engine.startswith("ours"):
                info["nnz"] = runs[0]["nnz"]
            sim = statistics.median(r["sim"] for r in runs)
            conv = statistics.median(r["convert"] for r in runs)
            read = statistics.median(r["read"] for r in runs)
            ok = all(abs(r["p_win"] - ref_p) < 1e-9 for r in runs)
            err = max(abs(r["p_win"] - ref_p) for r in runs)
            mark = "" if ok else f" WRONG p_win (off by {err:.1e})"
            extra = f" +{conv:.2f} conv" if conv >= 0.005 else ""
            tag = f"n={len(runs)}"
            cells[engine] = (
                f"{sim:.3f} (+{read:.2f} read{extra}; {sim / ref_t:.1f}x ref; {tag}){mark}"
            )
        row = [case, str(info.get("qubits", "?")), str(info.get("gates", "?"))]
        row += [str(info.get("nnz", "?")), f"{ref_t:.3f}"]
        row += [cells[e] for e in engines]
        print("| " + " | ".join(row) + " |", flush=True)
    print(f"\nload at end {os.getloadavg()}")


if __name__ == "__main__":
    main()
