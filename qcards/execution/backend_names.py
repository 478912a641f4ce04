"""The prefixes of device backends' names (``fake:FakeTorino``, ``ibm:ibm_torino``): read by
the registry (:mod:`qcards.execution.backends`), the IBM module and the command line, none of
which need the others' imports to know them."""

from __future__ import annotations

FAKE_PREFIX = "fake:"
"""A fake IBM device, noise by Pauli trajectories."""

FAKE_AER_PREFIX = "fake-aer:"
"""A fake IBM device under Aer's full noise model."""

IBM_PREFIX = "ibm:"
"""A real IBM device (qiskit-ibm-runtime)."""

DEVICE_PREFIXES = (FAKE_PREFIX, FAKE_AER_PREFIX, IBM_PREFIX)
"""Every prefix that names a device: its calibration (or a queue) behind the name."""
