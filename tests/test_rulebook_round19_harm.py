"""Issue 29, nineteenth round (i29v): readings and checks that let a rule fire where its own words say it does not apply,
or with its action turned around (blind16's harms, both compilers), each class on sentences written for these tests.

- *A prefer whose preferred move holds the move it puts aside* ("prefer Restore User over Restore User0"): the same verb
  on both sides, the dispreferred target among the preferred one's hosts. It prescribes what it puts aside, whatever
  the text says; the prohibition check let it through as "a prefer ... over" the forbidden verb.
- *A rule whose condition is read from its order's own words* (no condition read apart from the order: "X + Y -> Z is
  fine", "H: clean at prev step, now owned -> ..."): the claims were called whole whatever the order's pieces said, so a
  piece the reading dropped (a host in shorthand, a history) left claims wider than the text. Now a host stated in a
  piece of the order must be claimed, and a piece that states a state and names no verb must be read whole.
- *The one operational server in the shorthand of notes* ("ops server", "ops srv"): not read as a host at all, so a
  compiled predicate on any host passed every check.
"""
from __future__ import annotations

from forge.rulebook.authoring.checks import text_problem
from forge.rulebook.language.condition import semantic_claims, text_claims
from forge.rulebook.language.guard import complete_claims
from forge.rulebook.language.rule_claims import rule_claims
from forge.rulebook.language.predicate import truth
from forge.rulebook.language.markers import negations_in
from forge.rulebook.language.names import hosts_in
from forge.rulebook.language.wording import read_wording
from tests.situations import table_rows

REFUSED = "predicate refused: polarity: a test's refusal"


# -- a prefer that prescribes what it puts aside ---------------------------------------------------------------------------


def test_a_prefer_whose_preferred_target_holds_the_dispreferred_one_is_refused() -> None:
    text = "Do not reimage Enterprise1; the billing system runs on it until the audit ends."
    # the enterprise hosts hold Enterprise1: "restore an enterprise host rather than restore Enterprise1" restores it
    problem = text_problem(text, {"host": "Enterprise1"},
                           {"mode": "prefer", "verb": "Restore", "target": "Enterprise", "over": {"verb": "Restore", "target": "Enterprise1"}})
    assert problem is not None and problem.startswith("prefer:")
    # what the text says is accepted: a "never" of the forbidden move
    assert text_problem(text, {"host": "Enterprise1"}, {"mode": "never", "verb": "Restore", "target": "Enterprise1"}) is None


def test_a_prefer_of_one_verb_on_another_host_is_no_inversion() -> None:
    # the same verb on a host that is not the one put aside: what the text orders ("restore User3, not User4")
    text = "Restore User3 rather than User4 when both are compromised."
    assert text_problem(text, {"all": [{"host": "User3", "compromise": "any"}, {"host": "User4", "compromise": "any"}]},
                        {"mode": "prefer", "verb": "Restore", "target": "User3", "over": {"verb": "Restore", "target": "User4"}}) is None


# -- a condition read from the order's own words ----------------------------------------------------------------------------


def test_a_host_in_shorthand_stated_in_the_order_leaves_its_claims_not_whole() -> None:
    text = "E1 clean + no usr box owned -> Sleep is harmless"
    assert not read_wording(text).conditions  # no condition read apart from the order
    # (r23m: "E1" beside another subject is now written out and read, so the reading is whole: E1 clean, no user box
    # owned; it was not whole before, so the rule was silent everywhere)
    found = rule_claims(text, with_instruction=True)
    assert complete_claims(text, found)
    assert truth(semantic_claims(text, REFUSED, text), table_rows(("Enterprise1", "None", "No"))) is True
    # judged strictly (its predicate refused): silent where Enterprise1 is exploited
    assert truth(semantic_claims(text, REFUSED, text), table_rows(("Enterprise1", "Exploit", "User"))) is not True
    # and where the order has no heading before a colon: a question, then the move
    text = "OpS0 quiet and no usr box owned? Sleep is harmless."
    assert not read_wording(text).conditions and ":" not in read_wording(text).instruction
    # (r23m: read whole now, "OpS0" written out: OpS0 quiet and no user box owned; silent where either is not so)
    found = semantic_claims(text, REFUSED, text)
    assert truth(found, table_rows(("Op_Server0", "Scan", "No"))) is not True
    assert truth(found, table_rows(("User1", "None", "User"))) is not True
    assert truth(found, table_rows(("Op_Server0", "None", "No"))) is True


