"""Issue 29, round 40 (r40h: blind-37's harmful and outranked injections). Each class a rule fired where its own words
say it does not apply, or spoke beside the rule that outranks it:
- "still compromised right (just, immediately) after we restored it" lost its state and its unchanged row: the rule held
  wherever the move was made (`history_words._UNCHANGED_AFTER`);
- "held" (the attacker's hold on a host) was a word the claims did not place, and "still held" history left unplaced
  (`scope._PLACED`, `history_words._STATE`, `general_claims.history_claim`);
- a yes/no question the order hangs on ("is X held? If it is, ...") was no condition at all, so a compiled "any
  compromise" was held to nothing and fired at Compromised Unknown (`forms.question_answered`);
- "X on <a long phrase> beats Y" disprefers Y and is an order; a lesson after "It is possible ..., but" is found
  (`forbidding.BEATS`, `order.gives_order`, `order._MAYBE_IT_BUT`; `checks`: the verb the order beats is its "over");
- a file the evidence lists among several names ("(a.exe or b.sh)") asked for the last name alone, and a condition was
  cut at the dot of a file name or a decimal, its first half read as a host at root (`judged`, `markers.clause_end`,
  `general_claims.CLAUSE_BREAK`, `situation._PROSE_COMPROMISE`);
- a plain order on whichever of several named hosts shows a state, and one on the host under analysis, took part in no
  dispute (`said.said_in_words`); a party whose condition is unknown disputed no host when the rule it outranks was
  kept for the hosts nobody disputes (`meaning.undisputed_hosts`).
Then a miss of the same code: what the step's analyses report was read as the rule's own "report", so a guarded rest
made of it was unread and the rule never spoke (`judged._RATED_BY_ANALYSES`).
Each test fails at 9c8997e (checked by running this file against the product files of that commit). Sentences of our
own, none from a case file."""

from __future__ import annotations

from forge.rulebook.authoring.checks import text_problem
from forge.rulebook.authoring.compile import fitted
from forge.rulebook.language.action import Move, RuleAction
from forge.rulebook.language.condition import condition_of, semantic_claims, text_claims
from forge.rulebook.language.rule_claims import rule_claims
from forge.rulebook.language.history_words import history_conditions
from forge.rulebook.language.judged import evidence_tests
from forge.rulebook.language.meaning import Meaning, may_conflict, undisputed_hosts
from forge.rulebook.language.predicate import Atom, parse_predicate, truth
from forge.rulebook.language.said import said_in_words
from forge.rulebook.language.situation import read_situation
from forge.rulebook.language.order import gives_order
from forge.rulebook.language.wording import read_wording
from tests.test_rulebook_claims_scope import taught
from tests.test_rulebook_text_checks import entry, reply
from tests.actions import do
def _rows(**levels: str) -> str:
    """Alerts of these hosts' Compromised values, none active."""
    return "Alerts:\n" + "\n".join(f"{host}: Activity None, Compromised {level}" for host, level in levels.items())


# -- a state unchanged right after the move -----------------------------------------------------------------------------


def test_still_owned_right_after_the_move_keeps_its_state_and_its_unchanged_row():
    found = history_conditions("Op_Host1 stays owned immediately after the Restore")
    assert found == {"acted": "Restore", "within": 1, "changed": False}
    claims, whole = text_claims("If Op_Host1 is still compromised just after we restored it, plan a Remove of User2.")
    assert whole and claims.compromise == "any" and claims.changed is False and claims.within == 1


def test_a_host_not_shown_now_is_no_host_still_compromised():
    text = "If Op_Host1 is still owned right after we restored it, plan a Remove of User2."
    recent = ("Recent steps: step 13: Sleep -> reward -3.5 | step 14: Restore Op_Host1 -> reward -4.5\n"
              "Host history (last 2 steps): Op_Host1: step 13 Exploit/Privileged, step 14 Exploit/Privileged\n")
    # (the history lines show the move; the alerts no longer show the host: not said to be compromised now)
    assert truth(semantic_claims(text, "predicate refused: x", text), read_situation(recent + _rows(User2="User"))) is not True


# -- "held" ---------------------------------------------------------------------------------------------------------------


def test_held_is_a_compromise_read_whole_and_not_met_at_unknown():
    claims, whole = text_claims("While Op_Host2 is held, a Remove of Op_Host2 comes first.")
    assert whole
    assert truth(claims, read_situation(_rows(Op_Host2="Unknown"))) is False
    assert truth(claims, read_situation(_rows(Op_Host2="Privileged"))) is True


def test_still_held_is_held_now_and_at_the_step_before():
    claims, whole = text_claims("If Op_Host2 is still held, remove Op_Host2.")
    atom = next(p for p in getattr(claims, "parts", (claims,)) if isinstance(p, Atom) and p.compromise == "any")
    assert whole and atom.newly_compromised is False


# -- a question the order answers -----------------------------------------------------------------------------------------


