"""The surrogate's reader of rules in natural phrasing: what it takes a rule or a correction to say.

Written for the ways people and models phrase rules: prohibitions ("never", "do not", "don't bother",
"stop ..."), conditionals ("if ... then", "whenever", "as soon as", "when ..., ..."), host classes
("user boxes", "workstations", "enterprise servers", "the op server"), paraphrased conditions ("root
access", "being exploited", "any sign of compromise") and verb synonyms ("reimage", "evict", "kill the
processes", "inspect", "put a decoy"). The product's grammar is one phrasing among many here.

Reflections and operator notes are read the way a reader takes them in general: a narrative sentence
("I wasted a turn restoring User0 ...") is context and the instruction is the sentence that gives an
order; "it" is the host the condition is about (or whichever host the rule matches); "not", "no",
"none of" and "unless" negate the clause they stand in; a second subject joined by "while" is a
second condition; "then" chains a plan, whose targets may be relative to the matched host ("the rest
of that subnet", "the next hop"); attack-phase words name phases; and what the reader cannot place of a
condition (history: "still ... after Remove", "for three steps") is reported as unread, in the
condition's own words.

It deliberately shares nothing with the product's rule parser, gate or compiler (forge.rulebook.language.grammar,
forge.rulebook): the surrogate stands in for a model, and a model reads text its own way. It uses only
environment facts (host names, verbs, host classes, the subnets' order). What it cannot make out stays
`vague`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from functools import lru_cache
from typing import Optional, Sequence

from forge.env.catalog import ATTACK_PATH, DECOY_SERVICES, GLOBAL_VERBS, HOST_CLASSES, HOSTS, VERBS

MATCHED = "$matched"  # "that host": whichever host the trigger matched
SUBNET = "$subnet"  # "the rest of that subnet": the matched host's subnet, the host itself left out
NEXT_SUBNET = "$next_subnet"  # "the next hop": the subnet after the matched host's on the way to the op server
RELATIVE = (SUBNET, NEXT_SUBNET)
ANY_DECOY = "Decoy"  # a decoy with no service named: any decoy service
DEFAULT_DECOY = "DecoyApache"  # what it deploys when no service is named
CLASSES = tuple(HOST_CLASSES) + ("any",)


# -- what a rule says --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Row:
    """One host as the prompt shows it (a row of the blue table)."""

    host: str
    activity: str
    compromised: str


@dataclass(frozen=True)
class Trigger:
    """The situation a rule is about. `subject`: a host, a class (User / Enterprise / Operational / any).
    activity / compromise: a value, "any" (anything but the quiet value), or None (not constrained)."""

    subject: str
    activity: Optional[str] = None
    compromise: Optional[str] = None
    also: tuple[str, ...] = ()  # "X and Y are both compromised": these hosts must show the signal too
    quiet: bool = False  # "when nothing is going on": no host shows any activity or compromise
    negated: bool = False  # "if User0 is not compromised": the subject does not show the signal
    extra: tuple["Trigger", ...] = ()  # further conditions on other subjects ("... while a User host already is")
    phase: Optional[str] = None  # the attack phase the condition names ("during reconnaissance"), if that is all it names
    # What the condition says of the defender's history, as (fact, value): ("acted", "Remove"), ("within", 3),
    # ("changed", False), ("unchanged_for", 3), ("scan_before_exploit", True). The rows cannot show it.
    history: tuple[tuple[str, object], ...] = ()
    excluded: tuple[str, ...] = ()  # "every user host other than User0": hosts of the class left out
    either: tuple[str, ...] = ()  # "User0 or User1": further hosts, any of which will do

    @property
    def has_signal(self) -> bool:
        return self.activity is not None or self.compromise is not None

    def holds_together(self, rows: Sequence[Row]) -> bool:
        """The parts of the situation that are not about one row: every `also` host meets the signal,
        or (quiet) no row shows anything."""
        if self.quiet:
            return not any(r.activity != "None" or r.compromised != "No" for r in rows)
        if not all(t.holds_together(rows) and (t.negated or any(t.meets(r) for r in rows)) for t in self.extra):
            return False
        if self.negated:
            return not any(Trigger(self.subject, self.activity, self.compromise).meets(r) for r in rows)
        return all(any(Trigger(host, self.activity, self.compromise).meets(r) for r in rows) for host in self.also)

    def hosts(self) -> tuple[str, ...]:
        if self.subject == "any":
            return HOSTS
        return HOST_CLASSES.get(self.subject, (self.subject,))

    def meets(self, row: Row) -> bool:
        if row.host not in self.hosts():
            return False
        if self.negated:
            return not (_value_holds(self.activity, row.activity, "None")
                        and _value_holds(self.compromise, row.compromised, "No"))
        return _value_holds(self.activity, row.activity, "None") and _value_holds(self.compromise, row.compromised, "No")

    def signal(self) -> tuple[Optional[str], Optional[str]]:
        return self.activity, self.compromise


def _value_holds(wanted: Optional[str], actual: str, quiet: str) -> bool:
    if wanted is None:
        return True
    if wanted == "any":
        return actual != quiet
    if "|" in wanted:  # ("User|Privileged": either level)
        return actual in wanted.split("|")
    return actual == wanted


@dataclass(frozen=True)
class Act:
    verb: Optional[str]  # a catalog verb, ANY_DECOY, or None: any action at all (prohibitions only)
    target: Optional[str]  # a host, a class, MATCHED, or None (Sleep / Monitor)

    def covers(self, verb: str, host: Optional[str], matched: Optional[str]) -> bool:
        """Whether the concrete action `verb host` is this act (with `matched` the host its trigger matched)."""
        if self.verb is not None and not (self.verb == verb or self.verb == ANY_DECOY and verb.startswith("Decoy")):
            return False
        if self.target is None:
            return host is None or self.verb is None
        if self.target == MATCHED:
            return host is not None and host == matched
        if self.target in RELATIVE:
            return host is not None and host in relative_hosts(self.target, matched)
        return host is not None and host in HOST_CLASSES.get(self.target, HOSTS if self.target == "any" else (self.target,))

    def concrete(self, matched: Optional[str]) -> Optional[str]:
        verb = DEFAULT_DECOY if self.verb == ANY_DECOY else self.verb
        if verb is None:
            return None
        if verb in GLOBAL_VERBS:
            return verb
        if self.target in RELATIVE:
            hosts = sorted(relative_hosts(self.target, matched))
            return f"{verb} {hosts[0]}" if hosts else None
        if self.target == MATCHED or self.target in CLASSES:
            if matched is None or (self.target in HOST_CLASSES and matched not in HOST_CLASSES[self.target]):
                return None
            return f"{verb} {matched}"
        return f"{verb} {self.target}" if self.target in HOSTS else None


def relative_hosts(target: str, matched: Optional[str]) -> tuple[str, ...]:
    """The hosts "the rest of that subnet" / "the next hop" stand for, seen from host `matched`."""
    subnet = next((name for name, hosts in HOST_CLASSES.items() if matched in hosts), None)
    if subnet is None:
        return ()
    if target == SUBNET:
        return tuple(h for h in HOST_CLASSES[subnet] if h != matched)
    index = ATTACK_PATH.index(subnet)
    return HOST_CLASSES[ATTACK_PATH[index + 1]] if index + 1 < len(ATTACK_PATH) else ()


@dataclass(frozen=True)
class Reading:
    """kind: do | never | prefer (do `act`, not `over`) | format (about how to reply) | vague (unreadable)."""

    kind: str
    trigger: Optional[Trigger] = None  # None: applies at every decision
    act: Optional[Act] = None
    over: Optional[Act] = None
    text: str = ""  # the instruction without its justification
    unread: str = ""  # the condition this reader could not place, in its words (a model's "unexpressed" part)
    then: tuple[Act, ...] = ()  # a plan's later moves, in order ("remove it, then decoy the next hop")
    unread_beyond_history: str = ""  # what stays unread once the trigger's history is stated
    # A note of cases, each with its own order ("E0 probed -> a decoy on it; E0 exploited -> Remove it"): the situations
    # after the first, each a case the rule speaks in (its order told in `unread`, "other cases: ...")
    cases: tuple[Trigger, ...] = ()

    def matching_rows(self, rows: Sequence[Row]) -> list[Row]:
        if self.cases:
            return [r for r in rows if r in replace(self, cases=()).matching_rows(rows)
                    or any(Reading(self.kind, case).matching_rows([r]) for case in self.cases)]
        if self.trigger is None:
            return list(rows)
        if not self.trigger.holds_together(rows):
            return []
        if self.trigger.quiet:
            return list(rows)
        if not self.trigger.has_signal and self.trigger.subject in HOST_CLASSES | {"any": ()}:
            return [r for r in rows if r.host in self.trigger.hosts()]
        return [r for r in rows if self.trigger.meets(r)]

    def prescribes(self, rows: Sequence[Row]) -> list[str]:
        """The actions a do / prefer rule prescribes for these rows, in row order."""
        if self.kind not in ("do", "prefer") or self.act is None:
            return []
        found = []
        if self.trigger is not None and self.trigger.quiet and self.act.verb in GLOBAL_VERBS:
            return [self.act.verb] if self.trigger.holds_together(rows) else []
        for row in self.matching_rows(rows):
            action = self.act.concrete(row.host)
            if action and action not in found:
                found.append(action)
        return found

    def forbids(self, action: str, rows: Sequence[Row]) -> bool:
        """Whether this rule rules out `action` (a canonical `Verb Host` or `Verb`) given these rows."""
        banned = self.act if self.kind == "never" else self.over if self.kind == "prefer" else None
        if banned is None:
            return False
        verb, _, host = action.partition(" ")
        host = host or None
        if self.trigger is None or not self.trigger.has_signal:
            return banned.covers(verb, host, host)
        matching = self.matching_rows(rows)
        if host is None:
            return bool(matching) and banned.covers(verb, None, None)
        return any(banned.covers(verb, host, r.host) for r in matching)


VAGUE = Reading("vague")


# -- reading actions ---------------------------------------------------------------------------------

_VERB_BY_FOLDED = {v.lower(): v for v in VERBS}
_HOST_BY_FOLDED = {h.lower(): h for h in HOSTS}
_FILLER = {"hostname", "host", "action", "answer", "final", "on", "the", "to", "a"}


def read_action(text: str) -> Optional[str]:
    """`Restore User1`, `decoy apache user2`, `Remove hostname="User1"` -> the canonical action, else None."""
    words = [w for w in re.findall(r"[A-Za-z_][A-Za-z0-9_]*", text or "") if w.lower() not in _FILLER]
    if not words:
        return None
    first, rest = words[0].lower(), words[1:]
    if first == "decoy" and rest:
        first, rest = "decoy" + rest[0].lower(), rest[1:]
    verb = _VERB_BY_FOLDED.get(first)
    if verb is None:
        return None
    host = _HOST_BY_FOLDED.get(rest[0].lower()) if rest else None
    if verb in GLOBAL_VERBS:
        return verb if host is None else None
    return f"{verb} {host}" if host else None


# -- reading rules -----------------------------------------------------------------------------------

_HOST_PATTERNS = [
    (re.compile(r"\b(user|enterprise)[\s_-]?(\d)\b"), lambda m: f"{m[1].capitalize()}{m[2]}"),
    (re.compile(r"\bop[\s_-]?host[\s_-]?(\d)\b"), lambda m: f"Op_Host{m[1]}"),
    (re.compile(r"\bop[\s_-]?server[\s_-]?(\d)\b"), lambda m: f"Op_Server{m[1]}"),
    (re.compile(r"\b(?:the\s+)?(?:op|operational|ot|operations)[\s_-]?server\b(?!s)"), lambda m: "Op_Server0"),
    (re.compile(r"\b(?:the\s+)?defender(?:\s+host)?\b(?!'s)"), lambda m: "Defender"),
]
_DET = r"(?:\b(?:the|a|an|any|every|each|all(?: the)?|all of the|one of the|some)\s+)?"
_CLASS_PATTERNS = [
    (re.compile(_DET + r"user[\s-]*(?:hosts?|box(?:es)?|machines?|workstations?|desktops?|laptops?|computers?|nodes?|"
                r"endpoints?|systems?|subnet)\b"), "User"),
    (re.compile(_DET + r"(?:workstations?|desktops?|laptops?)\b"), "User"),
    (re.compile(_DET + r"enterprise[\s-]*(?:hosts?|servers?|box(?:es)?|machines?|nodes?|systems?|subnet)\b"), "Enterprise"),
    (re.compile(_DET + r"(?:operational|op|ot|operations)[\s-]*(?:hosts?|servers|box(?:es)?|machines?|nodes?|systems?|"
                r"subnet|network)\b"), "Operational"),
    (re.compile(r"\b(?:any|a|every|each|all)\s+(?:hosts?|machines?|box(?:es)?|systems?|nodes?)\b"), "any"),
]
# Host sets named relative to the host a rule is about (a plan's targets).
_RELATIVE_PATTERNS = [
    (re.compile(r"\b(?:the\s+)?rest\s+of\s+(?:that|this|its|the|their)\s+(?:host'?s\s+)?(?:subnet|network|segment|zone)\b|"
                r"\b(?:its|their)\s+neighbou?r(?:s|ing\s+hosts?)\b|"
                r"\b(?:the\s+)?other\s+hosts\s+(?:on|in|of)\s+(?:that|this|its|the\s+same)\s+(?:subnet|network|segment)\b|"
                r"\b(?:every|each|all)\s+(?:other\s+)?hosts?\s+(?:on|in)\s+the\s+same\s+(?:subnet|network|segment)\b"), SUBNET),
    (re.compile(r"\b(?:the\s+)?next\s+(?:hop|subnet|network|segment|zone|tier)\b|"
                r"\bthe\s+(?:subnet|network|segment)\s+(?:after|behind|beyond)\s+(?:it|that|this)\b"), NEXT_SUBNET),
]
_PRONOUN = re.compile(r"\b(?:that host|this host|the host|that machine|this machine|the machine|that box|the box|"
                      r"the same host|those hosts|these hosts|such hosts?|the affected host|them|it)\b")
# "the most valuable compromised host": a host picked by what it shows; its describing words stay in the text.
_SOME_HOST = re.compile(r"\b(?P<pre>(?:the|a|an|any|every|each)\s+(?:(?!zz)[a-z-]+\s+){1,3}?)(?:hosts?|machines?|box(?:es)?)\b")
_REF = re.compile(r"\bzz([hcpr])(\d*)\b")

_PRIVILEGED = re.compile(r"\bprivileged\b|\bprivilege escalation\b|\broot(?:ed)?\b|\badmin(?:istrator)?\b|\bsystem[- ]level\b|"
                         r"\bescalat\w*")
_USER_LEVEL = re.compile(r"\bcompromised user\b|\buser[- ]level\b|\buser (?:access|compromise|shell|privileges?|rights)\b|"
                         r"(?:\b(?:at|to|shows?|showing|reads?|says?|said|back at|still|now|only)\s+|=\s*)['\"]?user(?:[\s-]+level)?\b"
                         r"(?![\s-]*(?:hosts?|box|machines?|subnet|workstations?|desktops?|laptops?|computers?|nodes?|endpoints?|"
                         r"systems?|accounts?|side|zz))")
_UNKNOWN = re.compile(r"\bcompromised unknown\b|\bunknown compromise\b|\b(?:not sure|unsure|unclear|uncertain|(?:do not|don't) know)\b"
                      r"[^,.;]*\bcompromis|\bsuspect\w* (?:of )?compromise\b|\bpossibly compromised\b|"
                      r"\bcompromise\w* (?:status |level |state )?(?:is |remains |stays )?unknown\b|\bunknown (?:status|state|level)\b|"
                      r"(?:\b(?:at|to|shows?|showing|reads?|says?|said|still|now|only)\s+|=\s*)['\"]?unknown\b|"
                      # ("Unknown now": the row's value at this step)
                      r"\bunknown\s+now\b|"
                      # ("Unknown on a user box": the row's value, then the host it is on)
                      r"\bunknown\s+(?=(?:on|for)\s+(?:a|an|the|any|some|each|every|zz))|"
                      # ("no Restore on Unknown": the move's host at that value)
                      r"\bon\s+unknown\b|"
                      # ("U3 Unknown -> Analyse U3": a host and its row's value, nothing else)
                      r"^\s*unknown\s*$")
_BOTH_LEVELS = re.compile(r"\buser(?:[- ]level)?\s*(?:or|/)\s*(?:root|privileged|admin)\b|"
                          # ("compromised, whatever level", "at any level": the levels a compromise comes in)
                          r"\b(?:whatever|any|either|every)\s+(?:the\s+|its\s+)?level\b|"
                          r"\b(?:root|privileged|admin)(?:[- ]level)?\s*(?:or|/)\s*user\b(?![\s-]*(?:hosts?|box|machines?|subnet))")
_COMPROMISE = re.compile(r"\bcompromis\w*|\bbreach\w*|\btaken over\b|\binfected\b|\bhacked\b|\bowned\b|\bpwned\b|\bintrusion\b|"
                         r"\battacker (?:access|foothold)|\binfiltrat\w*|\breach(?:es|ed|ing)?\b|\bgets? into\b|"
                         r"\blands? on\b|"
                         # ("OpS0 hit = impact", "Ent1 hit": the host taken; not "hit by a scan", "hit with probes")
                         r"^\s*(?:is\s+|was\s+|gets?\s+|got\s+|been\s+)?hit\b(?!\s+(?:by|with)\b)")
# A compromise that is new this step: what the table shows then is the exploit.
_NEWLY = re.compile(r"\b(?:newly|just|freshly)\s+(?:been\s+)?(?:compromis\w*|exploit\w*|breach\w*|infect\w*|hacked|owned)")
_EXPLOIT = re.compile(r"\bexploit\w*|\battacked\b|\bunder attack\b")
_SCAN = re.compile(r"\bscan\w*|\bprob(?:ed|ing|e)\b|\brecon\w*|\bport sweep")
_ACTIVITY = re.compile(r"\bactivity\b|\bsuspicious\b|\balerts?\b")
_QUIET = re.compile(r"\bnothing (?:is |much )?(?:going on|happening|to see)\b|\b(?:all|everything) (?:is )?(?:quiet|calm|clean)\b|"
                    r"\bno (?:alerts?|activity|signs? of (?:trouble|activity))\b|\bquiet\b|"
                    r"\b(?:no|not a single|none of the) (?:host|hosts|machine|machines|box|boxes)\b[^,.;]*?\b(?:activ\w*|compromis\w*|alerts?|"
                    r"anything)\b|\bnothing (?:anywhere|at all) is\b|\b(?:the )?network (?:is |looks )?(?:quiet|calm|clean)\b")
_NOTHING = re.compile(r"\b(?:nothing|no (?:host|machine)s?|none of the (?:host|machine)s)\b(?: \w+)? (?:is|are|was|has been|shows?|gets?)\b")
# "bait before they arrive": an order for the time before any attack shows, i.e. a quiet step.
_PREEMPT = re.compile(r"\bbefore\s+(?:they|the attackers?|the attack|red|anyone|anything)\s+(?:arrives?|gets?\s+(?:here|there|in)|"
                      r"starts?|begins?|shows?\s+up|moves?\s+in)\b|\bpre-?emptive(?:ly)?\b|\bahead of (?:the|any) attack\b")
_TOGETHER = re.compile(r"\bboth\b|\ball (?:of them|compromised|show)|\btogether\b|\bat the same time\b")
# Attack phases by the words reflections use for them, and what each looks like from the blue side
# (the surrogate's own reading: a subject and a signal); lateral movement is history, not a table state.
_PHASE_WORDS = (
    ("escalation_confirmed", re.compile(r"\b(?:analys[ie]s|analy[sz]ed?)\b[^.;]{0,40}\bconfirm\w*\b[^.;]{0,20}\bescalat")),
    ("reconnaissance", re.compile(r"\brecon(?:naissance)?\b|\b(?:discovery|scanning|probing|mapping|enumeration) (?:phase|stage)\b|"
                                  r"\b(?:mapping|enumerating) the network\b")),
    ("privilege_escalation", re.compile(r"\bprivilege escalation\b|\bescalation (?:phase|stage)\b|\bescalat\w* (?:its |their )?"
                                        r"privileges?\b|\bpriv-?esc\b")),
    ("exploitation", re.compile(r"\binitial access\b|\bexploitation\b|\bfoothold (?:phase|stage)\b|\bbreak-?in (?:phase|stage)\b")),
    ("impact", re.compile(r"\bimpact(?: phase| stage)?\b")),
    ("lateral_movement", re.compile(r"\blateral(?:ly)?\b")),
)
_PHASE_MEANING = {"reconnaissance": ("any", ("Scan", None)), "exploitation": ("any", ("Exploit", None)),
                  "privilege_escalation": ("any", (None, "Privileged")), "impact": ("Op_Server0", (None, "any"))}
# What only the defender's history can show: a condition that says it is unread, in its own words.
# What an analysis of a host reports (the analyst's evidence), no column of the table: "a reverse shell in this step's
# analyses", "more processes than its baseline", "a connection on port 4444".
EVIDENCE = re.compile(r"\b(?:analys[ie]s|evidence|baseline|processes|reverse[\s-]shells?|r?ports?|connections?|density|risk|"
                      r"user\s+accounts?)\b")
_HISTORY = re.compile(r"\bafter\s+(?:a\s+|an\s+|the\s+|my\s+|our\s+)?(?:remov|restor|analy[sz]|decoy|monitor)\w*|\bagain\b|"
                      r"\bpreviously\b|\bearlier\b|\brepeated\w*|\btwice\b|\bin a row\b|\bfor\s+(?:\w+\s+)?(?:steps|turns|rounds)\b|"
                      r"\b(?:last|previous|past)\s+(?:\w+\s+)?(?:steps?|turns?)\b|\bunchanged\b|\bha(?:s|ve)(?:n't| not)\s+changed\b|"
                      r"\bbefore\s+(?:zzp|it|that host)\s+\w+|\balready\s+(?:analy[sz]ed|removed|restored|scanned|decoyed)\b|"
                      r"\b(?:newly|freshly)\b|\bjust\s+been\b|\bclean\s+(?:at|on|in)\s+the\s+(?:previous|last|prior)\b|"
                      r"\bfor\s+the\s+first\s+time\b|\b(?:stay|stays|stayed|remain\w*|stuck|been)\b[^,.;]*\b(?:steps|turns)\b")
_VERB_PATTERNS = [
    ("Restore", r"restor\w*|re-?imag\w*|rebuild\w*|rebuilt|wip(?:e|es|ing|ed)\b|re-?install\w*|reset\w*|revert\w*|roll\w* back"),
    ("Remove", r"remov\w*|evict\w*|kill\w*|purg\w*|kick\w* (?:\w+ ){0,2}?(?:out|off)|boot\w* (?:\w+ ){0,2}?out|terminat\w*|"
               r"clean(?:s|ing)? (?:out|up)|get rid of|throw\w* (?:\w+ ){0,2}?out"),
    ("Analyse", r"analy[sz]\w*|inspect\w*|investigat\w*|examin\w*|check\w*|look(?:ing)? (?:at|into)|triag\w*"),
    (ANY_DECOY, r"decoy\w*|honey ?pot\w*|lure\w*"),
    ("Monitor", r"monitor\w*|watch\w*|observ\w*"),
    ("Sleep", r"sleep\w*|do nothing|idl(?:e|ing)\b|sit tight|stand(?:ing)? by"),
]
_VERB = re.compile("|".join(f"(?P<v{i}>\\b(?:{p}))" for i, (_, p) in enumerate(_VERB_PATTERNS)))
_HOST_VERB = "|".join(p for verb, p in _VERB_PATTERNS if verb not in (ANY_DECOY, "Monitor", "Sleep"))
_NUMBER = {"one": 1, "a": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "a couple of": 2, "a few": 3}
_COUNT = r"(\d+|one|two|three|four|five|six|a couple of|a few)"
_HISTORY_FACTS = (
    # "still compromised after Remove", "after a Restore": an action taken lately and what followed it
    re.compile(r"\b(?P<still>still\s+(?:\w+\s+){0,2}?)?(?:right\s+|just\s+)?after\s+(?:a\s+|an\s+|the\s+|my\s+|our\s+|you\s+|we\s+|i\s+)?"
               r"(?:have\s+|had\s+)?(?P<verb>" + _HOST_VERB + r")"),
    # "already analysed in the last two steps", "analysed it twice"
    re.compile(r"\balready\s+(?P<verb>" + _HOST_VERB + r")(?:\s+\S+){0,2}?(?:\s+(?:in|within|over)\s+the\s+"
               r"(?:last|past|previous)\s+" + _COUNT + r"\s+(?:steps|turns))?"),
    # "a host you analysed in the previous step", "was restored in the last two steps"
    re.compile(r"\b(?:you|we|i|was|were|been|got|has been|have been)\s+(?:already\s+|just\s+)?(?P<verb>" + _HOST_VERB +
               r")(?:\s+zzp|\s+it)?\s+(?:in|on|at|during|within|over)\s+the\s+(?:previous|last|prior|past)\s+(?:(?P<count>"
               + _COUNT[1:-1] + r")\s+)?(?:steps?|turns?)"),
    # "showed Scan before it showed Exploit", "scanned and then exploited"
    re.compile(r"\bscan\w*\s+(?:\S+\s+){0,4}?(?:before|and then|then)\s+(?:\S+\s+){0,3}?exploit\w*"),
    # "has not changed for three steps", "unchanged for 3 steps"
    re.compile(r"\b(?:ha(?:s|ve)(?:n't| not)\s+changed|unchanged|stayed the same)\s+(?:for\s+)?(?:the\s+(?:last|past)\s+)?" + _COUNT
               + r"\s+(?:steps|turns)"),
    # "compromised over the last two steps", "on two consecutive steps": the state stays
    # (also "for 2+ steps", at least that many; and a note's "rooted 3 steps straight", "Unknown 2 turns running", with no
    # preposition but a word that says the steps ran on: left unread, the span was dropped and the rule held at every step)
    re.compile(r"\b(?:(?:over|during|in|across|on|at|for)\s+(?:the\s+(?:last|past|previous)\s+)?|"
               r"(?=(?:\d+|one|two|three|four|five|six)\+?\s+(?:consecutive\s+)?(?:steps|turns|rounds)\s+(?:in\s+a\s+row|running|straight)\b))"
               + _COUNT + r"\+?\s+(?:consecutive\s+|successive\s+|straight\s+)?(?:steps|turns|rounds)\b(?!\s+ago)(?:\s+in\s+a\s+row|\s+running|"
               r"\s+straight)?"),
    # "stays compromised for three steps in a row", "has remained exploited for 2 turns": the state stays
    re.compile(r"\b(?:stay(?:s|ed|ing)?|remain(?:s|ed|ing)?|kept|keeps?|been|is|was|stuck|sits?|sat|shows?|showed|shown)\s+"
               r"(?P<state>(?:still\s+)?(?:(?!for\b)[a-z-]+\s+){1,3}?)?"
               r"(?:for\s+)?(?:the\s+(?:last|past)\s+)?" + _COUNT + r"\s+(?:consecutive\s+)?(?:steps|turns|rounds)"
               r"(?:\s+in\s+a\s+row|\s+running|\s+straight)?"),
    # "newly compromised", "was clean at the previous step and is compromised now", "just been breached"
    re.compile(r"\b(?:newly|freshly|just(?:\s+been)?)\s+(?:compromis\w*|breach\w*|infect\w*|hacked|owned|exploited)|"
               r"\bclean\s+(?:(?:at|on|in)\s+)?(?:the\s+)?(?:(?:previous|prev|last|prior)\s+(?:step|turn)|(?:step|turn)\s+before)|"
               r"\bfor\s+the\s+first\s+time\b"),
)
_RECENT = 3  # "after Remove" with no count: the last few steps
# A move made on a host lately, said of the host or of the move: "U4 restored in last 2 turns", "a DecoySmss went onto
# User1 within the past four turns", "Op_Host2 received a decoy in the previous turn", "decoyed in the last step"; with
# "no", the move was not made ("no decoy went onto that box in the past 2 turns").
# (also with no preposition, as notes put it: "U0 rmvd last step")
_LATELY = r"(?:(?:with)?in\s+|at\s+|on\s+)?(?:the\s+)?(?:last|past|previous|prior)\s+(?:(?P<count>" + _COUNT[1:-1] + r")\s+)?(?:steps?|turns?)"
_MOVED_ON = r"\s+(?:was|were|has\s+been|had\s+been|went|got)\s+(?:\w+\s+)?(?:on|onto|at|to)\s+(?:zzh\d+|zzp)"
_ACTED_LATELY = re.compile(
    r"(?:(?P<no>\bno)\s+(?:other\s+)?(?P<absent>decoy\w*|" + _HOST_VERB + r")" + _MOVED_ON +
    r"|\b(?:a|an|another)\s+(?P<move>decoy\w*|" + _HOST_VERB + r")" + _MOVED_ON +
    r"|\b(?:got|received|had|has\s+had|was\s+given|were\s+given)\s+(?:a|an|another)\s+(?P<given>decoy\w*)"
    r"|(?:(?<=zzh\d\s)|(?<=zzp\s)|\b(?:was|were|been|got)\s+)(?:already\s+|just\s+)?(?P<verb>decoy(?:ed|s)?|" + _HOST_VERB + r")"
    r"(?:\s+zzp)?)\s+" + _LATELY)
# "once we had restored some server and it got scanned again within 2 turns": the move, then the state it led to,
# within a count of steps (the state's own words stay in the condition)
_ACTED_THEN = re.compile(r"(?:\b(?:the\s+plan(?:ner)?|we|i|you|blue|the\s+defender)\s+)?\b(?:has|have|had)\s+(?:already\s+)?(?P<verb>" + _HOST_VERB + r"|decoyed)\b(?P<between>.{1,90}?)"
                         r"\s+within\s+(?:the\s+next\s+)?(?P<count>" + _COUNT[1:-1] + r")\s+(?:steps|turns)")

# "owned once more within three turns of a Remove of it", "exploited within 2 turns after the Remove": the state came
# (back) within a count of steps of the move (not a state that stayed for that many steps)
_WITHIN_OF_MOVE = re.compile(r"\s*\b(?:again\s+)?within\s+(?:the\s+)?(?P<count>" + _COUNT[1:-1] + r")\s+(?:steps|turns)\s+"
                             r"(?:of|after|since|following)\s+(?:our|the|my|your|a|an|its|their)?\s*(?P<verb>" + _HOST_VERB +
                             r"|decoy\w*)(?:\s+(?:of|on)\s+(?:zzh\d+|zzp))?")


def _move_of(words: str) -> str:
    """The catalog verb of a move's words ("removed" Remove, "a DecoyApache" DecoyApache, "a decoy" any decoy)."""
    return _decoy(_verb_at(_VERB.match(words)), words)


