"""The double-dummy solver: every deal played open, by alpha-beta search (the referee's
``adversarial`` model on one deal, fast enough for a full game).

``solver`` holds the records, positions and public functions (:func:`solver.solve_deal`,
:func:`solver.solve_position`), ``search`` the compiled search (numba,
:mod:`qcards.skat.compiled.jit`), ``outcome`` a declared game's outcome of a deal (the
declarer's level by a few searches). The rules come as arrays from
:mod:`qcards.skat.rules.rule_tables`.
"""
