"""qcards: imperfect-information card games evaluated with quantum circuits.

The public API, one import away (``from qcards import load_spec, evaluate, ...``). The layers
behind it, each a package (imports flow this way only; ``docs/architecture.md``):

``skat`` (cards, specs, stages, the exact referee; pure Python) -> ``circuits`` (layout, card
codes, gates, the game and win circuits; built, never run) -> ``execution`` (the backend
registry, exact simulation, sampling, noisy emulation, IBM jobs, sweeps) -> ``estimation``
(amplitude estimation, Skat's counting) -> ``analysis`` (evaluate, recommend, resources,
studies) -> ``viz`` -> ``paper`` (the paper's examples, reproduction, tables) -> ``cli``.
``games`` holds Quantum Go Fish, Philosopher Cats and Quantum Go beside them.
"""

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    # What the loader below makes of each name, spelt out for type checkers and IDEs; keep it,
    # ``_API`` and ``__all__`` naming the same. Every name is its definition's own name.
    from qcards.analysis.declare import GameChoice, declare
    from qcards.analysis.evaluate import evaluate, recommend
    from qcards.analysis.methods.report import EvaluationReport
    from qcards.analysis.resources import count_resources
    from qcards.circuits.construction import Construction
    from qcards.circuits.game import GameCircuit, build_game
    from qcards.circuits.oracle import build_win_circuit
    from qcards.circuits.task import GameTask
    from qcards.errors import (
        MissingExtraError,
        ModelError,
        ParameterError,
        QcardsError,
        ResourceError,
        SpecError,
    )
    from qcards.estimation.counting import CountResult, count
    from qcards.estimation.options import EstimationOptions
    from qcards.execution.backends import Backend, parse_backend
    from qcards.execution.exact import exact_stage_probabilities
    from qcards.execution.results import RunReport
    from qcards.execution.run import run
    from qcards.execution.shots import sample_game
    from qcards.plan import Limits, limits
    from qcards.skat.position.history import after_history
    from qcards.skat.position.prior import Prior
    from qcards.skat.position.spec import (
        Endgame,
        load_spec,
        parse_spec,
    )
    from qcards.skat.rules.cards import Card, Rules, Trump
    from qcards.skat.solvers.double_dummy.solver import solve_deal
    from qcards.skat.solvers.plain_referee import Evaluation

# Loaded on first use (PEP 562), so that importing a pure-Python part (a game's referee, the
# Skat referee) does not pay for qiskit: name -> (module, attribute).
_API = {
    "Card": ("qcards.skat.rules.cards", "Card"),
    "Construction": ("qcards.circuits.construction", "Construction"),
    "CountResult": ("qcards.estimation.counting", "CountResult"),
    "Endgame": ("qcards.skat.position.spec", "Endgame"),
    "EstimationOptions": ("qcards.estimation.options", "EstimationOptions"),
    "Evaluation": ("qcards.skat.solvers.plain_referee", "Evaluation"),
    "EvaluationReport": ("qcards.analysis.methods.report", "EvaluationReport"),
    "GameChoice": ("qcards.analysis.declare", "GameChoice"),
    "GameCircuit": ("qcards.circuits.game", "GameCircuit"),
    "GameTask": ("qcards.circuits.task", "GameTask"),
    "Limits": ("qcards.plan", "Limits"),
    "MissingExtraError": ("qcards.errors", "MissingExtraError"),
    "ModelError": ("qcards.errors", "ModelError"),
    "ParameterError": ("qcards.errors", "ParameterError"),
    "Prior": ("qcards.skat.position.prior", "Prior"),
    "QcardsError": ("qcards.errors", "QcardsError"),
    "ResourceError": ("qcards.errors", "ResourceError"),
    "Rules": ("qcards.skat.rules.cards", "Rules"),
    "RunReport": ("qcards.execution.results", "RunReport"),
    "SpecError": ("qcards.errors", "SpecError"),
    "Backend": ("qcards.execution.backends", "Backend"),
    "Trump": ("qcards.skat.rules.cards", "Trump"),
    "after_history": ("qcards.skat.position.history", "after_history"),
    "build_game": ("qcards.circuits.game", "build_game"),
    "build_win_circuit": ("qcards.circuits.oracle", "build_win_circuit"),
    "count": ("qcards.estimation.counting", "count"),
    "count_resources": ("qcards.analysis.resources", "count_resources"),
    "limits": ("qcards.plan", "limits"),
    "declare": ("qcards.analysis.declare", "declare"),
    "evaluate": ("qcards.analysis.evaluate", "evaluate"),
    "exact_stage_probabilities": ("qcards.execution.exact", "exact_stage_probabilities"),
    "load_spec": ("qcards.skat.position.spec", "load_spec"),
    "parse_spec": ("qcards.skat.position.spec", "parse_spec"),
    "parse_backend": ("qcards.execution.backends", "parse_backend"),
    "recommend": ("qcards.analysis.evaluate", "recommend"),
    "run": ("qcards.execution.run", "run"),
    "sample_game": ("qcards.execution.shots", "sample_game"),
    "solve_deal": ("qcards.skat.solvers.double_dummy.solver", "solve_deal"),
}

__all__ = [
    "Card",
    "Construction",
    "CountResult",
    "Endgame",
    "EstimationOptions",
    "Evaluation",
    "EvaluationReport",
    "GameChoice",
    "GameCircuit",
    "GameTask",
    "Limits",
    "MissingExtraError",
    "ModelError",
    "ParameterError",
    "Prior",
    "QcardsError",
    "ResourceError",
    "Rules",
    "RunReport",
    "SpecError",
    "Backend",
    "Trump",
    "after_history",
    "build_game",
    "build_win_circuit",
    "count",
    "count_resources",
    "limits",
    "declare",
    "evaluate",
    "exact_stage_probabilities",
    "load_spec",
    "parse_spec",
    "parse_backend",
    "recommend",
    "run",
    "sample_game",
    "solve_deal",
]
__version__ = "0.2.0"


# Former public names: still answered, with a DeprecationWarning naming the new one; they are
# not in ``__all__`` and will go in 0.3. name -> (new name, module, attribute).
_DEPRECATED = {
    "Target": ("qcards.Backend", "qcards.execution.backends", "Backend"),
    "parse_target": ("qcards.parse_backend", "qcards.execution.backends", "parse_backend"),
    "referee_evaluate": (
        "qcards.evaluate(spec, method='classical') or qcards.skat.solvers.plain_referee.evaluate",
        "qcards.skat.solvers.plain_referee",
        "evaluate",
    ),
}


def __getattr__(name: str):
    import importlib

    if name in _DEPRECATED:
        import warnings

        new, module, attribute = _DEPRECATED[name]
        warnings.warn(
            f"qcards.{name} is deprecated and will be removed in 0.3; use {new}",
            DeprecationWarning,
            stacklevel=2,
        )
        return getattr(importlib.import_module(module), attribute)
    try:
        module, attribute = _API[name]
    except KeyError:
        raise AttributeError(f"module 'qcards' has no attribute {name!r}") from None
    value = getattr(importlib.import_module(module), attribute)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted([*globals(), *_API])
