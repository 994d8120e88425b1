"""Conditions on a context's lines other than the host rows, which the product judges itself. Pure.

A rule may say when in the episode it applies ("before step 10", "from step 15 onwards", "in the last five steps"),
what the rewards must show ("the past three rewards all negative", "the newest reward under -8"), or what the
analyst's evidence or the step's analyses report of a host ("more processes than its baseline", "a user the baseline
does not list", "rated Risk high", "a reverse shell", "escalate.sh at density 0.8 or more"). No predicate atom states
these, so such a rule is kept semantic or guarded, and its host claims alone once let it speak where the text says it
does not apply (a scan at step 12 for a rule of the first ten steps).

Each reading here is a `Judged` condition with a three-valued `value` on a context: true or false where the context
states the line it needs (the `Step N of M.` line or the history's last recorded step, the `Recent steps:` rewards, the
analyst's `Current evidence` or the chooser's `Analyses this step:` block), unknown where it does not. The gate
(retrieve.py) holds a rule to every such condition its words state, as it holds it to its host claims; a condition
these readers do not recognise stays with the FACTS of condition.py (unknown, so silent).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Optional

from forge.env.catalog import HOSTS
from forge.rulebook.language.situation import Situation

_WORD_NUMBER = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9,
                "ten": 10, "eleven": 11, "twelve": 12, "fifteen": 15, "twenty": 20, "a couple of": 2, "a few": 3}
_N = r"(\d+|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|twenty|a\s+couple\s+of|a\s+few)"
_STEP = r"(?:step|turn)\s+(\d+)(?:\s+of\s+(?:the\s+)?(?:episode|run|game))?"
_EPISODE = r"(?:\s+of\s+(?:the\s+|an?\s+)?(?:episode|run|game|match))?"


# A reading said under a negation ("with no reverse shell", "not before step 5") or as the analyst's verdict ("rate the
# risk high") is not the condition it reads: left unread (its clause stays for the claims, which keep it unknown).
_DENIED_BEFORE = re.compile(r"\b(?:no|not|without|never|nor|lacks?|lacking|absent|isn't|aren't|wasn't|weren't|doesn't|don't|"
                            r"didn't)\b[^.;,:]{0,25}$|\b(?:rate|rating|call|flag|mark|give|assign|set|report|label|score|"
                            r"tag|say|write)\b[^.;,:]{0,20}$", re.IGNORECASE)


def _found(pattern: re.Pattern, text: str) -> list[re.Match]:
    """The matches of a reading in `text` said as a condition (not denied, not a verdict)."""
    return [m for m in pattern.finditer(text or "") if not _DENIED_BEFORE.search(text[:m.start()])]


def _number(word: str) -> int:
    word = " ".join(word.lower().split())
    return int(word) if word.isdigit() else _WORD_NUMBER[word]


@dataclass(frozen=True)
class Judged:
    """A condition on a fact the context may state (its FACTS name); `value` is three-valued."""

    fact: str

    def value(self, text: str, situation: Situation) -> Optional[bool]:  # pragma: no cover - every kind overrides it
        raise NotImplementedError


# -- when in the episode --------------------------------------------------------------------------------------------------

_STEP_OF = re.compile(r"^\s*Step\s+(\d+)\s+of\s+(\d+)\b", re.IGNORECASE | re.MULTILINE)
_EVIDENCE_STEP = re.compile(r"^\s*Current evidence \(step (\d+)\)", re.IGNORECASE | re.MULTILINE)


def current_step(text: str, situation: Situation) -> tuple[Optional[int], Optional[int], Optional[int]]:
    """(earliest, latest, the episode's length): the steps the context may be at. The `Step N of M.` line states it;
    the history's lines only bound it (their last recorded step, or the one after it: whether the last line is the
    step now acting or the one before is not said); the analyst's `Current evidence (step N)` is N or later (None:
    unbounded). (None, None, None) where the context states none of them."""
    if m := _STEP_OF.search(text or ""):
        return int(m.group(1)), int(m.group(1)), int(m.group(2))
    if situation.history is not None and situation.history.step is not None:
        return situation.history.step - 1, situation.history.step, None
    if m := _EVIDENCE_STEP.search(text or ""):
        return int(m.group(1)), None, None
    return None, None, None


@dataclass(frozen=True)
class StepWindow(Judged):
    """The episode's step lies in [first, last] (None: open); `from_end` n: one of the episode's last n steps."""

    first: Optional[int] = None
    last: Optional[int] = None
    from_end: Optional[int] = None

    def value(self, text: str, situation: Situation) -> Optional[bool]:
        earliest, latest, length = current_step(text, situation)
        if earliest is None:
            return None
        if latest is None:  # the step is `earliest` or later
            if self.last is not None and earliest > self.last:
                return False
            inside = None if self.last is not None or (self.first is not None and earliest < self.first) else True
        else:
            ends = {self._inside(earliest), self._inside(latest)}  # a window is one run of steps: its ends decide
            inside = ends.pop() if len(ends) == 1 else None
        if self.from_end is None or inside is False:
            return inside
        if length is None or latest is None:
            return None
        near_end = {earliest > length - self.from_end, latest > length - self.from_end}
        return inside and near_end.pop() if len(near_end) == 1 and inside is not None else None

    def _inside(self, step: int) -> bool:
        return (self.first is None or step >= self.first) and (self.last is None or step <= self.last)


# (first, last) of a step bound said in words; each entry: pattern, how its number bounds the step
_BOUNDS: tuple[tuple[re.Pattern, str], ...] = tuple((re.compile(p, re.IGNORECASE), kind) for p, kind in (
    (rf"\b(?:before|until|till|prior\s+to|up\s+until)\s+{_STEP}", "below"),
    (rf"\b(?:up\s+to|through|no\s+later\s+than)\s+{_STEP}|\b(?:at\s+)?{_STEP}\s+or\s+(?:before|earlier|sooner)\b", "upto"),
    (rf"\b(?:after|past|beyond|later\s+than)\s+{_STEP}", "above"),
    # (not "since step N": "compromised since step 5" is the host's history)
    (rf"\b(?:from|starting\s+(?:at|from)|as\s+of)\s+{_STEP}|\b(?:at\s+)?{_STEP}\s+(?:or|and)\s+(?:later|after|beyond|on)\b|"
     # ("from step 7 on", "step 7 onwards"; not "I used step 14 on a Monitor", a story's moment)
     rf"\b{_STEP}\s+(?:onwards?\b|forwards?\b|and\s+up\b|on(?=\s*(?:[,.;:)]|->|$)))", "from"),
    (rf"\b(?:in|during|within|for|over)\s+the\s+(?:first|opening)\s+{_N}\s+(?:steps|turns){_EPISODE}", "first"),
    (rf"\b{_STEP}\s+(?:included|inclusive)\b|\bincluding\s+{_STEP}", "included"),
    # (the last steps "of the episode" only: "for the last 3 steps" alone is the host's history)
    (rf"\b(?:in|during|within|for|over)\s+the\s+(?:last|final|closing)\s+{_N}\s+(?:steps|turns)\s+of\s+(?:the\s+|an?\s+)?"
     rf"(?:episode|run|game|match)\b", "last"),
))


def step_window(condition: str) -> Optional[StepWindow]:
    """The window of steps a condition states ("before step 10", "in the last five steps"), or None.
    ("as at step 14 in one seed", an example's moment, bounds nothing.)"""
    first: Optional[int] = None
    last: Optional[int] = None
    from_end: Optional[int] = None
    for pattern, kind in _BOUNDS:
        for m in _found(pattern, condition):
            n = _number(next(g for g in m.groups() if g is not None))
            if kind == "included":  # "before step 10 (step 10 included)": the bound's own step is in
                last = n if last == n - 1 else last
                first = n if first == n + 1 else first
            elif kind in ("below", "upto", "first"):
                bound = n - 1 if kind == "below" else n
                last = bound if last is None else min(last, bound)
            elif kind == "last":
                from_end = n
            else:
                bound = n + 1 if kind == "above" else n
                first = bound if first is None else max(first, bound)
    if first is None and last is None and from_end is None:
        return None  # (an "included" alone bounds nothing)
    return StepWindow("episode time", first, last, from_end)


# -- the rewards of the recent steps --------------------------------------------------------------------------------------


def _rewards(situation: Situation) -> list[float]:
    actions = situation.history.actions if situation.history is not None else None
    return [a.reward for a in actions or () if a.reward is not None]


@dataclass(frozen=True)
class RewardTest(Judged):
    """What the last rewards show: `negative` n (each of the last n below zero), `fell` (the latest below the one before),
    `below` / `above` x (the latest), `recovered` (the latest at zero after a negative one)."""

    kind: str = ""
    amount: float = 0.0

    def value(self, text: str, situation: Situation) -> Optional[bool]:
        rewards = _rewards(situation)
        needed = int(self.amount) if self.kind == "negative" else 2 if self.kind in ("fell", "recovered") else 1
        if len(rewards) < needed:
            return None
        latest = rewards[-1]
        if self.kind == "negative":
            return all(r < 0 for r in rewards[-needed:])
        if self.kind == "fell":
            return latest < rewards[-2]
        if self.kind == "recovered":
            return latest >= 0 and rewards[-2] < 0
        return latest < self.amount if self.kind == "below" else latest > self.amount


_REWARD = r"(?:rewards?|rews?|scores?)"  # ("rew back at +0.0": a note's shorthand)
_LATEST = r"(?:the\s+)?(?:most\s+recent|latest|last|newest|current)\s+" + _REWARD
_SIGNED = r"([-+]?\d+(?:\.\d+)?)"
_REWARD_READINGS: tuple[tuple[re.Pattern, str], ...] = tuple((re.compile(p, re.IGNORECASE), kind) for p, kind in (
    (rf"\b(?:the\s+)?(?:last|latest|most\s+recent|past)\s+{_N}\s+{_REWARD}\b[^.;]{{0,40}}?\b(?:both\s+|all\s+)?negative\b|"
     rf"\b{_REWARD}\s+(?:has|have)\s+been\s+negative\s+(?:at|for|in|on)\s+(?:each\s+of\s+)?(?:the\s+)?(?:last|past)\s+{_N}\s+(?:steps|turns)\b|"
     rf"\b{_N}\s+negative\s+{_REWARD}\s+in\s+a\s+row\b", "negative"),
    (rf"\b{_LATEST}\s+(?:is\s+|was\s+)?(?:lower|less|worse|smaller)\s+than\s+(?:the\s+one\s+before|the\s+previous(?:\s+one)?|the\s+{_REWARD}\s+before|"
     rf"the\s+{_REWARD}\s+of\s+the\s+step\s+before|the\s+prior|that\s+of\s+the\s+step\s+before)(?:\s+(?:it|that))?|\b{_REWARD}\s+(?:fell|dropped|falls|drops|went\s+down)\b(?!\s+(?:below|under|beneath|to)\b)|"
     rf"\b(?:a\s+)?(?:fall|drop)\s+in\s+the\s+{_REWARD}\b", "fell"),
    (rf"(?:\b{_LATEST}|\b{_REWARD})\s+(?:is\s+|was\s+|comes\s+|came\s+|goes\s+|went\s+)?back\s+(?:at|to)\s+\+?0(?:\.0+)?\b"
     rf"(?:\s+after\s+(?:an?\s+|the\s+|some\s+)?(?:negative\s+{_REWARD}|negatives?|loss(?:es)?)(?:\s+before\s+it)?)?", "recovered"),
    (rf"\b{_LATEST}\s+(?:is\s+|was\s+)?(?:below|under|less\s+than|lower\s+than|worse\s+than)\s+{_SIGNED}|"
     rf"\b{_REWARD}\s+(?:drops?|dropped|falls?|fell|goes|went|is|sits?)\s+(?:below|under|beneath)\s+{_SIGNED}", "below"),
    (rf"\b{_LATEST}\s+(?:is\s+|was\s+)?(?:above|over|more\s+than|higher\s+than|better\s+than)\s+{_SIGNED}", "above"),
))


_INNER_DENIAL = re.compile(r"\b(?:not|no|never|nor)\b|n't\b", re.IGNORECASE)


def reward_tests(condition: str) -> list[RewardTest]:
    """What a condition says the recent rewards show, as far as these readings go."""
    found = []
    for pattern, kind in _REWARD_READINGS:
        # (a negation inside the phrase, "the last two rewards were not both negative", is no such condition)
        if m := next((m for m in _found(pattern, condition) if not _INNER_DENIAL.search(m.group(0))), None):
            number = next((g for g in m.groups() if g is not None), None)
            amount = float(_number(number)) if kind == "negative" and number else float(number) if number else 0.0
            found.append(RewardTest("reward", kind, amount if kind != "negative" or number else 1.0))
    return found


# -- the analyst's evidence and the step's analyses -----------------------------------------------------------------------

_HOST_WORD = {h.lower(): h for h in HOSTS}
_ANALYST_HOST = re.compile(r"^\s*Host\s+(\w+):\s+table\b", re.IGNORECASE | re.MULTILINE)
_BLOCK_HOST = re.compile(r"^\s*Host:\s*(\w+)\s*$", re.IGNORECASE)
_ANALYSES = re.compile(r"^\s*Analyses this step:\s*$", re.IGNORECASE | re.MULTILINE)


@dataclass(frozen=True)
class HostEvidence:
    """What the context reports of one analysed host: its evidence lines, its baseline line, its risk rating."""

    lines: str
    baseline: str = ""
    risk: Optional[str] = None


def evidence_of(text: str) -> Optional[dict[str, HostEvidence]]:
    """Per host, the evidence the context reports (the analyst's host context, or each block of the chooser's
    `Analyses this step:`); None where the context has no such section (then nothing about evidence is known)."""
    text = text or ""
    if m := _ANALYST_HOST.search(text):
        host = _HOST_WORD.get(m.group(1).lower())
        baseline = re.search(r"^\s*Baseline:.*$", text, re.IGNORECASE | re.MULTILINE)
        current = re.split(r"^\s*Current(?: evidence)?\b", text, maxsplit=1, flags=re.IGNORECASE | re.MULTILINE)
        lines = current[1] if len(current) > 1 else ""
        return {host: HostEvidence(lines, baseline.group(0) if baseline else "")} if host else None
    found = _ANALYSES.search(text)
    if found is None:
        return None
    blocks: dict[str, HostEvidence] = {}
    host, lines, risk = None, [], None
    for line in text[found.end():].splitlines() + [""]:
        if (m := _BLOCK_HOST.match(line)) or not line.strip():
            if host is not None:
                blocks[host] = HostEvidence("\n".join(lines), "", risk)
            host, lines, risk = (_HOST_WORD.get(m.group(1).lower()) if m else None), [], None
        elif r := re.match(r"^\s*Risk:\s*(\w+)", line, re.IGNORECASE):
            risk = r.group(1).lower()
        else:
            lines.append(line)
    return blocks


def _baseline_users(baseline: str) -> Optional[set[str]]:
    m = re.search(r"\busers\s+([^;.]+)", baseline, re.IGNORECASE)
    return {u.strip().lower() for u in m.group(1).split(",")} if m else None


def _evidence_users(lines: str) -> set[str]:
    named = re.findall(r"\buser\s+([\w$-]+)(?:\s+logged\b)?", lines, re.IGNORECASE)
    for seen in re.findall(r"\busers\s+seen:\s*([^(\n]+)", lines, re.IGNORECASE):
        named += seen.split(",")
    return {u.strip().lower() for u in named if u.strip()}


def _shows(kind: str, amount: float, word: str, evidence: HostEvidence) -> Optional[bool]:
    """Whether one host's evidence shows what a test of `kind` asks."""
    lines = evidence.lines
    if kind == "shell":
        return bool(re.search(r"reverse\s+shell|remote\s+port\s+4444\b", lines, re.IGNORECASE))
    if kind == "risk":
        return None if evidence.risk is None else evidence.risk == word
    if kind == "os":
        system = re.search(r"\bOS\s+(\w+)", evidence.baseline, re.IGNORECASE)
        return None if system is None else system.group(1).lower() == word
    if kind == "processes":
        counted = re.search(r"(\d+)\s+process(?:es)?\s+running\s*\(baseline\s+(\d+)\)", lines, re.IGNORECASE)
        return None if counted is None else int(counted.group(1)) > int(counted.group(2))
    if kind == "new user":
        if re.search(r"not\s+(?:among|in)\s+the\s+baseline", lines, re.IGNORECASE):
            return True
        known = _baseline_users(evidence.baseline)
        return bool(_evidence_users(lines) - known) if known is not None else None
    if kind == "file":
        densities = [float(d) for name, d in re.findall(r"\bfile\s+([\w.-]+)\s+density\s+(\d+(?:\.\d+)?)", lines, re.IGNORECASE)
                     if not word or name.lower() == word]
        return any(d >= amount for d in densities)
    if kind == "connections":
        counts = [int(n) for n, port in re.findall(r"(\d+)\s+connections?\s+on\s+local\s+port\s+(\d+)", lines, re.IGNORECASE)
                  if not word or port == word]
        return any(n >= amount for n in counts)
    return None


@dataclass(frozen=True)
class EvidenceTest(Judged):
    """What the evidence of `host` (None: of any host the context reports) shows; `absent`: the analyses do not report
    `host` at all."""

    kind: str = ""
    host: Optional[str] = None
    amount: float = 0.0
    word: str = ""
    of: object = None  # with no host: the rule's predicate, whose hosts the evidence must be of ("its evidence")

    def value(self, text: str, situation: Situation) -> Optional[bool]:
        from forge.rulebook.language.predicate import matched_hosts

        reported = evidence_of(text)
        if reported is None:
            return None
        if self.kind == "absent":
            return self.host not in reported
        # (a shell on Enterprise2 is no condition met for a user host the rule's predicate matches)
        hosts = [self.host] if self.host else [h for h in reported if self.of is None or h in matched_hosts(self.of, situation)]
        values = [_shows(self.kind, self.amount, self.word, reported[h]) if h in reported else False for h in hosts]
        return True if True in values else None if None in values else False


_EVIDENCE_READINGS: tuple[tuple[re.Pattern, str], ...] = tuple((re.compile(p, re.IGNORECASE), kind) for p, kind in (
    (r"\breverse\s+shell(?:\s+connection)?(?:\s+(?:to|on)\s+(?:remote\s+)?port\s+4444)?\b|"
     r"\b(?:(?:a\s+)?connection\s+to\s+)?(?:remote\s+)?port\s+4444\b", "shell"),
    (r"\brisk\s*:?\s*(high|medium|low)\b|\b(high|medium|low)[\s-]+risk\b|\brated\s+(?:as\s+)?(high|medium|low)\b", "risk"),
    (r"\bmore\s+process(?:es)?\s+than\s+(?:the\s+|its\s+)?baseline|\bprocess\s+count\s+(?:above|over|exceeds|higher\s+than)\s+"
     r"(?:the\s+|its\s+)?baseline", "processes"),
    (r"\buser\w*\s+(?:acc(?:oun)?t\s+)?(?:[\w\s]{0,30}?)(?:absent\s+from|missing\s+from|not\s+(?:among|in|on|listed\s+in))\s+"
     r"(?:the\s+|its\s+)?baseline(?:\s+users?)?|\buser\w*\b[^.;]{0,40}\bthe\s+baseline\s+does\s+not\s+list\b|\b(?:new|unknown|unexpected|extra|foreign)\s+"
     # (an account, a login; not "an unknown user host", a row at Compromised Unknown)
     r"(?:user\s+)?(?:account|acct|login|session)s?\b|\bnew\s+users?\b(?![\s-]*(?:hosts?|box(?:es)?|machines?|workstations?|subnet))",
     "new user"),
    (r"\b(?:file\s+(?:named\s+)?)?([\w-]+\.(?:sh|exe|py|bat|ps1))\b[^.;]{0,60}?\bdensity\s+(?:of\s+)?(\d+(?:\.\d+)?)\s+or\s+"
     r"(?:higher|more|above|greater)", "file"),
    (r"\b(\d+|ten|twelve|five|six|eight|twenty)\s+or\s+more\s+connections\s+on\s+(?:local\s+)?port\s+(\d+)", "connections"),
    (r"\banaly[sz](?:is|es)\b[^.;]{0,30}?\b(?:do|does)\s+not\s+(?:mention|name|cover|include)\b", "absent"),
    (r"\b(windows|linux)\s+(?:(?:user|enterprise|op|operational)\s+)?(?:host|box|machine|server)s?\b|\bOS\s+(?:is\s+)?(windows|linux)\b",
     "os"),
))


def evidence_tests(condition: str, of=None) -> list[EvidenceTest]:
    """What a condition says the analyst's evidence or the step's analyses report, as far as these readings go; of the
    one host it names, else of any host reported. (Only the first mention of each kind: "Risk high -> X. Risk low ->
    n/a." is one condition and the case it excludes.)"""
    from forge.rulebook.language.wording import hosts_in

    named = hosts_in(condition or "")
    host = named[0] if len(named) == 1 else None
    of = None if host else of
    found = []
    for pattern, kind in _EVIDENCE_READINGS:
        m = next(iter(_found(pattern, condition)), None)
        if m is None or (kind == "absent" and host is None):
            continue
        groups = [g for g in m.groups() if g is not None]
        if kind in ("risk", "os"):
            found.append(EvidenceTest("evidence", kind, host, word=groups[0].lower(), of=of))
        elif kind == "file":
            found.append(EvidenceTest("evidence", kind, host, float(groups[1]), groups[0].lower(), of))
        elif kind == "connections":
            found.append(EvidenceTest("evidence", kind, host, float(_number(groups[0])), groups[1], of))
        else:
            found.append(EvidenceTest("evidence", kind, host, of=of))
    return found


def judged_in(condition: str, order: str = "", of=None) -> tuple[Judged, ...]:
    """Every condition of these kinds a rule states in `condition`; a window of steps, and evidence, also from `order`,
    the order's sentence, where the condition states none ("Before step 10, when ..., plan X": the window leads the
    order). `of`: the rule's predicate, whose hosts evidence said of no host must be of."""
    found: list[Judged] = []
    window = step_window(condition) or step_window(order)
    if window is not None:
        found.append(window)
    found += reward_tests(condition)
    # (a condition cut short keeps its evidence in the order's sentence: "If X and no analysis this step names
    # User4, choose ..."; not a rating there, which is the order's answer)
    found += evidence_tests(condition, of) or [t for t in evidence_tests(order, of) if t.kind != "risk"]
    return tuple(dict.fromkeys(found))