def _acted_lately(text: str) -> tuple[list[tuple[str, object]], str]:
    """A move made lately that a condition speaks of, as history facts, and the text without its words."""
    found = _ACTED_LATELY.search(text)
    if found is not None:
        words = found["absent"] or found["move"] or found["given"] or found["verb"]
        count = found["count"]
        facts = [("acted", _move_of(words)), ("within", _NUMBER.get(count, int(count) if count and count.isdigit() else 1))]
        if found["no"]:
            facts.append(("absent", True))
        # (the host the move was made on stays: "no decoy went onto it" is about "it")
        kept = " ".join(re.findall(r"zzh\d+|zzp", found.group(0)))
        return facts, f"{text[:found.start()]} {kept} {text[found.end():]}"
    found = _WITHIN_OF_MOVE.search(text)
    if found is not None:
        count = found["count"]
        facts = [("acted", _move_of(found["verb"])), ("within", _NUMBER.get(count, int(count) if count.isdigit() else _RECENT))]
        return facts, f"{text[:found.start()]} {text[found.end():]}"
    found = _ACTED_THEN.search(text)
    if found is not None:
        count = found["count"]
        facts = [("acted", _move_of(found["verb"])), ("within", _NUMBER.get(count, int(count) if count.isdigit() else _RECENT))]
        # ("again": the state came back after the move, which the move's fact says)
        between = re.sub(r"\bagain\b", " ", found["between"])
        return facts, f"{text[:found.start()]} {between} {text[found.end():]}"
    return [], text


