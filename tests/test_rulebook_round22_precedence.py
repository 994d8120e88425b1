"""Issue 29, twenty-second round (r22h): a rule back in force once the rule that replaced it is withdrawn still meets
the rules other teachers taught while it was replaced (blind18, both compilers). Sentences of our own, not the case
files'."""

from __future__ import annotations

from forge.rulebook.model import Evidence, RuleStatus
from forge.rulebook.retrieval.resolve import eligible_rules, resolve_conflicts
from forge.rulebook.store.curation import Teaching
from tests.plan_book import PlanBook

CHOOSER = ("action_chooser",)
ENT2_EXPLOITED = {"host": "Enterprise2", "activity": "Exploit"}


def rule(text: str, actor: str, verb: str, when=ENT2_EXPLOITED) -> Teaching:
    return Teaching(text, "CONTENT", CHOOSER, "g", actor, Evidence("correction", actor, text[:40], 1),
                    trigger="dn-x", compiled_by="model", when=when, action={"mode": "do", "verb": verb, "target": "Enterprise2"})


FIRST = rule("Enterprise2 exploited: give it an Analyse.", "user:ida", "Analyse")
SECOND = rule("On second thought, an exploit on Enterprise2 calls for a Remove of it.", "user:ida", "Remove")
OTHER = rule("Enterprise2 shows an exploit? Restore Enterprise2.", "user:jon", "Restore")


def _taught() -> tuple[PlanBook, str, str, str]:
    book = PlanBook()
    book.apply(FIRST)
    book.apply(SECOND)
    first, second = book.of(FIRST.directive).rule_id, book.of(SECOND.directive).rule_id
    assert book.records[first].status == RuleStatus.SUPERSEDED
    book.apply(OTHER)
    return book, first, second, book.of(OTHER.directive).rule_id


def test_a_rule_taught_while_another_was_replaced_is_flagged_against_it_too():
    book, first, _second, other = _taught()
    assert other in book.records[first].conflicts_with
    assert first in book.records[other].conflicts_with


def test_once_the_replacement_is_withdrawn_each_teacher_gets_their_own_rule_alone():
    book, first, second, other = _taught()
    book.withdraw(second)
    eligible = eligible_rules(book.records)
    assert eligible == {first, other}
    kept, _ = resolve_conflicts([first, other], book.records, eligible, "user:ida")
    assert kept == [first]
    kept, _ = resolve_conflicts([other, first], book.records, eligible, "user:jon")
    assert kept == [other]


def test_while_the_replacement_stands_the_replaced_rule_stays_out():
    book, first, second, other = _taught()
    eligible = eligible_rules(book.records)
    assert first not in eligible
    kept, _ = resolve_conflicts([second, other], book.records, eligible, "user:ida")
    assert kept == [second]


def test_a_replaced_rule_is_flagged_against_nothing_it_agrees_with():
    book = PlanBook()
    book.apply(FIRST)
    book.apply(SECOND)
    first = book.of(FIRST.directive).rule_id
    aside = Teaching("Enterprise2 exploited: a DecoyApache on Enterprise0.", "CONTENT", CHOOSER, "g", "user:jon",
                     Evidence("correction", "user:jon", "decoy", 1), trigger="dn-x", compiled_by="model",
                     when=ENT2_EXPLOITED, action={"mode": "do", "verb": "DecoyApache", "target": "Enterprise0"})
    book.apply(aside)
    assert not book.records[first].conflicts_with
    assert not book.of(aside.directive).conflicts_with


# -- the move said as a noun after a light verb ("run an Analyse of it") -----------------------------------------------

from forge.rulebook.authoring.checks import text_problem  # noqa: E402
from forge.rulebook.language.order import gives_order  # noqa: E402
from forge.rulebook.language.wording import read_wording

LIGHT = ("Op_Host2 kept reading Unknown after my Restore and I sat on Monitor for three turns because the row did not "
         "move. I am fairly confident that for any operational host whose row reads just Unknown, I ought to {verb} "
         "of that host first.")


def test_a_light_verb_before_the_move_gives_an_order() -> None:
    for said in ("I should run an Analyse of Op_Host2.", "we must carry out a Remove on User1 there.",
                 "Perform a Restore on Enterprise0 when it is rooted.", "Run an Analyse of User3 first."):
        assert gives_order(said), said
    for told in ("I ran an Analyse of Op_Host2 and it came back empty.", "We did a Remove on User1 at step 4.",
                 "Run 1002 went badly from the start."):
        assert not gives_order(told), told


def test_the_order_in_a_light_verb_is_the_lesson_not_the_story() -> None:
    for verb in ("run an Analyse", "perform an Analyse", "do an Analyse"):
        words = read_wording(LIGHT.format(verb=verb))
        assert "Analyse" in words.verbs and "Monitor" not in words.verbs and "Restore" not in words.verbs, (verb, words.instruction)
        when = {"class": "Operational", "compromise": "Unknown"}
        action = {"mode": "do", "verb": "Analyse", "target": "$matched"}
        problem = text_problem(LIGHT.format(verb=verb), when, action)
        assert problem is None, (verb, problem)


def test_a_light_verb_after_a_negation_is_still_a_prohibition() -> None:
    # (the guard against inversion: "should not run a Restore" forbids Restore; a "do Restore" compiled from it is refused)
    for text, verb, host, when in (
            ("You should not run a Restore on Op_Host1 while it is only scanned.", "Restore", "Op_Host1",
             {"host": "Op_Host1", "activity": "Scan", "compromise": "No"}),
            ("Never carry out an Analyse of Enterprise0 once it is rooted.", "Analyse", "Enterprise0",
             {"host": "Enterprise0", "compromise": "Privileged"})):
        words = read_wording(text)
        assert [(p.verb, p.hosts) for p in words.prohibitions] == [(verb, (host,))], text
        problem = text_problem(text, when, {"mode": "do", "verb": verb, "target": host})
        assert problem is not None and problem.startswith("prohibition"), (text, problem)
