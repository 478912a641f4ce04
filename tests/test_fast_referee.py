"""The fast referee (qcards.skat.solvers.fast_referee) against the plain enumerator
(qcards.skat.solvers.plain_referee).

Every comparison is of the whole :class:`~qcards.skat.solvers.plain_referee.Evaluation`: the same
Fractions, the same number of deals and play paths, for both models, every packaged spec the plain
referee answers, the generated specs of every kind of game (a Skat, 2 to 4 players, null
games, fixed first cards), priors, histories and the 200-spec cross-check.
"""

from __future__ import annotations

import random
from fractions import Fraction

import numpy as np
import plain_referee_store
import pytest
from test_double_dummy import CROSSCHECK, SPEC_FILES, small_spec
from test_prior import CASES as PRIOR_CASES

import qcards.skat.solvers.fast_referee.memo as memo
import qcards.skat.solvers.fast_referee.solver as fast
import qcards.skat.solvers.referee_cost as cost
from qcards.analysis.resources import resource_spec
from qcards.errors import ModelError, ResourceError
from qcards.plan import current_limits
from qcards.skat.position.history import after_history
from qcards.skat.position.spec import Endgame, load_spec, parse_spec, spec_from_dict
from qcards.skat.rules.cards import FULL_DECK, Card, Trump
from qcards.skat.rules.rule_tables import rule_tables
from qcards.skat.solvers import plain_referee as referee

from conftest import REPO, breadth, generated_specs, random_spec, sampled

MODELS = referee.MODELS


first_cards = plain_referee_store.every_first
"""No fixed card, then every card the declarer's first card may be fixed to."""


def assert_same(spec: Endgame, models=MODELS, firsts=None) -> None:
    for model in models:
        firsts = first_cards(spec) if firsts is None else firsts
        # the plain referee answers every first card in one search (its positions shared); the
        # slowest cross-check specs come from its stored answers (tests/plain_referee_store.py)
        plains = plain_referee_store.evaluate_each(spec, model, firsts)
        for first, plain in zip(firsts, plains, strict=True):
            quick = fast.evaluate(spec, model, first)
            assert quick == plain, (
                f"{spec.source} {model} first={first}: fast {quick}, plain {plain}\n"
                f"{spec.to_toml()}"
            )


# ----------------------------------------------------------------------------- equal answers


@pytest.mark.parametrize("path", SPEC_FILES, ids=lambda p: p.name)
def test_packaged_specs(path):
    spec = load_spec(path)
    assert_same(spec)
    if spec.leader == spec.declarer and spec.hands[spec.declarer]:
        for model in MODELS:
            assert fast.recommend(spec, model) == referee.recommend(spec, model)


GENERATED_CASES = generated_specs(2) + generated_specs(1, skat=True)
GENERATED = {
    "-".join(map(str, params)): random_spec(*params[:6], skat=(*params[6:], 0)[0])
    for params in GENERATED_CASES
}
"""The conftest's generated specs: every kind of game, 2 and 3 players, both leading rules,
with and without a Skat."""


@pytest.mark.parametrize("name", sampled(GENERATED_CASES, GENERATED))
def test_generated_specs(name):
    assert_same(GENERATED[name])


@pytest.mark.parametrize(
    "index", breadth(range(len(Trump)), [0, len(Trump) - 1]), ids=[t.value for t in Trump]
)
def test_four_players(index):
    """Every kind of game with four players, either leading rule; two tricks and a Skat of one
    card, or three tricks."""
    trump = list(Trump)[index]
    skat = index % 3 == 0
    fields = {"trump": trump.value, "winner_leads": index % 2 == 0, "skat": int(skat)}
    if not trump.is_null:
        fields["target"] = 15 + 5 * index
    spec = small_spec(11 + index, 4, 2 if skat else 3, **fields)
    assert len(spec.players) == 4
    assert_same(spec, firsts=[None, spec.hands["A"][0]])


@pytest.mark.parametrize("players", [2, 3])
@pytest.mark.parametrize("trump", ["spades", "null", "grand"])
def test_declarer_tricks_and_a_skat(players, trump):
    """A null game with a trick already taken is lost; a point game ignores the tricks."""
    fields = {"trump": trump, "declarer_tricks": 1, "declarer_points": 30, "skat": 1}
    if trump != "null":
        fields["target"] = 45
    spec = small_spec(5 + players, players, 3, **fields)
    assert_same(spec)


def test_null_games_are_won_and_lost():
    wins = set()
    for seed in range(8):
        spec = small_spec(100 + seed, 3, 3, trump="null", winner_leads=seed % 2 == 0)
        assert_same(spec, firsts=[None])
        wins.add(fast.evaluate(spec).p_win)
    assert Fraction(0) in wins and any(w > 0 for w in wins)


def test_a_larger_endgame_with_a_skat():
    """Four cards a hand and a Skat of two: 560 deals, which merge in the memo where equal
    cards lie in the Skat and in a hand (the plain referee's answers, about a minute, are
    stored: tests/plain_referee_store.py)."""
    spec = plain_referee_store.larger_endgame_with_a_skat(small_spec)
    assert_same(spec)


