"""Exact probabilities of a game circuit's registers after each stage.

The target decides how (:mod:`qcards.execution.targets`): Aer's statevector or MPS simulator
saves the probabilities of every stage in one run; DDSIM reads them from its decision diagram,
one run per stage.
"""

from __future__ import annotations

from collections.abc import Sequence

from qiskit.circuit import Qubit

from qcards.circuits.game import GameCircuit
from qcards.errors import ParameterError
from qcards.execution import aer
from qcards.execution.extras import require
from qcards.execution.targets import EXACT_TARGETS, parse_target
from qcards.skat.stages import Stage

_AER_METHOD = {"statevector": "statevector", "mps": "matrix_product_state"}


def exact_stage_probabilities(
    game: GameCircuit,
    stages: Sequence[Stage] | None = None,
    qubits: Sequence[Qubit] | None = None,
    method: str = "statevector",
) -> dict[Stage, dict[int, float]]:
    """Exact probabilities of ``qubits`` after each stage, from one simulator run.

    Args:
        game: the game circuit.
        stages: stages to report (default: all).
        qubits: the qubits whose joint distribution is reported (default: every register but
            the flag, :attr:`GameLayout.measured`); outcome bit i is ``qubits[i]``.
        method: an exact target: ``statevector`` (dense, exact to rounding), ``mps`` (Aer's
            matrix product state simulator: exact up to SVD rounding, about 1e-11 here, for
            wide circuits) or ``ddsim`` (decision diagrams,
            :func:`~qcards.execution.ddsim.dd_probabilities`; one run per stage).
    """
    target = parse_target(method, "method")
    if target.exact_method is None:
        raise ParameterError(
            "method",
            f"method {method!r} samples; an exact method is one of {' | '.join(EXACT_TARGETS)}",
        )
    target.check_capacity(game.num_qubits)
    wanted = list(stages or game.stages)
    qubits = list(qubits or game.layout.measured)
    if target.exact_method == "ddsim":
        require("ddsim", "the ddsim method")
        from qcards.execution.ddsim import dd_probabilities

        return {stage: dd_probabilities(game.upto(stage), qubits) for stage in wanted}
    qc = game.layout.circuit("game_snapshots")
    done = 0
    for stage, length in zip(game.stages, game.prefix_lengths, strict=True):
        for instruction in game.circuit.data[done:length]:
            qc.append(instruction)
        done = length
        if stage in wanted:
            qc.save_probabilities_dict(qubits, label=stage.name)
    data = aer.run_once(aer.simulator(_AER_METHOD[target.exact_method]), qc).data(0)
    out = {}
    for stage in wanted:
        out[stage] = {_outcome(k): float(v) for k, v in data[stage.name].items()}
    return out


def _outcome(key: str | int) -> int:
    return int(key, 16) if isinstance(key, str) else int(key)
