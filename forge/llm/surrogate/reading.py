"""How the surrogate reads a prompt: plain-text parsing of what the messages say, nothing else.

The surrogate has no access to the environment, the memory store or the agent objects. Whatever it
knows (its role, the alerts, its learned rules and examples, the tool results, a failure report) it
finds here, in the text, by the section headers and line formats the prompts themselves state.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Optional, Sequence

from forge.llm.surrogate.free_text import Row, read_action
from forge.llm.types import Message

ROLE_NAMES = {
    "planner": "Planner",
    "analyst": "Analyst",
    "action_chooser": "ActionChooser",
    "reflector": "Reflector",
    "exemplifier": "Exemplifier",
    "compiler": "Rule Compiler",
}
_ROLE = re.compile(r"You are the (Planner|Analyst|ActionChooser|Reflector|Exemplifier|Rule Compiler)\b")
_ALERT = re.compile(r"^\s*(?P<host>[A-Za-z_]+\d?): Activity (?P<activity>\w+), Compromised (?P<compromised>\w+)\s*$")
# `User2 | Activity Exploit | Compromised User`, `User2 | Exploit | User`, or the blue table's
# `User2 | subnet | ip | Exploit | User` (the last two cells are activity and compromise).
_PIPE_ROW = re.compile(r"^\s*(?P<host>[A-Za-z_]+\d?)\s*\|(?:[^|\n]*\|)*?\s*(?:Activity\s+)?(?P<activity>None|Scan|Exploit)\s*\|"
                       r"\s*(?:Compromised\s+)?(?P<compromised>No|Unknown|User|Privileged)\s*\|?\s*$", re.IGNORECASE)
_SECTION = re.compile(r"^## ")


Alert = Row  # one host row as the prompt shows it


@dataclass(frozen=True)
class Example:
    title: str
    situation: tuple[Alert, ...]
    answer: str


def detect_role(messages: Sequence[Message]) -> Optional[str]:
    for message in messages:
        if message.role == "system":
            match = _ROLE.search(message.content)
            if match:
                return next(k for k, v in ROLE_NAMES.items() if v == match.group(1))
    return None


def _section(text: str, header: str) -> list[str]:
    lines = text.splitlines()
    out: list[str] = []
    inside = False
    for line in lines:
        if line.strip() == header:
            inside = True
            continue
        if inside and _SECTION.match(line):
            inside = False
        if inside:
            out.append(line)
    return out


def learned_rules(messages: Sequence[Message]) -> list[str]:
    """Rules under a `## Learned rules` header, in any message (system prompt or a prepended pair), then the
    lines of the operator's `## Persistent knowledge` (instructions there are followed like rules)."""
    rules: list[str] = []
    persistent: list[str] = []
    for message in messages:
        if message.role == "assistant":
            continue
        for line in _section(message.content, "## Learned rules"):
            if line.lstrip().startswith("- "):
                rules.append(line.lstrip()[2:].strip())
        persistent += [line.strip().removeprefix("- ").strip()
                       for line in _section(message.content, "## Persistent knowledge") if line.strip()]
    return rules + persistent


def learned_examples(messages: Sequence[Message]) -> list[Example]:
    examples: list[Example] = []
    for message in messages:
        if message.role == "assistant":
            continue
        body = "\n".join(_section(message.content, "## Learned examples"))
        for block in re.split(r"^### ", body, flags=re.MULTILINE)[1:]:
            title, _, rest = block.partition("\n")
            situation = tuple(alerts_in(rest))
            answer = re.search(r"^\s*Answer:\s*(.+)$", rest, re.MULTILINE)
            if situation and answer:
                examples.append(Example(title.strip(), situation, answer.group(1).strip()))
    return examples


def alerts_in(text: str) -> list[Alert]:
    """Rows written as `Host: Activity X, Compromised Y` or `Host | Activity X | Compromised Y`, one per line;
    failing those, prose that names hosts and what they show (`Enterprise0 and User1 show Activity Scan`)."""
    found = []
    for line in text.splitlines():
        match = _ALERT.match(line) or _PIPE_ROW.match(line)
        if match:
            found.append(Alert(match["host"], match["activity"].capitalize(), match["compromised"].capitalize()))
    return found or _prose_alerts(text)


_PROSE = re.compile(r"(?P<hosts>[A-Za-z_]+\d(?:\s*(?:,|and)\s*[A-Za-z_]+\d)*)\s+shows?\s+"
                    r"(?:Activity\s+(?P<activity>None|Scan|Exploit))?(?:\s*(?:,|and)?\s*Compromised\s+(?P<compromised>No|Unknown|User|Privileged))?",
                    re.IGNORECASE)


def _prose_alerts(text: str) -> list[Alert]:
    found: dict[str, Alert] = {}
    for match in _PROSE.finditer(text):
        if not (match["activity"] or match["compromised"]):
            continue
        for host in re.findall(r"[A-Za-z_]+\d", match["hosts"]):
            found.setdefault(host, Alert(host, (match["activity"] or "None").capitalize(),
                                         (match["compromised"] or "No").capitalize()))
    return list(found.values())


def one_line_alerts(text: str) -> list[Alert]:
    """The failure report's alerts: `User1: Activity Exploit, Compromised User; Enterprise1: ...`."""
    return [a for part in text.split(";") for a in alerts_in(part.strip())]


def last_user(messages: Sequence[Message]) -> str:
    for message in reversed(messages):
        if message.role == "user":
            return message.content
    return ""


def first_user(messages: Sequence[Message]) -> str:
    for message in messages:
        if message.role == "user" and "## Learned rules" not in message.content:
            return message.content
    return ""


def changed_hosts(text: str) -> list[str]:
    match = re.search(r"Hosts changed since the last step: (.+)", text)
    if not match:
        return []
    return re.findall(r"([A-Za-z_]+\d)\s*\(", match.group(1))


def suggested_actions(text: str) -> list[str]:
    """Actions listed as `1. <action> - why` after a suggestion tool result."""
    _, _, after = text.partition("Result of get_suggestion_for_next_action")
    actions = []
    for line in after.splitlines():
        match = re.match(r"^\s*\d+[.)]\s*([^-:\u2013\u2014]+)", line)
        action = read_action(match.group(1)) if match else None
        if action:
            actions.append(action)
    return actions


def labelled_line(text: str, label: str) -> Optional[str]:
    match = re.search(rf"^{re.escape(label)}\s*(.*)$", text, re.MULTILINE)
    return match.group(1).strip() if match else None
