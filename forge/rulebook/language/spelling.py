"""(r43h) The words a rule turns on, read through a hurried note's misspellings. Pure.

A note typed in a hurry misspells the very words its meaning hangs on: the verb of its order ("remvoe it", "Restor
E1") and the state of its condition ("exploted", "Privelaged", "scaned"). Left as typed, the word is no word the reader
knows: the order named no verb, or the condition lost its state, and a rule about an exploited host was read as one
about the host in any state (it fired on a quiet row of it).

Only the words of the rule language are mended, and only a misspelling close to exactly one of them: one letter
dropped, added, changed or two swapped (two such slips in a word of ten letters or more). A word the language knows
as it stands, or an English word near one of them ("remote", "analyst", "scanner"), is left alone.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Optional

from rapidfuzz.distance import OSA

# The words a rule's meaning turns on, with the forms notes use: the defender's verbs, and the states of the table.
_STEMS = {
    "remove": ("remove", "removes", "removed", "removing", "removal"),
    "restore": ("restore", "restores", "restored", "restoring", "restoration"),
    "analyse": ("analyse", "analyses", "analysed", "analysing", "analysis", "analyze", "analyzes", "analyzed", "analyzing"),
    "monitor": ("monitor", "monitors", "monitored", "monitoring"),
    "exploit": ("exploit", "exploits", "exploited", "exploiting", "exploitation"),
    "compromise": ("compromise", "compromises", "compromised"),
    "scan": ("scanned", "scanning"),
    "privileged": ("privileged", "privilege", "privileges"),
    "recommend": ("recommend", "recommends", "recommended"),
    "except": ("except", "excepted", "exception"),
    # (r53m) the marker of a standing condition, "whenver it shows a scan": unmended, the condition went unread
    "whenever": ("whenever",),
    # (r58h) the word of a host's name and of its class, "Entreprise 0", "enterprize hosts": unmended, the name was no host
    # the readers know, and a trigger on any host passed for a rule about that one
    "enterprise": ("enterprise",),
}
_KNOWN = frozenset(form for forms in _STEMS.values() for form in forms)
# English words one slip away from a word above: never a misspelling of it. (Words that hold one of the forms above,
# "remover", "analyser", "restorer", are never mended anyway: `_derived`.)
_ENGLISH = frozenset(("remote", "analyst", "analysts", "scanner", "scanners", "spanned", "planned", "scammed", "canned",
                      "expert", "explore", "explored", "exploration", "explorations", "explained", "exploded",
                      "accept", "accepted", "expect", "expected", "expects", "exempted", "excerpt", "recommit", "wherever"))
_WORD = re.compile(r"\b[A-Za-z]{5,}\b")


def _slips(a: str, b: str, most: int) -> Optional[int]:
    """The slips between two words (a letter dropped, added or changed, or two neighbours swapped: the optimal string
    alignment distance, rapidfuzz's), or None past `most`."""
    slips = OSA.distance(a, b, score_cutoff=most)
    return slips if slips <= most else None


# What a word made of one of the language's words adds to it: a prefix that turns or repeats it ("un", "re"), an ending
# that makes another word of it ("removals", "remover"). Anything else added is a slip ("exploitd", "exploitted").
_PREFIXES = ("un", "re", "non", "pre", "mis", "de", "over", "under", "counter", "self", "auto", "anti", "post")
_ENDINGS = ("s", "es", "r", "rs", "er", "ers", "al", "als", "ly", "ally", "able", "ably", "ness", "ment", "ments")


def _derived(word: str) -> bool:
    """A word made of one of the language's words: "uncompromised", "unexploited", "removals", "reanalysed". It is that
    word with a prefix or an ending, often its very opposite, never a slip of it ("uncompromised" read as "compromised"
    turned a clean host into an owned one)."""
    for form in _KNOWN:
        at = word.find(form)
        if at < 0:
            continue
        before, after = word[:at], word[at + len(form):]
        if (before or after) and (not before or before.rstrip("-") in _PREFIXES) and (not after or after in _ENDINGS):
            return True
    return False


@lru_cache(maxsize=8192)
def mended(word: str) -> Optional[str]:
    """The language's word a misspelt word stands for, in its case ("Remvoe" -> "Remove"); None if it is none, or could
    be more than one."""
    lower = word.lower()
    if lower in _KNOWN or lower in _ENGLISH or _derived(lower):
        return None
    most = 2 if len(lower) >= 10 else 1
    near = {form for form in _KNOWN if _slips(lower, form, most) is not None}
    if len(near) != 1 and len({stem for stem, forms in _STEMS.items() if set(forms) & near}) != 1:
        return None
    # the fewest slips; then the form that ends as the word does, its tense ("exploitd" is "exploited", not "exploits")
    best = min(near, key=lambda form: (_slips(lower, form, most), form[-1] != lower[-1], abs(len(form) - len(lower))))
    return best.capitalize() if word[0].isupper() else best


def misspellings_mended(text: str) -> str:
    """`text` with each misspelt word of the rule language written as it is meant (`mended`)."""
    return _WORD.sub(lambda m: mended(m.group(0)) or m.group(0), text or "")
