"""The surrogate as Rule Compiler: reads the numbered artifacts of the compiler prompt and answers the
contract's JSON (type, directive, roles, `when` predicate, action, trigger) for each.

Like every surrogate role it knows only the prompt's text, and it reads rules with its own reader
(`free_text`), never the product's grammar or compiler. Its habits, by design:
- a rule or correction, in any phrasing its reader makes out, becomes a predicate over host rows and a
  prescribed, prohibited or preferred action; its directive is the text with its reasons cut off;
- a rule about how replies are written is FORMAT, `{"always": true}`, no action;
- a condition on several subjects becomes an `all` of their atoms (a negated one under `not`), a
  condition that only names an attack phase becomes the contract's phase atom when the prompt offers
  it, and what it cannot place of a condition is its `unexpressed` part;
- an order with several moves ("remove it, then decoy the next hop") is a plan: `then`, with the
  contract's relative targets for "the rest of that subnet" and "the next hop";
- a worked example becomes the rule it demonstrates, no broader: the host in its situation, the clearest
  signal that host shows (its compromise level, else its activity), and its `Answer:`;
- an instruction it cannot read (no action it recognises) stays semantic: CONTENT with a null predicate;
  anything that is not an instruction at all is dropped as noise, and so is a repeat of an earlier
  artifact's directive.
It makes no deliberate errors: its misreadings are its reader's (see tests/test_surrogate_reader.py for
the held-out accuracy). It is registered as the surrogate's "compiler" role when this module is imported.
"""

from __future__ import annotations

import json
import re
from dataclasses import replace
from typing import Optional, Sequence

from forge.env.catalog import DECOY_SERVICES, HOST_CLASSES, HOSTS
from forge.llm.surrogate import reading
from forge.llm.surrogate.free_text import ANY_DECOY, DEFAULT_DECOY, EVIDENCE, MATCHED, Act, Reading, Trigger, read_action, read_rule
from forge.llm.surrogate.phrasing import in_grammar
from forge.llm.surrogate.provider import register_role
from forge.llm.types import Message

_HEADER = re.compile(r"^\[(?P<n>\d+)\] (?P<kind>rule|example|correction) for (?P<role>[a-z_]+), taught by (?P<actor>\S+)\s*$",
                     re.MULTILINE)
_IMPERATIVE = re.compile(r"^(?:never|always|do|don't|avoid|prefer|use|keep|be|make|reply|write|answer|stop|only|when|"
                         r"whenever|if|as soon as|once|try|treat|focus|remember|flag|mark|report|consider|note|"
                         r"escalate|ignore|prioriti[sz]e|watch for|look for)\b", re.IGNORECASE)


def _artifacts(text: str) -> list[tuple[int, str, str, str]]:
    """(number, kind, role, body) for each artifact in the user message."""
    heads = list(_HEADER.finditer(text))
    found = []
    for index, head in enumerate(heads):
        end = heads[index + 1].start() if index + 1 < len(heads) else len(text)
        found.append((int(head["n"]), head["kind"], head["role"], text[head.end():end].strip()))
    return found


def predicate(trigger: Optional[Trigger], kind: str, phases: Sequence[str] = (), history: bool = False) -> dict:
    """The contract's predicate for a trigger; `phases`: the phase atoms the prompt offers; `history`: whether
    it offers the history atoms the trigger needs (else its history stays in `unexpressed`)."""
    if trigger is None:
        return {"always": True}
    if trigger.excluded and trigger.subject in (*HOST_CLASSES, "any"):
        # "every user host other than User0": each host of the class that is not left out
        # (by name, as people count them: "the Enterprise hosts" are Enterprise0-2, not the Defender in their subnet)
        members = HOSTS if trigger.subject == "any" else [h for h in HOST_CLASSES[trigger.subject]
                                                           if h.lower().startswith(trigger.subject.lower()[:2])]
        kept = [h for h in members if h not in trigger.excluded]
        return {"any": [predicate(replace(trigger, subject=h, excluded=()), kind, phases, history) for h in kept]}
    if trigger.either:
        return {"any": [predicate(replace(trigger, subject=h, either=()), kind, phases, history)
                        for h in (trigger.subject, *trigger.either)]}
    if trigger.extra:
        return {"all": [predicate(replace(trigger, extra=()), kind, phases, history),
                        *(predicate(t, kind, phases) for t in trigger.extra)]}
    if trigger.quiet:
        return {"not": {"any": [{"class": "any", "activity": "any"}, {"class": "any", "compromise": "any"}]}}
    if trigger.negated:
        return {"not": predicate(replace(trigger, negated=False), kind, (), history)}
    if history and trigger.history and not trigger.also:
        place = {"host": trigger.subject} if trigger.subject in HOSTS else {"class": trigger.subject}
        atom = dict(place)
        for key, value in (("activity", trigger.activity), ("compromise", trigger.compromise)):
            if value is not None:
                atom[key] = value
        facts = dict(trigger.history)
        absent = facts.pop("absent", False)
        if absent:
            # "no decoy went on it lately": the state, and none of those moves on the same host
            return {"all": [atom, {"not": _moves_made(place, facts)}]}
        return _moves_made(atom, facts)
    if trigger.phase is not None and trigger.phase in phases and not trigger.also:
        return {"phase": trigger.phase}
    if trigger.also:
        return {"all": [predicate(Trigger(host, trigger.activity, trigger.compromise), kind)
                        for host in (trigger.subject, *trigger.also)]}
    if trigger.compromise is not None and "|" in trigger.compromise:
        # either level ("owned, user or root"): one atom each
        return {"any": [predicate(replace(trigger, compromise=level), kind, phases, history)
                        for level in trigger.compromise.split("|")]}
    atom: dict = {"host": trigger.subject} if trigger.subject not in (*HOST_CLASSES, "any") else {"class": trigger.subject}
    if trigger.activity is not None:
        atom["activity"] = trigger.activity
    if trigger.compromise is not None:
        atom["compromise"] = trigger.compromise
    if "class" in atom and not trigger.has_signal:
        # "Never reimage the user hosts": wherever a user host is in view; "analyse user hosts": when they show anything.
        return atom if kind == "never" else {**atom, "activity": "any"}
    return atom