def _history_words(text: str) -> str:
    """A condition's history in its own words ("still compromised after Remove"), then whatever else of it is
    unplaced: what a compiler without history atoms lists as unexpressed."""
    spans: list[str] = []
    for pattern in (_ACTED_LATELY, _ACTED_THEN, *_HISTORY_FACTS):
        found = pattern.search(text)
        span = " ".join(_REF.sub("it", found.group(0)).split()) if found else ""
        if span and not any(span in other or other in span for other in spans):
            spans.append(span)
    _, beyond = _history_facts(text)
    return " ".join([*spans, _unread(_REF.sub(" ", beyond), history=True)]).strip()


def _history_facts(text: str) -> tuple[tuple[tuple[str, object], ...], str]:
    """What a condition says of the defender's history, and the text with those words taken out."""
    facts, text = _acted_lately(text)
    acted, after, previous, scan_first, unchanged, over, stays, newly = _HISTORY_FACTS
    for pattern in _HISTORY_FACTS:
        found = pattern.search(text)
        if found is None:
            continue
        if pattern is previous:
            count = found["count"]
            facts += [("acted", _verb_at(_VERB.match(found["verb"]))),
                      ("within", _NUMBER.get(count, int(count) if count and count.isdigit() else 1))]
        elif pattern is acted or pattern is after:
            count = found.groups()[-1] if pattern is after else None
            if pattern is acted and re.match(r"(?:right|just)\s+after", found.group(0)[len(found["still"] or ""):]):
                count = "one"
            facts += [("acted", _verb_at(_VERB.match(found["verb"]))), ("within", _NUMBER.get(count, int(count) if count and count.isdigit() else _RECENT))]
            if pattern is acted and found["still"]:
                facts.append(("changed", False))
        elif pattern is scan_first:
            facts.append(("scan_before_exploit", True))
        elif pattern is newly:
            facts.append(("newly_compromised", True))
        elif pattern is over:
            if any(name == "unchanged_for" for name, _ in facts):
                continue
            count = found.group(1)
            facts.append(("unchanged_for", _NUMBER.get(count, int(count) if count.isdigit() else _RECENT)))
        elif pattern is stays:
            count = found.group(2)
            facts.append(("unchanged_for", _NUMBER.get(count, int(count) if count.isdigit() else _RECENT)))
        else:
            count = found.group(1)
            facts.append(("unchanged_for", _NUMBER.get(count, int(count) if count.isdigit() else _RECENT)))
        text = text[:found.start()] + " " + text[found.end():]
        if pattern is acted and found["still"] or pattern is newly:
            text += " compromised"  # "still compromised after Remove", "newly compromised" keep their signal
        elif pattern is stays and found["state"]:
            text += " " + found["state"]  # "stays compromised for three steps": still compromised
    if ("newly_compromised", True) in facts:
        text = newly.sub(" ", text)  # ("freshly owned, clean one step before": one fact, said twice)
    if any(name == "acted" for name, _ in facts) and not any(name == "changed" for name, _ in facts) \
            and re.search(r"\bstill\s+(?:\w+\s+){0,3}?(?:compromis\w*|owned|user|root\w*|privileged|hit|breach\w*|infected)\b", text):
        # (a host removed a step ago and owned still: the move left it owned; not a level of Unknown, the level a
        # Remove itself puts on the row)
        facts.append(("changed", False))
    return tuple(dict(facts).items()), text

_ANY_ACTION = re.compile(r"\b(?:wast\w* (?:\w+ )?(?:actions?|time|steps?|effort|moves?|turns?)(?: at all)? on|touch\w*|"
                         r"bother\w* with|spend\w* (?:\w+ )?(?:more )?(?:actions?|time|steps?|effort|moves?|turns?)(?: at all)? on|"
                         r"act\w* on|leave|do anything (?:to|on|with|about)|mess\w* with|interfer\w* with)\b")
# "spend no actions on X", "waste nothing on X", "leave X alone": a prohibition of every action, with no "never".
_NO_ACTION = re.compile(r"^(?:spend|waste|use|burn)\w*\s+(?:no|zero|nothing|not\s+(?:a\s+single|any|one))\b|^leave\b.*\b(?:alone|be)\b|"
                        r"^hands\s+off\b|^(?:keep|stay)\s+(?:off|away\s+from|clear\s+of|out\s+of)\b|^steer\s+clear\s+of\b")
_SERVICE = re.compile(r"(?:\b|(?<=decoy))(apache|femitter|haraka\w*|smss|ssh\w*|svchost|tomcat|vsftpd)\b")
_NEGATION = re.compile(r"^(?:(?:and|but|so|please|you should|we should|you|we|one|the defender|also)\s+)?(?:never(?: ever)?|do not|"
                       r"don't|dont|stop|avoid|refrain from|no need to|must not|mustn't|should not|shouldn't|cannot|can't|may not|"
                       r"quit|cease|hold off(?: on)?|no more|no)\b(?:\s+bother(?:ing)?\b)?(?:\s+(?:to|with)\b)?")
# (", never Restore" / ", stop removing it" after an order: the move it turns down)
_PREFER = re.compile(r"\b(?:rather than|instead of|in preference to|over|and not|but not|not)\b|,\s*(?:but\s+|and\s+)?(?:never|stop|no|skip|skipping)\b")
# "X, then Y" / "X and then Y" / "X; after that Y": a plan's next move.
_THEN = re.compile(r"(?:,\s*|\s+)(?:and\s+)?(?:then|after that|afterwards|next)\b")
_FORMAT = re.compile(r"\b(?:reply|replies|respond\w*|responses?|answer with|your answer|formatt?\w*|written as|"
                     r"write (?:your|each|the|exactly|one|only)|one line|single line|per line|nothing else|json|syntax|"
                     r"no explanations?|without explanations?|followed by the hostname|(?:reasons?|justifications?|explanations?)"
                     r" (?:\w+ ){0,3}?(?:short|brief|under|below|at most|to)|in (?:at most|under|fewer than|no more than) \w+ words|"
                     r"one (?:action|suggestion) per line|numbered list|bullet|exactly (?:one|two|three) (?:actions?|suggestions?)|"
                     r"(?:list|rank) (?:your |the )?(?:actions?|suggestions?)|(?:start|begin|end) (?:each |every |your )?"
                     r"(?:line|reply|answer|suggestion) with)\b|`(?:answer|tool):")
_REASON = re.compile(r"\s*(?:[,;:(]\s*)?\b(?:because|since|so that|in order to|otherwise|given that|as otherwise|"
                     r"to (?:prevent|stop|avoid|keep)|just because)\b.*$")
_REASON_LEAD = re.compile(r"^(?:it|it's|its|they|they're|this|that|there|the attacker|red|these|those|as|which)\b")
_FRAGMENT_SPLIT = re.compile(r"\s*;\s*|\s+[\u2013\u2014-]\s+|\.\s+|,\s*(?=(?:it is|it's|they are|this is|that is|"
                             r"the attacker|which)\b)")
# Condition words the reader takes as negating its signal, and the filler it ignores in a condition:
# whatever else a condition says is reported as unread.
# (a denial is of its own clause: "did not clear it and it is still compromised" denies no compromise)
_DENIAL_WORD = r"(?:(?!(?:and|but|while|whereas|though|although)\b)[a-z]+\s+)"
_NOT_IN_CONDITION = re.compile(r"(?:\b(?:not|no|no longer|never|without)|n't)\s+" + _DENIAL_WORD + r"{0,2}?(?:compromis|exploit|scan|"
                               r"root|privileged|breach|infect|owned|hacked|activ|alert|suspicious)|"
                               r"\bun(?:compromised|exploited|touched)\b")
# "none of the Enterprise hosts is ...", "no User host is ...": the negation is of the whole clause.
_NONE_OF = re.compile(r"^(?:none\s+of(?:\s+the)?|no|not\s+(?:a\s+single|any|one)(?:\s+of(?:\s+the)?)?|neither(?:\s+of(?:\s+the)?)?)\s+zz[hc]")
# "... while a User host already is": the second subject's signal is the first's.
_ELLIPSIS = re.compile(r"\b(?:already|also|too|as well)\s*(?:is|are)?\s*$|\b(?:is|are)\s+(?:already|also|too)\s*$|"
                       r"\b(?:is|are|was|were)\s*(?:not|n't)(?:\s+(?:yet|either))?\s*$|\b(?:isn't|aren't|wasn't)\s*$")
_ELLIPSIS_NOT = re.compile(r"(?:\bnot|n't)(?:\s+(?:yet|either))?\s*$")
# (also "... and an exploit running on Enterprise2": a second subject named after its signal)
_JOIN = re.compile(r"\s+(?:while|whereas|and|but)\s+(?=(?:(?:a|an|the|some|any|one|at least one|none of the|no)\s+)*zz[hc]\d|"
                   r"(?:an?\s+|the\s+)?(?:exploit|scan|compromise|foothold|probe)\w*\s+(?:\w+\s+){0,2}?(?:on|at|against|of)\s+zz[hc]\d)")
_CONDITION_FILLER = frozenset("""a an the any some every each all its it it's that this those these is are was were be been being
    has have had gets get got shows show showing shown showed still yet so and or of on in at to for from by with as
    there host hosts machine box one do does did up sign signs kind attacker under way underway ongoing progress
    going happening started begun begins starts phase stage only nothing none but not yet stays stay stayed remain remains
    remained row running straight consecutive successive anywhere everywhere net network sits sit sitting sat""".split())
_LEAD_MARKERS = (r"whenever|when|if|unless|as soon as|as long as|once|the moment|any ?time|every time|each time|in case|"
                 r"should|on|upon|after|while|during|for")
_LEAD = re.compile(rf"^(?P<adverb>(?:right|just|straight|immediately)\s+(?=after\b))?(?P<marker>{_LEAD_MARKERS})\b\s*"
                   rf"(?P<cond>.+?)\s*,\s*(?:then\s+)?(?P<main>.+)$")
_LEAD_THEN = re.compile(rf"^(?P<marker>{_LEAD_MARKERS})\b\s*(?P<cond>.+?)\s+then\s+(?P<main>.+)$")
_LEAD_NO_COMMA = re.compile(rf"^(?P<marker>{_LEAD_MARKERS})\b\s*(?P<cond>.+)$")
_MID = re.compile(r"^(?P<main>.+?)\s+(?P<marker>whenever|when|if|unless|as soon as|as long as|once|the moment|any ?time|every time|"
                  r"each time|in case|while|after|upon|during)\s+(?P<cond>.+)$")
# An order: a conditional, a prohibition, or an imperative verb (not "Restoring X cost ...", not "Remove did not ...").
_ORDER_START = re.compile(rf"^(?:(?:{_LEAD_MARKERS})\b|(?:never|always|please|prefer|only|next time|from now on|make sure|be sure to|remember to|try to|"
                          r"do not|don't|dont|avoid|stop|refrain|(?:plan|recommend|schedule)\s+no)\b)")
_NOT_AN_ORDER_AFTER_VERB = re.compile(r"^\s*(?:did|does|do|was|were|is|are|has|had|failed|worked|cleared|only|alone|"
                                      r"cost|costs|let|lets|made|makes|won't|didn't|doesn't|wasn't)\b")


@dataclass
class _Refs:
    values: list[str]  # what each `zzhN` / `zzcN` / `zzrN` token stands for: a host, a class, a relative set
    every: set[int] = field(default_factory=set)  # the class tokens said of every host of the class ("every ent srv")


# Terse notes, as operators type them: "E2", "U3", "OpS0" for hosts; "usr boxes", "ent srvs" for classes; "@ User" for a
# level; "&" or a lone "+" for "and"; "w/" for "with"; "rmvd" for "removed"; "X -> Y" for "when X, Y".
_SHORT_HOST = re.compile(r"\b(?:(?P<user>u|usr)|(?P<ent>e|ent)|(?P<server>ops|op_s|opsrv|opsvr|opserv)|(?P<ophost>oph|op_h))"
                         r"(?P<n>\d)\b")
_SHORT_WORDS = ((re.compile(r"\bw/o\b"), "without"), (re.compile(r"\bw/"), "with "), (re.compile(r"\bb/c\b"), "because"),
                (re.compile(r"\brmvd\b|\brm'?d\b"), "removed"), (re.compile(r"\brstrd\b"), "restored"),
                (re.compile(r"\busrs?\b"), "user"), (re.compile(r"\blvl\b"), "level"), (re.compile(r"\bpriv\b"), "privileged"), (re.compile(r"\b(?:srvs?|svrs?)\b"), "servers"),
                (re.compile(r"\bent(?=\s+(?:servers|hosts?|box(?:es)?|subnet)\b)"), "enterprise"),
                (re.compile(r"\s*@\s*"), " at "), (re.compile(r"\s+(?:&|\+)\s+"), " and "),
                # ("the analyses say 'Risk: high'": a field of the analyses and its value, no heading before a colon)
                (re.compile(r"\brisk\s*:\s*(?=(?:high|medium|low)\b)"), "risk "))
_LISTED_HOST = r"(?:user\d|enterprise\d|op_server\d|op_host\d|defender)"
_OR_LIST = re.compile(rf"\b{_LISTED_HOST}(?:\s*,\s*{_LISTED_HOST})+,?\s+or\s+{_LISTED_HOST}\b")
_BULLETED = re.compile(r":\s*\n\s*[-*\u2022]\s+\S[^\n]*(?:-+>|=>|\u2192)")
_KEPT_FOR = re.compile(r"(?P<lead>(?:^|[.;]\s*))(?:keep|save|reserve|hold)\s+(?:the\s+|a\s+|your\s+)?(?P<verb>restore|remove|analy[sz]e)s?\s+"
                       r"for\s+(?P<marker>when|if|once)\s+(?P<cond>[^.;,]+)")
_ARROW = re.compile(r"\s*(?:->|=>|\u2192)\s*")
_HEAD_LEAVES_OUT = re.compile(rf"(?P<cls>[a-z ]+?)\s*,?\s+(?:not|except(?:\s+for)?|other\s+than|but\s+not|apart\s+from|excluding|"
                              rf"save\s+for)\s+(?P<hosts>{_LISTED_HOST}(?:\s*(?:,|and|or|nor)\s*{_LISTED_HOST})*)(?:\s+though)?")


# What a situation before an arrow is said of: a host, a class, "it", "any box", "the network", "nothing". A situation
# with none of these ("under exploit ->", "in that case ->", "Activity Scan, Compromised No' =>") is said of something
# outside it (a heading, the sentence before, a quoted row): read as a situation of its own, it lost its subject and
# with it part of the condition, so the note is read as it stands.
_OWN_SUBJECT = re.compile(r"\b(?:it|its|they|them|hosts?|box(?:es)?|machines?|servers?|workstations?|desktops?|laptops?|"
                          r"nodes?|endpoints?|network|net|subnet|nothing|anything|everything|something|none|user|enterprise|"
                          r"op|ops|operational)\b")


