"""Prompt templates: markdown files with `$field`s, filled strictly (a missing field is an error here, not
a literal `$field` in a model's prompt). The agents' prompts are in agents/prompts/, the rule compiler's
beside it (forge/rulebook/authoring/compiler_prompt.md)."""

from __future__ import annotations

import string
from functools import lru_cache
from pathlib import Path


@lru_cache(maxsize=None)
def template(path: Path) -> string.Template:
    if not path.is_file():
        raise FileNotFoundError(f"no prompt template {path}")
    return string.Template(path.read_text())


def render(path: Path, **fields: object) -> str:
    return template(path).substitute(**{k: str(v) for k, v in fields.items()}).rstrip() + "\n"
