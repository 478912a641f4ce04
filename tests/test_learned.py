"""The learned play model: its features, its model file, its policy, its training."""

from __future__ import annotations

import hashlib
import json
import math
import pickle
import sys

import numpy as np
import pytest

from qcards.analysis.evaluate import evaluate
from qcards.analysis.match import match
from qcards.analysis.match_players import parse_player
from qcards.analysis.train import (
    decode_position,
    encode_position,
    fit_network,
    generate_positions,
    read_positions,
    train,
)
from qcards.cli import main
from qcards.errors import FileError, ModelError, ParameterError, ResourceError
from qcards.skat.learned.features import FEATURE_NAMES, NUM_FEATURES, card_features
from qcards.skat.learned.network import (
    ENVIRONMENT,
    SHIPPED,
    LearnedPolicy,
    load_network,
    metadata,
    model_file,
    save_network,
)
from qcards.skat.players.play_models import POLICY, get_model
from qcards.skat.position.seat_view import seat_view
from qcards.skat.position.spec import load_spec
from qcards.skat.rules.cards import FULL_DECK, Trump, rules_of

GAMES = (Trump.CLUBS, Trump.SPADES, Trump.HEARTS, Trump.DIAMONDS, Trump.GRAND, Trump.NULL)
FOUR_CARD = "qcards/specs/four-card.toml"


def random_views(count: int, seed: int = 0):
    """``count`` positions of random deals after random prefixes of random play."""
    rng = np.random.default_rng(seed)
    out = []
    while len(out) < count:
        deck = [FULL_DECK[i] for i in rng.permutation(len(FULL_DECK))]
        rules = rules_of(GAMES[rng.integers(len(GAMES))])
        hands = [set(deck[10 * k : 10 * k + 10]) for k in range(3)]
        skat = frozenset(deck[30:])
        cards = frozenset(deck)
        leader, trick, start = 0, [], [frozenset(h) for h in hands]
        for _ in range(int(rng.integers(30))):
            seat = (leader + len(trick)) % 3
            legal = rules.legal_cards(hands[seat], trick[0] if trick else None)
            card = legal[rng.integers(len(legal))]
            trick.append(card)
            hands[seat].discard(card)
            if len(trick) == 3:
                leader = (leader + rules.trick_winner(trick)) % 3
                trick, start = [], [frozenset(h) for h in hands]
        out.append(seat_view(rules, cards, tuple(start), leader, tuple(trick), skat))
    return out


def test_registered_as_a_policy_model():
    model = get_model("learned")
    assert model.kind == POLICY and not model.exact and model.policy == LearnedPolicy()


def test_features_have_their_names_and_a_row_per_legal_card():
    for view in random_views(50):
        x = card_features(view)
        assert x.shape == (len(view.legal), NUM_FEATURES) == (len(view.legal), len(FEATURE_NAMES))
        assert np.all(np.isfinite(x))


def test_the_features_top_and_wins_now_are_the_seat_views():
    top, wins = FEATURE_NAMES.index("top"), FEATURE_NAMES.index("wins_now")
    for view in random_views(400, seed=5):
        x = card_features(view)
        assert list(x[:, top]) == [float(view.top(c)) for c in view.legal]
        assert list(x[:, wins]) == [float(view.wins_now(c)) for c in view.legal]


def test_the_shipped_model_loads_the_same_twice():
    a, b = load_network(SHIPPED), load_network(SHIPPED)
    assert all(np.array_equal(x, y) for x, y in zip(a.weights, b.weights, strict=True))
    assert all(np.array_equal(x, y) for x, y in zip(a.biases, b.biases, strict=True))
    view = random_views(1, seed=3)[0]
    policy = LearnedPolicy(str(SHIPPED))
    assert policy(view) == LearnedPolicy(str(SHIPPED))(view)
    assert pickle.loads(pickle.dumps(policy))(view) == policy(view)


@pytest.mark.parametrize("count", [pytest.param(10_000, marks=pytest.mark.slow), 1_000])
def test_plays_only_legal_cards_with_weights_summing_to_one(count):
    policy = get_model("learned").policy
    for view in random_views(count, seed=count):
        weights = policy(view)
        assert set(weights) == set(view.legal)
        assert all(w >= 0 for w in weights.values())
        assert math.isclose(sum(weights.values()), 1.0, abs_tol=1e-12)


