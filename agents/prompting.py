"""Prompt templates (agents/prompts/*.md) and the memory sections every role's system prompt carries."""

from __future__ import annotations

import string
from functools import lru_cache
from pathlib import Path

from agents.injection import InjectedMemory

PROMPTS_DIR = Path(__file__).resolve().parent / "prompts"

# Section headers are part of the prompt contract: models (and the surrogate) find memory by them.
PERSISTENT_HEADER = "## Persistent knowledge"
RULES_HEADER = "## Learned rules"
EXAMPLES_HEADER = "## Learned examples"


@lru_cache(maxsize=None)
def template(name: str) -> string.Template:
    path = PROMPTS_DIR / f"{name}.md"
    if not path.is_file():
        raise FileNotFoundError(f"no prompt template {path}")
    return string.Template(path.read_text())


def render(name: str, **fields: object) -> str:
    """Fill a template; a missing field is an error here, not a literal `$field` in a model's prompt."""
    return template(name).substitute(**{k: str(v) for k, v in fields.items()}).rstrip() + "\n"


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
