"""A position of a Skat game and what a seat knows of it, above :mod:`qcards.skat.rules`.

:mod:`.spec` reads and checks endgame specs (the paper's starting position, Sec. VIII, given
as TOML); :mod:`.prior` the spec's ``[prior]`` (constraints and weights of the deal);
:mod:`.declaration` its ``[declaration]`` (the game, the bid, Hand or the discard);
:mod:`.history` the rest of the game after cards played, the posterior its prior;
:mod:`.seat_view` what the seat to move sees, the interface of every policy; :mod:`.stages`
the stage and snapshot types every layer shares; :mod:`.consistency` the rules' invariants a
measured state must satisfy.

The submodules are imported by name; this package imports none of them.
"""
