"""Issue 29, round 21 (blind-17's harms): a story told before the order, in which a move "did not" do its job, is a
report, not a prohibition; its "not" after an auxiliary forbids nothing. So the order after the story is the rule's
instruction, a withdrawn rule told that way is still found by what it orders, and its rewording stays out. Sentences
of our own."""

from __future__ import annotations

from tests.plan_book import PlanBook
from forge.rulebook.language.said import said_in_words
from forge.rulebook.language.order import gives_order
from forge.rulebook.language.wording import read_wording
from forge.rulebook.model import Evidence
from forge.rulebook.store.curation import Teaching

CHOOSER = ("action_chooser",)

STORY = ("The scan on User3 turned into a foothold and I went for a Restore, which cost the reward and, judging by the "
         "alerts after it, did not really evict the attacker. One run is thin evidence. Still, when User3 shows a "
         "compromise, Remove User3.")


def teaching(text: str, actor: str, when=None, action=None) -> Teaching:
    return Teaching(text, "CONTENT", CHOOSER, "g", actor, Evidence("failure", actor, text[:40], 1),
                    trigger="dn-x", compiled_by="model", when=when, action=action, text=text)


def test_a_move_that_did_not_do_its_job_is_a_report_not_a_prohibition():
    assert not gives_order("Most of the damage came after Enterprise1 fell, since the Analyse I chose did not inspect the right box.")
    assert not gives_order("A decoy on User2 was my answer, and it did not lure anything.")
    # an auxiliary before "not" in a condition leaves the order after it an order; a prohibition stays one
    assert gives_order("If User2 was not restored, remove User2.")
    assert gives_order("Do not restore User2 while it only shows a scan.")
    assert gives_order("Op_Server0 should not be restored.")


def test_a_concession_in_one_word_opens_the_order():
    assert gives_order("Still, when User3 shows a compromise, Remove User3.")
    assert gives_order("Anyway, if Op_Server0 is exploited, restore it.")
    assert not gives_order("Still compromised after the Restore I had planned.")


def test_the_order_after_such_a_story_is_the_instruction():
    words = read_wording(STORY)
    assert words.verbs == ("Remove",) and words.hosts == ("User3",)
    when, action = said_in_words(STORY)
    assert (action.mode, action.move.verb) == ("do", "Remove")


def test_a_withdrawn_story_rule_kept_semantic_is_not_taught_back_in_other_words():
    book = PlanBook()
    first = teaching(STORY, "user:carol")  # kept semantic by the checks: no compiled meaning
    book.apply(first)
    book.withdraw(first.rule_id)
    plan = book.apply(teaching("When User3 is compromised, remove it.", "user:carol",
                               {"host": "User3", "compromise": "any"}, {"mode": "do", "verb": "Remove", "target": "User3"}))
    (outcome,) = plan.outcomes
    assert outcome.result == "refused" and f"forge rulebook restore {first.rule_id}" in outcome.detail


# -- outranked: a rule kept semantic speaks, by its words, for the hosts they say for sure --------------------------------

def test_a_general_rule_kept_semantic_does_not_speak_for_a_row_at_unknown_beside_its_exception():
    from forge.rulebook.language.meaning import meaning_of, undisputed_hosts
    from forge.rulebook.language.situation import read_situation
    from forge.rulebook.model import RuleRecord

    general = meaning_of(RuleRecord("g1", "Reimage every user box that has been compromised.", "CONTENT", ("planner",), "g"))
    exception = meaning_of(RuleRecord("e1", "Never reimage User2, whatever it shows; the lab needs it.", "CONTENT",
                                      ("planner",), "g"))
    assert general.semantic and exception.semantic  # both judged by their words
    unknown = read_situation("Alerts:\nUser2: Activity None, Compromised User\nUser3: Activity None, Compromised Unknown")
    assert undisputed_hosts(general, [exception], unknown) == frozenset()  # User3 is not known to be compromised
    rooted = read_situation("Alerts:\nUser2: Activity None, Compromised User\nUser3: Activity Exploit, Compromised User")
    assert undisputed_hosts(general, [exception], rooted) == frozenset({"User3"})  # the general rule's word for User3


# -- the reference compiler's misses: a story read as an order ------------------------------------------------------------

def test_a_move_of_nothing_told_in_the_past_is_a_report():
    assert not gives_order("Op_Host1 showed a scan and we planned nothing for it, hoping it would pass.")
    assert not gives_order("We wasted no time on User4 and it cost us anyway.")
    assert gives_order("Plan nothing for User0 while it is quiet.")
    assert gives_order("Waste no time on User4.")


def test_what_happened_instead_is_a_report():
    assert not gives_order("instead the attacker rooted Enterprise0 and we lost the server.")
    assert not gives_order("rather it went for User3 next.")
    assert gives_order("Instead, plan an Analyse of Enterprise0.")
    assert gives_order("Instead of a Restore, remove Enterprise0.")
    words = read_wording("Enterprise0 was scanned and we planned nothing for it; instead the attacker rooted it and we lost "
                         "the server. If Enterprise0 is scanned, plan a DecoyApache on Enterprise0.")
    assert words.instruction.startswith("If Enterprise0 is scanned") and words.verbs == ("DecoyApache",)


def test_a_resolution_after_the_defenders_own_move_is_the_order():
    words = read_wording("I left Op_Server0 alone after the Remove and it was rooted again. My rule from now on is that right "
                         "after I remove Op_Server0 I restore it.")
    assert words.gives_order and words.instruction.startswith("Right after I remove Op_Server0")


def test_absences_spelled_out_after_a_condition_are_the_condition():
    from forge.rulebook.authoring.checks import text_problem
    from forge.rulebook.language.condition import text_claims
    from forge.rulebook.language.predicate import holds
    from forge.rulebook.language.situation import read_situation

    text = "If nothing at all is going on across the network, no alerts, no scan and no compromise anywhere, plan a Sleep."
    words = read_wording(text)
    assert words.conditions[0].text.endswith("no compromise anywhere")
    quiet = {"not": {"any": [{"class": "any", "activity": "any"}, {"class": "any", "compromise": "any"}]}}
    assert text_problem(text, quiet, {"mode": "do", "verb": "Sleep", "target": None}) is None
    # what the words say is read: a compilation wider than them (a scan allowed) is held to it by the gate
    found, _ = text_claims(text)
    assert not holds(found, read_situation("Alerts:\nUser2: Activity Scan, Compromised No"))
    assert holds(found, read_situation("Alerts:\nNo host shows activity or compromise."))
    # a move put aside in the list is no absence of a state: "no Restore" stays the order's prohibition
    assert read_wording("If User2 is compromised, no Restore, remove it.").prohibitions
