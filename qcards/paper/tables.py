"""The paper's tables and estimates recomputed from first principles, beside its printed numbers.

Source: Armbrüster, Edelkamp, Maresch, Schulze, arXiv:2411.15294v2: Table 8 (deals and time of
reduced games with 3x + 2 cards), Table 9 (the same with the declarer's hand known), Eqs. 32,
34, 35, 37, 38, 39 and the estimates of Sec. IX (CX counts, shots, 40 ns per gate, years).

Every ``computed`` value comes from a model of the quantity's definition: deals are counted by
the referee (:func:`qcards.skat.deals.count.num_deals`, a multinomial over the receivers' sizes) on
the reduced game of :func:`qcards.analysis.resources.resource_spec`, play paths from the number
of cards each player holds at each turn, CX counts of circuits from
:mod:`qcards.analysis.resources`. The paper's printed values are data only, in
:mod:`qcards.paper.printed`; nothing is computed from them, except where a row says so (a step
check such as "the paper's 10^16 CX at 40 ns").

Where a number rests on something the paper measured or assumed rather than derived, that
assumption is a named input below (:data:`SECONDS_PER_GAME`, :data:`MU_SUIT`, ...).
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass
from fractions import Fraction
from functools import cache
from typing import cast

from qcards.analysis.resources import resource_spec
from qcards.circuits.syntheses.paper_counts import (
    paper_deal_count,
    paper_play_count,
    paper_trick_count,
)
from qcards.paper.printed import (
    PRINTED,
    TABLE8_PRINTED,
    TABLE9_PRINTED,
    Printed,
    agrees,
    explain,
    truncate,
)
from qcards.skat.deals.count import num_deals
from qcards.skat.position.spec import Endgame, spec_from_dict

# ----------------------------------------------------------------------------- named inputs

FULL_HAND = 10
"""Cards per player in the real game (32 = 3 x 10 + 2)."""
PLAYERS = 3
SKAT_CARDS = 2

SECONDS_PER_GAME = Fraction(1, 10)
"""Tables 8 and 9 ("Time/Game"): the paper assumes 0.1 s of classical analysis per deal, a
figure from its own engine (Sec. VIII: about 1 s per player and game, hoped to shrink to 0.1 s).
For fewer cards it prints "< 0.1 sec"; the totals are then bounds at 0.1 s."""

SECONDS_PER = {
    "sec": 1,
    "min": 60,
    "hours": 3600,
    "days": 24 * 3600,
    "years": 365 * 24 * 3600,
}
"""The paper's units: a year is 365 days ("dividing this number by (3600 x 24 x 365)")."""

MU_SUIT = Fraction("2.844")
"""Eq. 36: the mean branching factor of suit games, measured by the paper on 1000 human games
with its Skat engine. Not recomputable here; an input of Eqs. 37 and 39."""

SHOTS = 1000
"""Sec. IX.0.5: shots of the whole circuit."""

SECONDS_PER_CX = Fraction(40, 10**9)
"""Sec. IX.0.5: about 40 ns per two-qubit gate on a superconducting QPU (its ref. [1]), every
CX one after the other (no parallel gates)."""

CX_PER_MCX_CONTROL = 12
"""Sec. IX.0.3 and IX.0.4: an MCX gate with k controls is assumed to cost 12 k CX."""
PLAYABLE_PER_CARD = Fraction(1, 4)
"""Sec. IX.0.3: on average N/4 playable cards (suit following) for N cards in hand."""
TRICK_TAKING_CX = 3
"""Sec. IX.0.4: the trick-taking operation itself (besides its MCX)."""

PAPER_DEAL_CX = 10**12
"""Sec. IX.0.1 / Fig. 15: the paper's deal (U_ini) for 2N = 20, extrapolated from N = 1, 2, 3
with the Boolean method of Mozafari et al. Neither that method nor Fig. 15's data is available
here, so the row "total from the paper's components" takes it as an input."""


# ----------------------------------------------------------------------------- rows


@dataclass(frozen=True)
class Row:
    quantity: str
    paper: int | float
    computed: int | float
    agrees: bool
    note: str

    def to_json(self) -> dict:
        """``{"quantity", "paper", "computed", "agrees", "note"}``, in that order."""
        return asdict(self)


def _row(
    quantity: str, printed: Printed, computed: int | Fraction, note: str, why: str = ""
) -> Row:
    ok = agrees(printed, computed)
    if not ok:
        note += "; DIFFERS: " + (why or explain(printed, computed))
    shown = computed if isinstance(computed, int) else float(computed)
    return Row(quantity, printed.value, shown, ok, note)


# ----------------------------------------------------------------------------- deals


