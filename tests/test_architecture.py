"""The package layout of docs/architecture.md, checked from the source with ``ast``.

Layers, lowest first; a module may import its own layer and the layers below it, never one
above. ``qcards.errors`` is below every layer, ``qcards/__init__.py`` (the public API) above all
but the CLI. Games sit beside the Skat layers: their referees are pure Python, and only a game's
``quantum`` module may use qiskit (and the circuit, estimation and execution layers).
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "qcards"

LAYERS = ("skat", "circuits", "execution", "estimation", "analysis", "viz", "paper", "cli")
"""Bottom to top; see docs/architecture.md."""

QUANTUM_LAYERS = {"circuits", "execution", "estimation", "analysis", "viz", "paper"}


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _type_checking_nodes(tree: ast.AST) -> set[int]:
    """ids of the nodes inside ``if TYPE_CHECKING:`` blocks (imports for type checkers only)."""
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and ast.unparse(node.test).endswith("TYPE_CHECKING"):
            out.update(id(n) for stmt in node.body for n in ast.walk(stmt))
    return out


def imports_of(path: Path, typing: bool = True) -> set[str]:
    """Every module ``path`` imports, at any depth (lazy imports inside functions included;
    those under ``if TYPE_CHECKING:`` only with ``typing``)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    skip = set() if typing else _type_checking_nodes(tree)
    found = set()
    for node in ast.walk(tree):
        if id(node) in skip:
            continue
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
            for alias in node.names:  # ``from qcards.execution import aer`` imports a module
                candidate = f"{node.module}.{alias.name}"
                if _exists(candidate):
                    found.add(candidate)
    return found


def _exists(module: str) -> bool:
    if not module.startswith("qcards"):
        return False
    base = PACKAGE.parent.joinpath(*module.split("."))
    return base.with_suffix(".py").is_file() or (base / "__init__.py").is_file()


MODULES = {module_name(p): imports_of(p) for p in sorted(PACKAGE.rglob("*.py"))}
"""Every import, lazy ones inside functions and the type checkers' under TYPE_CHECKING
included: the layering and the cycle checks count them all."""


def layer(module: str) -> str | None:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 and parts[1] in LAYERS else None


def own(imports: set[str]) -> set[str]:
    return {m for m in imports if m == "qcards" or m.startswith("qcards.")}


def test_every_module_is_seen():
    assert "qcards.skat.solvers.plain_referee" in MODULES and "qcards.cli" in MODULES
    assert len(MODULES) > 80


def test_few_files_at_the_top():
    """The API module and the support modules below every layer (errors, files, intervals,
    interrupts, plugins, progress, moved); everything else lives in a layer's package."""
    top = sorted(p.name for p in PACKAGE.glob("*.py"))
    assert len(top) <= 8, top


def test_no_upward_imports_between_layers():
    upward = []
    for module, imports in MODULES.items():
        here = layer(module)
        if here is None:
            continue
        for target in own(imports):
            there = layer(target)
            if there is not None and LAYERS.index(there) > LAYERS.index(here):
                upward.append(f"{module} -> {target}")
    assert not upward, upward


def edges(importer, imported) -> list[str]:
    """``"module -> target"`` for every qcards import whose ends satisfy the two predicates."""
    return [
        f"{m} -> {t}"
        for m, imports in MODULES.items()
        if importer(m)
        for t in own(imports)
        if imported(t)
    ]


def test_only_the_cli_imports_the_cli():
    offenders = edges(
        lambda m: not m.startswith("qcards.cli"), lambda t: t.startswith("qcards.cli")
    )
    assert not offenders, offenders


def test_the_library_below_the_cli_does_not_import_the_api_module():
    """``qcards/__init__`` re-exports from the layers; a layer importing it would be circular."""
    offenders = [m for m, imports in MODULES.items() if "qcards" in imports and m != "qcards"]
    assert not offenders, offenders


BELOW_ALL_LAYERS = (
    "qcards.errors",
    "qcards.progress",
    "qcards.files",
    "qcards.intervals",
    "qcards.plan",
    "qcards.plugins",
    "qcards.moved",
)
"""Modules every layer may import: they import no layer (docs/architecture.md)."""


def test_the_modules_below_all_layers_import_no_layer():
    offenders = edges(
        lambda m: m.startswith(BELOW_ALL_LAYERS),
        lambda t: layer(t) is not None or t.startswith("qcards.games"),
    )
    assert not offenders, offenders
    assert any(m.startswith("qcards.plan.") for m in MODULES)  # the check sees the package


def test_skat_and_game_referees_are_pure_python():
    offenders = []
    for module, imports in MODULES.items():
        referee = module.startswith("qcards.skat") or (
            module.startswith("qcards.games") and not module.endswith(".quantum")
        )
        if not referee:
            continue
        for target in imports:
            quantum = target.split(".")[0] in ("qiskit", "qiskit_aer", "qiskit_algorithms", "mqt")
            if quantum or layer(target) in QUANTUM_LAYERS | {"cli"}:
                offenders.append(f"{module} -> {target}")
    assert not offenders, offenders


