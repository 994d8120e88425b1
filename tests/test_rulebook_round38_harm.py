"""Issue 29, round 38 (r38h: blind-35's harmful and outranked injections). Each class a rule fired where its own words
say it does not apply, or said the opposite of its words:
- a host named only as the measure of a comparison ("worse off than X") was read as that host merely shown;
- a count of all of a class but some ("all but two of ...") was read as one host of the class;
- "no other <class> host" made the host a story named an exception, and the count then held on a quiet network;
- "<host> excluded." as a note of its own after the order excepted nothing;
- a judgement after a verb ("... would be premature") was given to the first verb of the sentence, not its own clause's;
- "are both held" left the state unread, so a row at Compromised Unknown met it;
- a move put before a place ("... on that server before you touch any user box") did not put the place second when the
  first part names its host by "that server";
- a teacher's widened revision of a one-host order left the old order in force beside it.
Sentences of our own, none from a case file."""

from __future__ import annotations

from forge.rulebook.authoring.checks import text_problem
from forge.rulebook.language.condition import semantic_claims, text_claims
from forge.rulebook.language.facts import facts_needed
from forge.rulebook.language.guard import confirmed
from forge.rulebook.language.rule_claims import rule_claims
from forge.rulebook.language.predicate import truth
from forge.rulebook.language.situation import read_situation, state_of
from forge.rulebook.language.wording import read_wording
from forge.rulebook.model import Evidence, RuleStatus
from forge.rulebook.store.curation import Teaching
from tests.plan_book import PlanBook

PLANNER = "planner"


def _table(*rows: tuple[str, str, str]):
    """A context of the blue table with these (host, activity, compromised) rows; every other host unlisted."""
    lines = [f"{host} | 10.0.0.0/28 | 10.0.0.{i} | {activity} | {compromised}"
             for i, (host, activity, compromised) in enumerate(rows)]
    return read_situation("Hostname | Subnet | IP | Activity | Compromised\n" + "\n".join(lines))


def _levels(**compromised: str):
    """A context of these hosts' Compromised values, none of them active."""
    return _table(*[(host, "None", level) for host, level in compromised.items()])


QUIET = _table(*[(h, "None", "No") for h in ("Defender", "Enterprise0", "Enterprise1", "Enterprise2", "Op_Host0",
                                             "Op_Host1", "Op_Host2", "Op_Server0", "User0", "User1", "User2", "User3",
                                             "User4")])


# -- a state compared with a named host's ------------------------------------------------------------------------------

COMPARED = "A box left in a worse condition than User2 is due a Restore."


def test_a_state_compared_with_a_named_host_is_a_fact_of_its_own():
    assert "comparison" in facts_needed(COMPARED)
    assert "comparison" in facts_needed("Restore an op host more compromised than Op_Server0.")


def test_a_compared_host_compiled_as_the_trigger_is_refused():
    problem = text_problem(COMPARED, {"host": "User2"}, {"mode": "do", "verb": "Restore", "target": "User2"})
    assert problem is not None and problem.startswith("facts:")


def test_guard_counts_and_preferences_are_no_comparison():
    for text in ("Once two or more op hosts get owned, take the attacker off each.",
                 "Restore Op_Server0 rather than Enterprise2.", "A Remove is better than a Restore on User1."):
        assert "comparison" not in facts_needed(text)


# -- all of a class but some ------------------------------------------------------------------------------------------

def test_all_but_one_of_a_class_counts_the_others():
    found = rule_claims("When all the enterprise servers but one are owned, restore Op_Server0.", with_instruction=True)
    one = _levels(Enterprise2="No", Enterprise0="User", Enterprise1="No")
    two = _levels(Enterprise2="No", Enterprise0="User", Enterprise1="Privileged")
    assert truth(found, one) is False
    assert truth(found, two) is True


def test_all_but_two_of_the_hosts_said_with_of():
    found = rule_claims("If all but two of the user boxes are hacked, plan a DecoySmss on a clean one.",
                        with_instruction=True)
    three = _table(*[(f"User{i}", "None", "User" if i < 3 else "No") for i in range(5)])
    four = _table(*[(f"User{i}", "None", "User" if i < 4 else "No") for i in range(5)])
    assert truth(found, three) is True
    assert truth(found, four) is False


# -- "no other" after a count --------------------------------------------------------------------------------------------

COUNTED = ("Last run Op_Host1 was the only box with a foothold and I restored it at once. My lesson: when just one op "
           "host is hit and no other op host is, plan a Remove on it instead of a Restore.")


