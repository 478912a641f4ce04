"""What a position is worth: the exact referees, the double-dummy solver, PIMC, Monte Carlo and
the outcome distributions, above :mod:`qcards.skat.deals` and below the players.

:mod:`.referee` the plain classical referee whose ``Fraction``\\ s every quantum number is checked
against (the tests' oracle); :mod:`.fast_referee` the same answers from a compiled memoized
search; :mod:`.exact_referee` picks between them and :mod:`.referee_cost` prices them;
:mod:`.double_dummy` solves a deal with every card seen; :mod:`.adversarial` answers the
adversarial value on every deal, :mod:`.pimc` on sampled ones; :mod:`.monte_carlo` plays random
or policy games; :mod:`.outcomes` the exact distribution of a game's points, tricks and
matadors under a policy; :mod:`.objectives` what the declarer plays for (win, score,
Seeger-Fabian points).

The submodules are imported by name; this package imports none of them.
"""
