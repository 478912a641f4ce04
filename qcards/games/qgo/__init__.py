"""Quantum Go (Ranchin, 2016): Go where each move places an entangled pair of stones.

Pure Python:

- :mod:`~qcards.games.qgo.board`: points, coordinates, neighbours, groups, liberties.
- :mod:`~qcards.games.qgo.rules`: board size, komi and the variants, as one options record.
- :mod:`~qcards.games.qgo.collapse`: entangled groups and the three-step collapse.
- :mod:`~qcards.games.qgo.game`: the game state, captures, positional superko, area scoring.
- :mod:`~qcards.games.qgo.record`: the text record format, replay and its JSON summary.
- :mod:`~qcards.games.qgo.sgf`: SGF export of a game.
- :mod:`~qcards.games.qgo.bots`: a simple computer player.
- :mod:`~qcards.games.qgo.terminal`: drawing the board and playing in a terminal.
"""
