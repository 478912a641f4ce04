"""The double-dummy solver (qcards.skat.solvers.double_dummy) against the referee's adversarial
model.

Every comparison is exact: the solver's win and points, averaged over the deals of
:func:`qcards.skat.deals.enumeration.weighted_deals` with their probabilities as Fractions,
must equal ``referee.evaluate(spec, "adversarial", first)``. Full deals (30 cards played), which the
referee cannot enumerate, are checked along their principal variation: every position on it
solves to the same final points, and once at most twelve cards are left the referee solves the
same position as a small endgame spec.
"""

from __future__ import annotations

import importlib.util
import random
from fractions import Fraction

import numpy as np
import plain_referee_store
import pytest

import qcards.skat.solvers.double_dummy.search as dd_search
import qcards.skat.solvers.double_dummy.solver as dd
from qcards.errors import ModelError
from qcards.skat.deals.enumeration import deals, weighted_deals
from qcards.skat.position.spec import SKAT, Endgame, load_spec, parse_spec, spec_from_dict
from qcards.skat.rules.cards import FULL_DECK, Card, Rules, Trump
from qcards.skat.rules.rule_tables import rule_tables
from qcards.skat.solvers.plain_referee import evaluate

from conftest import REPO, breadth, generated_specs, random_spec, sampled

SPEC_FILES = sorted(
    path
    for path in (REPO / "qcards" / "specs").glob("*.toml")
    if not path.name.startswith("full-")  # the full game: beyond the referee (see below)
)
"""The packaged specs the plain referee can answer; the full-game specs are checked along
their principal variations and by the docs' runnable blocks instead."""


def solver_evaluation(spec: Endgame, first: Card | None = None) -> tuple[Fraction, Fraction]:
    """(p_win, expected points) of the solver, averaged over the deals like the referee."""
    p_win, points = Fraction(0), Fraction(0)
    for owner, probability in weighted_deals(spec):
        value = dd.solve_deal(spec, owner, first)
        p_win += probability * value.wins
        points += probability * value.points
    return p_win, points


def assert_matches_referee(spec: Endgame, first: Card | None = None, referee=None) -> None:
    """The solver against the referee's adversarial model (``referee``: its evaluation, when
    computed already)."""
    referee = referee or evaluate(spec, "adversarial", first)
    p_win, points = solver_evaluation(spec, first)
    assert (p_win, points) == (referee.p_win, referee.expected_points), (
        f"{spec.source} first={first}: solver p_win {p_win}, points {points}; referee "
        f"{referee.p_win}, {referee.expected_points}\n{spec.to_toml()}"
    )


def first_cards(spec: Endgame) -> list[Card]:
    """Every card the declarer's first card may be fixed to (none unless it leads)."""
    if spec.leader != spec.declarer:
        return []
    return list(spec.hands[spec.declarer])


# ----------------------------------------------------------------------------- rule tables


@pytest.mark.parametrize("trump", list(Trump), ids=lambda t: t.value)
def test_rule_tables_decide_every_trick_like_the_rules(trump):
    """The power table's trick winner equals Rules.trick_winner on every three-card trick (and
    so on tricks of any length: both take the cards in order, keeping the best so far)."""
    tables = rule_tables(trump)
    rules = Rules(trump)
    index = {c: i for i, c in enumerate(FULL_DECK)}
    for a in FULL_DECK:
        led = tables.eff[index[a]]
        for b in FULL_DECK:
            for c in FULL_DECK:
                if len({a, b, c}) < 3:
                    continue
                powers = [tables.power[led, index[x]] for x in (a, b, c)]
                assert powers[0] > 0
                mine = max(range(3), key=lambda i: (powers[i], -i))
                assert mine == rules.trick_winner([a, b, c]), (a, b, c)


@pytest.mark.parametrize("trump", list(Trump), ids=lambda t: t.value)
def test_rule_tables_give_the_legal_cards_of_the_rules(trump):
    tables = rule_tables(trump)
    rules = Rules(trump)
    index = {c: i for i, c in enumerate(FULL_DECK)}
    rng = random.Random(7)
    for _ in range(400):
        cards = rng.sample(FULL_DECK, rng.randint(2, 11))
        led, hand = cards[0], cards[1:]
        mask = sum(1 << index[c] for c in hand)
        follow = mask & int(tables.suit_mask[tables.eff[index[led]]])
        legal = follow or mask
        assert {c for c in hand if legal >> index[c] & 1} == set(rules.legal_cards(hand, led))
    for row in range(5):  # suits in strength order, as the equivalent-card pruning reads them
        members = [FULL_DECK[i] for i in tables.order[row, : tables.order_len[row]]]
        assert [rules.strength(c) for c in members] == sorted(
            (rules.strength(c) for c in members), reverse=True
        )
        assert len({rules.effective_suit(c) for c in members}) <= 1


