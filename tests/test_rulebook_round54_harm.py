"""Round 54 (r54h): rules injected where their own words say they do not apply, or the opposite of them. A count of
times an event has come ("the third time a Restore leaves it held") is history, which no claim of the hosts' rows reads;
a question that asks whether to make a move is answered "no" (the move turned down) or left open ("it depends": no
order at all); a checklist none of whose boxes is ticked agrees nothing."""

import pytest

from forge.rulebook.authoring.checks import text_problem
from forge.rulebook.language.condition import semantic_claims
from forge.rulebook.language.facts import facts_needed
from forge.rulebook.language.predicate import Always, Not


def _do(verb, target):
    return {"mode": "do", "verb": verb, "target": target}


# a count of times an event has come is history
@pytest.mark.parametrize("text", [
    "The third time a Restore leaves Enterprise1 held, give up on restoring it and Analyse it.",
    "the second time an exploit shows up on User2, put a decoy on it",
])
def test_count_of_times_is_history(text):
    assert "history" in facts_needed(text)


@pytest.mark.parametrize("text", [
    "The third time a Restore leaves a user box compromised, switch to Remove on that box.",
    "The fourth time an exploit lands on an enterprise server, Restore the server.",
])
def test_count_of_times_keeps_a_refused_rule_silent(text):
    assert semantic_claims(text, "predicate refused: prohibition: x", text) == Not(Always())


# a move asked about and turned down is never the order
@pytest.mark.parametrize("text, when, action", [
    ("Q: should an op box at Privileged get one more Analyse? A: No, Restore it straight away.",
     {"class": "Operational", "compromise": "Privileged"}, _do("Analyse", "$matched")),
    ("Can we Remove Enterprise0 once it reads Unknown? A: Nope, let an Analyse settle it first.",
     {"host": "Enterprise0", "compromise": "Unknown"}, _do("Remove", "Enterprise0")),
])
def test_move_turned_down_by_the_answer_is_refused(text, when, action):
    assert text_problem(text, when, action) is not None


# a move asked about and left open is no order, and the note is applied nowhere
@pytest.mark.parametrize("text", [
    "Q: do we Analyse User1 as long as a probe is all it has? A: It depends; nobody has decided that yet.",
    "Should we put a DecoySSHD on Enterprise2 when it gets probed? Still under discussion.",
])
def test_move_left_open_is_no_order(text):
    verb = "Analyse" if "Analyse" in text else "DecoySSHD"
    host = "User1" if "User1" in text else "Enterprise2"
    assert text_problem(text, {"host": host, "activity": "Scan"}, _do(verb, host)) is not None
    assert semantic_claims(text, "", text) == Not(Always())


def test_question_answered_with_the_move_itself_is_still_an_order():
    text = "Q: should Op_Server0 receive a Restore once it reads Privileged? A: Yes, Restore Op_Server0."
    assert text_problem(text, {"host": "Op_Server0", "compromise": "Privileged"}, _do("Restore", "Op_Server0")) is None


# a move only suggested with a modal of what is possible is no order, and a note of suggestions alone applies nowhere
@pytest.mark.parametrize("text, when, action", [
    ("whenever Op_Host1 gets exploited it might be worth a Restore of Op_Host1",
     {"host": "Op_Host1", "activity": "Exploit"}, _do("Restore", "Op_Host1")),
    ("Enterprise0 at Unknown: we could possibly run an Analyse on it.",
     {"host": "Enterprise0", "compromise": "Unknown"}, _do("Analyse", "Enterprise0")),
    ("User1 probed? perhaps a DecoyHarakaSMPT could work on it, no idea really.",
     {"host": "User1", "activity": "Scan"}, _do("DecoyHarakaSMPT", "User1")),
])
def test_move_only_suggested_is_no_order(text, when, action):
    assert text_problem(text, when, action) is not None
    assert semantic_claims(text, "", text) == Not(Always())


@pytest.mark.parametrize("text, when, action", [
    # a move the writer could not make is no suggestion of it
    ("When Enterprise1 is exploited, Remove Enterprise1; we could not restore it in time last game.",
     {"host": "Enterprise1", "activity": "Exploit"}, _do("Remove", "Enterprise1")),
])
def test_firm_order_beside_a_hedge_still_passes(text, when, action):
    assert text_problem(text, when, action) is None


