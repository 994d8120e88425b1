"""Conditions on a context's lines other than the host rows, which the product judges itself. Pure.

A rule may say when in the episode it applies ("before step 10", "from step 15 onwards", "in the last five steps"),
what the rewards must show ("the past three rewards all negative", "the newest reward under -8"), or what the
analyst's evidence or the step's analyses report of a host ("more processes than its baseline", "a user the baseline
does not list", "rated Risk high", "a reverse shell", "escalate.sh at density 0.8 or more"). No predicate atom states
these, so such a rule is kept semantic or guarded, and its host claims alone once let it speak where the text says it
does not apply (a scan at step 12 for a rule of the first ten steps).

Each reading here is a `Judged` condition with a three-valued `value` on a context: true or false where the context
states the line it needs (its step, situation.Situation.step; the `Recent steps:` rewards; the analyst's `Current
evidence` or the chooser's `Analyses this step:` block), unknown where it does not. The windows of steps and the trends
of rewards are episode.py's (the one reader of them, whose readings are also the claims of claims.py); the evidence
is read here only. The gate
(retrieve.py) holds a rule to every such condition its words state, as it holds it to its host claims; a condition
these readers do not recognise stays with the FACTS of facts.py (unknown, so silent).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from types import MappingProxyType
from typing import Mapping, Optional, Union

from forge.env.catalog import HOSTS
from forge.rulebook.language.episode import EpisodeStep, RewardTrend, count_of, episode_claims
from forge.rulebook.language.predicate import matched_hosts, truth
from forge.rulebook.language.situation import CHANGED_LINE, Situation
from forge.rulebook.language.names import HOST_NAME, HOST_SHORT, hosts_in, same_verb, verbs_in


# Evidence said under a negation ("with no reverse shell") or as the analyst's verdict ("rate the risk high") is not
# the condition it reads: left unread (its clause stays for the claims, which keep it unknown).
# (r42h, r42m: not the table's quiet value, "Compromised No", nor across a "but": "the row says Compromised No but this step's
# analyses rate it high" denies nothing of the rating)
_DENIED_BEFORE = re.compile(r"(?<!compromised\s)(?<!compromised:\s)"
                            r"\b(?:no|not|without|never|nor|lacks?|lacking|absent|isn't|aren't|wasn't|weren't|doesn't|don't|"
                            r"didn't)\b(?:(?!\bbut\b)[^.;,:]){0,25}$|\b(?:rate|rating|call|flag|mark|give|assign|set|report|label|score|"
                            r"tag|say|write)\b[^.;,:]{0,20}$", re.IGNORECASE)


def _found(pattern: re.Pattern, text: str) -> list[re.Match]:
    """The matches of a reading in `text` said as a condition (not denied, not a verdict)."""
    return [m for m in pattern.finditer(text or "")
            if not _DENIED_BEFORE.search(text[:m.start()]) or _rated_not_denied(text[:m.start()])]


# (r46a) A word that denies what follows it: after the analyses' verb, "the analyses for this step say there is no reverse
# shell on it" reports the shell's absence (read as the analyses' report alone, the shell was a condition of the rule:
# the opposite of its words)
_DENIAL_WORD = re.compile(r"\b(?:no|not|without|never|nor|none|nothing|lacks?|lacking|absent|isn't|aren't|wasn't|weren't|"
                          r"doesn't|don't|didn't)\b", re.IGNORECASE)


def _rated_not_denied(before: str) -> bool:
    """Whether the words before a reading are what the analyses report of it (`_RATED_BY_ANALYSES`), with no denial
    between their verb and it."""
    rated = _RATED_BY_ANALYSES.search(before)
    return rated is not None and not _DENIAL_WORD.search(before[rated.start():])


# Who rates a host, said before or after the rating (r39m, folded r40x): "the analyst rates User3 high", "this step's
# analysis puts it at medium"; "rated low by the analyst", "from this step's analyses".
_RATER_WORDS = r"(?:the\s+|this\s+step(?:'s|\u2019s)\s+)?(?:analyst|analysis|analyses)"
_RATING_VERBS = r"(?:rates?|rated|gives?|gave|puts?|marks?|flags?|labels?|scores?)"
_RATER = re.compile(rf"\b{_RATER_WORDS}\s+{_RATING_VERBS}\b", re.IGNORECASE)
_BY_RATER = rf"\b(?:by|from)\s+{_RATER_WORDS}\b"
# (r39g) a rating whose rater is the step's analyses, "the analysis rates the box medium": what they report, a
# condition, not the rule's own verdict (read as one, the rest was unread and the rule silent)
# (r40h, r40m: or what they report, "this step's analyses reported a shell on it": their finding, a condition;
# read as the rule's own "report", the evidence was no condition, and a rest made of it was unread)
# (r46m: and the step named after them, what they "say": "the analyses for this step say 'Risk: low' of it")
_RATED_BY_ANALYSES = re.compile(rf"\b{_RATER_WORDS}(?:\s+(?:this|of\s+(?:the|this)|for\s+(?:the|this))\s+step)?\s+"
                                rf"(?:{_RATING_VERBS}|reports?|reported|says?|said)\b[^.;,:]{{0,20}}$", re.IGNORECASE)


@dataclass(frozen=True)
class Judged:
    """A condition on a fact the context may state (its FACTS name); `value` is three-valued."""

    fact: str

    def value(self, text: str, situation: Situation) -> Optional[bool]:  # pragma: no cover - every kind overrides it
        raise NotImplementedError


# -- when in the episode, and the rewards: episode.py's readers, judged as the claims judge them ------------------------


@dataclass(frozen=True)
class InEpisode(Judged):
    """A window of steps or a trend of the rewards (episode.EpisodeStep / RewardTrend, read by episode.py), judged on
    the context's step (situation.Situation.step) or its `Recent steps:` rewards."""

    claim: Union[EpisodeStep, RewardTrend, None] = None

    def value(self, text: str, situation: Situation) -> Optional[bool]:
        return truth(self.claim, situation)


