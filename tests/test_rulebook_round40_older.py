"""Issue 29, round 40 (r40k): misses on the older development splits where the product's guard, checks or readers
did not read how a condition was phrased.

- A guarded rule whose unexpressed rest says only what the analyst's evidence reports of the one host its predicate
  names ("<host>'s current evidence has more processes than the baseline"), or with the words that frame it as the
  evidence's ("baseline", "current evidence", "and"): judged.py judges it; the guard read it as unplaced, and the rule
  was silent (`guard._evidence_alone`, `guard.words_beside_evidence`).
- A guarded rule whose rest states a trend of the rewards: its text's word "reward" is stated, as a history atom states
  history (`retrieve._episode_facts`); the rule was silent where its rest held.
- A condition that says only what the evidence reports of the hosts it names, whose unexpressed rest states each kind
  of it, compiled as the bare host: no wider than the text, the gate judges the rest (`checks._evidence_guarded`); an
  example in brackets states no condition.
- A file's density floor written "0.5+" (`judged._EVIDENCE_READINGS`).
- The table's value with another of its column after "or" ("Compromised User or Privileged"): either of them, not the
  first alone (`situation._table_or_either`).

Sentences of our own, none from a case file. Each test fails on the files at 20c74e3 (checked by running this file with
PYTHONPATH at an export of 20c74e3: `git archive 20c74e3`).
"""

from __future__ import annotations

from forge.rulebook.authoring.checks import text_problem
from forge.rulebook.language.guard import guard_claims
from forge.rulebook.language.rule_claims import rule_claims
from forge.rulebook.language.judged import evidence_tests
from forge.rulebook.language.predicate import parse_predicate
from forge.rulebook.language.episode import RewardTrend
from forge.rulebook.retrieval.retrieve import _held_to


def _analyst(host: str, *evidence: str) -> str:
    """An analyst's context on `host` with these evidence lines."""
    lines = "\n".join(f"- {line}" for line in evidence)
    return (f"Host {host}: table Activity None, Compromised Unknown.\nBaseline: 1 processes; users root, pi; OS LINUX.\n"
            f"Current evidence (step 9):\n{lines}\n")


# -- the guard on evidence --------------------------------------------------------------------------------------------------

def test_a_rest_on_the_named_hosts_evidence_is_judged_not_unplaced():
    when = parse_predicate({"host": "User2"})
    # (None: nothing for the claims, judged.py judges it; unplaced it was Not(Always()), silent)
    assert guard_claims("User2's current evidence shows more processes than its baseline", when) is None
    assert guard_claims("the analysis of User2 reports twelve or more connections on port 80", when) is None


def test_a_rest_on_the_evidence_with_its_frame_words_is_judged():
    when = parse_predicate({"class": "Enterprise"})
    assert guard_claims("its baseline OS is LINUX and a reverse shell in its current evidence", when) is None


def test_a_rest_on_another_hosts_evidence_still_guards():
    # (the evidence of a host the predicate does not name is no test of the predicate's host)
    when = parse_predicate({"host": "User2"})
    assert guard_claims("User3's current evidence shows more processes than its baseline", when) is not None


def test_a_bracketed_example_is_no_word_of_the_condition():
    from forge.rulebook.language.guard import words_beside_evidence  # (r40k's: imported here, the file runs at 20c74e3)
    assert words_beside_evidence("its current evidence has a user login missing from its baseline (e.g. a guest one)") == []


# -- the rewards in a rest --------------------------------------------------------------------------------------------------

def test_a_rest_on_the_rewards_states_the_texts_reward():
    text = ("If every reward over the last three steps was negative and Enterprise2 has stayed at Compromised User all that "
            "time, choose Restore Enterprise2.")
    when = parse_predicate({"host": "Enterprise2", "compromise": "User", "unchanged_for": 3})
    guard = guard_claims("the reward was negative in each of the past three steps", when)
    assert isinstance(guard, RewardTrend)
    found, _ = _held_to(text, when, guard)
    assert found is not None and repr(found) != "Not(part=Always())"  # (held silent: a fact its words say left unstated)


# -- the checks: a bare host where the rest holds the evidence ----------------------------------------------------------------

