"""A third-party construction in one module: the efficient construction under another name.

Registered through the entry point in ``probe_construction-0.1.dist-info/entry_points.txt``
(what ``pip install`` of a package declaring ``[project.entry-points."qcards.constructions"]``
would write); ``tests/test_plugin_construction.py`` puts this directory on the path.
"""

import dataclasses

from qcards.circuits.construction import get_construction

PROBE = dataclasses.replace(get_construction("efficient"), name="probe")