def _names_its_subject(situation: str) -> bool:
    return bool(_OWN_SUBJECT.search(situation) or any(p.search(situation) for p, _ in _HOST_PATTERNS))


def _unabbreviated(text: str) -> str:
    """A terse note in full words (lower-case text in, lower-case text out). A host in shorthand ("E2", "U3", "OpS0") is
    left as written: read as the host, it made one rule of blind-19 (read by aggregates only) a harmful injection in round
    49's bisection (its misreading is unread), so this reader does not place such names (a heading of one still joins its
    situation, below)."""
    out = text
    for pattern, words in _SHORT_WORDS:
        out = pattern.sub(words, out)
    # "...; save Restore for when it goes root": another case, told as the move held back for it ("when it goes root,
    # restore it")
    out = _KEPT_FOR.sub(lambda m: f"{m['lead']}{m['marker']} {m['cond']}, {m['verb']} it", out)
    if not _ARROW.search(out):
        return out
    # "E2 owned -> restore it": the situation, then what to do in it (in each sentence, or after a heading's colon)
    pieces = re.split(r"((?:[.;!?]|:)\s+)", out)
    for index in range(len(pieces) - 2, 0, -2):
        # "U3: exploit showing -> ...": a host (or class) before the colon is the subject of the situation after it
        head = pieces[index - 1].strip()
        if not (pieces[index].startswith(":") and _ARROW.search(pieces[index + 1])):
            continue
        if len(head.split()) <= 3 and \
                any(p.fullmatch(head) for p, _ in (*_HOST_PATTERNS, *_CLASS_PATTERNS)) | bool(_SHORT_HOST.fullmatch(head)):
            pieces[index - 1:index + 2] = [f"{head} {pieces[index + 1]}"]
            continue
        # "usr boxes, not U3 though: any of them exploited -> ...": the class, less the hosts the heading leaves out
        left_out = _HEAD_LEAVES_OUT.fullmatch(head)
        if left_out and any(p.fullmatch(left_out["cls"]) for p, _ in _CLASS_PATTERNS):
            pieces[index - 1:index + 2] = [f"{left_out['cls']} except {left_out['hosts']} {pieces[index + 1]}"]
    case_before = False  # (the piece before, across a ';', a case of its own: "E1 probed -> ...; rooted -> ...")
    for index, piece in enumerate(pieces):
        left, arrow, right = piece.partition(_ARROW.search(piece).group(0)) if _ARROW.search(piece) else (piece, "", "")
        if index % 2:
            case_before = case_before and piece.startswith(";")
            continue
        case_before = bool(arrow and left.strip() and right.strip() and (_names_its_subject(left) or case_before))
        if case_before:
            lead = "" if re.match(rf"(?:{_LEAD_MARKERS})\b", left.strip()) else "when "
            # (everything before the arrow is the situation: "E1 removed lately, Unknown now -> ..." is one condition)
            # (but a list of hosts ended by "or", "U1, U2 or U3 exploited", is any of them)
            situation = re.sub(r"\s*,\s*", " and ", _OR_LIST.sub(lambda m: re.sub(r"\s*,\s*", " or ", m.group(0)), left.strip()))
            pieces[index] = f"{lead}{situation}, {_ARROW.sub(', then ', right.strip())}"
    return "".join(pieces)


def _tokenise(text: str) -> tuple[str, _Refs]:
    """Lower-case text with hosts as `zzhN`, classes as `zzcN`, relative host sets as `zzrN` and "it /
    that host" as `zzp`."""
    refs = _Refs([])
    out = _unabbreviated(text.lower().replace("\u2019", "'"))

    def keep(kind: str, value: str) -> str:
        refs.values.append(value)
        return f" zz{kind}{len(refs.values) - 1} "

    for pattern, name in _HOST_PATTERNS:
        out = pattern.sub(lambda m, name=name: keep("h", name(m)), out)
    for pattern, relative in _RELATIVE_PATTERNS:
        out = pattern.sub(lambda m, relative=relative: keep("r", relative), out)
    def kept_class(m: re.Match, cls: str) -> str:
        token = keep("c", cls)
        # ("every ent srv", and a subnet said as a whole: "the user subnet is quiet" is each of its hosts quiet, not one)
        if re.match(r"\s*(?:every|each|all)\b", m.group(0)) or re.search(r"\b(?:subnet|network)$", m.group(0)):
            refs.every.add(len(refs.values) - 1)
        return token

    for pattern, cls in _CLASS_PATTERNS:
        out = pattern.sub(lambda m, cls=cls: kept_class(m, cls), out)
    out = _PRONOUN.sub(" zzp ", out)
    out = _SOME_HOST.sub(lambda m: m["pre"] + keep("c", "any"), out)
    return " ".join(out.split()), refs


_TABLE_ACTIVITY = re.compile(r"\bactivity\s+(none|scan|exploit)\b")
_TABLE_COMPROMISE = re.compile(r"(?<!not )(?<!but not )\bcompromised\s+(no|unknown|user|privileged)\b(?![\s-]*(?:hosts?|box|"
                               r"boxes|machines?|workstations?|desktops?|laptops?|nodes?|systems?|subnet|zzc))")
_CLEAN = re.compile(r"\b(?:clean|uncompromised|not (?:yet )?compromised|no compromise|nothing on it (?:is )?compromised)\b")


_NOTHING_RUNNING = re.compile(r"\bnothing\s+(?:is\s+|was\s+)?(?:running|going\s+on|happening)\b|\bno\s+(?:activity|alerts?)\b")
_ROOT_DENIED = re.compile(r"(?:\b(?:no|not|without|never)|n't)\s+(?:\w+\s+){0,2}?(?:root(?:ed)?|privileged|admin)\b")


# "E1 scan (no exploit yet)", "scanned, not exploited", "scan w/o exploit": a scan, and the exploit denied (which the scan
# already leaves out). Read as the exploit denied alone, the scan was dropped and the rule held wherever the host showed no
# exploit, quiet hosts too.
_EXPLOIT_DENIED = re.compile(r"(?:\b(?:no|not|without|never|nor)|n't)\s+(?:[a-z]+\s+){0,2}?exploit\w*|\bunexploited\b")
_SCAN_DENIED = re.compile(r"(?:\b(?:no|not|without|never|nor)|n't)\s+(?:[a-z]+\s+){0,2}?(?:scan\w*|prob\w*)|\bunscanned\b")


def _scan_with_exploit_denied(text: str) -> bool:
    return bool(_SCAN.search(text) and _EXPLOIT_DENIED.search(text) and not _SCAN_DENIED.search(text)
                and not re.sub(r"\bexploit\w*", "", _EXPLOIT_DENIED.sub(" ", text)).count("exploit"))


def _signal(text: str) -> tuple[Optional[str], Optional[str]]:
    table_activity, table_compromise = _TABLE_ACTIVITY.search(text), _TABLE_COMPROMISE.search(text)
    if table_activity or table_compromise:  # the table's own words: "shows Activity Scan and Compromised No"
        levels = {m.group(1) for m in _TABLE_COMPROMISE.finditer(text)}
        either = len(levels) > 1 and re.search(r"\bor\b", text) and "no" not in levels  # "Compromised User or Privileged"
        return (table_activity.group(1).capitalize() if table_activity else None,
                "any" if either else table_compromise.group(1).capitalize() if table_compromise else None)
    if _NEWLY.search(text) and not _PRIVILEGED.search(text):
        return "Exploit", None
    if _CLEAN.search(text):  # "scanned but uncompromised": the scan, and no compromise
        return ("Exploit" if _EXPLOIT.search(text) else "Scan" if _SCAN.search(text) else None), "No"
    if re.search(r"\b(?:quiet|idle|calm)\b|\b(?:shows?|showing|shown|has|had)\s+nothing\b(?!\s+(?:but|except|besides|beyond|more|else|new|newer|different|changed|further|to|of)\b)",
                 text) and not _EXPLOIT.search(text) and not _SCAN.search(text) and not _COMPROMISE.search(text):
        return "None", "No"  # "while Enterprise2 is still quiet": nothing shows on it
    if _BOTH_LEVELS.search(text):
        # "owned (user or root)", "at user or root level": either level, not any compromise (Unknown is neither)
        return ("Exploit" if _EXPLOIT.search(text) else "Scan" if _SCAN.search(text) else None), "User|Privileged"
    if _USER_LEVEL.search(text) and _ROOT_DENIED.search(text):
        # (owned at the user level, root not reached: that level, with root denied)
        activity = "Exploit" if _EXPLOIT.search(text) else "Scan" if _SCAN.search(text) else None
        return activity, "User"
    compromise = ("Privileged" if _PRIVILEGED.search(text) else "User" if _USER_LEVEL.search(text)
                  else "Unknown" if _UNKNOWN.search(text) else "any" if _COMPROMISE.search(text) else None)
    activity = "Exploit" if _EXPLOIT.search(text) else "Scan" if _SCAN.search(text) else None
    if activity == "Exploit" and _scan_with_exploit_denied(text):
        activity = "Scan"
    if activity is None and compromise is None and _ACTIVITY.search(text):
        activity = "any"
    if activity is None and compromise is not None and _NOTHING_RUNNING.search(text):
        activity = "None"  # (owned at the user level with nothing running: no activity beside the level)
    if compromise is not None and activity is not None and re.search(r"\bcompromised (?:user|privileged|unknown)\b", text) \
            and not re.search(r"\bactivity (?:scan|exploit)\b", text):
        activity = None  # "Compromised User" names the compromise only
    if compromise in ("User", "Privileged") and activity == "Exploit" and \
            re.search(r"\b(?:has|have|had)\s+been\s+exploited\b|\bwas\s+exploited\b|(?<!being\s)(?<!\bis\s)(?<!\bare\s)(?<!\bget\s)(?<!\bgets\s)\bexploited\s+(?:at|to)\s+(?:user|root)", text):
        # "a box which was exploited up to user level": the level the exploit left, no exploit now (but "is being exploited
        # at the user level" is the exploit now, at that level)
        activity = None
    return activity, compromise


def _refs_in(text: str, refs: _Refs) -> list[str]:
    """Hosts, classes and relative sets named in `text`, in order; "zzp" for a pronoun."""
    found = []
    for m in _REF.finditer(text):
        found.append("zzp" if m[1] == "p" else refs.values[int(m[2])])
    return found


def _subjects_in(text: str, refs: _Refs) -> list[str]:
    """What a condition can be about: hosts, classes and pronouns (a relative set is a target only)."""
    return [n for n in _refs_in(text, refs) if n not in RELATIVE]


@dataclass
class _Clause:
    negated: bool
    verb: Optional[str]  # None: no action word; "*": any action (a prohibition on a host)
    target: Optional[str]  # host / class / relative set / "zzp" / None
    over_verb: Optional[str] = None
    over_target: Optional[str] = None
    rest: str = ""  # the clause without its verb phrase, for signals written inline
    own: str = ""  # the words of the first move's object ("a compromised User host")
    then: tuple[tuple[str, Optional[str]], ...] = ()  # a plan's later moves: (verb, target or None: the same)


def _verb_at(match: re.Match) -> str:
    index = next(i for i, value in enumerate(match.groups()) if value is not None)
    return _VERB_PATTERNS[index][0]


def _decoy(verb: str, text: str) -> str:
    if verb != ANY_DECOY:
        return verb
    service = _SERVICE.search(text)
    if not service:
        return ANY_DECOY
    word = service[1]
    return next((f"Decoy{s}" for s in DECOY_SERVICES if s.lower().startswith(word[:4])), ANY_DECOY)


def _gives_order(text: str) -> bool:
    """Whether a fragment is an instruction rather than a report ("I wasted a turn ...", "Restoring X cost ..."),
    also after a heading or a situation and a colon ("Except for User0: do not restore it")."""
    text = text.strip()
    lead = _LEAD.match(text)
    if lead and _is_statement(lead["main"].strip(), lead["cond"]):
        return False  # ("once it is exploited, a decoy on it is pointless": what a move is worth there, no order)
    if _ORDER_START.match(text) or _NO_ACTION.match(text):
        return True
    head, colon, tail = text.partition(": ")
    if colon and tail and _gives_order(tail):
        return True
    verb = _VERB.match(text)
    if verb is None:
        return False
    word = verb.group(0).split()[0]
    return not (word.endswith("ing") or word.endswith("ed")) and not _NOT_AN_ORDER_AFTER_VERB.match(text[verb.end():])


# A denial right before the move it denies, past the start of the clause: "(...) -> no Restore", "plan no Restore on ...",
# "from step 25 on I do not restore", "are never to be restored", "must never be removed".
_DENIED_BEFORE = re.compile(r"(?:^|\s)(?:no|never(?:\s+to\s+be)?|not\s+to\s+be|(?:must|should|may|can)\s*(?:not|n't|never)(?:\s+be)?|"
                            r"(?:do|does|will)\s*(?:not|n't)|don'?t|won'?t|(?:is|are)\s+not\s+to\s+be)\s*$")
_ORDER_WORDS = frozenset("i we you plan planner chooser analyst recommend schedule pick choose should must".split())
# What a move named as the subject of a report did: "the Remove did not work", "Remove failed", "that restore didnt hold".
_REPORTED_MOVE = re.compile(r"\s*(?:(?:of|on)\s+(?:zz[hp]\d*)\s+)?(?:did\s*n[o']?t|didnt|does\s*n[o']?t|doesnt|has\s*n[o']?t|hasnt|"
                            r"was\s*n[o']?t|wasnt|failed|worked|cleared|helped|held)\b")


def _main_clause(text: str, refs: _Refs) -> _Clause:
    negation = _NEGATION.match(text)
    negated = negation is not None
    if not negated and _NO_ACTION.match(text):
        after = _refs_in(text, refs)
        return _Clause(True, "*", after[0] if after else None, rest=text)
    body = text[negation.end():].strip() if negation else re.sub(r"^(?:always|please|prefer(?:ably)?)\s+", "", text)
    verbs = list(_VERB.finditer(body))
    any_action = _ANY_ACTION.search(body)
    if not verbs and not (negated and any_action):
        return _Clause(negated, None, None, rest=body)
    if not verbs:
        after = _refs_in(body[any_action.end():], refs) or _refs_in(body, refs)
        return _Clause(negated, "*", after[0] if after else None, rest=body[any_action.end():])
    while len(verbs) > 1 and _REPORTED_MOVE.match(body[verbs[0].end():]):
        verbs = verbs[1:]  # ("the Remove did not work, escalate to Restore": the move reported on is no order)
    denied = _DENIED_BEFORE.search(body[:verbs[0].start()])
    if not negated and denied and not [w for w in re.findall(r"[a-z][a-z'-]*", _REF.sub(" ", body[:denied.start()]))
                                       if w not in _CONDITION_FILLER and w not in _ORDER_WORDS]:
        # ("plan no Restore on it", "the op hosts are never to be restored", "I do not restore it"; words before the denial
        # that this reader does not place, "rwd below -3 -> no Restore", leave the clause as it was read)
        negated = True
    first = verbs[0]
    verb = _decoy(_verb_at(first), body)
    # A second action after "rather than / instead of / over / not": prefer the first over the second;
    # after "then": the plan's next move.
    over_verb = over_target = None
    cut = len(body)
    then: list[tuple[str, Optional[str]]] = []
    previous = first
    if negation is not None and re.match(r"(?:\w+\s+)?(?:stop|quit|cease)\b", negation.group(0)) and len(verbs) > 1 \
            and re.fullmatch(r"\s*(?:zz[hpc]\d*\s*)?,?\s*(?:and|but)\s+(?:instead\s+|then\s+)?", body[first.end():verbs[1].start()]):
        # ("stop analysing that box and Remove it": the move to make instead of the one to stop)
        later = verbs[1]
        named = _refs_in(body[first.end():later.start()], refs) or _refs_in(body[later.end():], refs)
        return _Clause(False, _decoy(_verb_at(later), body[later.start():]), named[0] if named else None,
                       verb, named[0] if named else None, rest=body[:first.start()], own=body[later.end():])
    for index, later in enumerate(verbs[1:], 1):
        between = body[previous.end():later.start()]
        marker = list(_PREFER.finditer(between))
        if marker and not then:
            over_verb = _decoy(_verb_at(later), body[later.start():])
            tail = _refs_in(body[later.end():], refs)
            over_target = tail[0] if tail else None
            cut = first.end() + marker[-1].start()
            break
        chain = _THEN.search(between)
        if chain is None:
            continue
        if re.search(r"\b(?:think\w*\s+(?:about|of)|consider\w*|worry\w*\s+about|weigh\w*\s+up)(?:\s+(?:a|an|the|some|any))?\s*$", between):
            break  # ("reimage it, then consider a decoy": a move only to be weighed is no step of the plan)
        if not then:
            cut = previous.end() + chain.start()
        end = verbs[index + 1].start() if index + 1 < len(verbs) else len(body)
        span = body[later.end():end]
        named = _refs_in(span, refs)
        then.append((_decoy(_verb_at(later), body[later.start():end]), named[0] if named else None))
        previous = later
    own = body[first.end():cut]
    after = _refs_in(own, refs)
    before = _refs_in(body[:first.start()], refs)
    target = after[0] if after else before[0] if before else over_target
    if target == "zzp" and before and before[0] != "zzp" and "zzp" not in re.sub(r"\([^)]*\)?", " ", own):
        target = before[0]  # ("U2: no Restore (it is the way in)": "it" is the host named before the move)
    rest = (body[:first.start()] + " " + own).strip()
    return _Clause(negated, verb, target, over_verb, over_target, rest, own, tuple(then[:2]))


