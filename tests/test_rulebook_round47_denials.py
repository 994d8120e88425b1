"""Issue 29, round 47 (r47b): a second audit of two older readings wider than their words. Each test fails on the
product files of 1202800 (checked: the product files at 1202800 via `git stash`, this file run, then `git stash pop`).
Sentences of our own, none from a case file.
- "(no root reached)", "no foothold gained": a level or state denied with "no" before its participle, no story told
  (`order.STORY`, `_NO_STATE_BEFORE`); read as a story, the note had no situation and its rule held everywhere;
- "an owned user box with no probe running on it", "..., no scan running on it": that box's own activity denied
  (`general_claims._ITS_OWN_STATE_DENIED`); read as "no user box both owned and probed", it held on a quiet network;
- a checklist whose items are yes/no questions ("1) is an op box owned? 2) is there no probe on it? When all answers are
  yes, ..."): each item the statement it asks after, joined as the order's condition (`forms._asked_said`,
  `_CHECKED_ITEMS`), the first item's "it" the host of a class its heading names (`_HEADING_ONE_OF_CLASS`); left as questions, the items were read as nothing and such a rule held on a quiet network."""

from __future__ import annotations

from tests.situations import refused_rule_holds_on


def test_a_level_denied_with_no_before_its_participle_is_no_story() -> None:
    text = "Op_Server0 being exploited at user level (no root reached): Remove Op_Server0."
    assert refused_rule_holds_on(text, Op_Server0="Exploit/User") is True
    assert refused_rule_holds_on(text) is not True  # a quiet network: the note's situation is not met
    assert refused_rule_holds_on(text, Op_Server0="Exploit/Privileged") is not True
    assert refused_rule_holds_on(text, User3="Exploit/User") is not True  # another host
    text = "User3 scanned with no foothold reached so far: Analyse User3."
    assert refused_rule_holds_on(text) is not True
    # guard: what the author says happened is still a story
    from forge.rulebook.language.order import STORY
    assert STORY.search("Op_Server0 was exploited and no root was reached until step 9.")


def test_a_probe_denied_on_that_box_keeps_the_box_and_its_state() -> None:
    text = "A compromised user box with no probe running on it should get a Remove."
    assert refused_rule_holds_on(text) is not True  # nothing owned at all
    assert refused_rule_holds_on(text, User3="None/User") is True
    assert refused_rule_holds_on(text, User3="Scan/User") is not True
    text = "An op box at user level, no scan running on it: restore the box."
    assert refused_rule_holds_on(text) is not True
    assert refused_rule_holds_on(text, Op_Host2="Scan/User") is not True


def test_a_checklist_of_yes_no_questions_is_the_orders_condition() -> None:
    text = "Checklist: (a) does Op_Host1 show a compromise? (b) is Enterprise2 clean? With both true, Restore Op_Host1."
    assert refused_rule_holds_on(text) is not True  # a quiet network: Op_Host1 shows nothing
    assert refused_rule_holds_on(text, Op_Host1="None/User") is True
    assert refused_rule_holds_on(text, Op_Host1="None/User", Enterprise2="Exploit/User") is not True
    text = "Checklist for an op box: 1) is an op box owned? 2) is there no scan running on it? Once both answers are yes, the op box gets a Remove."
    assert refused_rule_holds_on(text, Op_Host1="None/User") is True
    assert refused_rule_holds_on(text, Op_Host1="Scan/User") is not True
    assert refused_rule_holds_on(text) is not True
    # the first item's "it" is the one host of the class the checklist's heading names, no host of another class
    text = "Checklist for any op box: 1) does its row read compromised? 2) is there no probe on it? When all items hold, Restore it."
    assert refused_rule_holds_on(text, Op_Host0="None/User") is True
    assert refused_rule_holds_on(text, Enterprise1="None/User") is not True
    # guard: a question asked in other words leaves the list as it stands
    from forge.rulebook.language.forms import _asked_said
    assert _asked_said("why would Op_Host1 be owned?") is None
