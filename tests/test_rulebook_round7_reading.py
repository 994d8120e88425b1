"""Issue 29, seventh round: conditions the product's reader cut short or read wider than their words, so that a rule
fired where its own text says it does not apply. Each class is tested on sentences of its kind written for these
tests (never a split's); the compilations are scripted, so the product's own reading, checks and gate are tested.

- Two subjects that share one state ("an op host and an enterprise host are both exploited"): the first subject, left
  with no state of its own, was dropped, and the reading of the other called itself whole.
- A condition whose main clause is a statement, with the order after it ("If ..., red is already deep in the network;
  include a Restore of Op_Server0 in the plan"): the statement was read as the order (its "already" as history), the
  real order ("make ... part of the plan", "include ...") as none.
- History said as a count of the defender's actions ("the last three moves were all Remove") was no history: a
  rest that says so was taken for a story and guarded nothing; a verb after "were all / both" ended the condition.
- "scanned a host before exploiting it", "scanned User2 and then exploited it": the order of scan and exploit was
  lost (read as a scan, or an exploit, now).
"""

from __future__ import annotations

import pytest

from forge.rulebook.language.condition import condition_of, spoken_facts, text_claims
from forge.rulebook.language.facts import facts_needed
from forge.rulebook.language.guard import guard_rest
from forge.rulebook.language.rule_claims import rule_claims
from forge.rulebook.language.predicate import AllOf, Atom, predicate_to_json
from forge.rulebook.language.order import gives_order
from forge.rulebook.language.wording import read_wording
from tests.test_rulebook_claims_scope import taught
from tests.test_rulebook_text_checks import entry, reply
from tests.actions import do
from tests.test_rulebook_text_held import claimed, every_host


@pytest.mark.parametrize("text, classes", [
    ("When an op host and an enterprise host are both exploited, restore Op_Server0.", {"Operational", "Enterprise"}),
    ("If a user desktop and an enterprise server are compromised, plan a Restore of Enterprise2.", {"User", "Enterprise"}),
    ("Whenever an enterprise box and a user workstation have been compromised, remove the attacker from Enterprise0.",
     {"User", "Enterprise"}),
])
def test_two_subjects_that_share_one_state_both_claim_it(text, classes):
    # (the reading itself: text_claims holds "compromised" to a level known to be compromised, host by host)
    found, whole = rule_claims(text, with_instruction=True, bare=False), text_claims(text)[1]
    parts = found.parts if isinstance(found, AllOf) else (found,)
    assert {p.host_class for p in parts if isinstance(p, Atom)} == classes, predicate_to_json(found)
    assert whole


def test_a_rule_kept_semantic_with_two_subjects_is_silent_where_only_one_holds(tmp_path):
    """The compiler's predicate names one class only (wider than the text): refused, kept semantic, and held to both."""
    text = "When an op host and a user host are both compromised, restore Op_Server0."
    wide = reply(entry({"class": "User", "compromise": "any"}, do("Restore", "Op_Server0")))
    record, injected = taught(tmp_path, text, wide, wide)  # the same answer to the corrective re-prompt
    assert record.when is None  # kept semantic
    assert not injected(every_host(User1="None,User", User3="Exploit,User"))
    assert injected(every_host(User1="None,User", Op_Host2="None,User"))


@pytest.mark.parametrize("text, verb", [
    ("If Op_Server0 and a user host are both compromised, red is already deep in the network; include a Restore of "
     "Op_Server0 in the plan.", "Restore"),
    ("When an enterprise host and an op host are both exploited, the attacker has two footholds already; make removing "
     "the attacker from the op host part of the plan.", "Remove"),
])
def test_a_statement_after_the_condition_is_its_reason_and_the_order_comes_after(text, verb):
    words = read_wording(text)
    assert words.verbs == (verb,)
    assert words.conditions and "already" not in words.instruction
    assert not any("history" in kinds for _, kinds in spoken_facts(words))  # "already" was taken for history


@pytest.mark.parametrize("sentence", ["Make restoring Enterprise1 the first step of the plan.",
                                      "Include a Remove of User3 in the plan.", "Make a DecoyApache on User2 part of the plan."])