def test_the_temperature_sharpens_the_policy():
    view = next(v for v in random_views(100, seed=5) if len(v.legal) > 2)
    warm, cold = LearnedPolicy(temperature=10.0)(view), LearnedPolicy(temperature=0.01)(view)
    assert max(cold.values()) > max(warm.values())


# ----------------------------------------------------------------------------- bad files


def _save(path, layers=(NUM_FEATURES, 4, 1), **change):
    rng = np.random.default_rng(0)
    arrays = {}
    for i in range(len(layers) - 1):
        arrays[f"w{i}"] = rng.normal(size=(layers[i], layers[i + 1]))
        arrays[f"b{i}"] = np.zeros(layers[i + 1])
    meta = metadata(tuple(layers), 1.0, {})
    meta.update(change.pop("meta", {}))
    arrays.update(change)
    arrays = {k: v for k, v in arrays.items() if v is not None}
    with open(path, "wb") as f:
        np.savez(f, metadata=np.array(json.dumps(meta)), **arrays)
    return path


def _bad_files(tmp_path):
    text = tmp_path / "text.npz"
    text.write_text("not a model")
    single = tmp_path / "single.npy"
    np.save(single, np.zeros(3))
    nan = np.zeros((NUM_FEATURES, 4))
    nan[0, 0] = np.nan
    return {
        "no such file": tmp_path / "missing.npz",
        "not a NumPy .npz": text,
        "a single array": single,
        "shape": _save(tmp_path / "shape.npz", w0=np.zeros((3, 4))),
        "NaN": _save(tmp_path / "nan.npz", w0=nan),
        "feature version": _save(tmp_path / "version.npz", meta={"feature_version": 0}),
        "no array 'b0'": _save(tmp_path / "missing-array.npz", b0=None),
        "unexpected array": _save(tmp_path / "extra.npz", w9=np.zeros(1)),
        "temperature": _save(tmp_path / "temperature.npz", meta={"temperature": 0}),
        "layers": _save(tmp_path / "layers.npz", meta={"layers": [NUM_FEATURES, 4, 2]}),
        "format": _save(tmp_path / "format.npz", meta={"format": "other"}),
    }


def test_a_good_file_loads(tmp_path):
    net = load_network(_save(tmp_path / "good.npz"))
    assert [w.shape for w in net.weights] == [(NUM_FEATURES, 4), (4, 1)]


def test_bad_model_files_raise_model_errors_naming_the_file(tmp_path):
    for what, path in _bad_files(tmp_path).items():
        with pytest.raises(ModelError) as info:
            load_network(path)
        assert str(path) in str(info.value) and what in str(info.value), (what, info.value)


