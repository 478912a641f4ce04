"""qcards: imperfect-information card games evaluated with quantum circuits.

The public API, one import away (``from qcards import load_spec, evaluate, ...``). The layers
behind it, each a package (imports flow this way only; ``docs/architecture.md``):

``skat`` (cards, specs, stages, the exact referee; pure Python) -> ``circuits`` (layout, card
codes, gates, the game and win circuits; built, never run) -> ``execution`` (the target
registry, exact simulation, sampling, noisy emulation, IBM jobs, sweeps) -> ``estimation``
(amplitude estimation, Skat's counting) -> ``analysis`` (evaluate, recommend, resources,
studies) -> ``viz`` -> ``paper`` (the paper's examples, reproduction, tables) -> ``cli``.
``games`` holds Quantum Go Fish, Philosopher Cats and Quantum Go beside them.
"""

# Loaded on first use (PEP 562), so that importing a pure-Python part (a game's referee, the
# Skat referee) does not pay for qiskit: name -> (module, attribute).
_API = {
    "Card": ("qcards.skat.cards", "Card"),
    "Construction": ("qcards.circuits.construction", "Construction"),
    "CountResult": ("qcards.estimation.counting", "CountResult"),
    "Endgame": ("qcards.skat.spec", "Endgame"),
    "EstimationOptions": ("qcards.estimation.options", "EstimationOptions"),
    "Evaluation": ("qcards.skat.referee", "Evaluation"),
    "EvaluationReport": ("qcards.analysis.evaluate", "EvaluationReport"),
    "GameChoice": ("qcards.analysis.declare", "GameChoice"),
    "GameCircuit": ("qcards.circuits.game", "GameCircuit"),
    "GameTask": ("qcards.circuits.task", "GameTask"),
    "MissingExtraError": ("qcards.errors", "MissingExtraError"),
    "ModelError": ("qcards.errors", "ModelError"),
    "ParameterError": ("qcards.errors", "ParameterError"),
    "Prior": ("qcards.skat.prior", "Prior"),
    "QcardsError": ("qcards.errors", "QcardsError"),
    "ResourceError": ("qcards.errors", "ResourceError"),
    "Rules": ("qcards.skat.cards", "Rules"),
    "RunReport": ("qcards.execution.results", "RunReport"),
    "SpecError": ("qcards.errors", "SpecError"),
    "Target": ("qcards.execution.targets", "Target"),
    "Trump": ("qcards.skat.cards", "Trump"),
    "after_history": ("qcards.skat.history", "after_history"),
    "build_game": ("qcards.circuits.game", "build_game"),
    "build_win_circuit": ("qcards.circuits.oracle", "build_win_circuit"),
    "count": ("qcards.estimation.counting", "count"),
    "count_resources": ("qcards.analysis.resources", "count_resources"),
    "declare": ("qcards.analysis.declare", "declare"),
    "evaluate": ("qcards.analysis.evaluate", "evaluate_spec"),
    "exact_stage_probabilities": ("qcards.execution.exact", "exact_stage_probabilities"),
    "load_spec": ("qcards.skat.spec", "load_spec"),
    "parse_spec": ("qcards.skat.spec", "parse_spec"),
    "parse_target": ("qcards.execution.targets", "parse_target"),
    "recommend": ("qcards.analysis.evaluate", "recommend_spec"),
    "referee_evaluate": ("qcards.skat.referee", "evaluate"),
    "run": ("qcards.execution.run", "run_task"),
    "sample_game": ("qcards.execution.shots", "sample_game"),
    "solve_deal": ("qcards.skat.double_dummy", "solve_deal"),
}

__all__ = sorted(_API)
__version__ = "0.1.0"


def __getattr__(name: str):
    try:
        module, attribute = _API[name]
    except KeyError:
        raise AttributeError(f"module 'qcards' has no attribute {name!r}") from None
    import importlib

    value = getattr(importlib.import_module(module), attribute)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted([*globals(), *_API])
