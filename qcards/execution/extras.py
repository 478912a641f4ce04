"""Optional dependency groups: which extra a feature needs, and a clear error when it is missing.

``pip install qcards`` gives the Skat library, the referees and Aer; the extras add the rest:

==========  ==================  ==============================================
extra       packages            for
==========  ==================  ==============================================
ddsim       mqt.ddsim           the ``ddsim`` backend (decision diagrams)
ibm         qiskit-ibm-runtime  ``ibm:`` hardware, ``fake:`` devices
dask        dask[distributed]   ``--dask`` sweeps
mitigation  mthree, mitiq, ply  ``--mitigate readout`` and ``zne``
estimate    qdk                 ``--fault-tolerant`` (resource estimator)
openspiel   open_spiel          endgames as OpenSpiel games
train       jax, optax          ``qcards train`` (fitting the learned model)
all         all of the above
==========  ==================  ==============================================
"""

from __future__ import annotations

from importlib.util import find_spec

from qcards.errors import MissingExtraError

EXTRAS: dict[str, tuple[str, ...]] = {
    "ddsim": ("mqt.ddsim",),
    "ibm": ("qiskit_ibm_runtime",),
    "dask": ("distributed",),
    "mitigation": ("mthree", "mitiq", "ply"),
    "estimate": ("qdk",),
    "openspiel": ("pyspiel",),
    "train": ("jax", "optax"),
}
"""The modules each extra installs (checked by import name)."""


def _installed(module: str) -> bool:
    try:
        return find_spec(module) is not None
    except (ImportError, ValueError):  # a parent package that is missing or broken
        return False


def missing(extra: str) -> tuple[str, ...]:
    """The modules of ``extra`` that cannot be imported."""
    return tuple(m for m in EXTRAS[extra] if not _installed(m))


def require(extra: str, feature: str) -> None:
    """Raise :class:`MissingExtraError` naming the install command if ``extra`` is missing."""
    absent = missing(extra)
    if absent:
        raise MissingExtraError(
            f"{feature} needs the optional dependencies of qcards[{extra}] "
            f"({', '.join(absent)} not installed): pip install 'qcards[{extra}]'"
        )
