"""Work estimated before it starts (issue 21): specs whose play paths would take longer than the
time budget are refused in one error line naming the estimate and what fits, unless forced."""

from __future__ import annotations

import json

import pytest

from qcards.analysis.evaluate import evaluate_spec
from qcards.cli import main
from qcards.errors import ResourceError
from qcards.execution.budget import PATHS_PER_SECOND, TIME_BUDGET, check_work
from qcards.skat.spec import parse_spec

DECK = [s + r for s in "CSHD" for r in ("7", "8", "9", "10", "J", "Q", "K", "A")]


def spec_text(players, hands, unknown, sizes) -> str:
    text = f'players = {json.dumps(players)}\ntrump = "hearts"\ndeclarer_points = 0\n'
    text += "target = 61\n[hands]\n"
    text += "".join(f"{p} = {json.dumps(h)}\n" for p, h in hands.items())
    text += f"[unknown]\ncards = {json.dumps(unknown)}\n"
    return text + "sizes = { " + ", ".join(f"{k} = {v}" for k, v in sizes.items()) + " }\n"


HUGE = {
    # the three: the full game, 30 unknown cards, two players with 16 cards each
    "full-game": spec_text(
        ["A", "B", "C"], {"A": DECK[:10]}, DECK[10:], {"B": 10, "C": 10, "skat": 2}
    ),
    "thirty-unknown": spec_text(
        ["A", "B", "C"], {"A": DECK[:2]}, DECK[2:], {"A": 8, "B": 10, "C": 10, "skat": 2}
    ),
    "two-by-sixteen": spec_text(["A", "B"], {"A": DECK[:16]}, DECK[16:], {"B": 16}),
}


@pytest.mark.parametrize("name", sorted(HUGE))
@pytest.mark.parametrize("command", ["evaluate", "recommend", "count"])
def test_huge_specs_are_refused_in_one_line(tmp_path, capsys, name, command):
    path = tmp_path / f"{name}.toml"
    path.write_text(HUGE[name])
    extra = ["--method", "classical"] if command == "evaluate" else []
    assert main([command, str(path), *extra]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("error: ")
    assert "play paths" in err[0] and "--force" in err[0]
    assert f"{TIME_BUDGET * PATHS_PER_SECOND:,.0f} fit in" in err[0]


def test_the_library_refuses_before_any_work_and_force_lets_it_through():
    spec = parse_spec(HUGE["full-game"], "full.toml")
    with pytest.raises(ResourceError, match="play paths") as refused:
        evaluate_spec(spec, method="classical")
    assert refused.value.parameters == ("force",)
    assert check_work(spec, force=True) > TIME_BUDGET  # estimated, not refused


def test_small_specs_pass_and_force_changes_nothing(capsys):
    argv = ["evaluate", "qcards/specs/six-card.toml", "--first", "CA", "--json"]
    assert main(argv) == 0
    plain = json.loads(capsys.readouterr().out)
    assert main([*argv, "--force"]) == 0
    assert json.loads(capsys.readouterr().out) == plain
