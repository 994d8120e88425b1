"""What the surrogate answers in each role. Pure functions of (the messages' text, a seeded RNG, settings).

Its character, by design:
- zero-shot it is a weak defender: it investigates, sometimes removes, never reimages a host (it does
  not know Restore is worth its cost), so it loses most of the network to B_line;
- it follows a learned rule, correction or example that its prompt contains, read with its own reader
  (`free_text`), when its reading says the rule applies to the hosts the prompt shows, with
  probability `compliance`; it obeys prohibitions the same way (it avoids the prohibited action and
  takes its next best); anything not in the prompt does not exist;
- as Reflector it reads the failure report. With the paper's feedback (the trajectory, the failing step,
  its reward and the threshold) it infers the responsible host from what the defender observed and did:
  the most valuable host that showed a compromise (else an exploit) and was never reimaged after it.
  With privileged feedback it takes the host that cost most reward at the failing step. It writes
  "restore that host when it shows that signal" in a seeded choice of natural phrasings (`phrasing`;
  with probability `reflector_error_rate` a weaker fix), generalises to a host class when a rule for a
  sibling host exists, and replaces a rule for the same situation that prescribed something else; as
  Exemplifier it writes the same lesson as a short ReAct demonstration.
"""

from __future__ import annotations

import json
import random
import re
from dataclasses import dataclass
from typing import Optional, Sequence

from forge.config import SurrogateConfig
from forge.env.catalog import DECOY_SERVICES, HOST_CLASSES, HOSTS
from forge.llm.surrogate import reading
from forge.llm.surrogate.free_text import Reading, read_action, read_rule
from forge.llm.surrogate.phrasing import phrase_rule
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


@dataclass(frozen=True)
class _Teaching:
    """The learned rules of a prompt as the surrogate reads them, and the prohibitions it chose to obey."""

    rules: tuple[Reading, ...]
    bans: tuple[Reading, ...]
    rows: tuple[Alert, ...]

    def allows(self, action: str) -> bool:
        return not any(ban.forbids(action, self.rows) for ban in self.bans)


def _teaching(mind: Mind, messages: Sequence[Message], rows: list[Alert]) -> _Teaching:
    rules = tuple(read_rule(text) for text in reading.learned_rules(messages))
    bans = tuple(r for r in rules if r.kind in ("never", "prefer") and mind.complies())
    return _Teaching(rules, bans, tuple(rows))


def _taught_action(mind: Mind, messages: Sequence[Message], teaching: _Teaching) -> Optional[str]:
    """The action a learned rule or example in the prompt prescribes for these rows, if the model complies."""
    rules = [r for r in teaching.rules if r.kind in ("do", "prefer")]
    examples = reading.learned_examples(messages)
    for alert in teaching.rows:
        for rule in rules:
            prescribed = rule.prescribes([alert])
            if prescribed and mind.complies() and teaching.allows(prescribed[0]):
                return prescribed[0]
        for example in examples:
            if any(_similar(alert, seen) for seen in example.situation) and mind.complies():
                action = read_action(example.answer)
                if action and teaching.allows(action):
                    return action
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
    teaching = _teaching(mind, messages, alerts)
    taught = _taught_action(mind, messages, teaching)
    if taught:
        return f"Answer: {taught}"
    suggestions = reading.suggested_actions("\n".join(m.content for m in messages if m.role == "user"))
    if suggestions:
        allowed = [a for a in suggestions if teaching.allows(a)]
        return f"Answer: {(allowed or [_fallback_action(teaching)])[0]}"
    if "No tool calls are left" in latest or "could not be used" in latest:
        return f"Answer: {_fallback_action(teaching)}"
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
    teaching = _teaching(mind, messages, alerts)
    ranked: list[tuple[str, str]] = []
    taught = _taught_action(mind, messages, teaching)
    if taught:
        ranked.append((taught, "a learned rule covers this"))
    ranked.extend(_untaught_choices(mind, alerts))
    # Next best when prohibitions rule out its instinct: look at the other hosts, else wait.
    ranked += [(f"Analyse {a.host}", "look closer") for a in alerts[1:]]
    ranked += [("Monitor", "nothing else is allowed"), ("Sleep", "nothing else is allowed")]
    seen: set[str] = set()
    lines = []
    for action, why in ranked:
        if action not in seen and teaching.allows(action):
            seen.add(action)
            lines.append(f"{len(lines) + 1}. {action} - {why}")
        if len(lines) == 3:
            break
    return "\n".join(lines)


def _fallback_action(teaching: _Teaching) -> str:
    return next((a for a in ("Monitor", "Sleep") if teaching.allows(a)), "Monitor")


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


COMPROMISED = (None, "any")  # a lesson's signal: (activity, compromise)
EXPLOITED = ("Exploit", None)
# How much a host is worth defending, as any defender of this network knows: losing the operational
# server ends the mission, enterprise hosts are the way to it, user hosts are the attacker's way in.
_WORTH = {"Operational": 2, "Enterprise": 3, "User": 1}


@dataclass(frozen=True)
class _Lesson:
    host: str
    signal: tuple[Optional[str], Optional[str]]
    cost: float  # lower first: the reward the host cost (privileged feedback) or minus its inferred weight
    first_alert: Alert


def _worth(host: str) -> int:
    return 4 if host.startswith("Op_Server") else _WORTH.get(_class_of(host) or "", 1)


def _trajectory(report: str) -> list[tuple[int, list[Alert], str]]:
    """(step, alerts the defender saw, action it took) for each line of the report's trajectory."""
    steps = []
    for line in report.splitlines():
        match = re.match(r"^step (\d+) \| alerts: (.*?) \| action: (.*?)(?: \(fallback\))? \|", line)
        if match:
            steps.append((int(match[1]), reading.one_line_alerts(match[2]), match[3].strip()))
    return steps