def _quote_open(text: str) -> bool:
    """Whether a quotation opened in the text is not closed in it ("the alerts list 'E1: Activity Scan": the comma
    after it is inside the quoted row)."""
    return len(re.findall(r"(?:^|(?<=\s))['\"](?=\s?\S)", text)) > len(re.findall(r"(?<=\S)['\"](?=\s|[,.;:]|$)", text))


def _condition_goes_on(main: str) -> bool:
    """Whether the first comma piece of what follows a condition's comma still belongs to the condition: it has no move
    and no denial or order of its own, and speaks of the state's history ("unchanged", "for two steps straight", "and it
    has stayed so for two steps") or goes on with "with ..." ("with no alerts on it")."""
    piece, comma, rest = main.partition(",")
    piece = piece.strip()
    if not (comma and rest.strip()) or _VERB.search(piece) or _NEGATION.match(piece) \
            or _ORDER_START.match(piece) and not piece.startswith("for ") \
            or re.search(r"\b(?:means?|meaning|is|are|was|were|i\.e)\b", piece):  # ("... in its evidence means root")
        return False
    if re.match(r"(?:with|without)\b", piece):
        return _situation_words(piece)
    # (no subject of its own but "it": "meaning a host has just ..." is another clause)
    return bool(_HISTORY.search(piece)) and not re.search(r"zz[hc]", piece)


# "even when owned", "not even if it is exploited": the case the rule is said to reach too, read as its condition (as
# its authors compile it); "even" itself, left in, kept the clause from being read as a condition at all
_CONCESSION = re.compile(r"\b(?:not\s+)?even\s+(?=(?:when|if|once|though|while)\b)")


def _split_condition(text: str) -> tuple[Optional[str], str, bool]:
    """(condition, main clause, whether the condition is an "unless")."""
    for form in (_LEAD, _LEAD_THEN):  # "when X, then Y" before "when X then Y": "scanned and then exploited" is one condition
        lead = form.match(text)
        joined = text
        while form is _LEAD and lead and (_condition_goes_on(lead["main"]) or _quote_open(lead["cond"])):
            # ("when X has been owned, unchanged, for two steps, stop ...": a piece with no move of its own that speaks of the
            # state or its history goes on with the condition, up to the comma the order follows)
            joined = joined[:lead.end("cond")] + " " + re.sub(r"^\s*,\s*", "", joined[lead.end("cond"):], count=1)
            lead = form.match(joined)
        if lead and (_VERB.search(lead["main"]) or _NEGATION.match(lead["main"])):
            # "right after you remove X": the marker is part of a condition of history
            cond = f"{lead['adverb'] or ''}{lead['marker']} {lead['cond']}" if form is _LEAD and lead["marker"] in ("after", "upon") \
                else lead["cond"]
            more = _LEAD.match(lead["main"]) if form is _LEAD and lead["marker"] != "unless" else None
            if more and more["marker"] not in ("unless", "after", "upon") and more["adverb"] is None \
                    and (_VERB.search(more["main"]) or _NEGATION.match(more["main"])):
                # "after you remove X, while it still shows Y, analyse X": one condition in two parts, then the order
                return f"{cond} and {more['cond']}", more["main"], False
            return cond, lead["main"], lead["marker"] == "unless"
    lead = _LEAD_NO_COMMA.match(text)
    if lead:
        # "when User1 is compromised restore it": the main clause starts at its first action word.
        body = lead["cond"]
        start = _NEGATION.search(body) or _VERB.search(body)
        if start and start.start() > 0:
            return body[: start.start()].strip(), body[start.start():].strip(), lead["marker"] == "unless"
    mid = _MID.match(text)
    if mid and (_VERB.search(mid["main"]) or _ANY_ACTION.search(mid["main"])):
        # "... right after analysing it": the marker is part of a condition of history
        cond = f"{mid['marker']} {mid['cond']}" if mid["marker"] in ("after", "upon") else mid["cond"]
        return cond, re.sub(r"\s+(?:right|just|immediately)$", "", mid["main"]), mid["marker"] == "unless"
    return None, text, False


def _split_at_colon(text: str) -> Optional[tuple[Optional[str], str, bool]]:
    """"<situation>: <order>" or "<heading order>: <order>": the order after the colon, and the situation
    before it as the condition (a lead condition of the heading is the condition). None: no such colon."""
    head, colon, tail = text.partition(": ")
    if not colon or not _gives_order(tail):
        return None
    if re.match(r"^(?:except(?:ion)?|but|note|important|rule|update|correction|this rule)\b", head) or \
            _split_condition(tail)[0] and re.search(r"\b(?:rule|only for|applies)\b", head):
        return _split_condition(tail)  # "Except for User0: do not restore it when ...": a heading, not a situation
    if not _REF.search(head) and not _split_condition(tail)[0] and _situation_words(head):
        return head, tail, False  # "Reconnaissance under way: deploy a decoy on User2"
    if _split_condition(tail)[0] and not _situation_words(head) and not _LEAD_NO_COMMA.match(head) \
            and re.search(r"zzh\d", head) and len(head.split()) <= 5:
        return _split_condition(tail)  # ("Op_Host1 stands apart: if exploited, do not remove it": a heading, its host named)
    lead = _LEAD.match(head) or _LEAD_NO_COMMA.match(head)
    if lead:
        return lead["cond"], tail, lead["marker"] == "unless"
    if _gives_order(head) or not _REF.search(head):
        return _split_condition(tail)
    # "A host that shows X should be isolated: ..." -- the situation is the relative clause, not the comment on it.
    relative = re.search(r"\b(?:that|which|who)\b", head)
    comment = list(re.finditer(r"\s(?:is|are|should|must|needs?|deserves?)\s", head[relative.end():])) if relative else []
    return (head[:relative.end() + comment[-1].start()] if comment else head), tail, False


def _order_text(flat: str) -> str:
    """The text from its first sentence that gives an order on (a reflection's report before it left out)."""
    sentences = re.split(r"(?<=[.!?])\s+", flat)
    for index, sentence in enumerate(sentences):
        if _gives_order(_tokenise(sentence)[0]):
            return " ".join(sentences[index:])
    return flat


def _without_reason(fragment: str) -> str:
    return _REASON.sub("", fragment).strip(" ,.;:!")


def _unlisted(text: str) -> str:
    """The text without a list item's mark ("- ", "2) ", "1. "); a count that opens it ("2+ servers owned", "3 user
    boxes ...") is no mark."""
    if re.match(r"\d+\s*(?:\+|or\s+more\b|[a-z])", text.lower()) or re.match(r"\d+\s+(?!\d)\w", text):
        return text
    return text.lstrip("-*0123456789.) ").strip()


# (r58l) A reason given first and closed by a colon ("Because the ops side scores: Restore Op_Server0 once rooted"): the
# order is what follows the colon (cut from "because" to the end, nothing was left and the note was dropped)
# (a "since" of time, "since step 4: ...", "since the last episode: ...", is a condition, and stays)
# (r58d) Not a reason that tells of a state ("Because User1 is rooted: Restore User1", "Given that User3 is at root: ..."):
# that state is the case the order rests on, and cut away, the order was compiled to hold whatever the host's state.
_REASON_TELLS_STATE = r"(?![^:.;!?]*\b(?:own|pwn|hack|breach|infect|compromis|exploit|scan|prob|root|privileg|user[\s-]+level|foothold|" \
                      r"clean|restor|remov|decoy|malicious|suspicious|alert|flag|unknown)\w*)"
_REASON_BEFORE_COLON = re.compile(r"^(?:because|since(?!\s+(?:step|turn|episode|round|then|before|last|\d|the\s+(?:last|first|start|previous|prior)))|"
                                  r"given\s+that)\b" + _REASON_TELLS_STATE + r"[^:.;!?]{1,200}:\s*(?=\S)", re.IGNORECASE)


def instruction(text: str) -> str:
    """The text without its justification ("because ...", "; it is the attacker's foothold")."""
    flat = _unlisted(" ".join(text.split()).strip())
    parts = [p for p in _FRAGMENT_SPLIT.split(flat) if p]
    kept = [parts[0]] + [p for p in parts[1:] if not _REASON_LEAD.match(p.lower()) and _VERB.search(p.lower())]
    cleaned = [_REASON.sub("", p).strip(" ,.;:!") for p in kept]
    return "; ".join(c for c in cleaned if c).strip()


@dataclass
class _Condition:
    subject: Optional[str]
    signal: tuple[Optional[str], Optional[str]]
    also: tuple[str, ...] = ()
    quiet: bool = False
    negated: bool = False
    extra: tuple[Trigger, ...] = ()
    phase: Optional[str] = None
    unread: str = ""
    history: tuple[tuple[str, object], ...] = ()
    unread_beyond_history: str = ""
    either: tuple[str, ...] = ()  # "User1 or User2 exploited": further hosts, any of which will do


@dataclass
class _Part:
    clause: _Clause
    subject: Optional[str]
    signal: tuple[Optional[str], Optional[str]]
    also: tuple[str, ...] = ()
    quiet: bool = False
    negated: bool = False
    unread: str = ""
    extra: tuple[Trigger, ...] = ()
    phase: Optional[str] = None
    stated: bool = False  # the fragment states a condition of its own
    history: tuple[tuple[str, object], ...] = ()
    unread_beyond_history: str = ""
    either: tuple[str, ...] = ()


def _unread(plain: str, history: bool = False) -> str:
    """The condition's words none of the reader's patterns placed (hosts are already tokens). A condition
    read mid-sentence can run on into the action ("once it is compromised, just restore it"): it ends at
    its first comma or action word, unless it speaks of history, where an action word is part of the
    condition ("still compromised after Remove") and so are "still" and "yet"."""
    rest = re.split(r",", plain, maxsplit=1)[0]
    # (not "the analyses" / "the analysis": what reports the condition, no order)
    verb = None if history else next((v for v in _VERB.finditer(rest) if not re.match(r"analys(?:[ie]s|ts?)\b", v.group(0))), None) \
        or _NEGATION.search(rest)
    rest = rest[:verb.start()] if verb and verb.start() > 0 else rest
    rest = re.sub(r"\b(?:and\s+|but\s+)?nothing\s+(?:more|else)\b", " ", rest) if _ONLY_ACTIVITY.search(rest) else rest
    for pattern in (_NEWLY, _PRIVILEGED, _USER_LEVEL, _UNKNOWN, _COMPROMISE, _EXPLOIT, _SCAN, _ACTIVITY, _QUIET, _TOGETHER,
                    _NOT_IN_CONDITION, _ELLIPSIS, *(p for name, p in _PHASE_WORDS if name in _PHASE_MEANING), _REF):
        rest = pattern.sub(" ", rest)
    filler = _CONDITION_FILLER - {"still", "yet"} if history else _CONDITION_FILLER
    words = [w for w in re.findall(r"[a-z][a-z-]+", rest.replace("'s", " ")) if w not in filler]
    if history:  # never expressible, so never too short to report
        return " ".join(words)
    # (a span of steps the patterns did not place, "owned for 3+ steps", "> 2 turns": a time of the condition, reported
    # however short; left out, the rule held at every step the state shows, wider than its words)
    span = re.search(r"(?:[<>]=?\s*|\b(?:for|over|past|last)\s+)?\b(?:\d+\s*\+?|(?:a\s+)?few|several|many|more)\s+"
                     r"(?:more\s+)?(?:steps?|turns?|rounds?)\b|\b(?:lately|recently|earlier|previously|formerly|ago)\b|\bbefore\s*$", rest)
    if span:
        return " ".join(span.group(0).split())
    # (a rating of the alert, "high-prio alert", "critical alert": no column of the table, reported however short)
    rated = re.search(r"[a-z-]*(?:prio|severit|critical|urgent)[a-z-]*(?:\s+(?:alerts?|alarms?|warnings?)\b)?", plain)
    if rated and len(words) < 2:
        return rated.group(0)  # (with the alert it rates: "high-prio alert")
    return " ".join(words) if len(words) >= 2 else ""


# A negation right before one signal word: "not yet compromised", "nothing on it is compromised", "no exploit".
_NEGATED_COMPROMISE = re.compile(r"(?:\b(?:not|no|nothing|never|without|none)|n't)(?!\s+sure)\s+" + _DENIAL_WORD + r"{0,4}?(?:compromis|breach|infect|"
                                 r"root|privileged|owned|hacked)|\bun(?:infected|breached)\b")
_NEGATED_ACTIVITY = re.compile(r"(?:\b(?:not|no|nothing|never|without|none)|n't)\s+" + _DENIAL_WORD + r"{0,3}?(?:exploit|scan|probe|activ|"
                               r"alert)|\bun(?:exploited|scanned)\b")
_ONLY_ACTIVITY = re.compile(r"\bonly\s+(?!when|if|once|after|while|as)(?:[a-z]+\s+){0,3}?(?:scan|prob|recon|exploit)|"
                            r"\b(?:scan|prob|exploit)\w*\s+only\b|"
                            # ("scanned and nothing more", "a probe, nothing else": that activity alone)
                            r"\b(?:scan|prob|exploit)\w*\s*,?\s+(?:and\s+|but\s+)?nothing\s+(?:more|else)\b")


