"""Other games of the sources, each in its own subpackage (pure Python, no qiskit).

- :mod:`qcards.games.gofish`: Quantum Go Fish, an exact referee and a record replayer.
"""
