"""What the surrogate answers in each role. Pure functions of (the messages' text, a seeded RNG, settings).

Its character, by design:
- zero-shot it is a weak defender: it investigates, sometimes removes, never reimages a host (it does
  not know Restore is worth its cost), so it loses most of the network to B_line;
- it follows a learned rule or example that its prompt contains when the rule's condition matches the
  alerts the prompt shows, with probability `compliance`; anything not in the prompt does not exist;
- as Reflector it reads the failure report, finds the hosts that cost reward at the failing step and the
  first alert each showed, and writes `When <host> shows <signal>, then Restore <host>` (with probability
  `reflector_error_rate` a weaker fix instead), generalising to a host class when the same rule already
  exists for a sibling host; as Exemplifier it writes the same lesson as a short ReAct demonstration.
"""

from __future__ import annotations

import json
import random
import re
from dataclasses import dataclass
from typing import Optional, Sequence

from forge.config import SurrogateConfig
from forge.env.catalog import DECOY_SERVICES, HOST_CLASSES, HOSTS
from forge.grammar import Condition, ConditionalRule, parse_rule
from forge.llm.surrogate import reading
from forge.llm.surrogate.reading import Alert
from forge.llm.types import Message

_TOOL_SUGGEST = "get_suggestion_for_next_action"
_TOOL_ANALYSE = "get_analysis_of_host_update"


@dataclass(frozen=True)
class Mind:
    settings: SurrogateConfig
    rng: random.Random

    def complies(self) -> bool:
        return self.rng.random() < self.settings.compliance


# -- following what the prompt teaches -----------------------------------------------------------


def _taught_action(mind: Mind, messages: Sequence[Message], alerts: list[Alert]) -> Optional[str]:
    """The action a learned rule or example in the prompt prescribes for these alerts, if the model complies."""
    rules = [r for r in (parse_rule(text) for text in reading.learned_rules(messages)) if r is not None]
    examples = reading.learned_examples(messages)
    for alert in alerts:
        for rule in rules:
            if rule.matches(alert.host, alert.activity, alert.compromised) and mind.complies():
                return rule.action_for(alert.host)
        for example in examples:
            if any(_similar(alert, seen) for seen in example.situation) and mind.complies():
                return example.answer
    return None


def _similar(now: Alert, seen: Alert) -> bool:
    """An example applies to the same host in the same kind of trouble (compromise, else activity)."""
    if now.host != seen.host:
        return False
    if seen.compromised != "No":
        return now.compromised == seen.compromised
    return seen.activity != "None" and now.activity == seen.activity


# -- the defender's roles ---------------------------------------------------------------------------


def planner(mind: Mind, messages: Sequence[Message]) -> str:
    latest = reading.last_user(messages)
    observation = reading.first_user(messages)
    alerts = reading.alerts_in(observation)
    taught = _taught_action(mind, messages, alerts)
    if taught:
        return f"Answer: {taught}"
    suggestions = reading.suggested_actions("\n".join(m.content for m in messages if m.role == "user"))
    if suggestions:
        return f"Answer: {suggestions[0]}"
    if "No tool calls are left" in latest or "could not be used" in latest:
        return "Answer: Monitor"
    if "Result of" in latest:  # analysed, but not yet asked for a suggestion
        return f"Tool: {_TOOL_SUGGEST}(what to do after this analysis)"
    changed = reading.changed_hosts(observation)
    calls = [f"Tool: {_TOOL_ANALYSE}({host})" for host in changed[:1]]
    focus = ", ".join(f"{a.host} shows Activity {a.activity}, Compromised {a.compromised}" for a in alerts[:3])
    calls.append(f"Tool: {_TOOL_SUGGEST}({focus or 'the network is quiet'})")
    return "\n".join(calls)


