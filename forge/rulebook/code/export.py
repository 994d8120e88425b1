"""A book (or a run's champion, compiled) written as a rule file, so that it can be reviewed as a diff. Pure.

Every active rule becomes one entry that states its meaning (`when` / `action`, `semantic: true`, or
`type: FORMAT`), so applying the file never calls a compiler and export -> apply into an empty book ->
export gives the same file. An entry keeps the id of the rule-file entry that manages its rule;
a rule no file manages gets a readable id from what it decides about (its group) and its rule id.
The trigger node's text is kept as `context` where it is not the rule's own words (a learned rule's
failing step), so a reviewer sees where a rule came from.
"""

from __future__ import annotations

import re
from typing import Any, Mapping, Optional

import yaml

from forge.rulebook.code.plan import entry_ids
from forge.rulebook.code.schema import FORMAT_VERSION
from forge.rulebook.language.action import rule_action_to_json
from forge.rulebook.language.meaning import meaning_of
from forge.rulebook.language.predicate import predicate_to_json
from forge.rulebook.model import RuleRecord, RuleType

HEADER = "# FORGE rule file: one rule per entry (docs/rulebook-as-code.md). `forge rulebook plan` shows what applying it changes."


def entry_id_for(record: RuleRecord) -> str:
    """The entry id of a rule: the rule file's, else one made from its group and its rule id."""
    managed = entry_ids(record)
    if managed:
        return managed[-1]
    slug = re.sub(r"[^a-z0-9]+", "-", record.group.lower()).strip("-")[:60] or "rule"
    return f"{slug}-{record.rule_id[:6]}"


def _one_or_list(values: tuple[str, ...]) -> Any:
    return values[0] if len(values) == 1 else list(values)


def rule_entry(record: RuleRecord, entry_id: str, trigger_text: Optional[str]) -> dict[str, Any]:
    """One rule as a rule-file entry (keys in the order a reviewer reads them)."""
    entry: dict[str, Any] = {"id": entry_id, "text": record.directive, "role": _one_or_list(tuple(record.roles)),
                             "actor": _one_or_list(tuple(record.actors))}
    if record.type == RuleType.FORMAT:
        entry["type"] = str(RuleType.FORMAT)
    else:
        meaning = meaning_of(record)
        if meaning.when is None:
            entry["semantic"] = True
        else:
            entry["when"] = _Flow(predicate_to_json(meaning.when))
            if meaning.action is not None:
                entry["action"] = _Flow(rule_action_to_json(meaning.action))
            if record.unexpressed:
                entry["unexpressed"] = record.unexpressed
    if trigger_text is not None and " ".join(trigger_text.split()) != " ".join(record.directive.split()):
        entry["context"] = trigger_text
    return entry


def book_entries(heads: Mapping[str, RuleRecord], trigger_texts: Mapping[str, str]) -> list[dict[str, Any]]:
    """The active rules of a book as entries, ordered by id (an id two rules would share gets a suffix)."""
    active = sorted((r for r in heads.values() if r.active), key=lambda r: (entry_id_for(r), r.rule_id))
    entries, used = [], set()
    for record in active:
        entry_id = entry_id_for(record)
        if entry_id in used:
            entry_id = f"{entry_id}-{record.rule_id[:6]}"
        used.add(entry_id)
        entries.append(rule_entry(record, entry_id, trigger_texts.get(record.trigger) if record.trigger else None))
    return entries


class _Flow(dict):
    """A mapping written in flow style (`{host: User0, compromise: any}`): a trigger reads on one line."""


class _Dumper(yaml.SafeDumper):
    pass


def _flow(dumper: yaml.SafeDumper, data: _Flow) -> yaml.Node:
    return dumper.represent_mapping("tag:yaml.org,2002:map", dict(data), flow_style=True)


def _text(dumper: yaml.SafeDumper, data: str) -> yaml.Node:
    style = "|" if "\n" in data else None  # a context keeps its lines
    return dumper.represent_scalar("tag:yaml.org,2002:str", data, style=style)


_Dumper.add_representer(_Flow, _flow)
_Dumper.add_representer(str, _text)


def dump_rule_file(entries: list[dict[str, Any]], schema_ref: Optional[str] = None) -> str:
    """The rule file's text; `schema_ref`: the schema's path from the file, for editors."""
    lines = [HEADER]
    if schema_ref:
        lines.insert(0, f"# yaml-language-server: $schema={schema_ref}")
    body = yaml.dump({"version": FORMAT_VERSION, "rules": entries}, Dumper=_Dumper, sort_keys=False,
                     allow_unicode=True, width=120, default_flow_style=False)
    return "\n".join(lines) + "\n" + body
