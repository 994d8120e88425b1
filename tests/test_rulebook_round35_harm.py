"""Issue 29, round 35 (r35h: blind-32's harmful and outranked injections). A share of a class restated as a count
between commas ("the majority of user boxes, so four or more of them, are owned") had its condition cut at the first
comma, so a predicate on one host of the class passed the checks; a condition written as code ("E1.activity ==
Exploit") lost its state at the dot, so a rule kept semantic applied to the host in any state; an "OR" in capitals
between hosts was read as "and", and a state said after the order's hosts (", whichever one gets scanned") was left
out when curation compares a wording with a withdrawn rule's, so a withdrawn rule taught again in those words came back; and an
exception heading that says whose view it is ("X is the exception for us: ...") excepted X from its own rule, so its
compiled preference was refused and the general rule it is an exception to spoke alone. Sentences of our own, none
from a case file."""

from __future__ import annotations

from forge.rulebook.authoring.checks import text_problem
from forge.rulebook.language.guard import complete_claims
from forge.rulebook.language.rule_claims import rule_claims
from forge.rulebook.language.predicate import truth
from forge.rulebook.language.situation import read_situation
from forge.rulebook.language.wording import read_wording
from forge.rulebook.model import Evidence
from forge.rulebook.store.curation import Teaching
from tests.plan_book import PlanBook


def _alerts(*rows: tuple[str, str, str]) -> str:
    return "Alerts:\n" + "\n".join(f"{h}: Activity {a}, Compromised {c}" for h, a, c in rows)


def _semantic(text: str, actor: str) -> Teaching:
    return Teaching(text, "CONTENT", ("planner",), "g", actor, Evidence("correction", actor, text[:40], 1),
                    trigger="dn-x", compiled_by="model", text=text)


# -- a share of a class restated as a count -----------------------------------------------------------------------------

SHARE = "Once the majority of user boxes, so four or more of them, are owned, plan Analyse Op_Server0 first."


def test_a_share_restated_as_a_count_is_that_count():
    found = rule_claims(SHARE, with_instruction=True)
    assert complete_claims(SHARE, found)
    four = read_situation(_alerts(*((f"User{n}", "None", "User") for n in range(4)), ("User4", "None", "No")))
    one = read_situation(_alerts(("User0", "None", "User"), *((f"User{n}", "None", "No") for n in range(1, 5))))
    assert truth(found, four) is True and truth(found, one) is False


def test_one_host_of_the_class_is_wider_than_the_count():
    problem = text_problem(SHARE, {"class": "User", "compromise": "any"}, {"mode": "do", "verb": "Analyse", "target": "Op_Server0"})
    assert problem is not None and problem.startswith("claims")


# -- a condition written as code ----------------------------------------------------------------------------------------

CODE = "when E1.activity == Exploit:\n    Remove(E1)  # and nothing more"


def test_a_compared_column_is_the_host_state():
    found = rule_claims(CODE, with_instruction=True)
    exploited = read_situation(_alerts(("Enterprise1", "Exploit", "User")))
    scanned = read_situation(_alerts(("Enterprise1", "Scan", "No")))
    assert truth(found, exploited) is True and truth(found, scanned) is False


def test_the_bare_host_is_wider_than_the_compared_column():
    problem = text_problem(CODE, {"host": "Enterprise1"}, {"mode": "do", "verb": "Remove", "target": "Enterprise1"})
    assert problem is not None


def test_guard_a_denied_column_is_never_read_as_the_state():
    # guard: "!=" is not read as the state (it would say the opposite); (r60h) it is read as that value denied of the row
    found = rule_claims("when E1.activity != Scan:\n    Remove(E1)", with_instruction=True)
    assert truth(found, read_situation(_alerts(("Enterprise1", "Scan", "No")))) is False
    assert truth(found, read_situation(_alerts(("Enterprise1", "Exploit", "User")))) is True


# -- "OR" in capitals, and a condition after the order's hosts ------------------------------------------------------------

CAPITAL_OR = "whenever user 1 OR user 4 shows a scan, plan a DecoySmss on THAT host."
WHICHEVER = "Plan a DecoySmss on User1 or User4, whichever one is being scanned."


def test_or_in_capitals_is_one_of_them():
    found = rule_claims(CAPITAL_OR, with_instruction=True)
    only_first = read_situation(_alerts(("User1", "Scan", "No"), ("User4", "None", "No")))
    assert truth(found, only_first) is True
    assert text_problem(CAPITAL_OR, {"any": [{"host": "User1", "activity": "Scan"}, {"host": "User4", "activity": "Scan"}]},
                        {"mode": "do", "verb": "DecoySmss", "target": "$matched"}) is None


def test_a_withdrawn_rule_taught_again_with_whichever_is_refused():
    book = PlanBook()
    first = _semantic(CAPITAL_OR, "user:ivo")
    book.apply(first)
    book.withdraw(first.rule_id)
    (outcome,) = book.apply(_semantic(WHICHEVER, "user:ivo")).outcomes
    assert outcome.result == "refused"


# -- an exception heading that says whose view it is ---------------------------------------------------------------------

VIEW = "Op_Host1 is the exception for us: whenever it shows a scan, we plan Analyse on Op_Host1, not a Restore."


def test_the_host_of_an_exception_heading_is_not_excepted():
    words = read_wording(VIEW)
    assert "Op_Host1" not in words.excepted and "Op_Host1" not in words.contrasted
    assert text_problem(VIEW, {"host": "Op_Host1", "activity": "Scan"},
                        {"mode": "prefer", "verb": "Analyse", "target": "Op_Host1",
                         "over": {"verb": "Restore", "target": "Op_Host1"}}) is None


def test_guard_a_host_said_to_be_the_exception_after_the_order_is_excepted():
    # guard: not a heading (no colon after it): the host is still what the order leaves out
    words = read_wording("Restore every op host once it is rooted; Op_Host1 is the exception for us.")
    assert "Op_Host1" in words.excepted
