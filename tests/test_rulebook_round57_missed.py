"""Round 57 (r57m): forms of words whose rules were kept semantic (missed) because no reader placed them, and guard
rests that silenced a rule in its own case.

Each test holds a compilation that says what its text says to pass the product's checks, and a wider one (or the
opposite) to stay refused.
"""
from forge.rulebook.authoring.checks import text_problem
from forge.rulebook.language.forbidding import prohibitions_in
from forge.rulebook.language.guard import guard_rest


def _never(verb, target):
    return {"mode": "never", "verb": verb, "target": target}


def _do(verb, target):
    return {"mode": "do", "verb": verb, "target": target}


def _prefer(verb, target, over_verb, over_target):
    return {"mode": "prefer", "verb": verb, "target": target, "over": {"verb": over_verb, "target": over_target}}


# --- "<host> included" for a host whose name ends in no digit ------------------------------------------------------

_DEFENDER_INCLUDED = "Root on any enterprise box gets a Restore of that box, the Defender included."


def test_defender_included_is_one_of_the_class_the_trigger_names():
    when = {"class": "Enterprise", "compromise": "Privileged"}
    assert text_problem(_DEFENDER_INCLUDED, when, _do("Restore", "$matched")) is None
    assert text_problem(_DEFENDER_INCLUDED, {"compromise": "Privileged"}, _do("Restore", "$matched")) is not None


# --- a host sent to another note in an aside -----------------------------------------------------------------------

_SENT_ELSEWHERE = ("Orders for the operational subnet:\n"
                   "- a box there that got exploited -> Remove that box\n"
                   "  - (Op_Server0: see my other card)")


def test_host_sent_to_another_note_is_not_one_the_order_must_keep_to():
    when = {"all": [{"class": "Operational", "activity": "Exploit"}, {"not": {"host": "Op_Server0"}}]}
    assert text_problem(_SENT_ELSEWHERE, when, _do("Remove", "$matched")) is None
    # (r57b: the host the aside sends away is the other note's case, which a trigger over the whole class takes in)
    assert text_problem(_SENT_ELSEWHERE, {"class": "Operational", "activity": "Exploit"}, _do("Remove", "$matched")) is not None
    assert text_problem(_SENT_ELSEWHERE, {"activity": "Exploit"}, _do("Remove", "$matched")) is not None


# --- a standing "never" in the passive -----------------------------------------------------------------------------

_PASSIVE_NEVER = "A note for the chooser ahead of the new config: Op_Host1 is never removed, whatever its row shows."


def test_passive_never_with_a_concession_is_a_ban_on_its_subject():
    assert prohibitions_in("Op_Host1 is never removed, whatever its row shows.")[0][0].hosts == ("Op_Host1",)
    assert text_problem(_PASSIVE_NEVER, {"host": "Op_Host1"}, _never("Remove", "Op_Host1")) is None
    assert text_problem(_PASSIVE_NEVER, {"host": "Op_Host1"}, _do("Remove", "Op_Host1")) is not None
    # (in a condition, or a report of how things go, it forbids nothing)
    assert prohibitions_in("if Op_Host1 is never removed, the attacker keeps it")[0] == ()
    assert prohibitions_in("Op_Host1 is never removed in time.")[0] == ()


# --- "is never worth it" -------------------------------------------------------------------------------------------

_NEVER_WORTH = ("I analysed User4 three turns running and learnt nothing new. User4 is due a single Analyse in a game; "
                "after that one, a further Analyse there is never worth it.")


def test_never_worth_it_turns_the_move_down():
    when = {"host": "User4", "acted": "Analyse"}
    assert text_problem(_NEVER_WORTH, when, _never("Analyse", "User4")) is None
    assert text_problem(_NEVER_WORTH, when, _do("Analyse", "User4")) is not None


# --- "no discussion": the order not open to dispute ----------------------------------------------------------------

_NO_DEBATE = "Whenever Op_Host2 sits at root, the plan begins with a Restore of Op_Host2, no debate."


