"""``qcards recommend SPEC [--history PLAYS]``: the cards of the seat to move, best first.

The declarer at the start of a trick is ranked by :func:`qcards.analysis.evaluate.recommend`
(every method, the circuits' included); anyone else, any seat in the middle of a trick, and a
model other than random on more deals than an exact ranking takes (with ``auto`` and no
shots), by :func:`qcards.analysis.advice.advise` (the referee, double dummy or sampled
deals). ``--player`` asks one player instead (any ``qcards match --player``, a registered
player kind included) which card it plays there
(:func:`qcards.analysis.match_players.player_card`).
"""

from __future__ import annotations

from qcards.analysis.advice import AUTO, EXACT, MAX_EXACT_DEALS, SAMPLED, Advice, advise
from qcards.analysis.evaluate import card_differences, recommend
from qcards.analysis.match_players import parse_player, player_card
from qcards.analysis.methods.builtin import DOUBLE_DUMMY
from qcards.cli.commands import SUMMARIES
from qcards.cli.common import (
    evaluation_arguments,
    load_spec,
    objective_argument,
    print_json,
    print_table,
    spec_argument,
)
from qcards.cli.output import print_note
from qcards.errors import ModelError, ParameterError
from qcards.skat.deals.count import num_deals
from qcards.skat.players.beliefs import RANDOM, TREMBLE, check_beliefs
from qcards.skat.position.history import OPTION, moment
from qcards.skat.solvers.plain_referee import game_over

ADVICE_METHOD = {
    "auto": AUTO,
    "classical": EXACT,
    DOUBLE_DUMMY.name: EXACT,
    "shots": SAMPLED,
}
"""What ``--method`` asks of the advice for a seat other than a leading declarer."""


def add_parser(sub) -> None:
    p = sub.add_parser(
        "recommend",
        help=SUMMARIES["recommend"],
    )
    spec_argument(p)
    evaluation_arguments(p, "how the cards are valued")
    objective_argument(p)
    p.add_argument(
        "--beliefs",
        default=RANDOM,
        metavar="NAME",
        help="how the history weighs the deals: random (the random-play likelihood, default), "
        "voids (only the cards played and the voids), or a play model with a policy "
        "(heuristic, softmax: the likelihood of the plays under it, with --tremble)",
    )
    p.add_argument(
        "--tremble",
        type=float,
        default=float(TREMBLE),
        metavar="SHARE",
        help=f"with a model's beliefs, each legal card's share when a player leaves the model "
        f"(0 to 1, default {float(TREMBLE):g})",
    )
    p.add_argument(
        "--player",
        metavar="PLAYER",
        help="the card this player plays for the seat to move, instead of a ranking: any "
        "player qcards match seats (a play model, adversarial:WORLDS[:BELIEFS], "
        "openspiel-ismcts:N, a player kind another package registers); draws from --seed",
    )
    # the ranking options' defaults, read back from the parser: what --player refuses to change
    p.set_defaults(
        run=run, ranking_defaults={name: p.get_default(name) for name in RANKING_OPTIONS}
    )


RANKING_OPTIONS = ("model", "method", "shots", "construction", "objective", "beliefs")
"""The options of a ranking, which a ``--player`` question does not read."""


def run(args) -> int:
    spec = load_spec(args.spec)
    if args.player is not None:
        return _player(args, spec)
    beliefs = check_beliefs(args.beliefs, args.tremble)
    rest = spec
    if args.history and beliefs.name != RANDOM:
        return _advice(args, spec)  # the declarer's ranking weighs the history by random play
    if args.history or spec.leader != spec.declarer:
        where = moment(spec, args.history or ())
        if where.spec.num_tricks == 0:  # not the declarer's empty hand: the game's end
            raise ModelError(f"{OPTION}: {game_over(where.spec)}")
        if where.trick or where.mover != spec.declarer:
            return _advice(args, spec)
        rest = where.spec
    if _too_many_deals_to_rank_exactly(args, rest):
        return _advice(args, spec)
    ranked = recommend(
        rest,
        args.model,
        args.method,
        args.seed,
        args.construction,
        args.dask,
        force=args.force,
        shots=args.shots,
        objective=args.objective,
    )
    cards = []
    for (card, r), gap in zip(ranked, card_differences(ranked), strict=True):
        record = r.to_json()
        entry = {
            "card": str(card),
            "p_win": r.p_win,
            "p_win_exact": record["p_win_exact"],
            "expected_points": r.expected_points,
            "method": r.method,
        }
        if r.scores is not None:
            entry.update(r.scores.to_json())
        if gap is not None:  # sampled: the interval, and the gap to the best on the same deals
            entry["ci"] = record["ci"]
            entry["expected_points_ci"] = record["expected_points_ci"]
            entry["delta_vs_best"] = gap[0]
            entry["delta_ci"] = list(gap[1])
        cards.append(entry)
    sampled = ranked[0][1].samples if ranked else None
    if args.json:
        out = {"model": args.model, "cards": cards}
        if sampled is not None:
            out.update(shots=sampled.count, seed=sampled.seed)
        print_json(out)
        return 0
    if sampled is None:
        columns = ["card", "p_win", "p_win_exact", "expected_points", "method"]
        if any("expected_seeger_fabian" in c for c in cards):
            columns += ["expected_score", "expected_seeger_fabian"]
        print_table(
            [c.replace("p_win_exact", "exact") for c in columns],
            [[c.get(k) for k in columns] for c in cards],
        )
        return 0
    print_table(
        ["card", "p_win", "95% interval", "vs best", "95% interval", "points", "method"],
        [
            [c["card"], c["p_win"], _interval(c["ci"]), c["delta_vs_best"],
             _interval(c["delta_ci"]), c["expected_points"], c["method"]]
            for c in cards
        ],
    )  # fmt: skip
    print(f"{sampled.count:,} shots per card, seed {sampled.seed}: the same deals for every card")
    return 0


