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
- *The lesson after a story* (compile.fitted keeps the instruction the reader finds): a moment told "in seed N" is a
  story, not a condition; "then" / "also" / "so" / "now" lead no order of their own ("Then once more."), nor is "once
  more" a condition; the lesson named before a colon or with "should be" ("the lesson I'd keep: ...", "the sequence
  should be: ..."); the teacher's confidence ("I'm fairly sure that ...") or a hedge adverb before the doubt ("Perhaps
  I'm too cautious, but ...") is no part of the order; a condition ends before the teacher's modal ("... I should
  restore it") or a passive order ("a host that ... should be restored").
- *"without waiting on an Analyse"* disprefers Analyse (it is no prohibition of Sleep).
- *A "Lesson:" heading* is no situation, and what came before it is the story (no statement of it is taken for the
  situation either).
- *How long a state held, said between commas* ("..., unchanged, for three steps, plan ...") is part of the condition,
  not past its end (the reading dropped it and called itself whole).
- *A story opened by its moment* ("At step 5 I saw User4 flash and, without looking at the row, I restored it") gave an
  order (the lead's rest, "without looking at ...", read as a prohibition of Analyse); and *"I think, though ..., that
  <order>"* (a doubt said aside between commas) gave none: the story stood for the lesson.
- *Hosts said "not covered"* ("(User0/User1 not covered by this.)", "Op_Host2 is out of scope") are excepted; a list
  of hosts may be joined by "/".
- *"while it only shows Unknown"* states the level exactly (as "only user-level" does): no restriction the predicate
  must also express, so a faithful `compromise: Unknown` was refused by the negation check.
- *Two teachers' FORMAT rules* (every one holds always and orders no action) were one rule by meaning (curation), so
  withdrawing one teacher's reply format withdrew the other's.
- *"DecoySmss" first in an order* ("Op_Host0 probed -> DecoySmss Op_Host0") was read as a plural noun opening a report
  ("Decoys on X caught ..."): no order, no condition.
- *"still compromised after we removed it"* is said of the last Remove (predicate.py's `changed: false`): a later Remove
  that did change the row leaves nothing "still" as it was, whatever an earlier one did.
- *"a user host that ... shows no compromise"*: the negation after the subject's own verb is its state (Compromised No),
  not "no user host is scanned and compromised" (which holds where no user host is scanned at all).
"""

from __future__ import annotations

from forge.rulebook.authoring.checks import text_problem
from forge.rulebook.model import Evidence, RuleStatus
from forge.rulebook.store.curation import Teaching
from tests.plan_book import PlanBook
from forge.rulebook.language.condition import text_claims
from forge.rulebook.language.guard import complete_claims, guard_claims
from forge.rulebook.language.rule_claims import rule_claims
from forge.rulebook.language.predicate import parse_predicate, truth
from forge.rulebook.language.situation import read_situation
from forge.rulebook.language.order import gives_order
from forge.rulebook.language.wording import read_wording
from tests.situations import alert_rows


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
    one_and_unknown = alert_rows(("Enterprise0", "None", "User"), ("Enterprise2", "None", "Unknown"))
    assert truth(guard, one_and_unknown) is not True
    assert truth(guard, alert_rows(("Enterprise0", "None", "User"), ("Enterprise2", "Exploit", "Privileged"))) is True


def test_a_guard_that_says_a_named_host_is_compromised_is_not_met_by_its_unknown_row() -> None:
    when = parse_predicate({"host": "Op_Host1", "activity": "Scan"})
    guard = guard_claims("only when Op_Server0 is compromised too", when)
    assert truth(guard, alert_rows(("Op_Host1", "Scan", "No"), ("Op_Server0", "None", "Unknown"))) is not True
    assert truth(guard, alert_rows(("Op_Host1", "Scan", "No"), ("Op_Server0", "None", "User"))) is True


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
    assert truth(found, alert_rows(("Op_Host1", "None", "Privileged"))) is True
    assert truth(found, alert_rows(("Op_Host1", "Scan", "No"))) is not True


def test_a_range_said_to_share_its_state_is_still_all_of_them() -> None:
    found, _ = text_claims("Once Op_Host0 to Op_Host2 are all compromised, restore that box first: Op_Server0.")
    assert truth(found, alert_rows(("Op_Host1", "None", "Privileged"))) is not True


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
    assert truth(found, alert_rows(("Op_Host1", "Exploit", "User"))) is True


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
    assert truth(found, alert_rows(("Enterprise0", "None", "User"))) is True
    assert truth(found, alert_rows(("Enterprise0", "None", "Privileged"))) is False
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


# -- the lesson after a story -------------------------------------------------------------------------------------------


def test_a_moment_told_in_a_seed_is_a_story_not_the_order() -> None:
    text = ("When User3 was scanned in seed 4 I removed it at once. That cost a step. I now think the lesson is: when "
            "User3 is only scanned, put a DecoyTomcat on User3.")
    assert read_wording(text).instruction.lower().startswith("when user3 is only scanned")


def test_a_connective_leads_no_order_of_its_own() -> None:
    assert not gives_order("Then once more.")
    assert not gives_order("then sat back, assuming the attacker was gone.")
    assert gives_order("Then restore Op_Host1.")
    text = ("I analysed Op_Host1 and it went Privileged. Then once more. The lesson I'd keep: when Op_Host1 turns "
            "Privileged, Restore Op_Host1.")
    words = read_wording(text)
    assert words.instruction.lower().startswith("when op_host1 turns privileged")
    assert [c.text.lower() for c in words.conditions] == ["when op_host1 turns privileged"]


def test_a_lesson_named_with_should_be_is_the_order() -> None:
    text = ("I removed Enterprise1 and waited. The sequence should be: when Enterprise1 is exploited, "
            "Remove Enterprise1, then Analyse it.")
    words = read_wording(text)
    assert words.instruction.lower().startswith("when enterprise1 is exploited")
    assert [c.text.lower() for c in words.conditions] == ["when enterprise1 is exploited"]


def test_the_teachers_confidence_and_modal_are_no_part_of_the_condition() -> None:
    text = ("At step 8 the table said user level on User2 and I left it. Looking back I'm fairly, not completely, sure "
            "that whenever User2 shows Compromised Privileged I should restore User2.")
    words = read_wording(text)
    assert [c.text for c in words.conditions] == ["whenever User2 shows Compromised Privileged"]
    found = rule_claims(text, with_instruction=True)
    assert complete_claims(text, found)
    hedged = ("I went straight for Restore on Op_Host0. Perhaps I'm too cautious now, but when Op_Host0 is compromised "
              "at user level I'd Analyse Op_Host0 before restoring it.")
    words = read_wording(hedged)
    assert [c.text for c in words.conditions] == ["when Op_Host0 is compromised at user level"]
    assert complete_claims(hedged, rule_claims(hedged, with_instruction=True))


def test_a_judgement_after_the_doubt_stays_the_teachers_view() -> None:
    text = ("I removed User2 at once. I'm unsure whether that mattered, but User2 is the odd one out: when User2 is "
            "exploited, Analyse it rather than removing it.")
    assert [c.text for c in read_wording(text).conditions] == ["when User2 is exploited"]
    scoped = "I'm not sure Restore is right elsewhere, but for Op_Host2: once it is exploited, Restore it."
    assert read_wording(scoped).situation == "for Op_Host2"


def test_a_passive_order_ends_the_relative_clause_that_states_its_condition() -> None:
    text = "A host that is still compromised after we restored it should be removed, not restored yet again."
    assert [c.text for c in read_wording(text).conditions] == ["host that is still compromised after we restored it"]


def test_waiting_on_a_verb_disprefers_it() -> None:
    words = read_wording("Remove Op_Host1 as soon as it is exploited, without waiting on an Analyse to confirm.")
    assert words.dispreferred == ("Analyse",)
    assert words.prohibitions == ()


# -- a "Lesson:" heading ------------------------------------------------------------------------------------------------


def test_a_lesson_heading_is_no_situation_and_the_story_before_it_is_none() -> None:
    text = ("Op_Host2 sat at Compromised User from step 4. I removed it twice and it came back. Lesson: right after you "
            "have removed an operational host, do not Remove it again on the next step.")
    words = read_wording(text)
    assert words.situation == ""
    assert all("Op_Host2" not in c.text for c in words.conditions)
    assert "Lesson" not in [c.text for c in words.conditions]


# -- how long a state held, between commas ------------------------------------------------------------------------------


def test_how_long_a_state_held_said_between_commas_is_part_of_the_condition() -> None:
    text = "If an enterprise host has shown Compromised User, unchanged, for two steps, plan a Restore of that host."
    words = read_wording(text)
    assert [c.text for c in words.conditions] == ["If an enterprise host has shown Compromised User, unchanged, for two steps"]
    found, whole = text_claims(text)
    assert whole and "unchanged_for=2" in repr(found)
    assert truth(found, alert_rows(("Enterprise1", "None", "User"))) is not True  # no history lines: unknown


# -- "still compromised after we removed it" ---------------------------------------------------------------------------

REMOVED_TWICE = (
    "Recent steps: step 4: Remove Op_Host0 -> reward -1.0 | step 5: Monitor -> reward -1.0 | step 6: Remove Op_Host0 -> "
    "reward -1.0 | step 7: Monitor -> reward -1.0\n"
    "Host history (last 4 steps): Op_Host0: step 4 None/Unknown, step 5 None/Unknown, step 6 None/Privileged, "
    "step 7 None/Unknown; every other host: None/No\n\nAlerts:\nOp_Host0: Activity None, Compromised Privileged")


def test_still_compromised_after_a_remove_is_said_of_the_last_remove() -> None:
    still = parse_predicate({"class": "Operational", "compromise": "any", "acted": "Remove", "within": 4, "changed": False})
    # the last Remove (step 6) took the row from Privileged to Unknown: it did something; the first left Unknown as it was
    assert truth(still, read_situation(REMOVED_TWICE)) is not True
    last_failed = REMOVED_TWICE.replace("step 6 None/Privileged, step 7 None/Unknown", "step 6 None/Privileged, step 7 None/Privileged")
    assert truth(still, read_situation(last_failed)) is True


# -- "shows no compromise" after the subject's verb ---------------------------------------------------------------------


def test_shows_no_compromise_after_the_subject_is_its_own_state() -> None:
    text = ("I restored Op_Host1 for nothing. Lesson: refrain from restoring an operational host that is only being "
            "scanned and shows no compromise.")
    found, whole = text_claims(text)
    assert whole
    assert truth(found, _table()) is not True  # nothing scanned: the rule has nothing to speak of
    assert truth(found, _table(("Op_Host1", "Scan", "No"))) is True


# -- a decoy's name that ends in "s" ------------------------------------------------------------------------------------


def test_an_order_that_opens_with_decoysmss_is_an_order() -> None:
    words = read_wording("Op_Host0 probed -> DecoySmss Op_Host0.")
    assert words.gives_order and [c.text for c in words.conditions] == ["Op_Host0 probed"]
    assert not read_wording("Decoys on Op_Host0 caught the attacker twice.").gives_order


# -- a story opened by its moment; the view with a doubt aside ----------------------------------------------------------


def test_a_story_opened_by_its_moment_is_no_order_and_the_view_after_it_is() -> None:
    story = "At step 5 I saw User4 flash and, without looking at the row at all, I restored it."
    assert not gives_order(story)
    text = (f"{story} It was only scanned. I think, though I cannot be sure it holds elsewhere, that when User4 is "
            "scanned but not compromised I should put a decoy on it instead of restoring it.")
    words = read_wording(text)
    assert words.instruction.lower().startswith("when user4 is scanned but not compromised")
    assert [c.text for c in words.conditions] == ["when User4 is scanned but not compromised"]
    assert gives_order("At step 5, restore User4 if it is still compromised.")  # a moment that orders stays an order


# -- two teachers' FORMAT rules ------------------------------------------------------------------------------------------


def _format(directive: str, actor: str) -> Teaching:
    return Teaching(directive, "FORMAT", ("action_chooser",), "format/reply", actor, Evidence("correction", actor, actor, 1),
                    when={"always": True})


def test_two_reply_formats_by_two_teachers_stay_two_rules() -> None:
    book = PlanBook()
    terse, final_line = "Answer with the action alone, no reasoning.", "Close every reply with a line NEXT: <verb> <host>."
    plan = book.apply(_format(terse, "user:kim"), _format(final_line, "user:lee"))
    assert [o.result for o in plan.outcomes] == ["add", "add"] and len(book.records) == 2
    book.withdraw(book.of(final_line).rule_id)
    assert book.of(terse).status != RuleStatus.WITHDRAWN
    again = book.apply(_format(terse, "user:max"))  # the same words again: one rule, reinforced
    assert [o.result for o in again.outcomes] == ["reinforce"]


# -- hosts said "not covered" -------------------------------------------------------------------------------------------


def test_hosts_said_not_covered_are_excepted() -> None:
    text = "User2 to User4: Remove whichever one is exploited. (User0/User1 not covered by this.)"
    assert read_wording(text).excepted == ("User0", "User1")
    when = {"any": [{"host": h, "activity": "Exploit"} for h in ("User2", "User3", "User4")]}
    assert text_problem(text, when, {"mode": "do", "verb": "Remove", "target": "$matched"}) is None
    assert read_wording("Restore any compromised op host; Op_Host2 is out of scope here.").excepted == ("Op_Host2",)


# -- "only shows Unknown" -----------------------------------------------------------------------------------------------


def test_only_unknown_is_the_level_stated_exactly() -> None:
    text = "Leave Op_Host1 alone: never restore Op_Host1 while it only shows Unknown."
    assert text_problem(text, {"host": "Op_Host1", "compromise": "Unknown"},
                        {"mode": "never", "verb": "Restore", "target": "Op_Host1"}) is None
    found, whole = text_claims(text)
    assert whole and truth(found, alert_rows(("Op_Host1", "None", "Unknown"))) is True
    assert truth(found, alert_rows(("Op_Host1", "None", "User"))) is not True
