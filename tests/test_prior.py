"""Priors over deals and the posterior of a history: against brute force, on the referee and
the circuits; bad priors and histories refused naming the field or the play."""

from __future__ import annotations

import json
import random
from fractions import Fraction

import pytest

import qcards
from qcards.circuits.oracle import build_win_circuit
from qcards.cli import main
from qcards.errors import ModelError, ParameterError, SpecError
from qcards.execution.sparse import engine as sparse
from qcards.skat.position.history import after_history
from qcards.skat.position.prior import partition_function
from qcards.skat.position.spec import SKAT, load_spec, parse_spec
from qcards.skat.rules.cards import SUIT_NAMES, Trump
from qcards.skat.solvers.plain_referee import evaluate

from conftest import REPO, all_deals, generated_specs, random_spec, spec_text

TOL = 1e-9
SIX = REPO / "qcards" / "specs" / "six-card.toml"
WEIGHTS = (2, 3, Fraction(1, 2), Fraction(2, 3), Fraction(5, 4))


def with_prior(spec, prior_toml: str):
    return parse_spec(spec.to_toml() + "[prior]\n" + prior_toml, source=spec.source)


def toml_weight(w: Fraction) -> str:
    return str(w.numerator) if w.denominator == 1 else f'"{w}"'


def random_prior(spec, rng: random.Random) -> tuple[str, dict]:
    """A random [prior] table for ``spec`` and the same as plain data for the brute force."""
    receivers = [r for r in spec.receivers]
    players = [p for p in receivers if p != SKAT]
    data: dict = {"void": {}, "holds": {}, "at_least": {}, "weight": {}}
    if players and rng.random() < 0.6:
        p = rng.choice(players)
        suits = sorted({c.suit for c in spec.unknown})
        data["void"][p] = [SUIT_NAMES[rng.choice(suits)]]
    if rng.random() < 0.5:
        data["holds"][rng.choice(receivers)] = [str(rng.choice(spec.unknown))]
    if players and spec.trump.suit is not None and rng.random() < 0.4:
        data["at_least"][rng.choice(players)] = {"trumps": 1}
    for _ in range(rng.randint(1, 3)):
        r, c = rng.choice(receivers), rng.choice(spec.unknown)
        data["weight"].setdefault(r, {})[str(c)] = rng.choice(WEIGHTS)
    lines = []
    for key in ("void", "holds"):
        if data[key]:
            inner = ", ".join(
                f'"{p}" = [{", ".join(json.dumps(v) for v in vs)}]' for p, vs in data[key].items()
            )
            lines.append(f"{key} = {{ {inner} }}")
    if data["at_least"]:
        inner = ", ".join(f'"{p}" = {{ trumps = 1 }}' for p in data["at_least"])
        lines.append(f"at_least = {{ {inner} }}")
    inner = ", ".join(
        f'"{r}" = {{ {", ".join(f"{c} = {toml_weight(w)}" for c, w in ws.items())} }}'
        for r, ws in data["weight"].items()
    )
    lines.append(f"weight = {{ {inner} }}")
    return "\n".join(lines) + "\n", data


def brute_weight(spec, data: dict, owner: dict) -> Fraction:
    """W(d) straight from the prior's definition (independent of qcards.skat.position.prior)."""
    rules = spec.rules
    for p, names in data["void"].items():
        for name in names:
            letter = {v: k for k, v in SUIT_NAMES.items()}[name]
            if letter == rules.trump.suit:  # failing to follow the trump suit: no trump at all
                banned = [c for c in owner if rules.is_trump(c)]
            else:  # a plain suit: its cards that are not trumps (jacks are, in suit and grand)
                banned = [c for c in owner if c.suit == letter and not rules.is_trump(c)]
            if any(owner[c] == p for c in banned):
                return Fraction(0)
    for r, cards in data["holds"].items():
        if any(owner[c] != r for c in (next(x for x in spec.cards if str(x) == s) for s in cards)):
            return Fraction(0)
    for p in data["at_least"]:
        if not any(q == p and rules.is_trump(c) for c, q in owner.items()):
            return Fraction(0)
    weight = Fraction(1)
    for r, ws in data["weight"].items():
        for c, w in ws.items():
            if owner[next(x for x in spec.cards if str(x) == c)] == r:
                weight *= Fraction(w)
    return weight


