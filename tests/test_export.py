"""The exported circuits in circuits/ are what the code builds (no drift), and they run."""

from __future__ import annotations

from pathlib import Path

import pytest
from qiskit import qasm3, qpy
from qiskit_aer import AerSimulator

from qcards.cli import main
from qcards.paper.examples import FOUR_CARD
from qcards.paper.export import exported_circuits
from qcards.skat.solvers.plain_referee import evaluate

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


def test_export_without_a_spec_writes_the_construction_asked(tmp_path, capsys):
    """``--construction`` without SPEC chooses among the paper examples' files (it was
    ignored: every construction was written)."""
    assert main(["export", "--construction", "hardware", "--out", str(tmp_path)]) == 0
    names = {p.name for p in tmp_path.iterdir()}
    assert names == {
        f"{e}-hardware.{x}" for e in ("four-card", "six-card") for x in ("qasm", "qpy")
    }


def test_export_help_describes_the_command_and_shows_a_spec_example(capsys):
    with pytest.raises(SystemExit):
        main(["export", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "OpenQASM 3" in text and "QPY" in text
    assert "example: qcards export qcards/specs/six-card.toml --first CA" in text


SPECS = Path(__file__).resolve().parents[1] / "qcards" / "specs"


def test_export_any_spec_with_a_first_card_and_a_format(tmp_path, capsys):
    """A spec's own circuit, the first card fixed: the QPY file holds the circuit qcards
    builds, and its samples decode to the referee's p_win for that card (2/3 for the ace)."""
    from qcards.circuits.game import build_game
    from qcards.paper.export import exported_circuit
    from qcards.skat.position.spec import load_spec
    from qcards.skat.rules.cards import Card

    spec_path = SPECS / "six-card.toml"
    argv = ["export", str(spec_path), "--first", "CA", "--out", str(tmp_path), "--format", "qpy"]
    assert main(argv) == 0
    assert [p.name for p in tmp_path.iterdir()] == ["six-card-CA-efficient.qpy"]
    spec = load_spec(spec_path)
    expected = exported_circuit(spec, Card.parse("CA"), "efficient", "six-card-CA-efficient")
    with (tmp_path / "six-card-CA-efficient.qpy").open("rb") as handle:
        (loaded,) = qpy.load(handle)
    assert loaded == expected.circuit
    game = build_game(spec, Card.parse("CA"), construction="efficient")
    shots = 3000
    simulator = AerSimulator(method="matrix_product_state", seed_simulator=5)  # 34 qubits
    counts = simulator.run(loaded, shots=shots).result().get_counts()
    last = game.stages[-1]
    wins = sum(
        n for key, n in counts.items() if game.layout.decode(int(key, 2), last).declarer_won(spec)
    )
    p = float(evaluate(spec, first=Card.parse("CA")).p_win)
    assert abs(wins / shots - p) < 5 * (p * (1 - p) / shots) ** 0.5


def test_export_qasm3_only_and_the_paper_construction(tmp_path, capsys):
    argv = ["export", str(SPECS / "four-card.toml"), "--construction", "paper"]
    assert main([*argv, "--format", "qasm3", "--out", str(tmp_path), "--json"]) == 0
    assert [p.name for p in tmp_path.iterdir()] == ["four-card-paper.qasm"]


@pytest.mark.parametrize(
    ("argv", "fragment"),
    [
        (["export", str(SPECS / "full-game.toml"), "--construction", "paper"], "--construction"),
        (["export", "--first", "CA"], "--first needs a SPEC"),
        (["export", str(SPECS / "six-card.toml"), "--first", "S7"], "first card S7"),
    ],
)
def test_export_refusals_are_one_line(tmp_path, capsys, argv, fragment):
    """The paper construction of the full game is refused before anything is built (1.76e13
    CX); a first card needs a spec and must be in the declarer's hand."""
    assert main([*argv, "--out", str(tmp_path)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("error: ") and fragment in err[0], err
    assert not list(tmp_path.iterdir())
