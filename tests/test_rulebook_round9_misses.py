"""Issue 29, ninth round, misses: correct compilations refused by the checks (a refused rule is kept semantic, and
silent where the product's reading of its words is not whole). Each class on sentences written for these tests;
beside each, a wider compilation the checks must still refuse.

- The teacher's doubt or resolve before the colon that opens the lesson ("I can't be certain it would have changed
  anything, but my rule is: ...") was read as the rule's situation, and its "not" / "nothing" as a negated condition.
"""

from __future__ import annotations

from forge.rulebook.authoring.checks import text_problem
from forge.rulebook.language.wording import read_wording


def check(text: str, when, action) -> str | None:
    return text_problem(text, when, action)


# -- the teacher's view before the lesson ---------------------------------------------------------------------------

HEDGED = [
    "I let User4 sit at user level for two steps. I cannot be certain anything would have saved the run, but the habit I "
    "want is: when User4 is being exploited, Remove User4.",
    "Op_Host2 went down while I looked elsewhere. Perhaps nothing I did mattered, I really don't know, but my new rule is: "
    "when User4 is being exploited, Remove User4.",
    "I'm not convinced the planner reads my notes closely, but I won't hedge this time: when User4 is being exploited, "
    "Remove User4.",
]


def test_a_hedge_before_the_lesson_is_no_situation() -> None:
    for text in HEDGED:
        words = read_wording(text)
        assert words.situation == "", text
        assert not words.negated_conditions, text
        assert check(text, {"host": "User4", "activity": "Exploit"}, {"mode": "do", "verb": "Remove", "target": "User4"}) is None


def test_a_hedged_lesson_still_refuses_a_wider_compilation() -> None:
    for text in HEDGED:
        assert check(text, {"activity": "Exploit"}, {"mode": "do", "verb": "Remove", "target": "$matched"}) is not None


def test_a_situation_before_a_colon_still_counts() -> None:
    # a first-person opening that names a host or a state is a situation, not the teacher's view
    assert read_wording("While we still have no foothold on Enterprise1: Analyse Enterprise1.").negated_conditions
    assert read_wording("Nothing on our side active: Monitor.").negated_conditions


# -- "when ... rather than VERB-ing": the dispreferred verb is the order's -----------------------------------------

def test_a_dispreferred_verb_after_the_condition_is_no_restriction() -> None:
    text = "On reflection the cheaper move is to Remove User1 when it is compromised instead of reimaging it."
    words = read_wording(text)
    assert not words.negated_conditions
    when = {"any": [{"host": "User1", "compromise": "User"}, {"host": "User1", "compromise": "Privileged"}]}
    prefer = {"mode": "prefer", "verb": "Remove", "target": "User1", "over": {"verb": "Restore", "target": "User1"}}
    assert check(text, when, prefer) is None
    assert check(text, {"host": "User1"}, prefer) is not None  # wider: any state of User1


def test_rather_than_a_state_still_restricts_the_condition() -> None:
    assert read_wording("Put a decoy on User3 when it is scanned rather than exploited.").negated_conditions


# -- "Having seen ..., the better call is to VERB": a judgement that orders, after a participle's clause -------------

def test_the_better_call_is_to_is_an_order() -> None:
    from forge.rulebook.language.order import gives_order
    assert gives_order("Thinking it over, the smarter move would be to Analyse Enterprise0 when it shows a scan")
    assert gives_order("The best choice is to Remove User3 while it only has a user shell")
    assert not gives_order("Thinking it over, I restored User3 too early")  # a story after the participle
    text = ("I reimaged User3 twice and lost both steps. Looking at both runs, I think the better call is to Remove "
            "User3 when it is compromised rather than restoring it.")
    words = read_wording(text)
    assert words.instruction.startswith("Looking at both runs")
    when = {"any": [{"host": "User3", "compromise": "User"}, {"host": "User3", "compromise": "Privileged"}]}
    prefer = {"mode": "prefer", "verb": "Remove", "target": "User3", "over": {"verb": "Restore", "target": "User3"}}
    assert check(text, when, prefer) is None
    assert check(text, {"host": "User3"}, prefer) is not None


# -- "at user level (not root)": the higher level denied beside the exact one -----------------------------------------

def test_a_denied_root_beside_user_level_is_no_further_restriction() -> None:
    text = "When an enterprise server is compromised with a user shell (not admin), Remove it; do not Restore it."
    assert not read_wording(text).negated_conditions
    prefer = {"mode": "prefer", "verb": "Remove", "target": "$matched", "over": {"verb": "Restore", "target": "$matched"}}
    assert check(text, {"class": "Enterprise", "compromise": "User"}, prefer) is None
    assert check(text, {"class": "Enterprise"}, prefer) is not None  # wider: any state


