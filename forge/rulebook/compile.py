"""Compiling learned artifacts into RULE directives: bare imperative, TYPE, roles, conflict GROUP, trigger.

Two paths:
- deterministic, no model call: a rule already written in the grammar (`When <subject> shows
  <condition>, then <action>`) is its own directive (canonical spelling), CONTENT, for the role that
  learned it, grouped by subject and condition, triggered by its When-clause;
- the Rule Compiler (agents/prompts/compiler.md) for everything else: free-text rules, worked
  examples, human corrections. Its JSON answer is untrusted: parsed defensively (one corrective
  re-prompt), every field checked, a justification that slipped through cut off. An artifact the
  model leaves out or botches is compiled as written (`fallback`) and reported, never lost silently.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Optional, Sequence

from agents.defender import ChatClient, ModelCall
from agents.learners import call_records
from agents.prompting import render
from forge.config import ROLES
from forge.env.catalog import HOSTS, action_reference
from forge.grammar import ConditionalRule, parse_rule
from forge.llm.json_reply import ask_for_json
from forge.llm.types import Message
from forge.memory.text import normalise
from forge.rulebook.model import short_hash

MAX_DIRECTIVE_CHARS = 300
MAX_REPLY_CHARS = 20000
BATCH = 12  # artifacts per compiler call: enough context to spot duplicates, short enough to stay exact
_JUSTIFICATION = re.compile(
    r"\s*(?:[,;:(\u2013\u2014-]\s*)?\b(?:because|since|so that|in order to|otherwise|"
    r"to (?:prevent|stop|avoid|keep|make sure)|which (?:is|would|will|means))\b.*$",
    re.IGNORECASE | re.DOTALL,
)
_FORMAT_WORDS = re.compile(
    r"\b(?:reply|replies|respond|format|json|syntax|one line|per line|exactly one line|characters)\b|`(?:Answer|Tool):",
    re.IGNORECASE,
)
_HOST_WORD = {h.lower(): h for h in HOSTS}


@dataclass(frozen=True)
class SourceItem:
    """One artifact to compile, with who taught it."""

    kind: str  # rule | example | correction
    role: str
    text: str
    actor: str
    title: Optional[str] = None
    item_id: Optional[str] = None  # the memory item it came from
    support: int = 1


@dataclass(frozen=True)
class CompiledRule:
    source: SourceItem
    verdict: str  # RULE | DROP
    directive: str = ""
    type: str = "CONTENT"
    roles: tuple[str, ...] = ()
    group: str = ""
    trigger: str = ""  # the situation in words (used when no failure snapshot gives the context)
    compiled_by: str = "grammar"  # grammar | model | fallback
    reason: str = ""

    @property
    def kept(self) -> bool:
        return self.verdict == "RULE"


@dataclass
class CompileReport:
    rules: list[CompiledRule] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    calls: list[ModelCall] = field(default_factory=list)

    @property
    def kept(self) -> list[CompiledRule]:
        return [r for r in self.rules if r.kept]

    @property
    def dropped(self) -> list[CompiledRule]:
        return [r for r in self.rules if not r.kept]


# -- pure helpers -------------------------------------------------------------------------------------


def strip_justification(text: str) -> str:
    """The imperative without its reasons: one line, the first sentence's clause before any "because"."""
    line = " ".join((text or "").split())
    line = _JUSTIFICATION.sub("", line).strip()
    return line.rstrip(",;:-").strip()


def condition_slug(rule: ConditionalRule) -> str:
    return str(rule.condition).lower().replace(" ", "-")


def grammar_group(rule: ConditionalRule) -> str:
    return f"{rule.subject}/{condition_slug(rule)}"


def when_clause(rule: ConditionalRule) -> str:
    """The rule's trigger in the words an observation uses."""
    return str(rule).split(", then ")[0].removeprefix("When ")


def looks_like_format(text: str) -> bool:
    return bool(_FORMAT_WORDS.search(text or ""))


def host_group(text: str, rule_type: str) -> str:
    if rule_type == "FORMAT":
        return "format/reply"
    for word in re.findall(r"[A-Za-z_]+\d", text or ""):
        if word.lower() in _HOST_WORD:
            return f"{_HOST_WORD[word.lower()]}/general"
    return "general"


def compile_grammar(item: SourceItem) -> Optional[CompiledRule]:
    """The deterministic path: a rule in the grammar compiles to itself. None for anything else."""
    if item.kind == "example":
        return None
    parsed = parse_rule(item.text)
    if parsed is None:
        return None
    return CompiledRule(item, "RULE", str(parsed), "CONTENT", (item.role,), grammar_group(parsed),
                        when_clause(parsed), "grammar")


def compile_as_written(item: SourceItem, reason: str) -> CompiledRule:
    """The fallback when no usable model answer covers an artifact."""
    if item.kind == "example":
        return CompiledRule(item, "DROP", compiled_by="fallback", reason=f"example not compiled: {reason}")
    directive = strip_justification(item.text)[:MAX_DIRECTIVE_CHARS]
    if not directive:
        return CompiledRule(item, "DROP", compiled_by="fallback", reason="empty after removing the justification")
    rule_type = "FORMAT" if looks_like_format(directive) else "CONTENT"
    # No compiler judged what it decides about, so it gets a group of its own: lumping unrelated
    # free text under a host would flag every pair of it as a conflict.
    group = f"{host_group(directive, rule_type)}/{short_hash('group', normalise(directive))[:8]}"
    return CompiledRule(item, "RULE", directive, rule_type, (item.role,), group,
                        "" if rule_type == "FORMAT" else directive, "fallback", reason)


