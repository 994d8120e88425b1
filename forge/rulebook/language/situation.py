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
_ACTIVITY_ONLY = re.compile(r"\bActivity:?\s+(" + "|".join(ACTIVITIES) + r")\b", re.IGNORECASE)
# (not "compromised user hosts": prose about a class, not the table's value)
_NO_CLASS_NOUN_AFTER = (r"(?![\s-]*(?:hosts?|box(?:es)?|machines?|workstations?|desktops?|laptops?|computers?|nodes?|endpoints?|"
                        r"systems?|subnet|accounts?))")
_COMPROMISED_ONLY = re.compile(r"\bCompromised:?\s+(" + "|".join(COMPROMISE_LEVELS) + r")\b" + _NO_CLASS_NOUN_AFTER,
                               re.IGNORECASE)
# The environment's own ways of saying every host is quiet (text_view.py): a statement about all hosts;
# the alerts' line names none of them.
# (r56n: and in the history lines' own shorthand, "all 13 hosts None/No": activity None, compromise No; not after a "not",
# nor with hosts set apart after it, "all hosts None/No except User2 ...", whose line says more than every host quiet)
_ALL_QUIET = re.compile(r"(?<!\bnot\s)\b[Aa]ll (?:(\d+) )?hosts:? (?:Activity None, Compromised No|None\s*/\s*No)\b"
                        r"(?![\s,;:(\u2013\u2014-]*(?:except|but|save|apart|other\s+than|besides)\b)")
# (r56n: also after the alerts' own header on its line, "Alerts: No host shows activity or compromise.": the same line)
_NONE_ALERTED = re.compile(r"^\s*(?:Alerts:\s*)?No host shows activity or compromise\.?\s*$")
_OTHERS_QUIET = re.compile(r"\(\d+ other hosts: Activity None, Compromised No\)")
# The Planner's line of what changed since the last step, its hosts after the colon (one reader: judged.StillQuiet's too).
# (r55h) A host it states clean there ("User0 (Activity None, Compromised No)") has left the alerts, its state known and
# nothing of it shown (`Situation.unnamed`): a rule on the host merely shown, "plan nothing on User0", held on the step it
# was cleaned, where the alerts no longer list it.
CHANGED_LINE = re.compile(r"^.*\bHosts\s+changed\s+since\s+the\s+last\s+step:\s*(?P<hosts>.*)$", re.IGNORECASE | re.MULTILINE)
_SKIPPED_LINES = re.compile(r"^\s*(?:Recent steps:|Host history\b|Step \d+ of \d+\.?\s*$)", re.IGNORECASE)
_STEP_LINE = re.compile(r"^\s*Step (\d+) of \d+\b", re.IGNORECASE)
_EPISODE_AT = re.compile(r"^\s*Step (\d+) of (\d+)\b", re.IGNORECASE | re.MULTILINE)
_EVIDENCE_STEP = re.compile(r"\bCurrent evidence \(step (\d+)\)", re.IGNORECASE)
_RECENT_LINE = re.compile(r"^\s*Recent steps:\s*(.*)$", re.IGNORECASE)
_RECENT_ENTRY = re.compile(r"step (\d+):\s*([A-Za-z_]+)(?:\s+([A-Za-z_]+\d*))?(?:\s*->\s*reward\s*([-+]?\d+(?:\.\d+)?))?",
                           re.IGNORECASE)
_HOST_HISTORY_LINE = re.compile(r"^\s*Host history(?:\s*\(last (\d+) steps?\))?:\s*(.*)$", re.IGNORECASE)
_OTHER_HOSTS = re.compile(r"^\s*(?:every|all) other hosts?:\s*None\s*/\s*No\s*$", re.IGNORECASE)
_HOST_HISTORY_ENTRY = re.compile(r"step (\d+)\s+(\w+)\s*/\s*(\w+)", re.IGNORECASE)

