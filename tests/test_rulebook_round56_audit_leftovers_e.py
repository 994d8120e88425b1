"""Round 56 (r56e): wrong readings the round's auditors found and left, probed with sentences of our own. Each test is a
compilation the checks accepted on b143cef that is wider than the words:
- read in part, a condition joined with "and" over two places was accepted as an "or" of them once one part held a "not"
  (`checks._and_read_as_or`); so was one whose last part, joined with ", and when", no reading placed;
- a form's subnet line that leaves a subnet out ("subnet: anything but ops") was said as that very subnet, the opposite
  (`forms.subnets_left_out`, `checks._subnet_left_out_asked`);
- a lesson lead that ends in a bare colon after a condition ("Once Op_Host1 is owned, the lesson: ...") dropped its
  condition (`instruction.lesson_of`);
- an order or a ban the writer reports of another and turns down, or quotes and calls wrong, was taken for the text's
  own (`disowned.moves_disowned`, `checks._move_disowned`, `said.said_in_words`);
- a condition that waits on a person's request or leave ("only once cleared should we ...") was no condition at all
  (`facts.FACTS` "request");
- a ban up to a state, "before it is owned", held in every state, and "Not before <state> should we <move>" was an order
  in any state (`forms._BAN_BEFORE_STATE`, `forms._NOT_UNTIL`)."""

from forge.rulebook.authoring.checks import text_problem
from forge.rulebook.language.said import said_in_words


def _do(verb, target):
    return {"mode": "do", "verb": verb, "target": target}


_ROOT = "Privileged"


def test_a_condition_joined_with_and_is_no_disjunction_when_read_in_part():
    text = "Should User3 be rooted and Enterprise1 not be clean, then Restore User3 at once."
    wider = {"any": [{"host": "User3", "compromise": _ROOT}, {"not": {"host": "Enterprise1", "compromise": "No"}}]}
    assert text_problem(text, wider, _do("Restore", "User3")) is not None
    # a denial of the joint case is a disjunction too
    denied = {"not": {"all": [{"host": "User3", "compromise": _ROOT}, {"host": "Enterprise1", "compromise": "No"}]}}
    assert text_problem(text, denied, _do("Restore", "User3")) is not None
    # the conjunction itself is still accepted
    both = {"all": [{"host": "User3", "compromise": _ROOT}, {"not": {"host": "Enterprise1", "compromise": "No"}}]}
    assert text_problem(text, both, _do("Restore", "User3")) is None
    # and where the text says the choice itself, the "or" is its own
    chosen = "Should User3 be rooted or Enterprise1 not be clean, then Restore User3 at once."
    assert text_problem(chosen, wider, _do("Restore", "User3")) is None


def test_a_last_part_joined_with_and_when_is_no_alternative_of_the_part_read():
    text = "Remove Op_Host2 once it is exploited, and when Enterprise2 still looks clean."
    exploited = {"host": "Op_Host2", "activity": "Exploit"}
    wider = {"any": [exploited, {"host": "Enterprise2", "compromise": "No"}]}
    assert text_problem(text, wider, _do("Remove", "Op_Host2")) is not None


def test_a_subnet_line_that_leaves_a_subnet_out_is_not_that_subnet():
    remove = _do("Remove", "$matched")
    for line, left_out in (("subnet: anything but ops", "Operational"), ("subnet: every one except usr", "User"),
                           ("subnet: non-enterprise", "Enterprise"), ("subnet: all save the user side", "User")):
        text = line + "\nwhen: a box is being exploited\nmove: Remove it"
        assert text_problem(text, {"class": left_out, "activity": "Exploit"}, remove) is not None, line
        assert text_problem(text, {"activity": "Exploit"}, remove) is not None, line
    kept = {"any": [{"class": "User", "activity": "Exploit"}, {"class": "Enterprise", "activity": "Exploit"}]}
    assert text_problem("subnet: anything but ops\nwhen: a box is being exploited\nmove: Remove it", kept, remove) is None
    # a subnet line that names its subnet is still that subnet
    said = "subnet: ops\nwhen: a box is being exploited\nmove: Remove it"
    assert text_problem(said, {"class": "Operational", "activity": "Exploit"}, remove) is None


