"""The choice of game: the same hands evaluated under every game type, best first.

Which game to declare is the question the paper's outlook leaves open ("payoffs that guide the
suit declaration"). :func:`declare` evaluates a spec's hands as each of the four suit games,
grand and null (null ouvert evaluates like null: the declarer's hand is known to the spec
anyway), by any method of :func:`~qcards.analysis.evaluate.evaluate`, and ranks them by the
declarer's win probability, then by the expected card points.

Each variant is the spec written back as TOML with another ``trump`` and read again, so it is
checked like any spec, and its prior is read under that game's rules (a void in spades is a void
in trumps when spades are trump; a prior that names ``trumps`` has no meaning in a null game,
and that variant is reported as refused). A point game keeps the spec's target (61 when the spec
is a null game, which has none).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from qcards.analysis.evaluate import EvaluationReport, evaluate
from qcards.analysis.scores import objective_value
from qcards.errors import QcardsError
from qcards.skat.deals.sample import fresh_seed
from qcards.skat.position.spec import Endgame, parse_spec
from qcards.skat.rules.cards import Trump
from qcards.skat.solvers.objectives import get_objective

GAME_TYPES = (Trump.CLUBS, Trump.SPADES, Trump.HEARTS, Trump.DIAMONDS, Trump.GRAND, Trump.NULL)
"""The games a declarer may announce (ISkO 5.1); null ouvert plays like null here."""


@dataclass(frozen=True)
class GameChoice:
    """One game type's evaluation, or why the hands cannot be played as that game."""

    game: Trump
    report: EvaluationReport | None
    refused: str | None = None

    def to_json(self) -> dict:
        if self.report is None:
            return {"game": self.game.value, "refused": self.refused}
        return {"game": self.game.value, **self.report.to_json()}


def as_game(spec: Endgame | str, game: Trump, source: str | None = None) -> Endgame:
    """The spec's hands, deal and prior as a ``game`` (checked as a new spec). ``spec`` may be
    a spec's TOML text, which need not be valid under its own game type."""
    text = spec if isinstance(spec, str) else spec.to_toml()
    source = source or getattr(spec, "source", "<spec>")
    text = re.sub(r'(?m)^\s*trump\s*=\s*".*"\s*$', f'trump = "{game.value}"', text)
    if game.is_null:
        text = re.sub(r"(?m)^\s*target\s*=.*\n", "", text)
        text = re.sub(r"(?m)^\s*matadors\s*=.*\n", "", text)  # a null game has none
    return parse_spec(text, source=f"{source} as {game.value}")


def _own_trump(spec: Endgame | str) -> str | None:
    """The kind of game a spec (or its text) declares."""
    if isinstance(spec, Endgame):
        return spec.trump.value
    found = re.search(r'(?m)^\s*trump\s*=\s*"(.*)"\s*$', spec)
    return found.group(1) if found else "spades"


def declare(
    spec: Endgame | str,
    games: tuple[Trump, ...] = GAME_TYPES,
    source: str | None = None,
    objective: str = "win",
    **options,
) -> list[GameChoice]:
    """Every game type's p_win and expected points for the spec's hands, best first.

    ``spec`` is a spec or a spec's TOML text (``source`` names it): text is read under each
    game type in turn, so a spec whose prior no deal satisfies under its own game type still
    ranks the others, and lists its own as refused. ``options`` go to
    :func:`~qcards.analysis.evaluate.evaluate` (``model``, ``method``, ``construction``,
    ...). Refused variants come last, with the reason. With ``shots`` every game type is
    sampled with one seed, so on the same deals (common random numbers).
    """
    if options.get("shots") is not None:
        options["seed"] = fresh_seed(options.get("seed"))
    out = []
    own = _own_trump(spec)
    for game in games:
        try:
            variant = as_game(spec, game, source)
        except QcardsError as exc:
            out.append(GameChoice(game, None, str(exc)))
            continue
        declared = variant.declaration
        if declared and declared.fixed is not None and game.value != own:
            # "with 2" in one game need not be "with 2" in another: the trumps differ
            reason = (
                f"the declaration's matadors are given for {own} only; give its cards (the "
                "declarer's ten at the first trick) to score other games"
            )
            out.append(GameChoice(game, None, reason))
            continue
        out.append(GameChoice(game, evaluate(variant, **options)))
    name = get_objective(objective).report

    def rank(c: GameChoice):
        report = c.report
        assert report is not None  # ranks the played games only (below)
        if name == "p_win":
            return (-report.p_win, -report.expected_points)
        return (-objective_value(report.scores, name), -report.p_win)

    played = sorted((c for c in out if c.report is not None), key=rank)
    return played + [c for c in out if c.report is None]