def test_a_question_answered_yes_is_the_condition():
    claims, whole = text_claims("Is the op server rooted? If so -> Restore it.")
    assert whole and claims == Atom(host="Op_Server0", compromise="Privileged")
    words = read_wording("Ask yourself: is User1 held? If it is, a Remove of User1 goes ahead of a Restore.")
    assert [c.text for c in words.conditions][:1] == ["If User1 is held"]


def test_a_compiled_any_compromise_under_a_question_is_silent_at_unknown(tmp_path):
    text = "Ask yourself: is User1 held? If it is, plan a Remove of User1."
    compiled = reply(entry({"host": "User1", "compromise": "any"}, do("Remove", "User1")))
    record, injected = taught(tmp_path, text, compiled, compiled)
    assert record.when is not None
    assert not injected(_rows(User1="Unknown", User2="User"))
    assert injected(_rows(User1="User"))


# -- one move said to beat another ----------------------------------------------------------------------------------------

BEATS = "an Analyse on any probed enterprise box with nothing worse on it beats a Restore."


def test_a_move_on_a_long_phrase_beats_another():
    assert read_wording(BEATS).dispreferred == ("Restore",)
    assert gives_order(BEATS)


def test_the_lesson_after_a_possibility_and_a_view_is_the_directive():
    story = ("Enterprise0 got scanned at step 4 of a long run and I restored it at once, which cost me the step and the "
             "next one too, while the red agent went on probing the rest of the subnet without any hurry at all. It is "
             "possible red had slipped away already, but I think, " + BEATS)
    assert len(story) > 200 and fitted(story).startswith("I think, an Analyse")


def test_the_verb_the_order_beats_is_its_over():
    when = {"class": "Enterprise", "activity": "Scan", "compromise": "No"}
    action = {"mode": "prefer", "verb": "Analyse", "target": "$matched", "over": {"verb": "Restore", "target": "$matched"}}
    assert not (text_problem(BEATS, when, action) or "").startswith("verb:")


# -- files the evidence lists ---------------------------------------------------------------------------------------------


def test_one_of_several_files_is_asked_for_by_any_of_its_names():
    (test,) = evidence_tests("when its evidence has a dropper (payload.exe or payload.sh) at density 0.7 or above")
    evidence = ("Host Op_Host0: table Activity Exploit, Compromised User.\nBaseline: 2 processes; users pi; OS LINUX.\n"
                "Current evidence (step 6):\n- file payload.exe density 0.8\n")
    assert test.value(evidence, read_situation(evidence)) is True


def test_a_condition_runs_on_over_a_file_name_and_reads_no_level():
    text = "When the analysed box lists payload.exe at density 0.7 or above, recommend a Remove of that box."
    assert "0.7 or above" in condition_of(text)
    escalating = "Whenever the box being inspected lists escalate.sh past density 0.7 or above, a Restore of it is due."
    assert rule_claims(escalating, with_instruction=True, bare=False) is None


# -- disputes -------------------------------------------------------------------------------------------------------------


def test_an_order_on_whichever_named_host_disputes_the_exception_for_one():
    general = said_in_words("U0, U3 or U4 shows an exploit -> Restore that host")
    exception = said_in_words("User3 differs, though: once exploited, Remove it instead.")
    assert general is not None and str(general[1]) == "do Restore that host"
    assert truth(general[0], read_situation("Alerts:\nUser4: Activity Exploit, Compromised User")) is True
    assert exception is not None and may_conflict(Meaning(*general), Meaning(*exception))


def test_an_order_for_the_host_under_analysis_is_said_of_the_host_at_hand():
    said = said_in_words("When the host under analysis lists payload.sh at density 0.7 or above, recommend a Remove of it.")
    assert said is not None and said[0] == Atom(host_class="any") and str(said[1]) == "do Remove that host"


def test_a_party_of_unknown_condition_disputes_the_hosts_it_may_match():
    outranked = Meaning(parse_predicate({"host": "Enterprise0"}), RuleAction("never", Move("Remove", "$matched")))
    # (compromised since the step before: unknown where the context has no history lines)
    party = Meaning(parse_predicate({"host": "Enterprise0", "compromise": "any", "newly_compromised": False}),
                    RuleAction("do", Move("Remove", "$matched")))
    here = read_situation(_rows(Enterprise0="User"))
    assert undisputed_hosts(outranked, [party], here) == {"Enterprise0"}  # read as matching nothing for sure
    assert undisputed_hosts(outranked, [party], here, unknown=frozenset({0})) == frozenset()


# -- a miss of the same code: what the analyses report ------------------------------------------------------------------


def test_what_the_analyses_report_is_a_condition_not_the_rules_verdict():
    (shell,) = evidence_tests("this step's analyses report a connection to port 4444 on that box")
    assert shell.kind == "shell"
    assert evidence_tests("report a reverse shell to the planner") == []


def test_the_kind_of_file_before_its_names_is_the_evidences_too():
    from forge.rulebook.language.judged import without_evidence

    assert "dropper" not in without_evidence("its evidence lists a dropper file (payload.exe / payload.sh) at density 0.7 or above")
