"""The surrogate's own reader of rules as people and models phrase them (no forge.rulebook.language.grammar, no forge.rulebook).

`PHRASINGS` were written before the reader was tuned and the reader was tuned on them; `HELD_OUT` was
written at the same time and never tuned on: its accuracy is what the reader does on unseen phrasing.
Each expectation is (kind, subject, activity, compromise, verb, target, over); verb "Decoy" is a decoy
with no service named.
"""

from __future__ import annotations

import ast
import random
from pathlib import Path

import pytest

from forge.llm.surrogate.free_text import Act, Row, read_action, read_rule
from forge.llm.surrogate.phrasing import LESSON_SIGNALS, phrase_rule

M = "$matched"

PHRASINGS = [
    ("Never restore User0.", ("never", "User0", None, None, "Restore", "User0", None)),
    ("Do not restore User0, it is the attacker's foothold", ("never", "User0", None, None, "Restore", "User0", None)),
    ("Do not waste actions on User0; it is the attacker's foothold and cannot be cleaned.",
     ("never", "User0", None, None, None, "User0", None)),
    ("Whenever a user box shows root access, reimage it", ("do", "User", None, "Privileged", "Restore", M, None)),
    ("Restore User0 whenever it shows a privileged compromise.", ("do", "User0", None, "Privileged", "Restore", "User0", None)),
    ("When User2 shows Activity Exploit, then Restore User2.", ("do", "User2", "Exploit", None, "Restore", "User2", None)),
    ("If Enterprise1 has been compromised, restore it.", ("do", "Enterprise1", None, "any", "Restore", "Enterprise1", None)),
    ("As soon as Op_Server0 shows any compromise, reimage it.", ("do", "Op_Server0", None, "any", "Restore", "Op_Server0", None)),
    ("Restore Op_Server0 as soon as it shows any compromise, because losing it ends the game.",
     ("do", "Op_Server0", None, "any", "Restore", "Op_Server0", None)),
    ("Don't bother analysing the user hosts.", ("never", "User", None, None, "Analyse", "User", None)),
    ("Stop removing Enterprise0.", ("never", "Enterprise0", None, None, "Remove", "Enterprise0", None)),
    ("Whenever an enterprise server is being exploited, evict the attacker from it.",
     ("do", "Enterprise", "Exploit", None, "Remove", M, None)),
    ("If a workstation has been scanned, inspect it.", ("do", "User", "Scan", None, "Analyse", M, None)),
    ("When the op server shows any sign of compromise, restore it immediately.",
     ("do", "Op_Server0", None, "any", "Restore", "Op_Server0", None)),
    ("Kill the processes on User3 as soon as it is exploited.", ("do", "User3", "Exploit", None, "Remove", "User3", None)),
    ("Put a decoy on Enterprise2 when it gets scanned.", ("do", "Enterprise2", "Scan", None, "Decoy", "Enterprise2", None)),
    ("Prefer restoring over removing when a user host shows privileged compromise.",
     ("prefer", "User", None, "Privileged", "Restore", M, ("Remove", M))),
    ("Restore compromised user boxes rather than removing them.", ("prefer", "User", None, "any", "Restore", M, ("Remove", M))),
    ("Never sleep while an operational host shows any activity.", ("never", "Operational", "any", None, "Sleep", None, None)),
    ("Answer with exactly one action, written as the verb followed by the hostname, and nothing else.",
     ("format", None, None, None, None, None, None)),
    ("Be careful with the servers.", ("vague", None, None, None, None, None, None)),
    ("If User1 is compromised then remove User1", ("do", "User1", None, "any", "Remove", "User1", None)),
    ("When Enterprise0 shows Compromised User, then Analyse Enterprise0.",
     ("do", "Enterprise0", None, "User", "Analyse", "Enterprise0", None)),
    ("Reimage Enterprise1 the moment it shows root access.", ("do", "Enterprise1", None, "Privileged", "Restore", "Enterprise1", None)),
    ("Whenever operational hosts show any activity, analyse them.", ("do", "Operational", "any", None, "Analyse", M, None)),
    ("When any host shows Compromised Privileged, then Restore that host.", ("do", "any", None, "Privileged", "Restore", M, None)),
    ("Once User4 is being exploited, restore it.", ("do", "User4", "Exploit", None, "Restore", "User4", None)),
    ("Don't remove Op_Server0 when it shows privileged compromise; restore it instead.",
     ("prefer", "Op_Server0", None, "Privileged", "Restore", "Op_Server0", ("Remove", "Op_Server0"))),
    ("When a User host shows any compromise, then Restore that host.", ("do", "User", None, "any", "Restore", M, None)),
    ("Do not analyse Enterprise2 if it is only being scanned.", ("never", "Enterprise2", "Scan", "No", "Analyse", "Enterprise2", None)),
    ("On any sign of compromise on Enterprise1, restore Enterprise1.", ("do", "Enterprise1", None, "any", "Restore", "Enterprise1", None)),
    ("Enterprise1 showing Activity Exploit should be restored.", ("do", "Enterprise1", "Exploit", None, "Restore", "Enterprise1", None)),
    ("Whenever User2 gets root, wipe it.", ("do", "User2", None, "Privileged", "Restore", "User2", None)),
    ("In case Enterprise0 shows user-level access, remove it.", ("do", "Enterprise0", None, "User", "Remove", "Enterprise0", None)),
    ("Always reply with exactly one `Answer:` line so that the parser can read it.", ("format", None, None, None, None, None, None)),
    ("The network is large.", ("vague", None, None, None, None, None, None)),
    ("Evict the attacker from User1 when it shows Activity Exploit.", ("do", "User1", "Exploit", None, "Remove", "User1", None)),
    ("Never ever reimage the user workstations.", ("never", "User", None, None, "Restore", "User", None)),
    ("when enterprise0 shows any compromise then restore enterprise0", ("do", "Enterprise0", None, "any", "Restore", "Enterprise0", None)),
    ("- When an Enterprise host shows Activity Exploit, then Remove that host.",
     ("do", "Enterprise", "Exploit", None, "Remove", M, None)),
]