def episode_tests(condition: str, order: str = "") -> list[InEpisode]:
    """The windows of steps and the trends of rewards a condition states; a window also from `order`, the order's
    sentence, where the condition states none ("Before step 10, when ..., plan X": the window leads the order)."""
    said = episode_claims(condition)
    windows = [c for c in said if isinstance(c, EpisodeStep)] or [c for c in episode_claims(order) if isinstance(c, EpisodeStep)]
    return [InEpisode("episode time", w) for w in windows] + [InEpisode("reward", c) for c in said if isinstance(c, RewardTrend)]


def window_said_anywhere(found: tuple, text: str) -> tuple:
    """(r58n) `found` (a rule's judged conditions) with the windows of steps said anywhere in its `text` where `found`
    holds none: a lesson whose window stands in a sentence the reading does not take for its condition or its order ("I
    should plan X in the last three steps", a story's modal read as no order) still holds only in that window. Unjudged,
    the rule spoke at every step; judged, a window only narrows it (the cautious side)."""
    if any(isinstance(j, InEpisode) and isinstance(j.claim, EpisodeStep) for j in found):
        return found
    # (only a sentence that advises, "I should ...", "we must ...": a window the story tells, "it sat rooted from step 9
    # on", is what happened, no window of the lesson)
    advised = " ".join(s for s in re.split(r"(?<=[.!?])\s+", text or "") if _ADVISING.search(s))
    windows = [InEpisode("episode time", w) for w in episode_claims(advised) if isinstance(w, EpisodeStep)]
    return tuple(dict.fromkeys((*found, *windows)))


_ADVISING = re.compile(r"\b(?:should|must|ought\s+to|shall|need\s+to|have\s+to|had\s+better|'d\s+better)\b", re.IGNORECASE)


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