def reduced_game(cards_per_player: int, declarer_known: bool) -> Endgame:
    """The reduced game of Tables 8 and 9: 3x + 2 cards, x per player and two in the skat.

    With ``declarer_known`` this is :func:`qcards.analysis.resources.resource_spec` (Table 9);
    without, the declarer's x cards are dealt too (Table 8). Only the sizes matter for the counts.
    """
    spec = resource_spec(cards_per_player)
    if declarer_known:
        return spec
    x = cards_per_player
    cards = [*spec.hands[spec.declarer], *spec.unknown]
    return spec_from_dict(
        {
            "players": list(spec.players),
            "trump": "clubs",
            "target": 61,
            "hands": {},
            "unknown": {
                "cards": [str(c) for c in cards],
                "sizes": {**{p: x for p in spec.players}, "skat": SKAT_CARDS},
            },
        },
        source=f"{x} cards per player, all dealt",
    )


def deals(cards_per_player: int, declarer_known: bool) -> int:
    """Table 8: (3x+2)! / (x!^3 2!) deals; Table 9 (declarer known): C(2x+2, x) C(x+2, x).

    Counted by the referee on :func:`reduced_game`. Eq. 32 is Table 9 at x = 10.
    """
    return num_deals(reduced_game(cards_per_player, declarer_known))


def time_in(deal_count: int, unit: str) -> Fraction:
    """Deals x :data:`SECONDS_PER_GAME`, in the paper's ``unit`` (Tables 8 and 9, "Total")."""
    return deal_count * SECONDS_PER_GAME / SECONDS_PER[unit]


# ----------------------------------------------------------------------------- paths


def unrestricted_paths(cards_per_player: int = FULL_HAND, players: int = PLAYERS) -> int:
    """Eqs. 33-34: play paths of one deal if every held card could be played at every turn.

    At trick t each player chooses among the x - t + 1 cards it still holds:
    prod_t (x - t + 1)^players = (x!)^players.
    """
    paths = 1
    for trick in range(1, cards_per_player + 1):
        paths *= (cards_per_player - trick + 1) ** players
    return paths


def applications_max(cards_per_player: int = FULL_HAND) -> int:
    """Eq. 38: evaluations of the algorithm for one game if the declarer evaluates every card
    in hand at each of its turns: x + (x - 1) + ... + 1."""
    return sum(cards_per_player - trick + 1 for trick in range(1, cards_per_player + 1))


# ----------------------------------------------------------------------------- Sec. IX model


def paper_model_play_cx(hand: int) -> int:
    """Sec. IX.0.3: one defender's card play at hand size N: C(2N, N) executions, each with
    N/4 playable cards and an MCX(N) of 12 N CX."""
    return int(math.comb(2 * hand, hand) * PLAYABLE_PER_CARD * hand * CX_PER_MCX_CONTROL * hand)


def paper_model_trick_cx(hand: int) -> int:
    """Sec. IX.0.4: trick taking at hand size N: C(2N, N) executions of an MCX with 2N controls
    (24 N CX) plus three CX."""
    return math.comb(2 * hand, hand) * (CX_PER_MCX_CONTROL * 2 * hand + TRICK_TAKING_CX)


def paper_model_game_cx(hand: int = FULL_HAND) -> int:
    """Card play (both defenders) and trick taking over all tricks, hand sizes N, ..., 1."""
    return sum(
        (PLAYERS - 1) * paper_model_play_cx(k) + paper_model_trick_cx(k) for k in range(1, hand + 1)
    )


@dataclass(frozen=True)
class PaperCircuitCx:
    """CX of qcards' paper construction (:mod:`qcards.analysis.resources`, counted from its
    formula)."""

    deal_no_skat: int  # Sec. IX.0.1's setting: B and C share 2N = 20 cards, no skat
    deal_skat: int  # 22 unknown cards (B, C and the skat), the real game
    play_trick: int  # every card-play and trick-taking gate of the real game
    game: int  # deal + play + trick of the real game


@cache
def paper_circuit_cx(hand: int = FULL_HAND) -> PaperCircuitCx:
    """CX of the paper construction with ``hand`` cards per player (a few seconds at 10)."""
    game = resource_spec(hand)
    deal = paper_deal_count(game).cx
    play_trick = paper_play_count(game).cx + paper_trick_count(game).cx
    no_skat = paper_deal_count(resource_spec(hand, skat=False)).cx
    return PaperCircuitCx(no_skat, deal, play_trick, deal + play_trick)


def years(cx: int | Fraction) -> Fraction:
    """Sec. IX.0.5: ``cx`` gates at :data:`SECONDS_PER_CX`, one after the other, in years."""
    return cx * SECONDS_PER_CX / SECONDS_PER["years"]


# ----------------------------------------------------------------------------- the comparison


