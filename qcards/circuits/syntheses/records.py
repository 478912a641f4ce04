"""The built-in construction records (the entry points of ``qcards.constructions``).

Each record names its syntheses with :class:`~qcards.circuits.construction.Deferred` (the
modules :mod:`~qcards.circuits.syntheses.paper`, :mod:`~qcards.circuits.syntheses.efficient`
and :mod:`~qcards.circuits.syntheses.hardware` hold them) and tables its registers with
:mod:`qcards.circuits.register_sizes`, so the records load, list and report a circuit's width
without importing Qiskit (``qcards evaluate --method classical`` starts in about a second).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from qcards.circuits.construction import Construction, Deferred
from qcards.circuits.deal_plan import multinomial_ancillas
from qcards.circuits.register_sizes import (
    deal_sizes,
    history_registers,
    owner_width,
    workspace_registers,
)
from qcards.skat.position.spec import Endgame

_PAPER = "qcards.circuits.syntheses.paper"
_EFFICIENT = "qcards.circuits.syntheses.efficient"
_HARDWARE = "qcards.circuits.syntheses.hardware"


def efficient_registers(spec: Endgame, paper_codes: bool) -> Mapping[str, int] | None:
    """The efficient construction's registers: the paper's and a workspace wide enough for
    the multinomial deal's ancillas. None for a weighted prior: its deal's ancillas come from
    a plan priced with Qiskit's MCX synthesis (the layout is built to read them)."""
    width = owner_width(spec)
    if width and not spec.prior.is_uniform:
        return None
    ancillas = multinomial_ancillas(deal_sizes(spec), width)
    return {**history_registers(spec, paper_codes), **workspace_registers(spec, ancillas)}


def _syntheses(module: str, **functions: str) -> dict[str, Any]:
    """Record fields naming functions of ``module``: ``field=function name``."""
    return {field: Deferred(f"{module}:{name}") for field, name in functions.items()}


PAPER_BUILD_LIMIT = 2
"""Largest N (cards per player) for which ``qcards resources`` builds the paper construction
(N = 3 already needs a dense state preparation on 32 qubits)."""

PAPER = Construction(
    name="paper",
    summary="the paper's, exponential",
    **_syntheses(_PAPER, layout="layout", deal="deal", play="card_play", trick="trick_taking"),
    keeps_paper_codes=True,
    grows_exponentially=True,
    formula_counts=Deferred("qcards.circuits.syntheses.paper_counts:paper_formula"),
    build_limit=PAPER_BUILD_LIMIT,
    register_sizes=history_registers,
)

EFFICIENT = Construction(
    name="efficient",
    summary="polynomial",
    **_syntheses(_EFFICIENT, layout="layout", deal="deal", play="legal_play", trick="trick_winner"),
    tag="_poly",
    register_sizes=efficient_registers,
)

HARDWARE = Construction(
    name="hardware",
    summary="small endgames, fewest two-qubit gates",
    layout=Deferred(f"{_PAPER}:layout"),  # the paper construction's registers
    **_syntheses(_HARDWARE, deal="deal", play="card_play", trick="trick_taking", plan="plan"),
    tag="_hw",
    # its deal is a dense state preparation over the reached deals and its plan follows every
    # reached basis state: exponential in the hand size (built only for small endgames)
    grows_exponentially=True,
    register_sizes=history_registers,
)
