"""Where agent bundles written before forge/cage2/ existed import their agent from: their `agent.py`
says `from forge.cage2_agent import ForgeBlueAgent, read_bundle`. New bundles import forge.cage2.agent."""

from forge.cage2.agent import ForgeBlueAgent, read_bundle

__all__ = ["ForgeBlueAgent", "read_bundle"]