HELD_OUT = [
    ("If Op_Host2 gets exploited, reimage it right away.", ("do", "Op_Host2", "Exploit", None, "Restore", "Op_Host2", None)),
    ("Don't restore Enterprise2 just because it was scanned.", ("never", "Enterprise2", "Scan", None, "Restore", "Enterprise2", None)),
    ("Whenever the operational server shows root access, restore it.",
     ("do", "Op_Server0", None, "Privileged", "Restore", "Op_Server0", None)),
    ("Analyse any user machine that shows activity.", ("do", "User", "any", None, "Analyse", M, None)),
    ("Avoid removing Op_Server0.", ("never", "Op_Server0", None, None, "Remove", "Op_Server0", None)),
    ("Should User3 show a privileged compromise, restore User3.", ("do", "User3", None, "Privileged", "Restore", "User3", None)),
    ("Remove User2 once it has been exploited.", ("do", "User2", "Exploit", None, "Remove", "User2", None)),
    ("When Enterprise1 is compromised, restore Enterprise1 instead of removing it.",
     ("prefer", "Enterprise1", None, "any", "Restore", "Enterprise1", ("Remove", "Enterprise1"))),
    ("Deploy a decoy on Op_Server0 when it is scanned.", ("do", "Op_Server0", "Scan", None, "Decoy", "Op_Server0", None)),
    ("Never analyse User0; the attacker always holds it.", ("never", "User0", None, None, "Analyse", "User0", None)),
    ("If an enterprise host shows privileged compromise then restore that host.",
     ("do", "Enterprise", None, "Privileged", "Restore", M, None)),
    ("Inspect Enterprise0 as soon as it shows Activity Scan.", ("do", "Enterprise0", "Scan", None, "Analyse", "Enterprise0", None)),
    ("Keep replies to a single line with no explanation.", ("format", None, None, None, None, None, None)),
    ("Whenever User1 shows any compromise, kill the attacker's processes on it.",
     ("do", "User1", None, "any", "Remove", "User1", None)),
    ("Reimage every user box that shows root access.", ("do", "User", None, "Privileged", "Restore", M, None)),
    ("Do not sleep when Op_Server0 is being exploited.", ("never", "Op_Server0", "Exploit", None, "Sleep", None, None)),
    ("Think about the attacker's goals.", ("vague", None, None, None, None, None, None)),
    ("When Enterprise2 shows Compromised Unknown, then Analyse Enterprise2.",
     ("do", "Enterprise2", None, "Unknown", "Analyse", "Enterprise2", None)),
    ("Restore the op server whenever it is breached.", ("do", "Op_Server0", None, "any", "Restore", "Op_Server0", None)),
    ("Stop analysing Enterprise1 once it shows root access; reimage it.",
     ("prefer", "Enterprise1", None, "Privileged", "Restore", "Enterprise1", ("Analyse", "Enterprise1"))),
]