def test_games_use_only_the_lower_layers():
    offenders = edges(
        lambda m: m.startswith("qcards.games"),
        lambda t: layer(t) in ("analysis", "viz", "paper", "cli"),
    )
    assert not offenders, offenders


def _cycles() -> list[list[str]]:
    graph = {m: sorted(t for t in own(i) if t in MODULES and t != m) for m, i in MODULES.items()}
    state: dict[str, int] = {}
    found = []

    def visit(node: str, trail: list[str]) -> None:
        state[node] = 1
        for nxt in graph[node]:
            if state.get(nxt) == 1:
                found.append(trail[trail.index(nxt) :] + [nxt] if nxt in trail else [node, nxt])
            elif nxt not in state:
                visit(nxt, [*trail, nxt])
        state[node] = 2

    for start in graph:
        if start not in state:
            visit(start, [start])
    return found


def test_no_import_cycles():
    """No cycle, counting lazy imports and those under TYPE_CHECKING (a cycle a type checker
    follows is still two modules that cannot be read apart). A package's __init__ importing
    its own submodules is not a cycle of the layering."""
    cycles = [
        c
        for c in _cycles()
        if not any(b.startswith(a + ".") for a, b in zip(c, c[1:], strict=False))
    ]
    assert not cycles, cycles


@pytest.mark.parametrize("module", sorted(MODULES))
def test_every_module_imports(module):
    import importlib

    importlib.import_module(module)


def test_public_api_resolves_every_name():
    import qcards

    for name in qcards.__all__:
        assert getattr(qcards, name) is not None, name
    with pytest.raises(AttributeError):
        qcards.no_such_name  # noqa: B018


def test_referees_import_without_qiskit():
    """A game's referee (and Skat's) is usable without loading qiskit."""
    import subprocess
    import sys

    code = (
        "import sys, qcards.games.gofish, qcards.games.cats.referee, qcards.games.qgo.game, "
        "qcards.skat.solvers.plain_referee; print('qiskit' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


CONSTRUCTION_NAMES = {"paper", "efficient", "hardware"}
SYNTHESIS_MODULES = ("qcards.circuits.construction", "qcards.circuits.syntheses")


def _compares_constructions(tree: ast.AST) -> list[str]:
    """Comparisons that pick a construction: a construction's name compared with ``==``,
    ``!=``, ``in`` (or ``is``), or a ``Construction`` member tested."""
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Compare):
            continue
        for operand in [node.left, *node.comparators]:
            named = isinstance(operand, ast.Constant) and operand.value in CONSTRUCTION_NAMES
            member = isinstance(operand, ast.Attribute) and ast.unparse(operand).startswith(
                "Construction."
            )
            if named or member:
                found.append(f"line {node.lineno}: {ast.unparse(node)}")
    return found


def test_only_the_registry_and_the_syntheses_compare_constructions():
    """Everything else reads a construction's fields (issue 30): adding one is one module."""
    offenders = []
    for path in sorted(PACKAGE.rglob("*.py")):
        module = module_name(path)
        if module.startswith(SYNTHESIS_MODULES):
            continue
        for where in _compares_constructions(ast.parse(path.read_text(encoding="utf-8"))):
            offenders.append(f"{module} {where}")
    assert not offenders, offenders


def test_the_construction_check_can_fail():
    tree = ast.parse('if task.construction == "hardware" or c is Construction.PAPER: pass')
    assert len(_compares_constructions(tree)) == 2


TARGET_NAMES = {"statevector", "mps", "sparse", "ddsim"}
TARGET_MODULES = ("qcards.execution.backends", "qcards.execution.exact_methods")


def test_only_the_backend_registry_compares_exact_backend_names():
    """Exact methods are objects on a target (issue 30): their costs and capabilities are read
    from the record, never chosen by comparing a target's name."""
    offenders = []
    for path in sorted(PACKAGE.rglob("*.py")):
        module = module_name(path)
        if module.startswith(TARGET_MODULES):
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Compare) and any(
                isinstance(o, ast.Constant) and o.value in TARGET_NAMES
                for o in [node.left, *node.comparators]
            ):
                offenders.append(f"{module} line {node.lineno}: {ast.unparse(node)}")
    assert not offenders, offenders


def test_the_public_api_lists_each_name_three_times_alike():
    """``qcards/__init__``: the lazy loader's table, ``__all__`` and the names imported for
    type checkers under ``if TYPE_CHECKING:`` are the same set."""
    import qcards

    tree = ast.parse((PACKAGE / "__init__.py").read_text(encoding="utf-8"))
    typed = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and ast.unparse(node.test) == "TYPE_CHECKING":
            for stmt in node.body:
                if isinstance(stmt, ast.ImportFrom):
                    typed.update(alias.asname or alias.name for alias in stmt.names)
    assert set(qcards.__all__) == set(qcards._API) == typed


SKAT_ORDER = (
    "compiled", "rules", "deals.count", "position", "deals", "solvers", "learned", "players",
    "records", "openspiel",
)  # fmt: skip
"""The sub-packages of ``qcards.skat``, bottom to top (docs/architecture.md); the deal count,
bare arithmetic the prior's partition sums use, sits below the position, the rest of the deals
above it. Every other module of ``qcards.skat`` is above them all."""