def test_no_other_after_a_count_excepts_no_host_of_the_story():
    assert "Op_Host1" not in read_wording(COUNTED).excepted


def test_a_count_kept_semantic_is_silent_on_a_quiet_network():
    directive = read_wording(COUNTED).instruction
    found = semantic_claims(directive, "predicate refused: negation: ...", COUNTED)
    assert truth(found, QUIET) is False


# -- "<host> excluded." on its own -------------------------------------------------------------------------------------

def test_a_host_excluded_in_a_note_of_its_own_is_excepted():
    words = read_wording("Remove the attacker from an exploited enterprise server. Enterprise0 excluded.")
    assert words.excepted == ("Enterprise0",)


# -- a judgement said of its own clause's verb -------------------------------------------------------------------------

PREMATURE = "While only scans show, a DecoyApache goes on the scanned box and a Remove now would be premature."


def test_a_judgement_is_said_of_the_verb_of_its_own_clause():
    assert {p.verb for p in read_wording(PREMATURE).prohibitions} == {"Remove"}


def test_the_judged_verb_ordered_is_refused():
    problem = text_problem(PREMATURE, {"compromise": "No", "activity": "Scan", "host": "Op_Host2"},
                           {"mode": "do", "verb": "Remove", "target": "Op_Host2"})
    assert problem is not None and problem.startswith("prohibition:")


# -- "both held" -------------------------------------------------------------------------------------------------------

def test_hosts_both_held_are_compromised():
    assert state_of("User1 and Enterprise0 are both held")[0][1] is not None
    found, _ = text_claims("When User1 and Enterprise0 are both held, the Restore of Enterprise0 goes first.")
    unsure = _table(("User1", "None", "User"), ("Enterprise0", "None", "Unknown"))
    assert truth(confirmed(found), unsure) is False  # (what the gate holds a compiled predicate to, in part)


# -- a place put second after "that server" ---------------------------------------------------------------------------

SECOND = "Once an enterprise box is under exploit, go for a Remove on that server before you touch any user box."
TRIGGER = {"class": "Enterprise", "activity": "Exploit"}


def test_the_place_put_second_is_not_the_order():
    problem = text_problem(SECOND, TRIGGER, {"mode": "do", "verb": "Remove", "target": "User"})
    assert problem is not None and problem.startswith("inverted:")


def test_guard_the_place_put_second_may_be_dispreferred():
    action = {"mode": "prefer", "verb": "Remove", "target": "$matched", "over": {"verb": "Remove", "target": "User"}}
    assert text_problem(SECOND, TRIGGER, action) is None


# -- a widened revision of one's own one-host order --------------------------------------------------------------------

def _taught(text: str, when: dict, action: dict, actor: str, revises: bool = False) -> Teaching:
    return Teaching(text, "CONTENT", (PLANNER,), "g", actor, Evidence("correction", actor, text[:40], 1),
                    trigger="dn-x", compiled_by="model", text=text, when=when, action=action, revises=revises)


NARROW = ("Enterprise1 under exploit: Remove Enterprise1.", {"host": "Enterprise1", "activity": "Exploit"},
          {"mode": "do", "verb": "Remove", "target": "Enterprise1"})
WIDE = ("Every enterprise server under exploit gets that Remove too.", {"class": "Enterprise", "activity": "Exploit"},
        {"mode": "do", "verb": "Remove", "target": "$matched"})


def test_a_widened_revision_supersedes_the_one_host_order():
    book = PlanBook()
    narrow, wide = _taught(*NARROW, actor="user:ria"), _taught(*WIDE, actor="user:ria", revises=True)
    book.apply(narrow)
    book.apply(wide)
    assert book.records[narrow.rule_id].status == RuleStatus.SUPERSEDED
    assert narrow.rule_id in book.records[wide.rule_id].supersedes


def test_guard_without_words_of_revision_both_stay():
    book = PlanBook()
    narrow, wide = _taught(*NARROW, actor="user:ria"), _taught(*WIDE, actor="user:ria")
    book.apply(narrow)
    book.apply(wide)
    assert book.records[narrow.rule_id].status != RuleStatus.SUPERSEDED


def test_guard_another_teachers_widened_order_replaces_nothing():
    book = PlanBook()
    narrow, wide = _taught(*NARROW, actor="user:ria"), _taught(*WIDE, actor="user:ola", revises=True)
    book.apply(narrow)
    book.apply(wide)
    assert book.records[narrow.rule_id].status != RuleStatus.SUPERSEDED