@pytest.mark.parametrize("index", range(len(PRIOR_CASES)))
def test_priors(index):
    """Voids, held cards, at_least and weights (the prior tests' random cases)."""
    spec = PRIOR_CASES[index][0]
    assert not spec.prior.is_uniform
    assert_same(spec)


def test_a_weighted_six_card_game():
    six = (REPO / "qcards" / "specs" / "six-card.toml").read_text()
    spec = parse_spec(six + '[prior]\nweight = { B = { C10 = 3, H10 = "1/2" } }\n')
    assert_same(spec)


THREE_TRICKS = """
players = ["A", "B", "C"]
trump = "clubs"
target = 40
declarer_points = 10
[hands]
A = ["HA", "SA", "S7"]
[unknown]
cards = ["HK", "HQ", "H9", "S10", "SK", "D7"]
sizes = { B = 3, C = 3 }
"""


@pytest.mark.parametrize(
    "history", ["A:HA B:H9 C:S10", "A:SA B:S10 C:SK", "A:HA B:HK C:HQ A:S7 B:S10 C:SK"]
)
def test_histories(history):
    """The rest of a game after a history, with its posterior as the prior."""
    assert_same(after_history(parse_spec(THREE_TRICKS), history))


@pytest.mark.parametrize("model", MODELS)
def test_a_history_of_the_whole_game(model):
    six = load_spec(REPO / "qcards" / "specs" / "six-card.toml")
    rest = after_history(six, "A:CA B:C10 C:C9 A:CK B:C8 C:H10")
    assert rest.num_tricks == 0
    assert fast.evaluate(rest, model) == referee.evaluate(rest, model)


@pytest.mark.slow  # the plain referee takes minutes for all 200 with every first card
@pytest.mark.parametrize("index", range(CROSSCHECK.COUNT), ids=CROSSCHECK.IDS)
def test_the_200_crosscheck_specs(index):
    assert_same(CROSSCHECK.SPECS[index])


# ----------------------------------------------------------------------------- the machinery


def test_128_bit_arithmetic():
    rng = random.Random(7)
    for _ in range(2000):
        a, b = rng.getrandbits(rng.randint(1, 120)), rng.getrandbits(rng.randint(1, 120))
        m = rng.getrandbits(rng.randint(1, 32))
        words = fast._words([a, b])
        hi, lo = memo.add128(words[0][0], words[1][0], words[0][1], words[1][1])
        assert (int(hi) << 64) + int(lo) == (a + b) % 2**128
        hi, lo = memo.mul128(words[0][0], words[1][0], np.uint64(m))
        assert (int(hi) << 64) + int(lo) == (a * m) % 2**128


def test_denominators_clear_every_trick():
    """D(h) / D(h-1) is a multiple of every product of legal counts in a trick."""
    for players in (2, 3, 4):
        d = cost.denominators(players, 8)
        for h in range(1, 9):
            step = d[h] // d[h - 1]
            assert d[h] % d[h - 1] == 0
            for counts in np.ndindex(*(h,) * min(players, 3)):
                product = h * int(np.prod([c + 1 for c in counts[1:]]))
                assert step % product == 0


def canonical_key(spec: Endgame, hands: dict[str, list[str]]) -> tuple[int, int]:
    tables = rule_tables(spec.trump)
    weak = tables.order.copy()
    for row in range(5):
        n = tables.order_len[row]
        weak[row, :n] = tables.order[row, :n][::-1]
    seat_of = np.full(32, -1, dtype=np.int64)
    alive = 0
    for seat, p in enumerate(spec.players):
        for c in hands.get(p, []):
            i = FULL_DECK.index(Card.parse(c))
            seat_of[i] = seat
            alive |= 1 << i
    return memo.canonical_key(
        alive, seat_of, weak, tables.order_len, tables.value, tables.suit_mask
    )


def test_canonical_keys_merge_equal_games_only():
    spec = load_spec(REPO / "qcards" / "specs" / "six-card.toml")  # spades trump
    key = canonical_key(spec, {"A": ["HA", "H8"], "B": ["H9", "C7"]})
    # the eight and the seven are the same card once the nine is gone; the printed ranks do
    # not matter, only the owners and points in order of strength
    assert key == canonical_key(spec, {"A": ["HA", "H7"], "B": ["H9", "C8"]})
    assert key == canonical_key(spec, {"A": ["HA", "H7"], "B": ["H8", "C7"]})
    # other owners in that order, other points, or another suit: another game
    assert key != canonical_key(spec, {"A": ["HA", "H9"], "B": ["H8", "C7"]})
    assert key != canonical_key(spec, {"A": ["H10", "H8"], "B": ["H9", "C7"]})
    assert key != canonical_key(spec, {"A": ["HA", "H8"], "B": ["H9", "D7"]})