def test_a_bad_model_file_is_one_cli_error_line(tmp_path, monkeypatch, capsys):
    bad = _bad_files(tmp_path)["NaN"]
    monkeypatch.setenv(ENVIRONMENT, str(bad))
    assert main(["evaluate", FOUR_CARD, "--model", "learned", "--quiet"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("error:") and str(bad) in err
    monkeypatch.delenv(ENVIRONMENT)
    args = ["match", "--player", f"learned:{bad}", "--player", "random", "--player", "random"]
    assert main([*args, "--deals", "1", "--quiet"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--player" in err and str(bad) in err


def test_a_player_plays_its_own_model_file(tmp_path):
    path = _save(tmp_path / "good.npz")
    player = parse_player(f"learned:{path}")
    assert player.label == f"learned:{path}" and player != parse_player("learned")
    result = match([player, "random", "random"], 1, seed=2)
    assert result.to_json()["players"][0] == f"learned:{path}"


# ----------------------------------------------------------------------------- the engines


@pytest.mark.parametrize("path", [FOUR_CARD, "qcards/specs/six-card.toml"])
def test_sparse_equals_classical_and_monte_carlo_within_its_interval(path):
    spec = load_spec(path)
    classical = evaluate(spec, model="learned", method="classical")
    sparse = evaluate(spec, model="learned", method="sparse")
    assert abs(sparse.p_win - classical.p_win) < 1e-9
    assert abs(sparse.expected_points - classical.expected_points) < 1e-9
    sampled = evaluate(spec, model="learned", shots=4000, seed=1)
    low, high = sampled.to_json()["ci"]
    assert low <= classical.p_win <= high


# ----------------------------------------------------------------------------- training


def test_positions_round_trip():
    view = random_views(1, seed=7)[0]
    position = decode_position(json.loads(json.dumps(encode_position(view, view.legal[0]))))
    assert position.view == view and position.label == view.legal[0]


def test_positions_are_written_game_by_game_and_resumed(tmp_path):
    path = tmp_path / "positions.jsonl"
    first = generate_positions(path, 2, 1, seed=4)
    assert read_positions(path)[1] == first
    both = generate_positions(path, 3, 1, seed=4)
    assert both[:2] == first and len(both) == 3
    assert generate_positions(tmp_path / "fresh.jsonl", 3, 1, seed=4) == both
    for rows in both:
        for row in rows:
            position = decode_position(row)
            assert position.label in position.view.legal and len(position.view.legal) > 1
    with pytest.raises(ParameterError, match="seed"):
        generate_positions(path, 3, 1, seed=5)


@pytest.mark.slow
def test_positions_labelled_on_dask_workers_are_the_loops_and_gaps_are_filled(tmp_path):
    here = generate_positions(tmp_path / "here.jsonl", 3, 1, seed=4)
    path = tmp_path / "dask.jsonl"
    assert generate_positions(path, 3, 1, seed=4, scheduler="local") == here
    # a parallel run stopped with game 1 done before game 0: the games before the gap are read
    # (the workers' lines are in the order their games finished: game 1's is picked by number)
    header, *games = path.read_text().splitlines()
    game_one = next(line for line in games if json.loads(line)["game"] == 1)
    path.write_text("\n".join([header, game_one]) + "\n")
    assert read_positions(path)[1] == []
    assert generate_positions(path, 3, 1, seed=4) == here
    assert read_positions(path)[1] == here
    # a run stopped while appending a game: that game's line, cut short, is labelled again
    text = path.read_text()
    path.write_text(text[: len(text) - 20])
    assert len(read_positions(path)[1]) == 2
    assert generate_positions(path, 3, 1, seed=4) == here and read_positions(path)[1] == here


def separable(n: int = 600) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Positions whose label is the legal card with the highest first feature (some with
    fewer than ten legal cards)."""
    rng = np.random.default_rng(0)
    x = rng.normal(size=(n, 10, NUM_FEATURES))
    mask = np.ones((n, 10), dtype=bool)
    mask[:, 7:] = rng.random((n, 3)) < 0.5
    y = np.argmax(np.where(mask, x[:, :, 0], -np.inf), axis=1)
    return x, mask, y


def test_positions_of_the_models_own_play_record_the_model_and_are_not_mixed(tmp_path, capsys):
    path = tmp_path / "own.jsonl"
    own = generate_positions(path, 2, 1, seed=4, behaviour="learned")
    header = read_positions(path)[0]
    assert header["behaviour"] == "learned"
    assert header["behaviour_model"] == hashlib.sha256(model_file().read_bytes()).hexdigest()
    assert own != generate_positions(tmp_path / "heuristic.jsonl", 2, 1, seed=4)  # other games
    assert "behaviour_model" not in read_positions(tmp_path / "heuristic.jsonl")[0]
    with pytest.raises(ParameterError, match="behaviour"):
        generate_positions(path, 2, 1, seed=4)  # the heuristic's games into the learned's file
    for bad in ("nope", "exec:cat"):
        with pytest.raises(ParameterError, match="behaviour") as caught:
            train(tmp_path / "m.npz", games=1, behaviour=bad)
        assert caught.value.parameter == "behaviour"
    out = str(tmp_path / "m.npz")
    assert main(["train", "--games", "1", "--out", out, "--behaviour", "x"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: --behaviour 'x': unknown") and err.count("\n") == 1
    assert sorted(p.name for p in tmp_path.iterdir()) == ["heuristic.jsonl", "own.jsonl"]


@pytest.mark.slow  # labels ten games and fits twice: about 25 s
def test_earlier_positions_files_are_fitted_too(tmp_path):
    generate_positions(tmp_path / "earlier.jsonl", 10, 1, seed=4)
    alone = train(tmp_path / "alone.npz", games=10, worlds=1, epochs=1, hidden=4, seed=5)
    both = train(tmp_path / "both.npz", games=10, worlds=1, epochs=1, hidden=4, seed=5,
                 also=(tmp_path / "earlier.jsonl",))  # fmt: skip
    earlier = read_positions(tmp_path / "earlier.jsonl")[1]
    assert both.games == 20 and both.positions == alone.positions + sum(map(len, earlier))
    training = load_network(tmp_path / "both.npz").metadata["training"]
    assert training["also"] == [read_positions(tmp_path / "earlier.jsonl")[0]]
    with pytest.raises(FileError, match="nothing.jsonl"):
        train(tmp_path / "m.npz", games=1, worlds=1, also=(tmp_path / "nothing.jsonl",))


@pytest.mark.slow
def test_training_resumes_from_its_checkpoint(tmp_path):
    x, mask, y = separable()
    straight, loss, agree = fit_network(x, mask, y, 8, 30, seed=1)
    ckpt = tmp_path / "ckpt.npz"
    fit_network(x, mask, y, 8, 15, seed=1, checkpoint=ckpt)
    resumed, resumed_loss, _ = fit_network(x, mask, y, 8, 30, seed=1, checkpoint=ckpt)
    for a, b in zip(straight, resumed, strict=True):
        np.testing.assert_allclose(a, b, rtol=0, atol=1e-6)
    assert resumed_loss == pytest.approx(loss, abs=1e-6)
    assert agree > 0.5  # learnt the rule (a uniform guess agrees a tenth of the time)


def test_training_lowers_the_loss():
    x, mask, y = separable()
    first = fit_network(x, mask, y, 8, 1, seed=2)[1]
    last = fit_network(x, mask, y, 8, 20, seed=2)[1]
    assert math.isfinite(first) and last < 0.8 * first


def test_train_without_jax_names_the_extra(tmp_path, monkeypatch, capsys):
    for module in ("jax", "optax"):
        monkeypatch.setitem(sys.modules, module, None)  # import fails, find_spec raises
    out = tmp_path / "m.npz"
    assert main(["train", "--games", "1", "--worlds", "1", "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("error: ")
    assert "qcards[train]" in err
    assert not list(tmp_path.iterdir())  # refused before labelling anything


def test_a_run_past_the_time_limit_is_refused_before_it_starts(tmp_path):
    with pytest.raises(ResourceError, match="games"):
        train(tmp_path / "m.npz", games=100_000)
    assert not list(tmp_path.iterdir())


def test_save_and_load_round_trip(tmp_path):
    rng = np.random.default_rng(1)
    weights = [rng.normal(size=(NUM_FEATURES, 3)), rng.normal(size=(3, 1))]
    biases = [np.zeros(3), np.zeros(1)]
    save_network(tmp_path / "m.npz", weights, biases, 0.7, {"note": "test"})
    net = load_network(tmp_path / "m.npz")
    assert net.temperature == 0.7 and net.metadata["training"] == {"note": "test"}
    assert np.array_equal(net.weights[0], weights[0])


@pytest.mark.slow
def test_a_tiny_model_trained_from_scratch_beats_random(tmp_path):
    out = tmp_path / "tiny.npz"
    result = train(out, games=20, worlds=1, epochs=60, hidden=16, seed=1)
    assert result.positions > 200 and result.held_out_agreement > 0.3
    played = match([f"learned:{out}", "random", "random"], 100, seed=3)
    for i, j, mean, (low, high) in played.differences()[:2]:
        assert i == 0 and low > 0, (j, mean, low, high)  # ahead of each random player


@pytest.mark.slow
def test_a_finished_checkpoint_returns_its_loss_and_one_further_on_is_ignored(tmp_path):
    x, mask, y = separable()
    ckpt = tmp_path / "ckpt.npz"
    first, loss, _ = fit_network(x, mask, y, 8, 10, seed=1, checkpoint=ckpt)
    again, again_loss, _ = fit_network(x, mask, y, 8, 10, seed=1, checkpoint=ckpt)
    assert again_loss == pytest.approx(loss) and math.isfinite(again_loss)
    for a, b in zip(first, again, strict=True):
        np.testing.assert_array_equal(a, b)
    fewer, _, _ = fit_network(x, mask, y, 8, 5, seed=1, checkpoint=ckpt)
    straight, _, _ = fit_network(x, mask, y, 8, 5, seed=1)
    for a, b in zip(fewer, straight, strict=True):
        np.testing.assert_allclose(a, b, rtol=0, atol=1e-6)
