"""CAGE-2 as its community uses it, around the environment (forge/env): the non-LLM baseline policies
(baselines), the official evaluation protocol (protocol) and its tables and MLflow run (report), the
champion played through that protocol (evaluation), a champion exported as a CAGE-2 blue agent (agent),
and a champion played on another setting than it was trained on (transfer)."""