def _lessons(report: str) -> list[_Lesson]:
    """The hosts behind the failure, each with the clearest alert it showed before it: any compromise if
    the table ever showed one, else its first exploit. A host that was only ever scanned teaches
    nothing here (reimaging an uncompromised host does not stop the attack).

    Privileged feedback names the hosts that cost reward at the failing step. The paper's feedback does
    not; then the responsible hosts are inferred from what the defender saw and did: hosts that showed a
    compromise or an exploit and were not reimaged after their last alert, the most valuable first
    (compromise before exploit, the most recent alert first)."""
    compromise: dict[str, Alert] = {}
    exploit: dict[str, Alert] = {}
    last_alert: dict[str, int] = {}
    last_restore: dict[str, int] = {}
    for step, alerts, action in _trajectory(report):
        for alert in alerts:
            if alert.compromised in ("User", "Privileged"):
                compromise.setdefault(alert.host, alert)
            if alert.activity == "Exploit":
                exploit.setdefault(alert.host, alert)
            if alert.compromised in ("User", "Privileged") or alert.activity == "Exploit":
                last_alert[alert.host] = step
        verb, _, host = action.partition(" ")
        if verb == "Restore" and host:
            last_restore[host] = step
    costs_line = reading.labelled_line(report, "Reward at the failing step by host:")
    if costs_line is not None:
        costs = [(h, float(v)) for h, v in re.findall(r"([A-Za-z_]+\d)\s+([+-]\d+(?:\.\d+)?)", costs_line)]
    else:
        left = [h for h in last_alert if last_alert[h] >= last_restore.get(h, -1)]
        left.sort(key=lambda h: (-_worth(h), h not in compromise, -last_alert[h]))
        costs = [(h, -float(_worth(h))) for h in left]
    lessons = []
    for host, cost in sorted(costs, key=lambda hc: hc[1]):
        if cost >= 0:
            continue
        if host in compromise:
            # The table flips between User, Unknown and Privileged as blue acts; the lesson is "compromised".
            lessons.append(_Lesson(host, COMPROMISED, cost, compromise[host]))
        if host in exploit:  # second to the compromise lesson: the earlier warning the same host gave
            lessons.append(_Lesson(host, EXPLOITED, cost, exploit[host]))
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


def _acting(rule: Reading) -> bool:
    return rule.kind in ("do", "prefer") and rule.trigger is not None and rule.act is not None


def reflector(mind: Mind, messages: Sequence[Message]) -> str:
    system = next((m.content for m in messages if m.role == "system"), "")
    report = reading.last_user(messages)
    roles = _allowed_roles(system, ("action_chooser", "planner"))[: max(1, mind.settings.lesson_roles)]
    lessons = _lessons(report)[: mind.settings.lessons_per_failure]
    return json.dumps({role: _reflect_for(mind, lessons, _current_rules(report, role)) for role in roles})


def _reflect_for(mind: Mind, lessons: list[_Lesson], current: list[str]) -> dict:
    """One role's rule changes: its own earlier rules, in whatever phrasing, read with the same reader."""
    existing = list(enumerate((read_rule(t) for t in current), 1))
    add: list[str] = []
    written: set[tuple] = set()
    delete: list[int] = []
    for lesson in lessons:
        verb = "Restore"
        if mind.rng.random() < mind.settings.reflector_error_rate:
            verb = mind.rng.choice(["Remove", "Analyse"])  # a plausible but weaker fix
        same_situation = [(i, r) for i, r in existing if _acting(r) and r.trigger.signal() == lesson.signal]
        # A rule for this host and signal that prescribed something else was followed and still failed.
        replaced = None
        for i, r in same_situation:
            if lesson.host in r.trigger.hosts() and r.act.verb != verb and i not in delete:
                delete.append(i)
                replaced = r.act.verb
        host_class = _class_of(lesson.host)
        siblings = [i for i, r in same_situation
                    if r.trigger.subject in HOST_CLASSES.get(host_class or "", ()) and r.trigger.subject != lesson.host
                    and r.act.verb == verb and i not in delete]
        covered = any(r.act.verb == verb and lesson.host in r.trigger.hosts() for i, r in same_situation if i not in delete)
        if covered:
            continue
        subject = lesson.host
        if siblings and host_class and mind.settings.generalise:
            subject = host_class
            delete.extend(i for i in siblings if i not in delete)
        if (subject, lesson.signal, verb) not in written:
            written.add((subject, lesson.signal, verb))
            add.append(phrase_rule(subject, lesson.signal, verb, mind.rng, replaced=replaced,
                                   varied=mind.settings.rule_phrasing.value == "varied"))
    rationale = ("The failure came from hosts that showed alerts earlier and were left in the attacker's hands."
                 if add else "No earlier alert explains this failure; nothing new to add.")
    return {"rationale": rationale, "delete": delete, "add": add}


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
        condition = "any compromise" if lesson.signal == COMPROMISED else "Activity Exploit"
        examples.append({
            "name": f"{verb.lower()}-{lesson.host}-on-{condition.replace(' ', '-').lower()}",
            "situation": f"{lesson.host}: {shown}",
            "steps": [f"Thought: {lesson.host} shows {condition}; the attacker is using it to move on.",
                      f"Answer: {verb} {lesson.host}"],
        })
    return json.dumps({roles[0]: {"rationale": "Show the move that keeps the attacker off the servers.",
                                  "delete_names": [], "add_examples": examples}})