def test_a_history_stated_in_the_order_leaves_its_claims_not_whole() -> None:
    # a heading host, then what was and is now said of it before the order: the heading alone is no condition
    for text in ("Ent1: clean at the previous step, owned now -> plan Remove Ent1",
                 "OpH1: clean the step before, now infected -> Remove OpH1",
                 "U2: quiet one step back, compromised now -> Restore U2"):
        found = rule_claims(text, with_instruction=True)
        assert not complete_claims(text, found), text
        # judged strictly (its predicate refused): silent where the host is shown but was compromised all along
        host = {"E": "Enterprise1", "O": "Op_Host1", "U": "User2"}[text[0]]
        assert truth(semantic_claims(text, REFUSED, text), table_rows((host, "None", "No"))) is not True, text
        assert not text_claims(text)[1], text


def test_an_order_with_its_target_only_keeps_its_claims_whole() -> None:
    # the host the order acts on is no condition; a state said of a class with no host is read whole
    text = "No enterprise host compromised? then DecoyHarakaSMPT on Ent2."
    found = rule_claims(text, with_instruction=True)
    assert complete_claims(text, found)
    assert truth(found, table_rows()) is True
    assert truth(found, table_rows(("Enterprise0", "None", "User"))) is False


# -- the operational server in shorthand --------------------------------------------------------------------------------------


def test_the_ops_server_in_shorthand_is_op_server0() -> None:
    for said in ("ops server owned", "the ops srv is scanned", "op srv at Unknown"):
        assert hosts_in(said) == ("Op_Server0",), said
    assert hosts_in("ops servers owned") == ()  # a plural is the class
    text = "ops srv exploited -> Remove it"
    # a predicate on any host is wider than the text, which speaks of Op_Server0
    assert text_problem(text, {"class": "any", "activity": "Exploit"}, {"mode": "do", "verb": "Remove", "target": "$matched"}) is not None
    found, whole = text_claims(text)
    assert whole
    assert truth(found, table_rows(("Op_Server0", "Exploit", "User"))) is True
    assert truth(found, table_rows(("Enterprise1", "Exploit", "User"))) is False


# -- outranked: an exception heading ----------------------------------------------------------------


def test_a_host_that_is_the_exception_to_other_handling_is_what_the_rule_is_about() -> None:
    # "X is the exception to <our other handling>: <order about it>": the rule is for X, not an exception to its own order
    text = "User4 is the exception to our normal user-box policy: when it is scanned, put a DecoyTomcat on it rather than removing."
    words = read_wording(text)
    assert "User4" not in words.excepted
    assert text_problem(text, {"host": "User4", "activity": "Scan"},
                        {"mode": "prefer", "verb": "DecoyTomcat", "target": "User4", "over": {"verb": "Remove", "target": "User4"}}) is None
    # an exception said after an order about a class is still one
    assert "User4" in read_wording("Restore the compromised user boxes, User4 is the exception.").excepted


# -- the reference compiler's misses: correct compilations refused -------------------------------------------------------------


def test_unknown_rather_than_a_confirmed_compromise_is_the_level_unknown() -> None:
    # the level said, then what it is not said as a contrast: no restriction left unexpressed; and the move "reached
    # for" after "instead of" is the one put aside
    text = "When an enterprise box reads Unknown instead of a real compromise, Analyse it rather than jumping to a Remove."
    assert read_wording(text).dispreferred == ("Remove",)
    assert text_problem(text, {"class": "Enterprise", "compromise": "Unknown"},
                        {"mode": "prefer", "verb": "Analyse", "target": "$matched", "over": {"verb": "Remove", "target": "$matched"}}) is None
    assert read_wording("Monitor User2 instead of reaching for a Restore.").dispreferred == ("Restore",)
    # "rather than an actual compromise" after the level restricts nothing
    assert negations_in("if Enterprise0 sits at Unknown rather than an actual compromise") == ()
    text = "If Enterprise0 sits at Unknown rather than an actual compromise, plan an Analyse of it."
    assert text_problem(text, {"host": "Enterprise0", "compromise": "Unknown"}, {"mode": "do", "verb": "Analyse", "target": "Enterprise0"}) is None


def test_a_move_said_to_be_fine_after_its_situation_is_the_order() -> None:
    text = "E2 quiet + U1 clean -> Monitor is perfectly fine"
    words = read_wording(text)
    assert [c.hosts for c in words.conditions] == [("Enterprise2", "User1")]
    assert text_problem(text, {"all": [{"host": "Enterprise2", "activity": "None", "compromise": "No"},
                                       {"host": "User1", "compromise": "No"}]}, {"mode": "do", "verb": "Monitor"}) is None


