"""Attack phases as the defender sees them: the one mapping the compiler's contract and the gate share.

A model's reflection names phases ("during reconnaissance", "once the attacker escalates"), not table
values. Each phase here is what the blue table, and the defender's history of it, can show; the predicate
language accepts `{"phase": NAME}` and reads it as this predicate (predicate.py), and the compiler prompt
lists the same mapping (compile.py renders it into forge/rulebook/authoring/compiler_prompt.md). The README's rulebook
section prints it in words.

What an Analyse result can show (CybORG's BlueTableWrapper, the table the defender reads): Analyse lists
a host's files; a malware file (density >= 0.9) turns the host's Compromised value to Privileged. That is
all it can show: no Activity, nothing of a user-level compromise, and a host with nothing found keeps
its row (no finding is not a clean bill). Remove turns a compromised row to Unknown (the table cannot tell
whether it worked), Restore turns it to No. So "the analysis confirmed escalation" is Compromised
Privileged newly shown after an Analyse of that host (`escalation_confirmed`), a phase of history.

Phases of history (lateral movement, escalation_confirmed) need the context's history lines; on a
context without them they are unknown, so a rule on them is silent there.
"""

from __future__ import annotations

import json
import re

from forge.env.catalog import HOST_CLASSES

ANALYSE_SHOWS = ("an Analyse of a host can show malware (Compromised turns Privileged: escalation confirmed); "
                 "it shows no Activity and nothing of a user-level compromise, and finding nothing leaves the row as it was")


def _lateral_movement() -> dict:
    """A host newly compromised while a host of another subnet (CAGE-2's host classes) already is."""
    return {"any": [{"all": [{"class": subnet, "newly_compromised": True},
                             {"any": [{"class": other, "compromise": "any", "newly_compromised": False}
                                      for other in HOST_CLASSES if other != subnet]}]}
                    for subnet in HOST_CLASSES]}


PHASES: dict[str, dict] = {
    "reconnaissance": {"class": "any", "activity": "Scan"},
    "exploitation": {"any": [{"class": "any", "activity": "Exploit"}, {"class": "any", "compromise": "User"}]},
    "privilege_escalation": {"class": "any", "compromise": "Privileged"},
    "escalation_confirmed": {"class": "any", "compromise": "Privileged", "acted": "Analyse", "within": 1, "changed": True},
    "lateral_movement": _lateral_movement(),
    "impact": {"host": "Op_Server0", "compromise": "any"},
}
ALIASES = {"recon": "reconnaissance", "initial_access": "exploitation", "escalation": "privilege_escalation",
           "lateral": "lateral_movement", "analysis_confirmed_escalation": "escalation_confirmed"}
# How texts name the phases (the product's reading of a condition: claims.claims; most specific first).
NAMED_BY = (
    ("escalation_confirmed", re.compile(r"\b(?:analys[ie]s|analy[sz]ed?)\b[^.;]{0,40}\bconfirm\w*\b[^.;]{0,20}\bescalat", re.I)),
    # (r42h: also in a note's shorthand, "lateral movt", and said by its definition, "a box newly owned while one in another
    # subnet is held": unnamed, the reading kept only "newly compromised", and a rule on it fired on any fresh foothold)
    ("lateral_movement", re.compile(r"\blateral(?:ly)?\s+(?:movement|movt|mvmt|mvt|move\w*|spread\w*)\b|\bmov\w+\s+laterally\b|"
                                    r"\bnewly\s+(?:compromised|owned|exploited|hit|popped|breached|infected|taken)\b[^.;]{0,80}?"
                                    r"\b(?:another|a\s+different|an?\s+other)\s+subnet\b", re.I)),
    ("privilege_escalation", re.compile(r"\bprivilege\s+escalation\b|\bescalation\s+phase\b|\bescalat\w*\s+(?:its\s+|their\s+)?"
                                        r"privileges?\b", re.I)),
    ("impact", re.compile(r"\bimpact\s+(?:phase|stage)\b|\b(?:in|during|at|reaches?|reached)\s+(?:the\s+)?impact\b", re.I)),
    ("exploitation", re.compile(r"\bexploitation\s+(?:phase|stage|begins|starts|under\s+way)\b|\binitial\s+access\b|"
                                r"\b(?:during|in)\s+(?:the\s+)?exploitation\b", re.I)),
    ("reconnaissance", re.compile(r"\brecon(?:naissance)?\b|\b(?:discovery|scanning)\s+(?:phase|stage)\b", re.I)),
)
WORDS = {
    "reconnaissance": "some host shows Activity Scan",
    "exploitation": "some host shows Activity Exploit or Compromised User",
    "privilege_escalation": "some host shows Compromised Privileged",
    "escalation_confirmed": "a host turned Compromised Privileged right after the defender analysed it (history)",
    "lateral_movement": "a host newly compromised while a host of another subnet already is (history)",
    "impact": "Op_Server0 shows any compromise",
}


