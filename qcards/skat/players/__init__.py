"""Who plays: the play models and the players built on them, above the solvers.

:mod:`.play_models` the play models as records in a registry (random, adversarial, heuristic,
softmax, learned), each a policy over a seat's view; :mod:`.heuristic` the rule-based player
(its compiled twin :mod:`.heuristic_kernel`); :mod:`.beliefs` weighs the deals after a
history by a model's likelihood of the plays; :mod:`.best_response` the declarer's exact best
response from what it sees (its compiled chooser :mod:`.best_response_kernel`);
:mod:`.bidders` the bidders a match seats. The networks are :mod:`qcards.skat.learned`.

The submodules are imported by name; this package imports none of them.
"""
