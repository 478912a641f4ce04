"""Warnings qcards cannot fix are silenced narrowly, and only those.

qiskit-algorithms 0.4 builds the Grover operator of every amplitude estimation with Qiskit's
``GroverOperator`` class, deprecated in Qiskit 2.1, whose zero reflection calls two deprecated
MCX helpers. pyproject.toml's ``filterwarnings`` ignores exactly these three messages from the
modules that raise them; these tests run under that configuration (pytest applies it to every
test) and record whatever DeprecationWarning still gets through.
"""

from __future__ import annotations

import warnings

import pytest

from qcards.circuits.task import GameTask
from qcards.estimation.counting import count
from qcards.estimation.options import EstimationOptions
from qcards.paper.examples import FOUR_CARD

GROVER_CLASS = (
    "The class ``qiskit.circuit.library.grover_operator.GroverOperator`` is deprecated as of "
    "Qiskit 2.1. It will be removed in Qiskit 3.0. Use qiskit.circuit.library.grover_operator "
    "instead."
)


@pytest.mark.parametrize(
    ("method", "setting"),
    [("canonical", {"eval_qubits": 2}), ("iae", {"epsilon": 0.1}), ("mlae", {"epsilon": 0.2})],
)
def test_amplitude_estimation_prints_no_deprecation_warning(method, setting):
    task = GameTask(FOUR_CARD.spec(), None, "paper")
    with warnings.catch_warnings(record=True) as caught:  # keeps the configured filters
        count(task, EstimationOptions(method, seed=1, shots=100, **setting))
    deprecations = [w for w in caught if issubclass(w.category, DeprecationWarning)]
    assert not deprecations, [f"{w.filename}:{w.lineno}: {w.message}" for w in deprecations]


def test_the_filters_are_narrow():
    """The same message raised from any other module (qcards' own, say) still shows."""
    with warnings.catch_warnings(record=True) as caught:
        for module in (
            "qiskit_algorithms.amplitude_estimators.estimation_problem",
            "qcards.estimation.counting",
            "qiskit_algorithms.amplitude_amplifiers.grover",
        ):
            warnings.warn_explicit(GROVER_CLASS, DeprecationWarning, "x.py", 1, module=module)
        warnings.warn_explicit(
            "The class ``qcards.Something`` is deprecated",
            DeprecationWarning,
            "x.py",
            1,
            module="qiskit_algorithms.amplitude_estimators.estimation_problem",
        )
    assert len(caught) == 3
