"""The surrogate's reader of rules in natural phrasing: what it takes a rule or a correction to say.

Written for the ways people and models phrase rules: prohibitions ("never", "do not", "don't bother",
"stop ..."), conditionals ("if ... then", "whenever", "as soon as", "when ..., ..."), host classes
("user boxes", "workstations", "enterprise servers", "the op server"), paraphrased conditions ("root
access", "being exploited", "any sign of compromise") and verb synonyms ("reimage", "evict", "kill the
processes", "inspect", "put a decoy"). The product's grammar is one phrasing among many here.

It deliberately shares nothing with the product's rule parser, gate or compiler (forge.grammar,
forge.rulebook): the surrogate stands in for a model, and a model reads text its own way. It uses only
environment facts (host names, verbs, host classes). What it cannot make out stays `vague`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Optional, Sequence

from forge.env.catalog import DECOY_SERVICES, GLOBAL_VERBS, HOST_CLASSES, HOSTS, VERBS

MATCHED = "$matched"  # "that host": whichever host the trigger matched
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

    @property
    def has_signal(self) -> bool:
        return self.activity is not None or self.compromise is not None

    def holds_together(self, rows: Sequence[Row]) -> bool:
        """The parts of the situation that are not about one row: every `also` host meets the signal,
        or (quiet) no row shows anything."""
        if self.quiet:
            return not any(r.activity != "None" or r.compromised != "No" for r in rows)
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
        return host is not None and host in HOST_CLASSES.get(self.target, HOSTS if self.target == "any" else (self.target,))

    def concrete(self, matched: Optional[str]) -> Optional[str]:
        verb = DEFAULT_DECOY if self.verb == ANY_DECOY else self.verb
        if verb is None:
            return None
        if verb in GLOBAL_VERBS:
            return verb
        if self.target == MATCHED or self.target in CLASSES:
            if matched is None or (self.target in HOST_CLASSES and matched not in HOST_CLASSES[self.target]):
                return None
            return f"{verb} {matched}"
        return f"{verb} {self.target}" if self.target in HOSTS else None


@dataclass(frozen=True)
class Reading:
    """kind: do | never | prefer (do `act`, not `over`) | format (about how to reply) | vague (unreadable)."""

    kind: str
    trigger: Optional[Trigger] = None  # None: applies at every decision
    act: Optional[Act] = None
    over: Optional[Act] = None
    text: str = ""  # the instruction without its justification
    unread: str = ""  # words of the condition this reader could not place (a model's "unexpressed" part)

    def matching_rows(self, rows: Sequence[Row]) -> list[Row]:
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
]
_DET = r"(?:(?:the|a|an|any|every|each|all(?: the)?|all of the|one of the|some)\s+)?"
_CLASS_PATTERNS = [
    (re.compile(_DET + r"user[\s-]*(?:hosts?|box(?:es)?|machines?|workstations?|desktops?|laptops?|computers?|nodes?|"
                r"endpoints?|systems?|subnet)\b"), "User"),
    (re.compile(_DET + r"(?:workstations?|desktops?|laptops?)\b"), "User"),
    (re.compile(_DET + r"enterprise[\s-]*(?:hosts?|servers?|box(?:es)?|machines?|nodes?|systems?|subnet)\b"), "Enterprise"),
    (re.compile(_DET + r"(?:operational|op|ot|operations)[\s-]*(?:hosts?|servers|box(?:es)?|machines?|nodes?|systems?|"
                r"subnet|network)\b"), "Operational"),
    (re.compile(r"\b(?:any|a|every|each|all)\s+(?:hosts?|machines?|box(?:es)?|systems?|nodes?)\b"), "any"),
]
_PRONOUN = re.compile(r"\b(?:that host|this host|the host|that machine|this machine|the machine|that box|the box|"
                      r"the same host|those hosts|these hosts|such hosts?|the affected host|them|it)\b")
_REF = re.compile(r"\bzz([hcp])(\d*)\b")

_PRIVILEGED = re.compile(r"\bprivileged\b|\broot(?:ed)?\b|\badmin(?:istrator)?\b|\bsystem[- ]level\b|\bescalat\w*")
_USER_LEVEL = re.compile(r"\bcompromised user\b|\buser[- ]level\b|\buser (?:access|compromise|shell|privileges?|rights)\b")
_UNKNOWN = re.compile(r"\bcompromised unknown\b|\bunknown compromise\b|\bsuspect\w* (?:of )?compromise\b|\bpossibly compromised\b")
_COMPROMISE = re.compile(r"\bcompromis\w*|\bbreach\w*|\btaken over\b|\binfected\b|\bhacked\b|\bowned\b|\bpwned\b|\bintrusion\b|"
                         r"\battacker (?:access|foothold)|\binfiltrat\w*")
_EXPLOIT = re.compile(r"\bexploit\w*|\battacked\b|\bunder attack\b")
_SCAN = re.compile(r"\bscan\w*|\bprob(?:ed|ing|e)\b|\brecon\w*|\bport sweep")
_ACTIVITY = re.compile(r"\bactivity\b|\bsuspicious\b|\balerts?\b")
_QUIET = re.compile(r"\bnothing (?:is |much )?(?:going on|happening|to see)\b|\b(?:all|everything) (?:is )?(?:quiet|calm|clean)\b|"
                    r"\bno (?:alerts?|activity|signs? of (?:trouble|activity))\b|\bquiet\b")
_TOGETHER = re.compile(r"\bboth\b|\ball (?:of them|compromised|show)|\btogether\b|\bat the same time\b")

_VERB_PATTERNS = [
    ("Restore", r"restor\w*|re-?imag\w*|rebuild\w*|rebuilt|wip(?:e|es|ing|ed)\b|re-?install\w*|reset\w*|revert\w*|roll\w* back"),
    ("Remove", r"remov\w*|evict\w*|kill\w*|purg\w*|kick\w* out|terminat\w*|clean(?:s|ing)? (?:out|up)|get rid of"),
    ("Analyse", r"analy[sz]\w*|inspect\w*|investigat\w*|examin\w*|check\w*|look(?:ing)? (?:at|into)|triag\w*"),
    (ANY_DECOY, r"decoy\w*|honey ?pot\w*|lure\w*"),
    ("Monitor", r"monitor\w*|watch\w*|observ\w*"),
    ("Sleep", r"sleep\w*|do nothing|idl(?:e|ing)\b|sit tight|stand(?:ing)? by"),
]
_VERB = re.compile("|".join(f"(?P<v{i}>\\b(?:{p}))" for i, (_, p) in enumerate(_VERB_PATTERNS)))
_ANY_ACTION = re.compile(r"\b(?:wast\w* (?:\w+ )?(?:actions?|time|steps?|effort|moves?) on|touch\w*|bother\w* with|"
                         r"spend\w* (?:\w+ )?(?:actions?|time|steps?) on|act\w* on)\b")
_SERVICE = re.compile(r"\b(apache|femitter|haraka\w*|smss|ssh\w*|svchost|tomcat|vsftpd)\b")
_NEGATION = re.compile(r"^(?:(?:and|but|so|please|you should|we should|also)\s+)?(?:never(?: ever)?|do not|don't|dont|"
                       r"stop|avoid|refrain from|no need to|must not|mustn't|should not|shouldn't|quit|cease)\b(?:\s+bother(?:ing)?)?"
                       r"(?:\s+(?:to|with))?")
_PREFER = re.compile(r"\b(?:rather than|instead of|in preference to|over|and not|but not|not)\b")
_FORMAT = re.compile(r"\b(?:reply|replies|respond\w*|responses?|answer with|your answer|formatt?\w*|written as|"
                     r"write (?:your|each|the|exactly|one|only)|one line|single line|per line|nothing else|json|syntax|"
                     r"no explanations?|without explanations?|followed by the hostname)\b|`(?:answer|tool):")
_REASON = re.compile(r"\s*(?:[,;:(]\s*)?\b(?:because|since|so that|in order to|otherwise|given that|as otherwise|"
                     r"to (?:prevent|stop|avoid|keep)|just because)\b.*$")
_REASON_LEAD = re.compile(r"^(?:it|it's|its|they|they're|this|that|there|the attacker|red|these|those|as|which)\b")
_FRAGMENT_SPLIT = re.compile(r"\s*;\s*|\s+[\u2013\u2014-]\s+|\.\s+|,\s*(?=(?:it is|it's|they are|this is|that is|"
                             r"the attacker|which)\b)")
# Condition words the reader takes as negating its signal, and the filler it ignores in a condition:
# whatever else a condition says is reported as unread.
_NOT_IN_CONDITION = re.compile(r"(?:\b(?:not|no longer|never|without)|n't)\s+(?:[a-z]+\s+){0,2}?(?:compromis|exploit|scan|"
                               r"root|privileged|breach|infect|owned|hacked|activ|alert|suspicious)|"
                               r"\bun(?:compromised|exploited|touched)\b")
_CONDITION_FILLER = frozenset("""a an the any some every each all its it it's that this those these is are was were be been being
    has have had gets get got shows show showing shown still yet so and or of on in at to for from by with as
    there host hosts machine box one do does did up sign signs kind""".split())
_LEAD_MARKERS = r"whenever|when|if|as soon as|once|the moment|any ?time|every time|each time|in case|should|on|upon|after|while"
_LEAD = re.compile(rf"^(?:{_LEAD_MARKERS})\b\s*(?P<cond>.+?)(?:\s*,\s*(?:then\s+)?|\s+then\s+)(?P<main>.+)$")
_LEAD_NO_COMMA = re.compile(rf"^(?:{_LEAD_MARKERS})\b\s*(?P<cond>.+)$")
_MID = re.compile(r"^(?P<main>.+?)\s+(?:whenever|when|if|as soon as|once|the moment|any ?time|every time|each time|"
                  r"in case|while|after|upon)\s+(?P<cond>.+)$")


@dataclass
class _Refs:
    values: list[str]  # the host or class each `zzhN` / `zzcN` token stands for


def _tokenise(text: str) -> tuple[str, _Refs]:
    """Lower-case text with hosts as `zzhN`, classes as `zzcN` and "it / that host" as `zzp`."""
    refs = _Refs([])
    out = text.lower().replace("\u2019", "'")

    def keep(kind: str, value: str) -> str:
        refs.values.append(value)
        return f" zz{kind}{len(refs.values) - 1} "

    for pattern, name in _HOST_PATTERNS:
        out = pattern.sub(lambda m, name=name: keep("h", name(m)), out)
    out = re.sub(r"\bDefender\b", lambda m: keep("h", "Defender"), out)
    for pattern, cls in _CLASS_PATTERNS:
        out = pattern.sub(lambda m, cls=cls: keep("c", cls), out)
    out = _PRONOUN.sub(" zzp ", out)
    return " ".join(out.split()), refs


def _signal(text: str) -> tuple[Optional[str], Optional[str]]:
    compromise = ("Privileged" if _PRIVILEGED.search(text) else "User" if _USER_LEVEL.search(text)
                  else "Unknown" if _UNKNOWN.search(text) else "any" if _COMPROMISE.search(text) else None)
    activity = "Exploit" if _EXPLOIT.search(text) else "Scan" if _SCAN.search(text) else None
    if activity is None and compromise is None and _ACTIVITY.search(text):
        activity = "any"
    if compromise is not None and activity is not None and re.search(r"\bcompromised (?:user|privileged|unknown)\b", text) \
            and not re.search(r"\bactivity (?:scan|exploit)\b", text):
        activity = None  # "Compromised User" names the compromise only
    return activity, compromise


def _refs_in(text: str, refs: _Refs) -> list[str]:
    """Hosts and classes named in `text`, in order; "zzp" for a pronoun."""
    found = []
    for m in _REF.finditer(text):
        found.append("zzp" if m[1] == "p" else refs.values[int(m[2])])
    return found


@dataclass
class _Clause:
    negated: bool
    verb: Optional[str]  # None: no action word; "*": any action (a prohibition on a host)
    target: Optional[str]  # host / class / "zzp" / None
    over_verb: Optional[str] = None
    over_target: Optional[str] = None
    rest: str = ""  # the clause without its verb phrase, for signals written inline


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


def _main_clause(text: str, refs: _Refs) -> _Clause:
    negation = _NEGATION.match(text)
    negated = negation is not None
    body = text[negation.end():].strip() if negation else re.sub(r"^(?:always|please|prefer(?:ably)?)\s+", "", text)
    verbs = list(_VERB.finditer(body))
    any_action = _ANY_ACTION.search(body)
    if not verbs and not (negated and any_action):
        return _Clause(negated, None, None, rest=body)
    if not verbs:
        after = _refs_in(body[any_action.end():], refs) or _refs_in(body, refs)
        return _Clause(negated, "*", after[0] if after else None, rest=body[any_action.end():])
    first = verbs[0]
    verb = _decoy(_verb_at(first), body)
    # A second action after "rather than / instead of / over / not": prefer the first over the second.
    over_verb = over_target = None
    cut = len(body)
    for later in verbs[1:]:
        between = body[first.end():later.start()]
        marker = list(_PREFER.finditer(between))
        if marker:
            over_verb = _decoy(_verb_at(later), body[later.start():])
            tail = _refs_in(body[later.end():], refs)
            over_target = tail[0] if tail else None
            cut = first.end() + marker[-1].start()
            break
    own = body[first.end():cut]
    after = _refs_in(own, refs)
    before = _refs_in(body[:first.start()], refs)
    target = after[0] if after else before[0] if before else None
    rest = (body[:first.start()] + " " + own).strip()
    return _Clause(negated, verb, target, over_verb, over_target, rest)


def _split_condition(text: str) -> tuple[Optional[str], str]:
    lead = _LEAD.match(text)
    if lead and _VERB.search(lead["main"]) or lead and _NEGATION.match(lead["main"]):
        return lead["cond"], lead["main"]
    lead = _LEAD_NO_COMMA.match(text)
    if lead:
        # "when User1 is compromised restore it": the main clause starts at its first action word.
        body = lead["cond"]
        start = _NEGATION.search(body) or _VERB.search(body)
        if start and start.start() > 0:
            return body[: start.start()].strip(), body[start.start():].strip()
    mid = _MID.match(text)
    if mid and (_VERB.search(mid["main"]) or _ANY_ACTION.search(mid["main"])):
        return mid["cond"], mid["main"]
    return None, text


def _without_reason(fragment: str) -> str:
    return _REASON.sub("", fragment).strip(" ,.;:!")


def instruction(text: str) -> str:
    """The text without its justification ("because ...", "; it is the attacker's foothold")."""
    flat = " ".join(text.split()).strip().lstrip("-*0123456789.) ").strip()
    parts = [p for p in _FRAGMENT_SPLIT.split(flat) if p]
    kept = [parts[0]] + [p for p in parts[1:] if not _REASON_LEAD.match(p.lower()) and _VERB.search(p.lower())]
    cleaned = [_REASON.sub("", p).strip(" ,.;:!") for p in kept]
    return "; ".join(c for c in cleaned if c).strip()


@dataclass
class _Part:
    clause: _Clause
    subject: Optional[str]
    signal: tuple[Optional[str], Optional[str]]
    also: tuple[str, ...] = ()
    quiet: bool = False
    negated: bool = False
    unread: str = ""


def _unread(plain: str) -> str:
    """The condition's words none of the reader's patterns placed (hosts are already tokens). A condition
    read mid-sentence can run on into the action ("once it is compromised, just restore it"): it ends at
    its first comma or action word."""
    rest = re.split(r",", plain, maxsplit=1)[0]
    verb = _VERB.search(rest) or _NEGATION.search(rest)
    rest = rest[:verb.start()] if verb and verb.start() > 0 else rest
    for pattern in (_PRIVILEGED, _USER_LEVEL, _UNKNOWN, _COMPROMISE, _EXPLOIT, _SCAN, _ACTIVITY, _QUIET, _TOGETHER,
                    _NOT_IN_CONDITION, _REF):
        rest = pattern.sub(" ", rest)
    words = [w for w in re.findall(r"[a-z][a-z-]+", rest.replace("'s", " ")) if w not in _CONDITION_FILLER]
    return " ".join(words) if len(words) >= 2 else ""


def _read_fragment(fragment: str, refs: _Refs) -> Optional[_Part]:
    cond, main = _split_condition(fragment)
    clause = _main_clause(main, refs)
    if clause.verb is None:
        return None
    if cond is not None:
        named = _refs_in(cond, refs)
        subject = named[0] if named else None
        plain = _REF.sub(" ", cond)
        signal = _signal(plain)
        hosts = [n for n in named if n in HOSTS]
        unread = _unread(plain)
        if len(hosts) > 1 and hosts[0] == subject and (_TOGETHER.search(plain) or re.search(r"\band\b", plain)):
            return _Part(clause, subject, signal, also=tuple(dict.fromkeys(hosts[1:])), unread=unread)
        if not named and _QUIET.search(plain):  # "no alert fires": quiet, whatever signal words it uses
            return _Part(clause, None, (None, None), quiet=True)  # the whole condition is the quiet
        if any(signal) and _NOT_IN_CONDITION.search(plain):
            return _Part(clause, subject, signal, negated=True, unread=unread)
        return _Part(clause, subject, signal, unread=unread)
    else:
        subject = clause.target if clause.target not in (None, "zzp") else None
        signal = _signal(_REF.sub(" ", clause.rest))  # "reimage compromised user boxes", "X showing Y should be restored"
    return _Part(clause, subject, signal)


def _resolve(subject: Optional[str], target: Optional[str], verb: Optional[str], negated: bool) -> tuple[Optional[str], Optional[str]]:
    """(trigger subject, act target) with pronouns resolved: "it" is whichever the other side names."""
    if subject == "zzp":
        subject = target if target not in (None, "zzp") else None
    if target == "zzp" or target is None and verb not in (None, *GLOBAL_VERBS):
        target = subject
    if verb in GLOBAL_VERBS:
        target = None
    if target in CLASSES and not (negated and target == subject and target != "any"):
        target = MATCHED
    return subject, target


@lru_cache(maxsize=4096)  # the same memory is re-read at every call of an episode
def read_rule(text: str) -> Reading:
    """What a rule or correction asks for, as far as the surrogate can make it out."""
    flat = " ".join((text or "").split()).strip().lstrip("-*0123456789.) ").strip()
    if not flat:
        return VAGUE
    lowered = flat.lower()
    if _FORMAT.search(lowered):
        return Reading("format", text=instruction(flat))
    tokens, refs = _tokenise(flat)
    fragments = [f for f in _FRAGMENT_SPLIT.split(tokens) if f]
    parts = []
    for index, fragment in enumerate(fragments):
        if index and _REASON_LEAD.match(fragment) and not fragment.startswith("zz"):
            continue
        part = _read_fragment(_without_reason(fragment), refs)
        if part is not None:
            parts.append(part)
    if not parts:
        return Reading("vague", text=instruction(flat))
    first = parts[0]
    # "Don't remove X when ...; restore it instead." -> prefer the second action over the first.
    if first.clause.negated and len(parts) > 1 and not parts[1].clause.negated and parts[1].clause.verb not in (None, "*"):
        second = parts[1]
        subject, over_target = _resolve(first.subject, first.clause.target, first.clause.verb, False)
        subject, target = _resolve(subject or second.subject, second.clause.target, second.clause.verb, False)
        signal = first.signal if any(first.signal) else second.signal
        return _reading("prefer", subject, signal, Act(second.clause.verb, target),
                        Act(first.clause.verb if first.clause.verb != "*" else None, over_target), flat)
    clause = first.clause
    subject, target = _resolve(first.subject, clause.target, clause.verb, clause.negated)
    verb = None if clause.verb == "*" else clause.verb
    if clause.over_verb is not None and not clause.negated:
        _, over_target = _resolve(subject, clause.over_target or clause.target, clause.over_verb, False)
        return _reading("prefer", subject, first.signal, Act(verb, target), Act(clause.over_verb, over_target), flat,
                        also=first.also, quiet=first.quiet, negated=first.negated, unread=first.unread)
    if verb is None and not clause.negated:
        return Reading("vague", text=instruction(flat))
    return _reading("never" if clause.negated else "do", subject, first.signal, Act(verb, target), None, flat,
                    also=first.also, quiet=first.quiet, negated=first.negated, unread=first.unread)


def _reading(kind: str, subject: Optional[str], signal, act: Act, over: Optional[Act], flat: str, *,
             also: tuple[str, ...] = (), quiet: bool = False, negated: bool = False, unread: str = "") -> Reading:
    activity, compromise = signal
    if quiet:
        trigger = Trigger("any", quiet=True)
    elif subject is None:
        # No host named anywhere: a signal alone applies to any host; nothing at all applies always.
        trigger = Trigger("any", activity, compromise, negated=negated) if activity or compromise else None
    else:
        trigger = Trigger(subject, activity, compromise, also=also, negated=negated)
    if act.target == MATCHED and (trigger is None or trigger.subject in HOSTS):
        act = Act(act.verb, trigger.subject if trigger else None)
    if over is not None and over.target == MATCHED and trigger is not None and trigger.subject in HOSTS:
        over = Act(over.verb, trigger.subject)
    return Reading(kind, trigger, act, over, instruction(flat), unread)