def _table_rows(table: int, printed: dict, declarer_known: bool) -> list[Row]:
    """Deals and total time per number of cards x, Table 8 (all dealt) or 9 (declarer known)."""
    rows = []
    for x, (p_deals, p_time, unit) in printed.items():
        count = deals(x, declarer_known)
        if declarer_known:
            formula = f"C({2 * x + 2},{x}) C({x + 2},{x})"
        else:
            formula = f"{3 * x + 2}!/({x}!^3 2!)"
        rows.append(
            _row(
                f"Table {table}, {x} cards: deals",
                p_deals,
                count,
                f"{formula}, counted by the referee",
                _DEALS_EXPLAINED.get((table, x), ""),
            )
        )
        t = time_in(count, unit)
        note = f"deals x {float(SECONDS_PER_GAME)} s (named input) in {unit}"
        if unit == "years":
            note += " of 365 days"
        if p_time.text.startswith("<"):
            note += "; printed as a bound ('< 0.1 sec' per game), compared at 0.1 s"
        why = ""
        if agrees(p_time, time_in(2 * count, unit)):
            why = "the printed time is that of twice the deals, the paper's doubled count"
        elif not agrees(p_time, t) and truncate(t, p_time) != Fraction(str(p_time.value)):
            needed = Fraction(str(p_time.value)) * SECONDS_PER[unit] / SECONDS_PER_GAME
            why = (
                f"{count:,} x 0.1 s is {float(t):.6g} {unit}; {p_time.value} {unit} would need "
                f"{float(needed):,.0f} deals (no rounding of the computed value gives it)"
            )
        rows.append(_row(f"Table {table}, {x} cards: total ({unit})", p_time, t, note, why))
    return rows


_DEALS_EXPLAINED = {
    (8, 6): (
        "the paper's count is twice the multinomial; it equals Table 9's (also doubled) "
        "168,168 x C(20,6), the relation of Sec. VIII.1"
    ),
    (9, 6): (
        "the paper's count is twice C(14,6) C(8,6) = 3003 x 28; 168,168 = 3003 x 56, "
        "and 56 = C(8,3) = C(8,5)"
    ),
}
"""Explanations that need more than the numbers (the others: :func:`explain`)."""


def _equation_rows() -> list[Row]:
    n_known = deals(FULL_HAND, declarer_known=True)
    n_all = deals(FULL_HAND, declarer_known=False)
    per_deal = unrestricted_paths()
    mu_paths = MU_SUIT ** (PLAYERS * FULL_HAND) * n_known
    return [
        _row(
            "Sec. VIII: N, deals of the full game",
            PRINTED["Sec. VIII N"],
            n_all,
            "32!/(10!^3 2!), counted by the referee (Table 8, 10 cards, exactly)",
        ),
        _row(
            "Eq. 32: deals with the declarer's hand known",
            PRINTED["Eq. 32"],
            n_known,
            "C(22,10) C(12,10), counted by the referee; "
            + ("equals" if n_all == n_known * math.comb(32, 10) else "differs from")
            + " N / C(32,10), the division of Sec. VIII.1",
        ),
        _row(
            "Eq. 34: paths per deal, every card playable",
            PRINTED["Eq. 34"],
            per_deal,
            "product over the ten tricks of the cards each of the 3 players still holds; "
            "printed as (10!)^3 (Eq. 33: 10! per player)",
        ),
        _row(
            "Eq. 35: paths over all deals, declarer known",
            PRINTED["Eq. 35"],
            n_known * per_deal,
            "Eq. 32 x Eq. 34",
        ),
        _row(
            "Eq. 37: paths with mean branching mu_Suit",
            PRINTED["Eq. 37"],
            mu_paths,
            f"mu_Suit^30 x Eq. 32 with the measured mu_Suit = {float(MU_SUIT)} (Eq. 36, an input): "
            "30 card plays per game",
        ),
        _row(
            "Eq. 37: the same in units of 2^70",
            PRINTED["Eq. 37 / 2^70"],
            mu_paths / 2**70,
            "Eq. 37 / 2^70",
        ),
        _row(
            "Eq. 38: N^App_max, evaluations per game",
            PRINTED["Eq. 38"],
            applications_max(),
            "one evaluation per card in the declarer's hand at each of its 10 turns: 10 + ... + 1",
        ),
        _row(
            "Eq. 39: mean N^App",
            PRINTED["Eq. 39"],
            FULL_HAND * MU_SUIT,
            f"10 turns x mu_Suit = {float(MU_SUIT)} options on average (Eq. 36); "
            f"{float(FULL_HAND * MU_SUIT / applications_max()):.2f} of Eq. 38 ('roughly half')",
        ),
    ]


