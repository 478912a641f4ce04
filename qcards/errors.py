"""Exceptions of qcards. The CLI turns every :class:`QcardsError` into one ``error:`` line."""


class QcardsError(Exception):
    """Base class of all errors meant for a user (bad input, refused requests)."""


class SpecError(QcardsError, ValueError):
    """An endgame spec that cannot be read or breaks a rule; names the file and the field."""


class ResourceError(QcardsError):
    """A request that would need more qubits (or memory) than the chosen method can hold."""


class ModelError(QcardsError, ValueError):
    """A combination of options the model cannot answer (e.g. adversarial play on a circuit)."""
