"""Issue 29, round 47 (r47m): rules the product kept silent where their words apply (blind-44's missed injections), each
class a reading the product lacked, added in its own parts.
- a condition glossed in other words, "<phase>, meaning <state>", left the gloss word unplaced, so the claims were not
  the whole condition and a rule kept semantic was silent everywhere (`scope._PLACED`);
- "<order> unless <case>, in which case <another move>" was read as a negated condition (and a host the case names as
  unclaimed), though the note speaks in that case too (`rule_claims._unless_other_move_away`, `narrower_cases_away`);
- "the halfway point" of a run was read as a reward (its "point"), a fact no context states: silent
  (`facts.FACTS`, "reward");
- rules on the reply's form said as a bound on its length ("more than N lines"), as a note's question on the plan's size,
  or as what the reply leaves out, were not known as FORMAT: dropped, or compiled as a move (`compile._FORMAT_WORDS`,
  `compile._drop_problem`, `compile.content_meaning`);
- a lesson said as the teacher's resolution for a phase ("... is that in the <phase> I plan <move>") was not the order, so
  the story before it (a host's past states) became its condition (`instruction._RESOLVED`);
- "Analyse whichever it is" was read as a report ("... it is"), so the note's arrow lost its order and its situation was
  cut to its last host (`order._REPORT_AFTER_VERB`);
- "the plan must include a <move> ... whenever ..." was no order, so a later clause was the order and this whole clause
  its condition (`forbidding._HOLDING_VERB` in `_MODAL_ORDER`);
- "each machine in the enterprise subnet but Enterprise1 that ..." put the relative clause on the excepted host
  (`forms._EXCEPT_BEFORE_WHICH`);
- a document's heading naming the role's part ("<role> part of the <host> playbook", "Playbook for <situation>, <role>
  part") was read as a condition no claim placed; and "a hit on <host>" named no state (`instruction._labelled_heading`,
  `instruction._opening_situation`, `situation._PROSE_COMPROMISE`);
- "only 1 <class> box <state> -> ..." was read as an order ("only ..."), so the note had no condition
  (`markers.IMPERATIVE_START`);
- the defender's move said first as what changed a host, "a Restore has just turned that box Privileged", placed no claim
  (`claims.moves_said_after`, read by `claims` and `reads_whole`).
Each test fails on the product files of c5d581c (checked: `git checkout c5d581c -- forge/`, this file run, then
`git checkout HEAD -- forge/`). Sentences of our own, none from a case file."""

from __future__ import annotations

from forge.rulebook.authoring.compile import _drop_problem, content_meaning, looks_like_format
from forge.rulebook.language.condition import semantic_claims
from forge.rulebook.language.facts import facts_needed
from forge.rulebook.language.order import gives_order
from forge.rulebook.language.wording import read_wording
from forge.rulebook.model import SourceItem
from tests.situations import REFUSED, refused_rule_holds_on


def test_a_condition_glossed_in_other_words_is_read_whole() -> None:
    text = "Impact stage, meaning the op server is taken: restore Op_Server0 and leave the user boxes out of the plan."
    assert refused_rule_holds_on(text, Op_Server0="None/User") is True
    assert refused_rule_holds_on(text, Op_Server0="Scan/No") is not True  # the op server not held: the note does not apply
    assert refused_rule_holds_on(text, Enterprise1="Exploit/User") is not True


def test_an_unless_case_with_its_own_move_restricts_nothing() -> None:
    text = ("Remove any user box that gets owned, unless Enterprise2 is owned too, in which case restore Enterprise2 "
            "before anything else.")
    assert refused_rule_holds_on(text, User2="None/User") is True
    assert refused_rule_holds_on(text, User2="None/User", Enterprise2="Exploit/User") is True  # the other case: the note speaks there too
    assert refused_rule_holds_on(text, Enterprise2="Exploit/User") is not True  # no user box owned: its first case does not hold
    # an "unless" that says where the note does not act stays its exception
    kept = "Remove any user box that gets owned, unless Enterprise2 is owned too."
    assert refused_rule_holds_on(kept, User2="None/User", Enterprise2="Exploit/User") is not True


def test_the_halfway_point_of_a_run_is_a_time_not_a_reward() -> None:
    assert "reward" not in facts_needed("once we are beyond the halfway point of the game")
    assert "reward" not in facts_needed("at this point of the game")
    assert "reward" in facts_needed("once the score has dropped by ten points")
    assert "reward" in facts_needed("if we lose a point on it")


