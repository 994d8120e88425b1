"""Whether a teacher's words say they are changing what they said before. Pure.

People rarely name the rule they replace; they say so in words: "Actually, ...", "Update: ...", "Correction:
...", "Change of plan: ...", "Changed my mind about User1: ...", "Scratch my earlier note.", "From now on ...",
"no longer ...", "not ... any more", "I was wrong about Op_Server0: ...". Curation (store/curation.py) reads
this to let such a teaching replace the teacher's own earlier rule it disagrees with, even where the two
triggers are not equivalent (the later one is worded a bit wider, or differently).

Words that only contrast two actions ("remove it instead", "rather than restoring it") are not a revision:
an exception says them too ("don't restore User0 - remove it instead"), and an exception taught after its
general rule must not replace it.
"""

from __future__ import annotations

import re
from typing import Optional

from forge.env.catalog import HOST_CLASSES, HOSTS
from forge.rulebook.language.forms import DROP_PART, STRUCK_OUT, hosts_taken_out
from forge.rulebook.language.names import hosts_in
from forge.rulebook.language.order import HOST_AT_HAND
from forge.rulebook.language.wording import Wording, read_wording

# "my earlier note", "the previous rule": what the teacher said before, named (a revision, unless only pointed to)
EARLIER_NOTE_WORDS = r"\b(?:my|the)\s+(?:earlier|previous|old|last)\s+(?:note|rule|advice|instruction|order|call|word|guidance)\b"

# Each pattern is a way of saying "what I say now replaces what I said before".
_REVISION: tuple[re.Pattern, ...] = tuple(re.compile(p, re.IGNORECASE) for p in (
    # an opening word that corrects: "Actually, ...", "Update: ...", "Correction - ...", "Revised: ..."
    r"^\W*(?:actually|update[d]?|correction|revised|revision|amendment|edit|new\s+(?:policy|rule|plan))\b\s*[,:;.!-]",
    r"^\W*actually\b",
    # (r61h) the same word with what it is about, before its colon: "Update on Op_Host1: ...", "Correction re Enterprise1 -
    # ...", "Change for the op hosts: ..." (read as no revision, the earlier order on the host spoke beside the new one)
    r"^\W*(?:update[d]?|correction|revision|amendment)\s+(?:on|to|for|about|re|regarding|concerning)\s+"
    r"(?:(?!\b(?:is|are|was|were|be)\b)[^:;.!?]){1,40}?"
    r"\s*(?::|;|\s[\u2013\u2014-]+\s)",
    r"\bchange\s+of\s+(?:plan|mind|policy)\b",
    r"\bchanged?\s+my\s+mind\b",
    r"\bon\s+second\s+thoughts?\b",
    r"\b(?:scratch|scrap|forget|ignore|disregard|cancel)\s+(?:that|this|what\s+I\s+(?:said|wrote|told\s+you)|"
    r"(?:my|the|that)\s+(?:earlier|previous|last|old|first|other)\b)",
    r"\bI\s+was\s+wrong\b",
    r"\btake\s+(?:that|it)\s+back\b",
    r"\bfrom\s+(?:now|here|today)\s+on\b",
    r"\bgoing\s+forward\b",
    r"\bhenceforth\b",
    r"\bno\s+longer\b",
    r"\b(?:any\s?more|any\s+longer)\b",
    r"\binstead\s+of\s+(?:what\s+I\s+(?:said|wrote)|my\s+(?:earlier|previous|last|old)\b)",
    EARLIER_NOTE_WORDS,
    # (r53h) a correction said of the teacher's own note by what it is about: "Correction to my User2 note, ...", "amend
    # my last: ...", "fix for our Op_Host1 rule -- ..."
    r"\b(?:correction|amendment|update|fix|edit)\s+(?:to|of|on|for)\s+(?:my|our)\s+(?:[\w-]+\s+){0,2}?"
    r"(?:note|rule|line|order|advice|message|post)\b",
    r"\bamend(?:ing)?\s+(?:my|our)\s+(?:last|earlier|previous|old|note|rule|line|message|post)\b",
    # taking one part out of what was said: "drop the bit about Op_Host1", "strike the line on User0"
    DROP_PART,
))


