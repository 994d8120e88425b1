"""The surrogate as Rule Compiler: reads the numbered artifacts of the compiler prompt, answers its JSON.

Like every surrogate role it knows only the prompt's text. Its habits, by design:
- a rule already in the When/shows/then grammar is kept as written (canonical spelling), CONTENT;
- a worked example becomes the grammar rule it demonstrates, no broader: the host in its situation,
  the clearest signal that host shows (its compromise level, else its activity), and its `Answer:`;
- a free-text instruction is kept with its reasons cut off ("because ...", "so that ..."): FORMAT when
  it is about how replies are written, CONTENT otherwise, grouped by the first host it names;
- anything that is not an instruction (no imperative, no action) is dropped as noise, and so is an
  artifact that repeats an earlier one's directive.
It is registered as the surrogate's "compiler" role when this module is imported.
"""

from __future__ import annotations

import json
import re
from typing import Optional, Sequence

from forge.env.catalog import HOSTS, ActionParseError, parse_action
from forge.grammar import Condition, ConditionalRule, parse_rule
from forge.llm.surrogate import reading
from forge.llm.surrogate.provider import register_role
from forge.llm.types import Message

_HEADER = re.compile(r"^\[(?P<n>\d+)\] (?P<kind>rule|example|correction) for (?P<role>[a-z_]+), taught by (?P<actor>\S+)\s*$",
                     re.MULTILINE)
_REASONS = re.compile(r"\s*(?:[,;:(\u2013\u2014-]\s*)?\b(?:because|since|so that|in order to|otherwise|to (?:prevent|stop|avoid))\b.*$",
                      re.IGNORECASE | re.DOTALL)
_ABOUT_REPLIES = re.compile(r"\b(?:reply|replies|respond|format|json|syntax|one line|per line)\b|`(?:Answer|Tool):", re.IGNORECASE)
_IMPERATIVE = re.compile(r"^(?:never|always|do|don't|avoid|prefer|use|keep|reply|write|answer|restore|remove|analyse|"
                         r"analyze|monitor|sleep|decoy\w*|when|if|whenever|only)\b", re.IGNORECASE)


def _artifacts(text: str) -> list[tuple[int, str, str, str]]:
    """(number, kind, role, body) for each artifact in the user message."""
    heads = list(_HEADER.finditer(text))
    found = []
    for index, head in enumerate(heads):
        end = heads[index + 1].start() if index + 1 < len(heads) else len(text)
        found.append((int(head["n"]), head["kind"], head["role"], text[head.end():end].strip()))
    return found


def _without_reasons(text: str) -> str:
    return _REASONS.sub("", " ".join(text.split())).strip().rstrip(",;:-").strip()


def _group(rule: ConditionalRule) -> str:
    return f"{rule.subject}/{str(rule.condition).lower().replace(' ', '-')}"


def _trigger(rule: ConditionalRule) -> str:
    return str(rule).split(", then ")[0].removeprefix("When ")


def _from_example(body: str) -> Optional[ConditionalRule]:
    alerts = reading.alerts_in(body)
    answer = re.search(r"^\s*Answer:\s*(.+)$", body, re.MULTILINE)
    if not alerts or not answer:
        return None
    try:
        parse_action(answer.group(1))
    except ActionParseError:
        return None
    seen = alerts[0]
    # As specific as the demonstration: the compromise it shows, else its activity (an example of
    # what to do at "Compromised User" says nothing about "Compromised Privileged").
    if seen.compromised in ("User", "Privileged", "Unknown"):
        condition = Condition("compromised", seen.compromised)
    elif seen.activity in ("Exploit", "Scan"):
        condition = Condition("activity", seen.activity)
    else:
        return None
    return parse_rule(f"When {seen.host} shows {condition}, then {answer.group(1).strip()}")


def _first_host(text: str) -> Optional[str]:
    folded = {h.lower(): h for h in HOSTS}
    return next((folded[w.lower()] for w in re.findall(r"[A-Za-z_]+\d", text) if w.lower() in folded), None)


def _entry(number: int, kind: str, role: str, body: str) -> dict:
    rule = _from_example(body) if kind == "example" else parse_rule(body.splitlines()[0] if body else "")
    if rule is not None:
        return {"item": number, "verdict": "RULE", "directive": str(rule), "type": "CONTENT", "roles": [role],
                "group": _group(rule), "trigger": _trigger(rule)}
    if kind == "example":
        return {"item": number, "verdict": "DROP", "reason": "the example shows no alert and action to learn from"}
    directive = _without_reasons(body)
    if not directive or not _IMPERATIVE.match(directive):
        return {"item": number, "verdict": "DROP", "reason": "not an instruction"}
    if _ABOUT_REPLIES.search(directive):
        return {"item": number, "verdict": "RULE", "directive": directive, "type": "FORMAT", "roles": [role],
                "group": "format/reply", "trigger": ""}
    host = _first_host(directive)
    return {"item": number, "verdict": "RULE", "directive": directive, "type": "CONTENT", "roles": [role],
            "group": f"{host}/general" if host else "general", "trigger": directive}


def compiler(mind, messages: Sequence[Message]) -> str:
    entries = []
    seen: set[str] = set()
    for number, kind, role, body in _artifacts(reading.last_user(messages)):
        entry = _entry(number, kind, role, body)
        key = entry.get("directive", "").casefold().rstrip(".")
        if entry["verdict"] == "RULE" and key in seen:
            entry = {"item": number, "verdict": "DROP", "reason": "repeats an earlier artifact"}
        seen.add(key)
        entries.append(entry)
    return json.dumps({"rules": entries})


register_role("compiler", compiler)
