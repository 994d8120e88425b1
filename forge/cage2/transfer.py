"""Transfer evaluation: a champion trained on one CAGE-2 setting (attacker, horizon) played on another.

`forge evaluate RUN env.red_agent=meander` (or `env.max_steps=100`) overrides the setting the run was
trained on. The command then plays the same memory, modes and seeds on both settings and labels the
result a transfer evaluation, the trained-on setting beside it, so a drop is read against the same
memory's own baseline rather than against another run.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Optional

from forge.wiring import RunMemory


@dataclass(frozen=True)
class Setting:
    red_agent: str
    max_steps: int

    def __str__(self) -> str:
        return f"red {self.red_agent}, {self.max_steps} steps"


def setting_of(found: RunMemory) -> Setting:
    return Setting(found.cfg.env.red_agent.value, found.cfg.env.max_steps)


@dataclass(frozen=True)
class Transfer:
    trained: RunMemory  # the same memory, under the run's own (trained-on) environment settings
    trained_setting: Setting
    evaluated_setting: Setting


def transfer_of(found: RunMemory) -> Optional[Transfer]:
    """The trained-on counterpart of `found` when its overrides changed the attacker or the horizon, else None."""
    saved = found.run.load_config()
    trained_setting, evaluated_setting = Setting(saved.env.red_agent.value, saved.env.max_steps), setting_of(found)
    if trained_setting == evaluated_setting:
        return None
    trained_cfg = dataclasses.replace(found.cfg, env=dataclasses.replace(found.cfg.env, red_agent=saved.env.red_agent,
                                                                         max_steps=saved.env.max_steps))
    return Transfer(dataclasses.replace(found, cfg=trained_cfg), trained_setting, evaluated_setting)