def as_tuple(text: str) -> tuple:
    r = read_rule(text)
    t = r.trigger
    over = (r.over.verb, r.over.target) if r.over else None
    return (r.kind, t.subject if t else None, t.activity if t else None, t.compromise if t else None,
            r.act.verb if r.act else None, r.act.target if r.act else None, over)


@pytest.mark.parametrize("text, expected", PHRASINGS, ids=[p[0][:40] for p in PHRASINGS])
def test_the_reader_understands_rules_as_people_write_them(text, expected):
    assert as_tuple(text) == expected


def held_out_accuracy() -> float:
    return sum(as_tuple(text) == expected for text, expected in HELD_OUT) / len(HELD_OUT)


def test_held_out_phrasings_are_mostly_read_right():
    # Not tuned on: the figure is reported, the bar only guards against a collapse.
    assert held_out_accuracy() >= 0.6


def test_the_reader_reads_every_phrasing_the_reflector_writes():
    rng = random.Random(0)
    for subject in ("User1", "Enterprise0", "Op_Server0", "User", "Enterprise", "Operational"):
        for signal in LESSON_SIGNALS:
            for verb in ("Restore", "Remove", "Analyse"):
                for replaced in (None, "Remove", "Analyse"):
                    if replaced == verb:
                        continue
                    for _ in range(12):
                        text = phrase_rule(subject, signal, verb, rng, replaced=replaced)
                        reading = read_rule(text)
                        target = subject if subject.startswith(("User", "Enterprise", "Op_")) and subject[-1].isdigit() else M
                        assert reading.kind in ("do", "prefer"), text
                        assert (reading.trigger.subject, reading.trigger.activity, reading.trigger.compromise) == \
                            (subject, *signal), text
                        assert (reading.act.verb, reading.act.target) == (verb, target), text


def test_the_reflector_writes_in_several_phrasings():
    rng = random.Random(3)
    texts = {phrase_rule("User1", (None, "any"), "Restore", rng) for _ in range(60)}
    assert len(texts) >= 5
    assert any(t.startswith("When User1 shows") for t in texts)  # the grammar is one phrasing among several
    assert sum(not t.startswith("When ") for t in texts) >= 4


@pytest.mark.parametrize("text, expected", [
    ("Restore User1", "Restore User1"), ("decoyapache user2", "DecoyApache User2"), ("Decoy Apache User2", "DecoyApache User2"),
    ('Remove hostname="User1"', "Remove User1"), ("Monitor", "Monitor"), ("  sleep ", "Sleep"),
    ("Restore", None), ("Fly away", None), ("Restore User9", None), ("Sleep User1", None),
])
def test_the_surrogate_reads_actions_its_own_way(text, expected):
    assert read_action(text) == expected


