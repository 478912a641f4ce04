"""The rule options of a game: board size, komi and the variants of the paper's conclusion.

Variants (any combination, except triplets with the symmetric variant; White's single stones
in the semi-quantum variant are not bound by symmetry):

- ``weak``: a stone also *touches* the stones diagonally next to it, for starting a collapse,
  for which entangled groups collapse and for the "keep a stone touching a just-collapsed
  stone" duty. Liberties and captures stay orthogonal, as in Go.
- ``symmetric``: the two stones of a pair sit on points symmetric about the centre of the board.
  When the mirror point of the chosen point is occupied (or is the point itself, the centre of
  an odd board), the player places a single, ordinary stone instead.
- ``semi-quantum``: only Black places entangled pairs; White places single ordinary stones.
- ``triplets-ghz`` / ``triplets-w``: a player may place three entangled stones instead of two.
  A GHZ-type triplet collapses straight to one stone; a W-type triplet collapses to an
  entangled pair (its owner removes one stone), which collapses to one stone at a later touch.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from qcards.games.qgo.board import Point, check_size, diagonals, neighbours
from qcards.games.qgo.errors import QgoError

TRIPLET_KINDS = ("ghz", "w")
VARIANTS = ("weak", "symmetric", "semi-quantum", "triplets-ghz", "triplets-w")


@dataclass(frozen=True)
class Rules:
    """Everything that fixes the game besides the moves.

    Attributes:
        size: lines of the (square) board, 2 to 25; 19 by default.
        komi: points added to White's area at the end.
        weak: diagonal contact counts as touching (Weak Quantum Go).
        symmetric: pairs are point-symmetric about the centre (Symmetric Quantum Go).
        semi_quantum: White plays single stones (Semi-Quantum Go).
        triplets: ``"ghz"`` or ``"w"`` to allow entangled triplets of that type, else ``None``.
    """

    size: int = 19
    komi: float = 0.0
    weak: bool = False
    symmetric: bool = False
    semi_quantum: bool = False
    triplets: str | None = None

    def __post_init__(self) -> None:
        try:
            check_size(self.size)
        except ValueError as exc:
            raise QgoError(str(exc)) from None
        if not math.isfinite(self.komi):  # a NaN or infinite komi scores nothing
            raise QgoError(f"komi must be a finite number, not {self.komi}")
        if self.triplets is not None and self.triplets not in TRIPLET_KINDS:
            raise QgoError(f"triplets must be one of {', '.join(TRIPLET_KINDS)}")
        if self.triplets and self.symmetric:
            raise QgoError("entangled triplets cannot be point-symmetric: pick one variant")

    @classmethod
    def from_variants(cls, size: int, komi: float, variants: list[str] | tuple[str, ...]) -> Rules:
        """Rules from variant names (see :data:`VARIANTS`); an unknown name is a QgoError."""
        unknown = [v for v in variants if v not in VARIANTS]
        if unknown:
            raise QgoError(f"unknown variant {unknown[0]!r} (known: {', '.join(VARIANTS)})")
        kinds = [v.removeprefix("triplets-") for v in variants if v.startswith("triplets-")]
        if len(set(kinds)) > 1:
            raise QgoError("choose one kind of triplets")
        return cls(
            size=size,
            komi=komi,
            weak="weak" in variants,
            symmetric="symmetric" in variants,
            semi_quantum="semi-quantum" in variants,
            triplets=kinds[0] if kinds else None,
        )

    @property
    def variants(self) -> tuple[str, ...]:
        """The names of the variants in force, in the order of :data:`VARIANTS`."""
        on = {
            "weak": self.weak,
            "symmetric": self.symmetric,
            "semi-quantum": self.semi_quantum,
            "triplets-ghz": self.triplets == "ghz",
            "triplets-w": self.triplets == "w",
        }
        return tuple(name for name in VARIANTS if on[name])

    def touching(self, point: Point) -> list[Point]:
        """The points whose stones a stone at ``point`` touches (diagonals too when weak)."""
        near = neighbours(point, self.size)
        return near + diagonals(point, self.size) if self.weak else near
