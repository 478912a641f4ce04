"""Deprecated: the package moved to :mod:`qcards.skat.solvers.double_dummy`; its modules answer
under their old names for one release."""

from qcards.moved import package

package(__name__, "qcards.skat.solvers.double_dummy")
