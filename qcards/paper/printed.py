"""The paper's printed numbers (Tables 8 and 9, Eqs. 32-39, Sec. IX) as data, and the rules by
which a computed value agrees with one.

Nothing in qcards is computed from these values: :mod:`qcards.paper.tables` recomputes each
quantity and sets it beside the printed one.

``agrees`` is defined per printed value by the precision it is printed with (:class:`Printed`):

``exact``
    an integer printed in full: equal integers.
``decimals``
    a rounded number with d decimals (``< 2.57`` hours, ``8 730 639`` years): the computed value,
    rounded half up to d decimals, equals the printed digits.
``significant``
    ``≈ 2.753·10^15``: the computed value rounded half up to that many significant digits.
``order``
    "of order 10^k", "around 10^16", "≈ 4^N N": the same order of magnitude, i.e. equal
    ``round(log10(.))``.

Values printed as upper bounds ("< 0.1 sec per game", so "< 293 368 years") are compared with
their bound, the time at exactly :data:`SECONDS_PER_GAME`; the row's note says so.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

# ----------------------------------------------------------------------------- printed values


@dataclass(frozen=True)
class Printed:
    """One number as the paper prints it, and the precision ``agrees`` compares at."""

    text: str
    value: int | float
    rule: str  # exact | decimals | significant | order
    digits: int = 0


def _t(text: str, value: float, decimals: int = 0) -> Printed:
    return Printed(text, float(value), "decimals", decimals)


def _n(text: str, value: int) -> Printed:
    return Printed(text, value, "exact")


def _sig(text: str, value: float, digits: int) -> Printed:
    return Printed(text, value, "significant", digits)


def _order(text: str, value: int) -> Printed:
    return Printed(text, value, "order")


TABLE8_PRINTED: dict[int, tuple[Printed, Printed, str]] = {
    # cards per player x: (deals, total time, unit of the time)
    10: (_sig("≈ 2.753·10^15", 2.753e15, 4), _t("8 730 639 years", 8730639), "years"),
    9: (_sig("≈ 9.251·10^13", 9.251e13, 4), _t("< 293 368 years", 293368), "years"),
    8: (_sig("≈ 3.0763·10^12", 3.0763e12, 5), _t("< 9 755 years", 9755), "years"),
    7: (_n("100 965 458 880", 100965458880), _t("< 320 years", 320), "years"),
    6: (_n("6 518 191 680", 6518191680), _t("< 20.67 years", 20.67, 2), "years"),
    5: (_n("102 918 816", 102918816), _t("< 119 days", 119), "days"),
    4: (_n("3 153 150", 3153150), _t("< 3.65 days", 3.65, 2), "days"),
    3: (_n("92 400", 92400), _t("< 2.57 hours", 2.57, 2), "hours"),
}
"""Table 8 as printed (Sec. VIII)."""

TABLE9_PRINTED: dict[int, tuple[Printed, Printed, str]] = {
    10: (_n("42 678 636", 42678636), _t("49.28 days", 49.28, 2), "days"),
    9: (_n("9 237 800", 9237800), _t("< 10.69 days", 10.69, 2), "days"),
    8: (_n("1 969 110", 1969110), _t("< 2.28 days", 2.28, 2), "days"),
    7: (_n("411 840", 411840), _t("< 11.45 hours", 11.45, 2), "hours"),
    6: (_n("168 168", 168168), _t("< 4.67 hours", 4.67, 2), "hours"),
    5: (_n("16 632", 16632), _t("< 27.72 min", 27.72, 2), "min"),
    4: (_n("3 150", 3150), _t("< 5.25 min", 5.25, 2), "min"),
    3: (_n("560", 560), _t("< 56 sec", 56), "sec"),
}
"""Table 9 as printed (Sec. VIII.1)."""

PRINTED: dict[str, Printed] = {
    "Sec. VIII N": _n("2 753 294 408 504 640", 2753294408504640),
    "Eq. 32": _n("42 678 636", 42678636),
    "Eq. 34": _n("(10!)^3", 47784725839872000000),
    "Eq. 35": _n("2 039 386 920 479 691 374 592 000 000", 2039386920479691374592000000),
    "Eq. 37": _sig("≈ 1.77·10^21", 1.77e21, 3),
    "Eq. 37 / 2^70": _sig("≈ 1.5·2^70", 1.5, 2),
    "Eq. 38": _n("55", 55),
    "Eq. 39": _t("28.44", 28.44, 2),
    "Sec. IX.0.1": _order("of order 10^12", 10**12),
    "Sec. IX.0.3": _order("≈ 4^N N (N = 10)", 4**10 * 10),
    "Sec. IX.0.5 play+trick": _order("of order 10^7", 10**7),
    "Sec. IX.0.5 total": _order("around 10^16", 10**16),
    "Sec. IX.0.5 years": _t("approximately twelve years", 12),
}
"""The other printed values, by equation or section."""


# ----------------------------------------------------------------------------- agreement


def _round_half_up(x: Fraction, scale: Fraction) -> Fraction:
    """``x`` rounded half up to a multiple of ``scale``."""
    return math.floor(x / scale + Fraction(1, 2)) * scale


def _exponent(x: Fraction) -> int:
    """floor(log10(x)) for x > 0, exactly."""
    e = len(str(math.floor(x))) - 1 if x >= 1 else -len(str(math.floor(1 / x)))
    while Fraction(10) ** e > x:
        e -= 1
    while Fraction(10) ** (e + 1) <= x:
        e += 1
    return e


def agrees(printed: Printed, computed: int | Fraction) -> bool:
    """Whether ``computed`` gives the printed number at the printed precision (module doc)."""
    exact = Fraction(computed)
    if printed.rule == "exact":
        return exact == printed.value
    paper = Fraction(str(printed.value))
    if printed.rule == "decimals":
        return _round_half_up(exact, Fraction(10) ** -printed.digits) == paper
    if printed.rule == "significant":
        scale = Fraction(10) ** (_exponent(exact) - printed.digits + 1)
        return _round_half_up(exact, scale) == paper
    if printed.rule == "order":
        return round(math.log10(exact)) == round(math.log10(paper))
    raise ValueError(f"unknown rule {printed.rule!r}")


def truncate(x: Fraction, printed: Printed) -> Fraction | None:
    """``x`` cut (not rounded) to the printed precision, for the rounded rules."""
    if printed.rule == "decimals":
        scale = Fraction(10) ** -printed.digits
    elif printed.rule == "significant":
        scale = Fraction(10) ** (_exponent(x) - printed.digits + 1)
    else:
        return None
    return math.floor(x / scale) * scale


def explain(printed: Printed, computed: int | Fraction) -> str:
    """Why a printed value differs, where the numbers themselves show it."""
    exact = Fraction(computed)
    cut = truncate(exact, printed)
    if cut is not None and cut == Fraction(str(printed.value)):
        return (
            f"{float(exact):.8g} rounds to a different last printed digit; "
            "the paper truncated instead of rounding"
        )
    if agrees(printed, 2 * exact):
        return "the printed value is twice the computed one"
    if printed.rule == "order":
        return (
            f"{float(exact):.3e} is of order 10^{round(math.log10(exact))}, "
            f"not 10^{round(math.log10(printed.value))}"
        )
    return f"the computed value is {float(exact):.8g}"
