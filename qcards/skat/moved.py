"""The one way a module of :mod:`qcards.skat` that moved keeps answering under its old name."""

import importlib
import sys
import warnings


def alias(old: str, new: str) -> None:
    """Make module ``old`` the module ``new`` (the same object, every name of it) and warn,
    once, that ``old`` goes in the next release. Called from the body of module ``old``."""
    _warn(old, new)
    sys.modules[old] = importlib.import_module(new)


def package(old: str, new: str) -> None:
    """Warn, once, that package ``old`` moved to ``new``. Called from the body of ``old``'s
    ``__init__``: the old package stays its own (empty) module, so that its submodules, each
    an :func:`alias` of the new one, are found under the old names."""
    _warn(old, new)


def _warn(old: str, new: str) -> None:
    """The warning of a moved module, pointing at the line that imported it."""
    warnings.warn(
        f"{old} moved to {new}; the old name goes in the next release",
        DeprecationWarning,
        stacklevel=4,
    )