def analyst(mind: Mind, messages: Sequence[Message]) -> str:
    text = reading.last_user(messages)
    host = re.search(r"^Host (\S+):", text, re.MULTILINE)
    table = re.search(r"table Activity (\w+), Compromised (\w+)", text)
    activity, compromised = table.groups() if table else ("None", "No")
    if re.search(r"density (0\.9\d*|1(\.0+)?)\b", text):
        compromised = "Privileged"
    evidence = [line[2:] for line in text.splitlines() if line.startswith("- ")][:2]
    risk = "high" if compromised != "No" or activity == "Exploit" else "medium" if activity == "Scan" else "low"
    return "\n".join([
        f"Host: {host.group(1) if host else 'unknown'}",
        f"Activity: {activity}",
        f"Compromise: {compromised}",
        f"Evidence: {'; '.join(evidence) or 'nothing beyond the baseline'}",
        f"Risk: {risk}",
    ])


def action_chooser(mind: Mind, messages: Sequence[Message]) -> str:
    context = reading.last_user(messages)
    alerts = reading.alerts_in(context)
    ranked: list[tuple[str, str]] = []
    taught = _taught_action(mind, messages, alerts)
    if taught:
        ranked.append((taught, "a learned rule covers this"))
    ranked.extend(_untaught_choices(mind, alerts))
    seen: set[str] = set()
    lines = []
    for action, why in ranked:
        if action not in seen:
            seen.add(action)
            lines.append(f"{len(lines) + 1}. {action} - {why}")
        if len(lines) == 3:
            break
    return "\n".join(lines)


def _untaught_choices(mind: Mind, alerts: list[Alert]) -> list[tuple[str, str]]:
    """Zero-shot instinct: look closer, occasionally evict, never reimage."""
    rng = mind.rng
    active = [a for a in alerts if a.activity != "None"] or alerts
    if not active:
        options = [("Monitor", "nothing to react to"), ("Sleep", "nothing to react to"),
                   (f"Decoy{rng.choice(DECOY_SERVICES)} {rng.choice(HOSTS)}", "prepare a trap")]
        weights = [0.5, 0.2, 0.3]
    else:
        host = active[0].host
        options = [(f"Analyse {host}", "find out what happened"), (f"Remove {host}", "evict the intruder"),
                   (f"Decoy{rng.choice(DECOY_SERVICES)} {host}", "distract the attacker"),
                   ("Monitor", "watch how it develops")]
        weights = [0.45, 0.3, 0.1, 0.15]
    first = rng.choices(range(len(options)), weights=weights)[0]
    return [options[first]] + [o for i, o in enumerate(options) if i != first]


# -- the learning roles -----------------------------------------------------------------------------


@dataclass(frozen=True)
class _Lesson:
    host: str
    condition: Condition
    cost: float
    first_alert: Alert


def _lessons(report: str) -> list[_Lesson]:
    """Hosts that cost reward at the failing step, each with the clearest alert it showed before that:
    any compromise if the table ever showed one, else its first exploit. A host that was only ever
    scanned teaches nothing here (reimaging an uncompromised host does not stop the attack)."""
    costs_line = reading.labelled_line(report, "Reward at the failing step by host:") or ""
    costs = [(h, float(v)) for h, v in re.findall(r"([A-Za-z_]+\d)\s+([+-]\d+(?:\.\d+)?)", costs_line)]
    compromise: dict[str, Alert] = {}
    exploit: dict[str, Alert] = {}
    for line in report.splitlines():
        match = re.match(r"^step \d+ \| alerts: (.*?) \| action:", line)
        if not match:
            continue
        for alert in reading.one_line_alerts(match.group(1)):
            if alert.compromised in ("User", "Privileged"):
                compromise.setdefault(alert.host, alert)
            elif alert.activity == "Exploit":
                exploit.setdefault(alert.host, alert)
    lessons = []
    for host, cost in sorted(costs, key=lambda hc: hc[1]):
        if cost >= 0:
            continue
        if host in compromise:
            # The table flips between User, Unknown and Privileged as blue acts; the lesson is "compromised".
            lessons.append(_Lesson(host, Condition("compromised", None), cost, compromise[host]))
        elif host in exploit:
            lessons.append(_Lesson(host, Condition("activity", "Exploit"), cost, exploit[host]))
    return lessons


