"""Round 59 audit r59a of r59h's readers: a name a note gives to hosts it lists (glossary.group_named_said).

- the name used for all of the hosts at once ("every box in the core", "the pair are both scanned") is each of them,
  not one of them: a trigger that fires on any one of them is wider than the words and refused;
- a listed host the note later takes out of the name ("the core minus Op_Host2", "Op_Host2 is no longer part of the
  core") is not written back in;
- a name that is a class, state or host word ("the users") is that word too, and is not written as the listed hosts.
"""

from __future__ import annotations

from forge.rulebook.authoring.checks import text_problem
from forge.rulebook.language.glossary import group_named_said

_ROOTED_ANY = {"any": [{"host": h, "compromise": "Privileged"} for h in ("Op_Host0", "Op_Host1", "Op_Host2")]}
_ROOTED_ALL = {"all": [{"host": h, "compromise": "Privileged"} for h in ("Op_Host0", "Op_Host1", "Op_Host2")]}
_RESTORE_SERVER = {"mode": "do", "verb": "Restore", "target": "Op_Server0"}


def test_the_name_for_all_of_its_hosts_is_each_of_them() -> None:
    for text in ("Our shorthand: we call Op_Host0, Op_Host1 and Op_Host2 the core. When every box in the core is rooted, "
                 "Restore Op_Server0.",
                 "We call Op_Host0, Op_Host1 and Op_Host2 the core. Once the whole core has been rooted, Restore Op_Server0.",
                 "We call Op_Host0, Op_Host1 and Op_Host2 the core. Once all of the core is rooted, Restore Op_Server0."):
        assert text_problem(text, _ROOTED_ANY, _RESTORE_SERVER) is not None, text
        assert text_problem(text, _ROOTED_ALL, _RESTORE_SERVER) is None, text
    text = "I call User1 and User3 the pair. Once the pair are both probed, DecoyApache User1."
    assert group_named_said(text) == "Once User1 and User3 are both probed, DecoyApache User1."
    scanned_any = {"any": [{"host": "User1", "activity": "Scan"}, {"host": "User3", "activity": "Scan"}]}
    assert text_problem(text, scanned_any, {"mode": "do", "verb": "DecoyApache", "target": "User1"}) is not None


def test_a_host_taken_out_of_the_name_is_not_written_back() -> None:
    assert group_named_said("We call Op_Host0, Op_Host1 and Op_Host2 the core. Restore the core minus Op_Host2 when it is "
                            "rooted.") == "Restore Op_Host0 or Op_Host1 when it is rooted."
    text = ("We call Op_Host0, Op_Host1 and Op_Host2 the core. Op_Host2 is no longer part of the core. Restore a box of "
            "the core once rooted.")
    assert "one of Op_Host0 or Op_Host1 once" in group_named_said(text)
    assert text_problem(text, _ROOTED_ANY, {"mode": "do", "verb": "Restore", "target": "$matched"}) is not None


def test_a_class_or_host_word_as_the_name_is_that_word_too() -> None:
    for text in ("We call User1 and User2 the users. DecoyApache the other users when they get probed.",
                 "I call User0 and User4 the user boxes. Remove any user box rooted after them."):
        assert group_named_said(text) == text
    # a name of its own is still written out
    assert group_named_said("We call User1 and User2 the twins. Never Remove the twins.") == "Never Remove User1 or User2."


def test_a_class_set_apart_from_the_condition_host_is_no_move_put_aside() -> None:
    # "rather than <class>" inside the condition, as the subject of the state, disprefers no move on that class
    over_users = {"mode": "prefer", "verb": "Restore", "target": "$matched", "over": {"verb": "Restore", "target": "User"}}
    when = {"class": "Operational", "compromise": "Privileged"}
    for text in ("Restore the op box when it, rather than any user workstation, is the one rooted.",
                 "Restore the op box once it, in preference to a user workstation, gets rooted."):
        assert text_problem(text, when, over_users) is not None, text
    # the contrast with the move's own class still puts it aside
    assert text_problem("Once an op box is rooted, Restore that op box in preference to any user workstation.", when,
                        over_users) is None


def test_a_case_set_aside_without_a_condition_stands_under_the_note() -> None:
    # the granted note waits on a state (or is only pointed at): the case it sets aside is one of the note's, so an
    # order on that host in any state is wider than the words
    remove = {"mode": "do", "verb": "Remove", "target": "Op_Host1"}
    for text in ("Dana's runbook says a compromised op box is never to get a Remove. Fair enough as a rule, but Remove "
                 "Op_Host1 regardless.",
                 "Dana wrote that once an op box is rooted it never gets a Remove. Sure, but Remove Op_Host1 all the same.",
                 "I go along with Dana's standing rule, but Op_Host1 is the one exception: Remove it."):
        assert text_problem(text, {"host": "Op_Host1"}, remove) is not None, text
    # a case with a condition of its own is still the order
    text = "Dana's runbook says a compromised op box is never to get a Remove. Fair enough, but once Op_Host1 is rooted, Remove it."
    assert text_problem(text, {"host": "Op_Host1", "compromise": "Privileged"}, remove) is None
