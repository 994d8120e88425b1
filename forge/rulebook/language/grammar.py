"""The conditional-rule grammar: `When <subject> shows <condition>, then <Verb> <target>.`

Learned rules are free text; this grammar is the subset that can be checked mechanically. The
surrogate model writes and follows rules in it, the rulebook compiles them without a model call, and
`matches()` says whether a rule applies to a row of the blue table.

    subject   := a hostname (User1) | a host class (a User host, an Enterprise host, an Operational
                 host) | any host
    condition := Activity <None|Scan|Exploit> | Compromised <No|Unknown|User|Privileged>
                 | any activity | any compromise          (the values of forge.env.catalog)
    target    := a hostname | that host
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Optional

from forge.env.catalog import (
    ACTIONS,
    ACTIVITIES,
    COMPROMISE_LEVELS,
    GLOBAL_VERBS,
    HOST_CLASSES,
    HOSTS,
    QUIET_ACTIVITY,
    QUIET_COMPROMISE,
    CLASS_WORDS,
    ActionParseError,
    parse_action,
)

_RULE = re.compile(
    r"^\s*(?:[-*\d.)\s]*)when\s+(?P<subject>.+?)\s+shows?\s+(?P<condition>.+?)\s*,?\s*then\s+(?P<action>.+?)\s*\.?\s*$",
    re.IGNORECASE,
)
_CLASS_PHRASES = {"User": "a User host", "Enterprise": "an Enterprise host", "Operational": "an Operational host"}
_ACTIVITY = {v.lower(): v for v in ACTIVITIES}
_COMPROMISE = {v.lower(): v for v in COMPROMISE_LEVELS}


@dataclass(frozen=True)
class Condition:
    """What a rule's When-clause asks of a host. Not the experiment arm (`forge.config.Arm`)."""

    field: str  # "activity" | "compromised"
    value: Optional[str]  # None: anything but the quiet value

    def holds(self, activity: str, compromised: str) -> bool:
        actual = activity if self.field == "activity" else compromised
        if self.value is None:
            return actual != (QUIET_ACTIVITY if self.field == "activity" else QUIET_COMPROMISE)
        return actual == self.value

    def __str__(self) -> str:
        if self.value is None:
            return "any activity" if self.field == "activity" else "any compromise"
        return f"Activity {self.value}" if self.field == "activity" else f"Compromised {self.value}"


@dataclass(frozen=True)
class ConditionalRule:
    subject: str  # a hostname, a class name (User/Enterprise/Operational) or "any"
    condition: Condition
    verb: str
    target: Optional[str]  # a hostname, None for "that host", or None for host-less verbs

    def hosts(self) -> tuple[str, ...]:
        if self.subject in HOSTS:
            return (self.subject,)
        if self.subject in HOST_CLASSES:
            return HOST_CLASSES[self.subject]
        return HOSTS

    def action_for(self, host: str) -> str:
        """The concrete action this rule prescribes when `host` is the one that matched."""
        if self.verb in GLOBAL_VERBS:
            return self.verb
        return f"{self.verb} {self.target or host}"

    def matches(self, host: str, activity: str, compromised: str) -> bool:
        return host in self.hosts() and self.condition.holds(activity, compromised)

    def __str__(self) -> str:
        subject = self.subject if self.subject in HOSTS else _CLASS_PHRASES.get(self.subject, "any host")
        target = "" if self.verb in GLOBAL_VERBS else f" {self.target or 'that host'}"
        return f"When {subject} shows {self.condition}, then {self.verb}{target}."


def _subject(text: str) -> Optional[str]:
    words = re.findall(r"[A-Za-z_0-9]+", text)
    for word in words:
        for host in HOSTS:
            if word.lower() == host.lower():
                return host
    lowered = [w.lower() for w in words]
    if "any" in lowered and "host" in lowered and len(lowered) <= 3:
        return "any"
    for word in lowered:
        if word in CLASS_WORDS and "host" in lowered:
            return CLASS_WORDS[word]
    return None


def _condition(text: str) -> Optional[Condition]:
    words = [w.lower() for w in re.findall(r"[A-Za-z]+", text)]
    if not words:
        return None
    if words[:2] == ["any", "activity"]:
        return Condition("activity", None)
    if words[:2] == ["any", "compromise"]:
        return Condition("compromised", None)
    if len(words) >= 2 and words[0] == "activity" and words[1] in _ACTIVITY:
        return Condition("activity", _ACTIVITY[words[1]])
    if len(words) >= 2 and words[0] in ("compromised", "compromise") and words[1] in _COMPROMISE:
        return Condition("compromised", _COMPROMISE[words[1]])
    # Bare forms a model may write: "shows Exploit", "shows Privileged compromise", "shows User compromise".
    if words[0] in ("exploit", "scan"):
        return Condition("activity", _ACTIVITY[words[0]])
    if words[0] in ("privileged", "unknown") or words[:2] == ["user", "compromise"]:
        return Condition("compromised", _COMPROMISE[words[0]])
    return None


def _action(text: str) -> tuple[Optional[str], Optional[str]]:
    try:
        action = ACTIONS[parse_action(text)]
        return action.verb, action.host
    except ActionParseError:
        pass
    try:  # a host verb with its host left to the match
        action = ACTIONS[parse_action(f"{text} {HOSTS[0]}")]
        return action.verb, None
    except ActionParseError:
        return None, None


def parse_rule(text: str) -> Optional[ConditionalRule]:
    """The rule in `text`, or None when it is not in the grammar (free text stays free text)."""
    match = _RULE.match(text or "")
    if not match:
        return None
    subject = _subject(match["subject"])
    condition = _condition(match["condition"])
    if subject is None or condition is None:
        return None
    # "Restore that host" / "Restore it": the target is whichever host matched the subject.
    action_text = re.sub(r"\b(that|this|the same|the)\s+host\b|\bit\b", "", match["action"], flags=re.IGNORECASE)
    verb, target = _action(action_text.strip())
    if verb is None:
        return None
    return ConditionalRule(subject=subject, condition=condition, verb=verb, target=target)
