"""Constructions: how the game gates are synthesised, as records in a registry.

A game circuit is made of one gate per game concept -- the deal
(:class:`~qcards.circuits.gates.deal.GameDealGate`, Eq. 1), a card play
(:class:`~qcards.circuits.gates.play.CardPlayGate`, Eqs. 9-13), a trick
(:class:`~qcards.circuits.gates.trick.TrickTakingGate`, Eqs. 14-15), the win oracle and the
paper's hand codes. Each gate names its registers and has one classical action on game states,
written once from :class:`~qcards.skat.rules.cards.Rules`. What differs between constructions is
only
the *definition* of each gate: its synthesis. This is Qiskit's high-level synthesis pattern (a
gate states what it does; syntheses are plugins chosen by name), applied to the game's gates.

A :class:`Construction` is a frozen record: a name, one synthesis per concept, and what the
construction needs of the layout (a workspace of clean ancillas, for instance). The built-ins
are registered like a third party's, by entry points naming their records in
:mod:`qcards.circuits.syntheses.records` (their syntheses live in
:mod:`qcards.circuits.syntheses`, imported at the first synthesis):

``paper``
    the paper's constructions: state preparation for U_ini (Eq. 1) and products over
    configurations for CP and TT (Eqs. 12 and 15), exponential in the hand size; narrow at the
    paper's sizes (15 qubits for the four-card example).
``efficient`` (the default)
    Dicke-state deals and per-card predicates, polynomial, with clean ancillas in a workspace.
``hardware``
    for small endgames on today's devices: each stage synthesised for few two-qubit gates from
    the rules on the basis states the circuit reaches; the paper construction's registers.

Third parties add a construction without touching qcards: a package exposes a
:class:`Construction` record through the entry-point group ``qcards.constructions``, e.g. in
its ``pyproject.toml``::

    [project.entry-points."qcards.constructions"]
    probe = "probe_package:PROBE"

where ``PROBE = dataclasses.replace(get_construction("efficient"), name="probe")``. Then
``--construction probe`` works in every command. Only this module and the syntheses look at
which construction is which; everything else reads the record's fields.
"""

from __future__ import annotations

import importlib
import importlib.metadata
from collections.abc import Callable, Mapping
from dataclasses import dataclass, fields
from functools import cache
from typing import TYPE_CHECKING, Any, cast

from qcards.errors import ParameterError
from qcards.plugins import entry_points_by_name, load_record

if TYPE_CHECKING:  # fully qualified below: the documentation resolves them unambiguously
    import qiskit.circuit

    import qcards.circuits.gates.deal
    import qcards.circuits.gates.play
    import qcards.circuits.gates.trick
    import qcards.circuits.layout
    import qcards.skat.position.spec
    import qcards.skat.rules.cards

ENTRY_POINT_GROUP = "qcards.constructions"


@dataclass(frozen=True)
class Deferred:
    """A function named ``"package.module:attribute"``, imported at its first call.

    The built-in records name their syntheses this way (as entry points name the records), so
    that reading a record -- its name for ``--construction``, a circuit's width for a report --
    imports no Qiskit; the synthesis module is imported when a gate is first synthesised.
    Records compare equal when they name the same functions.
    """

    target: str

    def __call__(self, *args: Any) -> Any:
        module, _, attribute = self.target.partition(":")
        return getattr(importlib.import_module(module), attribute)(*args)