# An opening that only says the teacher revises what they said before, and gives no order of its own: "Actually,",
# "Update:", "Correction -", "Change of plan:", "Scratch my earlier note.", "Changed my mind about User1:", "I was wrong
# about Op_Server0:". What follows it is the rule.
_PREAMBLE = re.compile(
    r"^\W*(?:"
    r"(?:actually|update[d]?|correction|revised|revision|edit|on\s+second\s+thoughts?|change\s+of\s+(?:plan|mind|policy))"
    r"|(?:scratch|scrap|forget|ignore|disregard|cancel)\s+(?:that|this|(?:my|the)\s+(?:earlier|previous|last|old|first)\s+"
    r"(?:note|rule|advice|instruction|order|call|word|one))"
    r"|(?:I(?:'ve|\s+have)?\s+)?changed\s+my\s+mind(?:\s+(?:about|on|for)\s+(?P<about>[A-Za-z_]+\d))?"
    r"|I\s+was\s+wrong(?:\s+(?:about|on)\s+(?P<wrong>[A-Za-z_]+\d))?"
    # (the part taken out names what is dropped, never the rule's host: no label)
    r"|" + DROP_PART + r"\s+[^,:;.!]{1,40}?"
    r")\s*(?:[,:;.!]|\s-+)\s*", re.IGNORECASE)


def revision_preamble(text: str) -> tuple[str, str]:
    """(the opening words that only say the teacher revises what they said before, the rule that follows them);
    ("", text) when the text has no such opening. A host the opening names, and the rule does not name again, stays
    as the rule's label ("Changed my mind about User1: if it's rooted, Remove it" -> "User1: if it's rooted, Remove
    it"), so "it" keeps its host."""
    found = _PREAMBLE.match(text or "")
    if not found or not text[found.end():].strip():
        return "", text
    rest = text[found.end():].strip()
    host = found.group("about") or found.group("wrong")
    named = read_wording(host).hosts if host else ()
    label = named and named[0] not in read_wording(rest).hosts  # only where the rule no longer names it
    return found.group(0).strip(" ,:;.!-"), (f"{named[0]}: {rest}" if label else rest)


# (r54l) Words of revision only wished for: "an update to my User2 note would be nice", "a fix for our E0 rule is overdue",
# "I'd welcome a correction to my last note". A wish for a revision, not one: the rule that follows replaces nothing (read
# as one, curation put the teacher's earlier rule aside for a note that only asks for a change).
_WISHED_AFTER = re.compile(r"[^.;:!?]{0,40}?\b(?:(?:would|could|might|should)\s+(?:really\s+)?(?:be\s+)?(?:nice|good|great|welcome|"
                           r"helpful|useful|handy|worth\s+\w+|help)|(?:is|are)\s+(?:long\s+)?(?:due|overdue|needed|wanted|welcome|"
                           r"pending|on\s+(?:my|our|the)\s+(?:list|to-?do))|(?:is|are)\s+(?:still\s+)?(?:missing|coming|to\s+come))\b",
                           re.IGNORECASE)
_WISHED_BEFORE = re.compile(r"\b(?:(?:i|we)(?:['\u2019]d|\s+would)\s+(?:really\s+)?(?:like|love|welcome|appreciate|want)|"
                            r"(?:i|we)\s+(?:wish|hope)\s+(?:for|there\s+were|to\s+(?:see|get|have))|hoping\s+for|maybe|perhaps|"
                            r"some\s?day|at\s+some\s+point|(?:could|can|would)\s+(?:someone|somebody|anyone|you)\s+(?:write|make|post|"
                            r"do|add|send))\s+(?:(?:a|an|the|some)\s+)?$", re.IGNORECASE)