def test_rules_on_the_replys_form_are_known_as_format() -> None:
    for text in ("Do not put more than four lines into a report.",
                 "Q: how many moves should a plan carry? A: three at the very most.",
                 "Leave out of the analysis every host besides the one under review; mention nothing else in the report.",
                 "Finish each summary with a one-word label: SAFE or UNSAFE."):
        assert looks_like_format(text), text
    # a decision is none: a condition on hosts, or one move and "nothing else"
    assert not looks_like_format("When User2 is scanned, say nothing in the plan about Op_Server0.")
    assert gives_order("Say nothing in a summary about the quiet boxes.")
    # a dropped note on the reply's form is an instruction all the same (a story about a reply is none: round 9)
    item = SourceItem("correction", "planner", "Q: how many moves should a plan carry? A: three at the very most.", "user:x")
    assert _drop_problem(item, {"verdict": "DROP", "reason": "not an instruction"}) is not None
    # a predicate and a move read into a note on the reply's form are refused (kept, it is FORMAT)
    refused = content_meaning("Finish each summary with a one-word label: SAFE or UNSAFE.",
                              {"class": "any", "compromise": "No"}, {"mode": "do", "verb": "Analyse", "target": "$matched"})
    assert refused.when is None and refused.problem.startswith("predicate refused: format")
    # ("nothing else" after the one move ordered is a decision: its predicate stands)
    kept = content_meaning("Q: every host quiet? A: plan a Sleep and nothing else.",
                           # (r47a: the merged r47h reading says the FAQ's "every host quiet" as no compromise and no
                           # activity anywhere; the predicate says both, as the condition does)
                           {"all": [{"not": {"class": "any", "compromise": "any"}}, {"not": {"class": "any", "activity": "any"}}]},
                           {"mode": "do", "verb": "Sleep", "target": "any"})
    assert kept.when is not None


def test_a_resolution_for_a_phase_after_a_story_is_the_order() -> None:
    text = ("User3 got probed and I waited on a Monitor until it fell. Our new habit going forward is that in the recon stage I always "
            "plan a DecoyHarakaSMPT on any box that gets probed.")
    words = read_wording(text)
    assert "User3" not in words.instruction and "DecoyHarakaSMPT" in words.instruction
    assert refused_rule_holds_on(text, User1="Scan/No") is True  # any box probed, not User3 alone (the story's host)


def test_an_order_on_whichever_host_it_is_gives_an_order() -> None:
    assert gives_order("Restore whichever it is")
    assert gives_order("Analyse whichever one it is first")
    assert not gives_order("Remove was what it is")  # a report stays one
    text = "U2 or U3 at root -> Restore whichever it is ahead of anything else"
    assert refused_rule_holds_on(text, User3="None/Privileged") is True
    assert refused_rule_holds_on(text, User2="None/Privileged") is True
    assert refused_rule_holds_on(text, User2="None/User") is not True


def test_the_move_the_plan_must_include_is_its_order() -> None:
    assert gives_order("Every plan must include a DecoyTomcat on Op_Host1 as long as a user box is owned")
    text = ("Every plan must include a DecoyTomcat on Op_Host1 as long as a user box is owned; do not plan two decoys on "
            "it in one step.")
    assert refused_rule_holds_on(text, User3="None/User") is True
    assert refused_rule_holds_on(text, Enterprise1="None/User") is not True


def test_a_class_said_by_its_subnet_keeps_its_relative_clause_past_the_exception() -> None:
    text = "every machine in the enterprise subnet except Enterprise1 that shows a scan is to get a DecoyApache."
    assert refused_rule_holds_on(text, Enterprise2="Scan/No") is True
    assert refused_rule_holds_on(text, Enterprise1="Scan/No") is not True


def test_a_heading_naming_the_roles_part_of_a_document_is_no_condition() -> None:
    text = ("Chooser part of the Op_Host1 runbook: when Op_Host1 is owned, pick a Restore of Op_Host1 and nothing "
            "on the users.")
    assert refused_rule_holds_on(text, Op_Host1="None/User") is True
    assert refused_rule_holds_on(text, User2="None/User") is not True
    headed = "Runbook for a hit on Op_Host1, analyst part: when Op_Host1 is owned, recommend its Restore."
    assert refused_rule_holds_on(headed, Op_Host1="Exploit/User") is True
    assert refused_rule_holds_on(headed, Op_Host0="Exploit/User") is not True


def test_a_count_in_a_digit_is_a_condition_not_an_order() -> None:
    text = "only 1 ent srv owned + every usr box clean -> Remove that server"
    assert read_wording(text).conditions
    assert refused_rule_holds_on(text, Enterprise2="None/User") is True
    assert refused_rule_holds_on(text, Enterprise2="None/User", Enterprise1="None/User") is not True


def test_a_move_said_first_as_what_changed_a_host_is_its_history() -> None:
    text = "If a Restore has just turned Op_Host1 Privileged, Analyse it at once."
    found = semantic_claims(text, REFUSED, "")
    assert found is not None and "acted='Restore'" in repr(found) and "within=1" in repr(found)
    assert "Privileged" in repr(found) and "Op_Host1" in repr(found)
    # (the surface of the text is left as written: only the reading of its condition changes)
    assert read_wording(text).conditions[0].text.startswith("If a Restore has just")