def _moves_made(atom: dict, facts: dict):
    """An atom with its history facts; a move "a decoy" (no service named) is any of the decoy verbs."""
    if facts.get("acted") != ANY_DECOY:
        return {**atom, **facts}
    return {"any": [{**atom, **facts, "acted": f"Decoy{service}"} for service in DECOY_SERVICES]}


def _act(act: Act) -> dict:
    verb = DEFAULT_DECOY if act.verb == ANY_DECOY else act.verb
    return {"verb": verb, "target": act.target}


def action(rule: Reading, any_verb: bool = False) -> Optional[dict]:
    """The contract's action; `any_verb`: the prompt offers `"verb": "any"` for a prohibition with no verb."""
    if rule.act is not None and rule.act.verb is None and rule.kind == "never" and any_verb and rule.act.target is not None:
        return {"mode": "never", "verb": "any", "target": rule.act.target}  # "spend no actions on User0": every verb
    if rule.act is None or rule.act.verb is None:
        return None  # "do not waste actions on User0", and the prompt offers no word for every verb
    act = rule.act
    trigger = rule.trigger
    if act.target == MATCHED and trigger is not None and trigger.subject in HOST_CLASSES \
            and any(not t.negated for t in trigger.extra):
        # "Restore the Enterprise host" where a User host must be compromised too: the Enterprise hosts, not both.
        act = Act(act.verb, trigger.subject)
    if rule.kind == "prefer" and rule.over is not None and rule.over.verb is not None:
        return {"mode": "prefer", **_act(act), "over": _act(rule.over)}
    if rule.kind == "do" and rule.then:
        return {"mode": "do", **_act(act), "then": [_act(m) for m in rule.then]}
    return {"mode": "never" if rule.kind == "never" else "do", **_act(act)}


def trigger_text(trigger: Optional[Trigger]) -> str:
    """The situation in an observation's words: `User2: Activity Exploit`, `User host: Compromised Privileged`."""
    if trigger is None:
        return ""
    who = trigger.subject if trigger.subject not in (*HOST_CLASSES, "any") else f"{trigger.subject.capitalize()} host"
    parts = []
    if trigger.activity is not None:
        parts.append("Activity " + ("Scan or Exploit" if trigger.activity == "any" else trigger.activity))
    if trigger.compromise is not None:
        parts.append("Compromised " + ("User or Privileged" if trigger.compromise == "any" else trigger.compromise.replace("|", " or ")))
    return f"{who}: {', '.join(parts)}" if parts else who


def _from_example(body: str) -> Optional[Reading]:
    alerts = reading.alerts_in(body)
    answer = re.search(r"^\s*Answer:\s*(.+)$", body, re.MULTILINE)
    chosen = read_action(answer.group(1)) if answer else None
    if not alerts or not chosen:
        return None
    seen = alerts[0]
    # As specific as the demonstration: the compromise it shows, else its activity (an example of
    # what to do at "Compromised User" says nothing about "Compromised Privileged").
    if seen.compromised in ("User", "Privileged", "Unknown"):
        trigger = Trigger(seen.host, None, seen.compromised)
    elif seen.activity in ("Exploit", "Scan"):
        trigger = Trigger(seen.host, seen.activity, None)
    else:
        return None
    verb, _, host = chosen.partition(" ")
    text = in_grammar(seen.host, trigger.signal(), verb, host or None)
    return Reading("do", trigger, Act(verb, host or None), None, text)


