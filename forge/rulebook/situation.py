"""What a decision context shows about the hosts, read from its text, and whether a rule's condition holds.

Every prompt context in FORGE states host status in one of three forms:

    User1: Activity Exploit, Compromised User                 (alert lines: Planner, ActionChooser)
    Host User1: table Activity Exploit, Compromised User.     (the Analyst's host context)
    User1 (Activity Exploit, Compromised User)                (the changed-hosts line)

A rule written in the grammar (`When <subject> shows <condition>, then <action>`) carries its own
trigger condition; this is the mechanical check of that condition against the rows a context shows,
the same check a model performs when it reads the rule next to the alerts. Free-text rules have no
such condition and are judged by retrieval alone.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Optional

from forge.grammar import ConditionalRule, parse_rule

_ROW = re.compile(
    r"(?:^|\n|,\s|:\s)\s*(?:Host\s+)?(?P<host>[A-Za-z]+(?:_[A-Za-z]+)?\d)(?::\s*(?:table\s+)?|\s*\()"
    r"Activity (?P<activity>\w+), Compromised (?P<compromised>\w+)"
)


@dataclass(frozen=True)
class HostRow:
    host: str
    activity: str
    compromised: str


def host_rows(text: str) -> tuple[HostRow, ...]:
    """Every (host, activity, compromised) the text states, deduplicated, in order of appearance."""
    seen: dict[HostRow, None] = {}
    for match in _ROW.finditer(text or ""):
        seen.setdefault(HostRow(match["host"], match["activity"], match["compromised"]), None)
    return tuple(seen)


def condition_of(directive: str) -> Optional[ConditionalRule]:
    """The mechanical trigger of a directive written in the grammar, else None."""
    return parse_rule(directive)


def condition_holds(rule: ConditionalRule, rows: tuple[HostRow, ...]) -> bool:
    return any(rule.matches(row.host, row.activity, row.compromised) for row in rows)
