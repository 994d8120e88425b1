"""Issue 29, twelfth round: rules whose predicate (or whose words) hold, yet were not injected. Each class on sentences
written for these tests.

- Disputes that are none: a plan's later move ("Remove User2, then a decoy on the other user hosts") disputed another
  rule's order for one of those hosts as if both were for this step; a preference between two targets of one verb
  ("restore Op_Server0 before any user host") was read as a refusal of that verb on the other target. Both rules of
  such a pair abstained (tied), so neither was injected.
- A one-word heading before a colon ("Still: do not ...") taken for a condition the directive left out, so the rule
  was held unknown (cut_conditions).
- "whichever (one) is compromised" after a list or range of hosts read as every one of them at once.
- Two values of one column joined by "or" ("owned (user or root)", "any activity (a scan or an exploit)") read as the
  value the table lookup found first (Privileged, Exploit).
"""

from __future__ import annotations

from forge.rulebook.language.action import clash_hosts, parse_rule_action
from forge.rulebook.language.condition import cut_conditions, semantic_claims
from forge.rulebook.language.guard import complete_claims
from forge.rulebook.language.rule_claims import rule_claims
from forge.rulebook.language.predicate import truth
from forge.rulebook.language.situation import read_situation


def _on(rows: str):
    return read_situation("Alerts:\n" + rows)


# -- disputes that are none --------------------------------------------------------------------------------------------


def test_a_plans_later_move_does_not_dispute_another_order_for_its_host() -> None:
    """'If User2 is exploited, Remove User2 and then put DecoyApache on the user hosts' beside 'Restore User3 when it
    is compromised': the decoy on User3 comes after the Remove; the Restore can be followed before or after it."""
    plan = parse_rule_action({"mode": "do", "verb": "Remove", "target": "User2",
                              "then": [{"verb": "DecoyApache", "target": "User"}]})
    restore = parse_rule_action({"mode": "do", "verb": "Restore", "target": "User3"})
    assert clash_hosts(plan, restore, ("User2",), ("User3",)) is None
    # two orders for one host at once are still a dispute
    remove = parse_rule_action({"mode": "do", "verb": "Remove", "target": "User2"})
    assert clash_hosts(plan, parse_rule_action({"mode": "do", "verb": "Restore", "target": "User2"}),
                       ("User2",), ("User2",)) is not None
    assert clash_hosts(remove, parse_rule_action({"mode": "never", "verb": "Remove", "target": "User2"}),
                       ("User2",), ("User2",)) is not None


def test_a_priority_between_targets_of_one_verb_is_no_refusal_of_the_verb() -> None:
    """'Restore Enterprise1 before any user host' beside 'Restore a host sitting at Privileged rather than Analyse it'
    (matching User3): both can be followed, Enterprise1 first; a 'Remove rather than Restore' on User3 still disputes."""
    first = parse_rule_action({"mode": "prefer", "verb": "Restore", "target": "Enterprise1",
                               "over": {"verb": "Restore", "target": "User"}})
    restore_it = parse_rule_action({"mode": "prefer", "verb": "Restore", "target": "$matched",
                                    "over": {"verb": "Analyse", "target": "$matched"}})
    assert clash_hosts(first, restore_it, ("User3",), ("User3",)) is None
    instead = parse_rule_action({"mode": "prefer", "verb": "Remove", "target": "User3",
                                 "over": {"verb": "Restore", "target": "User3"}})
    assert clash_hosts(instead, restore_it, ("User3",), ("User3",)) is not None


# -- a one-word heading is no condition --------------------------------------------------------------------------------

LESSON = ("I reimaged User1 the moment it went Unknown after my Remove, and the attacker used the spare turn to scan "
          "Enterprise0. Still: do not restore User1 while it shows Unknown.")


def test_a_one_word_heading_before_a_colon_is_no_condition_left_out() -> None:
    directive = "do not restore User1 while it shows Unknown."
    assert cut_conditions(directive, LESSON) == ()
    claims = semantic_claims(directive, "predicate refused: negation: ...", LESSON)
    assert truth(claims, _on("User1: Activity None, Compromised Unknown")) is True


# -- "whichever" after a list of hosts ---------------------------------------------------------------------------------


def test_whichever_of_listed_hosts_is_one_of_them() -> None:
    text = "Enterprise0 through Enterprise2: Restore whichever is rooted."
    found = rule_claims(text, with_instruction=True)
    assert complete_claims(text, found)
    assert truth(found, _on("Enterprise1: Activity None, Compromised Privileged")) is True
    assert truth(found, _on("Enterprise0: Activity None, Compromised No\nEnterprise1: Activity None, Compromised No\n"
                            "Enterprise2: Activity None, Compromised User")) is False


# -- two values of a column joined by "or" -----------------------------------------------------------------------------


def test_two_levels_joined_by_or_are_either_level() -> None:
    text = "U2 owned (root or user): never Remove."
    found = rule_claims(text, with_instruction=True)
    assert truth(found, _on("User2: Activity None, Compromised User")) is True
    assert truth(found, _on("User2: Activity None, Compromised Privileged")) is True
    assert truth(found, _on("User2: Activity Scan, Compromised No")) is False


def test_two_activities_joined_by_or_are_either_activity() -> None:
    text = "When Op_Server0 shows a scan or an exploit, Analyse it."
    found = rule_claims(text, with_instruction=True)
    assert truth(found, _on("Op_Server0: Activity Scan, Compromised No")) is True
    assert truth(found, _on("Op_Server0: Activity None, Compromised No")) is False


# -- a relative clause after a list of hosts that picks one of them ----------------------------------------------------


def test_a_relative_clause_after_a_list_that_picks_one_is_about_each_listed_host() -> None:
    """'Any of Enterprise0 to Enterprise2 showing a scan gets a decoy': the reader started the clause at its last host
    (Enterprise2), so the rule was held to Enterprise2 alone and stayed silent on Enterprise0's scan."""
    text = "Any of Enterprise0 to Enterprise2 showing a scan gets a DecoyApache on that host."
    found = rule_claims(text, with_instruction=True)
    assert truth(found, _on("Enterprise0: Activity Scan, Compromised No")) is True
    assert truth(found, _on("Enterprise0: Activity None, Compromised No\nEnterprise1: Activity None, Compromised No\n"
                            "Enterprise2: Activity None, Compromised No")) is False


# -- an unreadable party of a dispute is unknown, not false ------------------------------------------------------------

# dave's text: a condition the product cannot read ("the red beacon"); the compiler's trigger is on another host, so the
# checks refuse it: a semantic rule whose claims are `_NEVER`. Its words still forbid Restore on Enterprise1.
DAVE = "Enterprise1 flashing the red beacon: never Restore it."


def _alice_and_dave(tmp_path):
    """alice orders Restore on Enterprise1; dave forbids it in words the checks refuse (kept semantic, unreadable)."""
    from tests.test_rulebook_round11_gate import _two_teachers

    return _two_teachers(tmp_path, against=(DAVE, {"host": "User3", "compromise": "any"}), name="dave", refused=True)


def test_a_party_whose_condition_cannot_be_read_is_unknown_in_a_dispute(tmp_path) -> None:
    """The claims of an unreadable rule are a predicate that never holds; the gate took that as its condition being
    false, so the rule it would outrank (for its own teacher) spoke alone as if undisputed."""
    injected = _alice_and_dave(tmp_path)
    context = "Alerts:\nEnterprise1: Activity None, Compromised User"
    assert injected(context, "user:dave") == set()  # dave's own rule would win for him: alice's does not speak alone
    assert injected(context, "user:alice") == {"alice"}