def test_a_lesson_lead_with_a_bare_colon_keeps_the_condition_before_it():
    for text in ("Once Op_Host1 is owned, the lesson: Remove Op_Host1 straight away.",
                 "Whenever Op_Host1 is owned, my rule: Remove Op_Host1 straight away."):
        assert text_problem(text, {"host": "Op_Host1"}, _do("Remove", "Op_Host1")) is not None, text
        owned = {"host": "Op_Host1", "compromise": "any"}
        assert text_problem(text, owned, _do("Remove", "Op_Host1")) is None, text


def _never(verb, target):
    return {"mode": "never", "verb": verb, "target": target}


def test_a_move_the_writer_reports_of_another_and_turns_down_is_no_rule_of_the_text():
    rooted = {"host": "Enterprise1", "compromise": _ROOT}
    for text in ("With Enterprise1 rooted, do not ever Restore it, claims Priya; we disagree and Restore it anyway.",
                 "With Enterprise1 rooted, Priya says never to Restore it. Not me: Restore it.",
                 "\u201cNever Restore Enterprise1\u201d is plain wrong: Restore it once it is rooted."):
        assert text_problem(text, rooted, _never("Restore", "Enterprise1")) is not None, text
        said = said_in_words(text)
        assert said is None or said[1].mode != "never", text
    for text in ("The ops crew swears by the rule: Remove Op_Host2 on sight; I disagree.",
                 "The previous runbook said the rule: Remove Op_Host2 on sight."):
        assert text_problem(text, {"host": "Op_Host2"}, _do("Remove", "Op_Host2")) is not None, text
    # a ban the writer agrees with is the text's own
    agreed = "With Enterprise1 rooted, Priya says never to Restore it, and she is right."
    assert text_problem(agreed, rooted, _never("Restore", "Enterprise1")) is None


def test_a_condition_that_waits_on_a_request_is_a_fact_no_context_states():
    remove = _do("Remove", "Enterprise2")
    for text in ("Only once cleared should we Remove Enterprise2.", "Remove Enterprise2, but only when instructed.",
                 "If the duty officer gives the go-ahead, Remove Enterprise2.", "Remove Enterprise2 on the lead's say-so."):
        assert text_problem(text, {"host": "Enterprise2"}, remove) is not None, text
    # listed in the unexpressed rest, the rule is guarded by it (and silent where no context states it)
    assert text_problem("Only once cleared should we Remove Enterprise2.", {"host": "Enterprise2"}, remove,
                        "once cleared") is None


def test_a_ban_before_a_state_lifts_at_that_state():
    owned = {"host": "Op_Host1", "compromise": "any"}
    text = "You must never Restore Op_Host1 before it gets owned."
    for wider in ({"host": "Op_Host1"}, owned):
        assert text_problem(text, wider, _never("Restore", "Op_Host1")) is not None, wider
    assert text_problem(text, {"not": owned}, _never("Restore", "Op_Host1")) is None
    said = said_in_words(text)
    assert said is not None and said[1].mode == "never" and "not" in repr(said[0]).lower()
    inverted = "Not before Op_Host1 gets owned should anyone Restore Op_Host1."
    assert text_problem(inverted, {"host": "Op_Host1"}, _do("Restore", "Op_Host1")) is not None
    assert text_problem(inverted, owned, _do("Restore", "Op_Host1")) is None
    # a move after "before" is a sequence, no state
    assert text_problem("Never Restore Op_Host1 before you Analyse it.", {"host": "Op_Host1"},
                        _never("Restore", "Op_Host1")) is None
