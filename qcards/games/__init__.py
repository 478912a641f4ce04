"""Other games of the sources, each in its own subpackage (pure Python except quantum views).

- :mod:`qcards.games.gofish`: Quantum Go Fish, an exact referee and a record replayer.
- :mod:`qcards.games.qgo`: Quantum Go, a rules engine with records, replay and play.
- :mod:`qcards.games.cats`: Philosopher Cats, an epistemic referee, scoring and a study.
"""