# (r54d) Only a revision named as a thing ("an update", "a fix", "a correction") is wished for: "From now on, a Restore
# is needed ...", "Going forward, a Remove would help ...", "Perhaps my earlier note was too strict: ..." revise, and
# their "is needed", "would help", "perhaps" say something of the rule or the old note (read as a wish, the teacher's
# earlier rule stayed beside the one that replaces it).
_REVISION_NOUN = re.compile(r"\b(?:update[sd]?|correction|fix|amendment|edit|revision|change)\b", re.IGNORECASE)


# (r57n) The earlier note pointed to, not revised: "(Enterprise2: see my earlier note)", "as per my previous rule", "covered by
# the old note": the teacher sends a case to what they said before, which stays in force (read as a revision, a general
# order that sends its exception's host to the earlier note replaced that very exception).
_POINTED_TO = re.compile(r"\b(?:see|cf\.?|as\s+(?:in|per)|per|like|following|according\s+to|(?:covered|handled|dealt\s+with|"
                         r"settled)\s+(?:by|in|under))\s+$", re.IGNORECASE)


def revision_words(text: str) -> Optional[str]:
    """The words by which `text` says it replaces what its teacher said before (None: it does not say so; nor where they
    are only wished for, `_WISHED_AFTER`, `_WISHED_BEFORE`)."""
    text = text or ""
    for pattern in _REVISION:
        for found in pattern.finditer(text):
            if _REVISION_NOUN.search(found.group(0)) and (_WISHED_AFTER.match(text, found.end())
                                                          or _WISHED_BEFORE.search(text[:found.start()])):
                continue
            if pattern.pattern == EARLIER_NOTE_WORDS and _POINTED_TO.search(text[:found.start()]):
                continue
            return found.group(0).strip(" ,:;.!-")
    return None


def says_revision(text: str) -> bool:
    return revision_words(text) is not None


# (r43x) A condition that opens a sentence up to its comma ("Once User3 is rooted, ..."), or one that follows the words
# of revision in their clause ("... no longer holds once it is rooted").
# (r49m: or a policy's "Where <state>, ...", and a clause's number in it, "what item 3.2 asks is no longer enough",
# ends no sentence)
_OPENING_CONDITION = re.compile(r"(?:^|[.;!?:]\s+)(?:once|when|whenever|where|if|after|as\s+soon\s+as|while|in\s+case)\b"
                                r"(?:[^.;!?:,]|\.(?=\d))*,(?:[^.;!?:]|\.(?=\d))*$", re.IGNORECASE)
_TRAILING_CONDITION = re.compile(r"^\s*(?:[\w-]+\s+){0,2}?(?:once|when|whenever|if|after|as\s+soon\s+as|while)\b", re.IGNORECASE)
# "from now on", "going forward", "henceforth": when the rule starts, no condition the revision stands under
_FROM_NOW = re.compile(r"\b(?:from|going|henceforth)\b", re.IGNORECASE)


def revision_conditioned(text: str) -> bool:
    """(r43x) Whether the words by which a text revises what its teacher said before stand under a condition of their own
    ("When Op_Host1 reaches root, my previous note does not apply: ..."): the earlier rule is put aside only where that
    condition holds, so it is no revision of the whole of it (curation keeps it, and a narrower trigger of the new rule
    outranks it where both apply). Words of revision inside the condition itself ("if it is no longer compromised, ...")
    or before it ("From now on, when ...", an opening) are not under it."""
    found = [m for pattern in _REVISION for m in pattern.finditer(text or "")]
    # (an opening, "Update: when User3 is rooted, ...", revises all that follows it: no condition of its own; nor is
    # "from now on", said of the time the rule starts, "restore User1 from now on when it is rooted")
    if any(not re.search(r"\w", text[:m.start()]) for m in found):
        return False
    return any(_OPENING_CONDITION.search(text[:m.start()]) or _TRAILING_CONDITION.match(text[m.end():])
               for m in found if not _FROM_NOW.search(m.group(0)))


# A host in general, or the one the analyst's context is about ("analysed box at root -> rec Restore", "for a host
# we inspect at root level, ..."): any host.
_ANY_HOST = re.compile(r"\b(?:" + HOST_AT_HAND + r"|(?:a|an|any|every|each)\s+(?:host|machine|box|server))\b", re.IGNORECASE)


