"""The ``learned`` play model's network and its model file, in plain NumPy.

The network is a small multilayer perceptron that scores one legal card from its features
(:func:`~qcards.skat.learned.features.card_features`), the same weights for every card; the
policy is the softmax of the scores over the legal cards divided by a temperature, so it is a
distribution over the legal cards only (:class:`LearnedPolicy`).

A model file is a NumPy ``.npz`` of named arrays, read without pickles: ``w0, b0, w1, b1, ...``
(layer ``i`` maps its inputs by ``x @ w_i + b_i``, ReLU between layers) and ``metadata``, a
JSON text: ``format``, ``feature_version`` and ``features`` (the names of the inputs),
``layers`` (the sizes, inputs first, outputs last), ``temperature`` and ``training`` (how it
was made: free-form). Which format, features and outputs a file must have is its kind
(:class:`NetworkKind`): :data:`PLAY`, the play model's (one score out, the features of
:data:`~qcards.skat.learned.features.FEATURE_NAMES`), or the hand evaluator's
(:data:`qcards.skat.learned.hand_value.HAND`). :func:`load_network` checks all of it and raises
:class:`~qcards.errors.ModelError` naming the file and what is wrong; loading the same file
twice gives the same weights.

The ``learned`` model reads the file that :data:`ENVIRONMENT` names when set, else the model
shipped in the package (:data:`SHIPPED`), when it first plays: importing this module reads
nothing.
"""

from __future__ import annotations

import json
import math
import os
import zipfile
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np

from qcards.errors import ModelError
from qcards.skat.learned.features import (
    FEATURE_NAMES,
    FEATURE_NAMES_BY_VERSION,
    FEATURE_VERSION,
    card_features,
)
from qcards.skat.position.seat_view import SeatView
from qcards.skat.rules.cards import Card

FORMAT = "qcards-learned-policy"
ENVIRONMENT = "QCARDS_LEARNED_MODEL"
"""The environment variable naming the model file of the ``learned`` play model."""

SHIPPED = Path(__file__).with_name("model.npz")


@dataclass(frozen=True)
class NetworkKind:
    """What a model file of one kind holds: its ``format`` name, the ``feature_version`` and
    ``features`` it reads, its number of ``outputs``, and the command that retrains it (named
    when a file is of another feature version); ``older`` the names of the earlier feature
    versions still read (a file of one of them is played on its own columns)."""

    format: str
    feature_version: int
    features: tuple[str, ...]
    outputs: int
    retrain: str
    older: Mapping[int, tuple[str, ...]] = field(default_factory=dict)


PLAY = NetworkKind(FORMAT, FEATURE_VERSION, tuple(FEATURE_NAMES), 1, "qcards train",
                   {v: names for v, names in FEATURE_NAMES_BY_VERSION.items()
                    if v != FEATURE_VERSION})  # fmt: skip
"""The ``learned`` play model's files: a score for each legal card."""


@dataclass(frozen=True, eq=False)
class Network:
    """A loaded model: its layers' weights and biases, its temperature and its metadata."""

    weights: tuple[np.ndarray, ...]
    biases: tuple[np.ndarray, ...]
    temperature: float
    metadata: dict[str, Any]

    def outputs(self, x: np.ndarray) -> np.ndarray:
        """The outputs of each row of features ``x`` (shape ``(rows, features)``): shape
        ``(rows, outputs)``."""
        h = x
        last = len(self.weights) - 1
        for i, (w, b) in enumerate(zip(self.weights, self.biases, strict=True)):
            h = h @ w + b
            if i < last:
                h = np.maximum(h, 0.0)
        return h

    @property
    def feature_version(self) -> int:
        """The feature version the model reads (its file's)."""
        return int(self.metadata["feature_version"])

    def scores(self, x: np.ndarray) -> np.ndarray:
        """The score (the first output) of each row of features ``x``."""
        return self.outputs(x)[:, 0]

    def probabilities(self, x: np.ndarray, temperature: float | None = None) -> np.ndarray:
        """The softmax of the scores of ``x`` at ``temperature`` (default: the model's)."""
        s = self.scores(x) / (self.temperature if temperature is None else temperature)
        e = np.exp(s - s.max())
        return e / e.sum()


def metadata(
    layers: tuple[int, ...], temperature: float, training: dict, kind: NetworkKind = PLAY
) -> dict[str, Any]:
    """The metadata of a model file of ``kind`` with these layer sizes, temperature and
    provenance."""
    return {
        "format": kind.format,
        "feature_version": kind.feature_version,
        "features": list(kind.features),
        "layers": list(layers),
        "temperature": temperature,
        "training": training,
    }


def save_network(
    path: str | Path, weights, biases, temperature: float, training: dict, kind: NetworkKind = PLAY
) -> None:
    """Write a model file of ``kind`` (see the module) to ``path``."""
    layers = (weights[0].shape[0], *(w.shape[1] for w in weights))
    arrays = {f"w{i}": np.asarray(w, dtype=np.float64) for i, w in enumerate(weights)}
    arrays |= {f"b{i}": np.asarray(b, dtype=np.float64) for i, b in enumerate(biases)}
    text = json.dumps(metadata(layers, temperature, training, kind), sort_keys=True)
    with open(path, "wb") as f:
        np.savez(f, metadata=np.array(text), **arrays)  # type: ignore[arg-type]