@pytest.mark.parametrize("budget", [2**30, 4096], ids=["grown", "pruned"])
@pytest.mark.parametrize("model", MODELS)
def test_a_small_memo_gives_the_same_answer(monkeypatch, budget, model):
    """A memo that starts small grows; one held to a budget of 64 entries drops positions and
    solves them again, with the same answer."""
    spec = small_spec(3, 3, 4, trump="clubs", target=40)
    expected = fast.evaluate(spec, model)
    init = fast._Memo.__init__
    monkeypatch.setattr(
        fast._Memo, "__init__", lambda self, capacity=32: init(self, capacity, budget)
    )
    solver = fast._Solver(spec, model, 10**9)
    assert solver.evaluate(None) == expected
    assert solver.memo.table.shape[0] == 64 if budget == 4096 else solver.memo.table.shape[0] > 32
    assert (solver.search().prunes > 0) == (budget == 4096)


def test_one_memo_serves_every_first_card():
    spec = small_spec(4, 3, 4, trump="grand", target=30)
    solver = fast._Solver(spec, "random", 10**9)
    for card in spec.hands["A"]:
        assert solver.evaluate(card) == referee.evaluate(spec, "random", card)


# ----------------------------------------------------------------------------- refusals


def test_too_large_endgames_are_refused_before_any_work():
    full = load_spec(REPO / "qcards" / "specs" / "full-game.toml")
    with pytest.raises(ResourceError, match="more than the 10 minutes qcards plans for"):
        fast.evaluate(full)
    with pytest.raises(ResourceError):
        fast.recommend(full, "adversarial")


def test_the_estimate_follows_the_benchmark():
    """Fifteen cards in a second, twenty-one cards of the random model refused (the benchmark
    found no answer in ten minutes), the adversarial model's accepted (minutes)."""
    assert cost.estimate_seconds(resource_spec(5, skat=False)) < 5
    spec = resource_spec(7, skat=False)
    with pytest.raises(ResourceError, match="minutes"):
        cost.check_time(spec, model="random")
    assert cost.check_time(spec, model="adversarial") < current_limits().seconds


LIBRARY_REFEREE_CASES = [random_spec(*p) for p in generated_specs()[::4]] + [
    resource_spec(k, skat=False) for k in (3, 4)
]


def test_the_library_referee_cases_lie_on_both_sides_of_its_threshold():
    from qcards.skat.solvers.evaluation import PLAIN_PATHS
    from qcards.skat.solvers.plain_referee import estimate_paths

    paths = [estimate_paths(spec, None) for spec in LIBRARY_REFEREE_CASES]
    assert min(paths) <= PLAIN_PATHS < max(paths)


@pytest.mark.parametrize("spec", LIBRARY_REFEREE_CASES, ids=range(len(LIBRARY_REFEREE_CASES)))
def test_the_library_referee_answers_as_the_compiled_one(spec):
    """qcards.skat.solvers.evaluation hands tiny endgames to the plain referee (pure Python) and
    the rest to the compiled search: the same Evaluation as the compiled search alone."""
    from qcards.skat.solvers import evaluation

    for model in ("random", "adversarial"):
        assert evaluation.evaluate(spec, model) == fast.evaluate(spec, model)


def test_numerators_beyond_128_bits_are_refused():
    deck = [str(c) for c in FULL_DECK]
    spec = spec_from_dict(
        {"players": ["A", "B"], "hands": {"A": deck[:16], "B": deck[16:]}}, source="two-16"
    )
    with pytest.raises(ResourceError, match="128 bits"):
        fast.evaluate(spec, force=True)


def test_the_search_stops_at_its_budget():
    spec = small_spec(3, 3, 4, trump="clubs", target=40)
    with pytest.raises(ResourceError, match="budget"):
        fast._Solver(spec, "random", 10).evaluate(None)


def test_bad_requests_are_model_errors():
    six = load_spec(REPO / "qcards" / "specs" / "six-card.toml")
    with pytest.raises(ModelError, match="unknown model"):
        fast.evaluate(six, "optimal")
    with pytest.raises(ModelError, match="first card"):
        fast.evaluate(six, first=Card.parse("SA"))
    four = load_spec(REPO / "qcards" / "specs" / "four-card.toml")
    with pytest.raises(ModelError, match="no known cards"):
        fast.recommend(four)


def test_every_kind_of_game_is_covered():
    kinds = {random_spec(*params[:6]).trump for params in generated_specs(2)}
    assert kinds == set(Trump)


@pytest.mark.parametrize("model", MODELS)
def test_the_plain_referees_one_search_for_every_first_card(model):
    """``referee.evaluate_each`` shares its positions between first cards; each answer is the
    separate evaluation's."""
    six = load_spec(REPO / "qcards" / "specs" / "six-card.toml")
    firsts = first_cards(six)
    assert len(firsts) > 2
    together = referee.evaluate_each(six, model, firsts)
    assert together == [referee.evaluate(six, model, first) for first in firsts]
    assert len({(e.p_win, e.expected_points) for e in together}) > 1  # the first card matters
