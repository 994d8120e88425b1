"""Compiling learned artifacts into rules: TYPE, bare directive, roles, trigger PREDICATE, ACTION, trigger text.

Two paths:
- deterministic, no model call: a rule already written in the grammar (`When <subject> shows
  <condition>, then <action>`) is its own directive (canonical spelling), CONTENT, for the role that
  learned it; its predicate and action are the grammar's reading (meaning.grammar_meaning);
- the Rule Compiler (agents/prompts/compiler.md, which also states the wire format) for everything
  else: free-text rules, worked examples, human corrections. Its JSON answer is untrusted: parsed
  defensively (one corrective re-prompt for unusable JSON), every field checked, a justification that
  slipped through cut off. A predicate or action that does not fit the schema (an unknown host,
  class, value or verb: the error names it) gets one corrective re-prompt for those entries; if it is
  still invalid the rule is kept as *semantic* (no predicate: the embedding path) with the reason
  recorded. An artifact the model leaves out or botches is compiled as written (`fallback`, semantic)
  and reported, never lost silently.

Never wider than the text (issue 18): the contract's `unexpressed` lists the part of the condition the
predicate could not express; the rule keeps it and is then *guarded* (it applies where the predicate
holds and the context is near its trigger). The validator refuses, with the same one corrective
re-prompt, a predicate that drops the text's negation (a negated condition compiled without `not` or a
quiet value) and a predicate that holds on every context when the text states a condition; still
refused, the rule is kept semantic with the reason.

FORMAT rules get the predicate `always` and no action: they reach every call of their roles.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Mapping, Optional, Sequence

from agents.prompting import render
from agents.schemas import compiler_schema
from forge.config import ROLES
from forge.env.catalog import CLASS_WORDS, HOST_CLASSES, HOSTS, QUIET_ACTIVITY, QUIET_COMPROMISE, action_reference
from forge.grammar import ConditionalRule, parse_rule
from forge.llm.json_reply import ask_for_json, call_records
from forge.llm.types import ChatClient, Message, ModelCall
from forge.memory.text import normalise
from forge.rulebook.language.action import MAX_PLAN, MODES, parse_rule_action, rule_action_to_json
from forge.rulebook.language.meaning import grammar_meaning
from forge.rulebook.model import CompiledRule, CompileVerdict, RuleType, SourceItem, canonical_json, short_hash
from forge.rulebook.language.phases import phase_lines
from forge.rulebook.language.predicate import (
    AllOf, AnyOf, Atom, Not, PredicateError, dnf, group_of, parse_predicate, predicate_to_json,
)

MAX_DIRECTIVE_CHARS = 300
MAX_REPLY_CHARS = 20000
# The reply's shape, for endpoints that constrain decoding (providers.<p>.structured_output).
COMPILER_SCHEMA = compiler_schema(ROLES, [t.value for t in RuleType], modes=MODES, max_then=MAX_PLAN - 1)
# Artifacts per compiler call. A contract entry is ~300 characters, so 4 entries fit a 512-token reply
# with room to spare (12 did not: replies were cut off and every rule fell back to "as written"). A
# batch whose reply is still unusable is split in halves and asked again (see `_ask_split`).
BATCH = 4
_JUSTIFICATION = re.compile(
    r"\s*(?:[,;:(\u2013\u2014-]\s*)?\b(?:because|since|so that|in order to|otherwise|"
    r"to (?:prevent|stop|avoid|keep|make sure)|which (?:is|would|will|means))\b.*$",
    re.IGNORECASE | re.DOTALL,
)
_FORMAT_WORDS = re.compile(
    r"\b(?:reply|replies|respond|format|json|syntax|one line|per line|exactly one line|characters|answer with|"
    r"nothing else|written as)\b|`(?:Answer|Tool):",
    re.IGNORECASE,
)
_HOST_WORD = {h.lower(): h for h in HOSTS}
# A condition clause, and the words that negate one (for the polarity check of `contract_problem`).
STATED_CONDITION = _CONDITION = re.compile(r"\b(?:when|whenever|if|while|once|as soon as|as long as|unless|during|until)\b[^,;:.]*",
                        re.IGNORECASE)
_NEGATED = re.compile(r"\b(?:no|not|none|nothing|never|without|unless|nobody|neither|nor)\b|n't\b", re.IGNORECASE)


@dataclass
class CompileReport:
    rules: list[CompiledRule] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    calls: list[ModelCall] = field(default_factory=list)
    unusable: list[int] = field(default_factory=list)  # batch sizes whose reply could not be used

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
    when, action = grammar_meaning(parsed)
    return CompiledRule(item, CompileVerdict.RULE, str(parsed), "CONTENT", (item.role,), grammar_group(parsed),
                        when_clause(parsed), "grammar", when=when, action=action)


def compile_as_written(item: SourceItem, reason: str) -> CompiledRule:
    """The fallback when no usable model answer covers an artifact."""
    if item.kind == "example":
        return CompiledRule(item, CompileVerdict.DROP, compiled_by="fallback", reason=f"example not compiled: {reason}")
    directive = strip_justification(item.text)[:MAX_DIRECTIVE_CHARS]
    if not directive:
        return CompiledRule(item, CompileVerdict.DROP, compiled_by="fallback", reason="empty after removing the justification")
    rule_type = "FORMAT" if looks_like_format(directive) else "CONTENT"
    # No compiler judged what it decides about, so it gets a group of its own: lumping unrelated
    # free text under a host would flag every pair of it as a conflict.
    group = f"{host_group(directive, rule_type)}/{short_hash('group', normalise(directive))[:8]}"
    if rule_type == "FORMAT":
        return CompiledRule(item, CompileVerdict.RULE, directive, rule_type, (item.role,), group, "", "fallback", reason,
                            when={"always": True})
    return CompiledRule(item, CompileVerdict.RULE, directive, rule_type, (item.role,), group, directive, "fallback", reason,
                        semantic_reason=f"compiled as written: {reason}")


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


def _meaning(raw: dict[str, Any], rule_type: str) -> tuple[Optional[dict], Optional[dict]]:
    """The entry's predicate and action, validated and in canonical JSON; PredicateError naming the fault."""
    when_raw, action_raw = raw.get("when"), raw.get("action")
    if rule_type == "FORMAT":
        if when_raw not in (None, {"always": True}):
            raise PredicateError(f"a FORMAT rule's predicate must be {{\"always\": true}}, got {canonical_json(when_raw)[:60]}")
        return {"always": True}, None
    when = predicate_to_json(parse_predicate(when_raw)) if when_raw is not None else None
    action = rule_action_to_json(parse_rule_action(action_raw)) if action_raw is not None else None
    if when is None and action is not None:
        raise PredicateError("an action without a predicate: give the trigger in \"when\" (or {\"always\": true})")
    return when, action