# -- the model path -----------------------------------------------------------------------------------


def render_artifacts(items: Sequence[SourceItem]) -> str:
    blocks = ["Artifacts to compile:"]
    for number, item in enumerate(items, 1):
        kind = "correction" if item.kind == "correction" else item.kind
        body = item.text.strip()
        if item.kind == "example" and item.title:
            body = f"### {item.title}\n{body}"
        blocks.append(f"[{number}] {kind} for {item.role}, taught by {item.actor}\n{body}")
    return "\n\n".join(blocks)


def _rules_list(data: Any) -> list:
    entries = data.get("rules") if isinstance(data, dict) else None
    if not isinstance(entries, list):
        raise ValueError('the JSON has no "rules" list')
    return entries


def _entry(item: SourceItem, raw: dict[str, Any]) -> tuple[Optional[CompiledRule], Optional[str]]:
    """One model entry checked field by field: (compiled rule, None) or (None, the problem)."""
    verdict = str(raw.get("verdict", "")).strip().upper()
    if verdict == "DROP":
        return CompiledRule(item, "DROP", compiled_by="model", reason=str(raw.get("reason", ""))[:200]), None
    if verdict != "RULE":
        return None, f"verdict {verdict[:20]!r} is neither RULE nor DROP"
    directive = strip_justification(str(raw.get("directive", "")))[:MAX_DIRECTIVE_CHARS]
    if not directive:
        return None, "empty directive"
    rule_type = str(raw.get("type", "CONTENT")).strip().upper()
    if rule_type not in ("FORMAT", "CONTENT"):
        return None, f"type {rule_type[:20]!r} is neither FORMAT nor CONTENT"
    roles_raw = raw.get("roles") or [item.role]
    roles = tuple(dict.fromkeys(r for r in roles_raw if isinstance(r, str) and r in ROLES)) if isinstance(roles_raw, list) else ()
    if not roles:
        return None, f"roles {roles_raw!r:.60} name no agent role ({', '.join(ROLES)})"
    group = re.sub(r"[^A-Za-z0-9_/\-]+", "-", str(raw.get("group", "")).strip())[:60].strip("-")
    trigger = " ".join(str(raw.get("trigger", "")).split())[:MAX_DIRECTIVE_CHARS]
    parsed = parse_rule(directive)
    if parsed is not None:  # the grammar's own spelling, grouping and trigger: comparable across compilers
        return CompiledRule(item, "RULE", str(parsed), "CONTENT", roles, grammar_group(parsed),
                            trigger or when_clause(parsed), "model"), None
    group = group or host_group(directive, rule_type)
    return CompiledRule(item, "RULE", directive, rule_type, roles, group,
                        "" if rule_type == "FORMAT" else (trigger or directive), "model"), None


class RuleCompiler:
    """Compiles artifacts; `client` is the "compiler" role's ModelClient (None: no model path)."""

    def __init__(self, client: Optional[ChatClient], *, batch: int = BATCH) -> None:
        self.client = client
        self.batch = max(1, batch)

    def compile(self, items: Sequence[SourceItem], *, seed: int = 0) -> CompileReport:
        report = CompileReport()
        compiled: dict[int, CompiledRule] = {}
        pending: list[int] = []
        for index, item in enumerate(items):
            rule = compile_grammar(item)
            if rule is not None:
                compiled[index] = rule
            else:
                pending.append(index)
        for start in range(0, len(pending), self.batch):
            chunk = pending[start:start + self.batch]
            answers = self._ask([items[i] for i in chunk], report, seed + start)
            for offset, index in enumerate(chunk):
                compiled[index] = answers.get(offset) or compile_as_written(
                    items[index], "the compiler gave no usable entry for it")
        report.rules = [compiled[i] for i in range(len(items))]
        return report

    def _ask(self, items: list[SourceItem], report: CompileReport, seed: int) -> dict[int, CompiledRule]:
        if self.client is None:
            report.problems.append(f"{len(items)} artifact(s) need the compiler model and none is configured")
            return {}
        messages = [
            Message("system", render("compiler", roles=", ".join(ROLES), reference=action_reference())),
            Message("user", render_artifacts(items)),
        ]
        answer = ask_for_json(self.client, messages, seed=seed, validate=_rules_list, limit=MAX_REPLY_CHARS)
        report.calls.extend(call_records("compiler", answer))
        if answer.error is not None:
            report.problems.append(f"compiler model error: {type(answer.error).__name__}")
            return {}
        if answer.value is None:
            report.problems.append(f"unusable compiler reply: {answer.problem}")
            return {}
        return self._collect(items, answer.value, report)

    def _collect(self, items: list[SourceItem], entries: list, report: CompileReport) -> dict[int, CompiledRule]:
        answers: dict[int, CompiledRule] = {}
        for raw in entries:
            if not isinstance(raw, dict):
                report.problems.append("a compiler entry is not an object")
                continue
            try:
                number = int(raw.get("item"))
            except (TypeError, ValueError):
                report.problems.append(f"compiler entry without a valid item number: {raw.get('item')!r:.20}")
                continue
            if not 1 <= number <= len(items) or number - 1 in answers:
                report.problems.append(f"compiler entry for item {number}: no such artifact, or answered twice")
                continue
            rule, problem = _entry(items[number - 1], raw)
            if rule is None:
                report.problems.append(f"compiler entry for item {number}: {problem}")
                continue
            answers[number - 1] = rule
        return answers

