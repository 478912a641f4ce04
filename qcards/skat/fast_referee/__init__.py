"""Deprecated: the package moved to :mod:`qcards.skat.solvers.fast_referee`; its modules answer
under their old names for one release."""

from qcards.moved import package

package(__name__, "qcards.skat.solvers.fast_referee")