def _hosts(words: Wording) -> frozenset[str]:
    named = set(words.hosts) | ({words.referent} if words.referent else set())
    for name in words.classes:
        named |= set(HOSTS if name == "any" else HOST_CLASSES.get(name, ()))
    if not named and _ANY_HOST.search(words.text):
        named = set(HOSTS)  # (a rule on any host speaks of every host: one on "the analysed host" names none of them)
    return frozenset(named)


def _verbs(words: Wording) -> tuple[frozenset[str], frozenset[str]]:
    """(verbs the text orders, verbs it forbids or disprefers; "any" for a prohibition with no verb)."""
    banned = frozenset({p.verb or "any" for p in words.prohibitions} | set(words.dispreferred))
    return frozenset(words.verbs) - banned, banned


def revised_in_words(earlier: str, later: str) -> bool:
    """Whether the `later` text, read as a revision by the same teacher, replaces the `earlier` one by their words
    alone (for a rule kept without a compiled meaning: the two meanings cannot be compared): the later text speaks
    of every host the earlier one did, and the two disagree about what to do there (the later forbids a verb the
    earlier orders, orders one it forbids, or names a verb the earlier one did not order: "Actually, switch User2
    from Restore to Remove" names the old verb too, and is still a change of what to do there)."""
    old, new = read_wording(earlier), read_wording(later)
    old_hosts = _hosts(old)
    if not old_hosts or not old_hosts <= _hosts(new):
        return False
    old_do, old_banned = _verbs(old)
    new_do, new_banned = _verbs(new)
    if old_do and ("any" in new_banned or old_do & new_banned):
        return True
    if new_do and (("any" in old_banned) or new_do & old_banned):
        return True
    return bool(old_do and new_do - old_do)  # a revision that names another verb than the earlier order's


# A host (or hosts) said to be the only ones spoken for: "is for User1 alone now", "only on U1 and U2", "for E1 only",
# "just the server", "solely Op_Host0".
_ALONE = re.compile(r"\b(?:alone|only|solely|just|exclusively)\b", re.IGNORECASE)


def narrowed_in_words(earlier: str, later: str) -> bool:
    """Whether the `later` text, read as a revision by the same teacher, keeps the `earlier` order to fewer of its hosts
    by their words: the same move ordered (no other verb, none forbidden), on hosts strictly among the earlier ones, and
    said to be for them alone ("the Remove is for User1 alone now" after a Remove on User1 and User2). The earlier rule
    would otherwise still speak for the hosts the teacher took out. A rule on fewer hosts with no word that keeps to
    them ("From now on, remove User0 first") is no narrowing: the earlier rule still speaks for the rest."""
    old, new = read_wording(earlier), read_wording(later)
    old_hosts, new_hosts = _hosts(old), _hosts(new) - hosts_taken_out(later)
    if not new_hosts or not new_hosts < old_hosts or not _ALONE.search(new.text):
        return False
    old_do, old_banned = _verbs(old)
    new_do, new_banned = _verbs(new)
    return bool(old_do) and new_do == old_do and not (old_banned or new_banned)


def struck_out_in_words(earlier: str, later: str) -> bool:
    """Whether the `later` text, read as a revision by the same teacher, strikes out every host the `earlier` one named
    ("amend my last: Analyse ~~User1~~ User4 when it is scanned" after "Analyse User1 when it is scanned") and orders its
    moves on another: the earlier rule is what the teacher took back. Kept, it would still speak for the struck host."""
    struck = {h for m in STRUCK_OUT.finditer(later or "") for h in hosts_in(m["struck"])}
    old, new = read_wording(earlier), read_wording(STRUCK_OUT.sub(" ", later or ""))
    old_do, old_banned = _verbs(old)
    new_do, new_banned = _verbs(new)
    return bool(struck) and _hosts(old) <= struck and bool(_hosts(new) - struck) and bool(old_do) and old_do <= new_do \
        and not (old_banned or new_banned)
