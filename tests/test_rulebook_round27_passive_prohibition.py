"""Issue 29, round 27 (r27p, found by reading the reader, not from a case): a prohibition said in the passive with an
infinitive ("X is never to be restored") or with its modal in it ("X should not be removed", "X must not get a Remove")
is a prohibition of that verb on the subject's hosts, so the checks refuse a compiled "do" of it. Sentences of our own,
none from a case file."""

from __future__ import annotations

from forge.rulebook.authoring.checks import text_problem
from forge.rulebook.language.order import gives_order
from forge.rulebook.language.wording import read_wording


def test_a_prohibition_said_with_is_to_is_an_order_on_its_subject():
    for text, verb, hosts in (("Ent0, Ent1 and Ent2 are never to be restored.", "Restore",
                               {"Enterprise0", "Enterprise1", "Enterprise2"}),
                              ("Op_Server0 is not to be reimaged.", "Restore", {"Op_Server0"}),
                              ("User4 is never to get a Remove, whatever it shows.", "Remove", {"User4"})):
        assert gives_order(text), text
        (found,) = read_wording(text).prohibitions
        assert found.verb == verb and set(found.hosts) == hosts, text


def test_a_prohibition_with_its_modal_in_it_is_on_its_subject():
    for text, verb, host in (("Enterprise1 should not be removed while it is at Unknown.", "Remove", "Enterprise1"),
                             ("User2 must not get a Remove.", "Remove", "User2"),
                             ("Op_Host1 shouldn't be restored at all.", "Restore", "Op_Host1")):
        (found,) = read_wording(text).prohibitions
        assert found.verb == verb and found.hosts == (host,), text


def test_a_class_subject_of_an_is_to_prohibition_is_its_class():
    (found,) = read_wording("The user hosts are not to be restored.").prohibitions
    assert found.verb == "Restore" and found.classes == ("User",)


def test_an_is_to_prohibition_compiled_as_a_do_is_refused():
    problem = text_problem("Op_Server0 is not to be reimaged.", {"host": "Op_Server0"},
                           {"verb": "Restore", "target": "Op_Server0", "mode": "do"})
    assert problem is not None and problem.startswith("prohibition:")


def test_a_never_wider_than_the_modal_prohibitions_subject_is_refused():
    # (a "never" on the whole user class: the text forbids the Remove on User2 alone)
    problem = text_problem("User2 must not get a Remove.", {"host": "User2"},
                           {"verb": "Remove", "target": "User", "mode": "never"})
    assert problem is not None and problem.startswith("inverted:")


def test_the_never_of_the_subject_stays_accepted():
    # a guard (passes without the fix too): the faithful compilation of such a prohibition is no problem
    assert text_problem("User2 must not get a Remove.", {"host": "User2"},
                        {"verb": "Remove", "target": "User2", "mode": "never"}) is None


def test_a_state_said_with_not_after_is_stays_a_condition():
    # a guard (passes without the fix too): "is not restored" (no "to be") states a condition, it orders nothing
    assert read_wording("If User3 is not restored by now, remove it.").prohibitions == ()
    assert read_wording("Remove User3 when it was never restored.").prohibitions == ()