def _allowed_roles(system: str, preference: Sequence[str]) -> list[str]:
    line = reading.labelled_line(system, "You may write rules for these roles only:") or \
        reading.labelled_line(system, "You may write examples for these roles only:") or ""
    allowed = re.findall(r"[a-z_]+", line.split(".")[0])
    return [r for r in preference if r in allowed]


def _current_rules(report: str, role: str) -> list[str]:
    match = re.search(rf"^\[{role}\]\n(.*?)(?=^\[|\Z)", report, re.MULTILINE | re.DOTALL)
    if not match:
        return []
    return [re.sub(r"^\d+\.\s*", "", line).strip() for line in match.group(1).splitlines() if re.match(r"^\d+\.", line)]


def _class_of(host: str) -> Optional[str]:
    return next((name for name, members in HOST_CLASSES.items() if host in members), None)


def reflector(mind: Mind, messages: Sequence[Message]) -> str:
    system = next((m.content for m in messages if m.role == "system"), "")
    report = reading.last_user(messages)
    roles = _allowed_roles(system, ("action_chooser", "planner"))
    if not roles:
        return json.dumps({})
    role = roles[0]
    existing_text = _current_rules(report, role)
    existing = [parse_rule(t) for t in existing_text]
    add: list[str] = []
    delete: list[int] = []
    for lesson in _lessons(report)[: mind.settings.lessons_per_failure]:
        verb = "Restore"
        if mind.rng.random() < mind.settings.reflector_error_rate:
            verb = mind.rng.choice(["Remove", "Analyse"])  # a plausible but weaker fix
        # A rule for this host and signal that prescribed something else was followed and still failed.
        for i, r in enumerate(existing, 1):
            if r is not None and lesson.host in r.hosts() and r.condition == lesson.condition and r.verb != verb \
                    and i not in delete:
                delete.append(i)
        rule = ConditionalRule(lesson.host, lesson.condition, verb, lesson.host)
        host_class = _class_of(lesson.host)
        siblings = [
            i for i, r in enumerate(existing, 1)
            if r is not None and r.subject in HOST_CLASSES.get(host_class or "", ()) and r.subject != lesson.host
            and r.condition == lesson.condition and r.verb == verb and i not in delete
        ]
        covered = any(r is not None and r.verb == verb and r.condition == lesson.condition and lesson.host in r.hosts()
                      for i, r in enumerate(existing, 1) if i not in delete)
        if covered:
            continue
        if siblings and host_class:
            rule = ConditionalRule(host_class, lesson.condition, verb, None)
            delete.extend(i for i in siblings if i not in delete)
        if str(rule) not in add:
            add.append(str(rule))
    rationale = ("The failure came from hosts that showed alerts earlier and were left in the attacker's hands."
                 if add else "No earlier alert explains this failure; nothing new to add.")
    return json.dumps({role: {"rationale": rationale, "delete": delete, "add": add}})


def exemplifier(mind: Mind, messages: Sequence[Message]) -> str:
    system = next((m.content for m in messages if m.role == "system"), "")
    report = reading.last_user(messages)
    roles = _allowed_roles(system, ("planner", "action_chooser"))
    if not roles:
        return json.dumps({})
    examples = []
    for lesson in _lessons(report)[: mind.settings.lessons_per_failure]:
        verb = "Restore" if mind.rng.random() >= mind.settings.reflector_error_rate else "Remove"
        seen = lesson.first_alert
        shown = f"Activity {seen.activity}, Compromised {seen.compromised}"
        examples.append({
            "name": f"{verb.lower()}-{lesson.host}-on-{str(lesson.condition).replace(' ', '-').lower()}",
            "situation": f"{lesson.host}: {shown}",
            "steps": [f"Thought: {lesson.host} shows {lesson.condition}; the attacker is using it to move on.",
                      f"Answer: {verb} {lesson.host}"],
        })
    return json.dumps({roles[0]: {"rationale": "Show the move that keeps the attacker off the servers.",
                                  "delete_names": [], "add_examples": examples}})