def test_a_denied_root_alone_still_restricts() -> None:
    assert read_wording("When Enterprise1 is compromised but not root, Remove it.").negated_conditions
    assert read_wording("When User4 is at user level and not scanned, Remove it.").negated_conditions


# -- a dropped order on the reply's form ------------------------------------------------------------------------------

def test_a_dropped_format_order_is_kept_as_format() -> None:
    from forge.rulebook.authoring.compile import _entry
    from forge.rulebook.model import CompileVerdict, RuleType, SourceItem

    item = SourceItem("correction", "planner", "Planner: write the plan in two short bullet points, no preamble.", "user:zed")
    rule, problem = _entry(item, {"verdict": "DROP", "reason": "style preference, not a decision rule"})
    assert problem is None and rule is not None
    assert rule.verdict == CompileVerdict.RULE and rule.type == RuleType.FORMAT
    # a story about replies that orders nothing may still be dropped
    story = SourceItem("rule", "planner", "My answer ran to ten lines and the chooser skipped most of it.", "s1/i01")
    rule, problem = _entry(story, {"verdict": "DROP", "reason": "no lesson"})
    assert rule is not None and rule.verdict == CompileVerdict.DROP


# -- "the safe habit is to ...": a judgement, then the order; a long reflection's lesson on the reply's form ----------

def test_a_judged_habit_gives_an_order() -> None:
    from forge.rulebook.language.order import gives_order
    assert gives_order("I may be wrong, but the wiser habit is to keep the reply to one line")
    assert gives_order("My rule would be to leave User0 alone while it only shows a scan")
    assert not gives_order("The habit was hard to break")


def test_a_long_reflection_on_the_reply_form_stays_format_when_dropped() -> None:
    from forge.rulebook.authoring.compile import _entry
    from forge.rulebook.model import CompileVerdict, RuleType, SourceItem

    story = ("My reply opened with three paragraphs about the subnet layout and the two enterprise servers, and the "
             "parser picked a host out of the middle of them, which was not the one I meant to act on at all. I kept "
             "adding context I thought would help the reader follow my reasoning and it only made things worse for "
             "everyone downstream. I cannot tell how the parser really works, so this is a guess, but the wiser habit "
             "is to give the action on the first line of my reply, and explain after it.")
    rule, problem = _entry(SourceItem("rule", "action_chooser", story, "s2/i03"), {"verdict": "DROP", "reason": "story"})
    assert problem is None and rule is not None
    assert rule.verdict == CompileVerdict.RULE and rule.type == RuleType.FORMAT


# -- "for User2, User3 and User4, if any ... Remove it"; the teacher's knowledge of hosts before the colon -------------

def test_a_lead_that_lists_hosts_opens_an_order() -> None:
    from forge.rulebook.language.order import gives_order
    assert gives_order("For Enterprise0, Enterprise1 or Enterprise2, if any of them is rooted, Restore that host.")
    assert not gives_order("For User2, User3 and User4, the attacker came back every time.")


def test_what_the_teacher_has_not_seen_of_hosts_is_no_situation() -> None:
    text = ("I know too little about Enterprise0 to judge it, so I will stay narrow: for Enterprise1 and Enterprise2, "
            "if either is rooted, Restore that host.")
    words = read_wording(text)
    assert not words.negated_conditions and words.instruction.startswith("for Enterprise1")
    when = {"any": [{"host": "Enterprise1", "compromise": "Privileged"}, {"host": "Enterprise2", "compromise": "Privileged"}]}
    action = {"mode": "do", "verb": "Restore", "target": "$matched"}
    assert check(text, when, action) is None
    assert check(text, {"class": "Enterprise", "compromise": "Privileged"}, action) is not None  # wider: Enterprise0 too


# -- "I may be wrong ..., but I think that ORDER": the doubt, the view, then the lesson ------------------------------

def test_the_lesson_after_a_doubt_and_a_view_is_the_order() -> None:
    text = ("I kept analysing Enterprise1 and it got worse. I may be wrong about how often this happens, since root can "
            "show up late, but I think that when Enterprise1 turns Privileged, the plan should lead with a Restore of it.")
    words = read_wording(text)
    assert words.instruction.startswith("when Enterprise1 turns Privileged")
    action = {"mode": "do", "verb": "Restore", "target": "Enterprise1"}
    assert check(text, {"host": "Enterprise1", "compromise": "Privileged"}, action) is None
    assert check(text, {"host": "Enterprise1"}, action) is not None  # wider: any state


def test_a_stated_situation_before_but_is_kept() -> None:
    # no first-person doubt before "but": the head is a situation, never cut away
    words = read_wording("Enterprise1 is compromised, but I think that the plan should lead with a Restore of it.")
    assert "compromised" in " ".join(c.text for c in words.conditions) + words.situation + words.instruction
