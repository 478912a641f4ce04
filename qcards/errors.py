"""Exceptions of qcards' Skat library and execution layers (each game has its own module).

The CLI turns every :class:`QcardsError` into one ``error:`` line. A message that names a
function parameter marks it ``{name}`` and lists it in :attr:`QcardsError.parameters`: the
library's text reads ``epsilon must lie in (0, 0.5)``, and the CLI renders the same error with
its flags, ``--epsilon must lie in (0, 0.5)`` (:func:`qcards.cli.common.error_message`).
"""

from __future__ import annotations

import re


class QcardsError(Exception):
    """Base class of all errors meant for a user (bad input, refused requests).

    Attributes:
        parameters: the function parameters the message names (as ``{name}`` markers).
    """

    def __init__(self, message: str = "", *, parameters: tuple[str, ...] = ()) -> None:
        super().__init__(message)
        self.parameters = tuple(parameters)

    def render(self, names: dict[str, str]) -> str:
        """The message with each ``{parameter}`` marker written as ``names[parameter]``."""
        text = str(self.args[0]) if self.args else ""
        for parameter in self.parameters:
            text = re.sub(
                r"\{" + re.escape(parameter) + r"\}", names.get(parameter, parameter), text
            )
        return text

    def __str__(self) -> str:
        return self.render({})

    def __reduce__(self):
        # keep the attributes across pickling (Dask ships errors between processes), whatever
        # the subclass's constructor takes
        return (_rebuild, (type(self), self.args, self.__dict__))


def _rebuild(cls: type[QcardsError], args: tuple, state: dict) -> QcardsError:
    error = cls.__new__(cls)
    Exception.__init__(error, *args)
    error.__dict__.update(state)
    return error


class SpecError(QcardsError, ValueError):
    """An endgame spec that cannot be read or breaks a rule; names the file and the field."""


class GameRecordError(QcardsError, ValueError):
    """A record of a finished Skat game that cannot be read or breaks a rule; names the file
    and the field (a trick of the play: its number and the card)."""


class FileError(QcardsError, ValueError):
    """A path qcards will not write or read: not a regular file (a device, a FIFO, a directory,
    a socket), or an input file larger than qcards reads; names the path."""


class ResourceError(QcardsError):
    """A request that would need more qubits (or memory, or time) than the chosen method can
    hold.

    Attributes:
        reason: why it is refused, without the way out (what ``--method auto`` quotes when it
            chooses another method instead of refusing).
        advice: what the user can do instead, or ``None``; the message is ``reason; advice``.
    """

    def __init__(
        self, message: str = "", *, parameters: tuple[str, ...] = (), advice: str | None = None
    ) -> None:
        super().__init__(message if advice is None else f"{message}; {advice}",
                         parameters=parameters)  # fmt: skip
        self.reason = message
        self.advice = advice


class ModelError(QcardsError, ValueError):
    """A combination of options the model cannot answer (e.g. adversarial play on a circuit)."""


class ParameterError(ModelError):
    """A function argument that is out of range or unknown; names the parameter."""

    def __init__(self, parameter: str, message: str, *, also: tuple[str, ...] = ()) -> None:
        """``also``: other parameters the message names beside ``parameter``."""
        super().__init__(message, parameters=(parameter, *also))
        self.parameter = parameter


class IllegalPlay(QcardsError, ValueError):
    """A card the seat to move may not play (:meth:`qcards.skat.rules.table.Table.play`): one it
    does not hold, or one that fails to follow the led suit.

    Attributes:
        seat: the seat to move.
        card: the card it tried.
        legal: the cards it may play (empty when the table has no trick to play to).
        held: whether the seat holds ``card`` (a held card is illegal only by failing to
            follow suit).
    """

    def __init__(self, seat: int, card: object, legal: tuple, held: bool) -> None:
        options = " ".join(str(c) for c in legal)
        reason = "must follow suit with one of" if held else "does not hold it; it may play"
        super().__init__(f"seat {seat} plays {card} but {reason} {options}".rstrip())
        self.seat, self.card, self.legal, self.held = seat, card, tuple(legal), held


class PlayerError(QcardsError):
    """A match's player that cannot play: an outside program that cannot be started or
    answers wrongly (:mod:`qcards.analysis.exec_player`); names the player (``{player}``)
    and the request."""

    def __init__(self, message: str = "", *, parameters: tuple[str, ...] = ("player",)) -> None:
        super().__init__(message, parameters=parameters)


class PluginError(QcardsError):
    """A plugin (an entry point another package installs) that qcards cannot register: a name
    two providers take (two entry points of a group, or an entry point and a built-in), an
    entry point that fails to load or loads something else; names the group, the name and
    every provider (:mod:`qcards.plugins`)."""


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
