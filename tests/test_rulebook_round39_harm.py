"""Issue 29, round 39 (r39h: blind-36's harmful and outranked injections). Each class a rule fired where its own words
say it does not apply, or spoke beside the rule it disputes:
- a window of steps said as a heading before the situation ("after step N: <situation> -> <order>") was dropped;
- "<host> and (at least) one other <class> host are ..." read the named host alone, and called that reading whole;
- "no <class> host except H is ..., and H is" excepted H from the whole condition, so the rule held on a quiet network
  (and a predicate on H was refused as aimed at the host the text excepts);
- "N steps (straight) of <level>" left the level unread: any compromise held for N steps met it;
- a teacher's verdict on another rule before a colon ("That is backwards:") was read as a condition no reading placed;
- a preference on a named host, in a text whose condition names a class, took no part in any dispute;
- the step's analyses as the subject of a rating ("the analyses of the step rate a box low") were no order's situation and
  no fact, so a predicate without the rating went unchecked.
Then misses of the same class: a rating or an analysis's evidence left to the unexpressed rest kept the rule silent
everywhere (the rest unread, "high risk" a priority no context states, a bare host refused though the rest said the rest).
Sentences of our own, none from a case file."""

from __future__ import annotations

from forge.rulebook.authoring.checks import text_problem
from forge.rulebook.language.condition import semantic_claims, text_claims
from forge.rulebook.language.facts import facts_needed, facts_stated
from forge.rulebook.language.guard import guard_claims, guard_rest
from forge.rulebook.language.rule_claims import rule_claims
from forge.rulebook.language.judged import evidence_tests
from forge.rulebook.language.meaning import Meaning, may_conflict
from forge.rulebook.language.predicate import Always, Not, parse_predicate, truth
from forge.rulebook.language.said import said_in_words
from forge.rulebook.language.situation import read_situation
from forge.rulebook.language.wording import read_wording


def _levels(step: int = 0, **compromised: str):
    """A context of these hosts' Compromised values (none active), at `step` of the episode (0: no step said)."""
    head = f"Step {step} of 30.\n" if step else ""
    return read_situation(head + "Alerts:\n" + "\n".join(f"{h}: Activity None, Compromised {c}" for h, c in compromised.items()))


QUIET = _levels(**{h: "No" for h in ("Enterprise0", "Enterprise1", "Enterprise2", "Op_Host0", "Op_Host1", "Op_Host2",
                                     "Op_Server0", "User0", "User1", "User2", "User3", "User4")})


# -- a window of steps as a heading before the situation ----------------------------------------------------------------

HEADED = "before step 8: any usr box at root lvl -> plan Restore, not Remove."


def test_a_window_heading_stays_with_the_situation():
    words = read_wording(HEADED)
    assert "step 8" in words.situation and "root" in words.situation
    # (listed as the predicate's unexpressed rest, the window guards the rule: it is no story told beside the order)
    assert guard_rest("before step 8", parse_predicate({"class": "User", "compromise": "Privileged"}), HEADED)


def test_a_window_heading_narrows_the_claims():
    found = rule_claims(HEADED, with_instruction=True)
    assert truth(found, _levels(step=5, User1="Privileged")) is True
    assert truth(found, _levels(step=12, User1="Privileged")) is False


# -- a named host and another host of a class ---------------------------------------------------------------------------

def test_a_named_host_and_one_other_of_a_class_claims_both():
    found, whole = text_claims("When Op_Server0 and at least one other op host are both owned, restore Op_Server0.")
    assert whole
    ops = {"Op_Host0": "No", "Op_Host1": "No", "Op_Host2": "No", "Op_Server0": "User"}
    assert truth(found, _levels(**ops)) is False
    assert truth(found, _levels(**{**ops, "Op_Host1": "Privileged"})) is True
    # (the other host is another than the one named: Op_Server0 alone does not count twice)
    found, _ = text_claims("If User3 and another user box are exploited at once, remove User3.")
    assert truth(found, read_situation("Alerts:\n" + "\n".join(
        f"User{i}: Activity {'Exploit' if i == 3 else 'None'}, Compromised {'User' if i == 3 else 'No'}" for i in range(5)))) is False


# -- a host excepted from a condition, then said on its own ---------------------------------------------------------------

EXCEPTED = "If no user host except User2 is compromised, and User2 is, remove User2."
REMOVE_U2 = {"mode": "do", "verb": "Remove", "target": "User2"}
USERS = {f"User{i}": "No" for i in range(5)}


def test_the_host_a_condition_excepts_is_still_said_of():
    found = semantic_claims(EXCEPTED, "predicate refused: target", EXCEPTED)
    assert truth(found, QUIET) is False
    assert truth(found, _levels(**{**USERS, "User2": "User"})) is True
    assert truth(found, _levels(**{**USERS, "User2": "User", "User4": "Privileged"})) is False