# Cached and read-only: every evidence test of every rule asks it of the same context, once per test.
@lru_cache(maxsize=64)
def evidence_of(text: str) -> Optional[Mapping[str, HostEvidence]]:
    """Per host, the evidence the context reports (the analyst's host context, or each block of the chooser's
    `Analyses this step:`); None where the context has no such section (then nothing about evidence is known)."""
    text = text or ""
    if m := _ANALYST_HOST.search(text):
        host = _HOST_WORD.get(m.group(1).lower())
        baseline = re.search(r"^\s*Baseline:.*$", text, re.IGNORECASE | re.MULTILINE)
        current = re.split(r"^\s*Current(?: evidence)?\b", text, maxsplit=1, flags=re.IGNORECASE | re.MULTILINE)
        lines = current[1] if len(current) > 1 else ""
        return MappingProxyType({host: HostEvidence(lines, baseline.group(0) if baseline else "")}) if host else None
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
    return MappingProxyType(blocks)


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
                     if not word or name.lower() in word.split("|")]
        return any(d >= amount for d in densities)
    if kind == "no file":
        # (the name said, or its kind's: "escalate" is any escalate.<ext>)
        listed = [name.lower() for name in re.findall(r"\bfile\s+([\w.-]+)", lines, re.IGNORECASE)]
        return not any(not word or name == word or name.split(".")[0] == word for name in listed)
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
        reported = evidence_of(text)
        if reported is None:
            return None
        if self.kind == "absent":
            return self.host not in reported
        # (a shell on Enterprise2 is no condition met for a user host the rule's predicate matches)
        hosts = [self.host] if self.host else [h for h in reported if self.of is None or h in matched_hosts(self.of, situation)]
        values = [_shows(self.kind, self.amount, self.word, reported[h]) if h in reported else False for h in hosts]
        return True if True in values else None if None in values else False


# (r39h) The step's analyses as the subject of the rating they give a host, "the analyses of this step rate the box low": no
# reading placed it, and the rule fired at every rating (facts.FACTS reads it as a fact, stated by `RISK_LINE`).
# (The analyst is the one who rates, "as Analyst, rate risk low for ...": its verdict, no condition.)
# (nor a rating denied between them, "the analyses do not rate it high")
ANALYSES_RATE = (r"\banaly(?:ses|sis)\b(?:(?!\b(?:not|never|no|nor)\b|n't)[^.;:]){0,30}?\brat(?:e|es|ed)\s+(?:[\w-]+\s+){0,3}?"
                 r"(high|medium|low)\b(?:[\s-]+risk\b)?")
# The risk the step's analyses give a host said as a rating: "high risk", "rated high", and `ANALYSES_RATE` (not "risk
# high", which mostly tells the Analyst what to answer: "rate the risk high when ...").
RISK_RATED = r"\b(high|medium|low)[\s-]+risk\b|\brated\s+(?:as\s+)?(high|medium|low)\b|" + ANALYSES_RATE
# ... and as the table of the analyses writes it, "Risk high", "risk: low".
RISK_SAID = r"\brisk\s*:?\s*(high|medium|low)\b|" + RISK_RATED
# A context that states the analyses' ratings (the chooser's `Analyses this step:` blocks): a rule on a rating is judged there.
RISK_LINE = re.compile(r"^\s*Risk:\s*\w+", re.IGNORECASE | re.MULTILINE)


# A file's name as evidence lists it: "escalate.sh", "cmd.exe".
_FILE_NAME = r"[\w-]+\.(?:sh|exe|py|bat|ps1)\b"


