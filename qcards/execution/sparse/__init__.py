"""qcards' exact sparse-state engine: one row per nonzero amplitude, its bits packed in words.

``engine`` runs circuits (:func:`engine.simulate`, :func:`engine.simulate_prefixes`) and
re-exports the engine's public names; ``state`` holds the rows
(:class:`state.SparseState`), ``compiler`` turns a circuit into steps, ``kernels`` the compiled
passes over rows, ``shards`` splits a game by deal across threads or Dask workers, ``sampler``
is its ``BaseSamplerV2`` (and the Grover sampler that keeps the state between powers), and
``cost`` its memory and time models, which import neither NumPy nor Qiskit (this package
imports nothing, so the cost checks load without the engine).
"""
