"""The evaluation methods by name, and what ``--method`` asks of them.

The built-ins (:mod:`qcards.analysis.methods.builtin`) come first, then the records of the
entry-point group ``qcards.evaluation_methods`` (a third party's method is one module and one
record: an entry point named like its
:class:`~qcards.analysis.methods.record.EvaluationMethod`). :func:`resolve` turns a name, a
play model and shots into the record that runs, refusing a record that cannot answer (never
replacing it by another); :func:`choose_auto` is ``--method auto``: the cheapest record that
can answer, by the estimates each makes before any work, and why.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from qcards.analysis.methods.builtin import BUILT_IN
from qcards.analysis.methods.record import EvaluationMethod, Request
from qcards.errors import ModelError, ParameterError, ResourceError
from qcards.execution.budget import check_shots
from qcards.plugins import load_group, lookup
from qcards.progress import duration
from qcards.skat.players.play_models import PlayModel, get_model
from qcards.skat.players.play_models import registry as model_registry

AUTO = "auto"
"""The name that asks the registry to choose (:func:`choose_auto`)."""

ENTRY_POINT_GROUP = "qcards.evaluation_methods"


@cache
def registry() -> dict[str, EvaluationMethod]:
    """Every evaluation method by name: the built-ins, then the entry points of
    :data:`ENTRY_POINT_GROUP` (each must load a record of its own name; read once per
    process). A plugin called like a built-in, like another plugin or ``auto`` is a
    :class:`~qcards.errors.PluginError` (:mod:`qcards.plugins`)."""
    return load_group(ENTRY_POINT_GROUP, BUILT_IN, EvaluationMethod, reserved=(AUTO,))


def reload_methods() -> None:
    """Read the entry points again (after installing a plugin in a running interpreter)."""
    registry.cache_clear()


def method_names() -> tuple[str, ...]:
    """What ``--method`` accepts: every record's name, then ``auto``."""
    return (*registry(), AUTO)


def get_method(name: str | EvaluationMethod) -> EvaluationMethod:
    """The record called ``name`` (:class:`~qcards.errors.ParameterError` naming the choices)."""
    return lookup(
        registry(), name, EvaluationMethod,
        lambda: ParameterError(
            "method", f"unknown method {name!r} (expected {' | '.join(method_names())})"
        ),
    )  # fmt: skip


def _names(named: list) -> str:
    """The names of records (or names) as a sentence lists them: ``a, b or c``."""
    names = [getattr(n, "name", n) for n in named]
    return ", ".join(names[:-1]) + f" or {names[-1]}" if len(names) > 1 else "".join(names)


def _auto_candidates(kind: str, shots: int | None) -> list[EvaluationMethod]:
    """The records ``auto`` may run for a model of this kind, with or without shots."""
    return [r for r in registry().values() if kind in r.auto and r.answers(kind, shots)]


def _who_answers(model: PlayModel) -> str:
    """The methods that compute ``model``, for a refusal."""
    exact = [r for r in registry().values() if model.kind in r.exact]
    sampled = [r for r in registry().values() if model.kind in r.sampled]
    parts = []
    if exact:
        parts.append(f"{{method}} {_names(exact)} (exact)")
    if sampled:
        parts.append(f"{{method}} {_names(sampled)} with {{shots}}")
    return " or ".join(parts) if parts else "no method"


def resolve(name: str | EvaluationMethod, model: str | PlayModel, shots: int | None = None):
    """The record that runs for ``--method name`` (None for ``auto``, which
    :func:`choose_auto` decides with the spec in hand), after refusing what cannot answer:
    a record that does not compute the model, exact records given shots, sampled records not
    given them. ``double-dummy`` with shots is ``pimc`` (its ``with_shots``)."""
    play_model = get_model(model)
    kind = play_model.kind
    if shots is not None:
        check_shots(shots)
    if name == AUTO:
        if not _auto_candidates(kind, shots):
            what = "samples" if shots is not None else "computes"
            raise ModelError(
                f"no method {what} the {play_model.name} model"
                + (": leave out {shots}" if shots is not None else ""),
                parameters=("method", "shots"),
            )
        return None
    record = get_method(name)
    runs = get_method(record.with_shots) if shots is not None and record.with_shots else record
    if runs.answers(kind, shots):
        return runs
    if shots is None and kind in record.sampled:
        raise ModelError(
            f"{{method}} {record.name} needs {{shots}} (how many to sample)",
            parameters=("method", "shots"),
        )
    if shots is not None and kind in record.exact:
        sampled = [r for r in registry().values() if r.answers(kind, shots)]
        instead = (f"give {{shots}} with {{method}} {_names(sampled)} or auto, or leave it out"
                   if sampled else f"no method samples the {play_model.name} model: leave "
                   "out {shots}")  # fmt: skip
        raise ModelError(
            f"{{shots}} samples, but {{method}} {record.name} is exact for the "
            f"{play_model.name} model: {instead}",
            parameters=("shots", "method"),
        )
    answered = [m.name for m in model_registry().values()
                if m.kind in record.exact | record.sampled]  # fmt: skip
    raise ModelError(
        f"{{method}} {record.name} answers {{model}} {_names(answered) or '(none registered)'}"
        f", not {{model}} {play_model.name}, which is computed by {_who_answers(play_model)}",
        parameters=("method", "model", "shots"),
    )


@dataclass(frozen=True)
class AutoChoice:
    """What ``--method auto`` runs, and why (reported in the JSON)."""

    method: EvaluationMethod
    reason: str


def _seconds(seconds: float) -> str:
    return f"{seconds:.2g} s" if seconds < 60 else duration(seconds)


def choose_auto(request: Request) -> AutoChoice:
    """``auto``: among the records that may run for the model (with shots, the sampled ones),
    the cheapest by the seconds each estimates before any work; a record that makes no
    estimate runs only when none that does can answer (in registry order). The reason names
    the others and their estimates, or why they cannot answer."""
    kind, shots = request.kind, request.shots
    candidates = _auto_candidates(kind, shots)
    estimated: list[tuple[float, EvaluationMethod]] = []
    unestimated: list[EvaluationMethod] = []
    refused: list[str] = []
    for record in candidates:
        try:
            seconds = record.seconds(request)
        except ResourceError as exc:
            refused.append(f"{record.summary} cannot: {exc.reason}")
            continue
        if seconds is None:
            unestimated.append(record)
        else:
            estimated.append((seconds, record))
    estimated.sort(key=lambda item: item[0])
    sampled = " with shots" if shots is not None else ""
    adjective = "sampled" if shots is not None else "exact"
    if estimated:
        seconds, chosen = estimated[0]
        others = [f"{r.summary}, about {_seconds(s)}" for s, r in estimated[1:]]
        others += [f"{r.summary}: no estimate before any work" for r in unestimated]
        others += refused
        return AutoChoice(
            chosen,
            f"auto{sampled}: {chosen.summary}, about {_seconds(seconds)}, is the cheapest "
            + f"{adjective} method"
            + (f" ({'; '.join(others)})" if others else ""),
        )
    if unestimated:
        chosen = unestimated[0]
        why = "; ".join(refused)
        alone = len(candidates) == 1
        return AutoChoice(
            chosen,
            f"auto{sampled}: {chosen.summary}"
            + (f", the one {adjective} method for the {request.model.name} model" if alone
               else f" ({why})" if why else f", the first of {_names(unestimated)}"),
        )  # fmt: skip
    raise ResourceError(
        f"no method can answer the {request.model.name} model here: " + "; ".join(refused),
        parameters=("method", "shots", "force"),
    )