def skat_rank(module: str) -> int | None:
    """Where ``module`` sits in :data:`SKAT_ORDER` (its longest matching prefix), ``len``
    for a module of ``qcards.skat`` above them all, ``None`` outside ``qcards.skat``."""
    if not module.startswith("qcards.skat."):
        return None
    rest = module.removeprefix("qcards.skat.")
    ranks = [i for i, name in enumerate(SKAT_ORDER) if rest == name or rest.startswith(name + ".")]
    return max(ranks, key=lambda i: len(SKAT_ORDER[i])) if ranks else len(SKAT_ORDER)


def test_skat_sub_packages_import_only_downward():
    """Inside ``qcards.skat`` as between layers: a sub-package imports its own and the ones
    below it, lazy imports and the type checker's included."""
    upward = []
    for module, imports in MODULES.items():
        here = skat_rank(module)
        if here is None or here == len(SKAT_ORDER):
            continue
        for target in own(imports):
            there = skat_rank(target)
            if there is not None and there > here:
                upward.append(f"{module} -> {target}")
    assert not upward, upward
    assert skat_rank("qcards.skat.deals.count") < skat_rank("qcards.skat.position.prior")
    assert skat_rank("qcards.skat.deals.sample") == SKAT_ORDER.index("deals")


RENAMED_SOLVERS = {"referee": "plain_referee", "exact_referee": "evaluation",
                   "adversarial": "minimax", "outcomes": "outcome_distributions"}  # fmt: skip
"""Modules of ``qcards.skat.solvers`` renamed so that the name says what the module holds."""

MOVED = {
    **{f"qcards.skat.solvers.{old}": f"qcards.skat.solvers.{new}"
       for old, new in RENAMED_SOLVERS.items()},
    "qcards.games.work": "qcards.games.time_budget",
    "qcards.circuits.gates.codes": "qcards.circuits.gates.card_code_updates",
    **{f"qcards.skat.{m}": f"qcards.skat.rules.{m}"
       for m in ("cards", "scoring", "rule_tables", "bidding_rules")},
    "qcards.skat.play_core": "qcards.skat.rules.turns",
    "qcards.skat.play_core_kernel": "qcards.skat.rules.turns_kernel",
    "qcards.skat.deal_count": "qcards.skat.deals.count",
    "qcards.skat.deal_sampling": "qcards.skat.deals.sample",
    **{f"qcards.skat.{m}": f"qcards.skat.position.{m}"
       for m in ("spec", "prior", "declaration", "history", "seat_view", "stages",
                 "consistency")},
    **{f"qcards.skat.{m}": f"qcards.skat.compiled.{m}" for m in ("jit", "bits")},
    **{f"qcards.skat.{m}": f"qcards.skat.solvers.{RENAMED_SOLVERS.get(m, m)}"
       for m in ("referee", "exact_referee", "referee_cost", "adversarial", "pimc",
                 "monte_carlo", "outcomes", "objectives", "double_dummy.solver",
                 "double_dummy.search", "double_dummy.outcome", "fast_referee.solver",
                 "fast_referee.kernel", "fast_referee.tricks", "fast_referee.memo")},
    "qcards.skat.game_record": "qcards.skat.records.game_record",
    "qcards.skat.openspiel_game": "qcards.skat.openspiel",
    **{f"qcards.skat.{m}": f"qcards.skat.players.{m}"
       for m in ("play_models", "heuristic", "heuristic_kernel", "beliefs", "best_response",
                 "best_response_kernel", "bidders")},
}  # fmt: skip
"""Modules moved into a sub-package or renamed: the old name kept for one release (docs/api)."""


@pytest.mark.parametrize("old", sorted(MOVED))
def test_a_moved_module_answers_under_its_old_name(old):
    import importlib
    import sys
    import warnings

    assert old in MODULES
    sys.modules.pop(old, None)  # imported afresh: the alias module runs again and warns
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        module = importlib.import_module(old)
    assert module is importlib.import_module(MOVED[old])
    said = [str(w.message) for w in caught if w.category is DeprecationWarning]
    assert f"{old} moved to {MOVED[old]}; the old name goes in the next release" in said


@pytest.mark.parametrize(
    "old, new",
    [("Play", "GameOutcomes"), ("Figures", "OptionValue"), ("Runner", "PlayComputation")],
)
def test_a_renamed_class_answers_under_its_old_name(old, new):
    import warnings

    from qcards.analysis import decision_plays

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        found = getattr(decision_plays, old)
    assert found is getattr(decision_plays, new)
    module = "qcards.analysis.decision_plays"
    said = [str(w.message) for w in caught if w.category is DeprecationWarning]
    assert f"{module}.{old} moved to {module}.{new}; the old name goes in the next release" in said
    with pytest.raises(AttributeError):
        decision_plays.NoSuchName  # noqa: B018


def test_the_solvers_front_is_the_exact_evaluation():
    from qcards.skat import solvers
    from qcards.skat.solvers.evaluation import evaluate

    assert solvers.evaluate is evaluate