def test_orders_that_put_a_move_in_the_plan_are_orders(sentence):
    assert gives_order(sentence)


def test_a_count_of_the_defenders_actions_is_history():
    text = "If the last three moves were all Remove on the same host, don't Remove it again; Restore it."
    assert "Remove on the same host" in condition_of(text)  # a verb after "were all" ended the condition
    assert "history" in facts_needed("the last three actions were Remove on that host")
    assert guard_rest("the last three actions were Remove on that host")  # it was taken for a story: no guard


def test_a_predicate_guarded_by_a_count_of_actions_is_silent_where_it_cannot_be_judged(tmp_path):
    """A predicate wider than its text (one Analyse within two steps) with the count listed as unexpressed: the rest
    guards; the product cannot judge it, so the rule stays silent rather than fire after a single Analyse."""
    text = "If the last two actions were both Analyse on the same host, don't Analyse it again."
    record, injected = taught(tmp_path, text, reply(entry(
        {"acted": "Analyse", "within": 2}, {"mode": "never", "verb": "Analyse", "target": "$matched"},
        unexpressed="both of the last two actions were Analyse on that same host")))
    context = ("Recent steps: step 7: Monitor -> reward -0.1 | step 8: Analyse User2 -> reward -0.1\n"
               "Host history (last 2 steps): User2: step 7 None/User, step 8 None/User; every other host: None/No\n"
               + every_host(User2="None,User"))
    assert record.when is not None and not injected(context)


@pytest.mark.parametrize("text, where", [
    ("When red scanned a user host before exploiting it, remove the attacker from it.", {"class": "User"}),
    ("If the attacker scanned Enterprise2 and then exploited it, restore Enterprise2.", {"host": "Enterprise2"}),
    ("When the attacker scanned a host first and then exploited it, put a decoy on the next subnet.", {"class": "any"}),
])
def test_a_scan_before_an_exploit_with_its_host_between_is_history(text, where):
    found, whole = text_claims(text)
    as_json = predicate_to_json(found)
    assert as_json.get("scan_before_exploit") is True and all(as_json.get(k) == v for k, v in where.items()), as_json
    assert whole
    assert claimed(text, every_host(User1="Exploit,User", Enterprise2="Exploit,User")) is not True  # no history lines


# A verb judged a waste ("Analysing X ... is wasted: do Y instead"): the judgement forbids the verb. It was read as no
# order at all (a sentence that opens with a gerund reports), so a compiled `do` of the verb judged a waste passed.
JUDGED = [
    ("Analysing Enterprise2 on a bare scan is wasted: put a DecoySSHD there instead.", "Analyse", "Enterprise2",
     {"host": "Enterprise2", "activity": "Scan"}),
    ("Restoring User4 while it only shows a scan is overkill; Monitor it.", "Restore", "User4",
     {"host": "User4", "activity": "Scan", "compromise": "No"}),
    ("Removing the attacker from Op_Host1 is not worth it once it is rooted: restore Op_Host1.", "Remove", "Op_Host1",
     {"host": "Op_Host1", "compromise": "Privileged"}),
]


@pytest.mark.parametrize("text, verb, host, when", JUDGED)
def test_a_verb_judged_a_waste_is_forbidden_and_a_do_of_it_is_refused(text, verb, host, when):
    from forge.rulebook.authoring.checks import text_problem

    words = read_wording(text)
    assert words.gives_order
    assert any(p.verb == verb and host in p.hosts for p in words.prohibitions), words.prohibitions
    assert not any(w in c.text for c in words.conditions for w in ("wasted", "overkill", "worth"))  # the judgement
    assert (text_problem(text, when, do(verb, host)) or "").startswith("prohibition")


