"""The plain referee's answers for the cross-check specs it takes seconds to minutes on.

The plain enumerator (:mod:`qcards.skat.solvers.plain_referee`) is the oracle of the fast referee,
the double-dummy solver and the circuits. On a few of the 200 cross-check specs (four players, three
tricks, eight unknown cards) it needs 30-100 s a model, which made CI pay about 1,000 s
of CPU for the same numbers in three test files. Those answers are stored here once, in
``tests/data/plain_referee.json``, computed by the plain referee itself:

    python tests/plain_referee_store.py      # recompute every entry (about 15 minutes)

An entry is keyed by the SHA-256 of the spec's TOML, the model and the fixed first card, so a
changed spec misses the store and is computed live (slow, never wrong).
``tests/test_plain_referee_store.py`` checks that every entry belongs to a current spec and
recomputes the cheapest slow entries with the plain referee.
"""

from __future__ import annotations

import hashlib
import json
import sys
import time
from fractions import Fraction
from functools import cache
from pathlib import Path

from qcards.skat.position.spec import Endgame
from qcards.skat.rules.cards import Card
from qcards.skat.solvers import plain_referee as referee
from qcards.skat.solvers.plain_referee import Evaluation

STORE = Path(__file__).resolve().parent / "data" / "plain_referee.json"
SLOW_SECONDS = 0.5
"""A (spec, model) whose plain search takes longer than this (all its first cards in one
search) is stored."""


def spec_key(spec: Endgame) -> str:
    return hashlib.sha256(spec.to_toml().encode()).hexdigest()[:20]


def entry_key(spec: Endgame, model: str, first: Card | None) -> str:
    return f"{spec_key(spec)} {model} {first or '-'}"


@cache
def stored() -> dict[str, Evaluation]:
    if not STORE.exists():
        return {}
    table = json.loads(STORE.read_text(encoding="utf-8"))
    return {key: _evaluation(row) for key, row in table["entries"].items()}


def stored_seconds() -> dict[str, float]:
    """How long each stored (spec, model) search took when the store was written."""
    if not STORE.exists():
        return {}
    return json.loads(STORE.read_text(encoding="utf-8"))["seconds"]


def _evaluation(row: dict) -> Evaluation:
    return Evaluation(
        model=row["model"],
        p_win=Fraction(row["p_win"]),
        expected_points=Fraction(row["expected_points"]),
        num_deals=row["num_deals"],
        num_paths=row["num_paths"],
    )


def _row(evaluation: Evaluation) -> dict:
    return {
        "model": evaluation.model,
        "p_win": str(evaluation.p_win),
        "expected_points": str(evaluation.expected_points),
        "num_deals": evaluation.num_deals,
        "num_paths": evaluation.num_paths,
    }


def evaluate_each(spec: Endgame, model: str = "random", firsts=(None,)) -> list[Evaluation]:
    """:func:`qcards.skat.solvers.plain_referee.evaluate_each`, from the store where every answer
    is in it."""
    table = stored()
    keys = [entry_key(spec, model, first) for first in firsts]
    if all(key in table for key in keys):
        return [table[key] for key in keys]
    return referee.evaluate_each(spec, model, list(firsts))


def evaluate(spec: Endgame, model: str = "random", first: Card | None = None) -> Evaluation:
    return evaluate_each(spec, model, [first])[0]


def every_first(spec: Endgame) -> list[Card | None]:
    """No fixed card, then each card of the declarer's hand when the declarer leads."""
    if spec.leader != spec.declarer:
        return [None]
    return [None, *spec.hands[spec.declarer]]


def regenerate(specs: list[Endgame]) -> dict:
    """Every slow (spec, model) of ``specs`` with every first card, from the plain referee."""
    entries, seconds = {}, {}
    for spec in specs:
        for model in referee.MODELS:
            firsts = every_first(spec)
            start = time.perf_counter()
            answers = referee.evaluate_each(spec, model, firsts)
            took = time.perf_counter() - start
            if took <= SLOW_SECONDS:
                continue
            seconds[f"{spec_key(spec)} {model}"] = round(took, 2)
            for first, answer in zip(firsts, answers, strict=True):
                entries[entry_key(spec, model, first)] = _row(answer)
            print(f"{spec.source} {model}: {took:.1f} s", file=sys.stderr)
    return {"seconds": seconds, "entries": entries}


def crosscheck_specs() -> list[Endgame]:
    """The specs whose slow searches are stored: the circuits' cross-check specs and the fast
    referee's larger endgame with a Skat (four cards a hand, 560 deals)."""
    sys.path.insert(0, str(Path(__file__).resolve().parent / "fuzz"))
    import test_fuzz_crosscheck
    from test_double_dummy import small_spec

    return [*test_fuzz_crosscheck.SPECS, larger_endgame_with_a_skat(small_spec)]


def larger_endgame_with_a_skat(small_spec) -> Endgame:
    """The endgame of ``test_fast_referee.test_a_larger_endgame_with_a_skat``."""
    return small_spec(3, 3, 4, trump="diamonds", target=40, skat=2)


def add(specs: list[Endgame]) -> None:
    """Store the slow searches of ``specs`` beside those already stored."""
    table = json.loads(STORE.read_text(encoding="utf-8"))
    new = regenerate(specs)
    table["seconds"].update(new["seconds"])
    table["entries"].update(new["entries"])
    STORE.write_text(json.dumps(table, indent=1, sort_keys=True) + "\n", encoding="utf-8")


if __name__ == "__main__" and sys.argv[1:] == ["--larger-endgame"]:
    from test_double_dummy import small_spec

    add([larger_endgame_with_a_skat(small_spec)])
elif __name__ == "__main__":
    table = regenerate(crosscheck_specs())
    STORE.parent.mkdir(exist_ok=True)
    STORE.write_text(json.dumps(table, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    print(f"{len(table['entries'])} entries written to {STORE}", file=sys.stderr)