def test_a_moment_told_in_the_past_after_each_time_is_no_condition() -> None:
    text = ("User4 kept coming back after I removed it. Every time it seemed quiet for a turn and then it was owned again. "
            "A Remove is not enough for User4 once it shows a compromise; restore it.")
    words = read_wording(text)
    assert not any("seemed" in c.text for c in words.conditions)
    assert text_problem(text, {"host": "User4", "compromise": "any"},
                        {"mode": "prefer", "verb": "Restore", "target": "User4", "over": {"verb": "Remove", "target": "User4"}}) is None


def test_no_thing_to_act_on_is_no_prohibition() -> None:
    # "a host that had no foothold to remove": what there was to act on, told; the story gives no order, and its "no"
    # is no condition of the rule
    story = "The planner trusted me and spent a turn on a box that had no shell to restore."
    assert not read_wording(story).prohibitions
    text = (f"I flagged User4 on a bare scan and asked for a Restore. {story} The lesson I'd keep: when the host you "
            "analyse shows a scan and no compromise, recommend Monitor rather than Restore.")
    words = read_wording(text)
    assert "shell" not in words.instruction
    assert text_problem(text, {"activity": "Scan", "compromise": "No"},
                        {"mode": "prefer", "verb": "Monitor", "over": {"verb": "Restore", "target": "$matched"}}) is None
    # a prohibition said with "no need / no reason to" still is one
    assert read_wording("No need to restore User1.").prohibitions


def test_a_move_said_not_to_hold_is_put_aside() -> None:
    # "a Remove doesn't hold on that box": the verb judged not to work (present tense) is what the order is given in
    # place of (a report, no prohibition of its own: round 7), so "prefer Restore over Remove" is no stray verb
    text = "New rule for User1: once it is rooted, restore it. A Remove doesn't really work on that box."
    assert text_problem(text, {"host": "User1", "compromise": "Privileged"},
                        {"mode": "prefer", "verb": "Restore", "target": "User1", "over": {"verb": "Remove", "target": "User1"}}) is None
    assert not read_wording(text).prohibitions
    # told in the past, it puts nothing aside
    text = "New rule for User1: once it is rooted, restore it. A Remove did not work on that box last time."
    assert text_problem(text, {"host": "User1", "compromise": "Privileged"},
                        {"mode": "prefer", "verb": "Restore", "target": "User1", "over": {"verb": "Remove", "target": "User1"}}) is not None


def test_something_running_through_a_host_is_no_history() -> None:
    # "running" is a history word after a count ("rooted three steps running"), not in "the drill is running on it"
    from forge.rulebook.language.facts import facts_needed
    assert facts_needed("rooted three turns running") == {"history"}
    text = "Keep off User3 while it is compromised, the purple team drill is running on it today."
    assert text_problem(text, {"any": [{"host": "User3", "compromise": "User"}, {"host": "User3", "compromise": "Privileged"}]},
                        {"mode": "never", "verb": "any", "target": "User3"}) is None


def test_right_after_our_own_move_then_an_order_is_the_lesson() -> None:
    # "right after we restored X, <order>": the defender's last move as the order's condition, not a story; the story
    # before the lesson ("without checking ...") is no part of it
    text = ("I queued a second Restore on User2 straight after the first, without checking what the first had done. "
            "The smarter habit is probably this: right after we restored User2, plan an Analyse of User2 rather than another Restore.")
    words = read_wording(text)
    assert words.instruction.startswith("Right after we restored User2")
    assert not words.prohibitions and words.dispreferred == ("Restore",)
    assert text_problem(text, {"host": "User2", "acted": "Restore", "within": 1},
                        {"mode": "prefer", "verb": "Analyse", "target": "User2", "over": {"verb": "Restore", "target": "User2"}}) is None
    # a told moment of the episode stays a story
    from forge.rulebook.language.order import gives_order
    assert not gives_order("After we restored User2 at step 9, the attacker came straight back.")


def test_all_said_after_a_class_is_the_class_not_the_network() -> None:
    # "the user hosts are all clean": each user host clean, not every host on the network quiet; and a comma before a
    # quantified class opens a clause of its own
    from forge.rulebook.language.claims import claims
    for said in ("Enterprise1 is exploited and the user hosts are all clean", "Enterprise1 exploited, U-hosts all clean",
                 "Enterprise1 exploited, all user hosts clean"):
        found = claims(said)
        assert truth(found, table_rows(("Enterprise1", "Exploit", "User"))) is True, said
        assert truth(found, table_rows(("Enterprise1", "Exploit", "User"), ("User3", "None", "User"))) is False, said
        assert truth(found, table_rows(("Enterprise0", "Exploit", "User"))) is False, said