def test_a_condition_on_a_hosts_evidence_guarded_by_its_rest_is_not_bare():
    text = "Whenever a file named drop.sh appears in User2's current evidence at density 0.7 or higher, recommend Restore of User2."
    action = {"mode": "do", "verb": "Restore", "target": "User2"}
    rest = "a file drop.sh at density 0.7 or higher is in User2's current evidence"
    assert text_problem(text, {"host": "User2"}, action, rest) is None
    # (without the rest, the bare host is still wider than the text)
    assert (text_problem(text, {"host": "User2"}, action) or "").startswith("bare:")


def test_a_condition_with_more_than_evidence_is_still_bare():
    text = "When User2 gets hit and its evidence lists a file drop.sh at density 0.7 or higher, recommend Restore of User2."
    action = {"mode": "do", "verb": "Restore", "target": "User2"}
    rest = "a file drop.sh at density 0.7 or higher is in User2's current evidence"
    assert text_problem(text, {"host": "User2"}, action, rest) is not None


def test_a_density_floor_written_with_a_plus():
    test, = [t for t in evidence_tests("a file drop.sh at density 0.6+ in its evidence") if t.kind == "file"]
    assert test.amount == 0.6


# -- either value of the table's column ---------------------------------------------------------------------------------------

def test_the_tables_value_or_another_is_either():
    found = rule_claims("When Enterprise1 shows Compromised User or Privileged, choose Restore Enterprise1.",
                        with_instruction=True, bare=False)
    assert found == parse_predicate({"host": "Enterprise1", "compromise": "any"})
    found = rule_claims("When Enterprise1 shows Activity Scan or Exploit, choose Analyse Enterprise1.",
                        with_instruction=True, bare=False)
    assert found == parse_predicate({"host": "Enterprise1", "activity": "any"})


def test_the_tables_value_alone_or_with_unknown_is_not_widened():
    assert rule_claims("When Enterprise1 shows Compromised User, choose Restore Enterprise1.", with_instruction=True,
                       bare=False) == parse_predicate({"host": "Enterprise1", "compromise": "User"})
    found = rule_claims("When Enterprise1 shows Compromised User or Unknown, choose Analyse Enterprise1.",
                        with_instruction=True, bare=False)
    assert found != parse_predicate({"host": "Enterprise1", "compromise": "any"})


# -- an example is no condition ---------------------------------------------------------------------------------------------

def test_a_condition_an_example_opens_is_not_the_rules():
    from forge.rulebook.language.wording import read_wording
    text = ("Past step 15, never Analyse User2, no matter what it shows; for instance if it gets rooted at step 19, a "
            "Remove is the most it ought to get by then.")
    assert not [c for c in read_wording(text).conditions if "root" in c.text]
    action = {"mode": "never", "verb": "Analyse", "target": "User2"}
    assert not (text_problem(text, {"host": "User2"}, action, "after step 15 of the episode") or "").startswith("bare:")
    # (without the example, the condition is the rule's)
    assert [c for c in read_wording("Never Analyse User2 if it gets rooted.").conditions if "root" in c.text]


# -- an exception after "but not" / "except" ----------------------------------------------------------------------------------

def test_an_exception_after_but_not_is_the_condition_not_so():
    found = rule_claims("Put a DecoySSHD on User2 when User1 is scanned, but not if User1 is already owned.",
                        with_instruction=True, bare=False)
    assert found == parse_predicate({"all": [{"host": "User1", "activity": "Scan"},
                                             {"not": {"host": "User1", "compromise": "any"}}]})


def test_an_exception_after_except_is_the_condition_not_so():
    found = rule_claims("Put a DecoySSHD on User2 when User1 is scanned, except once User1 is owned.",
                        with_instruction=True, bare=False)
    assert found == parse_predicate({"all": [{"host": "User1", "activity": "Scan"},
                                             {"not": {"host": "User1", "compromise": "any"}}]})


# -- a host of the network, or a phase, is not the one host the rule names ----------------------------------------------------

def test_some_host_is_not_the_rules_own_host():
    from forge.rulebook.language.claims import claims
    found = claims("some machine sits at Compromised Privileged", "User2")
    assert found == parse_predicate({"class": "any", "compromise": "Privileged"})


def test_a_phase_is_the_networks_not_the_rules_own_host():
    from forge.rulebook.language.claims import claims
    assert claims("while privilege escalation goes on", "User2") == parse_predicate({"class": "any", "compromise": "Privileged"})