def open_spec(spec, owner):
    """The spec with the deal ``owner`` laid open (every hand known, the Skat as its points)."""
    hands = {p: spec.rules.sorted(c for c, q in owner.items() if q == p) for p in spec.players}
    skat = [c for c, q in owner.items() if q == SKAT]
    text = spec.to_toml().split("[hands]")[0]
    text = text.replace(
        f"declarer_points = {spec.declarer_points}",
        f"declarer_points = {spec.declarer_points + sum(c.value for c in skat)}",
    )
    text += "[hands]\n" + "\n".join(
        f'"{p}" = [{", ".join(json.dumps(str(c)) for c in h)}]' for p, h in hands.items()
    )
    return parse_spec(text + "\n")


def prior_cases():
    """(spec, prior text, prior data): random small specs with satisfiable random priors."""
    out = []
    for k, params in enumerate(generated_specs()[::2] + generated_specs(skat=True)[::2]):
        spec = random_spec(*params)
        if len(spec.unknown) < 2:
            continue
        rng = random.Random(100 + k)
        for _ in range(20):
            text, data = random_prior(spec, rng)
            try:
                out.append((with_prior(spec, text), text, data))
                break
            except SpecError:
                continue
    return out


CASES = prior_cases()


def test_the_cases_cover_constraints_and_weights():
    assert len(CASES) >= 20
    assert sum(bool(d["void"]) for _, _, d in CASES) >= 5
    assert sum(bool(d["holds"]) for _, _, d in CASES) >= 5
    assert sum(bool(d["at_least"]) for _, _, d in CASES) >= 3


@pytest.mark.parametrize("index", range(len(CASES)))
def test_referee_is_the_weighted_average_over_enumerated_deals(index):
    spec, _text, data = CASES[index]
    total, win, points = Fraction(0), Fraction(0), Fraction(0)
    for owner in all_deals(spec):
        weight = brute_weight(spec, data, owner)
        if not weight:
            continue
        laid_open = evaluate(open_spec(spec, owner))
        total += weight
        win += weight * laid_open.p_win
        points += weight * laid_open.expected_points
    assert total == partition_function(spec)
    referee = evaluate(spec)
    assert referee.p_win == win / total
    assert referee.expected_points == points / total


@pytest.mark.parametrize("construction", ["efficient", "paper"])
@pytest.mark.parametrize("index", range(0, len(CASES), 2))
def test_circuits_prepare_the_weighted_deal(index, construction):
    spec = CASES[index][0]
    report = qcards.evaluate(spec, method="sparse", construction=construction)
    referee = evaluate(spec)
    assert abs(report.p_win - float(referee.p_win)) < TOL
    assert abs(report.expected_points - float(referee.expected_points)) < TOL


@pytest.mark.parametrize("index", range(1, len(CASES), 5))
def test_weighted_deal_on_dense_simulators_and_the_oracle(index):
    spec = CASES[index][0]
    referee = evaluate(spec)
    report = qcards.evaluate(spec, method="statevector", construction="paper")
    assert abs(report.p_win - float(referee.p_win)) < TOL
    report = qcards.evaluate(spec, method="ddsim", construction="efficient")
    assert abs(report.p_win - float(referee.p_win)) < TOL
    win = build_win_circuit(spec)
    p = sparse.simulate(win.circuit).probabilities([win.objective]).get(1, 0.0)
    assert abs(p - float(referee.p_win)) < TOL


def test_hardware_construction_with_a_prior():
    spec = with_prior(parse_spec(SIX.read_text()), 'weight = { B = { C10 = 3, H10 = "1/2" } }\n')
    report = qcards.evaluate(spec, method="statevector", construction="hardware")
    assert abs(report.p_win - float(evaluate(spec).p_win)) < TOL


# ----------------------------------------------------------------------------- parsing


def test_weights_are_read_as_exact_rationals():
    spec = with_prior(
        parse_spec(SIX.read_text()), 'weight = { B = { C10 = 0.1, C9 = "2/3", C8 = 2.0 } }\n'
    )
    by_name = {str(c): w for c, w in spec.prior.weight["B"].items()}
    assert by_name == {"C10": Fraction(1, 10), "C9": Fraction(2, 3), "C8": Fraction(2)}
    assert parse_spec(spec.to_toml()) == spec


