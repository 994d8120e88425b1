"""Round 56 audit (r56b) of r56m's readers (forms.py, checks.py, forbidding.py, instruction.py), probed with sentences of
our own. Each test is a reading wider than the words, or their opposite, on 0dbe6c8:
- a form's exception line whose value is no list of hosts ("not for: a host with root", "except: when Enterprise0 is
  rooted", "except: the user boxes") was said "Not for <value>." and no reading placed it: the order held there;
- a note beside a rule (a table's notes column, a form's "note:" line) that says when the move holds ("unless it is
  already rooted", "skip this if it is rooted") was said after the rule as a remark, and its case was lost;
- "nothing short of a <move>" in a question, or denied after ("no less than a Restore ever helped, so skip it"), was
  taken for the order's own emphasis;
- "one rule only:" after a story of whose rule it was, or after the rule's condition, dropped what came before it;
- a row "anything but" quiet with a further condition joined after it ("..., and if Enterprise0 is rooted") put that
  condition under the "unless" too;
- "the answer is not only / not always / not just a <move>" was read as "never <move>";
- a note "(not the other user hosts)" after the subject of a state ("If User1 alone (not the other user hosts) is
  rooted") keeps no rule to the host: it denies the state of the others."""

from forge.rulebook.authoring.checks import text_problem
from forge.rulebook.language.predicate import truth
from forge.rulebook.language.rule_claims import rule_claims
from forge.rulebook.language.situation import read_situation
from tests.situations import every_host_alert_lines


def _do(verb, target):
    return {"mode": "do", "verb": verb, "target": target}


def _never(verb, target):
    return {"mode": "never", "verb": verb, "target": target}


_OP0_EXPLOITED = {"host": "Op_Host0", "activity": "Exploit"}


# --- a form's exception line that names no hosts -----------------------------------------------------------------------

def test_an_exception_line_that_names_no_hosts_is_no_list_of_hosts_left_out():
    for line in ("not for: a host with root", "except: when Enterprise0 is rooted", "but not: when rooted",
                 "not for: privileged compromise", "except: once Op_Server0 falls"):
        text = "host: Op_Host0\nwhen: exploit spotted\nmove: Remove Op_Host0\n" + line
        assert text_problem(text, _OP0_EXPLOITED, _do("Remove", "Op_Host0")) is not None, line
    for line in ("not for: the user hosts", "except: user boxes", "excluding: the op subnet"):
        text = "when: a host is exploited\nmove: Remove it\n" + line
        assert text_problem(text, {"activity": "Exploit"}, _do("Remove", "$matched")) is not None, line
    # a line of hosts is still read as the hosts it leaves out
    text = "when: some user box got exploited\nmove: Remove it\nexcept: User2"
    kept = {"any": [{"host": h, "activity": "Exploit"} for h in ("User0", "User1", "User3", "User4")]}
    assert text_problem(text, kept, _do("Remove", "$matched")) is None
    assert text_problem(text, {"class": "User", "activity": "Exploit"}, _do("Remove", "$matched")) is not None


# --- a note that restricts the rule ------------------------------------------------------------------------------------

def _table(note):
    return ("| host | when | move | notes |\n|---|---|---|---|\n"
            f"| Op_Host0 | exploit spotted | Remove | {note} |\n"
            "| Op_Host1 | exploit spotted | Remove | |")


def test_a_notes_cell_that_says_when_the_move_holds_is_part_of_its_row():
    both = {"any": [_OP0_EXPLOITED, {"host": "Op_Host1", "activity": "Exploit"}]}
    for note in ("unless it is already rooted", "except when rooted"):
        assert text_problem(_table(note), both, _do("Remove", "$matched")) is not None, note


def test_a_note_line_that_says_when_the_move_holds_is_part_of_the_form():
    for note in ("skip this if it is rooted", "but only before Op_Server0 is hit"):
        text = "host: Op_Host0\nwhen: exploit spotted\nmove: Remove Op_Host0\nnote: " + note
        assert text_problem(text, _OP0_EXPLOITED, _do("Remove", "Op_Host0")) is not None, note


# --- "nothing short of a <move>" doubted ---------------------------------------------------------------------------------

