"""Issue 29, round 47 (r47a): an audit of the readings this round added (r47h, r47m) for over-breadth, and of three older
readings wider than their words. Each class is a reading that fired on words meaning something else or something
narrower; each test fails on the product files of 80bff83 (checked: `git stash` of the product files, this file run, then
`git stash pop`). Sentences of our own, none from a case file.
- "with nothing else running", "with nothing running anywhere (else)", "... elsewhere" is the other hosts' quiet, not the
  host's own row (`shorthand._NOTHING_ON_IT`, `clauses._QUIET_AFTER_LEVEL`);
- "say nothing is running on X and ...", "say only X is owned" put a case ("suppose"), no order on the reply
  (`markers.IMPERATIVE_START`);
- "unless <case>, in which case <move>" is an exception where that move only forbids or puts off a move ("skip the
  Remove", "hold off", "is wasted") or only waits ("just Sleep"), as "in which case do not ..." was
  (`rule_claims._unless_other_move_away`, `_withheld_there`);
- "we must hold the Restore" keeps the move back: no order of it (`forbidding._HOLDING_VERB`);
- a rule on the reply's form said under a condition of the episode ("when the reward drops", "unless it is owned",
  "for the first five steps, ...") is no FORMAT rule (`compile.format_problem`, `compile._SCOPE_LEAD`);
- "a hit on the reward" is a penalty, no host's compromise (`situation._PROSE_COMPROMISE`);
- "lose that point" is a score ("at that point" is a time) (`facts.FACTS`, "reward");
- older: "at user level (root not reached)" was a story, so the note had no situation (`order.STORY`,
  `shorthand._ONLY_FORMS`);
- older: "a user box exploited yet not rooted" was read of the class as a whole (some host exploited, no host rooted),
  and "User1 or User2 compromised but not rooted" dropped the denial (`claims.NEW_SUBJECT`, `_denied_of_class`);
- older: "an op box is compromised and no scan is under way on it" claimed only that no op box was both at once
  (`shorthand._ONLY_FORMS`)."""

from __future__ import annotations

from forge.rulebook.authoring.compile import looks_like_format
from forge.rulebook.language.claims import claims
from forge.rulebook.language.facts import facts_needed
from forge.rulebook.language.predicate import truth
from forge.rulebook.language.situation import state_of
from forge.rulebook.language.order import gives_order
from tests.situations import table_rows
from tests.situations import refused_rule_holds_on


def test_nothing_else_running_is_the_other_hosts_quiet_not_the_hosts_row() -> None:
    text = "User3 under exploit with nothing else running: Remove User3."
    assert refused_rule_holds_on(text, User3="None/User") is not True  # User3 quiet: not "under exploit"
    text = "Enterprise0 at root with nothing running anywhere else: Restore Enterprise0."
    assert refused_rule_holds_on(text, Enterprise0="None/Privileged", Op_Host2="Exploit/User") is not True  # another host is active
    text = "Reimage Enterprise0 at root with nothing running elsewhere."
    assert refused_rule_holds_on(text, Enterprise0="None/Privileged", User1="Scan/No") is not True
    # guard: with no place named, the host's own quiet row, as r47h reads it
    assert refused_rule_holds_on("Whenever Op_Host2 sits at root with nothing happening, reimage it.", Op_Host2="None/Privileged") is True


def test_say_that_puts_a_case_is_no_order_on_the_reply() -> None:
    text = "Say nothing is running on Op_Host2 and it is rooted: reimage Op_Host2."
    assert refused_rule_holds_on(text, Op_Host2="Exploit/Privileged") is not True  # an exploit runs there: not the case put
    assert not gives_order("Say only Enterprise0 is owned -> Remove Enterprise0.")
    # guard: what the reply leaves out stays an order
    assert gives_order("Say nothing of the quiet hosts in a plan.")
    assert gives_order("Say nothing about what is running on the user side in the summary.")


