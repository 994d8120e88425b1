"""Prompt templates (agents/prompts/*.md) and the memory sections every role's system prompt carries."""

from __future__ import annotations

import string
from pathlib import Path

from agents.injection import InjectedMemory
from forge.llm import templates

PROMPTS_DIR = Path(__file__).resolve().parent / "prompts"

# Section headers are part of the prompt contract: models (and the surrogate) find memory by them.
PERSISTENT_HEADER = "## Persistent knowledge"
RULES_HEADER = "## Learned rules"
EXAMPLES_HEADER = "## Learned examples"


def template(name: str) -> string.Template:
    return templates.template(PROMPTS_DIR / f"{name}.md")


def render(name: str, **fields: object) -> str:
    """Fill the role's template (forge.llm.templates: a missing field is an error)."""
    return templates.render(PROMPTS_DIR / f"{name}.md", **fields)


def memory_sections(injected: InjectedMemory, persistent: str | None) -> str:
    """Persistent (operator-set) knowledge, learned rules and learned examples; empty sections are left out."""
    parts = []
    if persistent and persistent.strip():
        parts.append(f"{PERSISTENT_HEADER}\n{persistent.strip()}")
    rules = injected.of_kind("rule")
    if rules:
        parts.append(RULES_HEADER + "\n" + "\n".join(f"- {item.text.strip()}" for item in rules))
    examples = injected.of_kind("example")
    if examples:
        body = "\n\n".join(f"### {item.title or item.id}\n{item.text.strip()}" for item in examples)
        parts.append(f"{EXAMPLES_HEADER}\n{body}")
    return ("\n" + "\n\n".join(parts) + "\n") if parts else ""
