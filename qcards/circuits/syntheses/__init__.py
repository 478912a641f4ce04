"""The built-in constructions' syntheses of the game gates, one module per construction.

``paper``: the paper's constructions (Eqs. 1, 12 and 15), exponential in the hand size;
``efficient``: polynomial, with a workspace of clean ancillas; ``hardware``: few two-qubit gates
for small endgames, from the basis states the circuit reaches; ``paper_counts``: the paper
construction's gate counts by formula, where its circuits are too large to build.

Each module ends in its :class:`~qcards.circuits.construction.Construction` record; the
registry (:mod:`qcards.circuits.construction`) lists them.
"""
