"""The red agents a CAGE-2 environment can face, in one table.

Everything that names an attacker reads it: the configuration (`env.red_agent`, forge.config.RedAgent),
the environment (which csle-cyborg class plays red), the official protocol's cells (forge.cage2.protocol:
the rows CAGE-2's own evaluation plays) and the light import of CybORG's agents (forge.env.cyborg_import). Adding an attacker is adding a row
here (docs/extending.md). Standard library only: the configuration, below every other layer, reads it.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Attacker:
    name: str  # as the configuration names it (`env.red_agent`)
    package_class: str  # the class: csle-cyborg's, as the package's own evaluation prints it
    module: str  # the module under csle_cyborg.agents.simple_agents that defines it (`external`: its import path)
    # CAGE-2's own evaluation plays it (a cell of `forge evaluate --protocol cage2` at every horizon); an
    # attacker added for training only is not, so the protocol stays the package's.
    official: bool = False
    # A red agent written outside csle-cyborg, on CybORG's agent interface (get_action, train, end_episode,
    # set_initial_values): `module` is the absolute module that defines `package_class`.
    external: bool = False

    def __post_init__(self) -> None:
        if self.external and self.official:
            raise ValueError(f"attacker {self.name!r}: CAGE-2's own evaluation plays only the package's agents")


# In the order the official evaluation plays them (and the first is the default).
ATTACKERS: tuple[Attacker, ...] = (
    Attacker("b_line", "B_lineAgent", "b_line", official=True),
    Attacker("meander", "RedMeanderAgent", "meander", official=True),
    Attacker("sleep", "SleepAgent", "sleep_agent", official=True),
)
NAMES: tuple[str, ...] = tuple(a.name for a in ATTACKERS)
OFFICIAL: tuple[str, ...] = tuple(a.name for a in ATTACKERS if a.official)  # the protocol's, in its order
DEFAULT = NAMES[0]
PACKAGE: tuple[Attacker, ...] = tuple(a for a in ATTACKERS if not a.external)  # csle-cyborg's own classes


def attacker(name: str) -> Attacker:
    """The attacker `name` names; ValueError listing the valid names."""
    for candidate in ATTACKERS:
        if candidate.name == name:
            return candidate
    raise ValueError(f"unknown red agent {name!r}; valid: {', '.join(NAMES)}")