def test_the_surrogate_imports_neither_the_grammar_nor_the_rulebook():
    """A stand-in that shares the product's parser grades the product with its own ruler."""
    package = Path(__file__).resolve().parents[1] / "forge" / "llm" / "surrogate"
    offenders = []
    for path in sorted(package.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else \
                [node.module or ""] + [f"{node.module}.{a.name}" for a in node.names] if isinstance(node, ast.ImportFrom) else []
            offenders += [f"{path.name}: {n}" for n in names if n == "forge.rulebook.language.grammar" or n.startswith("forge.rulebook")
                          or n == "forge.env.catalog" and isinstance(node, ast.ImportFrom)
                          and any(a.name in ("parse_action", "action_id", "ACTIONS") for a in node.names)]
    assert not offenders, offenders


# -- how reflections and operators phrase things (issue 18): written for the reader's general habits, not
# taken from any benchmark split. Each case: the text and what the compiler role answers for it.

def compiled(text: str, phases: tuple[str, ...] = ()) -> dict:
    from forge.llm.surrogate.compiler_role import _entry

    entry = _entry(1, "rule", "action_chooser", text, phases)
    return {key: entry.get(key) for key in ("when", "action", "unexpressed")}


NOT_QUIET = {"not": {"any": [{"class": "any", "activity": "any"}, {"class": "any", "compromise": "any"}]}}
GENERAL = [
    # a report first, the order after it: the order is the rule
    ("We lost two steps reimaging Enterprise1 for nothing. If Enterprise1 is not compromised, never reimage it.",
     {"when": {"host": "Enterprise1", "compromise": "No"}, "action": {"mode": "never", "verb": "Restore", "target": "Enterprise1"},
      "unexpressed": ""}),
    ("Removing User3 did nothing against root. Once User3 has root access, restore it.",
     {"when": {"host": "User3", "compromise": "Privileged"}, "action": {"mode": "do", "verb": "Restore", "target": "User3"}, "unexpressed": ""}),
    # "it" with no host named: the host the rule matches
    ("A host that is being exploited should be isolated quickly: remove the attacker from it.",
     {"when": {"class": "any", "activity": "Exploit"}, "action": {"mode": "do", "verb": "Remove", "target": "$matched"}, "unexpressed": ""}),
    # negation scope: "unless", "no ... is", "shows no ..."
    ("Unless Op_Host1 is compromised, do not remove anything from it.",
     {"when": {"all": [{"host": "Op_Host1"}, {"not": {"host": "Op_Host1", "compromise": "any"}}]},
      "action": {"mode": "never", "verb": "Remove", "target": "Op_Host1"},
      "unexpressed": ""}),
    ("As long as no User host is compromised, put a decoy on any Enterprise host that gets scanned.",
     {"when": {"all": [{"class": "Enterprise", "activity": "Scan"}, {"not": {"class": "User", "compromise": "any"}}]},
      "action": {"mode": "do", "verb": "DecoyApache", "target": "$matched"}, "unexpressed": ""}),
    ("Never analyse User2 while it shows no exploit.",
     {"when": {"all": [{"host": "User2"}, {"not": {"host": "User2", "activity": "Exploit"}}]},
      "action": {"mode": "never", "verb": "Analyse", "target": "User2"},
      "unexpressed": ""}),
    # two subjects, the second elliptical
    ("When Op_Server0 is scanned while an Enterprise host is too, analyse Op_Server0.",
     {"when": {"all": [{"host": "Op_Server0", "activity": "Scan"}, {"class": "Enterprise", "activity": "Scan"}]},
      "action": {"mode": "do", "verb": "Analyse", "target": "Op_Server0"}, "unexpressed": ""}),
    # plans and relative targets
    ("If Enterprise1 gets exploited, evict the attacker and then inspect its neighbours.",
     {"when": {"host": "Enterprise1", "activity": "Exploit"},
      "action": {"mode": "do", "verb": "Remove", "target": "Enterprise1", "then": [{"verb": "Analyse", "target": "$subnet"}]},
      "unexpressed": ""}),
    ("Whenever a workstation is compromised, reimage it, then put a honeypot on the next subnet.",
     {"when": {"class": "User", "compromise": "any"},
      "action": {"mode": "do", "verb": "Restore", "target": "$matched", "then": [{"verb": "DecoyApache", "target": "$next_subnet"}]},
      "unexpressed": ""}),
    # a condition stated after a dash, a pre-emptive order
    ("Restore Op_Host2 - do it as soon as it shows root access",
     {"when": {"host": "Op_Host2", "compromise": "Privileged"}, "action": {"mode": "do", "verb": "Restore", "target": "Op_Host2"},
      "unexpressed": ""}),
    ("DecoyTomcat User4, pre-emptively",
     {"when": NOT_QUIET, "action": {"mode": "do", "verb": "DecoyTomcat", "target": "User4"}, "unexpressed": ""}),
    # history: what the table cannot show is listed, not dropped
    ("If Enterprise0 is compromised again after a Restore, remove the attacker from it.",
     {"when": {"host": "Enterprise0", "compromise": "any"}, "action": {"mode": "do", "verb": "Remove", "target": "Enterprise0"},
      "unexpressed": "after a restore again"}),
]


@pytest.mark.parametrize("text, expected", GENERAL, ids=[g[0][:40] for g in GENERAL])
def test_the_compiler_role_reads_reflections_and_operator_notes_as_people_write_them(text, expected):
    assert compiled(text) == expected


def test_phase_words_become_the_contracts_phase_atoms_only_when_the_prompt_offers_them():
    text = "During privilege escalation, reimage the host that got root."
    assert compiled(text, ("reconnaissance", "privilege_escalation"))["when"] == {"phase": "privilege_escalation"}
    assert compiled(text)["when"] == {"class": "any", "compromise": "Privileged"}  # not offered: the plain atom
    named = compiled("When exploitation starts on an operational host, remove the attacker from it.", ("exploitation",))
    assert named["when"] == {"class": "Operational", "activity": "Exploit"}  # a named subject is more specific than a phase


def test_the_surrogate_reads_the_phases_its_contract_offers():
    from forge.llm.surrogate.compiler_role import offered_phases
    from forge.llm.types import Message

    system = 'Attack phases (use {"phase": NAME}): {"phase": "reconnaissance"} = {...}; {"phase": "impact"} = {...}'
    assert offered_phases([Message("system", system), Message("user", "[1] rule for planner, taught by a/b")]) == \
        ("reconnaissance", "impact")


def test_a_plan_the_reader_makes_out_is_followed_by_its_first_move_on_the_matched_host():
    reading = read_rule("When a user box is exploited, remove the attacker, then decoy the next hop.")
    rows = [Row("User2", "Exploit", "User")]
    assert reading.prescribes(rows) == ["Remove User2"]
    assert [(m.verb, m.target) for m in reading.then] == [("Decoy", "$next_subnet")]
    assert Act("Analyse", "$next_subnet").covers("Analyse", "Enterprise1", "User2")
    assert not Act("Analyse", "$subnet").covers("Analyse", "User2", "User2")  # the rest of the subnet, not the host


def test_history_becomes_the_contracts_history_atoms_only_when_the_prompt_offers_them():
    from forge.llm.surrogate.compiler_role import _entry, offered_history
    from forge.llm.types import Message

    offered = ("newly_compromised", "unchanged_for", "acted", "scan_before_exploit")
    cases = [
        ("If User3 is still compromised after a Remove, reimage it.",
         {"host": "User3", "compromise": "any", "acted": "Remove", "within": 3, "changed": False}, "still compromised after a remove"),
        ("Never inspect a machine you already inspected within the last three steps.",
         {"class": "any", "acted": "Analyse", "within": 3}, "already inspected within the last three steps you"),
        ("When an Enterprise host was scanned and then exploited, restore it.",
         {"class": "Enterprise", "activity": "Exploit", "scan_before_exploit": True}, "scanned and then exploited"),
        ("Once Op_Host1's compromise has been unchanged for 4 steps, restore it.",
         {"host": "Op_Host1", "compromise": "any", "unchanged_for": 4}, "unchanged for 4 steps"),
    ]
    for text, atom, unread in cases:
        entry = _entry(1, "rule", "planner", text, (), offered)
        assert (entry["when"], entry["unexpressed"]) == (atom, ""), text
        plain = _entry(1, "rule", "planner", text)  # not offered: the table's part, and the rest listed
        assert "acted" not in plain["when"] and "unchanged_for" not in plain["when"], text
        assert plain["unexpressed"] == unread, text
    system = 'History atoms: {"class": "any", "newly_compromised": true} ... {"class": "any", "acted": "Remove", "within": 2}'
    assert offered_history([Message("system", system)]) == ("newly_compromised", "acted")