def _player(args, spec) -> int:
    """``--player``: the player's card for the seat to move; a ranking option given beside it
    is refused rather than silently ignored."""
    defaults = args.ranking_defaults
    given = [name for name in RANKING_OPTIONS if getattr(args, name) != defaults[name]]
    if given:
        raise ParameterError(
            "player",
            f"{{player}} asks one player for its card; --{given[0]} sets how a "
            "ranking values the cards: leave it out",
        )
    chosen = parse_player(args.player)
    card = player_card(spec, args.history or (), chosen, args.seed)
    if args.json:
        print_json({"player": chosen.label, "card": str(card)})
    else:
        print(f"{chosen.label} plays {card}")
    return 0


def _interval(pair) -> str:
    return f"[{pair[0]:.4f}, {pair[1]:.4f}]"


def _too_many_deals_to_rank_exactly(args, spec) -> bool:
    """A model the circuits do not prepare, ``auto`` and no shots, and more deals than an exact
    ranking solves: the advice samples them (PIMC, or games played), as it would mid-trick,
    where the declarer's ranking would refuse the exact work."""
    return (
        args.model != "random"
        and args.method == "auto"
        and args.shots is None
        and num_deals(spec) > MAX_EXACT_DEALS
    )


def _advice(args, spec) -> int:
    """A defender to move, or any seat in the middle of a trick (``spec`` before the
    history)."""
    if args.method not in ADVICE_METHOD:
        why = (
            f"--beliefs {args.beliefs} weighs the history's deals by a model, which the game's "
            "circuit does not prepare"
            if args.history and args.beliefs != RANDOM
            else "it runs the game's circuit, which starts at a trick with the declarer to lead"
        )
        raise ParameterError(
            "method",
            f"{{method}} {args.method}: {why}; advice for any seat at any moment takes "
            f"{' | '.join(ADVICE_METHOD)}",
        )
    advice = advise(
        spec,
        args.history or (),
        model=args.model,
        objective=args.objective,
        method=ADVICE_METHOD[args.method],
        samples=args.shots,
        seed=args.seed,
        force=args.force,
        scheduler=args.dask,
        beliefs=args.beliefs,
        tremble=args.tremble,
    )
    if args.json:
        print_json(advice.to_json())
        return 0
    _print_advice(advice)
    return 0


def _print_advice(advice: Advice) -> None:
    sampled = advice.seed is not None
    levels = any(v.level is not None for v in advice.cards)
    headers = ["card", advice.objective, "p_win", "level_points" if levels else "expected_points"]
    if sampled:
        headers += ["95% interval", "vs best", "95% interval"]
    rows = []
    for v in advice.cards:
        row = [str(v.card), v.value_exact if v.value_exact is not None else v.value, v.p_win,
               v.level if levels else v.expected_points]  # fmt: skip
        if sampled:
            row += [_interval(v.ci), v.delta_vs_best, _interval(v.delta_ci)]
        rows.append(row)
    print_table(headers, rows)
    trick = " ".join(f"{p}:{c}" for p, c in advice.trick) or "none yet"
    summary = (
        f"{advice.mover} to move for the {advice.side} (on the table: {trick}); "
        f"{advice.model} play, {advice.method}: {advice.reason}; the values are the "
        f"declarer's" + (f"; {advice.deals:,} samples, seed {advice.seed}" if sampled else "")
    )
    print_note(summary)
