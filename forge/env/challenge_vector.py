"""ChallengeWrapper's 52-int observation, read back into the blue table our agents read.

CAGE-2's official evaluation hands a blue agent only this vector: 4 ints per host, in the order of
`forge.env.catalog.HOSTS` (BlueTableWrapper builds it from its table rows, which are kept in the
scenario's host order; `tests/test_cage2_export.py` checks the order on seeded episodes):

    activity:    None [0, 0]   Scan [1, 0]   Exploit [1, 1]
    compromised: No [0, 0]     Unknown [1, 0]   User [0, 1]   Privileged [1, 1]

The vector carries neither subnets, IP addresses nor the processes and files behind a row, so a table
read from it has those columns empty and `VectorSensors.host_state` reports no evidence beyond the row.
"""

from __future__ import annotations

from typing import Any, Optional

import numpy as np

from forge.env.view import HostRow, HostState, NetworkView
from forge.env.catalog import ACTIVITIES, COMPROMISE_LEVELS, HOSTS, action_name
from forge.errors import ForgeError

# The bit pairs of the docstring's table, in the catalog's order of values.
_ACTIVITY = dict(zip(((0, 0), (1, 0), (1, 1)), ACTIVITIES, strict=True))
_COMPROMISED = dict(zip(((0, 0), (1, 0), (0, 1), (1, 1)), COMPROMISE_LEVELS, strict=True))
VECTOR_LENGTH = 4 * len(HOSTS)
UNSEEN = "-"  # subnet and IP: not in the vector


class ObservationError(ForgeError, ValueError):
    """An observation that is not ChallengeWrapper's blue vector; the message says what was wrong."""


def as_vector(observation: Any) -> np.ndarray:
    """The vector out of what the evaluation loop passes: the array itself, or `reset()`'s `(vector, {})`
    pair, which csle-cyborg's ChallengeWrapper returns and the official loop passes on unchanged."""
    if isinstance(observation, tuple) and len(observation) == 2 and isinstance(observation[1], dict):
        observation = observation[0]
    vector = np.asarray(observation)
    if vector.shape != (VECTOR_LENGTH,):
        raise ObservationError(f"expected ChallengeWrapper's blue vector of {VECTOR_LENGTH} ints, got shape {vector.shape}")
    return vector


def decode_vector(observation: Any) -> tuple[tuple[str, str, str], ...]:
    """(hostname, activity, compromised) per host, in HOSTS order."""
    vector = as_vector(observation)
    rows = []
    for i, host in enumerate(HOSTS):
        bits = tuple(int(b) for b in vector[4 * i: 4 * i + 4])
        activity, compromised = _ACTIVITY.get(bits[:2]), _COMPROMISED.get(bits[2:])
        if activity is None or compromised is None:
            raise ObservationError(f"host {host}: bits {list(bits)} are not a valid activity/compromised pair")
        rows.append((host, activity, compromised))
    return tuple(rows)


class VectorSensors:
    """What the defender reads (agents.defender.Sensors), built from the vectors alone.

    `changed` is the hosts whose row differs from the previous step's: the environment's own view also
    counts new evidence on an unchanged row, which the vector does not carry."""

    def __init__(self) -> None:
        self._rows: tuple[tuple[str, str, str], ...] = ()
        self._step = 0
        self._changed: tuple[str, ...] = ()
        self._last_action: Optional[str] = None

    def reset(self, observation: Any) -> None:
        self._rows = decode_vector(observation)
        self._step, self._changed, self._last_action = 0, (), None

    def update(self, observation: Any, action: int) -> None:
        rows = decode_vector(observation)
        self._changed = tuple(new[0] for old, new in zip(self._rows, rows) if old != new)
        self._rows = rows
        self._step += 1
        self._last_action = action_name(int(action))

    def view(self) -> NetworkView:
        hosts = tuple(HostRow(hostname=h, subnet=UNSEEN, ip=UNSEEN, activity=a, compromised=c) for h, a, c in self._rows)
        return NetworkView(step=self._step, hosts=hosts, changed=self._changed, last_action=self._last_action)

    def host_state(self, hostname: str) -> HostState:
        if hostname not in HOSTS:
            raise KeyError(f"unknown host {hostname!r}; valid hosts: {', '.join(HOSTS)}")
        return HostState(hostname=hostname, baseline={}, current={}, row=self.view().row(hostname))


def table_columns(view: NetworkView) -> tuple[tuple[str, str, str], ...]:
    """The columns of a view that the vector carries, for comparing a decoded table with the environment's."""
    return tuple((r.hostname, r.activity, r.compromised) for r in view.hosts)

