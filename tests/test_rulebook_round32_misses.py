"""Issue 29, round 32 (r32m, blind-29's missed injections): words the product's reader did not place, so that a rule was
refused by the checks (or its own claims were not whole), kept semantic, and then stayed silent where it applied.

- a note's shorthand: "b4" for "before"; "ent-class host" for an enterprise host; a situation listed one item a line
  before the arrow of its order;
- where the order is: "REASON, so when X, ORDER"; "on <host> at <level> a Remove will do" (no comma after the scope);
  "only when X should you <verb> it" (the order inverted after its condition);
- the order's own "only": ", nothing heavier", ", nothing fancier";
- stories: "late in seed 1001, ..." and "early in run 3" tell a moment, they state no condition; a condition told in an
  irregular past ("while it sat at Unknown", "when the table said No") beside "my plan went for ...";
- exceptions: "..., User3 excepted"; "any user host except User4" claimed of the other user hosts places its "except";
  "scanned and nothing on it yet" is that host's own state.

Sentences of our own, none from a case file. Tests marked "guard" pass without the change too."""

from __future__ import annotations

from forge.rulebook.authoring.checks import text_problem
from forge.rulebook.language.guard import complete_claims
from forge.rulebook.language.rule_claims import rule_claims
from forge.rulebook.language.predicate import Atom
from forge.rulebook.language.order import gives_order
from forge.rulebook.language.wording import conditions_left_out, read_wording
from tests.actions import do, prefer


# -- a note's shorthand ------------------------------------------------------------------------------------------------

def test_b4_is_before():
    text = "U3 rooted -> Restore it b4 any Analyse"
    assert text_problem(text, {"host": "User3", "compromise": "Privileged"}, prefer("Restore", "Analyse", "User3")) is None


def test_a_class_named_with_the_word_class():
    found = rule_claims("usr-class box w/ a scan only -> rec DecoyTomcat on it")
    assert found is not None and "host_class='User'" in repr(found) and "host_class='any'" not in repr(found)


def test_a_listed_situation_is_one_condition():
    text = "- U3 exploited\n- E0 quiet (no scan, nothing)\n=> Remove U3 now b4 it spreads"
    assert read_wording(text).instruction.startswith("Remove U3")
    when = {"all": [{"host": "User3", "activity": "Exploit"}, {"host": "Enterprise0", "activity": "None", "compromise": "No"}]}
    assert text_problem(text, when, do("Remove", "User3")) is None
    # (its lines flattened, as a rule's directive keeps it)
    assert text_problem(" ".join(text.split()), when, do("Remove", "User3")) is None


def test_guard_a_single_item_before_the_arrow_reads_as_before():
    # guard: one item alone was read as the situation already
    words = read_wording("- U0 owned\n=> Remove U0")
    assert "User0" in words.hosts and words.verbs == ("Remove",)


# -- where the order is ------------------------------------------------------------------------------------------------

def test_a_reason_then_so_when_gives_the_order():
    text = ("Looking back, a live foothold matters more than a probe, so when User2 is being exploited, "
            "evict the attacker from User2 ahead of you analysing the other boxes.")
    assert gives_order(text)
    assert text_problem(text, {"host": "User2", "activity": "Exploit"}, do("Remove", "User2")) is None


def test_a_scope_without_a_comma_before_a_move_said_enough():
    text = ("I reimaged Op_Host0 at step 9, when a Remove would have cleared a fresh foothold. I may be wrong, "
            "but for Op_Host0 with a user-level compromise a Remove should suffice.")
    assert text_problem(text, {"host": "Op_Host0", "compromise": "User"}, do("Remove", "Op_Host0")) is None


def test_only_when_should_you_is_the_order_after_its_condition():
    text = "Only when Enterprise1 reads Compromised Privileged should you reimage it."
    found = rule_claims(text, with_instruction=True)
    assert found == Atom(host="Enterprise1", compromise="Privileged")
    assert complete_claims(text, found)


# -- the order's own only ----------------------------------------------------------------------------------------------

def test_nothing_heavier_is_the_orders_only():
    text = "If User4 is probed while still uncompromised, deploy DecoyTomcat onto it, nothing heavier."
    when = {"host": "User4", "activity": "Scan", "compromise": "No"}
    assert text_problem(text, when, do("DecoyTomcat", "User4")) is None
    assert text_problem(text.replace("heavier", "fancier"), when, do("DecoyTomcat", "User4")) is None


# -- stories -----------------------------------------------------------------------------------------------------------

def test_late_in_a_seed_tells_a_moment():
    text = ("Late in seed 2002, with User1 and Enterprise2 both owned, I planned Removes against User1 for two steps and "
            "left Enterprise2 alone, as if the source mattered more. Lesson: when Enterprise2 and User1 are each "
            "compromised, plan a Restore on Enterprise2 before any Remove of User1.")
    assert all("seed" not in c.text for c in read_wording(text).conditions)
    when = {"all": [{"host": "Enterprise2", "compromise": "any"}, {"host": "User1", "compromise": "any"}]}
    action = {"mode": "prefer", "verb": "Restore", "target": "Enterprise2", "over": {"verb": "Remove", "target": "User1"}}
    assert text_problem(text, when, action) is None


def test_guard_late_in_the_episode_is_still_a_condition():
    # guard: "late in the episode" (no seed or run number) is when the rule holds
    words = read_wording("Late in the episode, restore Op_Server0 when it is compromised.")
    assert any("late in the episode" in c.text.lower() for c in words.conditions)


def test_a_condition_told_in_an_irregular_past_is_the_story():
    text = ("Our plan back then went for a Restore of User1 while it sat at Unknown, and that Restore was wasted. "
            "Next time: as long as User1 reads Unknown with no activity on it, inspect it with an Analyse.")
    assert conditions_left_out(text) == ()


# -- exceptions --------------------------------------------------------------------------------------------------------

def test_a_host_excepted_after_a_comma():
    words = read_wording("Evict the attacker from each owned user box, User3 excepted.")
    assert words.excepted == ("User3",)


def test_an_except_placed_by_the_hosts_left_out():
    text = "anlst: Privileged on any enterprise host except Enterprise0 -> rec Restore"
    when = {"any": [{"host": "Enterprise1", "compromise": "Privileged"}, {"host": "Enterprise2", "compromise": "Privileged"}]}
    assert text_problem(text, when, do("Restore", "$matched")) is None


def test_guard_an_except_not_left_out_stays_refused():
    # guard: a trigger that can match the excepted host is refused
    text = "anlst: Privileged on any enterprise host except Enterprise0 -> rec Restore"
    when = {"class": "Enterprise", "compromise": "Privileged"}
    assert text_problem(text, when, do("Restore", "$matched")) is not None


def test_nothing_on_it_after_and_is_that_hosts_state():
    assert rule_claims("Enterprise0 probed and nothing on it so far -> DecoySvchost on it") == \
        Atom(host="Enterprise0", activity="Scan", compromise="No")
