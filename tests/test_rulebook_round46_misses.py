"""Issue 29, round 46 (misses on blind-43): readings the product lacked, so a rule kept semantic stayed silent where its
own words apply (or a faithful compilation was refused). One test per class; every sentence here is written for the test."""

from forge.rulebook.authoring.checks import text_problem
from forge.rulebook.language.claims import claims
from forge.rulebook.language.condition import semantic_claims
from forge.rulebook.language.rule_claims import rule_claims
from forge.rulebook.language.predicate import implies, parse_predicate, truth
from forge.rulebook.language.situation import read_situation
from forge.rulebook.language.wording import read_wording
from tests.situations import alert_lines

REFUSED = "predicate refused: a check"


def _read(text: str):
    """The claims a semantic rule whose predicate was refused is held to (None: none)."""
    return semantic_claims(text, REFUSED, text)


def _is(found, when: dict) -> bool:
    """Whether claims say exactly `when` (each implies the other)."""
    other = parse_predicate(when)
    return found is not None and implies(found, other) and implies(other, found)


def _table(**rows: str) -> str:
    """The environment's table with every host: those named in their state, the others quiet."""
    from forge.env.catalog import HOSTS
    body = [f"{h} | 10.0.0.0/28 | 10.0.0.{i} | {rows.get(h, 'None/No').split('/')[0]} | {rows.get(h, 'None/No').split('/')[1]}"
            for i, h in enumerate(HOSTS)]
    return "Hostname | Subnet | IP | Activity | Compromised\n" + "\n".join(body)


def _holds(found, context: str):
    return truth(found, read_situation(context))


def test_nothing_running_on_it_denies_that_hosts_activity_only():
    text = "Reimage Enterprise1 with a Restore while it reads Compromised User and nothing is going on on it at the moment."
    found = _read(text)
    assert _is(found, {"host": "Enterprise1", "activity": "None", "compromise": "User"})
    assert _is(claims("its row says Compromised Privileged and nothing is running on that host", "Op_Host1"),
               {"host": "Op_Host1", "activity": "None", "compromise": "Privileged"})


def test_the_alternative_after_rather_than_is_no_part_of_the_condition():
    text = "I'd sooner Remove User4 while its exploit is under way than let it sink in to root."
    assert _is(_read(text), {"host": "User4", "activity": "Exploit"})


def test_the_step_after_a_move_is_that_one_step():
    found = rule_claims("the turn after u Restore Op_Host0 -> DecoySSHD on Op_Host0", with_instruction=True)
    assert found == parse_predicate({"host": "Op_Host0", "acted": "Restore", "within": 1})
    assert _read("step after you Remove U1 -> put a DecoySmss on U1") == parse_predicate(
        {"host": "User1", "acted": "Remove", "within": 1})


def test_a_rows_two_values_said_alone_name_their_columns():
    text = "if the table prints 'Exploit' and 'User' for Enterprise0, the answer is a Remove of Enterprise0"
    assert _is(_read(text), {"host": "Enterprise0", "activity": "Exploit", "compromise": "User"})
    assert _is(claims("Enterprise2 at Scan/No"), {"host": "Enterprise2", "activity": "Scan", "compromise": "No"})
    # a class word after a value is no column ("User hosts")
    assert not _is(claims("Op_Host2 shows Exploit and User hosts are quiet"),
                   {"host": "Op_Host2", "activity": "Exploit", "compromise": "User"})


def test_an_alert_line_that_reads_a_quoted_value_is_read_whole():
    text = "ent server alert line says 'Activity Scan, Compromised No' -> DecoyTomcat on that server"
    found = _read(text)
    assert _is(found, {"class": "Enterprise", "activity": "Scan", "compromise": "No"})


def test_all_boxes_of_a_class_with_an_order_on_that_box_is_each_its_own_case():
    for said in ("scan seen", "probe seen"):  # (a probe is a scan: the state the heading's order is for)
        found = _read(f"all ent servers except E1: {said}, nothing more -> DecoyTomcat on that server")
        assert found is not None
        assert _holds(found, alert_lines(Enterprise0="Scan/No")) is True
        assert _holds(found, alert_lines(Enterprise0="None/User")) is not True
        assert _holds(found, alert_lines(Enterprise1="Scan/No")) is not True


def test_a_key_value_form_flattened_onto_one_line_is_read_as_its_lines():
    flat = "when: Op_Host1 at root, no activity do: Restore Op_Host1 never: Remove Op_Host1"
    words = read_wording(flat)
    assert [c.text for c in words.conditions] and "Op_Host1" in words.conditions[0].text
    assert _is(_read(flat), {"host": "Op_Host1", "activity": "None", "compromise": "Privileged"})


def test_an_equals_sign_judges_a_move_as_is_does():
    text = "op boxes @ root -> Restore. Remove = waste of a turn there."
    assert [p.verb for p in read_wording(text).prohibitions] == ["Remove"]
    assert text_problem(text, {"class": "Operational", "compromise": "Privileged"},
                        {"mode": "prefer", "verb": "Restore", "target": "$matched",
                         "over": {"verb": "Remove", "target": "$matched"}}) is None


def test_two_classes_counts_compared():
    more = _read("Whenever more boxes are compromised in the op subnet than in the user subnet, put the op side first in the plan.")
    assert more is not None
    assert _holds(more, _table(Op_Host0="None/User", Op_Host1="None/User", User2="None/User")) is True
    assert _holds(more, _table(Op_Host0="None/User", User2="None/User")) is False
    least = _read("ops subnet: at least as many compromised boxes as usr subnet -> plan Restore on the op side")
    assert least is not None
    assert _holds(least, _table(Op_Host0="None/User", User2="None/User")) is True
    assert _holds(least, _table(User1="None/User")) is False


