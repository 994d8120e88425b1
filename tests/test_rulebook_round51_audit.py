"""Issue 29, round 51 (r51a): an audit of the round's new readings for over-breadth, a reading that says more than the
words. Each class is a place where a reader added this round (or an older one beside it) let a rule hold where its
text says it does not, or let a compilation pass that does:
- what a rule leaves to another provision ends at its clause: the rule's own condition after a comma stays
  (forms._PROVIDED_ELSEWHERE);
- "except when <case> (<host> ...)" excepts a case, not the host its bracket names (forms._EXCEPTED_IDENTIFIED);
- a foreign "except" before its "if"/"when" ("sauf quand", "außer wenn") is "unless" (forms._FOREIGN_UNLESS);
- a question of what to do whose answer says the writer does not know gives no order (forms._ANSWER_GIVEN);
- a quoted note, then an exception to it that names no move: the quotation is still the order
  (wording._quoted_note_away);
- "anything but <host>" leaves that host out, as "all but <host>" does (instruction.EXCEPTED_ALONE);
- a list of cases "<situation> -> <order>": a compilation is held to one case, never one case's situation with
  another's order (condition.arrow_cases, checks.text_problem);
- a lesson after a story that says itself when it holds (a window of steps, a time): the story's state and that time
  together are its situation, never the story's state alone (condition.semantic_claims, _lesson_says_when);
- an omission switched off as a setting ("skip restore = no") bans nothing (forbidding._SET_OFF_AFTER).
Each test fails on the product files of 9275d43 (checked: this file run in a `git archive 9275d43` tree), and on
91cc4f7 where the class is older than the round (see the report). Sentences of our own, none from a case file."""

from __future__ import annotations

from forge.rulebook.authoring.checks import text_problem
from forge.rulebook.language.condition import semantic_claims
from forge.rulebook.language.forms import written_out
from forge.rulebook.language.predicate import describe
from forge.rulebook.language.wording import read_wording
from tests.actions import do
from tests.situations import REFUSED, refused_rule_holds_on


def test_a_provision_left_elsewhere_ends_at_its_clause() -> None:
    text = "Plan a Restore of each op box, save as laid down in section 5, once Op_Host2 reads Compromised Privileged."
    assert "once Op_Host2 reads Compromised Privileged" in written_out(text)
    # the rule's own condition is still asked of a compilation
    assert text_problem(text, {"class": "Operational"}, do("Restore")) is not None


def test_except_when_a_case_names_no_host_it_excepts() -> None:
    text = "Pull the attacker off every user machine, except while it only shows probing (User2 is where that happens most)."
    assert "User2" not in read_wording(text).excepted
    # a predicate that leaves User2 out, and the probed case in, is not what the words say
    others = {"all": [{"class": "User"}, {"not": {"host": "User2"}}]}
    assert text_problem(text, others, do("Remove")) is not None


def test_a_foreign_except_before_its_when_is_unless() -> None:
    for text in ("Plan a Restore of User3 once it reads Privileged, sauf quand Enterprise1 est compromis.",
                 "Plan a Restore of User3 once it reads Privileged, außer wenn Enterprise1 is compromised."):
        # the case it leaves out (Enterprise1 held) is no case the rule holds in
        assert refused_rule_holds_on(text, User3="None/Privileged", Enterprise1="None/User") is not True, text


def test_an_answer_that_does_not_know_gives_no_order() -> None:
    text = "What would you pick once the op server gets probed? I honestly do not know; maybe DecoyTomcat."
    assert text_problem(text, {"host": "Op_Server0", "activity": "Scan"}, do("DecoyTomcat", "Op_Server0")) is not None


def test_a_quoted_note_amended_by_a_case_alone_is_still_the_order() -> None:
    text = ("Kim's rule reads 'Restore Op_Host0 the moment it shows root'. That still holds, except for Op_Host0 while "
            "Enterprise2 is clean.")
    # the case the text leaves out (Enterprise2 clean) is where the rule does not hold
    assert refused_rule_holds_on(text, Op_Host0="None/Privileged") is not True


def test_anything_but_a_host_leaves_it_out() -> None:
    for text in ("Do a Remove on anything but User4 once it shows an exploit.",
                 "Anything but User4 showing an exploit is due a Remove."):
        assert read_wording(text).excepted == ("User4",), text
        assert refused_rule_holds_on(text, User4="Exploit/User") is not True, text
        assert text_problem(text, {"host": "User4", "activity": "Exploit"}, do("Remove", "User4")) is not None, text


def test_a_list_of_cases_pairs_each_situation_with_its_own_order() -> None:
    text = "user workstation probed -> Analyse it; user workstation exploited -> Remove it"
    # one case's order under another case's situation is refused
    assert text_problem(text, {"class": "User", "activity": "Scan"}, do("Remove")) is not None
    assert text_problem(text, {"class": "User", "activity": "Exploit"}, do("Analyse")) is not None
    # each case compiled alone passes
    assert text_problem(text, {"class": "User", "activity": "Scan"}, do("Analyse")) is None
    assert text_problem(text, {"class": "User", "activity": "Exploit"}, do("Remove")) is None


def test_a_lesson_that_says_when_it_holds_is_not_the_story_s_state_alone() -> None:
    for text in ("Enterprise1 got exploited while my plan waited. Going forward: Remove Enterprise1, except on the "
                 "first step.",
                 "Enterprise1 got exploited while my plan waited. Going forward: Remove Enterprise1, but only in the "
                 "last ten steps."):
        # held at every step on the story's state alone, it held in the very step the lesson leaves out
        found = semantic_claims(text, REFUSED, text)
        assert found is not None and ("at steps" in describe(found) or describe(found) == "not (always)"), text


def test_an_omission_switched_off_as_a_setting_bans_nothing() -> None:
    for text in ("skip restore = no", "skip Analyse = off"):
        assert not read_wording(text).prohibitions, text
    # switched on, it still turns the move down
    assert read_wording("skip restore = yes").prohibitions