# (r59l) The attacker said "they", on a host or a box: "once they are on the box", "they're in User4" (read as no state,
# the order stood as a bare trigger on the host whatever it showed). One box, whoever "they" are: never the several
# hosts a "they" may stand for (scope._referents).
ATTACKER_THEY = (r"\bthey(?:\s+(?:are|were|get|got)|['\u2019]re)\s+(?:still\s+|already\s+|now\s+)?(?:on|in|inside|onto|into)\b"
                 r"(?=\s*$|\s*[,;:.]|\s+(?:it|there|(?:the|that|this|a|its)\s+(?:box|machine|host|server|workstation|node|system)\b))")

# Prose vocabulary, checked in order: the first that matches a clause wins for its field. The values are
# the catalog's (ACTIVITIES, COMPROMISE_LEVELS) or SOME.
_PROSE_COMPROMISE = (
    # "Unknown on a user box", "Unknown on User2": the level said first, of the host after it (before any other word of
    # the clause: "Unknown on a user box is not compromised" says what that level is not)
    (re.compile(r"\bunknown\s+on\b", re.I), "Unknown"),
    (re.compile(r"\b(?:not|un)[- ]?compromised\b|\bclean\b|\bno compromise\b", re.I), "No"),
    # (r40h: not a file the analyst's evidence names, "escalate.exe", "an escalate file": evidence, no level of the row)
    (re.compile(r"\bprivileged\b|\broot(?:ed)?\b|\badmin(?:istrator)?\b|\bsystem[- ]level\b|"
                r"\bescalat(?!e\.(?:sh|exe|py|bat|ps1)\b|e\s+files?\b)", re.I), "Privileged"),
    (re.compile(r"\buser[- ]level\b|\buser (?:access|privileges?|compromise|shell)\b|\bcompromised (?:as|at) user\b|"
                # ("Ent1 at User -> Remove", "User2 @ User": the level a host is at, as a note writes it; not "at user hosts")
                r"\buser-compromised\b|(?:\bat|@)\s*user\b" + _NO_CLASS_NOUN_AFTER + r"|"
                # (r32h: "row says User", "if it reads User", "Defender shows User": the table's value after the verb that
                # reads it, as "shows Unknown" below; not "shows user activity", "reads user hosts"; nor after "read", which
                # may tell a past step's row)
                r"\b(?:says|saying|reads|reading|shows|showing)\s+user\b" + _NO_CLASS_NOUN_AFTER
                + r"(?![\s-]*(?:activity|traffic|logins?|sessions?|names?|processes|level|shell|access|privileges?|compromise))",
                re.I), "User"),
    (re.compile(r"\bunknown (?:compromise|status|state|level)\b|\b(?:compromise|status|state|level)(?: \w+)? (?:is |remains |still )?"
                # "if User0 shows Unknown", "once it reads unknown", "dropped to Unknown": the table's value, said bare
                # (r43m: and in the perfect, "has shown Unknown for two steps": the same value, held since)
                # ("OpS0 at Unknown -> Monitor": the level a host is at, as "at Privileged", "at user level")
                r"unknown\b|\b(?:shows?|showing|shown|showed|reads?|reading|says|saying|is|are|turns?|goes|drops?|dropped|falls?|fell|flips?|flipped|at)"
                # ("shows only Unknown", "is still Unknown": the level, said with a word before it)
                r"(?: (?:to|as|back to))?(?: (?:only|just|merely|still))? unknown\b|@\s*unknown\b|"
                # ("E0 Unknown -> Analyse E0": the level right after the host's name, as a note writes it)
                r"^\s*(?:(?:only|just|still)\s+)?unknown\s*$|"
                # (r56h: "any box with Unknown", "a host w/ Unknown": the level a host is with, as "at Unknown"; not an
                # unknown thing it has, "with unknown processes", "with an unknown user")
                r"\bwith\s+(?:(?:only|just|still)\s+)?unknown\b(?!\s+(?:process\w*|users?|accounts?|logins?|files?|connections?|"
                r"ports?|traffic|origins?|sources?|reasons?|causes?|services?|software|binar\w*|programs?|ips?|address\w*|"
                # (r57l: nor "with unknown malware", "w/ unknown payloads": a thing of no known kind on the host, no level)
                r"hosts?|box\w*|devices?|activity|evidence|malware|malicious|payloads?|implants?|tools?|threats?|code|"
                r"scripts?|executables?|artifacts?|artefacts?|signatures?|infections?|exploits?|backdoors?|"
                r"trojans?|viruses|virus|worms?))", re.I), "Unknown"),
    (re.compile(r"\bcompromis|\bowned\b|\binfect(?:ed|ion)\b|"
                # (r57d) malware a host is said to carry, "with unknown malware", "w/ an unknown implant", "has a backdoor":
                # the attacker's hold at a level not known (no Unknown level, r57l); read as no state at all, an entry on the
                # host clean or merely scanned passed as the text
                r"\b(?:with|has|have|had|carr(?:y|ies|ying))\s+(?:(?:only|just|still|some|an?)\s+)?(?:(?:unknown|unidentified|new)\s+)?"
                r"(?:malware|malicious\s+(?:code|payloads?|binar\w*|implants?)|payloads?|implants?|backdoors?|trojans?|virus(?:es)?|worms?|"
                r"infections?)\b|\bfootholds?\b|\b(?:is|are|was|were|been|being|already|still)\s+(?:(?:both|all|each|now|also|too|then)\s+)?held\b(?!\s+(?:back|off|up|for|until|steady|out|firm|fast|strong|tight|against|the\s+line|(?:their|its)\s+ground))|"
                # (r46h: a note's "held" with no verb before it, "User0 and User4 both held -> ...", "E1 held -> ...": the
                # attacker's hold, as "is held" is; read as no state, the hosts were merely named and the rule fired on either shown)
                # (r46a: not "held out", "held firm", "held the line": a host that resisted, no hold of the attacker's)
                r"\b(?:both|all|each)\s+held\b(?!\s+(?:back|off|up|for|until|steady|out|on|firm|fast|strong|tight|against|the\s+line|(?:their|its)\s+ground))|^\s*held\s*$|\bbreach(?:ed)?\b|\btaken over\b|\bpwned\b|\binfiltrat|"
                r"\bintrusion\b|\bhacked\b|\bpopped\b|\b(?:gets?|got|is|are|was|were|been) hit\b|"
                # (r59m: slang, "once it's burned", "User2 got burnt": the host given away to the attacker; only after a verb
                # of being, never "burned the reward", "burnt a turn", which spend what the defender has)
                # (r59b: and only of a host, by its name, its class's noun or a pronoun: "a turn is burned on it", "the
                # budget got burnt", "we got burned by that" spend or tell what the defender lost, and read as a compromise
                # the rule held where the host was never the attacker's)
                # (the host's name is blanked out of the phrase before it is read: a verb at its start is the host's)
                r"(?:^\s*|\b(?:it|they|which|that|this|[a-z]+_?[a-z]*\d|box(?:es)?|hosts?|machines?|servers?|workstations?|desktops?|"
                r"laptops?)\s+)(?:(?:has|have|had|just|already|now)\s+)*(?:gets?|got|is|are|was|were|been|being)\s+"
                r"(?:already\s+)?burn(?:ed|t)\b|\b(?:it|that)['\u2019]s\s+(?:already\s+)?burn(?:ed|t)\b|"
                # (r47m: the noun, "a hit on Enterprise2", "after the hit on it": the attacker's compromise of it)
                # (r47a: not a hit on the score, "a hit to our reward", "one hit on the points": a penalty, no host's compromise)
                r"\b(?:a|the|any|one)\s+hit\s+(?:on|to|against)\b(?!\s+(?:(?:the|our|my|its|their|your)\s+)?(?:reward|score|points?|total|return)s?\b)|"
                # ("Ent1 hit -> Remove": the state right after the host's name, as a note writes it)
                r"^\s*hit\s*$|\b(?:attacker|red) (?:session|shell|access|foothold)\b|"
                r"\breverse shell\b|\blands? on\b|\blanded on\b|\bgets? into\b|\bgot into\b|"
                # "the attacker is on it", "once red reaches Enterprise2", "spreads to", "pivots to"
                r"\b(?:attacker|red|intruder|adversary)\s+(?:is|was|are|sits?|remains?)\s+(?:still\s+|already\s+)?(?:on|in|inside)\b|"
                # (r59l) the attacker said "they", on a host or a box: "once they are on the box", "they're in User4"
                # (read as no state, the order stood as a bare trigger on the host whatever it showed)
                + ATTACKER_THEY + r"|"
                r"\b(?:attacker|red|intruder|adversary)\s+(?:controls?|owns?|holds?|has\s+(?:access|a\s+shell|a\s+foothold|footholds))\b|"
                # (not what reconnaissance reaches: a scan there, `_PROSE_ACTIVITY`)
                r"(?<!recon\s)(?<!reconnaissance\s)(?<!scanning\s)(?<!probing\s)(?<!scan\s)(?<!scans\s)(?<!probe\s)(?<!probes\s)(?:\breach(?:es|ed)?\b|"
                # (r60h: and "into", "once red pivots into the op subnet", "spreads into User3": read as no state, the
                # compiled "any compromise" of the class held on a row at Unknown, the state its words never say)
                r"\b(?:gets?|got|spreads?|moves?|moved|pivots?|pivoted|jumps?|jumped)\s+(?:in)?to\b)", re.I), SOME),
)
_PROSE_ACTIVITY = (
    # (r40m: "untouched", as "quiet": nothing shown on it)
    (re.compile(r"\bno activity\b|\bquiet\b|\bidle\b|\buntouched\b", re.I), "None"),
    (re.compile(r"\bexploit", re.I), "Exploit"),
    # ("the reconnaissance reaches the op subnet": the hosts there are scanned, not yet compromised)
    # (r59m: slang, "poked at", "getting poked": a scan; read as no state, "when User1 is poked at" was User1 shown at all)
    (re.compile(r"\bscan|\bprob(?:e|es|ed|ing)\b|\bpok(?:e|es|ed|ing)\b(?!\s+(?:fun|holes?)\b)|\bport[- ]?sweep|\benumerat|\bfingerprint|"
                r"\brecon(?:naissance)?\s+(?:reach(?:es|ed)?|gets?\s+to|got\s+to|arrives?\s+at)\b", re.I), "Scan"),
    (re.compile(r"\bactivity\b|\bactive\b|\bsuspicious\b|\balert|\balarm|\banomal|\bnoisy\b|\bunder attack\b|\battacked\b", re.I), SOME),
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
    # The steps the context may be at, [step, step_latest], and the episode's length, as the context states them (None:
    # not stated; step_latest None with a step: that step or later), for a rule's window of steps (episode.py). The
    # Planner's `Step N of M.` states it; the history's lines only bound it (their last recorded step, or the one after
    # it: whether that line is the step acting now or the one before is not said); the Analyst's `Current evidence
    # (step N)` is N or later.
    step: Optional[int] = None
    step_latest: Optional[int] = None
    episode_length: Optional[int] = None

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


# What may stand between hosts that share one state ("Enterprise0, Enterprise1 and User1 show Activity Scan").
_LIST_JOINER = re.compile(r"^[\s,&/]*(?:(?:and|or|as well as|plus)\b[\s,]*)?$", re.IGNORECASE)


# (r44m) After the state of one host and a joiner, a state put on the next host by a preposition: "..., an exploit (running)
# on", "and a scan seen at", "+ exploit against" (what follows is the next host's name).
_STATE_ON_NEXT = re.compile(r"(?:,|&|\+|\b(?:and|plus|while|with)\b)\s*(?P<state>(?:(?:an?|some)\s+)?[\w-]+(?:\s+(?:running|seen|showing|"
                            r"in\s+progress|under\s*way|going\s+on|landing|landed))?)\s+(?:on|at|against|hitting)\s*$", re.IGNORECASE)


# A negation within a few words before a state word negates that word ("is not being scanned", "nothing on it is
# compromised", "shows no exploit"); "only" before an activity word says there is nothing more ("only shows a scan").
_NEGATION_BEFORE = re.compile(r"(?:\b(?:not|no|never|without|nor|neither|nothing|none)|n['\u2019]t)(?:\s+\w+){0,4}\s*$",
                              re.IGNORECASE)
# A negation right before a word of absence ("not clean", "isn't quiet", "no longer clean"): its opposite.
_NOT_RIGHT_BEFORE = re.compile(r"(?:\b(?:not|never|no\s+longer)|n['\u2019]t)\s+(?:(?:yet|quite|fully|entirely|completely|"
                               r"really|totally|be|been|being|stay|stays|remain|remains)\s+)?$", re.IGNORECASE)
# A level put aside after the one stated ("at user level rather than privileged", "user-level instead of root"): that
# level is negated, as after "not" (read as stated, the rule claimed the very level its text turns down).
_RATHER_BEFORE = re.compile(r"\b(?:rather\s+than|instead\s+of)(?:\s+(?:at|a|an|the|being))?\s*$", re.IGNORECASE)
_ONLY_BEFORE = re.compile(r"\bonly(?:\s+\w+){0,3}\s*$", re.IGNORECASE)


def _prose_word(text: str, table) -> tuple[Optional[str], Optional[re.Match]]:
    for pattern, value in table:
        found = pattern.search(text)
        if found:
            return value, found
    return None, None


Negated = Optional[tuple[str, str]]  # ("activity", "Scan"), ("compromise", "Privileged"): what a piece says is not so


def _stated(text: str) -> tuple[State, Negated]:
    """The state a piece of a clause states: `Activity X` / `Compromised Y` as the environment writes them, else
    the prose vocabulary; and what it negates, if anything ("is not being scanned": no activity is stated, and
    Scan is negated; "not root": Privileged is negated). A negated word for compromise in general states the
    quiet level ("nothing on it is compromised": Compromised No); "only" before an activity word states it and
    the quiet level ("only shows a scan"). The piece holds no host name ("User0" must not read as "user level")."""
    activity = _ACTIVITY_ONLY.search(text)
    compromise = _COMPROMISED_ONLY.search(text)
    bare = _ACTIVITY_ONLY.sub(" ", _COMPROMISED_ONLY.sub(" ", text))
    negated: Negated = None
    # The table's own words negated ("but not Compromised Privileged"): that value is not so.
    if compromise and _NEGATION_BEFORE.search(text[:compromise.start()]):
        negated, compromise = ("compromise", _canon(compromise.group(1), _COMP_VALUES)), None
    if activity and _NEGATION_BEFORE.search(text[:activity.start()]):
        negated, activity = negated or ("activity", _canon(activity.group(1), _ACT_VALUES)), None
    prose_activity, found = _prose_word(bare, _PROSE_ACTIVITY)
    if found is not None and prose_activity != QUIET_ACTIVITY and _NEGATION_BEFORE.search(bare[:found.start()]):
        prose_activity, negated = None, ("activity", prose_activity)
        # (r48c) "on a scan (no exploit yet)", "a scan w/o exploit", "a scan with no exploit": the activity it states,
        # beside the one it denies (read alone, the denial lost the scan, and the rule fired on a quiet host)
        prose_activity = _activity_beside(bare[:found.start()] + " " * len(found.group(0)) + bare[found.end():], negated[1])
    elif found is not None and prose_activity == QUIET_ACTIVITY and _NOT_RIGHT_BEFORE.search(bare[:found.start()]):
        prose_activity = SOME  # "no longer quiet", "isn't idle": some activity
    prose_compromise, found_c = _prose_word(bare, _PROSE_COMPROMISE)
    if found_c is not None and prose_compromise == QUIET_COMPROMISE and found_c.group(0).lower() == "clean" \
            and _NOT_RIGHT_BEFORE.search(bare[:found_c.start()]):
        prose_compromise = SOME  # "not clean", "no longer clean": compromised
    elif found_c is not None and prose_compromise not in (None, QUIET_COMPROMISE) and \
            (_NEGATION_BEFORE.search(bare[:found_c.start()])
             or prose_compromise != SOME and _RATHER_BEFORE.search(bare[:found_c.start()])):
        if prose_compromise == SOME:
            prose_compromise = QUIET_COMPROMISE
        else:  # "not root": some other level, or none
            prose_compromise, negated = None, negated or ("compromise", prose_compromise)
            # "with a user-level compromise (not privileged)": the level it states, beside the one it negates
            prose_compromise = _stated_beside(bare[:found_c.start()] + " " * len(found_c.group(0)) + bare[found_c.end():])
    if found is not None and prose_activity not in (None, QUIET_ACTIVITY) and prose_compromise is None \
            and negated is None and _ONLY_BEFORE.search(bare[:found.start()]):
        prose_compromise = QUIET_COMPROMISE
    if negated == ("activity", "Scan") and prose_activity is None and prose_compromise is None and activity is None \
            and compromise is None and re.search(r"\byet\b", text, re.IGNORECASE):
        # "not yet scanned", "without yet any scan": the attack has not reached the host, whose first stage is a scan: no
        # activity and no compromise (an exploited or compromised host was scanned)
        return (QUIET_ACTIVITY, QUIET_COMPROMISE), None
    if found is not None and prose_activity == QUIET_ACTIVITY and prose_compromise is None and compromise is None \
            and negated is None and re.fullmatch(r"quiet|untouched", found.group(0), re.IGNORECASE):
        prose_compromise = QUIET_COMPROMISE  # "User3 quiet": nothing shown on it, no activity and no compromise
    prose_activity, prose_compromise = _either_value(bare, prose_activity, prose_compromise, negated)
    return (_table_or_either(text, activity, _ACT_VALUES, negated) if activity else prose_activity,
            _table_or_either(text, compromise, _COMP_VALUES, negated) if compromise else prose_compromise), negated


# (r40k) The table's value with another of its column after "or": "Compromised User or Privileged", "Activity Scan or
# Exploit" (the column's name said again or not).
_OR_VALUE_AFTER = re.compile(r"\s*(?:,\s*)?(?:or|/)\s*(?:(?:compromised|activity):?\s+)?(\w+)\b", re.IGNORECASE)


def _table_or_either(text: str, found: re.Match, values, negated: Negated) -> Optional[str]:
    """The table's value a piece states, or either of two ("Compromised User or Privileged" is any compromise: read
    as User alone, the rule was held to a row it does not ask of); left as the table says where the piece negates."""
    value = _canon(found.group(1), values)
    after = _OR_VALUE_AFTER.match(text, found.end())
    other = _canon(after.group(1), values) if after else None
    # (two levels of a compromise, or the two activities: not a quiet value, nor Unknown, with them)
    either = {other, value} in ({"User", "Privileged"}, {"Scan", "Exploit"})
    return SOME if negated is None and either else value


# (r52f) The two compromise levels named as one condition: "user or root", "owned (user or root)", "root/user access",
# "at user level or root", "a user-level or an admin-level foothold" (r45m: a level's word with its "-level", an article
# before the second one), "user and root". One reader, for the situation's value (`_either_value`) and the checks'
# (checks.py: a predicate of one level where the text names both is narrower than it).
_USER_LEVEL = r"user(?:[\s-]level)?(?:\s+(?:access|privileges?))?"
_PRIVILEGED_LEVEL = r"(?:(?:root|privileged|admin)\w*(?:[\s-]level)?|privilege|system[\s-]level)"
_LEVEL_JOIN = r"\s*(?P<{}>(?:,\s*)?(?:\bor\b|/|\band\b)|,)\s*(?:at\s+|with\s+)?(?:(?:an?|the)\s+)?"
_LEVELS_JOINED = re.compile(rf"\b(?:{_USER_LEVEL}{_LEVEL_JOIN.format('join')}{_PRIVILEGED_LEVEL}|"
                            rf"{_PRIVILEGED_LEVEL}{_LEVEL_JOIN.format('join_after')}user(?:[\s-]level|\s+access)?)\b", re.IGNORECASE)


def levels_joined(text: str, *, either: bool = False) -> list[re.Match]:
    """The places where `text` names the two compromise levels as one condition (`_LEVELS_JOINED`). `either`: only those
    joined by "or" (or "/"), which a piece of a situation reads as either level; a host is never at both, so a piece that
    joins them by "and" or a comma says no value of its own (the checks read every joining as naming both)."""
    found = list(_LEVELS_JOINED.finditer(text or ""))
    return [m for m in found if not either or re.search(r"\bor\b|/", m["join"] or m["join_after"])]


# Two values of one column joined by "or": "(a scan or an exploit)", "owned (user or root)", "user-level or admin".
_EITHER_ACTIVITY = re.compile(r"\b(?:an?\s+)?(?:scan\w*|exploit\w*)\s*(?:,\s*)?(?:or|/)\s*(?:an?\s+)?(?:scan\w*|exploit\w*)\b",
                              re.IGNORECASE)


def _either_value(text: str, activity: Optional[str], compromise: Optional[str], negated: Negated) -> State:
    """A piece that joins two values of one column by "or" states either of them, not the one the table lookup found
    first: "owned (user or root)" is any compromise (not Privileged alone), "any activity (a scan or an exploit)" any
    activity (not Exploit alone). A negated piece is left as it was ("neither scanned nor exploited" is read there)."""
    if negated is not None:
        return activity, compromise
    if levels_joined(text, either=True):
        compromise = SOME
    pair = _EITHER_ACTIVITY.search(text)
    if pair and pair.group(0).lower().count("scan") == 1:
        activity = SOME
    return activity, compromise


def without_either_value(text: str) -> str:
    """`text` with each pair of values `_either_value` reads blanked out ("user level or root", "a scan or an exploit")."""
    for level in reversed(levels_joined(text, either=True)):
        text = f"{text[:level.start()]} {text[level.end():]}"
    return _EITHER_ACTIVITY.sub(lambda m: " " if m.group(0).lower().count("scan") == 1 else m.group(0), text)


def _activity_beside(text: str, denied: str) -> Optional[str]:
    """(r48c) The activity (Scan or Exploit) a phrase states that no negation stands before (None: none), once the denied
    one is blanked out of it."""
    for pattern, value in _PROSE_ACTIVITY:
        found = pattern.search(text)
        if found and value in ("Scan", "Exploit") and value != denied and not _NEGATION_BEFORE.search(text[:found.start()]):
            return value
    return None


def _stated_beside(text: str) -> Optional[str]:
    """The compromise level a phrase states that no negation stands before (None: none), once the negated one is
    blanked out of it."""
    level, found = _prose_word(text, _PROSE_COMPROMISE)
    return level if found is not None and level != QUIET_COMPROMISE and not _NEGATION_BEFORE.search(text[:found.start()]) else None


def state_of(text: str) -> tuple[State, Negated]:
    """The state a phrase states and what it negates, if anything (`host_statements` reads it per host)."""
    return _stated(_HOST_RE.sub(" ", text))


def host_statements(clause: str) -> list[tuple[str, State, Negated]]:
    """Each host a clause names, with the state the clause states *for it* and what it negates, host by
    host: in `User1 shows Activity Exploit, Enterprise0 shows Activity Scan` each host has its own, and only
    hosts joined by a list ("A, B and C show Activity Scan") share one. A clause written state first ("Exploit on
    User1, Scan on Enterprise0") gives each host the state before it. A host named without a state: (None, None)."""
    hosts = list(_HOST_RE.finditer(clause))
    if not hosts:
        return []
    lead = clause[:hosts[0].start()]
    pieces = [clause[h.end():(hosts[i + 1].start() if i + 1 < len(hosts) else len(clause))] for i, h in enumerate(hosts)]
    none: tuple[State, Negated] = ((None, None), None)
    lead_state, states = _stated(lead), [_stated(p) for p in pieces]
    found: list[tuple[State, Negated]] = [none] * len(hosts)
    if lead_state != none and states[-1] == none:
        for i in range(len(hosts)):  # state first: each host takes what is written before it
            before, state = (lead, lead_state) if i == 0 else (pieces[i - 1], states[i - 1])
            found[i] = found[i - 1] if i and _LIST_JOINER.match(before) else state
    else:
        for i in range(len(hosts) - 1):
            # (r44m) "Op_Server0 clean and an exploit running on Enterprise2", host first: the state said after the joiner,
            # right before the next host with a word that puts it on that host, is that host's, not the one before it
            tail = _STATE_ON_NEXT.search(pieces[i])
            if tail and states[i + 1] == none and _stated(tail["state"]) != none:
                states[i], states[i + 1] = _stated(pieces[i][:tail.start()]), _stated(tail["state"])
        for i in reversed(range(len(hosts))):  # host first: each host takes what follows it, a list its last member's
            following = found[i + 1] if i + 1 < len(hosts) else none
            found[i] = states[i] if states[i] != none else following if _LIST_JOINER.match(pieces[i]) else none
        # (r48c) a state said first and a denial after the host, "a scan on User3 w/o exploit", "Scan on User3 (no exploit
        # yet)": the host (and those listed with it) shows that state and not the denied one (read as the denial alone, the
        # scan was lost, and the rule fired on a quiet host)
        for i in range(len(hosts)) if lead_state[0] != (None, None) and lead_state[1] is None else ():
            if i and not _LIST_JOINER.match(pieces[i - 1]):
                break
            if found[i][0] == (None, None) and found[i][1] is not None:
                found[i] = (lead_state[0], found[i][1])
    return [(_HOST_WORD[h.group(1).lower()], state, negated) for h, (state, negated) in zip(hosts, found)]


def _hosts_in(clause: str, reading: _Reading, changes: bool = False) -> None:
    """Each host of a clause with the state the clause states for it (`host_statements`); in the line of changes
    (`changes`, `CHANGED_LINE`), a host stated clean there is not shown."""
    for host, (activity, compromise), _ in host_statements(clause):
        quiet = (activity, compromise) == (QUIET_ACTIVITY, QUIET_COMPROMISE)
        reading.add(host, activity, compromise, named=not (changes and quiet))


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
        for clause in _CLAUSE_SPLIT.split(line):
            if clause and clause.strip():
                _hosts_in(clause, reading, changes=bool(CHANGED_LINE.match(line)))
    history = _history(lines)
    return replace(reading.situation(), history=history, **_episode_at(text or "", history))


def _episode_at(text: str, history: Optional[History]) -> dict[str, Optional[int]]:
    """The steps the context may be at and the episode's length (`Situation.step`, `step_latest`, `episode_length`)."""
    stated = _EPISODE_AT.search(text)
    if stated is not None:
        return {"step": int(stated.group(1)), "step_latest": int(stated.group(1)), "episode_length": int(stated.group(2))}
    if history is not None and history.step is not None:
        return {"step": history.step - 1, "step_latest": history.step, "episode_length": None}
    evidence = _EVIDENCE_STEP.search(text)
    return {"step": int(evidence.group(1)) if evidence else None, "step_latest": None, "episode_length": None}