def _has_negative(p) -> bool:
    """Whether a predicate says anything negative: a `not`, a quiet value (Activity None, Compromised No), or
    a history condition of absence ("has not changed": unchanged_for; "did not clear": changed false)."""
    if isinstance(p, Not):
        return True
    if isinstance(p, (AnyOf, AllOf)):
        return any(_has_negative(x) for x in p.parts)
    return isinstance(p, Atom) and (p.activity == QUIET_ACTIVITY or p.compromise == QUIET_COMPROMISE
                                    or p.unchanged_for is not None or False in (p.changed, p.newly_compromised,
                                                                                p.scan_before_exploit))


def contract_problem(text: str, when: Optional[dict], unexpressed: str = "") -> Optional[str]:
    """Why a CONTENT rule's predicate is wider than its text, or None: it drops the condition's negation,
    or it holds on every context although the text states a condition. A compiler that listed an
    unexpressed rest has said where the text goes beyond the predicate; it is not second-guessed."""
    if when is None or unexpressed:
        return None
    body = _JUSTIFICATION.sub("", " ".join((text or "").split()))
    conditions = [m.group(0) for m in _CONDITION.finditer(body)]
    predicate = parse_predicate(when)
    if conditions and any(conjunction == () for conjunction in (dnf(predicate) or [])):
        return (f"the predicate holds on every context, but the text states a condition "
                f"({conditions[0].strip()[:60]!r}): express it, or list it in \"unexpressed\"")
    negated = next((c for c in conditions if _NEGATED.search(c)), None)
    if negated is not None and not _has_negative(predicate):
        return (f"the condition is negated ({negated.strip()[:60]!r}) but the predicate has no \"not\" and no quiet "
                f"value: express the negation, or list it in \"unexpressed\"")
    return None


def _places(raw: Any) -> list[tuple[str, str]]:
    """The hosts and classes a predicate's or action's JSON names outright (a phase names none)."""
    if isinstance(raw, list):
        return [place for part in raw for place in _places(part)]
    if not isinstance(raw, dict):
        return []
    found = [(key, value) for key in ("host", "class", "target") if isinstance(value := raw.get(key), str)]
    return found + [place for key in ("any", "all", "not", "over", "then") for place in _places(raw.get(key))]