def _entry(number: int, kind: str, role: str, body: str, phases: Sequence[str] = (), history: Sequence[str] = (),
           any_verb: bool = False) -> dict:
    rule = _from_example(body) if kind == "example" else read_rule(body)
    if rule is None:
        return {"item": number, "verdict": "DROP", "reason": "the example shows no alert and action to learn from"}
    base = {"item": number, "verdict": "RULE", "directive": rule.text, "roles": [role]}
    if rule.kind == "format":
        return {**base, "type": "FORMAT", "when": {"always": True}, "action": None, "trigger": ""}
    if rule.kind == "vague":
        if not rule.text or not _IMPERATIVE.match(rule.text):
            return {"item": number, "verdict": "DROP", "reason": "not an instruction"}
        if rule.unread:  # a condition of history it cannot state: nothing expressed, the rest listed
            return {**base, "type": "CONTENT", "when": {"always": True}, "action": None, "unexpressed": rule.unread,
                    "trigger": rule.text.rstrip(".")}
        return {**base, "type": "CONTENT", "when": None, "action": None, "trigger": rule.text.rstrip(".")}
    stated = rule.trigger is not None and bool(rule.trigger.history) and \
        {key for key, _ in rule.trigger.history} - {"within", "changed", "absent"} <= set(history)
    when = predicate(rule.trigger, rule.kind, phases, stated)
    if rule.unread and EVIDENCE.search(rule.unread) and set(when) == {"class", "activity"} and when["activity"] == "any":
        when = {"class": when["class"]}  # (a host of the class, whatever its row: the evidence in the rest is the condition)
    trigger = rule.trigger
    if trigger is not None and trigger.negated and trigger.subject in HOSTS and set(when) == {"not"} \
            and rule.act is not None and rule.act.target == trigger.subject:
        # "DecoySSHD on E0 unless E0 is owned", "leave U0 alone unless it is exploited": a rule on that host, where it is
        # shown and not in that state (the denial alone held wherever the host was not shown at all)
        when = {"all": [{"host": trigger.subject}, when]}
    if rule.cases:  # a note of cases: any of them ("other cases: ..." told in the rest)
        when = {"any": [when, *(predicate(case, rule.kind, phases) for case in rule.cases)]}
    return {**base, "type": "CONTENT", "when": when, "action": action(rule, any_verb),
            "unexpressed": rule.unread_beyond_history if stated else rule.unread, "trigger": trigger_text(rule.trigger)}


def _artifacts_message(messages: Sequence[Message]) -> str:
    """The user message listing the artifacts (on a corrective re-prompt it is no longer the last one)."""
    return next((m.content for m in reversed(messages) if m.role == "user" and _HEADER.search(m.content)), "")


def offered_phases(messages: Sequence[Message]) -> tuple[str, ...]:
    """The phase atoms the contract offers (`{"phase": "reconnaissance"}` in the system prompt)."""
    system = "\n".join(m.content for m in messages if m.role == "system")
    return tuple(dict.fromkeys(re.findall(r'\{"phase": "([a-z_]+)"\}', system)))


_HISTORY_KEYS = ("newly_compromised", "unchanged_for", "acted", "scan_before_exploit")


def offered_history(messages: Sequence[Message]) -> tuple[str, ...]:
    """The history conditions the contract offers as predicate keys (`"acted": ...` in its examples)."""
    system = "\n".join(m.content for m in messages if m.role == "system")
    return tuple(key for key in _HISTORY_KEYS if f'"{key}":' in system)


def offered_any_verb(messages: Sequence[Message]) -> bool:
    """Whether the contract offers a prohibition of every verb (`"verb": "any"` in its examples)."""
    return any('"verb": "any"' in m.content for m in messages if m.role == "system")


def compiler(mind, messages: Sequence[Message]) -> str:
    entries = []
    seen: set[str] = set()
    phases, history, any_verb = offered_phases(messages), offered_history(messages), offered_any_verb(messages)
    for number, kind, role, body in _artifacts(_artifacts_message(messages)):
        entry = _entry(number, kind, role, body, phases, history, any_verb)
        key = entry.get("directive", "").casefold().rstrip(".")
        if entry["verdict"] == "RULE" and key in seen:
            entry = {"item": number, "verdict": "DROP", "reason": "repeats an earlier artifact"}
        seen.add(key)
        entries.append(entry)
    return json.dumps({"rules": entries}, separators=(",", ":"))  # compact: a batch must fit max_tokens


register_role("compiler", compiler)
