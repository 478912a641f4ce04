"""The exported circuits in circuits/ are what the code builds (no drift), and they run."""

from __future__ import annotations

from pathlib import Path

import pytest
from qiskit import qasm3, qpy
from qiskit_aer import AerSimulator

from qcards.cli import main
from qcards.paper.examples import FOUR_CARD
from qcards.paper.export import exported_circuits
from qcards.skat.referee import evaluate

REPO_CIRCUITS = Path(__file__).resolve().parents[1] / "circuits"


@pytest.fixture(scope="module")
def built():
    return {item.name: item.circuit for item in exported_circuits()}


def test_repository_files_match_the_code(built):
    for name, circuit in built.items():
        text = (REPO_CIRCUITS / f"{name}.qasm").read_text(encoding="utf-8")
        assert text == qasm3.dumps(circuit) + "\n", f"{name}.qasm drifted: run qcards export"
        with (REPO_CIRCUITS / f"{name}.qpy").open("rb") as handle:
            (loaded,) = qpy.load(handle)
        assert loaded == circuit, f"{name}.qpy drifted: run qcards export"


def test_exported_four_card_circuit_samples_the_referee(built):
    """Run the exported (lowered, measured) four-card circuit and decode its outcomes."""
    from qcards.circuits.game import build_game

    circuit = built["four-card-paper"]
    game = build_game(FOUR_CARD.spec(), construction="paper")
    shots = 4000
    counts = AerSimulator(seed_simulator=3).run(circuit, shots=shots).result().get_counts()
    last = game.stages[-1]
    spec = game.spec
    wins = sum(
        n for key, n in counts.items() if game.layout.decode(int(key, 2), last).declarer_won(spec)
    )
    p = float(evaluate(spec).p_win)
    sigma = (p * (1 - p) / shots) ** 0.5
    assert abs(wins / shots - p) < 5 * sigma


def test_export_command_writes_every_file(tmp_path, capsys):
    assert main(["export", "--out", str(tmp_path)]) == 0
    names = {p.name for p in tmp_path.iterdir()}
    constructions = ("paper", "efficient", "hardware")
    stems = [f"{e}-{c}" for e in ("four-card", "six-card") for c in constructions]
    assert names == {f"{stem}.{ext}" for stem in stems for ext in ("qasm", "qpy")}
