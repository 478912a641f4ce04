"""Exceptions of qcards. The CLI turns every :class:`QcardsError` into one ``error:`` line."""


class QcardsError(Exception):
    """Base class of all errors meant for a user (bad input, refused requests)."""


class SpecError(QcardsError, ValueError):
    """An endgame spec that cannot be read or breaks a rule; names the file and the field."""


class ResourceError(QcardsError):
    """A request that would need more qubits (or memory) than the chosen method can hold."""


class ModelError(QcardsError, ValueError):
    """A combination of options the model cannot answer (e.g. adversarial play on a circuit)."""


class CredentialsError(QcardsError):
    """No usable IBM Quantum account (saved or in the environment), or the service refused it."""


class JobStoreError(QcardsError):
    """A job the local job store does not hold, or a store file that cannot be read."""


class JobError(QcardsError):
    """A hardware job that failed, was cancelled, or was interrupted while waiting."""


class CatsError(QcardsError, ValueError):
    """Bad input to Philosopher Cats: an unknown card, a false announcement, bad options."""


class RuleError(QcardsError, ValueError):
    """A move that breaks the rules of a game (not your turn, a suit you cannot hold, ...)."""


class RecordError(QcardsError, ValueError):
    """A game record that cannot be read or replayed; names the file and the line."""


class QgoError(QcardsError, ValueError):
    """Quantum Go: an illegal move, bad options, or a record line that breaks the rules.

    Errors from a record read ``"FILE, line N: what is wrong"``.
    """
