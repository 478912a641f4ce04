"""The rules of Skat card play and scoring, below every other part of :mod:`qcards.skat`.

:mod:`.cards` the cards, suits, trumps, legal cards and trick winners; :mod:`.turns` how
play moves round the table (its compiled twin :mod:`.turns_kernel`); :mod:`.table` the
table's state during play (its compiled twin :mod:`.table_kernel`); :mod:`.rule_tables` the
rules as the arrays the compiled searches read; :mod:`.scoring` the ISkO's game values and
points; :mod:`.bidding_rules` the club rules a match bids and declares by.

The submodules are imported by name; this package imports none of them.
"""