def grounding_problem(text: str, when_raw: Any, action_raw: Any) -> Optional[str]:
    """Why an entry's predicate or action is about a place other than the hosts its text names, or None. A
    small model answered a text about Op_Server0 with the prompt's own example ("a User host ..."). Only a
    text that names hosts is checked: plain words for places ("a workstation") are the compiler's to read."""
    words = re.findall(r"\w+", (text or "").lower())
    named = {_HOST_WORD[w] for w in words if w in _HOST_WORD}
    if not named:
        return None
    classes = {CLASS_WORDS.get(w.removesuffix("s")) for w in words} | {c for c, hosts in HOST_CLASSES.items() if named & set(hosts)}
    for key, value in _places(when_raw) + _places(action_raw):
        if key in ("host", "target") and value in HOSTS and value not in named:
            return f"the entry names {value}, which the text does not: keep to the hosts the text names"
        if key == "class" and value in HOST_CLASSES and value not in classes:
            return f"the entry is about {value} hosts, which the text does not name: keep to what the text names"
    return None


def text_problem(text: str, raw: Mapping[str, Any], when: Optional[dict], unexpressed: str) -> Optional[str]:
    """Why an entry's predicate says more than its text, or about other places (None: it does neither)."""
    if when is None:
        return None
    return contract_problem(text, when, unexpressed) or grounding_problem(text, raw.get("when"), raw.get("action"))


def _entry(item: SourceItem, raw: dict[str, Any]) -> tuple[Optional[CompiledRule], Optional[str]]:
    """One model entry checked field by field: (compiled rule, None) or (None, the problem). A rule
    whose predicate or action is invalid comes back semantic, with `semantic_reason` saying why."""
    verdict = str(raw.get("verdict", "")).strip().upper()
    if verdict == CompileVerdict.DROP:
        return CompiledRule(item, CompileVerdict.DROP, compiled_by="model", reason=str(raw.get("reason", ""))[:200]), None
    if verdict != CompileVerdict.RULE:
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
    if parsed is not None and raw.get("when") is None:
        # A grammar directive without a predicate: the grammar's own spelling, grouping and meaning.
        when, action = grammar_meaning(parsed)
        return CompiledRule(item, CompileVerdict.RULE, str(parsed), "CONTENT", roles, grammar_group(parsed),
                            trigger or when_clause(parsed), "model", when=when, action=action), None
    unexpressed = " ".join(str(raw.get("unexpressed") or "").split())[:MAX_DIRECTIVE_CHARS]
    try:
        when, action = _meaning(raw, rule_type)
        reason = "" if when is not None else "the compiler gave no predicate"
    except PredicateError as exc:
        when, action, reason = None, None, f"invalid predicate or action: {exc}"
    if rule_type == "FORMAT":
        return CompiledRule(item, CompileVerdict.RULE, directive, "FORMAT", roles, "format/reply", "", "model", when=when), None
    problem = text_problem(item.text, raw, when, unexpressed)
    if problem is not None:
        when, action, reason = None, None, f"predicate refused: {problem}"
    if when is None:
        # A semantic rule is matched by its words alone, so they stay its author's: a model's rewrite adds no
        # checked meaning, only room to change it (SmolLM2-135M answered an operator's "deploy a decoy on
        # User2 rather than restoring it" with the prompt's own example, "Restore a User host ...").
        directive = strip_justification(item.text)[:MAX_DIRECTIVE_CHARS] or directive
        trigger, unexpressed = "", ""
        group = f"{group or host_group(directive, rule_type)}"
    else:
        group = group_of(parse_predicate(when))
    return CompiledRule(item, CompileVerdict.RULE, directive, rule_type, roles, group, trigger or directive, "model",
                        when=when, action=action, semantic_reason=reason, unexpressed=unexpressed), None


