"""What the blue defender sees of CAGE-2 after a step, as plain records: the blue table's rows, the
network view the agents and renderings read (forge.env.text_view), and a host's state.

Records only, so that the environment (forge.env.cage2) and the text renderings both stand on them
without importing each other.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Optional

from forge.env.catalog import HOSTS, QUIET_ACTIVITY, QUIET_COMPROMISE


@dataclass(frozen=True)
class HostRow:
    """One line of the blue table, as CybORG's BlueTableWrapper derives it."""

    hostname: str
    subnet: str
    ip: str
    activity: str  # one of catalog.ACTIVITIES: None | Scan | Exploit
    compromised: str  # one of catalog.COMPROMISE_LEVELS: No | Unknown | User | Privileged

    @property
    def quiet(self) -> bool:
        return self.activity == QUIET_ACTIVITY and self.compromised == QUIET_COMPROMISE


@dataclass(frozen=True)
class NetworkView:
    """What the blue defender can see after a step."""

    step: int
    hosts: tuple[HostRow, ...]
    changed: tuple[str, ...]  # hosts whose activity/compromise or evidence changed in the last step
    last_action: Optional[str]

    def row(self, hostname: str) -> HostRow:
        for row in self.hosts:
            if row.hostname == hostname:
                return row
        raise KeyError(f"unknown host {hostname!r}; valid hosts: {', '.join(HOSTS)}")


@dataclass(frozen=True)
class HostState:
    """A host's baseline (at reset) and the newest evidence blue has about it, as plain data."""

    hostname: str
    baseline: dict[str, Any]
    current: dict[str, Any]
    row: HostRow
