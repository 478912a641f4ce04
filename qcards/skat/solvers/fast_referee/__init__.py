"""The fast referee: the exact referee's answers (every deal, every path of play, as
:mod:`qcards.skat.solvers.plain_referee` defines them) from a compiled, memoized search.

``solver`` holds the public functions (:func:`solver.evaluate`) and the spec's encoding,
``kernel`` the numba search, ``tricks`` a trick's pieces and the last two tricks played out,
``memo`` the 128-bit values and the memo table.
"""
