"""The one way a module (or a name) of qcards that moved keeps answering under its old name,
for one release, with a `DeprecationWarning`: standard library only, below every layer."""

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


def renamed(module: str, names: dict[str, str]):
    """A module ``__getattr__`` that answers each old name in ``names`` with the object now
    called ``names[old]`` in ``module`` and warns, at each lookup (Python's warning filters
    show it once a calling line), that the old name goes in the next release
    (``__getattr__ = renamed(__name__, {"Play": "GameOutcomes"})``)."""

    def __getattr__(name: str):
        if name not in names:
            raise AttributeError(f"module {module!r} has no attribute {name!r}")
        _warn(f"{module}.{name}", f"{module}.{names[name]}", stacklevel=3)
        return getattr(sys.modules[module], names[name])

    return __getattr__


def _warn(old: str, new: str, stacklevel: int = 4) -> None:
    """The warning of a moved module, pointing at the line that imported it."""
    warnings.warn(
        f"{old} moved to {new}; the old name goes in the next release",
        DeprecationWarning,
        stacklevel=stacklevel,
    )
