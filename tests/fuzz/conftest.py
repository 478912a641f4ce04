"""Hypothesis profiles of the fuzz suite.

``qcards-ci`` (the default): a fixed budget of examples per test, derandomized, so every run
(CI's included) tries the same inputs and the suite finishes in a few minutes on two cores.
``qcards-thorough``: ten times the examples, still derandomized. ``qcards-random``: fresh random
inputs on every run (to find new failures; a failure prints the input to replay).

Choose one with ``QCARDS_FUZZ_PROFILE=NAME`` or pytest's ``--hypothesis-profile NAME``;
``QCARDS_FUZZ_EXAMPLES=N`` scales any of them to N examples for the tests that run the CI
budget's :data:`BASE_EXAMPLES` (the others keep their proportion:
:func:`fuzzlib.examples`). Hypothesis keeps no
example database (``database=None``), so nothing is written into the repository.
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

BASE_EXAMPLES = 40
"""Examples per test in the CI profile (tests that do more work per example ask for fewer)."""

_COMMON = dict(
    deadline=None,  # the hang guard of fuzzlib.run_cli bounds each call instead
    database=None,
    print_blob=True,
    # generation filters names and cards; tests that do little work per example would trip
    # the too_slow check on a busy machine
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)

settings.register_profile("qcards-ci", max_examples=BASE_EXAMPLES, derandomize=True, **_COMMON)
settings.register_profile(
    "qcards-thorough", max_examples=10 * BASE_EXAMPLES, derandomize=True, **_COMMON
)
settings.register_profile(
    "qcards-random", max_examples=10 * BASE_EXAMPLES, derandomize=False, **_COMMON
)


def pytest_configure(config) -> None:
    if config.getoption("hypothesis_profile", default=None):
        return  # --hypothesis-profile NAME was given: the Hypothesis plugin loaded it
    settings.load_profile(os.environ.get("QCARDS_FUZZ_PROFILE", "qcards-ci"))
