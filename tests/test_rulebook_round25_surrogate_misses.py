"""Issue 29, twenty-fifth round (r25m, blind22's misses with the surrogate compiler): readings of the product that left
a rule silent where its words apply. A plan's length counted in moves is the reply's form; what the teacher is sure of
before a lesson that states its own condition is their reason, no situation; "without pausing for ..." says how an order
is carried out, no state of its host; a range of hosts before a note's order that names no host holds of each host by
itself, and one of several hosts named with "or" carries all that is said of it; the host at hand with its state heads
a note; the scope before a "means" says whose state it is. Sentences of our own, not the case files'."""

from __future__ import annotations

from forge.rulebook.authoring.checks import text_problem
from forge.rulebook.authoring.compile import compile_as_written, looks_like_format, strip_justification
from forge.rulebook.language.claims import claims
from forge.rulebook.language.condition import semantic_claims
from forge.rulebook.language.rule_claims import rule_claims
from forge.rulebook.language.predicate import AllOf, AnyOf, Atom, truth as value_of
from forge.rulebook.language.situation import read_situation
from forge.rulebook.language.wording import read_wording
from forge.rulebook.model import RuleType, SourceItem

REFUSED = "predicate refused: always: the predicate holds on every context"


def _holds(claim, context: str):
    return value_of(claim, read_situation(context))


def test_a_plan_held_to_a_count_of_moves_is_the_replys_form():
    text = ("My last plan ran to eight actions and nobody read past the second. I am unsure it mattered, but from now "
            "on: hold each plan to no more than two actions, numbered.")
    assert looks_like_format(strip_justification(text))
    kept = compile_as_written(SourceItem("rule", "planner", text, "s1/i02"), "the compiler dropped an instruction")
    assert kept.type == RuleType.FORMAT and kept.when == {"always": True}


def test_a_move_on_a_host_within_some_steps_is_no_form():
    assert not looks_like_format("Plan a Remove on User1 within three steps.")  # guard: an order on a host, timed


def test_what_the_teacher_is_sure_of_before_the_lesson_is_no_situation():
    text = ("On one run my slow Analyse of User3 cost the network a subnet. I am quite sure that the late Analyse gave "
            "the attacker room: if User3 is under exploitation, remove User3 immediately.")
    words = read_wording(text)
    assert words.situation == "" and [c.text for c in words.conditions] == ["if User3 is under exploitation"]
    assert semantic_claims(strip_justification(text), REFUSED, text) == Atom(host="User3", activity="Exploit")


def test_how_an_order_is_carried_out_is_no_state_of_its_host():
    text = "When Enterprise2 is compromised, restore Enterprise2 without hesitating."
    assert [c.text for c in read_wording(text).conditions] == ["When Enterprise2 is compromised"]
    assert text_problem(text, {"host": "Enterprise2", "compromise": "any"},
                        {"mode": "do", "verb": "Restore", "target": "Enterprise2"}) is None


def test_a_host_without_showing_a_state_is_still_a_condition():
    # guard: "without showing ..." is a state the host lacks, read as before
    assert [c.text for c in read_wording("Restore Op_Host1 without showing any exploit.").conditions] == \
        ["Op_Host1 without showing any exploit"]


def test_a_range_before_a_note_order_naming_no_host_holds_of_each_host():
    found = rule_claims("U1-U3 rooted => Restore", with_instruction=True)
    assert isinstance(found, AnyOf)
    assert _holds(found, "User2: Activity None, Compromised Privileged") is True


def test_a_range_before_an_order_on_another_host_holds_of_all_of_them():
    # guard: the order names its own host, so the range is the situation as a whole
    found = rule_claims("U1-U3 rooted => Restore Op_Server0", with_instruction=True)
    assert isinstance(found, AllOf)


def test_one_of_several_hosts_carries_all_that_is_said_of_it():
    found = claims("User1 or User2 compromised, not rooted")
    assert isinstance(found, AnyOf) and all(isinstance(part, AllOf) for part in found.parts)
    # neither host compromised: neither is "compromised, not rooted" (a bare "User1 is not rooted" held here)
    assert _holds(found, "User1: Activity None, Compromised No\nUser2: Activity None, Compromised No") is False


def test_the_host_at_hand_with_its_state_heads_a_note():
    text = "analysed machine at Unknown -> rec Analyse once more; a Restore is pointless"
    words = read_wording(text)
    assert words.situation == "analysed machine at Unknown" and words.instruction.startswith("recommend Analyse")
    assert semantic_claims(text, REFUSED, text) == Atom(host_class="any", compromise="Unknown")


def test_the_scope_before_a_means_says_whose_state_it_is():
    text = "For the host under inspection, an exploit at user level means Remove."
    assert rule_claims(text, with_instruction=True) == Atom(host_class="any", activity="Exploit", compromise="User")


HABIT = ("Op_Host1 took probes for five turns while I filed nothing. Perhaps probes alone mean little, but my habit now: "
         "if the box you are analysing is scanned yet not compromised, advise a DecoyApache on it.")


def test_it_after_the_host_at_hand_is_that_host_not_the_storys():
    assert read_wording(HABIT).referent is None
    problem = text_problem(HABIT, {"class": "any", "activity": "Scan", "compromise": "No"},
                           {"mode": "do", "verb": "DecoyApache", "target": "$matched"})
    assert problem is None or not problem.startswith("host:")
    # kept semantic, it is judged host by host: any analysed host scanned and clean, not only the story's
    found = semantic_claims(strip_justification(HABIT), REFUSED, HABIT)
    assert _holds(found, "Host User4: table Activity Scan, Compromised No.") is True

