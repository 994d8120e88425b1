"""The FORGE agents: the hierarchical ReAct defender (Planner, Analyst, ActionChooser) and the learning
agents (Reflector, Exemplifier). Prompts are templates in `agents/prompts/`."""