def test_a_void_of_the_trump_suit_is_a_void_in_trumps():
    """Spades trump: failing to follow spades shows no spade and no jack."""
    text = """
players = ["A", "B"]
trump = "spades"
[hands]
A = ["SA", "HA"]
[unknown]
cards = ["CJ", "S7", "H7", "HK"]
sizes = { B = 2, skat = 2 }
[prior]
void = { B = ["spades"] }
"""
    spec = parse_spec(text)
    for owner in all_deals(spec):
        if spec.prior.deal_weight(spec, owner):
            assert not any(q == "B" and spec.rules.is_trump(c) for c, q in owner.items())
    assert evaluate(spec).num_deals == 1  # B holds H7 and HK


BAD_PRIORS = [
    ("weight = { B = { C10 = 0 } }", "prior.weight.B.C10", "> 0"),
    ("weight = { B = { C10 = -1.5 } }", "prior.weight.B.C10", "> 0"),
    ("weight = { B = { C10 = nan } }", "prior.weight.B.C10", "finite"),
    ('weight = { B = { C10 = "x" } }', "prior.weight.B.C10", "fraction"),
    ("weight = { B = { CA = 2 } }", "prior.weight.B.CA", "not an unknown card"),
    ('void = { A = ["clubs"] }', "prior.void.A", "known hand holds CA CK"),
    ('void = { B = ["clubs"], C = ["clubs"] }', "prior", "no deal"),
    ('holds = { B = ["CA"] }', "prior.holds.B", "A's known hand"),
    ('holds = { B = ["C10"], C = ["C10"] }', "prior.holds.C", "also held by B"),
    ("at_least = { B = { trumps = 1 } }", "prior", "no deal"),
    ("at_least = { B = { clubs = 3 } }", "prior", "no deal"),
    ('void = { B = ["cups"] }', "prior.void.B", "unknown category"),
    ('void = { Z = ["clubs"] }', "prior.void.Z", "unknown receiver"),
    ('colour = { B = ["clubs"] }', "prior.colour", "unknown field"),
]