# a checklist with no item ticked agrees nothing: no rule on the reply's form, and applied nowhere
def test_checklist_with_nothing_ticked_is_no_format_rule():
    from forge.rulebook.authoring.compile import SourceItem, _entry
    from forge.rulebook.model import RuleType

    text = "Possible planner habits:\n[ ] open each plan with the step number\n[ ] close it with a one-word verdict"
    rule, problem = _entry(SourceItem("correction", "planner", text, "ann"),
                           {"verdict": "RULE", "type": "FORMAT", "directive": text, "roles": ["planner"]})
    assert problem is None and rule.type == RuleType.CONTENT and rule.when is None
    assert semantic_claims(rule.directive, rule.semantic_reason, text) == Not(Always())


def test_checklist_with_an_item_ticked_stays_a_format_rule():
    from forge.rulebook.authoring.compile import SourceItem, _entry
    from forge.rulebook.model import RuleType

    text = "Planner habits we settled on:\n[x] open each plan with the step number\n[ ] close it with a one-word verdict"
    rule, _ = _entry(SourceItem("correction", "planner", text, "ann"),
                     {"verdict": "RULE", "type": "FORMAT", "directive": text, "roles": ["planner"]})
    assert rule.type == RuleType.FORMAT


# a prohibition conceded in a state, said with the move to make instead: the other move is for that state
@pytest.mark.parametrize("text, shown, quiet", [
    ("Enterprise1 is special: even if it is rooted, no Remove on Enterprise1 - Restore it.",
     "Enterprise1: Activity None, Compromised Privileged", "Enterprise1: Activity Scan, Compromised No"),
    ("Even when Op_Host2 is compromised, do not restore Op_Host2; Analyse it instead.",
     "Op_Host2: Activity None, Compromised User", "Op_Host2: Activity None, Compromised No"),
])
def test_conceded_prohibition_with_another_move_holds_in_the_conceded_state(text, shown, quiet):
    from forge.rulebook.language.predicate import truth
    from forge.rulebook.language.situation import read_situation

    found = semantic_claims(text, "predicate refused: always: x", text)
    assert truth(found, read_situation(f"Alerts:\n{shown}")) is True
    assert truth(found, read_situation(f"Alerts:\n{quiet}")) is not True


def test_conceded_prohibition_alone_still_holds_wherever_its_host_is_shown():
    from forge.rulebook.language.predicate import Atom

    text = "Do not Remove Enterprise2, even when it is compromised."
    assert semantic_claims(text, "predicate refused: always: x", text) == Atom(host="Enterprise2")


# a condition that points back at a table line the text quotes is that line: its host at both values
_LINE_NOTE = ("Around step 7 the table showed 'Op_Host0: Activity Scan, Compromised No' and I let it be. "
              "Whenever that row turns up, put a DecoyApache on Op_Host0 at once.")


def test_predicate_of_the_host_alone_is_wider_than_the_quoted_line():
    assert text_problem(_LINE_NOTE, {"host": "Op_Host0"}, _do("DecoyApache", "Op_Host0")) is not None
    assert text_problem(_LINE_NOTE, {"host": "Op_Host0", "activity": "Scan", "compromise": "No"},
                        _do("DecoyApache", "Op_Host0")) is None


def test_rule_kept_semantic_holds_on_the_quoted_line_only():
    from forge.rulebook.language.predicate import truth
    from forge.rulebook.language.situation import read_situation

    found = semantic_claims(_LINE_NOTE, "predicate refused: scope: x", _LINE_NOTE)
    assert truth(found, read_situation("Alerts:\nOp_Host0: Activity Scan, Compromised No")) is True
    assert truth(found, read_situation("Alerts:\nOp_Host0: Activity Exploit, Compromised User")) is not True


