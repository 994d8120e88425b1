"""What a decision context states about the hosts, read from its text. Pure.

The rulebook's gate evaluates each rule's trigger predicate (predicate.py) against this reading, so it
must understand every way a context states host status:

    Hostname | Subnet | IP | Activity | Compromised          the environment's blue table (text_view.py)
    User1 | User | 10.0.96.3 | Exploit | User
    User2 | Activity Exploit | Compromised User             operator-written `host | activity | compromise` rows
    User1: Activity Exploit, Compromised User               alert lines (Planner, ActionChooser)
    Host User1: table Activity Exploit, Compromised User.   the Analyst's host context
    User1 (Activity Exploit, Compromised User)              the changed-hosts line
    All 13 hosts: Activity None, Compromised No.            a quiet network; `(N other hosts: ...)`;
    No host shows activity or compromise.                   the alerts' quiet line: every host stated quiet
    Enterprise0, Enterprise1 and User1 show Activity Scan   prose: hosts and conditions in one clause
    User0 is compromised.  Op_Server0 has been exploited.

A host named without a status (`what about User0?`) is *shown* with nothing stated about it.

The defender's own history (agents/defender.py writes it from what it saw and did; never hidden state)
is read into `Situation.history`, not into the hosts the context shows:

    Step 8 of 30.                                                          the current step
    Recent steps: step 6: Remove User1 -> reward -1.1 | step 7: Monitor -> reward -1.1
    Host history (last 3 steps): User1: step 5 Exploit/User, step 6 None/User; every other host: None/No

`step N` in both lines is the step whose observation the defender saw before acting (the effect of the
step-6 Remove shows at step 7). A context without these lines carries no history: every history atom is
unknown on it (predicate.py).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from typing import Optional

from forge.env.catalog import ACTIVITIES, COMPROMISE_LEVELS, HOSTS, QUIET_ACTIVITY, QUIET_COMPROMISE

SOME = "?"  # a stated level we do not know ("User0 is compromised"): not quiet, level unknown

_HOST_WORD = {h.lower(): h for h in HOSTS}
_HOST_RE = re.compile(r"\b(" + "|".join(sorted(HOSTS, key=len, reverse=True)) + r")\b", re.IGNORECASE)
_ACT_VALUES = {v.lower(): v for v in ACTIVITIES}
_COMP_VALUES = {v.lower(): v for v in COMPROMISE_LEVELS}
_PAIR = re.compile(r"Activity:?\s+(?P<activity>\w+)\s*,?\s*(?:and\s+)?Compromised:?\s+(?P<compromised>\w+)", re.IGNORECASE)
_ACTIVITY_ONLY = re.compile(r"\bActivity:?\s+(" + "|".join(ACTIVITIES) + r")\b", re.IGNORECASE)
_COMPROMISED_ONLY = re.compile(r"\bCompromised:?\s+(" + "|".join(COMPROMISE_LEVELS) + r")\b", re.IGNORECASE)
# The environment's own ways of saying every host is quiet (text_view.py): a statement about all hosts;
# the alerts' line names none of them.
_ALL_QUIET = re.compile(r"\bAll (\d+) hosts: Activity None, Compromised No\b")
_NONE_ALERTED = re.compile(r"^\s*No host shows activity or compromise\.?\s*$")
_OTHERS_QUIET = re.compile(r"\(\d+ other hosts: Activity None, Compromised No\)")
_SKIPPED_LINES = re.compile(r"^\s*(?:Recent steps:|Host history\b|Step \d+ of \d+\.?\s*$)", re.IGNORECASE)
_STEP_LINE = re.compile(r"^\s*Step (\d+) of \d+\b", re.IGNORECASE)
_RECENT_LINE = re.compile(r"^\s*Recent steps:\s*(.*)$", re.IGNORECASE)
_RECENT_ENTRY = re.compile(r"step (\d+):\s*([A-Za-z_]+)(?:\s+([A-Za-z_]+\d*))?(?:\s*->\s*reward\s*([-+]?\d+(?:\.\d+)?))?",
                           re.IGNORECASE)
_HOST_HISTORY_LINE = re.compile(r"^\s*Host history(?:\s*\(last (\d+) steps?\))?:\s*(.*)$", re.IGNORECASE)
_OTHER_HOSTS = re.compile(r"^\s*(?:every|all) other hosts?:\s*None\s*/\s*No\s*$", re.IGNORECASE)
_HOST_HISTORY_ENTRY = re.compile(r"step (\d+)\s+(\w+)\s*/\s*(\w+)", re.IGNORECASE)

# Prose vocabulary, checked in order: the first that matches a clause wins for its field. The values are
# the catalog's (ACTIVITIES, COMPROMISE_LEVELS) or SOME.
_PROSE_COMPROMISE = (
    (re.compile(r"\b(?:not|un)[- ]?compromised\b|\bclean\b|\bno compromise\b", re.I), "No"),
    (re.compile(r"\bprivileged\b|\broot\b|\badmin(?:istrator)?\b|\bsystem[- ]level\b|\bescalat", re.I), "Privileged"),
    (re.compile(r"\buser[- ]level\b|\buser (?:access|privileges?|compromise|shell)\b|\bcompromised (?:as|at) user\b", re.I), "User"),
    (re.compile(r"\bunknown compromise\b|\bcompromise (?:is )?unknown\b", re.I), "Unknown"),
    (re.compile(r"\bcompromis|\bowned\b|\binfected\b|\bfoothold\b|\bbreached\b|\btaken over\b|\bpwned\b|\binfiltrated\b", re.I), SOME),
)
_PROSE_ACTIVITY = (
    (re.compile(r"\bno activity\b|\bquiet\b|\bidle\b", re.I), "None"),
    (re.compile(r"\bexploit", re.I), "Exploit"),
    (re.compile(r"\bscan", re.I), "Scan"),
    (re.compile(r"\bactivity\b|\bactive\b|\bsuspicious\b|\balert", re.I), SOME),
)
_CLAUSE_SPLIT = re.compile(r"(?<=[.;!?])\s+|\n+|;\s*|\bwhile\b|\bwhereas\b|\bbut\b", re.IGNORECASE)

State = tuple[Optional[str], Optional[str]]  # (activity, compromise); None: not stated


@dataclass(frozen=True)
class StepAction:
    """One of the defender's recent actions, as its `Recent steps:` line states it."""

    step: int
    verb: str
    host: Optional[str]  # None: a global action (Monitor, Sleep)
    reward: Optional[float]