def test_the_rest_of_a_class_after_exactly_one_of_it_is_the_others():
    found = _read("exactly 1 op box owned, rest of op subnet quiet -> Restore that box")
    assert found is not None
    assert _holds(found, _table(Op_Host1="None/User")) is True
    assert _holds(found, _table(Op_Host1="None/User", Op_Host2="Scan/No")) is False


def test_another_teachers_advice_set_aside_is_its_condition_and_an_order_against_that_move():
    text = ("Disregard s4/i07's Analyse advice when Enterprise2 reads 'Activity Scan, Compromised No': put a DecoyTomcat on "
            "Enterprise2 during that step and leave the Analyse for the turn after.")
    words = read_wording(text)
    assert not words.prohibitions and "Analyse" in words.dispreferred
    assert _is(_read(text), {"host": "Enterprise2", "activity": "Scan", "compromise": "No"})
    # the teacher's id is no host, and the order set against that advice passes the checks
    assert text_problem(text, {"host": "Enterprise2", "activity": "Scan", "compromise": "No"},
                        {"mode": "prefer", "verb": "DecoyTomcat", "target": "Enterprise2",
                         "over": {"verb": "Analyse", "target": "Enterprise2"}}) is None


def test_a_quoted_rating_or_evidence_line_is_read_as_what_the_context_prints():
    from forge.rulebook.language.condition import condition_of
    from forge.rulebook.language.judged import evidence_tests
    rated = evidence_tests(condition_of("analyses this step say 'Risk: low' for a box -> Monitor is enough there"))
    assert [(t.kind, t.word) for t in rated] == [("risk", "low")]
    quoted = evidence_tests(condition_of("When the evidence lists 'file dropper.exe density 0.65' on the analysed host, "
                                         "recommend a Restore."))
    assert [(t.kind, t.word, t.amount) for t in quoted] == [("file", "dropper.exe", 0.65)]


def test_a_decoy_of_no_service_forbidden_on_a_class_disputes_a_named_decoy():
    from forge.rulebook.language.action import opposed_hosts, parse_rule_action
    from forge.rulebook.language.said import said_in_words
    found = said_in_words("ent server probed only -> Analyse is enough, decoys on the ent subnet = wasted turns")
    assert found is not None and found[1].mode == "never" and found[1].move.verb == "Decoy"
    named = parse_rule_action({"mode": "do", "verb": "DecoyTomcat", "target": "$matched"})
    assert opposed_hosts(found[1], named, ["Enterprise1"], ["Enterprise1"]) == frozenset({"Enterprise1"})


def test_the_newly_compromised_host_an_order_acts_on_is_whichever_fell():
    from forge.rulebook.language.predicate import atoms_of
    text = "When lateral movement is under way, plan a Restore on the freshly compromised host, then a DecoySmss on Enterprise1."
    found = rule_claims(text, with_instruction=True)
    assert found is not None
    # not "Enterprise1 is compromised": the host the order acts on is the one that just fell
    assert not any(atom.host == "Enterprise1" and atom.compromise is not None for atom, _ in atoms_of(found))


def test_a_rest_that_only_restates_the_predicates_history_does_not_guard():
    from forge.rulebook.language.guard import guard_rest
    fresh = parse_predicate({"class": "Enterprise", "compromise": "any", "newly_compromised": True})
    assert guard_rest("clean prior turn", fresh) == ""
    assert guard_rest("clean prior turn and Op_Host0 quiet", fresh) != ""  # a condition of its own stays


def test_as_long_as_it_stays_so_repeats_the_condition():
    text = "Op_Host1 owned, same state 2 steps -> Restore Op_Host1, as long as it remains so."
    found = _read(text)
    assert found is not None and found == _read("Op_Host1 owned, same state 2 steps -> Restore Op_Host1.")
    assert found != parse_predicate({"not": {"always": True}})
    assert [c.text for c in read_wording(text).conditions if "long" in c.text] == []


def test_a_window_said_first_in_a_note_is_a_window_not_an_order():
    text = "first 5 turns of the game + an ent server probed -> plan DecoySmss on E0 ahead of anything else"
    words = read_wording(text)
    assert [c.text for c in words.conditions] and words.instruction.startswith("plan DecoySmss")
    found = _read(text)
    assert found is not None and found != parse_predicate({"not": {"always": True}})


def test_a_level_or_above_is_a_compromise_for_sure():
    assert _is(claims("Enterprise1 is at user level or higher"), {"host": "Enterprise1", "compromise": "any"})
    text = "From step 20 on, once Op_Host0 gets owned at user-level or higher, plan a Restore of Op_Host0."
    found = _read(text)
    assert found is not None and found != parse_predicate({"not": {"always": True}})
    assert _holds(found, "Step 22 of 30.\n" + alert_lines(Op_Host0="None/Privileged")) is True
    assert _holds(found, "Step 22 of 30.\n" + alert_lines(Op_Host0="None/Unknown")) is not True


def test_an_else_if_ladder_keeps_its_later_rungs():
    for said in ("else if", "otherwise, if"):
        text = f"If Enterprise1 is under exploit, Remove Enterprise1; {said} it is merely probed, put a DecoyTomcat on it."
        assert len(read_wording(text).conditions) == 2
        assert _is(rule_claims(text, with_instruction=True),
                   {"any": [{"host": "Enterprise1", "activity": "Exploit"},
                            {"host": "Enterprise1", "activity": "Scan", "compromise": "No"}]})
    # an "otherwise" that gives the reason stays no order of its own
    assert read_wording("Remove User1 when it is exploited, otherwise it spreads.").instruction == "Remove User1 when it is exploited"
