"""What a position is worth: the exact referees, the double-dummy solver, PIMC, Monte Carlo and
the outcome distributions, above :mod:`qcards.skat.deals` and below the players.

:func:`evaluate` (``qcards.skat.solvers.evaluate(spec, model, first)``) is the one front for a
position's exact value under random or adversarial play: :mod:`.evaluation` answers with the
plain referee or the compiled one, whichever is faster for the spec, and the same Fractions.
Behind it, :mod:`.plain_referee` the plain classical referee whose ``Fraction``\\ s every
quantum number is checked against (the tests' oracle); :mod:`.fast_referee` the same answers
from a compiled memoized search; :mod:`.referee_cost` prices them; :mod:`.double_dummy` solves
a deal with every card seen; :mod:`.minimax` the adversarial model's value on every deal,
:mod:`.pimc` on sampled ones; :mod:`.monte_carlo` plays random or policy games;
:mod:`.outcome_distributions` the exact distribution of a game's points, tricks and matadors
under a policy; :mod:`.objectives` what the declarer plays for (win, score, Seeger-Fabian
points). The methods of ``qcards evaluate`` (:mod:`qcards.analysis.methods`) choose among
them.

The submodules are imported by name; importing this package imports none of them
(:func:`evaluate` loads :mod:`.evaluation` when first called).
"""

from __future__ import annotations


def __getattr__(name: str):
    if name == "evaluate":
        from qcards.skat.solvers.evaluation import evaluate

        return evaluate
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
