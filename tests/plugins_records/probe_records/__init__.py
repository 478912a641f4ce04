"""A third party's evaluation method, play model and objective, one record each.

A second play model, ``probe-minimax``, is the adversarial one: the kind of model a record
declares, not its name, says how it is computed.

Registered through ``probe_records-0.1.dist-info/entry_points.txt`` (what ``pip install`` of a
package declaring the three entry-point groups would write); ``tests/test_plugin_records.py``
puts this directory on the path. Each record is a built-in one under another name, so its
answers are known.
"""

import dataclasses

from qcards.analysis.methods.builtin import CLASSICAL
from qcards.skat.players.play_models import BUILT_IN
from qcards.skat.solvers.objectives import OBJECTIVES

METHOD = dataclasses.replace(CLASSICAL, name="probe")
MODEL = dataclasses.replace(BUILT_IN["heuristic"], name="probe")
MINIMAX_MODEL = dataclasses.replace(BUILT_IN["adversarial"], name="probe-minimax")
OBJECTIVE = dataclasses.replace(OBJECTIVES["seeger-fabian"], name="probe", report="expected_probe")