# ----------------------------------------------------------------------------- the referee


@pytest.mark.parametrize("path", SPEC_FILES, ids=lambda p: p.name)
def test_spec_files_match_the_referee(path):
    spec = load_spec(path)
    assert_matches_referee(spec)
    for first in first_cards(spec):
        assert_matches_referee(spec, first)


GENERATED = generated_specs(2) + generated_specs(1, skat=True)


@pytest.mark.parametrize("params", sampled(GENERATED), ids=lambda p: "-".join(map(str, p[:6])))
def test_generated_specs_match_the_referee(params):
    """Every kind of game (null included), 2 and 3 players, both leading rules, a Skat."""
    seed, players, tricks, trump, winner_leads, known, *skat = params
    spec = random_spec(
        seed, players, tricks, trump, winner_leads, known, skat=skat[0] if skat else 0
    )
    assert_matches_referee(spec)
    for first in first_cards(spec):
        assert_matches_referee(spec, first)


def small_spec(seed: int, players: int, tricks: int, **fields) -> Endgame:
    """A random endgame over three suits and the jacks, with some cards known."""
    rng = random.Random(seed)
    names = ["A", "B", "C", "D"][:players]
    pool = [c for c in FULL_DECK if c.suit in rng.sample("CSHD", 3) or c.rank == "J"]
    skat = fields.pop("skat", 0)
    cards = rng.sample(pool, players * tricks + skat)
    hands = {p: [str(c) for c in cards[i * tricks : (i + 1) * tricks]] for i, p in enumerate(names)}
    unknown = [c for p in names[1:] for c in hands[p][: tricks // 2 + 1]]
    sizes = {p: tricks // 2 + 1 for p in names[1:]}
    for p in names[1:]:
        hands[p] = hands[p][tricks // 2 + 1 :]
    unknown += [str(c) for c in cards[players * tricks :]]
    if skat:
        sizes[SKAT] = skat
    table = {
        "players": names,
        "leader": "A",
        "hands": hands,
        "unknown": {"cards": unknown, "sizes": sizes},
        **fields,
    }
    return spec_from_dict(table, source=f"small-{seed}")


FOUR_PLAYER_GAMES = [
    {"trump": "clubs", "target": 30},
    {"trump": "grand", "target": 20, "winner_leads": False},
    {"trump": "none", "target": 25, "skat": 2},
    {"trump": "null"},
    {"trump": "null-ouvert", "winner_leads": False},
    {"trump": "hearts", "target": 15, "declarer_tricks": 3},
]


@pytest.mark.parametrize(
    "fields",
    breadth(FOUR_PLAYER_GAMES, [FOUR_PLAYER_GAMES[0], FOUR_PLAYER_GAMES[3]]),
    ids=lambda f: f["trump"],
)
def test_four_players_match_the_referee(fields):
    spec = small_spec(11, 4, 3, **fields)
    assert len(spec.players) == 4
    assert_matches_referee(spec)
    assert_matches_referee(spec, spec.hands["A"][0])


@pytest.mark.parametrize("players", [2, 3])
@pytest.mark.parametrize("trump", ["spades", "null"])
def test_declarer_tricks_match_the_referee(players, trump):
    """A null game with a trick already taken is lost; a point game ignores the tricks."""
    fields = {"trump": trump, "declarer_tricks": 1, "declarer_points": 30}
    if trump != "null":
        fields["target"] = 45
    spec = small_spec(5 + players, players, 3, **fields)
    assert_matches_referee(spec)
    for first in first_cards(spec):
        assert_matches_referee(spec, first)
    if trump == "null":
        assert solver_evaluation(spec)[0] == 0


def test_null_games_are_won_and_lost():
    wins = set()
    for seed in range(12):
        spec = small_spec(100 + seed, 3, 3, trump="null", winner_leads=seed % 2 == 0)
        assert_matches_referee(spec)
        wins.add(solver_evaluation(spec)[0])
    assert Fraction(0) in wins and any(w > 0 for w in wins)


def test_a_prior_weights_the_deals_like_the_referee():
    six = (REPO / "qcards" / "specs" / "six-card.toml").read_text()
    spec = parse_spec(six + '[prior]\nweight = { B = { C10 = 3, H10 = "1/2" } }\n')
    assert not spec.prior.is_uniform
    assert_matches_referee(spec)
    assert_matches_referee(spec, Card.parse("CK"))


def _crosscheck_module():
    """tests/fuzz/test_fuzz_crosscheck.py, loaded by path (its directory is not a package)."""
    path = REPO / "tests" / "fuzz" / "test_fuzz_crosscheck.py"
    spec = importlib.util.spec_from_file_location("_crosscheck_specs", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


CROSSCHECK = _crosscheck_module()


@pytest.mark.slow  # the referee's adversarial model takes 100 s for all 200 on one core
@pytest.mark.parametrize("index", range(CROSSCHECK.COUNT), ids=CROSSCHECK.IDS)
def test_the_200_crosscheck_specs_match_the_referee(index):
    spec = CROSSCHECK.SPECS[index]
    firsts = [None, *first_cards(spec)[-1:]]
    # the plain referee answers both in one search (its positions shared), or its stored answers
    # do for the slowest specs (tests/plain_referee_store.py)
    referees = plain_referee_store.evaluate_each(spec, "adversarial", firsts)
    for first, referee in zip(firsts, referees, strict=True):
        assert_matches_referee(spec, first, referee)


# ----------------------------------------------------------------------------- full deals


def full_deal(seed: int, trump: str, winner_leads: bool = True) -> tuple[Endgame, dict]:
    """A fully known deal of the whole game: ten cards a hand, two in the Skat."""
    rng = random.Random(seed)
    cards = list(FULL_DECK)
    rng.shuffle(cards)
    table = {
        "players": ["A", "B", "C"],
        "trump": trump,
        "leader": "A",
        "winner_leads": winner_leads,
        "hands": {p: [str(c) for c in cards[10 * i : 10 * i + 10]] for i, p in enumerate("ABC")},
        # a known Skat: the only unknown cards, both dealt into the Skat (one deal)
        "unknown": {"cards": [str(c) for c in cards[30:]], "sizes": {SKAT: 2}},
    }
    spec = spec_from_dict(table, source=f"full-{trump}-{seed}")
    (owner,) = list(deals(spec))
    return spec, owner


def endgame_of(spec: Endgame, position: dd.Position) -> Endgame:
    """The position (at a trick boundary) as an endgame spec with every hand known."""
    table = {
        "players": list(spec.players),
        "trump": spec.trump.value,
        "leader": spec.players[position.leader],
        "winner_leads": spec.winner_leads,
        "declarer_points": position.points,
        "declarer_tricks": spec.declarer_tricks + int(position.took),
        "hands": {p: [str(c) for c in position.hands[i]] for i, p in enumerate(spec.players)},
    }
    if not spec.is_null:
        table["target"] = spec.target
    return spec_from_dict(table, source=f"{spec.source}-rest")


@pytest.mark.parametrize(
    ("seed", "trump", "winner_leads"),
    [(1, "clubs", True), (2, "grand", True), (3, "null", True), (4, "diamonds", False)],
)
def test_principal_variation_of_a_full_deal_is_consistent(seed, trump, winner_leads):
    spec, owner = full_deal(seed, trump, winner_leads)
    value = dd.solve_deal(spec, owner)
    line = dd.principal_variation(spec, owner)
    assert len(line) == 30 and len(set(line)) == 30
    position = dd.start_position(spec, owner)
    assert position.points == sum(c.value for c, who in owner.items() if who == SKAT)
    checked = 0
    for card in line:
        assert card in dd.legal_moves(spec, position)
        position = dd.play(spec, position, card)
        here = dd.solve_position(spec, position)
        assert here.points == value.points, (card, position)
        cards_left = sum(len(h) for h in position.hands)
        if not position.trick and 0 < cards_left <= 12:
            rest = endgame_of(spec, position)
            referee = evaluate(rest, "adversarial")
            assert referee.expected_points == here.points
            assert referee.p_win == here.wins
            checked += 1
    assert position.finished and position.points == value.points
    assert checked == 4
    if not spec.is_null:
        assert value.wins == (value.points >= spec.target)


@pytest.mark.parametrize("trump", ["spades", "grand", "null"])
def test_every_first_card_of_a_full_deal(trump):
    """The best forced first card is worth the free choice; the others are no better."""
    spec, owner = full_deal(20, trump)
    free = dd.solve_deal(spec, owner)
    forced = [dd.solve_deal(spec, owner, first) for first in spec.hands["A"]]
    assert max(v.points for v in forced) == free.points
    assert any(v.wins for v in forced) == free.wins


def test_mid_trick_positions_and_forced_cards():
    """A best reply mid-trick keeps the value; every other legal card is no better for its side."""
    spec, owner = full_deal(5, "hearts")
    position = dd.start_position(spec, owner)
    for card in dd.principal_variation(spec, owner)[:13]:
        position = dd.play(spec, position, card)
    assert len(position.trick) == 1  # trick 5, after the lead
    value = dd.solve_position(spec, position)
    seat = position.to_move
    replies = [dd.solve_position(spec, position, c) for c in dd.legal_moves(spec, position)]
    best = max(r.points for r in replies) if seat == 0 else min(r.points for r in replies)
    assert best == value.points
    assert dd.solve_position(spec, position, dd.best_card(spec, position)).points == value.points


def test_the_table_is_not_shared_between_deals(monkeypatch):
    """Two deals with the same cards in hand but different owners, solved in turns, give what
    each gives alone (the table must start a new generation)."""
    spec, owner = full_deal(8, "clubs")
    a, b = spec.hands["B"][0], spec.hands["C"][0]
    swapped = {**owner, a: "C", b: "B"}
    spec2 = spec_from_dict(
        {
            "players": ["A", "B", "C"],
            "trump": "clubs",
            "hands": {p: [str(c) for c, who in swapped.items() if who == p] for p in spec.players},
            "unknown": {"cards": [str(c) for c in spec.unknown], "sizes": {SKAT: 2}},
        }
    )
    alone = []
    for s, o in ((spec, owner), (spec2, swapped)):
        monkeypatch.setattr(dd._LOCAL, "workspace", dd._Workspace(16), raising=False)
        alone.append(dd.solve_deal(s, o))
    for _ in range(2):
        for (s, o), expected in zip(((spec, owner), (spec2, swapped)), alone, strict=True):
            assert dd.solve_deal(s, o).points == expected.points


def test_a_second_solve_of_a_deal_reuses_the_table():
    spec, owner = full_deal(9, "grand")
    first = dd.solve_deal(spec, owner)
    again = dd.solve_deal(spec, owner)
    assert again.points == first.points and again.nodes < first.nodes


def test_the_python_fallback_searches_alike(monkeypatch):
    """Without numba the same functions run as Python: same values, same nodes."""
    if not dd.HAVE_NUMBA:
        pytest.skip("numba is not installed: everything already runs as Python")
    specs = [random_spec(*params) for params in generated_specs(1)[::7]]
    specs.append(small_spec(3, 3, 4, trump="null"))

    def solve_all() -> list[list[dd.DoubleDummyValue]]:
        monkeypatch.setattr(dd._LOCAL, "workspace", dd._Workspace(12), raising=False)
        return [[dd.solve_deal(s, o) for o in deals(s)] for s in specs]

    compiled = solve_all()
    kernels = {name: f for name, f in vars(dd_search).items() if hasattr(f, "py_func")}
    assert {"search", "_ordered_moves", "_tt_index"} <= set(kernels)
    for name, function in kernels.items():
        monkeypatch.setattr(dd_search, name, function.py_func)
    assert solve_all() == compiled


# ----------------------------------------------------------------------------- errors


def test_bad_deals_and_cards_are_model_errors():
    spec = load_spec(REPO / "qcards" / "specs" / "six-card.toml")
    owner = next(deals(spec))
    with pytest.raises(ModelError, match="missing"):
        dd.solve_deal(spec, {c: p for c, p in owner.items() if c != Card.parse("C9")})
    with pytest.raises(ModelError, match="not a player"):
        dd.solve_deal(spec, {**owner, Card.parse("C9"): "Z"})
    unbalanced = {**owner}
    b_cards = [c for c, p in owner.items() if p == "B"]
    unbalanced[b_cards[0]] = "C"
    with pytest.raises(ModelError, match="cards"):
        dd.solve_deal(spec, unbalanced)
    with pytest.raises(ModelError, match="first card"):
        dd.solve_deal(spec, owner, Card.parse("C10"))
    position = dd.start_position(spec, owner)
    with pytest.raises(ModelError, match="not a legal card"):
        dd.play(spec, position, b_cards[0])
    with pytest.raises(ModelError, match="forced card"):
        dd.solve_position(spec, position, b_cards[0])
    broken = dd.Position(position.hands, (Card.parse("CA"),), 0, 40, False)
    with pytest.raises(ModelError, match="two places"):
        dd.solve_position(spec, broken)
    uneven = dd.Position(
        (position.hands[0] - {Card.parse("CA")}, *position.hands[1:]), (), 0, 40, False
    )
    with pytest.raises(ModelError, match="sizes"):
        dd.solve_position(spec, uneven)


def test_a_finished_game_is_its_points():
    spec = load_spec(REPO / "qcards" / "specs" / "six-card.toml")
    owner = next(deals(spec))
    position = dd.start_position(spec, owner)
    for card in dd.principal_variation(spec, owner):
        position = dd.play(spec, position, card)
    value = dd.solve_position(spec, position)
    assert value.nodes == 0 and position.finished
    assert value.points == dd.solve_deal(spec, owner).points
    assert dd.best_card(spec, position) is None
    with pytest.raises(ModelError, match="over"):
        dd.play(spec, position, Card.parse("CA"))


def test_the_tables_are_numpy_masks_of_the_deck():
    tables = rule_tables(Trump.CLUBS)
    assert tables.suit_mask.dtype == np.int64
    assert int(np.bitwise_or.reduce(tables.suit_mask)) == (1 << 32) - 1