_USER2_ROOTED = {"host": "User2", "compromise": "Privileged"}


def test_nothing_short_of_the_move_asked_or_denied_is_no_emphasis_of_its_order():
    for text in ("When User2 is rooted: nothing short of a Restore? nah.",
                 "When User2 is rooted, no less than a Restore ever helped, so skip it."):
        assert text_problem(text, _USER2_ROOTED, _do("Restore", "User2")) is not None, text
    # said as the least that will do, it is still the order's
    assert text_problem("When User2 is rooted, nothing less than a Restore will do.", _USER2_ROOTED,
                        _do("Restore", "User2")) is None


# --- "one rule only:" after a story or a condition -------------------------------------------------------------------

def test_one_rule_only_after_whose_rule_it_was_or_its_condition_keeps_them():
    assert text_problem("Dana's team lives by one rule only: never Remove User2. I disagree: Remove User2 when it is "
                        "exploited.", {"host": "User2", "activity": "Exploit"}, _never("Remove", "User2")) is not None
    assert text_problem("The old card said one rule only: Restore User0. Wrong!", {"host": "User0"},
                        _do("Restore", "User0")) is not None
    assert text_problem("When Enterprise0 is quiet, just one rule: never Restore User0.", {"host": "User0"},
                        _never("Restore", "User0")) is not None


# --- a row "anything but" quiet with a condition joined after it -------------------------------------------------------

def _reading_holds(text, **states):
    return truth(rule_claims(text), read_situation(every_host_alert_lines(**states)))


def test_anything_but_clean_with_a_joined_condition_keeps_that_condition_as_said():
    both = "If User2 is anything but clean, and if Enterprise0 is rooted, Restore User2."
    assert not _reading_holds(both, User2="None/No")  # (read "not (clean and rooted)", it held on a quiet network)
    assert _reading_holds(both, User2="Exploit/User", Enterprise0="None/Privileged")
    either = "If User2 is anything but clean, or if Enterprise0 is rooted, Restore User2."
    assert _reading_holds(either, User2="None/No", Enterprise0="None/Privileged")  # (read "not rooted": the opposite)
    assert not _reading_holds(either, User2="None/No")
    quiet = "When Op_Host1 is anything but quiet, and when Op_Server0 has been exploited, Remove Op_Host1."
    assert not _reading_holds(quiet, Op_Host1="None/No")


# --- "the answer is not only a <move>" -----------------------------------------------------------------------------------

def test_the_answer_not_only_or_not_always_a_move_forbids_nothing():
    for text, verb in (("When User2 is rooted, the answer is not only a Restore: Remove it first, then Restore it.", "Restore"),
                       ("When User2 is rooted, our answer is not always a Restore.", "Restore"),
                       ("When User2 is rooted, the answer is not just a Remove; Restore it too.", "Remove")):
        assert text_problem(text, _USER2_ROOTED, _never(verb, "User2")) is not None, text


# --- "(not the other user hosts)" after the subject of a state ----------------------------------------------------------

def test_a_note_after_the_subject_of_a_state_denies_it_of_the_others():
    for text in ("If User1 alone (not the other user hosts) is rooted, Restore User1.",
                 "When User1 (but not the other user hosts) is rooted, Restore User1."):
        assert text_problem(text, {"host": "User1", "compromise": "Privileged"}, _do("Restore", "User1")) is not None, text


# --- a last condition joined by ", and if" (found beside the above; scope.branches_of, r44h / r45m) ----------------------

def test_a_last_condition_joined_by_and_if_is_a_further_condition_of_the_order():
    text = "Restore User2 if User3 is rooted, and if Enterprise0 is rooted."
    user3, enterprise0 = {"host": "User3", "compromise": "Privileged"}, {"host": "Enterprise0", "compromise": "Privileged"}
    assert text_problem(text, {"all": [user3, {"not": enterprise0}]}, _do("Restore", "User2")) is not None
    assert text_problem(text, {"all": [user3, enterprise0]}, _do("Restore", "User2")) is None
    # (read as a case the rule does not apply in, it held where Enterprise0 was clean)
    assert not _reading_holds(text, User3="None/Privileged")
