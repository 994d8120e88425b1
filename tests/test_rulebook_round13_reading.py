"""Issue 29, thirteenth round: readings that let a rule fire where its own words say it does not apply, and readings
that kept a rule silent where its words apply. Each class on sentences written for these tests.

- *A guarded rule's rest said "compromised"* ("at least two enterprise servers compromised") was met by a row at
  Compromised Unknown, where the same words in a rule kept semantic (or a predicate held to its text) are not.
- *"&" and "+" between clauses* ("User3 probed & nothing compromised anywhere") joined two clauses into one: the second
  one's state was taken for the first host's ("User3 probed and clean"), and the reading called itself whole.
- *A range of hosts whose order acts on one of them* ("Op_Host0-Op_Host2 compromised -> Restore that box") was read as
  all of them at once, so the rule was silent where one of them was.
- *A doubt is no prohibition* ("I can't be sure a Remove would have helped"): the doubt was read as forbidding the verb,
  and the order after it was refused as its opposite.
- *The teacher's judgement before a colon* ("... is a risk I won't take again: when ..., ...") was read as the rule's
  situation, and its words as a condition the reading could not place.
- *A doubt, then the order* ("I might be reading too much into one step, but while ..., Remove ...") was no order.
- *"scanned before it was exploited"*: the exploit said in the past is the history's (scan, then exploit), not an
  exploit the row must show now.
"""

from __future__ import annotations

from forge.rulebook.authoring.checks import text_problem
from forge.rulebook.language.condition import complete_claims, guard_claims, rule_claims, text_claims
from forge.rulebook.language.predicate import parse_predicate, truth
from forge.rulebook.language.situation import read_situation
from forge.rulebook.language.wording import gives_order, read_wording


def _rows(*rows: tuple[str, str, str]):
    return read_situation("Alerts:\n" + "\n".join(f"{h}: Activity {a}, Compromised {c}" for h, a, c in rows))


def _table(*rows: tuple[str, str, str]):
    """The blue table: every host quiet but `rows`."""
    shown = {h: (a, c) for h, a, c in rows}
    hosts = ["Defender", "Enterprise0", "Enterprise1", "Enterprise2", "Op_Host0", "Op_Host1", "Op_Host2", "Op_Server0",
             "User0", "User1", "User2", "User3", "User4"]
    lines = [f"{h} | 10.0.0.0/28 | 10.0.0.{i} | {shown.get(h, ('None', 'No'))[0]} | {shown.get(h, ('None', 'No'))[1]}"
             for i, h in enumerate(hosts)]
    return read_situation("Hostname | Subnet | IP | Activity | Compromised\n" + "\n".join(lines))


# -- a guarded rule's rest said "compromised" ---------------------------------------------------------------------------

ENTERPRISE_COMPROMISED = parse_predicate({"any": [{"class": "Enterprise", "compromise": "User"},
                                                  {"class": "Enterprise", "compromise": "Privileged"}]})


def test_a_guard_that_counts_compromised_hosts_is_not_met_by_an_unknown_row() -> None:
    guard = guard_claims("at least two enterprise servers compromised", ENTERPRISE_COMPROMISED)
    one_and_unknown = _rows(("Enterprise0", "None", "User"), ("Enterprise2", "None", "Unknown"))
    assert truth(guard, one_and_unknown) is not True
    assert truth(guard, _rows(("Enterprise0", "None", "User"), ("Enterprise2", "Exploit", "Privileged"))) is True


def test_a_guard_that_says_a_named_host_is_compromised_is_not_met_by_its_unknown_row() -> None:
    when = parse_predicate({"host": "Op_Host1", "activity": "Scan"})
    guard = guard_claims("only when Op_Server0 is compromised too", when)
    assert truth(guard, _rows(("Op_Host1", "Scan", "No"), ("Op_Server0", "None", "Unknown"))) is not True
    assert truth(guard, _rows(("Op_Host1", "Scan", "No"), ("Op_Server0", "None", "User"))) is True


# -- "&" and "+" between clauses ----------------------------------------------------------------------------------------


def test_an_ampersand_between_clauses_joins_two_clauses() -> None:
    found, whole = text_claims("User3 probed & nothing compromised anywhere -> DecoyTomcat User3.")
    assert found is not None and whole
    # the rest of the network is not clean: "nothing compromised anywhere" does not hold
    assert truth(found, _table(("User3", "Scan", "No"), ("Op_Host2", "None", "Privileged"))) is not True
    assert truth(found, _table(("User3", "Scan", "No"))) is True


