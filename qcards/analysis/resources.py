"""Resource counts of the game circuits: qubits, CX count and depth, paper vs efficient.

Counts are for the unrouted circuit lowered to the basis {cx, u} by Qiskit's transpiler
(optimization level 0, so nothing is cancelled that the construction did not cancel itself).

The endgame of ``N`` cards per player (:func:`resource_spec`) is three players with ``N`` cards
each and two cards in the skat, the declarer's hand known: ``N = 10`` is the real game, with 22
unknown cards. Circuits of the efficient construction are built and counted at every N. The
paper's construction grows exponentially (the deal is a dense state preparation on all owner
qubits, card play a product over all hands, Eq. 12), so beyond
:data:`~qcards.circuits.syntheses.records.PAPER_BUILD_LIMIT` it is
counted from its exact term structure (:func:`paper_play_terms`) and calibrated per-term gate
costs, validated against built circuits at small N (tests); each stage says which it is.
"""

from __future__ import annotations

import tomllib
from collections import Counter
from dataclasses import dataclass

from qcards.circuits.construction import Construction, get_construction
from qcards.circuits.game import build_game
from qcards.circuits.lowering import depth, lower
from qcards.circuits.syntheses.paper_counts import Count
from qcards.errors import ParameterError, ResourceError, SpecError
from qcards.skat.position.spec import Endgame, spec_from_dict
from qcards.skat.rules.cards import RANKS, SUITS, Card

STAGE_KINDS = ("deal", "play", "trick")


@dataclass(frozen=True)
class ResourceReport:
    """What ``qcards resources`` reports for one construction and N."""

    construction: str
    cards_per_player: int
    num_qubits: int
    stages: dict[str, Count]
    model: str = "random"

    def to_json(self) -> dict:
        """The report as JSON; ``model`` only for weighted card plays (random play's records,
        the gallery's among them, keep their form)."""
        out = {
            "construction": self.construction,
            "cards_per_player": self.cards_per_player,
            "num_qubits": self.num_qubits,
            "stages": {name: count.to_json() for name, count in self.stages.items()},
        }
        if self.model != "random":
            out["model"] = self.model
        return out


# ----------------------------------------------------------------------------- the endgame


def resource_spec(cards_per_player: int, skat: bool = True) -> Endgame:
    """Three players with N cards each and (by default) two in the skat; A's hand is known.

    The 3N (+ 2) cards are the first ones of the deck taken rank by rank (all jacks, then all
    aces, ...), so every suit is present at every N; the declarer holds every third of them.
    Clubs are trump, the declarer leads, the trick winner leads the next trick.
    """
    n = cards_per_player
    if not isinstance(n, int) or not 1 <= n <= 10:
        raise ResourceError(f"cards per player must be in 1..10, got {n!r}")
    deck = [Card(s, r) for r in ("J", *[r for r in RANKS if r != "J"]) for s in SUITS]
    cards = deck[: 3 * n + (2 if skat else 0)]
    declarer = cards[0::3][:n]
    unknown = [c for c in cards if c not in declarer]
    sizes = {"B": n, "C": n, **({"skat": 2} if skat else {})}
    return spec_from_dict(
        {
            "players": ["A", "B", "C"],
            "trump": "clubs",
            "leader": "A",
            "winner_leads": True,
            "declarer_points": 0,
            "target": 61,
            "hands": {"A": [str(c) for c in declarer]},
            "unknown": {"cards": [str(c) for c in unknown], "sizes": sizes},
        },
        source=f"{n} cards per player{' and the skat' if skat else ''}",
    )


def with_prior_text(spec: Endgame, prior: str, source: str) -> Endgame:
    """``spec`` with the ``[prior]`` table of the TOML text ``prior`` (checked like a spec's)."""
    try:
        table = tomllib.loads(prior)
    except tomllib.TOMLDecodeError as exc:
        raise SpecError(f"{source}: TOML syntax error: {exc}") from None
    extra = sorted(set(table) - {"prior"})
    if extra or "prior" not in table:
        raise SpecError(f"{source}: field '{(extra or ['prior'])[0]}': expected one [prior] table")
    data = tomllib.loads(spec.to_toml())
    data["prior"] = table["prior"]
    return spec_from_dict(data, source=source)


# ----------------------------------------------------------------------------- built circuits