def _sec9_rows() -> list[Row]:
    qc = paper_circuit_cx()
    n = FULL_HAND
    play = paper_model_play_cx(n)
    model_game = paper_model_game_cx(n)
    first_trick = (PLAYERS - 1) * play + paper_model_trick_cx(n)
    model_total = SHOTS * (PAPER_DEAL_CX + model_game)
    ratio = play / (4**n * n)
    printed_years = years(cast(int, PRINTED["Sec. IX.0.5 total"].value))  # an order: an int
    return [
        _row(
            "Sec. IX.0.1: CX of U_ini, B and C with 10 of 20 cards",
            PRINTED["Sec. IX.0.1"],
            qc.deal_no_skat,
            "qcards' paper construction (resources.py): a dense state preparation on one owner "
            "qubit per unknown card, 2^20 - 21 CX; the paper extrapolates a different method "
            "(Mozafari et al., Fig. 15) from N = 1, 2, 3. With the skat (22 unknown cards, two "
            f"owner qubits each) the same construction needs {qc.deal_skat:.3e} CX",
        ),
        _row(
            "Sec. IX.0.3: CX of one defender's card play, N = 10",
            PRINTED["Sec. IX.0.3"],
            play,
            "the paper's own model C(2N,N) x N/4 x 12N = 3N^2 C(2N,N); its approximation "
            f"4^N N drops the factor 3N C(2N,N)/4^N ~ 3 sqrt(N/pi), {ratio:.2f} at N = 10",
        ),
        _row(
            "Sec. IX.0.5: CX of card play + trick taking (paper's model)",
            PRINTED["Sec. IX.0.5 play+trick"],
            model_game,
            "the paper's per-gate model (IX.0.3, IX.0.4): both defenders' card play and trick "
            f"taking, summed over hand sizes 10..1; the first trick alone is {first_trick:.3e}. "
            f"4^N N of a single card play ({4**n * n:.3e}) is of the printed order",
        ),
        _row(
            "Sec. IX.0.5: CX of card play + trick taking (qcards paper construction)",
            PRINTED["Sec. IX.0.5 play+trick"],
            qc.play_trick,
            "every CP and TT gate of the paper construction for the real game (with the skat), "
            "counted by resources.py from its exact term structure (calibrated Qiskit lowerings)",
        ),
        _row(
            "Sec. IX.0.5: total CX with 1000 shots (paper's components)",
            PRINTED["Sec. IX.0.5 total"],
            model_total,
            f"{SHOTS} shots x (the paper's 10^12 for U_ini, an input, + {model_game:.3e} for "
            "play and tricks, the row above)",
            f"{model_total:.3e} is of order 10^{round(math.log10(model_total))}; the printed "
            f"10^16 is {10**16 / model_total:.1f} times the paper's own parts times {SHOTS} shots",
        ),
        _row(
            "Sec. IX.0.5: total CX with 1000 shots (qcards paper construction)",
            PRINTED["Sec. IX.0.5 total"],
            SHOTS * qc.game,
            f"{SHOTS} shots x {qc.game:.4e} CX (resources.py, paper construction, real game "
            "with the skat; the deal dominates)",
        ),
        _row(
            "Sec. IX.0.5: years for the printed 10^16 CX at 40 ns",
            PRINTED["Sec. IX.0.5 years"],
            printed_years,
            "step check from the paper's own 10^16 CX: 40 ns each, one after the other",
            f"10^16 x 40 ns = {float(printed_years * SECONDS_PER['years']):.3g} s = "
            f"{float(printed_years):.2f} years, which rounds to {round(printed_years)}; "
            "the paper's 'approximately twelve' truncates",
        ),
        _row(
            "Sec. IX.0.5: years, paper's components at 40 ns",
            PRINTED["Sec. IX.0.5 years"],
            years(model_total),
            "the paper's components with 1000 shots (row above) at 40 ns per CX, sequentially",
        ),
        _row(
            "Sec. IX.0.5: years, qcards paper construction at 40 ns",
            PRINTED["Sec. IX.0.5 years"],
            years(SHOTS * qc.game),
            "1000 shots of the paper construction's CX (resources.py) at 40 ns per CX, "
            "sequentially",
        ),
    ]


@cache
def comparison() -> tuple[Row, ...]:
    """Every row of ``qcards tables``: Table 8, Table 9, Eqs. 32-39, Sec. IX (a few seconds)."""
    return (
        *_table_rows(8, TABLE8_PRINTED, declarer_known=False),
        *_table_rows(9, TABLE9_PRINTED, declarer_known=True),
        *_equation_rows(),
        *_sec9_rows(),
    )


def comparison_json() -> dict:
    """``{"rows": [{"quantity", "paper", "computed", "agrees", "note"}]}``."""
    return {"rows": [row.to_json() for row in comparison()]}
