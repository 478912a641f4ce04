"""The paper's two worked examples as specs, with the figures it prints for comparison.

Source: Armbrüster, Edelkamp, Maresch, Schulze, "Imperfect-Information Games on Quantum
Computers: A Case Study in Skat", arXiv:2411.15294v2, Sec. VII. The printed numbers below are
the paper's; qcards never uses them to compute anything, only to compare.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from importlib import resources

from qcards.skat.position.spec import Endgame, parse_spec
from qcards.skat.position.stages import Stage
from qcards.skat.rules.cards import Card


@dataclass(frozen=True)
class PaperFigure:
    """A histogram of the paper: which stage of which game it shows and what the text says."""

    figure: int
    description: str
    stage: Stage
    first: Card | None
    printed_outcomes: int | None
    explanation: str | None = None
    """Why a correct evaluation of the model differs, shown only if it does differ."""


@dataclass(frozen=True)
class PaperExample:
    key: str
    section: str
    spec_file: str
    figures: tuple[PaperFigure, ...]
    printed_p_win: dict[Card | None, Fraction] = field(default_factory=dict)
    explanations: dict[Card | None, str] = field(default_factory=dict)

    def spec(self) -> Endgame:
        text = resources.files("qcards.specs").joinpath(self.spec_file).read_text("utf-8")
        return parse_spec(text, source=f"qcards/specs/{self.spec_file}")

    @property
    def firsts(self) -> tuple[Card | None, ...]:
        return tuple(self.printed_p_win)


CA, CK = Card("C", "A"), Card("C", "K")

FOUR_CARD = PaperExample(
    key="four-card",
    section="Sec. VII.1",
    spec_file="four-card.toml",
    figures=(
        PaperFigure(4, "initial superposition of the deals", Stage("deal"), None, 6),
        PaperFigure(5, "A has played a card", Stage("play", 1, 0), None, 12),
        PaperFigure(6, "B has played a card", Stage("play", 1, 1), None, 24),
        PaperFigure(7, "first trick taken", Stage("trick", 1), None, 24),
        PaperFigure(8, "second trick taken", Stage("trick", 2), None, 8),
    ),
    printed_p_win={None: Fraction(5, 12)},
)

SIX_CARD = PaperExample(
    key="six-card",
    section="Sec. VII.2",
    spec_file="six-card.toml",
    figures=(
        PaperFigure(9, "initial superposition of the deals", Stage("deal"), CA, 6),
        PaperFigure(10, "A has played the ace of clubs", Stage("play", 1, 0), CA, 6),
        PaperFigure(
            11,
            "first trick on the table (ace led)",
            Stage("play", 1, 2),
            CA,
            8,
            explanation=(
                "in all 6 deals the defender without H10 holds two clubs and may play either, "
                "so 6 x 2 = 12; the paper's 8 leaves out the 2 deals in which C10 and H10 "
                "share a hand"
            ),
        ),
        PaperFigure(12, "first trick in A's stack (ace led)", Stage("trick", 1), CA, None),
        PaperFigure(13, "second trick taken (ace led)", Stage("trick", 2), CA, 2),
        PaperFigure(
            14,
            "second trick taken (king led)",
            Stage("trick", 2),
            CK,
            3,
            explanation=(
                "when C10 falls on the king the defenders' first trick holds C9 or C8 "
                "(1/6 each), two different final states; the paper counts them as one"
            ),
        ),
    ),
    printed_p_win={CA: Fraction(1, 3), CK: Fraction(2, 3)},
    explanations={
        CA: (
            "1/3 is the double-dummy value (the defender with a choice keeps C10 back); "
            "with uniformly random play, the paper's own superposition, C10 falls under the "
            "ace in 2/3 of the weight"
        ),
    },
)

EXAMPLES = {e.key: e for e in (FOUR_CARD, SIX_CARD)}
