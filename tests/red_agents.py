"""A red agent written outside csle-cyborg, for the tests of an `external` row of forge/env/attackers.py."""

from __future__ import annotations

import random

from forge.env.cyborg_import import agent_class


class WanderingMeander(agent_class("RedMeanderAgent")):
    """Meander that waits a step at random, from this module's `random` (an attacker's own choices); counts
    its actions class-wide (CybORG builds the instance)."""

    actions = 0

    def get_action(self, observation, action_space):
        from csle_cyborg.shared.actions import Sleep

        type(self).actions += 1
        if random.random() < 0.5:
            return Sleep()
        return super().get_action(observation, action_space)