def _polar_signal(plain: str) -> tuple[tuple[Optional[str], Optional[str]], bool]:
    """(signal, whether the whole of it is negated). A condition with one signal negated and another not says
    the negated one is absent: "scanned but not yet compromised" is Scan and Compromised No; "only shows a scan"
    is Scan and no compromise; a condition whose every signal is negated is a negation ("not compromised")."""
    activity, compromise = _signal(plain)
    if compromise == "User" and _USER_LEVEL.search(plain) and _ROOT_DENIED.search(plain):
        plain = _ROOT_DENIED.sub(" ", plain)  # (a user-level host with root denied: no denial of the level)
    if _TABLE_ACTIVITY.search(plain) or _TABLE_COMPROMISE.search(plain):
        return (activity, compromise), False  # the table's own words, as written ("Compromised User but not ...")
    if "No" == compromise or "None" == activity:
        return (activity, compromise), False  # "clean", "no compromise": the quiet value already says the negation
    compromise_negated = compromise is not None and bool(_NEGATED_COMPROMISE.search(plain))
    if activity == "Scan" and _scan_with_exploit_denied(plain):
        # (the denial is the exploit's, which the scan leaves out: the scan stands, not denied)
        return (activity, "No" if compromise is not None and _NEGATED_COMPROMISE.search(plain) else compromise), False
    activity_negated = activity is not None and bool(_NEGATED_ACTIVITY.search(plain))
    if compromise is None and activity is not None and _ONLY_ACTIVITY.search(plain):
        return (activity, "No"), False
    if compromise_negated and activity is not None and not activity_negated:
        return (activity, "No"), False
    if activity_negated and compromise is not None and not compromise_negated:
        return ("None", compromise), False
    return (activity, compromise), (compromise_negated or activity_negated) or (
        any((activity, compromise)) and bool(_NOT_IN_CONDITION.search(plain)))


def _one_condition(text: str, refs: _Refs, inherit: Optional[tuple] = None) -> _Condition:
    """One subject's condition: its subject, signal and whether it is negated."""
    named = _subjects_in(text, refs)
    plain = _REF.sub(" ", text)
    activity, level = _signal(plain)
    if named and named[0] in HOSTS and activity is not None and level in ("User", "Privileged") and inherit is None \
            and not (level == "User" and _ROOT_DENIED.search(plain)) \
            and _NEGATED_COMPROMISE.search(plain) and not _NEGATED_ACTIVITY.search(plain) \
            and not (_TABLE_ACTIVITY.search(plain) or _TABLE_COMPROMISE.search(plain)):
        # "User4: exploit w/o root", "exploited but not at root": the activity, and that host not at that level (not
        # "no compromise": the other levels are still its own)
        return _Condition(named[0], (activity, None), extra=(Trigger(named[0], None, level, negated=True),))
    signal, negated = _polar_signal(plain)
    if not any(signal) and inherit is not None and _ELLIPSIS.search(plain):
        signal, negated = inherit, bool(_ELLIPSIS_NOT.search(plain))  # "... and Enterprise1 is not"
    negated = bool(_NONE_OF.match(text)) or any(signal) and negated
    if named and named[0] in HOSTS and signal[0] == "Scan" and not negated and _scan_with_exploit_denied(plain):
        # ("E1 scan (no exploit yet)": the scan, and the exploit denied as the words deny it)
        return _Condition(named[0], signal, extra=(Trigger(named[0], "Exploit", None, negated=True),))
    every = any(int(n) in refs.every for n in re.findall(r"zzc(\d+)", text))  # ("every ent srv clean")
    if named and named[0] in HOST_CLASSES and signal in (("None", "No"), (None, "No")) \
            and (every or re.search(r"\b(?:all|every|whole|entire)\b(?!\s+(?:but|except|save|bar)\b)", plain)):
        # "the user subnet all quiet" ("... all clean"): no host of it shows an activity, and none a compromise
        return _Condition(named[0], ("any", None), negated=True, extra=(Trigger(named[0], None, "any", negated=True),))
    return _Condition(named[0] if named else None, signal, negated=negated)


# "..., before the attacker reaches zzh2": what the move is ahead of (its purpose), no state of a host the condition asks
_AHEAD_OF = re.compile(r"\s*,?\s*\bbefore\s+(?:the\s+attackers?|they|red|the\s+red\s+agent|anyone)\s+(?:can\s+|could\s+)?"
                       r"(?:reach\w*|gets?\s+to|hits?|lands?\s+on|moves?\s+(?:on\s+)?to|spreads?\s+to|jumps?\s+to|pivots?\s+to)\b.*$")


# A state said of another time or of other hosts than the condition's subject: "was at root earlier" (the state now is
# what follows: "..., now only Unknown"), "(the rest clean)", "the others quiet". It is no state of the subject now.
_EARLIER_STATE = re.compile(r"\b(?:was|were|had\s+been|used\s+to\s+be)\s+(?:[^,;()]*?\s)?(?:earlier|previously|at\s+first|"
                            r"originally|at\s+one\s+point|before)(?=\s*(?:[,;)]|$|and\b|but\b|now\b))")
_OTHERS_STATE = re.compile(r"\(?\s*\b(?:the\s+)?(?:rest(?:\s+of\s+(?:them|it))?|others|other\s+ones|(?:all|every|each)\s+other\s+"
                           r"(?:ones?|zzc\d+))\s+(?:(?:are|is|stay|stays|all|still|remain|remains)\s+)*(?:clean|quiet|calm|fine|"
                           r"untouched|unaffected|uncompromised|ok|no)\b\s*\)?")


def _aside_states(cond: str) -> tuple[str, str]:
    """(the condition without the states it says of another time or other hosts, those states' words); the condition
    as it is if what is left states nothing of its own."""
    # (a past state that is history the reader places, "was clean the step before", stays: it is the condition's)
    asides = [m.group(0) for p in (_EARLIER_STATE, _OTHERS_STATE) for m in p.finditer(cond)
              if not _history_facts(m.group(0))[0]]
    if not asides:
        return cond, ""
    kept = cond
    for aside in asides:
        kept = kept.replace(aside, " ")
    if not _situation_words(kept):
        return cond, ""
    return " ".join(kept.split()), " ".join(" ".join(a.strip(" ()") for a in asides).split())


def _read_condition(cond: str, refs: _Refs, unless: bool = False) -> _Condition:
    """What a condition clause asks of the situation (see the module docstring), with what it says of history."""
    cond = _AHEAD_OF.sub("", cond) or cond
    cond, aside = _aside_states(cond)
    read = _read_situation(cond, refs, unless)
    if aside:  # (told in the rest, in its words: the rule is then guarded by them)
        aside = _said(aside, refs)
        read.unread = f"{read.unread} {aside}".strip() if read.unread else aside
    history, beyond = _history_facts(cond)
    if history and not read.quiet:
        read.unread = " ".join(w for w in (_history_words(cond), aside) if w)
        read.history = history
        read.unread_beyond_history = " ".join(w for w in (_unread(_REF.sub(" ", beyond)), aside) if w)
        if ("newly_compromised", True) in history:
            read.signal = (None, "any")  # compromised now, not at the step before: whatever it shows now
    return read


# A count of a class's hosts: "only 1 zzc0", "exactly one zzc0", "a single zzc0", "2+ zzc0", "three or more zzc0".
_HOST_COUNT = re.compile(r"\b(?:(?:only|exactly|just|precisely|at\s+least|at\s+most|more\s+than|fewer\s+than|no\s+more\s+than)\s+"
                         r"(?:\d+|one|two|three|four|five|a\s+single)|a\s+single|single|[2-9]\s*\+?|two|three|four|five)"
                         r"(?:\s+or\s+more)?\s+zzc\d+(?:\s+(?:is\s+|are\s+)?[a-z-]+(?:\s+at\s+once)?)?")
# One subject and no other: "only zzh0 owned", "just zzh0 hit", "zzh0 alone is scanned", "zzh0 by itself", "zzh0 (is) the only one
# owned" (not "only when", "only if": no host follows; not a count of a class, `_HOST_COUNT`).
_ONLY_SUBJECT = re.compile(r"\b(?:only|just|solely)\s+(?:the\s+)?zz[hc]\d+(?:\s+(?:is\s+|are\s+)?[a-z-]+)?|"
                           r"zz[hc]\d+\s+(?:(?:is|are|was|being|gets?|got)\s+)?(?:[a-z-]+\s+){0,2}?(?:alone|by\s+itself|on\s+its\s+own)\b|"
                           r"zz[hc]\d+\s+(?:is\s+)?the\s+only\s+(?:one|host|box|machine|server|zzc\d+)(?:\s+[a-z-]+)?")
_STATE_SAID = re.compile(r"\b(?:owned|pwned|hacked|breached|infected|compromised|exploited|scann?ed|probed|rooted|hit|"
                         r"at\s+(?:user|root|privileged)(?:[\s-]level)?)\b")
# "the plan line says Remove U4", "the Planner's plan lists a Restore of it": a move the plan names, no order.
_PLAN_SAYS = re.compile(r"\b(?:the\s+)?(?:planner'?s\s+)?plan(?:ner)?(?:'s)?(?:\s+line)?\s+(?:already\s+)?(?:says?|reads?|lists?|has|"
                        r"contains?|includes?|names?|mentions?|proposes?|suggests?|wants?|calls?\s+for)\s+(?:a\s+|an\s+|to\s+)?"
                        r"(?:" + _VERB.pattern + r")(?:\s+(?:on\s+|of\s+)?(?:zzh\d+|zzp))?")
# Hosts listed with "or" ("zzh0, zzh1 or zzh2", "zzh0 or zzh1"): any of them.
_EITHER_LIST = re.compile(r"zzh\d+(?:\s*(?:,\s*or\b|,|\bor\b)\s*zzh\d+)*\s*(?:,\s*)?\bor\s+zzh\d+")


def _read_situation(cond: str, refs: _Refs, unless: bool = False) -> _Condition:
    """What a condition clause asks of the table."""
    named = _subjects_in(cond, refs)
    plain = _REF.sub(" ", cond)
    unread = _unread(plain, history=bool(_HISTORY.search(cond)))
    if unread and EVIDENCE.search(plain) and not _HISTORY.search(cond):
        # what an analysis reports of the host is told in the condition's own words, as written ("a reverse shell in this
        # step's analyses"): its words one by one ("reverse shell rport step") said nothing a reader could place
        # (of the host it names first, which stays: "E0 rated risk high" said as "rated risk high" was of no host at all)
        unread = _said(re.sub(r"^\s*(?:(?P<host>zzh\d+)\s*|zz[cp]\d*\s*)?(?:,\s*)?(?:and\s+|when\s+|if\s+|while\s+)*"
                              r"(?P<verb>with|has|have|having|shows?|showing|whose)?\s*",
                              lambda m: f"{m['host']} {m['verb'] or ''} " if m["host"] else "", cond), refs)
    counted = _HOST_COUNT.search(cond)
    if counted is not None and _said(counted.group(0), refs) not in unread:
        # ("only 1 usr box owned", "2+ ent srvs owned", "three or more user hosts": how many hosts, which no atom states)
        unread = f"{unread} {_said(counted.group(0), refs)}".strip()
    alone = _ONLY_SUBJECT.search(cond)
    if alone is not None:
        # ("only U2 owned", "E1 alone scanned", "U3 the only one hit": that host and no other in the state, which no atom of
        # the host states; read as the host's state alone, the rule held where other hosts showed it too. The rest says
        # the part the atom leaves out, the other hosts, in the state the condition names)
        state = _STATE_SAID.search(cond)
        others = "no host of another class" if alone.group(0).lstrip().startswith(("only zzc", "just zzc", "solely zzc")) \
            or re.match(r"zzc", alone.group(0)) else "no other host"
        unread = f"{unread} {others} {state.group(0) if state else 'in that state'}".strip()
    quoted = _PLAN_SAYS.search(cond)
    if quoted is not None:
        # what the Planner's plan says is told in the condition's own words, its move and host with it ("plan line says
        # Remove U4": cut at its move word, the rest was "plan line says", which any plan met)
        unread = _said(quoted.group(0), refs)
    if not named and _NOTHING.search(plain) and not _QUIET.search(plain) and not unless:
        # "while nothing is compromised", "as long as no host is exploited": no host shows it
        activity, compromise = _signal(re.sub(r"\b(?:nothing|no host|no machine|none of the hosts)\b", " ", plain))
        if activity not in (None, "None") or compromise not in (None, "No"):
            return _Condition("any", (activity, None if activity and compromise == "No" else compromise or None), negated=True)
    if not named and _QUIET.search(plain) and not unless:  # "no alert fires": quiet, whatever signal words it uses
        return _Condition(None, (None, None), quiet=True)
    pieces = _JOIN.split(cond)
    if len(pieces) > 1:  # "an Enterprise host is compromised while a User host already is": one condition each
        first = _one_condition(pieces[0], refs)
        # "... while a User host already is": already compromised, whatever the first said was new about it
        inherit = (None, "any") if _NEWLY.search(pieces[0]) else first.signal
        others = [_one_condition(p, refs, inherit=inherit) for p in pieces[1:]]
        if first.subject and any(first.signal) and all(o.subject and any(o.signal) for o in others):
            first.extra = (*first.extra, *(t for o in others for t in (Trigger(o.subject, *o.signal, negated=o.negated), *o.extra)))
            first.negated ^= unless
            first.unread = unread
            return first
    subject = named[0] if named else None
    signal = _signal(plain)
    phase = None
    if subject is None:
        phase = next((name for name, words in _PHASE_WORDS if words.search(plain)), None)
        if phase in _PHASE_MEANING:
            subject, signal = _PHASE_MEANING[phase][0], signal if any(signal) else _PHASE_MEANING[phase][1]
        elif phase is not None:
            subject = "any"  # a phase of history ("lateral movement"): only its name says it
    hosts = list(dict.fromkeys(n for n in named if n in HOSTS))  # (one host named twice is one host)
    if len(hosts) > 1 and hosts[0] == subject and (_TOGETHER.search(plain) or re.search(r"\band\b", plain)):
        return _Condition(subject, signal, also=tuple(dict.fromkeys(hosts[1:])), negated=unless, unread=unread)
    either = _EITHER_LIST.search(cond)
    listed = [refs.values[int(n)] for n in re.findall(r"zzh(\d+)", either.group(0))] if either else []
    if len(listed) > 1 and listed[0] == subject and any(signal) and not unless:
        # "User1, User2 or User3 exploited": any one of them in that state (the hosts of the list only: "E0 or E2
        # (anything other than E1)" leaves E1 out)
        return _Condition(subject, signal, either=tuple(dict.fromkeys(listed[1:])), unread=unread)
    one = _one_condition(cond, refs)
    if one.extra and one.subject == subject and not unless and phase is None:
        # ("exploited but not at root"; "the user subnet all quiet" is a denial, and stays one)
        return _Condition(subject, one.signal, negated=one.negated, extra=one.extra, unread=unread)
    polar, whole = _polar_signal(plain)
    if not whole and polar != signal and phase is None:
        signal = polar  # "scanned but not yet compromised": Scan and Compromised No
    negated = (one.negated if subject == one.subject else bool(any(signal) and whole)) ^ unless
    return _Condition(subject, signal, negated=negated, phase=phase, unread=unread)


# A move the writer tells they made ("I restored zzh0 at step 9", "we chose a Restore", "I went with a Remove there"): a
# report of what happened, no order (read as one, the rule ordered the move the note tells of, often the one it regrets).
# A modal before the move ("I should have removed it", "we'd have restored it") is no report.
_PAST_MOVE = r"(?:restored|removed|analy[sz]ed|decoyed|re-?imaged|rebuilt|wiped|evicted|killed|inspected|examined|investigated)\b"
_NARRATED = re.compile(r"^\s*(?:(?:so|and|but|then|earlier|yesterday|at\s+step\s+\d+|in\s+seed\s+\d+)\s*,?\s+)*"
                       r"(?:i|we)\s+(?:(?!should|would|could|must|might|may|ought|need|have\s+to|had\s+to|will|shall|can|"
                       r"always|never|usually|normally|typically|generally|don't|do\b|did\s+not|didn't|never)[a-z0-9_']+\s+){0,12}?"
                       r"(?:" + _PAST_MOVE + r"|(?:chose|picked|recommended|ordered|planned|went\s+(?:with|for)|tried|spent|wasted|"
                       r"queued|scheduled|issued|deployed|dropped|laid|placed)\s+(?:[a-z]+\s+){0,3}?"
                       r"(?:restor|remov|analy[sz]|decoy|honey)\w*)")


