"""How the surrogate, as Reflector, words a rule: a seeded choice among several natural phrasings.

The grammar `When X shows Y, then Z.` is one phrasing among several, so every session sends free text
through the learners, the memory and the rulebook. Every phrasing here is one the surrogate's own
reader (`free_text.read_rule`) reads back to the same rule; a test holds it to that.
"""

from __future__ import annotations

import random
from typing import Optional

from forge.env.catalog import HOSTS

Signal = tuple[Optional[str], Optional[str]]  # (activity, compromise)

# The signals a lesson is drawn from (see behaviour._lessons), plus the finer ones a model may name.
LESSON_SIGNALS: tuple[Signal, ...] = ((None, "any"), ("Exploit", None), (None, "Privileged"), (None, "User"), ("Scan", None))

_CLASS_NOUNS = {
    "User": ("a user host", "a user box", "a workstation", "a User host"),
    "Enterprise": ("an enterprise server", "an Enterprise host", "an enterprise machine"),
    "Operational": ("an operational host", "an Operational host"),
    "any": ("any host", "a host"),
}
_GRAMMAR_CLASS = {"User": "a User host", "Enterprise": "an Enterprise host", "Operational": "an Operational host",
                  "any": "any host"}
# (after "shows", as a state after the subject)
_SIGNAL_WORDS: dict[Signal, tuple[tuple[str, ...], tuple[str, ...]]] = {
    (None, "any"): (("any compromise", "any sign of compromise"), ("is compromised", "has been compromised")),
    ("Exploit", None): (("Activity Exploit", "an exploit"), ("is being exploited", "gets exploited")),
    (None, "Privileged"): (("Compromised Privileged", "root access", "a privileged compromise"), ("gets root", "has root access")),
    (None, "User"): (("Compromised User", "user-level access"), ("has user-level access",)),
    ("Scan", None): (("Activity Scan", "a scan"), ("is being scanned", "gets scanned")),
}
_GRAMMAR_SIGNAL = {(None, "any"): "any compromise", ("Exploit", None): "Activity Exploit",
                   (None, "Privileged"): "Compromised Privileged", (None, "User"): "Compromised User",
                   ("Scan", None): "Activity Scan", (None, "Unknown"): "Compromised Unknown",
                   ("any", None): "any activity"}
# (imperative taking the host as object, object after: "{phrase} {host}")
_VERB_WORDS = {
    "Restore": ("restore", "reimage", "rebuild"),
    "Remove": ("remove", "evict the attacker from", "kill the attacker's processes on"),
    "Analyse": ("analyse", "inspect", "investigate"),
}
_GERUND = {"Restore": "restoring", "Remove": "removing", "Analyse": "analysing"}


def in_grammar(subject: str, signal: Signal, verb: str, target: Optional[str]) -> str:
    """`When <subject> shows <signal>, then <Verb> <target>.`; target None: "that host" (or none for Sleep/Monitor)."""
    who = subject if subject in HOSTS else _GRAMMAR_CLASS[subject]
    if verb in ("Sleep", "Monitor"):
        return f"When {who} shows {_GRAMMAR_SIGNAL[signal]}, then {verb}."
    return f"When {who} shows {_GRAMMAR_SIGNAL[signal]}, then {verb} {target or 'that host'}."


def _subject(subject: str, rng: random.Random) -> str:
    return subject if subject in HOSTS else rng.choice(_CLASS_NOUNS[subject])


def phrase_rule(subject: str, signal: Signal, verb: str, rng: random.Random, *, replaced: Optional[str] = None,
                varied: bool = True) -> str:
    """One rule: when `subject` (a host or class) shows `signal`, do `verb` to it.

    `replaced`: the verb of an earlier rule for the same situation that was followed and still failed;
    then the rule may say so ("... instead of removing it")."""
    host = subject in HOSTS
    if not varied:
        return in_grammar(subject, signal, verb, subject if host else None)
    shows = rng.choice(_SIGNAL_WORDS[signal][0])
    state = rng.choice(_SIGNAL_WORDS[signal][1])
    says = rng.choice(_VERB_WORDS[verb])
    who = _subject(subject, rng)
    if replaced and replaced in _GERUND and rng.random() < 0.5:
        return f"Whenever {who} {state}, {says} it instead of {_GERUND[replaced]} it."
    templates = [
        lambda: in_grammar(subject, signal, verb, subject if host else None),
        lambda: f"Whenever {who} {state}, {says} it.",
        lambda: f"If {who} {state}, {says} it right away.",
        lambda: f"As soon as {who} shows {shows}, {says} it.",
        lambda: f"Whenever {who} {state}, {says} it; otherwise the attacker keeps moving from there.",
        lambda: (f"{says[0].upper() + says[1:]} {subject} as soon as it shows {shows}." if host
                 else f"When {who} shows {shows}, {says} that host."),
    ]
    return rng.choice(templates)()
