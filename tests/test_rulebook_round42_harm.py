"""Issue 29, round 42 (r42h: blind-39's harmful injections). Each class made a rule fire where its own words say it does
not apply:
- "the step's analyses" as the subject of the rating they give ("... while this step's analyses score it low") was read
  as an order to Analyse, which cut the condition before its rating: the gate never judged it
  (`markers.clause_end`, with `_ANALYSES_REPORT`);
- a reverse shell in a note's shorthand ("rev shell", "rport 4444") was no evidence the reader knew, and the table's
  value "Compromised No" before it read as a denial of it (`judged._EVIDENCE_READINGS`, `judged._DENIED_BEFORE`);
- the defender's own last move leading an order that has a condition of its own ("Just after we restored X, if it ...,
  ...") was no condition: the rule spoke at every step the later one held (`order.ACTED_LEAD` in `_conditions`);
- lateral movement in shorthand ("lateral mvmt") or said by its definition ("newly owned while a host in a different
  subnet is held") was read clause by clause as some host newly compromised and some host compromised, the same one
  too (`forms.written_out`, `phases.NAMED_BY`, `claims.claims`);
- a note's closing case that it says it gives no order for ("just one owned -> the rule does not apply") was read as a
  case the rule holds in (`order._CASE_NOT_APPLYING`, `condition._further_cases`), and "only one owned" as an order
  that starts with "only" (`markers.IMPERATIVE_START`);
- a prohibition whose one condition is a window of steps ("first 5 steps: never Remove an ent box") was judged by the
  window alone: its target, a host or a class, is where it applies, as with no condition at all
  (`rule_claims.rule_claims`, `_window_alone`, `_class_target`).
Then what reading those words more showed (no harm of blind-39's own, but queries other splits lost, or rules outranked):
- the step's analyses by their noun are no Analyse the text names (`names.verbs_in`, `_ANALYSES_NOUN`): counted, a rule
  ordering one move named two and was read in no dispute; and what they do not report ("the analyses do not mention
  <host>") is their negation, no prohibition that ends the condition (`markers._ANALYSES_SAY_NOT` in `_clause_end`);
- the hosts a lateral movement matches are the newly compromised ones, not the footholds held since before
  (`predicate._subject_parts` in `matched_hosts`): an order on "that host" disputed another teacher's on the old one;
- evidence said of no host in a semantic rule is of the hosts its claims match where they ask a state of each
  (`retrieve._stated_hosts` in `_judged_of`): a shell on a server passed a rule about user boxes;
- the evidence a compiled rule's conditions state is judged.py's, taken out before its words' claims are read
  (`condition.evidence_judged_away` in `retrieve._held_to`): "a user box holding a reverse shell" was a user box compromised;
- a rating said not to outweigh the host's row ("a low rating never outweighs ...") turns no order down
  (`checks._NO_TURN_DOWN`).
Each test fails at add6b84 (checked by running this file with the product files of that commit on the path). Sentences
of our own, none from a case file."""

from __future__ import annotations

from forge.env.catalog import HOSTS
from forge.rulebook.authoring.checks import text_problem
from forge.rulebook.language.predicate import matched_hosts
from forge.rulebook.language.names import verbs_in
from forge.rulebook.retrieval.retrieve import _held_to, _shown
from forge.rulebook.language.claims import claims
from forge.rulebook.language.condition import semantic_claims, text_claims
from forge.rulebook.language.guard import confirmed
from forge.rulebook.language.judged import evidence_tests, judged_in
from forge.rulebook.language.phases import phase_named, phase_predicate
from forge.rulebook.language.predicate import atoms_of, parse_predicate, truth
from forge.rulebook.language.situation import read_situation
from forge.rulebook.language.order import gives_order
from forge.rulebook.language.wording import read_wording
from tests.situations import alert_lines


def _table(**states: str) -> str:
    """Every host's row as an alert line: these hosts as given, the rest quiet."""
    return alert_lines(**{host: states.get(host, "None/No") for host in HOSTS})


