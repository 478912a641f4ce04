"""qcards' rules against OpenSpiel's ``skat``, random complete games side by side
(``tests/openspiel_rules.py``; 100,000 games: ``benchmarks/crosscheck_openspiel.py``)."""

from __future__ import annotations

import pytest

from qcards.skat.rules.cards import Rules, Trump

from openspiel_rules import play_games

pytest.importorskip("pyspiel", reason="OpenSpiel is the optional extra qcards[openspiel]")


def assert_agree(count: int, seed: int) -> None:
    tally = play_games(count, seed)
    assert tally.finished > count // 2 and tally.turns > 20 * tally.finished
    assert not tally.differences, dict(tally.examples)


def test_rules_agree_with_openspiel():
    """1,000 games: legal cards at every turn, every trick's winner, the card points (and the
    null games' results) agree."""
    assert_agree(1000, 1)


@pytest.mark.slow
def test_rules_agree_with_openspiel_on_ten_thousand_games():
    assert_agree(10_000, 2)


def test_the_check_finds_wrong_rules():
    """The comparison can fail: qcards' rules with grands played as games without trumps
    (the jacks losing their rank) disagree with OpenSpiel on the legal cards, the tricks and
    the points."""

    def wrong(trump: Trump) -> Rules:
        return Rules(Trump.NONE if trump is Trump.GRAND else trump)

    tally = play_games(300, 3, wrong)
    assert tally.differences["trick winner"] > 0
    assert any(kind.startswith(("other", "a jack")) for kind in tally.differences)
