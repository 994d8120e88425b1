"""The FORGE protocol: failure trigger, episodes, the inner (Reflexion) loop and the outer (stage) loop."""