# "nothing owned anywhere", "no box anywhere is compromised", "no machine on the whole network exploited": every host denied
_DENIED_EVERYWHERE = re.compile(r"\b(?:nothing|no\s+(?:other\s+)?(?:hosts?|box(?:es)?|machines?|servers?|nodes?)|none|no\s+one)\b"
                                r"[^,;.]{0,40}?\b(?:anywhere|everywhere|on\s+the\s+(?:whole\s+|entire\s+)?network|"
                                r"across\s+the\s+(?:whole\s+|entire\s+)?network|network-?wide|at\s+all)\b|"
                                r"\b(?:anywhere|everywhere)\s+(?:else\s+)?(?:is\s+|are\s+)?(?:clean|quiet|uncompromised)\b")


# "for the next two steps", "within the next 3 turns": the steps after a move an order holds for
_NEXT_STEPS = re.compile(r"\b(?:for|within|over|during|in)\s+the\s+(?:next|following)\s+(?P<count>" + _COUNT[1:-1] + r")\s+(?:steps|turns)\b")


def _read_fragment(fragment: str, refs: _Refs) -> Optional[_Part]:
    fragment = _CONCESSION.sub("", fragment)
    split = _split_at_colon(fragment)
    cond, main, unless = split if split is not None else _split_condition(fragment)
    if _NARRATED.match(main):
        return None  # (what the writer did, told in the past, is no order: "we restored it when it was only scanned")
    clause = _main_clause(main, refs)
    if clause.verb is None:
        return None
    if cond is None:
        subject = clause.target if clause.target not in (None, "zzp", *RELATIVE) else None
        # "reimage compromised user boxes", "X showing Y should be restored", "a host that shows no compromise"
        signal, negated = _polar_signal(_REF.sub(" ", clause.rest))
        # "a host you already analysed in the last two steps": the object's own condition
        history, beyond = _history_facts(clause.own)
        if ("newly_compromised", True) in history:
            signal = (None, "any")
        unread = _history_words(clause.own) if history else \
            _unread(_REF.sub(" ", clause.own), history=True) if _HISTORY.search(clause.own) else ""
        return _Part(clause, subject, signal, negated=negated and any(signal), unread=unread, history=history,
                     unread_beyond_history=_unread(_REF.sub(" ", beyond)) if history else "")
    c = _read_condition(cond, refs, unless)
    everywhere = _DENIED_EVERYWHERE.search(cond)
    if everywhere is not None and c.subject not in (None, "any") and everywhere.group(0) not in c.unread:
        # ("E1 probed and nothing owned anywhere"): a denial of every host, which this reader gave the named host alone
        c.unread = f"{c.unread} {_REF.sub('it', everywhere.group(0))}".strip()
    span = _NEXT_STEPS.search(main)
    if span is not None and re.match(r"(?:right\s+|just\s+)?(?:after|upon)\b", cond) and ("within", _RECENT) in c.history \
            and not re.search(r"\b(?:in|within|over|for)\s+(?:the\s+)?(?:last|past|previous|prior|next)\b|\bsteps?\b|\bturns?\b", cond):
        # ("after you remove X, do not restore it for the next 2 steps": the steps the order holds for after the move are the
        # count; read with none, it held for the last few steps, more than the words give)
        count = span["count"]
        c.history = tuple(("within", _NUMBER.get(count, int(count) if count.isdigit() else _RECENT)) if fact == ("within", _RECENT)
                          else fact for fact in c.history)
    if c.subject is None and not c.quiet and c.phase is None and any(c.signal) and clause.target in HOSTS and not c.unread \
            and not re.search(r"zz[hcp]|\b(?:anywhere|everywhere|anyone|one)\b|" + _OWN_SUBJECT.pattern,
                              re.sub(r"\([^)]*\)?", " ", cond)):  # (an aside in brackets names no subject of the condition)
        c.subject = clause.target  # ("Remove User2 when exploited": the state is the named host's, not any host's)
    own_signal = _signal(_REF.sub(" ", clause.own))
    own_negated = False
    if clause.target in HOSTS:
        # (a host's own state after its move is said behind a marker, "restore zzh1 as soon as zzp gets owned";
        # "put a decoy on zzh0 before the attacker reaches it" says none)
        marked = re.search(r"\b(?:when|whenever|once|if|as soon as|the moment|while|as long as)\b(?P<said>.*)", clause.own)
        own_signal = _signal(_REF.sub(" ", marked["said"])) if marked else (None, None)
    if clause.target in (*HOST_CLASSES, *HOSTS) and clause.target != c.subject and not any(own_signal):
        # ("Unless X, a hacked Enterprise1 should be removed": the state said of the order's object before its move)
        # (only the words before the move: "put a decoy on it before the attacker reaches it" says no state of it)
        move = _VERB.search(main)
        before = main[:move.start()] if move is not None else ""
        if re.search(r"zz[hc]\d", before):
            own_signal, own_negated = _polar_signal(_REF.sub(" ", before))
    if clause.target in (*CLASSES, *HOSTS) and clause.target != c.subject and any(own_signal) and (c.subject or c.quiet):
        # "While no Enterprise host is compromised, remove the attacker from a compromised User host": the
        # object names the rule's subject; the stated condition is a further one.
        # (also a named host in a state of its own, "with E2 clean, restore U3 once it is owned": read with the stated
        # condition alone, the rule held whatever the host's state)
        stated = Trigger("any", quiet=True) if c.quiet else Trigger(c.subject, *c.signal, also=c.also, negated=c.negated)
        return _Part(clause, clause.target, own_signal, negated=own_negated, extra=(stated, *c.extra), unread=c.unread,
                     stated=True, history=c.history, unread_beyond_history=c.unread_beyond_history)
    if c.subject is None and not c.quiet and not any(c.signal) and clause.target in CLASSES and any(own_signal):
        # "When the reward drops, restore the most valuable compromised host": the object carries the signal.
        return _Part(clause, clause.target, own_signal, unread=c.unread or _unread(_REF.sub(" ", cond), history=True),
                     stated=True)
    return _Part(clause, c.subject, c.signal, also=c.also, quiet=c.quiet, negated=c.negated, unread=c.unread,
                 extra=c.extra, phase=c.phase, stated=True, history=c.history, unread_beyond_history=c.unread_beyond_history,
                 either=c.either)


def _loose_condition(fragments: Sequence[str], refs: _Refs, before: Sequence[str] = ()) -> Optional[_Condition]:
    """A condition stated in a fragment that gives no order ("Remove Enterprise2 - catch it the moment it
    is exploited"), a pre-emptive order's quiet ("... bait before they arrive"), or the situation a note opens
    with, before its order (`before`: "Op_Server0 compromised. That is the impact phase. Restore it.";
    "Reconnaissance under way: the attacker is mapping the network. Deploy a decoy.")."""
    for fragment in fragments:
        found = re.search(rf"\b(?:{_LEAD_MARKERS})\b\s+(?P<cond>.+)$", fragment)
        if found and not _PREEMPT.search(fragment):
            c = _read_condition(found["cond"], refs)
            if any(c.signal) or c.quiet:
                return c
        if _PREEMPT.search(fragment):
            return _Condition(None, (None, None), quiet=True)
    for fragment in before:
        head = fragment.partition(": ")[0]
        if _situation_words(head) and not _TOLD.search(head):
            c = _read_condition(head, refs)
            if any(c.signal) or c.quiet or c.phase:
                return c
    return None


# A report of what happened, not the situation now: "I wasted a turn", "it was compromised", "we lost".
_TOLD = re.compile(r"\b(?:i|we|my|our|was|were|had|did|got|went|cost|lost|wasted|spent)\b")


def _about_the_network(tokens: str) -> bool:
    """Whether a text speaks of hosts or their state ("respond to a scan on User1 with a decoy"): then it says what
    to do, whatever words of replying it uses, and is no rule about the reply's form. An example ("e.g. `Restore
    User1`") speaks of nothing."""
    plain = re.sub(r"`[^`]*`|\"[^\"]*\"|'[^']*'|\b(?:e\.g\.|for example|for instance|such as|like)\b[^.;]*", " ", tokens)
    return bool(re.search(r"\bzz[hcr]\d", plain)) and any(_signal(_REF.sub(" ", plain))) or bool(
        re.search(r"\b(?:when|if|whenever|once|while)\b[^.;]*\bzz[hc]\d", plain))


def _situation_words(text: str) -> bool:
    """Whether a piece states a situation: a signal word or an attack phase."""
    plain = _REF.sub(" ", text)
    return any(_signal(plain)) or bool(_QUIET.search(plain)) or any(w.search(plain) for _, w in _PHASE_WORDS)


def _resolve(subject: Optional[str], target: Optional[str], verb: Optional[str], negated: bool) -> tuple[Optional[str], Optional[str]]:
    """(trigger subject, act target) with pronouns resolved: "it" is whichever the other side names, and
    with nothing named, whichever host the rule matches."""
    if subject == "zzp":
        subject = target if target not in (None, "zzp", *RELATIVE) else None
    if target == "zzp" or target is None and verb not in (None, *GLOBAL_VERBS):
        target = subject if subject is not None else MATCHED
    if verb in GLOBAL_VERBS:
        target = None
    # "restore that user host" (the class the rule is about): the matched host; "deploy decoys on the Enterprise
    # hosts" when the rule is about something else (a quiet network, another class): that class itself.
    if target in CLASSES and (target == "any" or target == subject and not negated):
        target = MATCHED
    return subject, target


def _plan(clause: _Clause, first_target: Optional[str]) -> tuple[Act, ...]:
    """A plan's later moves; "it" and an unnamed object are the first move's target, a class stays a class."""
    moves = []
    for verb, target in clause.then:
        if verb in GLOBAL_VERBS:
            target = None
        elif target in (None, "zzp"):
            target = first_target
        moves.append(Act(verb, target))
    return tuple(moves)


@lru_cache(maxsize=4096)  # the same memory is re-read at every call of an episode
def read_rule(text: str) -> Reading:
    """What a rule or correction asks for, as far as the surrogate can make it out."""
    text = _REASON_BEFORE_COLON.sub("", (text or "").lstrip())
    # (a list of cases under a heading, one a line, "ent srvs:\n- scan only -> ...\n- root -> ...": each line a sentence,
    # each a case the rule speaks in; a list whose lines are no situations this reader places, "- 2 -> ...", "- 3 or
    # more -> ...", is read as before: its first line alone was the rule, wider than its words)
    if _BULLETED.search(text or ""):
        listed = _read_note(re.sub(r"\n\s*[-*\u2022]\s+(?=\S)", "; ", re.sub(r":\s*\n\s*[-*\u2022]\s+(?=\S)", ": ", text)))
        if listed.cases:
            return listed
    reading = _read_note(text)
    other = _OTHER_NOTE.search((text or "").lower())
    if other is not None and reading.kind not in ("vague", "format") and other.group(0) not in reading.unread:
        # ("same as Bo's decoy note but for E0", "my take on the op-server note: ..."): part of the rule is in the note it
        # points to, which this reader was not sent: told in the rest, never read as the words it adds alone
        told = f"{reading.unread} {other.group(0)}".strip()
        return replace(reading, unread=told, unread_beyond_history=f"{reading.unread_beyond_history} {other.group(0)}".strip())
    return reading


# A rule that takes part of itself from another note: "same as <someone>'s note", "<someone>'s rule, but ...", "my take on
# the decoy note", "as in the earlier rule".
_OTHER_NOTE = re.compile(r"\b(?:same\s+as|as\s+in|like|per|my\s+take\s+on|following\s+up\s+on|on\s+top\s+of|"
                         r"(?:mirror|copy|extend)\w*)\s+(?:the\s+|a\s+|an\s+|my\s+|our\s+|your\s+)?(?:\w+'s?\s+)?"
                         r"(?:[\w-]+\s+){0,3}?(?:note|rule|advice|suggestion|tip|correction|lesson)s?\b")


def _read_note(text: str) -> Reading:
    flat = _unlisted(" ".join((text or "").split()).strip())
    if not flat:
        return VAGUE
    lowered = flat.lower()
    tokens, refs = _tokenise(flat)
    if _FORMAT.search(lowered) and not _about_the_network(tokens):
        return Reading("format", text=instruction(flat))
    reading = _read_tokens(_leading_preference(tokens), refs, flat)
    return _with_excepted_case(_with_exceptions(_other_cases(reading, tokens, refs), tokens, refs), tokens, refs)


# A case the note takes out of its rule in a sentence or an aside of its own, after the order: "... -> Remove E2.
# Exception: OpS0 owned.", "(not if OpS0 is hit)", "n/a when U0 owned", "Skip it if ...", "This does not apply while ...".
_EXCEPTED_CASE = re.compile(r"(?:^|[.;!?]\s+|\(\s*)(?P<case>(?:exception\s*[:=-]\s*(?:(?:when|if|while)\s+)?(?=zz[hc]\d)|"
                            r"except(?:ion)?\s+(?:when|if|while)\b|(?:but\s+)?not\s+(?:if|when|while)\b|n/?a\s+(?:if|when|while)\b|"
                            r"(?:this|that|it|the\s+rule|the\s+note)\s+(?:does\s+not|doesn't|does\s*n't|won't|will\s+not)\s+apply\s+"
                            r"(?:if|when|while)\b|skip\s+(?:it|this|that)\s+(?:if|when|while)\b)[^.;!?)]*)")


_CASE_CONDITION = re.compile(r"(?:exception\s*[:=-]\s*(?:(?:when|if|while)\s+)?|except(?:ion)?\s+(?:when|if|while)\s+|(?:but\s+)?not\s+(?:if|when|while)\s+|"
                             r"n/?a\s+(?:if|when|while)\s+|(?:this|that|it|the\s+rule|the\s+note)\s+(?:does\s+not|doesn't|does\s*n't|won't|"
                             r"will\s+not)\s+apply\s+(?:if|when|while)\s+|skip\s+(?:it|this|that)\s+(?:if|when|while)\s+)"
                             r"(?P<cond>(?:zz[hcp]\d*|a\s+zzc\d+|any\s+zzc\d+)\b[^.;!?)]*?)\s*(?:,\s*though)?\s*$")


def _with_excepted_case(reading: Reading, tokens: str, refs: _Refs) -> Reading:
    """A reading with a case its note takes out of it, in a sentence or aside after the order (placed nowhere, the case
    was dropped and the rule held there too, wider than its words): the case's host in its state, denied, where this
    reader reads that case whole; else no predicate at all (the note is read as free text)."""
    found = _EXCEPTED_CASE.search(tokens)
    if found is None or reading.kind not in ("do", "never", "prefer") or reading.trigger is None:
        return reading
    case = _CASE_CONDITION.match(found["case"])
    said = _read_condition(case["cond"], refs) if case else None
    if said is not None and said.subject in HOSTS and any(said.signal) and not said.negated and not said.unread \
            and not said.history and not said.also and not said.extra and not said.quiet:
        denied = Trigger(said.subject, *said.signal, negated=True)
        return replace(reading, trigger=replace(reading.trigger, extra=(*reading.trigger.extra, denied)))
    return replace(reading, kind="vague", trigger=None, act=None, unread="")


def _said(words: str, refs: _Refs, it: str = "it") -> str:
    """Tokenised words said again in the note's names ("zzh0" its host, "zzc1" its class's hosts, "zzp" `it`)."""
    words = re.sub(r"\bzzp\s*'s\b", "zzp is", words)  # ("when it's at root")

    def name(m: re.Match) -> str:
        if m[1] == "p":
            return it
        value = refs.values[int(m[2])]
        return f"{value} host" if m[1] == "c" and (value in HOST_CLASSES or value == "any") else value
    return " ".join(_REF.sub(name, words).split()).strip(" ,.;:")