def test_an_order_on_the_host_a_condition_excepts_is_no_inversion():
    when = {"all": [{"host": "User2", "compromise": "any"},
                    *({"not": {"host": f"User{i}", "compromise": "any"}} for i in (0, 1, 3, 4))]}
    assert text_problem(EXCEPTED, when, REMOVE_U2) is None
    # (an exception of the order itself still spares its host)
    spared = "Remove every user host except User2 once it is compromised."
    assert (text_problem(spared, {"host": "User2", "compromise": "any"}, REMOVE_U2) or "").startswith("target:")


# -- a run of steps "of" a level ------------------------------------------------------------------------------------------

def test_a_run_of_steps_of_a_level_keeps_the_level():
    found = rule_claims("4 turns in a row of User on an op host -> plan Remove of it.", with_instruction=True)
    assert found.compromise == "User" and found.unchanged_for == 4


# -- a verdict on another rule before the colon ---------------------------------------------------------------------------

REBUTTAL = "No, that's wrong: when User3 and an op host are both owned, User3 comes first. Plan a Remove of User3, not a Restore."


def test_a_verdict_on_another_rule_is_no_situation():
    words = read_wording(REBUTTAL)
    assert words.situation == ""
    assert all("wrong" not in c.text for c in words.conditions)


# -- a preference on a named host where the condition names a class -------------------------------------------------------

def test_opposite_preferences_on_a_named_host_dispute():
    mine = said_in_words(REBUTTAL)
    theirs = said_in_words("When User3 and an op host are both owned, plan a Restore of User3 rather than a Remove, "
                           "and keep the Remove for the op host.")
    assert mine is not None and theirs is not None
    assert str(mine[1]) == "prefer Remove User3 over Restore User3"
    assert str(theirs[1]) == "prefer Restore User3 over Remove User3"
    assert may_conflict(Meaning(*mine), Meaning(*theirs))


# -- the step's analyses rating a host ------------------------------------------------------------------------------------

RATED = "analyses this step rate a box high + its row at root -> Restore that box."


def test_the_analyses_rating_heads_the_order():
    words = read_wording(RATED)
    assert words.gives_order and "rate a box high" in words.situation
    assert words.verbs == ("Restore",)


def test_the_analyses_rating_is_a_fact_and_is_judged():
    assert "risk" in facts_needed("the step's analyses rate the op box high")
    assert [(t.kind, t.word) for t in evidence_tests("the step's analyses rate the op box high")] == [("risk", "high")]
    # (a predicate without the rating says more than the text)
    assert text_problem(RATED, {"class": "any", "compromise": "Privileged"},
                        {"mode": "do", "verb": "Restore", "target": "$matched"}) is not None


# -- then, the misses of the same class: a rating or an analysis's evidence as the unexpressed rest -----------------------

RATED_LOW = "Op_Host1 rated low by the analyses -> no Analyse of it now, a DecoyApache on Op_Host1 instead."
DECOY_OH1 = {"mode": "prefer", "verb": "DecoyApache", "target": "Op_Host1", "over": {"verb": "Analyse", "target": "Op_Host1"}}


def test_a_rating_of_a_named_host_may_be_left_to_the_rest():
    # (the host's bare trigger says what the condition says: the rating is judged, from the rest or the condition)
    assert text_problem(RATED_LOW, {"host": "Op_Host1"}, DECOY_OH1, "the analyses rate Op_Host1 low risk") is None
    # (without the rest too: the rating of the one host named is judged in the condition's own words at the gate)
    assert text_problem(RATED_LOW, {"host": "Op_Host1"}, DECOY_OH1) is None
    # (a state said beside the rating still needs its predicate)
    stated = "If Op_Host1 is exploited and rated low by the analyses, plan a DecoyApache on Op_Host1 rather than an Analyse."
    assert (text_problem(stated, {"host": "Op_Host1"}, DECOY_OH1, "the analyses rate Op_Host1 low risk") or "").startswith("bare:")


def test_a_rest_of_evidence_alone_is_judged_not_silent():
    user = parse_predicate({"class": "User"})
    assert guard_claims("the analyses of this step show a reverse shell on that user box", user) is None
    # (the rating is judged; the claims read at most the host it rates, never a silence)
    one_host = parse_predicate({"host": "User1"})
    assert guard_claims("this step's analyses rate User1 medium risk", one_host) in (None, one_host)
    # (a denied rating is no reading of it: the rest stays unread, the rule silent)
    assert guard_claims("the analyses do not rate User1 high", parse_predicate({"host": "User1"})) == Not(Always())


def test_a_rating_is_a_fact_the_risk_lines_state():
    from forge.rulebook.language.judged import judged_facts  # (r39h's; here, so that the file loads where it is missing)

    assert judged_facts("a host rated high by the analyses") == {"risk"}
    assert "risk" in facts_needed("an op host at high risk") and "priority" not in facts_needed("an op host at high risk")
    context = "Analyses this step:\nHost: User1\nActivity: None\nCompromise: User\nRisk: low"
    assert "risk" in facts_stated(context, read_situation(context))
    assert "risk" not in facts_stated("Alerts:\nUser1: Activity None, Compromised User", read_situation(""))
    # (a rating no reading judges, said as the answer someone would give, stays a fact no context states)
    assert facts_needed("if the analyst would call it high risk") == {"priority"}