def phase_predicate(name: str) -> dict:
    """The predicate JSON of phase `name`; ValueError naming the phases for anything else."""
    folded = name.strip().lower().replace(" ", "_").replace("-", "_")
    key = ALIASES.get(folded, folded)
    if key in PHASES:
        return PHASES[key]
    raise ValueError(f"phase {name!r:.40} is unknown (phases: {', '.join(PHASES)})")


def phase_lines() -> str:
    """The mapping in the compiler prompt's words (with its predicate where that is short)."""
    lines = []
    for name, predicate in PHASES.items():
        form = json.dumps(predicate)
        lines.append(f'{{"phase": "{name}"}}: {WORDS[name]}' + (f" = {form}" if len(form) <= 120 else ""))
    return "; ".join(lines) + f". What Analyse can show: {ANALYSE_SHOWS}"


def phase_named(text: str):
    """The phase a text names ("reconnaissance under way", "during initial access"), or None."""
    return next((name for name, words in NAMED_BY if words.search(text or "")), None)



# (r54l) A phase of the episode named by its place in time, which no phase here defines and no predicate can ask: "in the
# early phase", "the late stage of the run", "during the opening part of the game", "endgame". Dropped, the rule held in
# every phase, wider than its words: a predicate must leave it to the gate (its `unexpressed` rest), or the rule stays
# semantic.
_PHASE_UNKNOWN = re.compile(r"\b(?:early|earlier|late|later|middle|mid|opening|closing|final|initial|first|last|second|third|end|"
                            r"beginning|starting|quiet|calm|busy|hot|heavy)[\s-]+(?:phase|stage|part\s+of\s+(?:the|an|this)\s+"
                            r"(?:episode|game|run|match|attack))s?\b|\b(?:early|late)[\s-]+(?:in|on)\s+(?:the|an|this)\s+"
                            r"(?:episode|game|run|match)\b|\b(?:early|late|end)[\s-]?game\b|"
                            # (r61h) and the time said with no noun: "early on", "late on", "in the opening", "at the outset",
                            # "at the start" (not "early on Enterprise0", a move made promptly on a host; nor "at the start of
                            # each step"; nor "the opening 4 steps", a window the episode readers count): read as nothing, a
                            # ban "early on" held at every step of the episode
                            r"\b(?:early|late)\s+on\b(?!\s+(?:a|an|the|any|every|each|this|that|its?|their|our|user|users|"
                            r"enterprise|op|ops|operational|def|defender|[a-z_]+\d+)\b)|\b(?:in|during)\s+the\s+opening\b(?!\s+(?:of|\d+|one|two|three|four|five|six|seven|eight|nine|ten|few|couple)\b)|"
                            r"\bat\s+the\s+(?:outset|start|beginning)\b(?!\s+of\s+(?!(?:the|an|this)\s+(?:episode|game|run|match)\b))",
                            re.IGNORECASE)


def unknown_phase_named(text: str):
    """(r54l) The words by which a text names a phase of the episode no phase here defines (`_PHASE_UNKNOWN`), or None."""
    found = _PHASE_UNKNOWN.search(text or "")
    return found.group(0) if found else None
