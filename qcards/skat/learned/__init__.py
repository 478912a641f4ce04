"""The ``learned`` play model: a small network scoring each legal card from features of the
seat's view, trained by imitation (:mod:`qcards.analysis.train`).

:mod:`~qcards.skat.learned.features` turns a :class:`~qcards.skat.position.seat_view.SeatView` and
its legal cards into fixed-length vectors, :mod:`~qcards.skat.learned.network` scores them in plain
NumPy and holds the model file format; ``model.npz`` is the model shipped with the package.
Nothing here imports a training library.
"""