def _invalid_meaning(raw: Any, items: Sequence[SourceItem] = ()) -> Optional[str]:
    """The schema or contract problem of an entry's predicate/action, if any (what the corrective
    re-prompt names). `items`: the batch, for the text the contract check compares the predicate with."""
    if not isinstance(raw, dict) or str(raw.get("verdict", "")).strip().upper() != CompileVerdict.RULE:
        return None
    rule_type = str(raw.get("type", "CONTENT")).strip().upper()
    try:
        when, _ = _meaning(raw, rule_type if rule_type in ("FORMAT", "CONTENT") else "CONTENT")
    except PredicateError as exc:
        return str(exc)
    number = raw.get("item")
    if rule_type == "CONTENT" and isinstance(number, int) and 1 <= number <= len(items):
        return text_problem(items[number - 1].text, raw, when, " ".join(str(raw.get("unexpressed") or "").split()))
    return None


def _looks_cut_off(text: str) -> bool:
    body = text.strip().removeprefix("```json").removeprefix("```").strip()
    return body.startswith("{") and body.count("{") > body.count("}")


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
            answers = self._ask_split([items[i] for i in chunk], report, seed + start)
            for offset, index in enumerate(chunk):
                compiled[index] = answers.get(offset) or compile_as_written(
                    items[index], "the compiler gave no usable entry for it")
        report.rules = [compiled[i] for i in range(len(items))]
        return report

    def _ask_split(self, items: list[SourceItem], report: CompileReport, seed: int) -> dict[int, CompiledRule]:
        """`_ask`, halving a batch whose reply was cut off (JSON begun and never closed: the reply budget
        ran out), so a long batch degrades to smaller calls instead of to uncompiled rules. A reply that
        is not JSON at all is not retried this way: smaller batches would not change it."""
        unusable = len(report.unusable)
        answers = self._ask(items, report, seed)
        if answers or len(items) == 1 or len(report.unusable) == unusable:
            return answers
        half = len(items) // 2
        first = self._ask_split(items[:half], report, seed + 101)
        second = self._ask_split(items[half:], report, seed + 211)
        return {**first, **{half + offset: rule for offset, rule in second.items()}}

    def _ask(self, items: list[SourceItem], report: CompileReport, seed: int) -> dict[int, CompiledRule]:
        if self.client is None:
            report.problems.append(f"{len(items)} artifact(s) need the compiler model and none is configured")
            return {}
        messages = [
            Message("system", render("compiler", roles=", ".join(ROLES), reference=action_reference(),
                                     phases=phase_lines())),
            Message("user", render_artifacts(items)),
        ]
        answer = ask_for_json(self.client, messages, seed=seed, validate=_rules_list, limit=MAX_REPLY_CHARS,
                              schema=COMPILER_SCHEMA)
        report.calls.extend(call_records("compiler", answer))
        if answer.error is not None:
            report.problems.append(f"compiler model error: {type(answer.error).__name__}")
            return {}
        if answer.value is None:
            report.problems.append(f"unusable compiler reply: {answer.problem}")
            if _looks_cut_off(answer.completions[-1].text if answer.completions else ""):
                report.unusable.append(len(items))
            return {}
        entries = answer.value
        invalid = {i: p for i, p in ((e.get("item"), _invalid_meaning(e, items)) for e in entries if isinstance(e, dict)) if p}
        if invalid:
            entries = self._correct(messages, answer, entries, invalid, report, seed, items)
        return self._collect(items, entries, report)

    def _correct(self, messages: list[Message], answer, entries: list, invalid: dict, report: CompileReport,
                 seed: int, items: Sequence[SourceItem] = ()) -> list:
        """One corrective re-prompt naming every invalid predicate/action; entries it fixes replace the
        originals, the rest stay as they were (and compile as semantic rules, with the reason)."""
        problems = "; ".join(f"item {item}: {problem}" for item, problem in invalid.items())
        report.problems.append(f"compiler predicates rejected: {problems}")
        follow_up = [*messages, Message("assistant", answer.completions[-1].text[:MAX_REPLY_CHARS]),
                     Message("user", f"These entries do not fit the schema or are wider than their text: {problems}. "
                                     "Reply with the whole JSON again, correcting them (use null for a trigger that "
                                     "cannot be expressed, or list what the predicate leaves out in \"unexpressed\").")]
        second = ask_for_json(self.client, follow_up, seed=seed + 7, validate=_rules_list, limit=MAX_REPLY_CHARS,
                              schema=COMPILER_SCHEMA)
        report.calls.extend(call_records("compiler", second))
        if second.value is None:
            return entries
        fixed = {e.get("item"): e for e in second.value if isinstance(e, dict) and e.get("item") in invalid
                 and _invalid_meaning(e, items) is None}
        return [fixed.get(e.get("item"), e) if isinstance(e, dict) else e for e in entries]

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