_EVIDENCE_READINGS: tuple[tuple[re.Pattern, str], ...] = tuple((re.compile(p, re.IGNORECASE), kind) for p, kind in (
    # (r40m: the port said in brackets after the shell, "reverse shell (rport 4444)", "(remote port 4444)", is the same shell)
    # (r42h: and in a note's shorthand, "rev shell", "rport 4444": unread, a rule on it was judged by its row alone)
    (r"\brev(?:erse|\.)?\s+shell(?:\s+connection)?(?:\s+(?:to|on)\s+(?:remote\s+)?port\s+4444\b|\s*\(\s*(?:to\s+)?(?:remote\s+port|rport|"
     r"port)\s*4444\s*\)|\b)|"
     r"\b(?:(?:a\s+)?connection\s+to\s+)?(?:remote\s+|r)?port\s+4444\b", "shell"),
    (RISK_SAID, "risk"),
    (r"\bmore\s+process(?:es)?\s+than\s+(?:the\s+|its\s+)?baseline|\bprocess\s+count\s+(?:above|over|exceeds|higher\s+than)\s+"
     r"(?:the\s+|its\s+)?baseline", "processes"),
    # (r42m: the process said to run under that account is the evidence's too, "a process running as <account> ...")
    (r"(?:\b(?:an?\s+)?process(?:es)?\s+(?:running|run|runs)\s+as\s+(?:an?\s+)?)?"
     r"\buser\w*\s+(?:acc(?:oun)?t\s+)?(?:[\w\s]{0,30}?)(?:absent\s+from|missing\s+from|not\s+(?:among|in|on|listed\s+in))\s+"
     r"(?:the\s+|its\s+)?baseline(?:\s+users?)?|\buser\w*\b[^.;]{0,40}\bthe\s+baseline\s+does\s+not\s+list\b|\b(?:new|unknown|unexpected|extra|foreign)\s+"
     # (an account, a login; not "an unknown user host", a row at Compromised Unknown)
     r"(?:user\s+)?(?:account|acct|login|session)s?\b|\bnew\s+users?\b(?![\s-]*(?:hosts?|box(?:es)?|machines?|workstations?|subnet))",
     "new user"),
    # (r40h, r40m: or one of several names, "a dropper (payload.exe or payload.sh) at density 0.7 or above", "a dropper
    # file (drop.sh / drop.exe)": the dot of the first name ended the reach, and the last name alone was asked; the kind
    # of file named before them is the evidence's too, no word of state left over)
    (rf"\b(?:(?:an?\s+|the\s+)?[\w-]+\s+files?\s*\(\s*|(?:[\w-]+\s+)?files?\s+(?:named\s+|called\s+)?)?\(?"
     rf"({_FILE_NAME}(?:\s*(?:/|,|\bor\b)\s*{_FILE_NAME})*)\s*\)?(?![\w.])[^.;]{{0,60}}?"
     # (r40k: or its floor written "0.5+", as the count of connections may be)
     # (r46m: or the evidence line quoted as it prints it, "'file dropper.exe density 0.65'": that density, or more)
     r"\bdensity\s+(?:of\s+)?(\d+(?:\.\d+)?)(?:\s*\+|\s+or\s+(?:higher|more|above|greater)|(?=['\"\u2019\u201d]))", "file"),
    # (r42m) a file the evidence lists, said with no density: "its evidence lists escalate.exe", "with cmd.exe in its
    # evidence": there at any density (the listing verb stays, for the words that frame the evidence)
    # (r43h: or named as a file, quoted or not, "a file called 'drop.sh' or 'drop.exe' in its evidence")
    (r"(?:" + "|".join(rf"(?<=\b{verb}\s)" for verb in ("lists", "list", "listing", "shows", "has", "with", "contains", "holds",
                                                          "named", "called"))
     + rf")['\"\u2018\u201c]?({_FILE_NAME}(?:['\"\u2019\u201d]?\s*(?:/|,|\bor\b)\s*['\"\u2018\u201c]?{_FILE_NAME})*)['\"\u2019\u201d]?"
     r"(?![^.;]{0,60}?\bdensity\b)", "file"),
    # (r40m) a file the evidence does not list, said with its own negation: "lists no escalate file", "without escalate.sh"
    # (r41m: or no file of any kind, "the evidence lists no file", "without any files")
    (rf"\b(?:no|without)\s+(?:an?\s+|any\s+)?(?:({_FILE_NAME})|(?!files?\b)([\w-]+)\s+files?|files?)\b", "no file"),
    # (r40m: also "more than <n> connections", "<n>+ conns", and where they come from, "from one address")
    (r"\b(?P<more>more\s+than\s+|over\s+)?(?P<n>\d+|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|twenty)(?(more)|(?:\s*\+|\s+or\s+more))\s+"
     r"(?:connections|conns)\s+(?:on|to)\s+(?:local\s+)?port\s+(?P<port>\d+)"
     r"(?:\s+(?:from|to|on)\s+(?:one|a\s+single|the\s+same)\s+(?:address|ip|source|box|host))?", "connections"),
    (r"\banaly[sz](?:is|es)\b[^.;]{0,30}?\b(?:do|does)\s+not\s+(?:mention|name|cover|include)\b", "absent"),
    # (r40g: and the system named before its noun, "Linux OS", as a note writes it)
    (r"\b(windows|linux)\s+(?:(?:user|enterprise|op|operational)\s+)?(?:host|box|machine|server)s?\b|\bOS\s+(?:is\s+)?(windows|linux)\b|"
     r"\b(windows|linux)\s+(?:OS|operating\s+system)\b|"
     # (r42m) and the system it runs, "the analysed host runs Windows", "running on Linux"
     r"\b(?:runs|running|run)\s+(?:on\s+)?(windows|linux)\b", "os"),
))


