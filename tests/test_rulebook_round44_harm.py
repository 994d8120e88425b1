"""Issue 29, round 44 (r44h: harm on blind-41, each class a reading wider than the rule's own words).
- the defender's own move said in the present after "after" ("right after you restore X, ...", "just after I remove X I
  ...") was no condition: its clause was lost and the rule held at any step its state did (`markers.DEFENDER_MOVED`; the
  teacher's move after it opens the main clause, `markers._first_person_move`); and "it" in the next condition, after a
  host of a class, is that same host (`scope._same_class_host_again`), its "it still shows" the state now;
- a verdict on a move before a colon ("Not a job for Remove: <situation>.") hid the situation after it, and "our own
  Remove of it" (or "my Restore of it" in an opening) was no move of the defender: the order held in every state
  (`instruction.instruction_of`, `instruction._MOVE_SINCE`, `history_words._ACTED`);
- "somewhere" was a word no reading placed, so "a scan somewhere while no host anywhere is owned" was read in part, and
  its denial of any compromise was passed where no other host was shown (`scope._PLACED`);
- a case the note says it does not cover ("If <host> is at root already, this advice does not cover it") was dropped as
  a closing case, not denied: the rule fired in it (`scope._cases_not_applied`);
- "<host> still shows nothing" was read as the state now alone: the rule fired on a host the context says changed since
  the last step (`judged.StillQuiet`).
Each test fails on the product files of 6d6534f (checked: this file run in a `git archive 6d6534f` tree), but the guards
(what the change must keep). Sentences of our own, none from a case file."""

from __future__ import annotations

import json
from typing import Optional

from forge.rulebook.authoring.checks import text_problem
from forge.rulebook.language.condition import condition_of
from forge.rulebook.language.guard import complete_claims
from forge.rulebook.language.rule_claims import rule_claims
from tests.situations import alert_lines, every_host_alert_lines, refused_rule_holds
from tests.actions import do

PLANNER = ("planner",)


def _with_history(moves: list[tuple[str, Optional[str]]], past: dict[str, list[str]], **now: str) -> str:
    """A chooser's context: the recent `moves` (verb, host), each host's `past` rows over those steps, the alerts `now`."""
    first = 12 - len(moves)
    steps = " | ".join(f"step {first + i}: {verb}{' ' + host if host else ''} -> reward -{i + 1}.0"
                       for i, (verb, host) in enumerate(moves))
    rows = "; ".join(f"{host}: " + ", ".join(f"step {first + i} {row}" for i, row in enumerate(rows)) for host, rows in past.items())
    label = "Recent steps"
    rest = "None/No"  # (every host the history names no row of)
    return f"{label}: {steps}\nHost history (last {len(moves)} steps): {rows}; every other host: {rest}\n\n" + alert_lines(**now)


def _history(host: str, verb: str, last: str) -> str:
    """The last recorded move is `verb` on `host`, the host now at `last` ("Activity/Compromised")."""
    return _with_history([("Sleep", None), (verb, host)], {host: ["None/User", "None/User"]}, **{host: last})


# -- the defender's move in the present, after "after" -------------------------------------------------------------------

def test_a_move_said_in_the_present_after_after_is_a_condition_on_history():
    text = "Just after you restore User3, while its row reads Unknown, run an Analyse on User3 first."
    assert "restore User3" in condition_of(text)
    assert refused_rule_holds(text, alert_lines(User3="None/Unknown")) is not True  # no history: unknown
    assert refused_rule_holds(text, _history("User3", "Restore", "None/Unknown")) is True
    assert refused_rule_holds(text, _history("User3", "Analyse", "None/Unknown")) is False


def test_the_teachers_move_after_that_condition_opens_the_order():
    text = "My habit from now on: right after I remove User4 I analyse User4."
    assert condition_of(text) == "Right after I remove User4"
    assert text_problem(text, {"host": "User4"}, do("Analyse", "User4")) is not None


def test_it_after_a_move_on_a_class_host_is_that_same_host():
    # the host removed is the one that must still be owned, not any other host of the class
    text = "Just after you remove a user box, when it still shows any compromise, skip another Remove and Restore it."
    for two, expected in (("Unknown", False), ("User", True)):
        context = _with_history([("Sleep", None), ("Remove", "User2")], {"User2": ["None/User"] * 2, "User3": ["None/User"] * 2},
                                User2=f"None/{two}", User3="None/User")
        assert refused_rule_holds(text, context) is expected


def test_guard_the_move_told_in_the_past_reads_as_before():
    text = "Right after we restored User3, while its row reads Unknown, run an Analyse on User3 first."
    assert refused_rule_holds(text, _history("User3", "Restore", "None/Unknown")) is True


# -- a verdict on a move before the situation; "our own" move ------------------------------------------------------------

def test_a_verdict_on_a_move_before_a_colon_leaves_the_situation_after_it():
    text = "This is not the time for Remove: Enterprise1 at Unknown just after our own Restore of it. Analyse Enterprise1 and wait."
    assert "Enterprise1 at Unknown" in condition_of(text)
    assert text_problem(text, {"host": "Enterprise1"}, do("Analyse", "Enterprise1")) is not None
    assert refused_rule_holds(text, alert_lines(Enterprise1="Exploit/User")) is False
    assert refused_rule_holds(text, _history("Enterprise1", "Restore", "None/Unknown")) is True


