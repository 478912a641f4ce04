"""Philosopher Cats: the forehead-card party game built on the muddy-children puzzle.

Pure Python apart from :mod:`~qcards.games.cats.quantum` (Qiskit) and
:mod:`~qcards.games.cats.plot` (matplotlib):

- :mod:`~qcards.games.cats.cards`: the deck (52 cards and two jokers), colours, domination.
- :mod:`~qcards.games.cats.worlds`: a general possible-worlds model with public announcements.
- :mod:`~qcards.games.cats.referee`: the dealer's announcement and the synchronous guessing rounds.
- :mod:`~qcards.games.cats.scoring`: tokens, the dealer's takings, the dominant-cat bonus.
- :mod:`~qcards.games.cats.simulate`: noisy players and the dealer's strategies compared.
"""
