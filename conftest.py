"""Root conftest: tags the notebooks that nbmake collects from notebooks/ with the ``notebook``
marker, so ``pytest -m "not notebook"`` leaves them out (they run by default and in CI)."""

from __future__ import annotations

import pytest


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if getattr(item, "nbmake", False):
            item.add_marker(pytest.mark.notebook)