def test_the_defenders_move_told_as_the_time_of_the_state_is_no_story():
    text = "This is not the time for Remove: Enterprise1 at Unknown just after we restored it. Analyse Enterprise1 and wait."
    assert refused_rule_holds(text, alert_lines(Enterprise1="Exploit/User")) is False
    assert refused_rule_holds(text, _history("Enterprise1", "Restore", "None/Unknown")) is True


def test_the_defenders_move_by_its_noun_in_an_opening_is_no_teachers_view():
    text = "Enterprise1 at Unknown just after my Restore of it: analyse Enterprise1 and wait."
    assert refused_rule_holds(text, alert_lines(Enterprise1="Exploit/User")) is False
    assert refused_rule_holds(text, alert_lines(Enterprise1="None/Unknown")) is not True  # no history: unknown


# -- "somewhere" ---------------------------------------------------------------------------------------------------------

def test_somewhere_is_some_host_and_the_denial_beside_it_is_read_whole():
    text = "a scan somewhere while no host anywhere is owned -> put a DecoyTomcat on the scanned box"
    assert complete_claims(text, rule_claims(text, with_instruction=True))
    problem = text_problem(text, {"activity": "Scan", "compromise": "No"}, do("DecoyTomcat", "$matched"))
    assert problem is not None and problem.startswith("claims:")
    # one scanned host shown, the rest of the network not: no host owned anywhere is not known
    assert refused_rule_holds(text, alert_lines(User2="Scan/No")) is not True
    assert refused_rule_holds(text, every_host_alert_lines(User2="Scan/No")) is True
    assert refused_rule_holds(text, every_host_alert_lines(User2="Scan/No", Enterprise0="None/User")) is False


# -- a case the note is not for ------------------------------------------------------------------------------------------

def test_a_case_the_note_says_it_is_not_for_is_denied():
    text = ("Once User4 is under exploit, Remove User4 at once and keep the Analyse for later. If User4 is already at "
            "root, this advice does not cover it.")
    assert refused_rule_holds(text, alert_lines(User4="Exploit/Privileged")) is False
    assert refused_rule_holds(text, alert_lines(User4="Exploit/User")) is True
    problem = text_problem(text, {"host": "User4", "activity": "Exploit"}, do("Remove", "User4"))
    assert problem is not None


def test_guard_a_closing_case_that_cannot_hold_with_the_order_adds_nothing():
    # "if it is quiet, this list says nothing": quiet is no exploit, so the claims are the exploit alone
    text = "If User4 is under exploit, pull it with a Remove; if it is quiet, this list says nothing."
    assert refused_rule_holds(text, alert_lines(User4="Exploit/User")) is True


# -- a host still quiet --------------------------------------------------------------------------------------------------

def _teach(book, text: str, roles: tuple[str, ...], entry: dict) -> str:
    from forge.memory.model import Provenance
    from forge.rulebook.authoring.compile import RuleCompiler
    from forge.rulebook.authoring.teaching import Correction, teach_text
    from tests.test_rulebook_compile import ScriptedClient

    answer = json.dumps({"rules": [{"item": 1, "verdict": "RULE", "type": "CONTENT", "directive": text, "roles": list(roles),
                                    "trigger": "", "unexpressed": "", **entry}]})
    (rule_id,) = teach_text(book, RuleCompiler(ScriptedClient(answer, answer)),
                            [Correction(text, roles[0], "user:ivo", "ivo")], provenance=Provenance()).rule_ids
    return rule_id


def test_a_host_still_quiet_is_not_one_that_changed_since_the_last_step(tmp_path):
    from forge.rulebook.book import Rulebook
    from forge.rulebook.injection import RulebookInjection
    from forge.rulebook.retrieval.retrieve import RetrievalSettings
    from forge.rulebook.store.backends import open_rulebook

    book = Rulebook(open_rulebook(str(tmp_path / "rb.db")))
    text = "While some user box is owned and Enterprise0 still shows nothing at all, a DecoyTomcat goes on Enterprise0."
    owned = {"class": "User", "compromise": "any"}
    quiet = dict(compromise="No", host="Enterprise0", activity="None")
    rule = _teach(book, text, PLANNER, {"when": {"all": [owned, quiet]}, "action": do("DecoyTomcat", "Enterprise0")})
    assert book.heads()[rule].record.when is not None  # kept as compiled: the gate is what this test is about

    def injected(context: str) -> set[str]:
        injection = RulebookInjection(book, RetrievalSettings(), window=0, embedder=book.embedder)
        return {i.id.split("@")[0] for i in injection.for_call(PLANNER[0], context).items}

    def stepped(*changed: str) -> str:
        said = ", ".join(f"{host} (Activity {row.split('/')[0]}, Compromised {row.split('/')[1]})"
                         for host, row in (c.split("=") for c in changed))
        observed = "Observation from get_updated_hosts()"
        when = "last"  # (the changed-hosts line, as the environment writes it)
        return f"Step 14 of 30.\n{observed}: Hosts changed since the {when} step: {said}\n" + every_host_alert_lines(User2="None/User")

    assert injected(stepped("Enterprise0=None/No")) == set()
    assert injected(stepped("User2=None/User", "Enterprise0=None/No")) == set()
    # another host changed, not Enterprise0; or nothing said of a change: the state now decides
    assert injected(stepped("User2=None/User")) == {rule}
    assert injected(every_host_alert_lines(User2="None/User")) == {rule}
