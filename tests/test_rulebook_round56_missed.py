"""Round 56 (r56m): forms of words whose rules were kept semantic (missed) because no reader placed them.

Each test holds a compilation that says exactly what its text says to pass the product's checks, and a wider one
(or the opposite) to stay refused.
"""
from forge.rulebook.authoring.checks import text_problem
from forge.rulebook.language.predicate import describe
from forge.rulebook.language.rule_claims import rule_claims
from forge.rulebook.language.wording import read_wording


def _never(verb, target):
    return {"mode": "never", "verb": verb, "target": target}


def _do(verb, target):
    return {"mode": "do", "verb": verb, "target": target}


# --- a form's exception line, "not for: <hosts>" -------------------------------------------------------------------

_FORM_WITH_EXCEPTION = ("host: User2\n"
                        "state: probed, nothing beyond that\n"
                        "move: DecoyHarakaSMTP User2\n"
                        "not for: User0, User1")


def test_form_exception_line_is_no_turning_down_of_the_order_and_keeps_its_hosts_out():
    when = {"host": "User2", "activity": "Scan", "compromise": "No"}
    assert text_problem(_FORM_WITH_EXCEPTION, when, _do("DecoyHarakaSMTP", "User2")) is None
    problem = text_problem(_FORM_WITH_EXCEPTION, {"class": "User", "activity": "Scan", "compromise": "No"},
                           _do("DecoyHarakaSMTP", "$matched"))
    assert problem is not None


# --- a table of cases with a notes column after the move -----------------------------------------------------------

_TABLE_WITH_NOTES = ("| host | when | move | notes |\n"
                     "|------|------|------|-------|\n"
                     "| Op_Host0 | exploit spotted | Remove | |\n"
                     "| Op_Host1 | exploit spotted | Remove | Op_Host2 NOT listed, it gets its own card |")


def test_table_notes_column_read_as_cases_of_its_rows_hosts():
    when = {"any": [{"host": "Op_Host0", "activity": "Exploit"}, {"host": "Op_Host1", "activity": "Exploit"}]}
    assert text_problem(_TABLE_WITH_NOTES, when, _do("Remove", "$matched")) is None
    problem = text_problem(_TABLE_WITH_NOTES, {"class": "Operational", "activity": "Exploit"}, _do("Remove", "$matched"))
    assert problem is not None


# --- "nothing less than a <move>" ----------------------------------------------------------------------------------

_NOTHING_LESS = "escalation: a box climbed to Privileged -> reimage via Restore. nothing less than a Restore helps."


def test_nothing_less_than_the_move_is_its_order_never_its_prohibition():
    assert text_problem(_NOTHING_LESS, {"compromise": "Privileged"}, _do("Restore", "$matched")) is None
    assert text_problem(_NOTHING_LESS, {"compromise": "Privileged"}, _never("Restore", "$matched")) is not None


# --- a form's subnet line ------------------------------------------------------------------------------------------

_SUBNET_FORM = ("subnet: user\n"
                "when: a box there has been exploited\n"
                "move: Remove that box\n"
                "except: User0")


def test_subnet_form_read_with_its_exception_and_its_subnet():
    when = {"any": [{"host": h, "activity": "Exploit"} for h in ("User1", "User2", "User3", "User4")]}
    assert text_problem(_SUBNET_FORM, when, _do("Remove", "$matched")) is None
    assert text_problem(_SUBNET_FORM, {"class": "User", "activity": "Exploit"}, _do("Remove", "$matched")) is not None
    assert text_problem(_SUBNET_FORM, {"activity": "Exploit"}, _do("Remove", "$matched")) is not None


# --- "one rule only:" ------------------------------------------------------------------------------------------------

_ONE_RULE = ("Twice I put a Remove of User2 in the plan and it was hit again each time. Still, one rule only: no Remove "
             "of User2 goes in any plan.")


def test_one_rule_heads_the_lesson_which_stays_a_prohibition():
    assert text_problem(_ONE_RULE, {"host": "User2"}, _never("Remove", "User2")) is None
    assert text_problem(_ONE_RULE, {"host": "User2"}, _do("Remove", "User2")) is not None


# --- a row "anything but" quiet --------------------------------------------------------------------------------------

def test_row_anything_but_quiet_is_the_row_not_quiet():
    found = rule_claims("Never Sleep on Op_Server0 if its row is anything other than None/No.")
    assert found is not None and describe(found).startswith("not (")
    text = "Never Sleep on Op_Server0 if its row is anything other than None/No."
    problem = text_problem(text, {"host": "Op_Server0", "activity": "None", "compromise": "No"}, _never("Sleep", "Op_Server0"))
    assert problem is not None


# --- words in stars, and "the answer is never <move>" --------------------------------------------------------------

def test_answer_is_never_a_move_is_its_prohibition_outside_a_condition():
    words = read_wording("On User4 your answer is **never** Analyse unless its row is None/No.")
    assert [p.verb for p in words.prohibitions] == ["Analyse"]
    words = read_wording("If the answer is not Remove, Restore User4.")
    assert not any(p.verb == "Remove" for p in words.prohibitions)


# --- "Not unless <case> should anyone <move>" ------------------------------------------------------------------------

_NOT_UNLESS = "Not unless User1 is rooted should anyone Remove User2. While User1 is clean, removing User2 is early."


def test_not_unless_is_a_prohibition_outside_the_case_and_no_order_in_it():
    when = {"all": [{"host": "User2"}, {"host": "User1", "compromise": "No"}]}
    assert text_problem(_NOT_UNLESS, when, _never("Remove", "User2")) is None
    assert text_problem(_NOT_UNLESS, {"host": "User1", "compromise": "Privileged"}, _do("Remove", "User2")) is not None


# --- "(not the other <class> hosts)" right after the host -------------------------------------------------------------

_ONLY_THIS_HOST = ("Next time, whenever the host under my analysis is Op_Host1 specifically (not the other op hosts) and it "
                   "shows an exploit, my advice is a Remove.")


def test_note_after_the_host_keeps_the_condition_to_it_not_its_class():
    assert text_problem(_ONLY_THIS_HOST, {"host": "Op_Host1", "activity": "Exploit"}, _do("Remove", "Op_Host1")) is None
    problem = text_problem(_ONLY_THIS_HOST, {"class": "Operational", "activity": "Exploit"}, _do("Remove", "$matched"))
    assert problem is not None