# a count above one over hosts the text names ("any 2 of ...") is that count, read whole
@pytest.mark.parametrize("text, one_only, two", [
    ("any 2 of U1 / U2 / U4 rooted -> Restore U1",
     "User2: Activity None, Compromised Privileged\nUser4: Activity None, Compromised Unknown",
     "User1: Activity None, Compromised Privileged\nUser4: Activity None, Compromised Privileged"),
    ("If at least two of Op_Host0, Op_Host1 and Op_Host2 are compromised, plan a Restore of Op_Host0.",
     "Op_Host1: Activity None, Compromised User",
     "Op_Host0: Activity None, Compromised User\nOp_Host2: Activity None, Compromised Privileged"),
])
def test_count_of_named_hosts_above_one_is_read_whole(text, one_only, two):
    from forge.rulebook.language.condition import text_claims
    from forge.rulebook.language.predicate import truth
    from forge.rulebook.language.situation import read_situation

    found, whole = text_claims(text)
    assert whole
    assert truth(found, read_situation(f"Alerts:\n{one_only}")) is not True
    assert truth(found, read_situation(f"Alerts:\n{two}")) is True


# a rule back in force (its replacement withdrawn) is replaced by the teacher's later revision, as an active one is
def test_a_revision_replaces_a_rule_back_in_force():
    from forge.rulebook.model import Evidence
    from forge.rulebook.retrieval.resolve import eligible_rules
    from forge.rulebook.store.curation import Teaching
    from tests.plan_book import PlanBook

    def taught(text, when, action):
        return Teaching(text, "CONTENT", ("action_chooser",), "g", "user:kim", Evidence("correction", "user:kim", text[:40], 1),
                        trigger="dn-x", compiled_by="model", when=when, action=action, text=text)

    first = taught("Op_Host1 held -> Restore Op_Host1.", {"host": "Op_Host1", "compromise": "any"}, _do("Restore", "Op_Host1"))
    second = taught("Update: Op_Host1 held -> a Remove of Op_Host1 rather than a Restore.", {"host": "Op_Host1", "compromise": "any"},
                    {"mode": "prefer", "verb": "Remove", "target": "Op_Host1", "over": {"verb": "Restore", "target": "Op_Host1"}})
    third = taught("Disregard my earlier notes on Op_Host1: Analyse Op_Host1 once its row reads Unknown, nothing more.",
                   {"host": "Op_Host1", "compromise": "Unknown"}, _do("Analyse", "Op_Host1"))
    book = PlanBook()
    book.apply(first)
    book.apply(second)
    assert book.of(first.directive).status == "superseded"
    book.withdraw(book.of(second.directive).rule_id)
    assert book.of(first.directive).rule_id in eligible_rules(book.records)  # back in force
    book.apply(third)
    assert eligible_rules(book.records) == {book.of(third.directive).rule_id}


# "enough" in a chat's spelling: the move judged short is the one the text puts aside
@pytest.mark.parametrize("text", [
    "op host 2 rooted -> restore it, a remove alone is not enuf for that",
    "User4 compromised: Restore User4 - Remove is never enuff on that box.",
])
def test_move_judged_not_enough_in_chat_spelling_is_put_aside(text):
    from forge.rulebook.language.wording import read_wording

    words = read_wording(text)
    assert "Remove" in {p.verb for p in words.prohibitions} | set(words.dispreferred)


# a judgement after a dash is said of the clause after the dash, never of the move ordered before it
@pytest.mark.parametrize("text, judged, ordered", [
    ("Op_Host0 rooted: Restore Op_Host0 - an Analyse is pointless by then.", "Analyse", "Restore"),
    ("Enterprise1 exploited -> Remove Enterprise1 \u2014 a Restore would be overkill there.", "Restore", "Remove"),
])
def test_judgement_after_a_dash_is_of_its_own_clause(text, judged, ordered):
    from forge.rulebook.language.wording import read_wording

    banned = {p.verb for p in read_wording(text).prohibitions}
    assert judged in banned and ordered not in banned


@pytest.mark.parametrize("text", [
    # the writer's doubt about themselves suggests no move
    "I could be misreading the run, but when Enterprise0 shows an exploit, Remove Enterprise0.",
    # a suggestion quoted as wording to avoid is no suggestion of the note's
    "Plans say 'Remove User3', never 'we could remove User3'.",
])
def test_no_suggestion_where_the_modal_is_the_writers_doubt_or_a_quote(text):
    from forge.rulebook.language.forms import moves_only_suggested

    assert moves_only_suggested(text) == frozenset()