def test_a_plus_between_clauses_joins_two_clauses() -> None:
    found, whole = text_claims("Enterprise0 probed + nothing compromised on the network -> DecoyTomcat Enterprise0.")
    assert found is not None and whole
    assert truth(found, _table(("Enterprise0", "Scan", "No"), ("User4", "None", "User"))) is not True
    assert truth(found, _table(("Enterprise0", "Scan", "No"))) is True


# -- a range of hosts whose order acts on one of them -------------------------------------------------------------------


def test_a_range_whose_order_acts_on_that_host_is_about_each_host_by_itself() -> None:
    found, whole = text_claims("Op_Host0-Op_Host2 compromised -> Restore that box.")
    assert found is not None and whole
    assert truth(found, _rows(("Op_Host1", "None", "Privileged"))) is True
    assert truth(found, _rows(("Op_Host1", "Scan", "No"))) is not True


def test_a_range_said_to_share_its_state_is_still_all_of_them() -> None:
    found, _ = text_claims("Once Op_Host0 to Op_Host2 are all compromised, restore that box first: Op_Server0.")
    assert truth(found, _rows(("Op_Host1", "None", "Privileged"))) is not True


# -- a doubt is no prohibition ------------------------------------------------------------------------------------------

DOUBTFUL = ("Op_Host2 was exploited at step 7 and I waited. I can't be sure a Remove would have helped, but I think so. "
            "Whenever Op_Host2 shows an exploit, remove the attacker from Op_Host2.")


def test_a_doubt_about_what_a_verb_would_have_done_forbids_nothing() -> None:
    assert read_wording(DOUBTFUL).prohibitions == ()
    assert read_wording("I am not sure Restore works on Enterprise1. Remove it when it is exploited.").prohibitions == ()
    assert text_problem(DOUBTFUL, {"host": "Op_Host2", "activity": "Exploit"},
                        {"mode": "do", "verb": "Remove", "target": "Op_Host2"}) is None
    assert read_wording("You can't restore Op_Host2 while it is scanned.").prohibitions  # a prohibition stays one


# -- the teacher's judgement before a colon -----------------------------------------------------------------------------

JUDGED = ("I ignored the exploit on Op_Host1 at step 12. Still, an exploit on Op_Host1 that goes unanswered is a risk "
          "I'd rather not take again: when Op_Host1 shows an exploit, Remove Op_Host1.")


def test_the_teachers_judgement_before_a_colon_is_no_condition() -> None:
    words = read_wording(JUDGED)
    assert [c.text for c in words.conditions] == ["when Op_Host1 shows an exploit"]
    found = rule_claims(JUDGED, with_instruction=True)
    assert complete_claims(JUDGED, found)
    assert truth(found, _rows(("Op_Host1", "Exploit", "User"))) is True


# -- a doubt, then the order --------------------------------------------------------------------------------------------


def test_an_order_after_the_teachers_doubt_is_an_order() -> None:
    text = ("Enterprise0 was exploited and I restored it at once. I might be reading too much into one step, but while "
            "Enterprise0 has only user-level access, Remove Enterprise0 instead of Restoring it.")
    assert gives_order("I might be reading too much into one step, but while Enterprise0 has only user-level access, "
                       "Remove Enterprise0 instead of Restoring it.")
    words = read_wording(text)
    assert words.instruction.startswith("while Enterprise0")
    found = rule_claims(text, with_instruction=True)
    assert complete_claims(text, found)
    assert truth(found, _rows(("Enterprise0", "None", "User"))) is True
    assert truth(found, _rows(("Enterprise0", "None", "Privileged"))) is False
    assert not gives_order("I restored User1, but it came back two steps later.")  # a story stays one


# -- "scanned before it was exploited" ----------------------------------------------------------------------------------

SCANNED_THEN_EXPLOITED = ("Recent steps: step 6: Monitor -> reward +0.0 | step 7: Monitor -> reward +0.0\n"
                          "Host history (last 2 steps): Enterprise1: step 6 Scan/No, step 7 Exploit/User; every other host: None/No\n\n"
                          "Alerts:\nEnterprise1: Activity None, Compromised User")


def test_an_exploit_said_in_the_past_after_a_scan_is_history_not_the_row_now() -> None:
    found, whole = text_claims("When an enterprise server was scanned before it was exploited, analyse it.")
    assert whole
    assert truth(found, read_situation(SCANNED_THEN_EXPLOITED)) is True
    never_scanned = SCANNED_THEN_EXPLOITED.replace("step 6 Scan/No", "step 6 None/No")
    assert truth(found, read_situation(never_scanned)) is not True
