"""Exceptions of qcards' Skat library and execution layers (each game has its own module).

The CLI turns every :class:`QcardsError` into one ``error:`` line. Library messages name the
Python parameters (``epsilon``, ``method='classical'``); an error lists the parameters it
names in :attr:`QcardsError.parameters`, and the CLI writes them as its flags
(:func:`qcards.cli.common.error_message`).
"""


class QcardsError(Exception):
    """Base class of all errors meant for a user (bad input, refused requests).

    Attributes:
        parameters: the function parameters the message names, if any.
    """

    def __init__(self, message: str = "", *, parameters: tuple[str, ...] = ()) -> None:
        super().__init__(message)
        self.parameters = tuple(parameters)


class SpecError(QcardsError, ValueError):
    """An endgame spec that cannot be read or breaks a rule; names the file and the field."""


class ResourceError(QcardsError):
    """A request that would need more qubits (or memory) than the chosen method can hold."""


class ModelError(QcardsError, ValueError):
    """A combination of options the model cannot answer (e.g. adversarial play on a circuit)."""


class ParameterError(ModelError):
    """A function argument that is out of range or unknown; names the parameter."""

    def __init__(self, parameter: str, message: str) -> None:
        super().__init__(message, parameters=(parameter,))
        self.parameter = parameter


class MissingExtraError(QcardsError):
    """A feature whose optional dependencies are not installed; names the extra to install."""


class CredentialsError(QcardsError):
    """No usable IBM Quantum account (saved or in the environment), or the service refused it."""


class JobStoreError(QcardsError):
    """A job the local job store does not hold, or a store file that cannot be read."""


class JobError(QcardsError):
    """A hardware job that failed, was cancelled, or was interrupted while waiting.

    Attributes:
        job_id: the job, when the error concerns one that the job store keeps.
    """

    def __init__(self, message: str, *, job_id: str | None = None) -> None:
        super().__init__(message)
        self.job_id = job_id
