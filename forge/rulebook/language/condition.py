"""What a rule's free-text condition needs a decision context to state before it can be judged. Pure.

A semantic rule (no predicate) and a guarded rule's unexpressed rest are judged by cosine to the
context, and on CAGE-2 every context looks alike to a sentence encoder: a rule about "alerts that
persist across repeated Analyse actions" scores as well on a single step's alerts as anywhere. The gate
is three-valued (predicate.py): a condition about something the context does not state is *unknown*,
and a rule fires only on *true*. For free text this module supplies the unknown side: the kinds of fact
a condition speaks of (`FACTS`), and whether a context states each kind at all. A condition that needs
a kind the context does not state is unknown there, whatever its cosine.

The condition of a text is its stated condition clauses ("when ...", "if ..."), or, when it states none,
its last sentence (the rule after the reflection's narrative): the narrative ("my Restore failed") says
why the rule was written, not when it applies.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Callable

from forge.rulebook.language.situation import Situation

_CLAUSE = re.compile(r"\b(?:when|whenever|if|while|once|as soon as|as long as|unless|during|until)\b[^,;:.]*", re.IGNORECASE)
_SENTENCES = re.compile(r"(?<=[.!?])\s+")
_NUMBER = r"(?:\d+|two|three|four|five|six|several|many|a few|consecutive)"
_VERBS = r"(?:remov\w*|restor\w*|analy[sz]\w*|decoy\w*|monitor\w*|deploy\w*|block\w*|action|it was \w+)"


@dataclass(frozen=True)
class Fact:
    """A kind of fact a condition may speak of, and how a context shows that it states it."""

    name: str
    spoken: re.Pattern  # the condition speaks of it
    stated: Callable[[str, Situation], bool]  # the context states it


def _history_stated(text: str, situation: Situation) -> bool:
    return situation.history is not None


def _words(pattern: str) -> Callable[[str, Situation], bool]:
    compiled = re.compile(pattern, re.IGNORECASE)
    return lambda text, situation: bool(compiled.search(text))


def _rewards_stated(text: str, situation: Situation) -> bool:
    history = situation.history
    return bool(history and history.actions and any(a.reward is not None for a in history.actions)) \
        or bool(re.search(r"\breward\b[^\n]*\d", text, re.IGNORECASE))


FACTS: tuple[Fact, ...] = (
    # The defender's earlier steps: what it did and how hosts changed (the context's history lines).
    Fact("history", re.compile(
        r"\b(?:still|again|already|previously|earlier|no longer|anymore|in a row|twice|thrice|repeated\w*|"
        r"persist\w*|stay(?:s|ed)|remain(?:s|ed)|unchanged|(?:has|have|had)(?: not|n't) changed|newly|"
        r"recently|(?:last|previous|prior|earlier) (?:step|turn|action|move|decision)s?|step before|the last time|"
        rf"(?:last|past|previous|{_NUMBER}) {_NUMBER}? ?(?:steps|turns)|for {_NUMBER} (?:more )?(?:steps|turns)|"
        rf"before (?:it|that|the|an?) ?(?:was |were |showed |shows |got )?\w*|then (?:on the )?next|"
        rf"after (?:(?:i|we|you|the defender|my|our|an?|the|it)\s+)?{_VERBS}|since (?:the|step|it))\b",
        re.IGNORECASE), _history_stated),
    # Rewards and their changes: stated by the defender's `Recent steps:` line (`-> reward -1.1`).
    Fact("reward", re.compile(r"\b(?:reward|score|penalt\w*|points?)\b", re.IGNORECASE), _rewards_stated),
    # Whether an action succeeded: CAGE-2's blue table does not say; a context must state it in words.
    Fact("action outcome", re.compile(
        r"\b(?:fail\w*|succe\w*|unsuccessful|did not work|didn't work|had no effect|was rejected|errored)\b",
        re.IGNORECASE), _words(r"\b(?:fail\w*|succe\w*|unsuccessful)\b")),
    # Alert priority or severity: not a column of the blue table.
    Fact("priority", re.compile(r"\b(?:priority|priorities|severity|critical|high[- ]risk|low[- ]risk)\b", re.IGNORECASE),
         _words(r"\b(?:priority|severity|critical)\b")),
    # The green (benign user) agent and network traffic: the defender's table shows neither.
    Fact("traffic", re.compile(r"\b(?:green|traffic|benign|bandwidth|packets?|flows?|connections? (?:rate|volume))\b",
                               re.IGNORECASE), _words(r"\b(?:green|traffic|packets?|connections?)\b")),
)


def condition_of(text: str) -> str:
    """The part of a rule's text that says when it applies (see the module docstring)."""
    body = " ".join((text or "").split())
    clauses = [m.group(0).strip() for m in _CLAUSE.finditer(body)]
    if clauses:
        return "; ".join(clauses)
    sentences = [s for s in _SENTENCES.split(body) if s.strip()]
    return sentences[-1] if sentences else body


def facts_needed(condition: str) -> frozenset[str]:
    """The kinds of fact (FACTS names) a condition speaks of."""
    return frozenset(f.name for f in FACTS if f.spoken.search(condition or ""))


def facts_stated(text: str, situation: Situation) -> frozenset[str]:
    """The kinds of fact a decision context states."""
    return frozenset(f.name for f in FACTS if f.stated(text or "", situation))