# A clause that says what something is ("a decoy there is wasted", "removing that box is not the right call") rather than
# telling what to do; an order starts with its move ("restore it", "then plan a decoy on it", "recommend Remove").
_STATEMENT = re.compile(r"\b(?:is|are|was|were|be|been|being|becomes?|seems?)\b|'s\b|n't\b")
_ORDER_FIRST = re.compile(r"(?:then\s+|and\s+|so\s+|just\s+|always\s+|please\s+|(?:plan|recommend|schedule|queue|pick|choose|use|"
                          r"go\s+(?:for|with))\s+(?:a\s+|an\s+|the\s+)?)*(?!\w+ing\b)(?:" + _VERB.pattern + r")")


# What a statement says a move is not worth there: "too late", "pointless", "wasted", "no more the answer", "not the right
# call". (A move said to be urgent, the right call or what the host needs is still ordered: "restoring it is urgent".)
_WORTHLESS = re.compile(r"\btoo\s+(?:late|early|costly|expensive)\b|\b(?:pointless|useless|futile|wasted|wasteful|moot|overkill|"
                        r"unnecessary|needless)\b|\ba\s+waste\b|\bno\s+(?:more|longer|use|good|point)\b|"
                        r"(?:\bnot|n't)\s+(?:\w+\s+)?(?:the|a|worth|needed|necessary|enough|helpful|useful|right|wise|answer|call)\b|"
                        r"\blittle\s+(?:use|point)\b|\bdoes\s+nothing\b|\bdo(?:es)?\s+no\s+good\b")


def _is_statement(main: str, cond: str = "") -> bool:
    """Whether the clause after a condition says a move is not worth making there ("a decoy on it is pointless") rather
    than orders it."""
    if _NEGATION.match(main) or _NO_ACTION.match(main) or not _STATEMENT.search(main) or not _WORTHLESS.search(main):
        return False
    return not _ORDER_FIRST.match(main) or bool(re.match(r"(?:a|an|the|another|any)\s", main)) \
        or bool(re.search(r"\b(?:a|an|the|any|another)\s*$", cond))


def _other_cases(reading: Reading, tokens: str, refs: _Refs) -> Reading:
    """A note of cases of one subject, each its situation and its order ("zzh0 scan only -> a decoy on zzh0; zzh0 already
    under exploit -> remove zzh0 instead"): the rule speaks in each; the first gives the action, the others are told in
    the unexpressed rest as "other cases: <case> -> <order>" (read as the first case alone, the rule was silent in the
    others its words cover)."""
    trigger = reading.trigger
    if reading.kind not in ("do", "prefer") or trigger is None or trigger.quiet or trigger.history or reading.unread \
            or trigger.subject not in (*HOSTS, *HOST_CLASSES, "any"):
        return reading
    fragments = [f for f in _announced([_CONNECTIVE.sub("", f) for f in _FRAGMENT_SPLIT.split(_EXCEPT.sub(
        lambda m: m["between"] + " ", tokens)) if f]) if _gives_order(f)]
    read = [(_read_fragment(_without_reason(f), refs), _without_reason(f)) for f in fragments]
    ordered = [(part, words) for part, words in read if part is not None]
    if len(ordered) < 2 or not ordered[0][0].stated:
        return reading
    cases, said = [], []
    for part, words in ordered[1:]:
        if not part.stated or part.clause.negated or part.clause.verb in (None, "*") or not any(part.signal) \
                or part.quiet or part.history or part.also or part.either:
            return reading
        subject = trigger.subject if part.subject in (None, "zzp") else part.subject
        if subject != trigger.subject:
            return reading  # (cases of one subject only: "E0 probed -> ...; E1 probed -> ..." is two rules' worth)
        cond, main, _ = _split_condition(words)
        if not cond or not main or _is_statement(main, cond):
            # ("once it is exploited, a Remove there is no more the answer", "once owned, a decoy there is wasted": what a
            # move is worth there, said of it, is no order; that situation is where the rule stops, not another case)
            return reading
        cases.append(Trigger(subject, *part.signal, negated=part.negated, extra=part.extra))
        it = subject if subject in HOSTS else "it"  # ("when it is exploited": the note's one host)
        said.append(f"{_said(cond, refs, it)} -> {_said(main, refs, it)}")
    if all(case.signal() == trigger.signal() and case.negated == trigger.negated for case in cases):
        return reading
    rest = ("other case: " if len(said) == 1 else "other cases: ") + "; ".join(said)
    return replace(reading, cases=tuple(cases), unread=rest, unread_beyond_history=rest)


# "Instead of restoring User1 when it is scanned, put a decoy on it": the order comes last, the dispreferred move first.
_LEADING_PREFERENCE = re.compile(r"^(?:instead of|rather than)\s+(?P<verb>\w+ing)\b(?P<obj>[^,]*?)(?P<cond>\s+(?:when|whenever|if|while|"
                                 r"once|as soon as|the moment)\b[^,]*)?,\s*(?P<main>.+?)\s*\.?$")
# "every user host other than User0", "any Enterprise host except Enterprise0": hosts the class leaves out.
_EXCEPT = re.compile(r"(?<=zzc\d)(?P<between>[^.;:]*?)\s*,?\s*\b(?:except(?: for)?|other than|apart from|but not|excluding|save for)\s+"
                     r"(?P<hosts>zzh\d+(?:\s*(?:,|and|or)\s*zzh\d+)*)\s*,?")


def _leading_preference(tokens: str) -> str:
    found = _LEADING_PREFERENCE.match(tokens)
    if found is None:
        return tokens
    move = f"{found['main']} rather than {found['verb']}{found['obj']}"
    return f"{found['cond'].strip()}, {move}." if found["cond"] else f"{move}."


_OUTSIDE_CLASS = re.compile(r"\bzzc\d+\s+(?:outside|beyond|other\s+than|apart\s+from|not\s+in)\s+(?:of\s+)?(?:the\s+)?zzc(?P<n>\d+)")


def _with_exceptions(reading: Reading, tokens: str, refs: _Refs) -> Reading:
    """A rule about a class with hosts left out ("restore every compromised user host other than User0")."""
    found = _EXCEPT.search(tokens)
    trigger = reading.trigger
    if trigger is not None and trigger.subject == "any" and not trigger.excluded:
        # "a box beyond the op subnet", "any machine other than the enterprise servers": every host of no such class
        outside = _OUTSIDE_CLASS.search(tokens)
        if outside is not None and refs.values[int(outside["n"])] in HOST_CLASSES:
            return replace(reading, trigger=replace(trigger, excluded=tuple(HOST_CLASSES[refs.values[int(outside["n"])]])))
    if found is None or trigger is None or trigger.subject not in (*HOST_CLASSES, "any"):
        return reading
    left_out = tuple(refs.values[int(n)] for n in re.findall(r"zzh(\d+)", found["hosts"]))
    return replace(reading, trigger=replace(trigger, excluded=left_out))


# A note that announces its rule after telling what happened: "The lesson I'd keep: ...", "but the rule is: ...", "Lesson: ...".
# (not "the rule I keep is that ...": read so on branch r46s, it gained next to nothing on the readable splits and put
# the rule after it, with no story around it for the checks to refuse, to the rest of this reader on unread text)
_ANNOUNCED = re.compile(r"(?:^|\b(?:the|my|our|one|a)\s+)(?:rule|lesson|takeaway|moral|upshot)\b[^:;.]{0,40}?:\s+(?=\S)")


_CONNECTIVE = re.compile(r"^(?:so|thus|hence|therefore|consequently|in short|in other words|bottom line)\b\s*[:,]?\s+")


def _announced(fragments: list[str]) -> list[str]:
    """The fragments from the rule a note announces on (the story before it left out); all of them if it announces none."""
    for index in range(len(fragments) - 1, -1, -1):
        found = _ANNOUNCED.search(fragments[index])
        if found is not None and found.end() < len(fragments[index]):
            # (a condition that leads the announcing sentence is the rule's: "When X is owned, the rule: restore it";
            # a story there, "I restored it when ...", is not)
            lead, rule = fragments[index][:found.start()].strip(" ,"), fragments[index][found.end():]
            if _LEAD_NO_COMMA.match(lead) and not re.search(r"\b(?:i|we|my|our|me|us)\b", lead) and \
                    not re.search(rf"\b(?:{_LEAD_MARKERS})\b", rule):
                return [f"{lead}, {rule}", *fragments[index + 1:]]
            return [fragments[index][found.end():], *fragments[index + 1:]]
    return fragments


# A sentence that sets a situation outside the note, with no order of its own after it: "boxes at root: a separate
# question, not addressed", "the op hosts are another story", "User0 lies out of scope". What it describes is where the
# rule does not speak: never the rule's own situation.
_NOT_COVERED = re.compile(r"\b(?:(?:is|are|'s|'re)\s+)?(?:(?:a\s+)?(?:different|separate)\s+(?:matter|story|question|case|thing)|"
                          r"another\s+(?:matter|story|question|case|thing)|"
                          r"(?:not|never)\s+(?:covered|included|addressed|meant)|out\s+of\s+(?:scope|this))\b[^:>]*$")


def _read_tokens(tokens: str, refs: _Refs, flat: str) -> Reading:
    tokens = _EXCEPT.sub(lambda m: m["between"] + " ", tokens)  # the left-out hosts are no subject of the rule
    # ("So when ...", "So: when ...", "Therefore, ...": a connective before the order is no part of it)
    fragments = _announced([_CONNECTIVE.sub("", f) for f in _FRAGMENT_SPLIT.split(tokens) if f])
    # (a situation the note says it does not cover is none of its own: read as one, a closing "zzc3 at compromised
    # privileged ... is another matter" gave the rule that level)
    fragments = [f for f in fragments if not (_NOT_COVERED.search(f) and not _gives_order(f))] or fragments
    parts: list[tuple[_Part, bool]] = []
    loose: list[str] = []
    unreadable_order: Optional[str] = None  # an order in words this reader has no action for ("pick another action")
    opening: list[str] = []  # fragments that give no order before the first one that does: a note's situation
    for index, fragment in enumerate(fragments):
        if index and (_REASON_LEAD.match(fragment) and not fragment.startswith("zz")
                      or re.match(r"zzp (?:is|was|'s|has|keeps|stays)\b", fragment)):
            continue
        if _NARRATED.match(_without_reason(fragment)):
            continue  # (a move the writer tells they made: no order, and none of the rule's situation either)
        part = _read_fragment(_without_reason(fragment), refs)
        if part is None:
            loose.append(fragment)
            if not any(order for _, order in parts) and not _gives_order(fragment):
                opening.append(fragment)
            if unreadable_order is None and _gives_order(fragment):
                unreadable_order = fragment
        else:
            parts.append((part, _gives_order(fragment)))
    text = instruction(_order_text(flat))
    if not any(order for _, order in parts) and unreadable_order is not None:
        # The order is one it cannot act on: semantic, unless its condition speaks of history, which the
        # contract wants listed as unexpressed (the rule is then matched by that condition's words).
        cond, _, _ = _split_condition(unreadable_order)
        lead = cond or (_LEAD_NO_COMMA.match(unreadable_order) or {"cond": None})["cond"]
        unread = _unread(_REF.sub(" ", lead), history=True) if lead and _HISTORY.search(lead) else ""
        return Reading("vague", text=text, unread=unread)
    if not parts:
        return Reading("vague", text=instruction(flat))
    # A reflection reports before it instructs: the rule starts at its first order, if it gives one.
    start = next((i for i, (_, order) in enumerate(parts) if order), 0)
    chosen = [part for part, _ in parts[start:]]
    first = chosen[0]
    if not first.stated and not first.quiet and _PREEMPT.search(tokens):
        first = _Part(first.clause, first.subject, (None, None), quiet=True, stated=True)
    elif not first.stated and not first.quiet and (found := _loose_condition(loose, refs, opening)) is not None:
        subject = first.subject if found.subject in (None, "zzp") else found.subject
        first = _Part(first.clause, subject, found.signal, quiet=found.quiet, negated=found.negated, unread=found.unread,
                      stated=True, phase=found.phase if subject == found.subject else None)
    # "Don't remove X when ...; restore it instead." -> prefer the second action over the first.
    if first.clause.negated and len(chosen) > 1 and not chosen[1].clause.negated and chosen[1].clause.verb not in (None, "*"):
        second = chosen[1]
        subject, over_target = _resolve(first.subject, first.clause.target, first.clause.verb, False)
        subject, target = _resolve(subject or second.subject, second.clause.target, second.clause.verb, False)
        signal = first.signal if any(first.signal) else second.signal
        return _reading("prefer", subject, signal, Act(second.clause.verb, target),
                        Act(first.clause.verb if first.clause.verb != "*" else None, over_target), flat,
                        negated=first.negated, unread=first.unread, extra=first.extra, phase=first.phase,
                        history=first.history, unread_beyond_history=first.unread_beyond_history)
    clause = first.clause
    subject, target = _resolve(first.subject, clause.target, clause.verb, clause.negated)
    if first.either and clause.target in (None, "zzp") and target == subject:
        target = MATCHED  # ("..., remove that host": whichever of them is in that state)
    verb = None if clause.verb == "*" else clause.verb
    common = dict(also=first.also, quiet=first.quiet, negated=first.negated, unread=first.unread, extra=first.extra,
                  phase=first.phase, history=first.history, unread_beyond_history=first.unread_beyond_history,
                  either=first.either)
    if clause.over_verb is not None and not clause.negated:
        _, over_target = _resolve(subject, clause.over_target or clause.target, clause.over_verb, False)
        if over_target == MATCHED and verb is not None and (first.quiet or subject is None and not any(first.signal)
                                                             and not first.history):
            # ("quiet network -> Monitor, no decoys yet": the move turned down has no host to be made on; the order stands)
            then = _plan(clause, target)
            return _reading("do", subject, first.signal, Act(verb, target), None, flat, then=then, **common)
        return _reading("prefer", subject, first.signal, Act(verb, target), Act(clause.over_verb, over_target), flat, **common)
    if verb is None and not clause.negated:
        return Reading("vague", text=instruction(flat))
    then = _plan(clause, target) if not clause.negated else ()
    return _reading("never" if clause.negated else "do", subject, first.signal, Act(verb, target), None, flat,
                    then=then, **common)


def _reading(kind: str, subject: Optional[str], signal, act: Act, over: Optional[Act], flat: str, *,
             also: tuple[str, ...] = (), quiet: bool = False, negated: bool = False, unread: str = "",
             extra: tuple[Trigger, ...] = (), phase: Optional[str] = None, then: tuple[Act, ...] = (),
             history: tuple[tuple[str, object], ...] = (), unread_beyond_history: str = "",
             either: tuple[str, ...] = ()) -> Reading:
    activity, compromise = signal
    if quiet:
        trigger = Trigger("any", quiet=True)
    elif subject is None:
        # No host named anywhere: a signal alone applies to any host; nothing at all applies always.
        trigger = Trigger("any", activity, compromise, negated=negated, extra=extra, history=history) \
            if activity or compromise or history else None
    else:
        trigger = Trigger(subject, activity, compromise, also=also, negated=negated, extra=extra, phase=phase, history=history,
                          either=either if subject in HOSTS else ())
    if act.target == MATCHED and (trigger is None or trigger.subject in HOSTS and not trigger.either):
        act = Act(act.verb, trigger.subject if trigger else None)
    if over is not None and over.target == MATCHED and trigger is not None and trigger.subject in HOSTS:
        over = Act(over.verb, trigger.subject)
    then = tuple(Act(m.verb, trigger.subject) if m.target == MATCHED and trigger is not None and trigger.subject in HOSTS
                 else m for m in then)
    return Reading(kind, trigger, act, over, instruction(_order_text(flat)), unread, then,
                   unread_beyond_history if trigger is not None and trigger.history else unread)
