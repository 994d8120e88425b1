"""How memory compares texts: the normal form behind item ids, and the near-duplicate similarity.

Similarity is the Jaccard index of the two texts' word sets (case-folded), except that it is 0 when
the texts differ in a *marked* word. A marked word names something: it contains a digit or an
underscore (User1, Op_Server0, 10.0.0.5) or is capitalised somewhere other than the start of a
sentence or line (Remove, Exploit, Defender). So "When User1 shows Exploit, then Remove User1" and the
same rule for User2 are different rules however long the shared wording, while rewordings of one rule
("..., then Remove User1" / "... then Remove User1.") stay near duplicates.
"""

from __future__ import annotations

import re
import unicodedata

_WHITESPACE = re.compile(r"\s+")
# Words keep inner joiners so that hostnames and addresses stay one word: Op_Server0, 10.0.0.5, don't.
_WORD = re.compile(r"\w+(?:[.\-']\w+)*")
_SENTENCE_BREAK = re.compile(r"[.!?\n]")


def normalise(text: str) -> str:
    """The form two texts share when they say the same thing: NFKC, case-folded, single spaces,
    no surrounding whitespace or trailing sentence punctuation."""
    folded = _WHITESPACE.sub(" ", unicodedata.normalize("NFKC", text).casefold()).strip()
    return folded.rstrip(".;!").rstrip()


def words(text: str) -> frozenset[str]:
    return frozenset(match.group(0).casefold() for match in _WORD.finditer(unicodedata.normalize("NFKC", text)))


def marked_words(text: str) -> frozenset[str]:
    """Case-folded words that name something (see the module docstring)."""
    text = unicodedata.normalize("NFKC", text)
    marked = set()
    previous_end = 0
    for index, match in enumerate(_WORD.finditer(text)):
        word = match.group(0)
        sentence_start = index == 0 or bool(_SENTENCE_BREAK.search(text, previous_end, match.start()))
        previous_end = match.end()
        if any(ch.isdigit() or ch == "_" for ch in word) or (not sentence_start and any(ch.isupper() for ch in word)):
            marked.add(word.casefold())
    return frozenset(marked)


def similarity(a: str, b: str) -> float:
    """In [0, 1]; 1 for texts with the same words. See the module docstring."""
    words_a, words_b = words(a), words(b)
    if (words_a ^ words_b) & (marked_words(a) | marked_words(b)):
        return 0.0
    union = words_a | words_b
    if not union:
        return 1.0 if normalise(a) == normalise(b) else 0.0
    return len(words_a & words_b) / len(union)
