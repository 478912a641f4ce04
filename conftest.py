"""Root conftest: tags the notebooks that nbmake collects from notebooks/ (`pytest --nbmake
notebooks/`) with the ``notebook`` marker; the test command leaves them to the docs build."""

from __future__ import annotations

import pytest


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if getattr(item, "nbmake", False):
            item.add_marker(pytest.mark.notebook)
