"""The weighted deal circuit against the uniform one (issue 19): CX, depth and ancillas.

The deal of ``N`` cards per player (:func:`qcards.analysis.resources.resource_spec`: three
players, the declarer's hand known, two cards in the Skat; N = 10 is the full game with 22
unknown cards) is prepared

* uniformly by :class:`~qcards.circuits.gates.dicke.MultinomialDealGate` (the baseline),
* uniformly by :class:`~qcards.circuits.gates.weighted_deal.WeightedDealGate` (all weights 1),
* under priors a table can show (:data:`PRIORS`): constraints (a void, a held card, a trump
  from the bidding), a product-form weight, and the likelihood of a one-trick history,

each lowered to {cx, u} at optimisation level 0 (as ``qcards resources``). Every circuit is
also built and timed (median of ``--repeat`` runs); the ratio column is CX against the
baseline at the same N. Counts are exact and deterministic; only the times vary with the load.

    python benchmarks/bench_weighted_deal.py [--repeat 3] [--cards 2 4 6 8 10]
"""

from __future__ import annotations

import argparse
import os
import statistics
import time

from qcards.analysis.resources import resource_spec, with_prior_text
from qcards.circuits.gates.deal import GameDealGate
from qcards.circuits.lowering import lower
from qcards.circuits.register_sizes import owner_width
from qcards.circuits.syntheses import efficient
from qcards.skat.position.history import after_history
from qcards.skat.position.spec import Endgame

PRIORS = {
    "void B hearts": '[prior]\nvoid = { B = ["hearts"] }\n',
    "C holds SJ": '[prior]\nholds = { C = ["SJ"] }\n',
    "C has a trump": "[prior]\nat_least = { C = { trumps = 1 } }\n",
    "weight B: SA x2": "[prior]\nweight = { B = { SA = 2.0 } }\n",
    "all four": (
        '[prior]\nvoid = { B = ["hearts"] }\nholds = { C = ["SJ"] }\n'
        "at_least = { C = { trumps = 1 } }\nweight = { B = { SA = 2.0 } }\n"
    ),
}


def variants(n: int):
    """(name, spec, polynomial) for every deal circuit measured at N cards per player."""
    spec = resource_spec(n)
    yield "uniform (MultinomialDealGate)", spec, "uniform"
    yield "uniform (WeightedDealGate)", spec, "weighted"
    for name, text in PRIORS.items():
        try:
            yield name, with_prior_text(spec, text, name), "weighted"
        except Exception as exc:  # noqa: BLE001 - a prior that no deal of this N satisfies
            print(f"<!-- N={n} {name}: {exc} -->")
    if n >= 2:
        # one trick played: A leads its first card, B and C play their lowest legal cards
        yield "history: one trick", one_trick(spec), "weighted"


def one_trick(spec: Endgame) -> Endgame:
    rules = spec.rules
    lead = spec.hands["A"][0]
    suit = rules.effective_suit(lead)
    cards = [c for c in spec.unknown if rules.effective_suit(c) == suit]
    b, c = (cards[-1], cards[-2]) if len(cards) >= 2 else (spec.unknown[-1], spec.unknown[-2])
    return after_history(spec, f"A:{lead} B:{b} C:{c}")


def measure(spec: Endgame, kind: str, repeat: int) -> tuple[int, int, int, float]:
    width = owner_width(spec)
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        if kind == "uniform":
            from qcards.circuits.gates.dicke import MultinomialDealGate

            gate = MultinomialDealGate(tuple(spec.sizes[r] for r in spec.receivers), width)
        else:
            gate = efficient.deal(GameDealGate(efficient.layout(spec, False), efficient))
            if kind == "weighted" and spec.prior.is_uniform:
                from qcards.circuits.gates.weighted_deal import WeightedDealGate

                gate = WeightedDealGate(tuple(spec.sizes[r] for r in spec.receivers), width)
        circuit = lower(_alone(gate))
        times.append(time.perf_counter() - start)
    ops = circuit.count_ops()
    return ops.get("cx", 0), circuit.depth(), gate.num_ancillas, statistics.median(times)


def _alone(gate):
    from qiskit import QuantumCircuit

    qc = QuantumCircuit(gate.num_qubits)
    qc.append(gate, qc.qubits)
    return qc


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--cards", type=int, nargs="+", default=[2, 4, 6, 8, 10])
    args = parser.parse_args()
    load = os.getloadavg()[0]
    print(f"load average (1 min) at the start: {load:.2f}; times are medians of {args.repeat}")
    print()
    print("| N | unknown cards | deal | CX | CX / uniform | depth | ancillas | build + lower s |")
    print("|---|---|---|---|---|---|---|---|")
    for n in args.cards:
        baseline = None
        for name, spec, kind in variants(n):
            cx, depth, ancillas, seconds = measure(spec, kind, args.repeat)
            baseline = cx if baseline is None else baseline
            ratio = f"{cx / baseline:.2f}" if baseline else "-"
            print(
                f"| {n} | {len(spec.unknown)} | {name} | {cx} | {ratio} | {depth} | {ancillas} "
                f"| {seconds:.2f} |"
            )


if __name__ == "__main__":
    main()