_RISK_READING = next(pattern for pattern, kind in _EVIDENCE_READINGS if kind == "risk")
_RATED_BY = re.compile(rf"^\s*{_BY_RATER}", re.IGNORECASE)  # (the rater said right after the rating)


def rating_away(condition: str) -> str:
    """(r39m) A condition without the rating the step's analyses give the one host it names ("when User3 is rated low by
    the analyst", "the analyst rates User3 high risk"), which `evidence_tests` reads of that host and the gate judges:
    what is left is for the host claims to read whole. Unchanged where it names no host or several, or where the rating
    is denied or a verdict (`_found`: unread, so the condition is not whole)."""
    found = _found(_RISK_READING, condition or "")
    if len(hosts_in(condition or "")) != 1 or not found:
        return condition
    before, after = condition[:found[0].start()], condition[found[0].end():]
    return f"{_RATER.sub(' ', before)} {_RATED_BY.sub(' ', after, count=1)}"


# (r39h) The step's analyses (or the analyst) named as the source of what a condition says they report: "this step's
# analyses rate ...", "the analyses of the step show ...", "... by the analyst".
_REPORTED_BY = re.compile(r"\b(?:(?:this|the)\s+step(?:'s|\u2019s)\s+|the\s+)?analys[ie]s\b(?:\s+(?:this|of\s+(?:the|this)|for\s+(?:the|this))"
                          r"\s+step)?(?:\s+(?:rate[sd]?|show(?:s|ed)?|report(?:s|ed)?|finds?|found|give[sn]?|says?|lists?))?|"
                          rf"{_BY_RATER}|\b(?:this|the)\s+step(?:'s|\u2019s)(?=\s{{2,}})|"
                          # (r56n: the Analyst's report named for the analyses, "if the analyst's report for the step rates ... high")
                          r"\b(?:the\s+)?analyst(?:'s|\u2019s)\s+reports?(?:\s+(?:in|of|for)\s+(?:this|the)\s+step)?"
                          r"(?:\s+(?:rate[sd]?|show(?:s|ed)?|report(?:s|ed)?|finds?|found|give[sn]?|says?|lists?))?", re.IGNORECASE)


def without_evidence(text: str) -> str:
    """(r39h) `text` with what these readings judge blanked out (`evidence_tests`: the first mention of each kind said as a
    condition), and the analyses named as its source: what is left is for the claims to read. Unchanged where
    nothing is judged here."""
    named = hosts_in(text or "")
    # (the mentions `evidence_tests` reads, and only those: a second mention of a kind, or an "absent" of no one host, is
    # left for the claims, which do not place it: the rest stays unread)
    spans = [m.span() for pattern, kind in _EVIDENCE_READINGS for m in _found(pattern, text or "")[:1]
             if not (kind == "absent" and len(named) != 1)]
    if not spans:
        return text
    for start, end in sorted(spans, reverse=True):
        text = text[:start] + " " * (end - start) + text[end:]
    return _REPORTED_BY.sub(lambda m: " " * len(m.group(0)), text)


def judged_facts(text: str) -> frozenset[str]:
    """(r39h) The kinds of fact (facts.FACTS) that these readings judge in `text`: the risk rating where they read one
    (a rule on it is judged on the context's `Risk:` lines, not silent for want of a reading)."""
    return frozenset({"risk"}) if any(t.kind == "risk" for t in evidence_tests(text)) else frozenset()