def _kinds(found) -> list[str]:
    return [t.kind for t in found]


# -- the step's analyses as the subject of a rating ------------------------------------------------------------------------


def test_the_analyses_rating_a_host_stay_in_its_condition():
    text = "When User2 shows an exploit and the step's analyses rate User2 low risk, choose DecoySSHD on User2."
    words = read_wording(text)
    assert len(words.conditions) == 1 and "low risk" in words.conditions[0].text
    found = judged_in("; ".join(c.text for c in words.conditions), words.instruction)
    assert [(t.kind, t.host, t.word) for t in found] == [("risk", "User2", "low")]


def test_a_verb_to_analyse_still_opens_the_order():
    # (the defender's Analyse, not the analyses' report, still ends the condition before it)
    words = read_wording("When User2 shows an exploit analyse User2 at once.")
    assert all("at once" not in c.text for c in words.conditions)


# -- a reverse shell in shorthand ------------------------------------------------------------------------------------------


def test_a_reverse_shell_in_shorthand_is_evidence():
    assert _kinds(evidence_tests("the evidence lists a rev shell on it")) == ["shell"]
    assert _kinds(evidence_tests("a connection out to rport 4444")) == ["shell"]


def test_the_tables_compromised_no_is_no_denial_of_the_evidence():
    assert _kinds(evidence_tests("its row says Compromised No but the evidence has a reverse shell")) == ["shell"]
    assert evidence_tests("the box has no reverse shell") == []


# -- the defender's last move leading an order with a condition of its own --------------------------------------------------


def test_the_last_move_leading_a_conditional_order_is_a_condition():
    text = "Just after we restored User1, if it shows a scan, choose DecoySSHD on User1."
    found = semantic_claims(text, "", text)
    acted = [atom for atom, negated in atoms_of(found) if atom.acted]
    assert [(a.host, a.acted, a.within) for a in acted] == [("User1", "Restore", 1)]
    assert any(atom.activity == "Scan" for atom, _ in atoms_of(found))


# -- lateral movement -------------------------------------------------------------------------------------------------------


LATERAL = parse_predicate(phase_predicate("lateral_movement"))


def test_lateral_movement_in_shorthand_is_the_phase():
    assert phase_named("lateral mvmt under way") == "lateral_movement"
    text = "lateral mvmt -> Remove goes on the newly compromised box (plan it)."
    assert "lateral movement" in read_wording(text).text


def test_lateral_movement_said_by_its_definition_is_the_phase():
    said = "a host is newly owned while a machine in a different subnet is already compromised"
    assert claims(said) == LATERAL
    # (at a fresh foothold with nothing else compromised, the phase does not hold)
    fresh = f"Recent steps: step 17: Sleep -> reward +0.0\n" \
            f"Host history (last 1 steps): User3: step 17 Scan/No\n{_table(User3='Exploit/User')}"
    assert truth(claims(said), read_situation(fresh)) is False


# -- a closing case the note says it does not apply in ----------------------------------------------------------------------


def test_a_case_the_note_gives_no_order_for_is_not_a_case_of_the_rule():
    text = "2+ ent servers owned (user or root) -> plan a Remove for every owned one. just one owned -> the rule does not apply."
    found, whole = text_claims(text)
    assert whole
    assert "just one" not in read_wording(text).instruction
    assert truth(found, read_situation(_table(Enterprise0="None/User"))) is False
    assert truth(found, read_situation(_table(Enterprise0="None/User", Enterprise2="None/Privileged"))) is True


def test_a_count_said_with_its_state_is_no_order():
    assert not gives_order("just one compromised")
    text = "Three or more op hosts compromised: plan a Restore for every one of those. Only one compromised: nothing from this note."
    assert "Only one" not in read_wording(text).instruction
    assert gives_order("only restore the compromised one")


# -- a prohibition in a window of steps ---------------------------------------------------------------------------------------