def test_no_debate_is_emphasis_not_a_turning_down():
    when = {"host": "Op_Host2", "compromise": "Privileged"}
    assert text_problem(_NO_DEBATE, when, _do("Restore", "Op_Host2")) is None
    assert text_problem(_NO_DEBATE, when, _never("Restore", "Op_Host2")) is not None


# --- the "no" that answers a question about another move -----------------------------------------------------------

_ANSWERED = ("User1 fell to Unknown; my next move was one more Remove. Was a second Remove right? No, I ought to "
             "have analysed it: at Unknown, Analyse User1 ahead of any Remove of it.")


def test_answer_no_denies_the_move_asked_after_and_leaves_the_other_order():
    when = {"host": "User1", "compromise": "Unknown"}
    assert text_problem(_ANSWERED, when, _do("Analyse", "User1")) is None
    assert text_problem(_ANSWERED, when, _do("Remove", "User1")) is not None
    assert text_problem(_ANSWERED, when, _never("Analyse", "User1")) is not None


# --- "rather a <move> than a <move>" -------------------------------------------------------------------------------

def test_rather_a_move_than_another_disprefers_the_second():
    found = prohibitions_in("Rather a Remove of the box than a Restore of it, as things stand.")
    assert found[1] == ("Restore",)


# --- a move said not to be possible: the fallback's case -----------------------------------------------------------

_FALLBACK_CASE = "Op_Host0 exploited: Restore Op_Host0; if a Restore isn't possible that step, Remove it."


def test_move_not_possible_condition_kept_in_the_rest_passes_and_does_not_guard():
    when = {"host": "Op_Host0", "activity": "Exploit"}
    rest = "the Remove only when a Restore isn't possible"
    assert text_problem(_FALLBACK_CASE, when, _do("Restore", "Op_Host0"), rest) is None
    assert guard_rest(rest, when, _FALLBACK_CASE, _do("Restore", "Op_Host0")) == ""
    # left unsaid, the fallback's case is refused; and a rest on the rule's own move (the Remove) still guards
    assert text_problem(_FALLBACK_CASE, when, _do("Remove", "Op_Host0")) is not None
    assert guard_rest(rest, when, _FALLBACK_CASE, _do("Remove", "Op_Host0")) == rest


_KEPT_FOR = ("Yesterday I reimaged Enterprise0 although a Remove would have done. A Restore of Enterprise0 is only for "
             "the times when no Remove is available; when one is, Remove Enterprise0 while it is compromised.")


def test_move_kept_for_when_the_other_is_impossible_is_dispreferred_and_no_ban_of_the_other():
    when = {"host": "Enterprise0", "compromise": "any"}
    rest = "the Restore is kept for times when no Remove is available"
    assert text_problem(_KEPT_FOR, when, _prefer("Remove", "Enterprise0", "Restore", "Enterprise0"), rest) is None
    assert text_problem(_KEPT_FOR, when, _prefer("Restore", "Enterprise0", "Remove", "Enterprise0"), rest) is not None
    assert guard_rest(rest, when, _KEPT_FOR, _prefer("Remove", "Enterprise0", "Restore", "Enterprise0")) == ""
    # (a move said to be no option is turned down, and stays a ban)
    assert prohibitions_in("No Remove is an option on Op_Host2.")[0][0].verb == "Remove"


# --- a rest that says which words the report holds -----------------------------------------------------------------

_REPORT_WORD = "Analyst: Op_Host1 under an exploit is rated critical in your record, whichever subnet is busier."


def test_rest_naming_the_reports_words_does_not_guard():
    when = {"host": "Op_Host1", "activity": "Exploit"}
    for rest in ("the order is the rating word of the record, no move of ours",
                 "it orders a word the record must never use, no move of ours"):
        assert guard_rest(rest, when, _REPORT_WORD, None) == ""
    # (a rest that names a state or a condition still guards)
    kept = "the order is the rating word of the record once Op_Host1 has been scanned"
    assert guard_rest(kept, when, _REPORT_WORD, None) == kept
