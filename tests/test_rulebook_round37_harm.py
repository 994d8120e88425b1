"""Issue 29, round 37 (r37h: blind-34's harmful and outranked injections). A reflection that was withdrawn came back when
its teacher drew the same lesson again from the same failure in other words: the story before the first wording's lesson
was misread (its order cut short, its condition taken from the story), so neither its compiled meaning nor its words
matched the second wording's, and the withdrawal was undone. The product now refuses, besides, a teaching by a teacher
of the withdrawn rule, forged from the very failure snapshot it was, whose words name no verb, host or class the
withdrawn text did not. And an exception heading with an aside in brackets ("X is the exception (why): when ...") was
read as excepting X from its own rule, so its prohibition on X said nothing the resolution could weigh and the general
rule spoke for X. Sentences of our own, none from a case file."""

from __future__ import annotations

from forge.rulebook.language.said import said_in_words
from forge.rulebook.language.wording import read_wording
from forge.rulebook.model import Evidence
from forge.rulebook.retrieval.resolve import eligible_rules, resolve_conflicts
from forge.rulebook.store.curation import Teaching, _relearned
from tests.plan_book import PlanBook

PLANNER = ("planner",)
CHOOSER = ("action_chooser",)


def _lesson(text: str, actor: str, failure: str, kind: str = "failure") -> Teaching:
    """A rule kept semantic, taught by `actor` from the failure snapshot `failure` (its trigger node)."""
    return Teaching(text, "CONTENT", PLANNER, "g", actor, Evidence(kind, actor, failure, 1, text[:30]), trigger=failure,
                    compiled_by="model", text=text)


# -- the same lesson drawn again from the same failure ------------------------------------------------------------------

STORY = ("I sat on Monitor through the first steps of that run, which was fine, but when one enterprise server got "
         "scanned I kept watching and lost it. Usually, I think, a scan on an enterprise server is the moment to stop "
         "watching: put a DecoyTomcat on that server.")
RETOLD = ("Once an enterprise server is being scanned, I ought to quit Monitor and plant a DecoyTomcat there; it slows "
          "the intruder cheaply.")


def _withdrawn_book() -> PlanBook:
    book = PlanBook()
    book.apply(_lesson(STORY, "s4/i02", "dn-failure-1"))
    book.withdraw(next(iter(book.records)))
    return book


def test_a_lesson_retold_from_the_same_failure_is_refused():
    plan = _withdrawn_book().apply(_lesson(RETOLD, "s4/i02", "dn-failure-1"))
    assert [o.result for o in plan.outcomes] == ["refused"]
    assert "forge rulebook restore" in plan.outcomes[0].detail


def test_guard_another_move_from_that_failure_is_a_rule_of_its_own():
    # a verb the withdrawn text never named: the teacher drew another lesson, not the withdrawn one again
    plan = _withdrawn_book().apply(_lesson("Any enterprise server under a scan gets a Remove from me.", "s4/i02",
                                           "dn-failure-1"))
    assert [o.result for o in plan.outcomes] == ["add"]


def test_guard_a_corrected_condition_from_that_failure_is_a_rule_of_its_own():
    # the same moves, claimed for another state of the hosts: the teacher corrects the condition, not the withdrawn lesson
    corrected = "Once an exploit lands on an enterprise server, I ought to quit Monitor and plant a DecoyTomcat there."
    assert [o.result for o in _withdrawn_book().apply(_lesson(corrected, "s4/i02", "dn-failure-1")).outcomes] == ["add"]


def test_guard_the_same_words_from_another_failure_or_teacher_are_not_relearned():
    # Relearning asks for the same failure and a teacher of the withdrawn rule; whether the retold words mean the
    # withdrawn rule is the by-meaning refusal's question (since r37m reads both wordings alike, it refuses them too).
    book = _withdrawn_book()
    withdrawn = next(iter(book.records.values()))
    assert _relearned(withdrawn, _lesson(RETOLD, "s4/i02", "dn-failure-1"))
    assert not _relearned(withdrawn, _lesson(RETOLD, "s4/i02", "dn-failure-2"))
    assert not _relearned(withdrawn, _lesson(RETOLD, "s7/i01", "dn-failure-1"))


# -- an exception heading with an aside in brackets -----------------------------------------------------------------------

HEADED = "User3 is the exception (the lab's desk): when it is rooted, no Restore on it."
GENERAL = "Each rooted user machine gets a Restore."


def test_an_aside_after_an_exception_heading_keeps_the_host_the_rule_is_for():
    words = read_wording(HEADED)
    assert "User3" not in words.excepted
    when, action = said_in_words(HEADED)
    assert action.mode == "never" and action.move.verb == "Restore"
    assert {atom.host for atom in [when]} == {"User3"} and when.compromise == "Privileged"


def test_the_bracketed_exception_outranks_the_general_rule_on_its_host():
    book = PlanBook()
    general = Teaching(GENERAL, "CONTENT", CHOOSER, "g", "user:kim",
                       Evidence("correction", "user:kim", "general", 1), trigger="dn-x", compiled_by="model",
                       when={"class": "User", "compromise": "Privileged"},
                       action={"mode": "do", "verb": "Restore", "target": "$matched"})
    exception = Teaching(HEADED, "CONTENT", CHOOSER, "g", "user:kim", Evidence("correction", "user:kim", "exception", 1),
                         trigger="dn-y", compiled_by="model", text=HEADED)
    book.apply(general, exception)
    ids = {r.directive: r.rule_id for r in book.records.values()}
    rule, prohibition = ids[GENERAL], ids[HEADED]
    assert prohibition in book.records[rule].conflicts_with
    kept, _ = resolve_conflicts([rule, prohibition], book.records, eligible_rules(book.records), None)
    assert kept == [prohibition]


def test_guard_a_bracket_that_is_no_aside_of_a_heading_is_read_as_before():
    assert "User3" in read_wording("Restore every user host (User3 is the exception).").excepted