@pytest.mark.parametrize("prior,field,message", BAD_PRIORS, ids=[b[0] for b in BAD_PRIORS])
def test_bad_priors_are_refused_naming_the_field(tmp_path, capsys, prior, field, message):
    path = tmp_path / "bad.toml"
    path.write_text(SIX.read_text() + "\n[prior]\n" + prior + "\n")
    assert main(["evaluate", str(path)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("error: ")
    assert f"field '{field}'" in err[0] and message in err[0] and str(path) in err[0]


def test_trumps_in_a_null_game_are_refused():
    spec = parse_spec(SIX.read_text())
    text = spec.to_toml().replace('"spades"', '"null"').replace("target = 61\n", "")
    with pytest.raises(SpecError, match="prior.at_least.B.trumps.*no trumps"):
        parse_spec(text + "[prior]\nat_least = { B = { trumps = 1 } }\n")


# ----------------------------------------------------------------------------- history


def posterior_of_b(spec) -> dict[tuple[str, ...], Fraction]:
    """B's hands (sorted card names) over the deals of positive weight, each with its weight
    normalised to a sum of 1: the posterior of B's hand."""
    weights = {}
    for owner in all_deals(spec):
        w = spec.prior.deal_weight(spec, owner)
        if w:
            weights[tuple(sorted(str(c) for c, q in owner.items() if q == "B"))] = w
    z = sum(weights.values())
    return {k: v / z for k, v in weights.items()}


def test_history_posterior_equals_bayes_rule_by_hand():
    """Six-card example, history A:CK B:C10 C:C9 (one trick, B and C follow clubs).

    The deals (B's hand; C gets the rest) and the likelihood of the history under random play,
    by hand: A leads CK from {CA, CK}: 1/2 in every deal. B plays C10 from its clubs, C plays C9
    from its clubs:

    ==============  ==============  ======  ======  ==========
    B               C               P(B)    P(C)    likelihood
    ==============  ==============  ======  ======  ==========
    C10 C9          C8 H10          0       -       0 (B holds C9, C plays it)
    C10 C8          C9 H10          1/2     1       1/4
    C10 H10         C9 C8           1       1/2     1/4
    others          -               0       -       0
    ==============  ==============  ======  ======  ==========

    So the two deals have posterior 1/2 each. Then A (CA left) leads? No: C10 took the trick
    (C10 beats CK and C9), so B leads its last card: C8 (deal 1) or H10 (deal 2). Deal 1: B
    leads C8, A plays CA and takes C8 + H10 from C: A wins the trick; deal 2: B leads H10, A
    discards CA, C plays C8; B takes it. A's points: 40 + 0 (first trick lost) + (11 + 0 + 10)
    = 61 in deal 1, 40 in deal 2: p_win = 1/2, expected points (61 + 40)/2 = 101/2.
    """
    spec = parse_spec(SIX.read_text())
    rest = after_history(spec, "A:CK B:C10 C:C9")
    assert rest.leader == "B" and rest.declarer_points == 40
    assert [str(c) for c in rest.hands["A"]] == ["CA"]
    assert posterior_of_b(rest) == {("C8",): Fraction(1, 2), ("H10",): Fraction(1, 2)}
    referee = evaluate(rest)
    assert referee.p_win == Fraction(1, 2) and referee.expected_points == Fraction(101, 2)
    for construction in ("efficient", "paper"):
        report = qcards.evaluate(rest, method="sparse", construction=construction)
        assert abs(report.p_win - 0.5) < TOL and abs(report.expected_points - 50.5) < TOL


THREE_TRICKS = """
players = ["A", "B", "C"]
trump = "clubs"
[hands]
A = ["HA", "SA", "S7"]
[unknown]
cards = ["HK", "HQ", "H9", "S10", "SK", "D7"]
sizes = { B = 3, C = 3 }
"""


def test_history_likelihood_is_not_uniform():
    """Three tricks, B follows hearts from a hand whose heart count differs between deals: the
    posterior weighs the deals by 1/(hearts held), checked against brute force."""
    spec = parse_spec(THREE_TRICKS)
    rest = after_history(spec, "A:HA B:H9 C:S10")  # C fails to follow hearts: C void in hearts
    # brute force: B holds H9 and both other hearts (C has none); C holds S10 and two others
    weights = {}
    for owner in all_deals(spec):
        hand = {p: [c for c, q in owner.items() if q == p] for p in ("B", "C")}
        b_hearts = [c for c in hand["B"] if c.suit == "H"]
        c_hearts = [c for c in hand["C"] if c.suit == "H"]
        if "H9" not in map(str, hand["B"]) or "S10" not in map(str, hand["C"]) or c_hearts:
            continue
        weights[tuple(sorted(str(c) for c in hand["B"] if str(c) != "H9"))] = Fraction(
            1, len(b_hearts)
        ) * Fraction(1, 3)
    z = sum(weights.values())
    assert posterior_of_b(rest) == {k: v / z for k, v in weights.items()}
    report = qcards.evaluate(rest, method="sparse")
    assert abs(report.p_win - float(evaluate(rest).p_win)) < TOL


BAD_HISTORIES = [
    ("B:CA C:C10 A:CK", "it is A's turn"),
    ("A:CA B:C10", "end of a trick"),
    ("A:CA B:CK C:C9", "in A's known hand"),
    ("A:CA B:C10 C:C10", "already played"),
    ("A:CA B:C10 C:H10", "no deal is consistent"),  # C void in clubs, but holds two clubs
    ("A:CA B:C10 C:C9 A:CK B:C8 C:H10 A:CQ B:C7 C:H9", "the game has 6 to play"),
    ("A:CA B:XX C:C9", "unknown card"),
    ("A-CA", "PLAYER:CARD"),
]


@pytest.mark.parametrize("history,message", BAD_HISTORIES, ids=[h for h, _ in BAD_HISTORIES])
def test_bad_histories_are_refused(capsys, history, message):
    assert main(["evaluate", str(SIX), "--history", history]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("error: --history") and message in err[0]


@pytest.mark.parametrize("model", ["random", "adversarial"])
def test_a_history_of_the_whole_game_is_answered(model):
    """Every card played: the outcome is known (A's ace takes the first trick and the second,
    11 + 10 + 0 and 4 + 0 + 10 points on top of 40: 75, a win); the referee answers it, and a
    circuit method is refused (there is no circuit left), not replaced."""
    rest = after_history(load_spec(SIX), "A:CA B:C10 C:C9 A:CK B:C8 C:H10")
    report = qcards.evaluate(rest, model=model)
    assert (report.p_win_exact, report.expected_points) == (Fraction(1), 75.0)
    assert report.method == "classical"
    assert main(["evaluate", str(SIX), "--history", "A:CA B:C10 C:C9 A:CK B:C8 C:H10"]) == 0
    with pytest.raises(ParameterError, match="no circuit to run"):
        qcards.evaluate(rest, method="statevector")
    sampled = qcards.evaluate(rest, model=model, shots=20)  # exact, and says no shot is drawn
    assert sampled.p_win_exact == Fraction(1) and "no shot is drawn" in sampled.method_reason
    if model == "adversarial":  # the double-dummy value of a finished game is its outcome
        assert qcards.evaluate(rest, model=model, method="double-dummy").p_win_exact == 1


def test_a_known_hand_must_follow():
    text = SIX.read_text().replace('leader = "A"', 'leader = "B"').replace('"CK"', '"H7"')
    spec = parse_spec(text)
    with pytest.raises(ModelError, match="A must follow with CA"):
        after_history(spec, "B:C10 C:C9 A:H7")
    rest = after_history(spec, "B:H10 C:C9 A:H7")  # C fails to follow hearts: void
    assert rest.prior.void == {"C": ("hearts",)}


def test_a_player_void_earlier_cannot_play_the_suit_later():
    spec = parse_spec(
        """
players = ["A", "B", "C"]
trump = "grand"
[hands]
A = ["CA", "H7", "D7", "D8"]
[unknown]
cards = ["C10", "C9", "C8", "HK", "S7", "S8", "S9", "SK"]
sizes = { B = 4, C = 4 }
"""
    )
    with pytest.raises(ModelError, match="play 7 .*failed to follow this suit before"):
        after_history(spec, "A:CA B:S7 C:C10 A:H7 B:HK C:C9 B:C8 C:S8 A:D7")


# ----------------------------------------------------------------------------- declare


def test_declare_ranks_every_game_type(capsys):
    assert main(["declare", str(SIX), "--json"]) == 0
    games = json.loads(capsys.readouterr().out)["games"]
    assert {g["game"] for g in games} == {"clubs", "spades", "hearts", "diamonds", "grand", "null"}
    spec = parse_spec(SIX.read_text())
    for g in games:
        trump = Trump(g["game"])
        text = spec.to_toml().replace('"spades"', f'"{trump.value}"')
        if trump.is_null:
            text = text.replace("target = 61\n", "")
        assert Fraction(g["p_win_exact"]) == evaluate(parse_spec(text)).p_win
        assert abs(g["p_win"] - float(Fraction(g["p_win_exact"]))) < TOL
    ranking = [(g["p_win"], g["expected_points"]) for g in games]
    assert ranking == sorted(ranking, reverse=True)
    assert games[0]["game"] == "clubs"  # the declarer's ace and king become trumps


def test_declare_reports_a_refused_game(tmp_path, capsys):
    path = tmp_path / "trumps.toml"
    path.write_text(SIX.read_text() + "\n[prior]\nat_least = { C = { trumps = 0 } }\n")
    assert main(["declare", str(path), "--json", "--method", "classical"]) == 0
    games = json.loads(capsys.readouterr().out)["games"]
    assert games[-1]["game"] == "null" and "no trumps" in games[-1]["refused"]
    assert all("p_win" in g for g in games[:-1])


VOID_IN_TRUMPS = spec_text("void-in-trumps")


def test_declare_ranks_the_others_when_the_specs_own_game_is_impossible(tmp_path, capsys):
    """Both defenders void in trumps, yet a trump (S8) is unknown: no deal exists as a spades
    game, so `evaluate` refuses the spec; `declare` lists spades as refused with the reason and
    still ranks the games in which S8 is no trump (clubs and grand: the declarer's ace and
    king of clubs take both tricks)."""
    path = tmp_path / "void.toml"
    path.write_text(VOID_IN_TRUMPS)
    assert main(["evaluate", str(path)]) == 2
    capsys.readouterr()
    assert main(["declare", str(path), "--json", "--method", "classical"]) == 0
    games = {g["game"]: g for g in json.loads(capsys.readouterr().out)["games"]}
    assert "no deal" in games["spades"]["refused"]
    assert games["clubs"]["p_win_exact"] == "1/1" and games["grand"]["p_win_exact"] == "1/1"
    assert "no trumps" in games["null"]["refused"]


def test_declare_with_no_playable_game_is_one_error(tmp_path, capsys):
    path = tmp_path / "none.toml"
    path.write_text(VOID_IN_TRUMPS.replace('"trumps"', '"hearts"').replace('"S8"', '"H10"'))
    assert main(["declare", str(path), "--method", "classical"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "no deal" in err[0]


# ----------------------------------------------------------------------------- likelihood


def test_a_posterior_is_written_and_read_back():
    rest = after_history(parse_spec(THREE_TRICKS), "A:HA B:H9 C:HK")
    assert rest.prior.likelihood
    again = parse_spec(rest.to_toml())
    assert again == rest and evaluate(again) == evaluate(rest)


@pytest.mark.parametrize(
    "first,second",
    [("A:HA B:H9 C:HK", "A:S7 B:SK C:HQ"), ("A:SA B:S10 C:D7", "A:HA B:HK C:H9")],
)
def test_two_histories_in_turn_equal_one(first, second):
    """Conditioning on one trick, then on the next, is conditioning on both (Bayes' rule)."""
    spec = parse_spec(THREE_TRICKS)
    try:
        whole = after_history(spec, f"{first} {second}")
    except ModelError as exc:
        pytest.fail(f"the combined history is refused: {exc}")
    in_turn = after_history(after_history(spec, first), second)
    assert evaluate(in_turn) == evaluate(whole)
    assert partition_function(in_turn) > 0
    for construction in ("efficient", "paper"):
        report = qcards.evaluate(in_turn, method="sparse", construction=construction)
        assert abs(report.p_win - float(evaluate(whole).p_win)) < TOL


BAD_LIKELIHOODS = [
    ('likelihood = [{ holder = "B", cards = ["C10"], factors = ["1"] }]', "[1].factors", "needs 2"),
    (
        'likelihood = [{ holder = "B", cards = ["CA"], factors = [1, 1] }]',
        "[1].cards",
        "not unknown",
    ),
    ('likelihood = [{ holder = "Z", cards = ["C10"], factors = [1, 1] }]', "[1].holder", "unknown"),
    ('likelihood = [{ holder = "B", cards = ["C10"], factors = [1, -1] }]', "[1].factors", ">= 0"),
    ('likelihood = [{ holder = "B", cards = ["C10"] }]', "likelihood[1]", "exactly"),
    ('likelihood = [{ holder = "B", cards = ["C10"], factors = [0, 0] }]', "prior", "no deal"),
]


@pytest.mark.parametrize(
    "prior,field,message", BAD_LIKELIHOODS, ids=[b[1] + b[2] for b in BAD_LIKELIHOODS]
)
def test_bad_likelihoods_are_refused(tmp_path, capsys, prior, field, message):
    path = tmp_path / "bad.toml"
    path.write_text(SIX.read_text() + "\n[prior]\n" + prior + "\n")
    assert main(["evaluate", str(path)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and field in err[0] and message in err[0]


def test_the_deal_count_is_the_multinomial_every_caller_shares():
    """One multinomial for the referee's deal count, the uniform partition function, the deal
    gate and Go Fish: equal to the factorial formula and to the deals the referee lists."""
    import math

    from qcards.skat.deals.count import multinomial, num_deals
    from qcards.skat.deals.enumeration import deals

    for sizes in [(), (0,), (3,), (2, 2, 2), (4, 0, 1), (5, 5, 2), (1, 1, 1, 1)]:
        formula = math.factorial(sum(sizes)) // math.prod(math.factorial(s) for s in sizes)
        assert multinomial(sizes) == formula, sizes
    with pytest.raises(ValueError):
        multinomial((2, -1))
    for name in ("four-card", "six-card"):
        spec = load_spec(REPO / "qcards" / "specs" / f"{name}.toml")
        assert num_deals(spec) == len(list(deals(spec))) == partition_function(spec)
