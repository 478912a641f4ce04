"""Evaluation methods as records in one registry.

``record`` defines :class:`~qcards.analysis.methods.record.EvaluationMethod` (what a method
answers, its cost before any work, how it runs) and the
:class:`~qcards.analysis.methods.record.Request` it runs; ``report`` what every method returns;
``runs`` how the built-ins run and ``builtin`` their records; ``registry`` finds them by name
(entry points ``qcards.evaluation_methods`` included), refuses what cannot answer and is
``--method auto``.
"""