def test_a_prohibition_in_a_window_applies_where_its_class_is_shown():
    text = "first 5 steps of this episode (up to step 5): never Remove an ent box. too early for that."
    found = semantic_claims(text, "", text)
    assert any(atom.host_class == "Enterprise" for atom, _ in atoms_of(found))
    early = "Step 3 of 30.\n"
    assert truth(found, read_situation(early + alert_lines(User1="Scan/No"))) is False
    assert truth(found, read_situation(early + alert_lines(Enterprise1="Scan/No"))) is True


def test_an_order_to_act_in_a_window_needs_no_target_shown():
    text = "In the first 4 steps of the episode, plan a DecoyApache on Enterprise1 regardless of alerts."
    found = semantic_claims(text, "", text)
    assert not any(atom.host == "Enterprise1" for atom, _ in atoms_of(found))


# -- what reading more showed ------------------------------------------------------------------------------------------------


def test_the_step_s_analyses_are_no_analyse_named():
    assert verbs_in("Choose Remove for any op host that the step's analyses rate high risk.") == ("Remove",)
    assert verbs_in("a shell in the analyses for this step -> Remove it") == ("Remove",)
    assert verbs_in("Analyse Op_Host2 first, then Remove it") == ("Analyse", "Remove")


def test_lateral_movement_matches_the_newly_compromised_host():
    context = ("Recent steps: step 23: Sleep -> reward -1.0\n"
               "Host history (last 1 steps): Op_Host1: step 23 Scan/No; User1: step 23 None/User\n"
               + _table(User1="None/User", Op_Host1="Exploit/User"))
    assert matched_hosts(LATERAL, read_situation(context)) == ("Op_Host1",)


def test_the_evidence_of_a_compiled_rule_is_no_state_for_its_claims():
    text = "When the step's analyses list a reverse shell on an op host, choose Remove of that host."
    found, whole = _held_to(text, parse_predicate({"class": "Operational"}))
    held = found if whole else confirmed(_shown(found))  # (what the gate holds the rule to, retrieve.RuleIndex._build_gate)
    # (an op host whose row reads Unknown may carry the shell: the words do not deny it, the evidence reader judges it)
    assert held is None or truth(held, read_situation(alert_lines(Op_Host1="None/Unknown"))) is True


def test_a_rating_that_does_not_outweigh_the_row_turns_nothing_down():
    text = ("When User4 reads Compromised User my pick is Restore User4, even when the step's analyses rate it low: "
            "a low score never outweighs a compromised row.")
    when = {"host": "User4", "compromise": "User"}
    problem = text_problem(text, when, {"mode": "do", "verb": "Restore", "target": "User4"}) or ""
    assert not problem.startswith("polarity")


def test_evidence_of_no_host_in_a_semantic_rule_is_of_the_hosts_its_claims_match():
    from types import SimpleNamespace

    from forge.rulebook.model import RuleType
    from forge.rulebook.retrieval.retrieve import _judged_of

    text = "A reverse shell on an op box, in the step's analyses, is a reason to Remove that box."
    record = SimpleNamespace(directive=text, text=text, semantic_reason="predicate refused: verb: x", compiled_by="model",
                             type=RuleType.CONTENT)
    found = _judged_of(record, True, "")
    context = (alert_lines(Enterprise2="Exploit/User", Op_Host0="None/User")
               + "\n\nAnalyses this step:\nHost: Enterprise2\nActivity: Exploit\nCompromise: User\n"
                 "Evidence: process: two connections on local port 50123 to remote port 4444 (looks like a reverse shell)\nRisk: high\n")
    situation = read_situation(context)
    # (the shell is on a server, not on the op box the rule is about)
    assert [test.value(context, situation) for test in found] == [False]


def test_what_the_analyses_do_not_report_stays_in_the_condition():
    text = "If Op_Host1 shows Compromised User but the step's analyses don't mention it, choose Analyse Op_Host1."
    words = read_wording(text)
    assert len(words.conditions) == 1 and "mention" in words.conditions[0].text