def load_network(path: str | Path, kind: NetworkKind = PLAY) -> Network:
    """The model of the file ``path``, checked as a file of ``kind`` (see the module).

    Raises:
        ModelError: the file is missing or unreadable, not an ``.npz``, or its metadata, its
            feature version or an array's shape is wrong, or a weight is not finite.
    """
    where = f"model file {path}"
    try:
        data = np.load(path, allow_pickle=False)
    except FileNotFoundError:
        raise ModelError(f"{where}: no such file") from None
    except IsADirectoryError:
        raise ModelError(f"{where}: a directory, not a model file") from None
    except (OSError, ValueError, zipfile.BadZipFile) as exc:
        raise ModelError(f"{where}: not a NumPy .npz model file ({exc})") from None
    if not isinstance(data, np.lib.npyio.NpzFile):
        raise ModelError(f"{where}: not a NumPy .npz model file (a single array)")
    with data:
        arrays = {name: data[name] for name in data.files}
    meta = _metadata(where, arrays.pop("metadata", None), kind)
    layers = meta["layers"]
    found: dict[str, np.ndarray] = {}
    for i in range(len(layers) - 1):
        shapes = {f"w{i}": (layers[i], layers[i + 1]), f"b{i}": (layers[i + 1],)}
        for name, shape in shapes.items():
            array = arrays.pop(name, None)
            if array is None:
                raise ModelError(f"{where}: no array {name!r} (layers {layers})")
            if array.shape != shape or array.dtype.kind != "f":
                raise ModelError(f"{where}: array {name!r} has shape {array.shape} "
                                 f"({array.dtype}), expected {shape} of floats")  # fmt: skip
            if not np.all(np.isfinite(array)):
                raise ModelError(f"{where}: array {name!r} holds a NaN or infinite weight")
            found[name] = array.astype(np.float64)
    if arrays:
        raise ModelError(f"{where}: unexpected array {sorted(arrays)[0]!r} (layers {layers})")
    count = len(layers) - 1
    return Network(
        tuple(found[f"w{i}"] for i in range(count)),
        tuple(found[f"b{i}"] for i in range(count)),
        float(meta["temperature"]),
        meta,
    )


def _metadata(where: str, raw, kind: NetworkKind) -> dict[str, Any]:
    """The checked metadata of a model file of ``kind``."""
    if raw is None:
        raise ModelError(f"{where}: no 'metadata' array")
    try:
        meta = json.loads(str(raw))
    except json.JSONDecodeError as exc:
        raise ModelError(f"{where}: its metadata is not JSON ({exc.msg})") from None
    if not isinstance(meta, dict) or meta.get("format") != kind.format:
        raise ModelError(f"{where}: its metadata's format is not {kind.format!r}")
    versions = {**kind.older, kind.feature_version: kind.features}
    version = meta.get("feature_version")
    if isinstance(version, bool) or version not in versions:
        known = " and ".join(str(v) for v in sorted(versions))
        raise ModelError(
            f"{where}: trained on feature version {version!r}, this qcards computes version "
            f"{known}: retrain it ({kind.retrain})"
        )
    names = versions[version]
    if meta.get("features") != list(names):
        raise ModelError(f"{where}: its feature names are not those of version {version}")
    layers = meta.get("layers")
    if (
        not isinstance(layers, list)
        or len(layers) < 2
        or not all(isinstance(n, int) and not isinstance(n, bool) and n > 0 for n in layers)
        or layers[0] != len(names)
        or layers[-1] != kind.outputs
    ):
        raise ModelError(f"{where}: layers {layers!r} must be positive sizes from "
                         f"{len(names)} features to {kind.outputs} output(s)")  # fmt: skip
    temperature = meta.get("temperature")
    if (
        isinstance(temperature, bool)
        or not isinstance(temperature, int | float)
        or not math.isfinite(temperature)
        or temperature <= 0
    ):
        raise ModelError(f"{where}: temperature {temperature!r} must be a positive number")
    return meta


def model_file(
    path: str | Path | None = None, environment: str = ENVIRONMENT, shipped: Path = SHIPPED
) -> Path:
    """The model file to read: ``path``, else the one the variable ``environment`` names, else
    ``shipped`` (by default the ``learned`` play model's: :data:`ENVIRONMENT`,
    :data:`SHIPPED`)."""
    if path is not None:
        return Path(path)
    named = os.environ.get(environment)
    return Path(named) if named else shipped


@cache
def _network(path: Path) -> Network:
    return load_network(path)


@cache
def _network_at(path: Path) -> Network:
    return _network(path.resolve())  # one network a file, whatever the path that names it


def network(path: str | Path | None = None) -> Network:
    """The checked model of :func:`model_file` (``path``), read once per file."""
    chosen = model_file(path)
    # an absolute path names one file for good; a relative one follows the working directory
    return _network_at(chosen) if chosen.is_absolute() else _network(chosen.resolve())


@dataclass(frozen=True)
class LearnedPolicy:
    """The ``learned`` policy: the softmax over the legal cards of the network's scores of
    their features, divided by ``temperature`` (default: the model file's). ``path`` is the
    model file (default: :func:`model_file`'s choice, made at each call, so a changed
    environment is followed); the file is read at the first call, not before. A module-level
    callable holding only the path, so it pickles (to a Dask worker or a simulator's child
    process), and policies of the same file and temperature compare equal.

    Raises:
        ModelError: at a call, the model file is bad (:func:`load_network`).
    """

    path: str | None = None
    temperature: float | None = None

    @property
    def reads_history(self) -> bool:
        """Whether the model reads who played which card (feature version 2 on:
        :func:`qcards.skat.position.seat_view.reads_history`); reads the model file."""
        return network(self.path).feature_version >= 2

    def __call__(self, view: SeatView) -> dict[Card, float]:
        net = network(self.path)
        legal = view.legal
        if len(legal) == 1:
            return {legal[0]: 1.0}
        features = card_features(view, legal, net.feature_version)
        p = net.probabilities(features, self.temperature)
        return {c: float(w) for c, w in zip(legal, p, strict=True)}
