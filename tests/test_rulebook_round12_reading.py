"""Issue 29, twelfth round: readings that let a compiled predicate (or a rule kept semantic) fire where its own words
say it does not apply. Each class on sentences written for these tests.

- *A class said in operators' shorthand* ("ent server", "usr boxes", "ops machines") is that class: the checks then
  hold a trigger to it (a compiler's "any host" is refused) and the words are read.
- *"another <class> host" as a second subject* ("Enterprise1 is hit and another enterprise box is compromised too") is a
  clause of its own about the rest of the class; with its state left unsaid ("... and some other user host is too",
  "... while Op_Host1 is as well") it takes the first subject's state. A predicate that drops it is refused.
- *A negation said of the subject's own host* ("a box scanned, no compromise on it yet") is a state of that host
  (Compromised No), not "no host shows it" (which would hold where nothing is scanned at all).
- *A host by the role it serves* ("the dns box", "the jump host", "db servers"), which no CAGE-2 host or class is: a
  trigger on any host (or a whole class) drops it and is refused (as the eleventh round's "the second enterprise server").
- *A negation kept to its clause* ("X is not scanned and it is compromised": compromised, not scanned) and *"neither
  ... nor" said of one host* ("X is neither scanned nor exploited": both denied), read whole and wrong before.
"""

from __future__ import annotations

from forge.rulebook.authoring.checks import text_problem
from forge.rulebook.language.condition import text_claims
from forge.rulebook.language.predicate import truth
from forge.rulebook.language.names import classes_in
from tests.situations import alert_rows


# -- a class said in shorthand --------------------------------------------------------------------------------


def test_a_class_said_in_shorthand_is_that_class() -> None:
    assert classes_in("ent boxes scanned twice") == ("Enterprise",)
    assert classes_in("usr machines at privileged") == ("User",)
    assert classes_in("ops hosts quiet") == ("Operational",)
    assert classes_in("the op server is hit") == ()  # one host (Op_Server0), no class


def test_a_trigger_on_any_host_for_a_class_said_in_shorthand_is_refused() -> None:
    text = "ent box scanned -> DecoyTomcat on it."
    problem = text_problem(text, {"class": "any", "activity": "Scan"},
                           {"mode": "do", "verb": "DecoyTomcat", "target": "$matched"})
    assert problem is not None and problem.startswith("class:"), problem
    found, _ = text_claims(text)
    assert truth(found, alert_rows(("User2", "Scan", "No"))) is not True  # a user host scanned is none of its business


# -- "another <class> host" -----------------------------------------------------------------------------------


def test_another_host_of_a_class_is_a_second_subject_that_must_hold() -> None:
    text = "Enterprise1 hit AND another enterprise box compromised as well -> Restore Enterprise1."
    found, whole = text_claims(text)
    assert found is not None and whole
    assert truth(found, alert_rows(("Enterprise1", "Exploit", "User"))) is not True  # no other enterprise box compromised
    assert truth(found, alert_rows(("Enterprise1", "Exploit", "User"), ("Enterprise2", "None", "Privileged"))) is True
    problem = text_problem(text, {"host": "Enterprise1", "compromise": "any"},
                           {"mode": "do", "verb": "Restore", "target": "Enterprise1"})
    assert problem is not None, "a predicate on Enterprise1 alone drops the second subject"


def test_a_second_subject_whose_state_is_left_unsaid_takes_the_first_ones() -> None:
    found, whole = text_claims("If Op_Host0 is exploited while Op_Host1 is as well, remove both.")
    assert whole
    assert truth(found, alert_rows(("Op_Host0", "Exploit", "User"))) is not True
    assert truth(found, alert_rows(("Op_Host0", "Exploit", "User"), ("Op_Host1", "Exploit", "User"))) is True
    found, whole = text_claims("When User3 is compromised and some other user host is too, restore User3.")
    assert whole
    assert truth(found, alert_rows(("User3", "None", "User"))) is not True
    assert truth(found, alert_rows(("User3", "None", "User"), ("User1", "None", "Privileged"))) is True


# -- a negation said of the subject's own host -------------------------------------------------------------------


def test_a_negation_on_the_subjects_own_host_is_its_state_not_no_host() -> None:
    for text in ("probe seen on some machine, no compromise on it so far -> DecoyHarakaSMPT there.",
                 "When a host gets scanned with nothing compromised there yet, put a decoy on it."):
        found, _ = text_claims(text)
        quiet = alert_rows(("User1", "None", "No"))
        assert truth(found, quiet) is not True, text  # nothing scanned: the rule does not apply
        assert truth(found, alert_rows(("User1", "Scan", "No"))) is True, text
        assert truth(found, alert_rows(("User1", "Scan", "User"))) is not True, text


# -- a host by the role it serves ---------------------------------------------------------------------------------


def test_a_host_named_by_the_role_it_serves_is_no_licence_for_any_host() -> None:
    text = "dns box exploited -> Remove it, no Analyse."
    problem = text_problem(text, {"class": "any", "activity": "Exploit"}, {"mode": "do", "verb": "Remove", "target": "$matched"})
    assert problem is not None and problem.startswith("host:"), problem
    # a decoy's service is no host: "a web server decoy" singles out nothing
    assert text_problem("Whenever a user host is scanned, put a web server decoy (DecoyApache) on it.",
                        {"class": "User", "activity": "Scan"}, {"mode": "do", "verb": "DecoyApache", "target": "$matched"}) is None


# -- a negation kept to its own clause, and "neither ... nor" said of one host --------------------------------------
# (the reading was whole, and wrong: "Op_Host2 is not scanned and it is compromised" claimed Op_Host2 clean and not
# scanned, so a rule about a compromised host was judged by its inverse; "neither scanned nor exploited" claimed only
# "not exploited", so the rule held on a scanned host)


def test_a_negation_does_not_reach_the_next_clause_about_the_same_host() -> None:
    found, whole = text_claims("If Op_Host2 is not scanned and it is compromised, restore it.")
    assert whole
    assert truth(found, alert_rows(("Op_Host2", "None", "User"))) is True
    assert truth(found, alert_rows(("Op_Host2", "None", "No"))) is False
    assert truth(found, alert_rows(("Op_Host2", "Scan", "User"))) is False
    found, whole = text_claims("When Enterprise2 is not privileged and it shows a scan, drop a decoy on it.")
    assert whole and truth(found, alert_rows(("Enterprise2", "Scan", "User"))) is True
    assert truth(found, alert_rows(("Enterprise2", "None", "User"))) is False


def test_neither_nor_of_one_host_denies_both_states() -> None:
    found, whole = text_claims("Once User4 is neither scanned nor exploited, a decoy on it is cheap.")
    assert whole
    assert truth(found, alert_rows(("User4", "Scan", "No"))) is False
    assert truth(found, alert_rows(("User4", "Exploit", "User"))) is False
    assert truth(found, alert_rows(("User4", "None", "No"))) is True