# A change right after an action ("turned Privileged right after we analysed it"): the step after the action, and a
# change. It was read as the state at any time within the history lines, whatever the action did.
@pytest.mark.parametrize("text, verb, level", [
    ("If a host became Privileged just after we analysed it, plan a Restore of it.", "Analyse", "Privileged"),
    ("When Enterprise0 turned compromised immediately after we restored it, remove the attacker from it.", "Restore", "any"),
])
def test_a_change_right_after_an_action_is_the_next_step_and_a_change(text, verb, level):
    found, whole = text_claims(text)
    as_json = predicate_to_json(found)
    assert (as_json.get("acted"), as_json.get("within"), as_json.get("changed"), as_json.get("compromise")) == \
        (verb, 1, True, level), as_json
    assert whole


def test_a_rule_about_a_change_right_after_an_action_is_silent_where_the_host_was_so_before(tmp_path):
    text = "If a host turned Privileged right after we analysed it, restore that host; no more analysing."
    wide = reply(entry({"class": "any", "compromise": "Privileged"}, do("Analyse", "$matched")))
    record, injected = taught(tmp_path, text, wide, wide)
    assert record.when is None  # the surrogate-like `do Analyse` is refused: kept semantic, held to its claims
    before = ("Recent steps: step 5: Monitor -> reward -0.1 | step 6: Analyse User1 -> reward -0.1\n"
              "Host history (last 2 steps): User1: step 5 None/Privileged, step 6 None/Privileged; every other host: None/No\n")
    turned = ("Recent steps: step 5: Monitor -> reward -0.1 | step 6: Analyse User1 -> reward -0.1\n"
              "Host history (last 2 steps): User1: step 5 None/User, step 6 None/User; every other host: None/No\n")
    now = every_host(User1="None,Privileged")
    assert not injected(before + now)  # Privileged already before the Analyse: no change
    assert injected(turned + now)


# A heading that lists hosts ("Op_Host0 to Op_Host2: if any of them ..."): the hosts "them" stands for, not a condition
# that each is shown (the held reading asked every listed host to be shown, so the faithful predicate was silenced).
@pytest.mark.parametrize("text, applies, not_applies", [
    ("Op_Host0 to Op_Host2: if any of them shows a scan, put a DecoyTomcat on that host.", {"Op_Host1": "Scan,No"},
     {"User1": "Scan,No"}),
    ("User3 and User4: when both are rooted, restore User3.", {"User3": "None,Privileged", "User4": "None,Privileged"},
     {"User3": "None,Privileged"}),
])
def test_a_heading_of_hosts_is_what_them_stands_for(text, applies, not_applies):
    found, whole = text_claims(text)
    assert whole, predicate_to_json(found)
    assert claimed(text, every_host(**applies)) is True
    assert claimed(text, every_host(**not_applies)) is False


@pytest.mark.parametrize("text", [
    "If Enterprise1 is still compromised after we removed it, the Remove did not take: restore Enterprise1.",
    "When User3 stays compromised after a Restore, the attacker has a way back in: remove the attacker from User3.",
])
def test_a_conclusion_between_the_condition_and_a_colon_is_no_part_of_the_order(text):
    words = read_wording(text)
    assert words.conditions and not any(k in {"action outcome"} for _, kinds in spoken_facts(words) for k in kinds)
    assert ":" not in words.instruction and words.verbs and len(words.verbs) == 1, words


# A predicate that excludes what the text's words say, where the product reads them only in part ("sits" is a word it
# does not place): the opposite of the text. The claims check only ran where the reading was whole, so it passed (a
# guard it could not judge happened to keep it silent).
@pytest.mark.parametrize("text, when", [
    ("When Op_Host0 sits at user level with no activity on it, Remove Op_Host0.", {"not": {"host": "Op_Host0", "compromise": "User"}}),
    ("While User1 hovers at privileged level, restore User1.", {"host": "User1", "compromise": "No"}),
])
def test_a_predicate_that_excludes_what_a_partial_reading_says_is_refused(text, when):
    from forge.rulebook.authoring.checks import text_problem

    host = hosts_in_text(text)
    assert (text_problem(text, when, do("Remove" if "Remove" in text else "Restore", host)) or "").startswith("claims")


def hosts_in_text(text: str) -> str:
    from forge.rulebook.language.names import hosts_in

    return hosts_in(text)[0]