@dataclass(frozen=True, eq=False)
class Construction:
    """One way of synthesising every game gate.

    Attributes:
        name: what ``--construction`` and ``construction=`` call it.
        summary: one line for help texts.
        layout: the registers the syntheses need, ``layout(spec, paper_codes)``: the paper's,
            or with a workspace of clean ancillas.
        deal: synthesis of the deal: the state-preparation gate for a
            :class:`~qcards.circuits.gates.deal.GameDealGate`, applied to the owner registers
            and then as many of the workspace's ``held`` ancillas as it has further qubits.
        play: synthesis of a card play: the definition of a
            :class:`~qcards.circuits.gates.play.CardPlayGate` on the whole layout.
        trick: synthesis of a trick: the definition of a
            :class:`~qcards.circuits.gates.trick.TrickTakingGate` on the whole layout.
        plan: ``plan(layout, first)`` runs once per game before any gate is synthesised and
            its result is handed to every gate (``gate.plan``); None for syntheses that need
            nothing beyond the gate (the hardware construction follows the reached basis states
            from stage to stage here).
        tag: suffix of the gates' names (``cp<tag>_t1_p0``), so circuits show which synthesis
            they hold.
        keeps_paper_codes: can keep the paper's card codes in registers (Tables 4 and 6).
        grows_exponentially: the deal and card plays grow exponentially with the hand size;
            such circuits are counted by formula, not built, beyond the paper's sizes
            (:func:`formula_counts`).
        formula_counts: ``formula_counts(spec)`` gives (qubits, {stage kind: count}) without
            building the circuit, or None when the construction is always built.
        build_limit: the most cards per player ``qcards resources`` builds this construction
            for (beyond it, :attr:`formula_counts`); None: always built.
        register_sizes: ``register_sizes(spec, paper_codes)`` gives name -> size of every
            register :attr:`layout` builds, without building it (None from it, or no function:
            the width is read from the built layout); see :meth:`num_qubits`.
    """

    name: str
    summary: str
    layout: Callable[[qcards.skat.position.spec.Endgame, bool], qcards.circuits.layout.GameLayout]
    deal: Callable[[qcards.circuits.gates.deal.GameDealGate], qiskit.circuit.Gate]
    play: Callable[[qcards.circuits.gates.play.CardPlayGate], qiskit.circuit.QuantumCircuit]
    trick: Callable[[qcards.circuits.gates.trick.TrickTakingGate], qiskit.circuit.QuantumCircuit]
    plan: (
        Callable[[qcards.circuits.layout.GameLayout, qcards.skat.rules.cards.Card | None], Any]
        | None
    ) = None
    tag: str = ""
    keeps_paper_codes: bool = False
    grows_exponentially: bool = False
    formula_counts: Callable[[qcards.skat.position.spec.Endgame], tuple[int, dict]] | None = None
    build_limit: int | None = None
    register_sizes: (
        Callable[[qcards.skat.position.spec.Endgame, bool], Mapping[str, int] | None] | None
    ) = None

    def num_qubits(self, spec: qcards.skat.position.spec.Endgame, paper_codes: bool = False) -> int:
        """Width of the game circuit this construction builds for ``spec``: the sum of
        :attr:`register_sizes` where the record knows them (no circuit, no Qiskit), else the
        built layout's."""
        sizes = self.register_sizes(spec, paper_codes) if self.register_sizes else None
        if sizes is None:
            return self.layout(spec, paper_codes).num_qubits
        return sum(sizes.values())

    def __str__(self) -> str:
        return self.name

    def __eq__(self, other: object) -> bool:
        """Records are equal when all their fields are; a record also equals its name (as the
        job store and JSON outputs write it)."""
        if isinstance(other, str):
            return other == self.name
        if not isinstance(other, Construction):
            return NotImplemented
        return all(getattr(self, f.name) == getattr(other, f.name) for f in fields(self))

    def __hash__(self) -> int:
        return hash(self.name)

    @property
    def value(self) -> str:
        """The name (as the job store and JSON outputs write it)."""
        return self.name

    @classmethod
    def parse(cls, value: str | Construction, parameter: str = "construction") -> Construction:
        """The registered construction called ``value`` (a record is returned as it is)."""
        return get_construction(value, parameter)


BUILT_IN = ("paper", "efficient", "hardware")
"""The constructions qcards ships (:mod:`qcards.circuits.syntheses`), registered through the
same entry-point group as a third party's (see ``pyproject.toml``), listed first."""


@cache
def _entry_points() -> dict[str, importlib.metadata.EntryPoint]:
    """The entry points of ``qcards.constructions`` by name, imported by none (read once per
    process; a name two of them take raises :class:`~qcards.errors.PluginError`)."""
    return entry_points_by_name(ENTRY_POINT_GROUP)


@cache
def _load(name: str) -> Construction | None:
    """The record of the entry point called ``name`` (None when there is none). Loaded one name
    at a time, so a plugin may derive its record from a built-in while it loads."""
    entry = _entry_points().get(name)
    return None if entry is None else load_record(ENTRY_POINT_GROUP, entry, Construction)


@cache
def registry() -> dict[str, Construction]:
    """Every construction by name: the built-ins, then the other entry points of
    ``qcards.constructions`` by name (read once per process; a broken plugin, or a name taken
    twice, raises :class:`~qcards.errors.PluginError` naming it)."""
    names = set(_entry_points())
    missing = [name for name in BUILT_IN if name not in names]
    if missing:
        raise ParameterError(
            "construction",
            f"qcards' own constructions are not registered ({', '.join(missing)}): install "
            "the package (pip install -e .) rather than importing it from a source tree",
        )
    ordered = [*BUILT_IN, *sorted(names - set(BUILT_IN))]
    # every name is an entry point's, so each loads (or raises)
    return {name: cast(Construction, _load(name)) for name in ordered}


def reload_constructions() -> None:
    """Read the entry points again (after installing a plugin in a running interpreter)."""
    _entry_points.cache_clear()
    _load.cache_clear()
    registry.cache_clear()


def construction_names() -> tuple[str, ...]:
    """The registered constructions' names, for help texts and choices."""
    return tuple(registry())


def get_construction(name: str | Construction, parameter: str = "construction") -> Construction:
    """The construction called ``name``; an unknown name raises
    :class:`~qcards.errors.ParameterError` listing the registered ones."""
    if isinstance(name, Construction):
        return name
    found = _load(str(name)) if isinstance(name, str) and name else None
    if found is None:
        expected = " | ".join(construction_names())
        raise ParameterError(parameter, f"unknown {parameter} {name!r} (expected {expected})")
    return found


DEFAULT_CONSTRUCTION = "efficient"
"""The one library default: the polynomial construction, which scales to the full game. The
CLI's ``run`` and ``count`` default to :data:`NARROW_CONSTRUCTION` instead."""

NARROW_CONSTRUCTION = "paper"
"""The narrowest circuit at the paper's sizes (hardware, noisy emulation and the paper's
counting experiments): the CLI's ``run`` and ``count`` default."""

DEVICE_CONSTRUCTION = "hardware"
"""What ``run`` uses on device backends when the endgame is small enough for it."""
