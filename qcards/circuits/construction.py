"""Which synthesis of the game gates a circuit uses (the way Qiskit chooses a synthesis plugin).

Both constructions build the same gates from the same spec and act the same on the measured
registers; they differ in how each gate is synthesised:

``Construction.PAPER``
    the paper's constructions: state preparation for U_ini (Eq. 1) and products over
    configurations for CP and TT (Eqs. 12 and 15), exponential in the hand size; narrow at the
    paper's sizes (15 qubits for the four-card example).
``Construction.EFFICIENT`` (the default)
    Dicke-state deals and per-card predicates (:mod:`qcards.circuits.gates.dicke`,
    :mod:`qcards.circuits.gates.predicates`), polynomial, with clean ancillas in a workspace.
``Construction.HARDWARE``
    for small endgames on today's devices: each stage synthesised for few two-qubit gates from
    the rules on the basis states the circuit reaches (:mod:`qcards.circuits.hardware`); the
    paper construction's registers.
"""

from __future__ import annotations

from enum import StrEnum

from qcards.errors import ParameterError


class Construction(StrEnum):
    """A synthesis of the game gates; compares equal to its name (``"paper"``, ...)."""

    PAPER = "paper"
    EFFICIENT = "efficient"
    HARDWARE = "hardware"

    @classmethod
    def parse(cls, value: str | Construction, parameter: str = "construction") -> Construction:
        """The construction called ``value``; anything else raises :class:`ParameterError`."""
        try:
            return cls(value)
        except ValueError:
            expected = " | ".join(c.value for c in cls)
            raise ParameterError(
                parameter, f"unknown {parameter} {value!r} (expected {expected})"
            ) from None


DEFAULT_CONSTRUCTION = Construction.EFFICIENT
"""The one library default: the polynomial construction, which scales to the full game. The
CLI's ``run`` and ``count`` default to ``paper`` instead, the narrower circuit at the paper's
sizes (hardware, noisy emulation and the paper's counting experiments)."""

CONSTRUCTIONS = tuple(c.value for c in Construction)
"""The constructions by name, for help texts and choices."""