@dataclass(frozen=True)
class History:
    """What the context states of the defender's recent steps. `actions` is None without a `Recent
    steps:` line, `hosts` None without a `Host history` line: atoms needing them are then unknown."""

    step: Optional[int]  # the current step (`Step N of M.`), or one after the last recorded step
    actions: Optional[tuple[StepAction, ...]]
    hosts: Optional[dict[str, tuple[tuple[int, str, str], ...]]]  # host -> ((step, activity, compromise), ...)

    def past(self, host: str) -> Optional[tuple[tuple[int, str, str], ...]]:
        """The host's recorded states, oldest first; None where the context states no history of it."""
        if self.hosts is None or host not in self.hosts:
            return None
        return self.hosts[host]


@dataclass(frozen=True)
class Situation:
    """Per host, every state the context states for it (a host named without status: (None, None))."""

    by_host: dict[str, tuple[State, ...]] = field(default_factory=dict)
    # Hosts stated only by a line that names none ("No host shows activity or compromise."): their state
    # is known, but the context does not *show* them (a `{"host": X}` atom stays false).
    unnamed: frozenset[str] = frozenset()
    history: Optional[History] = None  # None: the context carries no history of the defender's steps

    def states(self, host: str) -> tuple[State, ...]:
        return self.by_host.get(host, ())

    def shown(self) -> tuple[str, ...]:
        return tuple(self.by_host)

    def __bool__(self) -> bool:
        return bool(self.by_host)


class _Reading:
    def __init__(self) -> None:
        self.by_host: dict[str, dict[State, None]] = {}
        self.named: set[str] = set()

    def add(self, host: str, activity: Optional[str], compromise: Optional[str], *, named: bool = True) -> None:
        canonical = _HOST_WORD.get(host.lower())
        if canonical is not None:
            self.by_host.setdefault(canonical, {})[(activity, compromise)] = None
            if named:
                self.named.add(canonical)

    def situation(self) -> Situation:
        out = {}
        for host, states in self.by_host.items():
            stated = [s for s in states if s != (None, None)]
            out[host] = tuple(stated or states)
        return Situation(out, frozenset(out) - frozenset(self.named))


def _canon(value: str, table: dict[str, str]) -> Optional[str]:
    return table.get(value.strip().lower())


def _table_row(cells: list[str], reading: _Reading) -> bool:
    """`host | subnet | ip | activity | compromised` or `host | activity | compromise`."""
    host = _HOST_WORD.get(cells[0].lower()) if cells else None
    if host is None:
        return False
    tail = cells[1:]
    if len(tail) >= 2:
        activity = _field(tail[-2], _ACT_VALUES, "activity")
        compromise = _field(tail[-1], _COMP_VALUES, "compromised")
        if activity is not None or compromise is not None:
            reading.add(host, activity, compromise)
            return True
    joined = " ".join(tail)
    activity = _ACTIVITY_ONLY.search(joined)
    compromise = _COMPROMISED_ONLY.search(joined)
    if activity or compromise:
        reading.add(host, _canon(activity.group(1), _ACT_VALUES) if activity else None,
                    _canon(compromise.group(1), _COMP_VALUES) if compromise else None)
        return True
    return False


def _field(cell: str, values: dict[str, str], label: str) -> Optional[str]:
    words = cell.strip().split()
    if len(words) == 2 and words[0].lower().rstrip(":") in (label, "compromise", "activity"):
        words = words[1:]
    return values.get(words[0].lower()) if len(words) == 1 else None


