"""The deals of the unknown cards: how many there are (:mod:`.count`), every one with its
probability (:mod:`.enumeration`), and drawn at random by those probabilities (:mod:`.sample`).

The submodules are imported by name; this package imports none of them, so that the prior
(which counts deals) and the enumeration (which weighs them by the prior) import without a
cycle.
"""