def _built(
    construction: Construction, spec: Endgame, model: str = "random"
) -> tuple[int, dict[str, Count]]:
    game = build_game(spec, construction=construction, model=model)
    weighted = next(
        (i.operation.weighted for i in game.circuit.data if getattr(i.operation, "weighted", None)),
        None,
    )
    if weighted is not None:  # built here, so that a refusal is not wrapped by the transpiler
        try:
            weighted.plays()
        except ParameterError as exc:
            raise ResourceError(f"policy-weighted card plays: {exc}") from None
    layout = game.layout
    kinds = ["deal"] * (len(game.circuit.data) - len(game.stages) + 1)
    kinds += ["play" if s.kind == "play" else "trick" for s in game.stages[1:]]
    totals: dict[str, Counter[str]] = {kind: Counter() for kind in STAGE_KINDS}
    whole = layout.circuit("lowered")
    for kind, instruction in zip(kinds, game.circuit.data, strict=True):
        piece = layout.circuit(instruction.operation.name)
        piece.append(instruction)
        lowered = lower(piece)
        totals[kind]["cx"] += lowered.count_ops().get("cx", 0)
        totals[kind]["depth"] += depth(lowered)
        whole.compose(lowered, inplace=True)
    stages = {k: Count(v["cx"], v["depth"], "built") for k, v in totals.items()}
    stages["game"] = Count(sum(v["cx"] for v in totals.values()), depth(whole), "built")
    return game.num_qubits, stages


# ----------------------------------------------------------------------------- entry point


def count_resources(
    cards_per_player: int,
    construction: Construction | str = "efficient",
    use_formula: bool | None = None,
    prior: str | None = None,
    prior_source: str = "<prior>",
    model: str = "random",
) -> ResourceReport:
    """Qubits, CX count and depth of the whole game for N cards per player.

    Args:
        cards_per_player: N in 1..10 (:func:`resource_spec`).
        construction: a registered construction (:mod:`qcards.circuits.construction`) or its
            name.
        use_formula: count from the construction's formula (default: beyond its
            ``build_limit``); constructions without a formula are always built.
        prior: TOML text of a ``[prior]`` table (:mod:`qcards.skat.position.prior`) for the
            endgame's
            deal: the deal is then the construction's weighted deal. Problems are
            :class:`~qcards.errors.SpecError` naming ``prior_source`` and the field.
        model: the play model the card plays prepare: ``random`` (Eq. 9), or a policy
            model's weighted card plays, built from the basis states the circuit reaches
            (:class:`~qcards.circuits.syntheses.hardware.WeightedPlays`; small N only, never
            by formula).
    """
    try:
        construction = get_construction(construction)
    except ParameterError as exc:
        raise ResourceError(str(exc)) from None
    spec = resource_spec(cards_per_player)
    if prior is not None:
        if construction.grows_exponentially:
            raise ResourceError(
                f"a weighted deal is not counted for the {construction} construction (its "
                "dense state preparation has the same gates for any amplitudes)"
            )
        spec = with_prior_text(spec, prior, prior_source)
    formula = construction.formula_counts
    if use_formula is None:
        limit = construction.build_limit
        use_formula = formula is not None and limit is not None and cards_per_player > limit
    if model != "random" and use_formula:
        raise ResourceError(
            f"policy-weighted card plays are built from the basis states the circuit reaches, "
            f"never counted by formula: {cards_per_player} cards per player is past the "
            f"{construction} construction's build limit ({construction.build_limit})"
        )
    if use_formula and formula is not None:
        qubits, stages = formula(spec)
    else:
        qubits, stages = _built(construction, spec, model)
    return ResourceReport(construction.name, cards_per_player, qubits, stages, model)


def declared_resource_spec(cards_per_player: int) -> Endgame:
    """:func:`resource_spec` declared as a clubs Hand game at bid 18, the Skat unknown: the
    matadors vary with the deal, so the payoff oracle reads the Skat (its widest case)."""
    from dataclasses import replace

    from qcards.skat.position.declaration import SpecDeclaration
    from qcards.skat.rules.scoring import Declaration

    spec = resource_spec(cards_per_player)
    declared = SpecDeclaration(
        Declaration.make("clubs", True, (), 18), cards=spec.hands[spec.declarer], skat_unknown=True
    )
    return replace(spec, declaration=declared)


def payoff_resources(
    cards_per_player: int, objective: str, construction: Construction | str = "efficient"
) -> Count:
    """CX count and depth of the payoff oracle after the game (the outcome registers and the
    payoff rotation) for N cards per player (:func:`declared_resource_spec`)."""
    from qcards.circuits.payoff import build_payoff_circuit

    payoff = build_payoff_circuit(
        declared_resource_spec(cards_per_player), objective, construction=construction
    )
    game_ops = len(payoff.game.circuit.data)
    piece = payoff.circuit.copy_empty_like()
    for instruction in payoff.circuit.data[game_ops:]:
        piece.append(instruction)
    lowered = lower(piece)
    return Count(lowered.count_ops().get("cx", 0), depth(lowered), "built")