def _status_lines(line: str, reading: _Reading) -> bool:
    """Alert, host-context and changed-host forms: a host, then `Activity X, Compromised Y` after it."""
    found = False
    hosts = list(_HOST_RE.finditer(line))
    for index, host in enumerate(hosts):
        end = hosts[index + 1].start() if index + 1 < len(hosts) else len(line)
        segment = line[host.end():end]
        pair = _PAIR.match(segment.lstrip(" :(").removeprefix("table ").lstrip())
        if pair:
            reading.add(host.group(1), _canon(pair["activity"], _ACT_VALUES), _canon(pair["compromised"], _COMP_VALUES))
            found = True
    return found


def _prose(clause: str, reading: _Reading) -> None:
    hosts = [m.group(1) for m in _HOST_RE.finditer(clause)]
    if not hosts:
        return
    activity = _canon(_ACTIVITY_ONLY.search(clause).group(1), _ACT_VALUES) if _ACTIVITY_ONLY.search(clause) else None
    compromise = _canon(_COMPROMISED_ONLY.search(clause).group(1), _COMP_VALUES) if _COMPROMISED_ONLY.search(clause) else None
    bare = _ACTIVITY_ONLY.sub(" ", _COMPROMISED_ONLY.sub(" ", clause))
    bare = _HOST_RE.sub(" ", bare)  # "User0" must not read as "user level"
    if compromise is None:
        compromise = next((value for pattern, value in _PROSE_COMPROMISE if pattern.search(bare)), None)
    if activity is None:
        activity = next((value for pattern, value in _PROSE_ACTIVITY if pattern.search(bare)), None)
    for host in hosts:
        reading.add(host, activity, compromise)


def _history(lines: list[str]) -> Optional[History]:
    """The defender's history lines, if the context has them."""
    step: Optional[int] = None
    others: Optional[int] = None  # `every other host: None/No` closes the line: the unlisted hosts were quiet
    actions: Optional[list[StepAction]] = None
    hosts: Optional[dict[str, tuple[tuple[int, str, str], ...]]] = None
    for line in lines:
        if step is None and (m := _STEP_LINE.match(line)):
            step = int(m.group(1))
        elif m := _RECENT_LINE.match(line):
            actions = actions or []
            for entry in _RECENT_ENTRY.finditer(m.group(1)):
                target = _HOST_WORD.get((entry.group(3) or "").lower())
                reward = float(entry.group(4)) if entry.group(4) is not None else None
                actions.append(StepAction(int(entry.group(1)), entry.group(2), target, reward))
        elif m := _HOST_HISTORY_LINE.match(line):
            hosts = hosts if hosts is not None else {}
            window = int(m.group(1)) if m.group(1) else None
            for part in re.split(r";|\|", m.group(2)):
                if _OTHER_HOSTS.match(part):
                    others = others or window or 0  # filled in below, once the steps are known
                    continue
                host = _HOST_RE.match(part.strip())
                if host is None:
                    continue
                states = []
                for entry in _HOST_HISTORY_ENTRY.finditer(part[host.end():]):
                    activity, compromise = _canon(entry.group(2), _ACT_VALUES), _canon(entry.group(3), _COMP_VALUES)
                    if activity is not None and compromise is not None:
                        states.append((int(entry.group(1)), activity, compromise))
                hosts[_HOST_WORD[host.group(1).lower()]] = tuple(sorted(states))
    if actions is None and hosts is None:
        return None
    if step is None:
        recorded = [a.step for a in actions or ()] + [s for states in (hosts or {}).values() for s, _, _ in states]
        step = max(recorded) + 1 if recorded else None
    if others is not None and hosts is not None:
        steps = sorted({s for states in hosts.values() for s, _, _ in states})
        if not steps and step is not None and others:
            steps = list(range(max(step - others, 1), step))
        for host in HOSTS:
            hosts.setdefault(host, tuple((s, QUIET_ACTIVITY, QUIET_COMPROMISE) for s in steps))
    return History(step, None if actions is None else tuple(sorted(actions, key=lambda a: a.step)), hosts)


def read_situation(text: str) -> Situation:
    """What `text` states about the hosts (see the module docstring for the forms it reads)."""
    reading = _Reading()
    lines = (text or "").splitlines()
    for line in lines:
        if _SKIPPED_LINES.match(line):
            continue
        if _ALL_QUIET.search(line) or _NONE_ALERTED.search(line):
            for host in HOSTS:
                reading.add(host, QUIET_ACTIVITY, QUIET_COMPROMISE, named=not _NONE_ALERTED.search(line))
            continue
        if "|" in line:
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            if _table_row(cells, reading):
                continue
            if cells and cells[0].lower() in ("hostname", "host"):
                continue  # the table's header
        if _OTHERS_QUIET.search(line):
            listed = set(reading.by_host)
            for host in HOSTS:
                if host not in listed:
                    reading.add(host, QUIET_ACTIVITY, QUIET_COMPROMISE)
            continue
        if _status_lines(line, reading):
            continue
        for clause in _CLAUSE_SPLIT.split(line):
            if clause and clause.strip():
                _prose(clause, reading)
    return replace(reading.situation(), history=_history(lines))