def test_an_unless_case_that_withholds_the_first_move_is_its_exception() -> None:
    for other in ("in which case skip the Remove", "in which case hold off on removing them", "in which case just Sleep",
                  "in which case a Remove is wasted effort"):
        text = f"Each owned user host gets a Remove, unless Op_Server0 is owned as well, {other}."
        assert refused_rule_holds_on(text, User4="None/User") is True, other
        assert refused_rule_holds_on(text, User4="None/User", Op_Server0="Exploit/User") is not True, other
    # guard: a move made in the first's place is the note speaking in that case too (r47m)
    text = "Each owned user host gets a Remove, unless Op_Server0 is owned as well, in which case reimage Op_Server0 instead."
    assert refused_rule_holds_on(text, User4="None/User", Op_Server0="Exploit/User") is True


def test_holding_the_move_back_is_no_order_of_it() -> None:
    assert not gives_order("We must hold the Restore of Op_Host2 as long as some user box is owned.")
    # guard: what the plan must include is its order
    assert gives_order("Each plan should include a Remove of User4 while it is owned.")


def test_a_rule_on_the_replys_form_under_a_condition_of_the_episode_is_no_format_rule() -> None:
    for text in ("When the reward drops, do not write more than two lines in the report.",
                 "Say nothing of User4 in the plan unless it is owned.",
                 "For the first five steps, say nothing about decoys in the plan.",
                 "After a Restore, talk about the reimaged host in the summary."):
        assert not looks_like_format(text), text
    # guard: the reply's form alone, or said for the reply's own moment, stays one
    assert looks_like_format("Do not put more than three lines into a summary.")
    assert looks_like_format("In the report, say nothing about decoys in the plan.")
    assert looks_like_format("After the opening line, add one sentence on the reason.")


def test_a_hit_on_the_reward_is_no_compromise() -> None:
    assert state_of("after one hit on the reward")[0][1] is None
    assert state_of("after a hit to our score")[0][1] is None
    assert state_of("after a hit on it")[0][1] is not None  # guard: the attacker's hit on a host


def test_losing_that_point_is_a_score() -> None:
    assert "reward" in facts_needed("if we lose that point again")
    assert "reward" not in facts_needed("at that point of the run")  # guard: a time
    assert "reward" not in facts_needed("once we are beyond that point")


def test_root_not_reached_is_the_level_denied_not_a_story() -> None:
    text = "Enterprise2 under exploit at user level (root not reached): Remove Enterprise2."
    assert refused_rule_holds_on(text, Enterprise2="Exploit/User") is True
    assert refused_rule_holds_on(text, Enterprise2="Exploit/Privileged") is not True
    assert refused_rule_holds_on(text, Enterprise0="Exploit/User") is not True
    assert refused_rule_holds_on("Op_Host0 at user level, root not yet gained -> Remove Op_Host0.", Op_Host0="None/Privileged") is not True


def test_a_denial_after_yet_is_said_of_the_same_host() -> None:
    text = "An op host exploited yet not rooted: Remove it."
    # one op host exploited at user level, another rooted: the first is "exploited yet not rooted"
    assert refused_rule_holds_on(text, Op_Host0="Exploit/User", Op_Host2="None/Privileged") is True
    assert refused_rule_holds_on(text, Op_Host0="Exploit/Privileged") is not True
    # a list of hosts with one state: the denial is each host's, not dropped
    found = claims("Enterprise0 or Enterprise2 owned but not rooted")
    assert truth(found, table_rows(("Enterprise0", "None", "Privileged"))) is not True
    assert truth(found, table_rows(("Enterprise2", "None", "User"))) is True


def test_no_activity_running_on_it_after_and_is_the_same_hosts() -> None:
    text = "If an op host is compromised and no scan is under way on it, Remove it."
    assert refused_rule_holds_on(text) is not True  # nothing compromised: the compromise is claimed too
    assert refused_rule_holds_on(text, Op_Host1="None/User") is True
    assert refused_rule_holds_on(text, Op_Host1="Scan/User") is not True
    text = "If Enterprise0 is compromised and there is no scan going on on it, Remove it."
    assert refused_rule_holds_on(text, Enterprise0="None/User") is True
    assert refused_rule_holds_on(text, Enterprise0="Scan/User") is not True
