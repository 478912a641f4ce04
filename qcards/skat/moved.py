"""The one way a module of :mod:`qcards.skat` that moved keeps answering under its old name."""

import importlib
import sys
import warnings


def alias(old: str, new: str) -> None:
    """Make module ``old`` the module ``new`` (the same object, every name of it) and warn,
    once, that ``old`` goes in the next release. Called from the body of module ``old``."""
    warnings.warn(
        f"{old} moved to {new}; the old name goes in the next release",
        DeprecationWarning,
        stacklevel=3,
    )
    sys.modules[old] = importlib.import_module(new)