# (r40m) A file the evidence lists, by its name or its kind: "escalate.sh", "an escalate file" (and the "no" that says
# the evidence lists none: that negation is the evidence reading's, "no file")
_FILE_MENTION = re.compile(rf"\b(?:(?:no|without)\s+(?:an?\s+|any\s+)?)?(?:{_FILE_NAME}\b|[\w-]+\s+files?\b)", re.IGNORECASE)


def file_names_away(text: str) -> str:
    """(r40m) `text` with each file the evidence may list named only as "file": a file's name is no state of a host
    ("escalate.sh", "an escalate file" read as the host escalated, Privileged, held the rule to a row it does not ask of)."""
    return _FILE_MENTION.sub("file", text or "")


def evidence_away(condition: str) -> str:
    """(r39g) A condition without every mention of what these readings read in it (each reading's words, said as a
    condition): for the words left to need no fact of their own. `without_evidence` takes away only the mentions
    `evidence_tests` judges, for the claims to read the rest."""
    for pattern, _ in _EVIDENCE_READINGS:
        for m in reversed(_found(pattern, condition or "")):
            condition = condition[:m.start()] + " " + condition[m.end():]
    return condition


def evidence_tests(condition: str, of=None) -> list[EvidenceTest]:
    """What a condition says the analyst's evidence or the step's analyses report, as far as these readings go; of the
    one host it names, else of any host reported. (Only the first mention of each kind: "Risk high -> X. Risk low ->
    n/a." is one condition and the case it excludes.)"""

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
        elif kind == "file":  # (the names it may be, one word: "escalate.exe|escalate.sh")
            names = "|".join(re.findall(_FILE_NAME, groups[0], re.IGNORECASE)).lower()
            found.append(EvidenceTest("evidence", kind, host, float(groups[1]) if len(groups) > 1 else 0.0, names, of))
        elif kind == "no file":  # ("" : no file of any kind)
            found.append(EvidenceTest("evidence", kind, host, word=groups[0].lower() if groups else "", of=of))
        elif kind == "connections":  # ("more than five": six or more)
            least = count_of(m["n"]) + (1 if m["more"] else 0)
            found.append(EvidenceTest("evidence", kind, host, float(least), m["port"], of))
        else:
            found.append(EvidenceTest("evidence", kind, host, of=of))
    return found


# -- a host said to be still quiet ------------------------------------------------------------------------------------

# (r44h) "as long as Enterprise0 still looks quiet", "while User3 is still clean", "OpS0 still untouched": the host quiet now
# and as it was a step ago. The claims read the state now; "still" says it has not changed, which a context refutes where
# it names the host among those that changed (the changed-hosts line, or a last recorded state that was not quiet). Read
# as the state now alone, the rule fired on a host the attacker had just reached and left.
_STILL_QUIET = re.compile(rf"\b(?P<host>{HOST_NAME}|{HOST_SHORT})\s+(?:(?:is|are|remains?|stays?)\s+)?still\s+"
                          r"(?:(?:shows?|showing|reads?|looks?|is|sits?(?:\s+at)?|at)\s+)?"
                          r"(?:nothing(?:\s+at\s+all)?|clean|quiet|untouched|uncompromised|idle|no\s+(?:activity|compromise|alerts?)|"
                          r"activity\s+none(?:\s*,?\s*compromised\s+no)?|none\s*/\s*no)\b", re.IGNORECASE)


@dataclass(frozen=True)
class StillQuiet(Judged):
    """`host` quiet as it was at the last step: false where the context says it changed since (the changed-hosts line
    names it, or its last recorded state was not quiet); else not refuted, the claims judging its state now."""

    host: str = ""

    def value(self, text: str, situation: Situation) -> Optional[bool]:
        changed = CHANGED_LINE.search(text or "")
        if changed and self.host in hosts_in(re.sub(r"\([^)]*\)", " ", changed["hosts"])):
            return False
        past = situation.history.past(self.host) if situation.history is not None else None
        if past and (past[-1][1], past[-1][2]) != ("None", "No"):
            return False
        return True


def still_tests(condition: str) -> list[StillQuiet]:
    """The hosts a condition says are still quiet (`_STILL_QUIET`), each a `StillQuiet` (a host the catalogue cannot
    name is left out)."""
    found = []
    for m in _STILL_QUIET.finditer(condition or ""):
        named = hosts_in(m["host"])
        if len(named) == 1:
            found.append(StillQuiet("history", named[0]))
    return found


