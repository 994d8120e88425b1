"""Issue 29, round 51 (r51h: blind-48's harmful injections). Each class is a reading that left a rule applying where its
words say it does not, or the opposite of its words:
- an exception said in another language ("sauf", "außer", "excepto", "mais jamais sur <host>") leaves its host out
  (`instruction.exceptions_said`); unread, the host it excepts was the only host named and the rule was read as one
  about it;
- an excepted host described and then named in brackets ("apart from the one with the keys (i.e. Enterprise0)") is
  that host excepted (`instruction.exceptions_said`);
- another note quoted as what it said, then "it still stands, but not for <host>: ...", is the rule the text
  excepts from, not its order (`wording._QUOTED_NOTE_EXCEPTED`);
- "in my own words" (or "in other words") is no length of the reply, and a text that names an attack phase and a move on hosts is no FORMAT
  rule (`compile._FORMAT_WORDS`, `compile._phase_move_ordered`);
- a lesson with no condition of its own after a story told of the host it acts on ("<host> got exploited and ...") is
  for the state the story tells (`condition.story_state`, `checks._story_state_dropped`, `condition.semantic_claims`);
- a class in a note's shorthand before a relative clause ("ent box showing ...") stays the condition's class
  (`clauses.RELATIVE`);
- a concession over the level of a compromise ("whatever level it is owned at") keeps the compromise
  (`instruction.level_conceded_said`).
Each test fails on the product files of 91cc4f7 (checked: this file run in a `git archive 91cc4f7` tree). Sentences of
our own, none from a case file."""

from __future__ import annotations

from forge.rulebook.authoring.checks import text_problem
from forge.rulebook.authoring.compile import format_problem, looks_like_format
from forge.rulebook.language.wording import read_wording
from tests.actions import do, prefer
from tests.situations import refused_rule_holds_on


def test_an_exception_in_another_language_leaves_its_host_out() -> None:
    for text, host, verb, row in (
            ("Quand un poste montre un Scan, pose un DecoyApache sur ce poste, mais jamais sur User3.", "User3",
             "DecoyApache", "Scan/No"),
            ("Alle Workstations außer User4: bei einem Exploit sofort Remove auf dieser Maschine.", "User4", "Remove",
             "Exploit/User"),
            ("Cada servidor de empresa, excepto Enterprise2, recibe un DecoyTomcat cuando muestra un Scan.", "Enterprise2",
             "DecoyTomcat", "Scan/No")):
        assert host in read_wording(text).excepted, text
        activity = row.split("/")[0]
        # a predicate on the very host the text leaves out is the opposite of its words
        assert text_problem(text, {"host": host, "activity": activity}, do(verb, host)) is not None, text
        # and the rule kept semantic never holds on it
        assert refused_rule_holds_on(text, **{host: row}) is not True, text


def test_an_excepted_host_named_in_brackets_is_left_out() -> None:
    text = ("Every enterprise server apart from the one holding the domain keys (i.e. Enterprise0): Remove it once the "
            "attacker holds it.")
    assert read_wording(text).excepted == ("Enterprise0",)
    assert text_problem(text, {"host": "Enterprise0", "compromise": "User"}, do("Remove", "Enterprise0")) is not None
    assert refused_rule_holds_on(text, Enterprise0="None/User") is not True


def test_a_quoted_note_is_the_rule_the_text_excepts_from() -> None:
    text = ("My earlier note said 'never Remove an op host'. That still stands, except for Op_Host2: once Op_Host2 shows "
            "an exploit, Remove it.")
    words = read_wording(text)
    assert not words.prohibitions
    # the text's own order, on the host it excepts from the quoted rule, is what it says
    assert text_problem(text, {"host": "Op_Host2", "activity": "Exploit"}, do("Remove", "Op_Host2")) is None


def test_a_phase_and_a_move_are_no_format_rule() -> None:
    text = ("Lateral movement phase, in other words: something new got owned beside an old foothold. I Analysed there and "
            "it spread. For that phase, the move I want is Remove on the freshly owned box.")
    assert not looks_like_format(text)
    assert format_problem(text) is not None
    # a bound on the reply's words stays one
    assert looks_like_format("Answer in three words at most.")


def test_a_lesson_without_a_condition_is_for_the_state_its_story_tells() -> None:
    text = ("Op_Host1 got exploited while my plan sat on a Monitor. Should have been: Remove Op_Host1, then DecoySSHD on "
            "Op_Host2.")
    action = {**do("Remove", "Op_Host1"), "then": [{"verb": "DecoySSHD", "target": "Op_Host2"}]}
    assert text_problem(text, {"host": "Op_Host1"}, action) is not None
    assert text_problem(text, {"host": "Op_Host1", "activity": "Exploit"}, action) is None
    assert refused_rule_holds_on(text, Op_Host1="None/User") is not True
    assert refused_rule_holds_on(text, Op_Host1="Exploit/User") is True


def test_a_class_in_shorthand_before_a_relative_clause_stays_the_condition_s() -> None:
    text = "analyst notes: ent box showing Privileged, what is the call? rec a Restore of it, no less"
    assert read_wording(text).conditions[0].classes == ("Enterprise",)
    assert refused_rule_holds_on(text, User1="None/Privileged") is not True


def test_a_concession_over_the_level_keeps_the_compromise() -> None:
    text = "For Op_Host0, plan a Restore and never a Remove there, whatever level it is owned at. Removes never stick there."
    assert text_problem(text, {"host": "Op_Host0"}, prefer("Restore", "Remove", "Op_Host0")) is not None
    assert text_problem(text, {"host": "Op_Host0", "compromise": "any"}, prefer("Restore", "Remove", "Op_Host0")) is None
    assert refused_rule_holds_on(text, Op_Host0="Scan/No") is not True