# (r46h) What the Planner's plan names, said as a condition: "once the plan line reads Analyse E2", "if the Planner's
# line names a Remove of User1". A chooser's context states the plan after its situation ("...; plan: Remove User4,
# then ..."). No predicate atom states it, and left unread the rule was judged by the host's state alone: it fired where
# the plan named no such move, or where there was no plan at all.
_PLAN_SAYS = re.compile(rf"\b(?:(?:the\s+)?planner(?:'s|\u2019s)?\s+(?:plan|situation|line)|(?:the\s+)?plan(?:\s+line)?)\s+"
                        rf"(?:(?:already|still|now)\s+)?(?:says|reads|lists|names|calls\s+for|has|gives|orders|puts|contains|shows)\s+"
                        rf"['\"]?(?:(?:a|an|the)\s+)?(?P<move>[A-Za-z]+\s+(?:(?:of|on)\s+)?(?:{HOST_NAME}|{HOST_SHORT})\b)", re.IGNORECASE)
_PLANNER_SITUATION = re.compile(r"^.*\bSituation\s+\(from\s+the\s+Planner\):(?P<situation>.*)$", re.IGNORECASE | re.MULTILINE)
_PLAN_OF_SITUATION = re.compile(r"\bplan:\s*(?P<plan>.*)$", re.IGNORECASE)


_PUT_ASIDE = re.compile(r"\b(?:rather\s+than|instead\s+of|over|not|no|never|don['\u2019]?t|avoid|skip|without|hold\s+off(?:\s+on)?|"
                        r"before\s+any|until)\b", re.IGNORECASE)


@dataclass(frozen=True)
class PlanSays(Judged):
    """The Planner's plan names the move `verb` on `host`: true where the plan after the chooser's situation names it,
    false where that plan does not or the situation gives none; unknown where the context shows no Planner's situation."""

    verb: str = ""
    host: str = ""

    def value(self, text: str, situation: Situation) -> Optional[bool]:
        said = _PLANNER_SITUATION.search(text or "")
        if said is None:
            return None
        plan = _PLAN_OF_SITUATION.search(said["situation"])
        if plan is None:
            return False
        moves = re.split(r"[,;]|\bthen\b|\band\b|\bnext\b", plan["plan"], flags=re.IGNORECASE)
        # (r46a) a move the plan names only to put it aside, "Analyse E1 rather than Restore it", "do not Restore E1": not
        # one it names (read as one, a rule on a planned Restore spoke where the plan turned the Restore down)
        moves = [_PUT_ASIDE.split(move, maxsplit=1)[0] for move in moves]
        return any(self.host in hosts_in(move) and any(same_verb(v, self.verb) for v in verbs_in(move)) for move in moves)


def plan_tests(condition: str) -> list[PlanSays]:
    """The moves a condition says the Planner's plan names (`_PLAN_SAYS`), each a `PlanSays` (one verb and one host)."""
    found = []
    for m in _found(_PLAN_SAYS, condition or ""):
        verbs, hosts = verbs_in(m["move"]), hosts_in(m["move"])
        if len(verbs) == 1 and len(hosts) == 1:
            found.append(PlanSays("plan", verbs[0], hosts[0]))
    return found


def judged_in(condition: str, order: str = "", of=None) -> tuple[Judged, ...]:
    """Every condition of these kinds a rule states in `condition`; a window of steps, and evidence, also from `order`,
    the order's sentence, where the condition states none. `of`: the rule's predicate, whose hosts evidence said of no
    host must be of."""
    found: list[Judged] = list(episode_tests(condition, order))
    # (a condition cut short keeps its evidence in the order's sentence: "If X and no analysis this step names
    # User4, choose ..."; not a rating there, which is the order's answer)
    found += evidence_tests(condition, of) or [t for t in evidence_tests(order, of) if t.kind != "risk"]
    found += still_tests(condition)
    found += plan_tests(condition)
    return tuple(dict.fromkeys(found))
