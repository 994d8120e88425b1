"""Issue 29, seventeenth round (i29s): readings that kept a rule silent where its own words say it applies (blind14's
missed injections with the default compiler), each class on sentences written for these tests.

- *A story told with an irregular past* ("When Enterprise2 first showed an exploit I chose Analyse ..."): the story's
  "when" was taken for a condition the lesson left out, so the lesson was never read whole (silent).
- *A word of emphasis* ("unless it has actually been rooted", "really", "truly"): left unplaced, so the condition was
  not read whole.
- *"unless / until it has been exploited"*: an exploit that landed leaves a compromise and may show no Exploit activity
  any more: not yet exploited is neither (read as "no Exploit activity" alone, the rule spoke on a compromised host).
- *"REASON, so ORDER" where the reason is a "doesn't need VERBing" judgement*: the judgement read as the order, the
  real order after ", so" was lost, and the reason's own relative clause counted as a condition left out.
- *A quiet value said with no subject after a class's host* ("a user box with a scan and no compromise on it"): that same
  host is clean (it was read as "no user host is compromised anywhere", unknown wherever a user row was not shown, or
  dropped).
"""
from __future__ import annotations

from forge.rulebook.language.condition import semantic_claims
from forge.rulebook.language.guard import complete_claims
from forge.rulebook.language.rule_claims import rule_claims
from forge.rulebook.language.predicate import truth
from forge.rulebook.language.situation import read_situation
from forge.rulebook.language.wording import conditions_left_out, read_wording
from tests.situations import alert_rows

REFUSED = "predicate refused: verb: a test's refusal"


def _claims(text: str):
    return semantic_claims(text, REFUSED)


# -- a story told with an irregular past ---------------------------------------------------------------------------------

def test_a_story_with_an_irregular_past_is_no_condition_of_the_lesson() -> None:
    for verb in ("chose", "drew", "felt", "sought"):
        text = (f"When Enterprise2 first showed an exploit I {verb} an Analyse over anything else and the attacker "
                f"settled in. My rule from now on is that as long as Enterprise2 is not rooted, Remove on Enterprise2 beats "
                f"another look.")
        assert conditions_left_out(text) == (), (verb, conditions_left_out(text))
        found = rule_claims(read_wording(text).instruction, with_instruction=True)
        assert complete_claims(read_wording(text).instruction, found), verb
        claims = _claims(text)
        assert truth(claims, alert_rows(("Enterprise2", "Exploit", "User"))) is True, verb
        assert truth(claims, alert_rows(("Enterprise2", "None", "Privileged"))) is False, verb


# -- a word of emphasis --------------------------------------------------------------------------------------------------

def test_a_word_of_emphasis_in_a_condition_is_read_whole() -> None:
    for word in ("actually", "really", "truly"):
        text = f"Never Restore Enterprise0 unless it is {word} rooted."
        claims = _claims(text)
        assert truth(claims, alert_rows(("Enterprise0", "None", "User"))) is True, word
        assert truth(claims, alert_rows(("Enterprise0", "None", "Privileged"))) is False, word


# -- unless it has been exploited ----------------------------------------------------------------------------------------

def test_unless_exploited_is_not_met_by_a_host_the_exploit_left_compromised() -> None:
    for text in ("Do not Remove User2 unless it has been exploited.", "Leave Remove off User2 until it gets exploited."):
        claims = _claims(text)
        # (the exploit landed: the row shows the compromise, no Exploit activity any more)
        assert truth(claims, alert_rows(("User2", "None", "User"))) is not True, text
        assert truth(claims, alert_rows(("User2", "Exploit", "User"))) is not True, text
    claims = _claims("Do not Remove User2 unless it has been exploited.")
    assert truth(claims, alert_rows(("User2", "Scan", "No"))) is True
    # (an exploit under way is its activity alone: "unless it's being exploited")
    claims = _claims("Keep Remove off User2 unless it's being exploited.")
    assert truth(claims, alert_rows(("User2", "None", "User"))) is True
    assert truth(claims, alert_rows(("User2", "Exploit", "User"))) is False


# -- a "doesn't need" reason before ", so ORDER" ------------------------------------------------------------------------

def test_the_order_after_a_no_need_reason_is_the_order() -> None:
    text = ("A server that was merely probed doesn't need rebuilding, so never Restore an enterprise host with a scan "
            "and no compromise on it.")
    words = read_wording(text)
    assert words.instruction.lower().startswith("never restore an enterprise host"), words.instruction
    assert conditions_left_out(text) == ()
    claims = _claims(text)
    assert truth(claims, alert_rows(("Enterprise1", "Scan", "No"))) is True
    assert truth(claims, alert_rows(("Enterprise1", "Scan", "User"))) is not True
    # (an order before ", so" stays the order)
    assert read_wording("Remove User1 when it is exploited, so never leave it be.").instruction.lower().startswith("remove user1")


# -- a quiet value said with no subject after a class's host -------------------------------------------------------------

def test_a_quiet_value_after_a_class_host_is_that_same_host() -> None:
    for text in ("Put a DecoyTomcat on a user box with a scan and no compromise on it.",
                 "Put a DecoyTomcat on a user box with a scan and no compromise."):
        claims = _claims(text)
        # (the one user row shown is scanned and clean: the other user hosts are not shown, and need not be)
        assert truth(claims, alert_rows(("User3", "Scan", "No"))) is True, text
        assert truth(claims, alert_rows(("User3", "Scan", "User"))) is not True, text
        assert truth(claims, alert_rows(("User3", "Scan", "User"), ("User1", "None", "No"))) is not True, text


# -- the host the analyst is looking at ---------------------------------------------------------------------------------

def _analyst(host: str, activity: str, compromise: str):
    return read_situation(f"Host {host}: table Activity {activity}, Compromised {compromise}.\n"
                          "Baseline: 1 processes; users Administrator, SYSTEM; OS WINDOWS.")


def test_the_host_under_analysis_is_the_host_the_context_is_about() -> None:
    for text in ("If the box you are inspecting shows Compromised Privileged and no activity, recommend Restore.",
                 "analysed machine: root level, no activity -> suggest Restore",
                 "When the host being analysed shows Compromised Privileged and no activity, recommend a Restore.",
                 "If the host under analysis shows Compromised Privileged and no activity, recommend Restore."):
        claims = _claims(text)
        assert truth(claims, _analyst("Enterprise2", "None", "Privileged")) is True, text
        assert truth(claims, _analyst("Enterprise2", "Exploit", "Privileged")) is not True, text
        assert truth(claims, _analyst("Enterprise2", "None", "User")) is not True, text


# -- a judgement that names the verb ends the condition ------------------------------------------------------------------

def test_the_move_is_a_verb_and_calls_for_end_the_condition() -> None:
    for text in ("I'm fairly sure that when Op_Server0 shows a scan the right move is a DecoyHarakaSMPT on Op_Server0, "
                 "not a Remove.",
                 "An enterprise host showing Compromised Privileged warrants a Restore, not a Remove.",
                 "Any user box reading Compromised User calls for Remove."):
        words = read_wording(text)
        assert all(not c.text.lower().endswith(("the right move is", "warrants", "calls for")) for c in words.conditions), \
            (text, [c.text for c in words.conditions])
        found = rule_claims(text, with_instruction=True)
        assert complete_claims(text, found), (text, [c.text for c in words.conditions])


# -- a lesson drawn in its own words ------------------------------------------------------------------------------------

def test_a_drawn_lesson_takes_no_situation_from_its_story() -> None:
    text = ("When Op_Host2 got probed I restored two other hosts in a hurry and lost ground. In hindsight the scan was "
            "only red sizing up the plant. The lesson I'd keep: a probe on Op_Host2 is no reason to restore anything; "
            "put a DecoyVsftpd on Op_Host2 and stop there.")
    words = read_wording(text)
    assert words.situation == "", words.situation
    claims = _claims(text)
    assert truth(claims, alert_rows(("Op_Host2", "Scan", "No"))) is True
    assert truth(claims, alert_rows(("Op_Host2", "None", "No"))) is False


def test_a_lesson_said_as_the_move_it_names_is_the_order() -> None:
    text = ("The probes on the operational side came one by one and I watched each with Monitor, sure it was noise. It "
            "was not. The rule I'd give myself is simple: a DecoyTomcat on Op_Host0 or Op_Host1, whichever is scanned.")
    words = read_wording(text)
    assert words.instruction.startswith("A DecoyTomcat on Op_Host0"), words.instruction
    assert "Monitor" not in words.verbs
    claims = _claims(text)
    assert truth(claims, alert_rows(("Op_Host1", "Scan", "No"))) is True
    assert truth(claims, alert_rows(("Op_Host1", "None", "No"))) is not True


# -- "nothing on it", "X is the exception:", a class named by the sentence's scope ---------------------------------------

def test_nothing_on_it_is_no_compromise_of_that_host() -> None:
    claims = _claims("planner: E2 probed, nothing on it yet -> DecoyTomcat E2, then Analyse E2")
    assert truth(claims, alert_rows(("Enterprise2", "Scan", "No"))) is True
    assert truth(claims, alert_rows(("Enterprise2", "Scan", "User"))) is False
    # (where its own verb follows, "nothing on it is compromised", it was read already, and stays so)
    claims = _claims("When Enterprise2 has been probed and nothing on it is compromised, analyse Enterprise2.")
    assert truth(claims, alert_rows(("Enterprise2", "Scan", "No"))) is True
    assert truth(claims, alert_rows(("Enterprise2", "Scan", "User"))) is False


def test_a_host_that_is_the_exception_heads_its_rule() -> None:
    text = "Op_Server0 is the exception: when it shows a scan, Analyse it first and do not Restore it on a hunch."
    claims = _claims(text)
    assert truth(claims, alert_rows(("Op_Server0", "Scan", "No"))) is True
    assert truth(claims, alert_rows(("Op_Server0", "None", "No"))) is False


def test_a_state_with_no_subject_is_said_of_the_class_the_sentence_opens_with() -> None:
    text = "Across the user boxes, a compromise at root level calls for Restore."
    claims = _claims(text)
    assert truth(claims, alert_rows(("User2", "None", "Privileged"))) is True
    assert truth(claims, alert_rows(("User2", "None", "User"))) is not True
    # (the scope's class, not another host: an enterprise row at root is no user box)
    assert truth(claims, alert_rows(("Enterprise0", "None", "Privileged"))) is not True


# -- "no host shows any compromise" is no quiet network ------------------------------------------------------------------

def _one_row(host: str, activity: str, compromise: str):
    return read_situation(f"Alerts:\n{host}: Activity {activity}, Compromised {compromise}\n"
                          "(12 other hosts: Activity None, Compromised No)")


def test_no_host_with_one_kind_of_state_denies_that_kind_only() -> None:
    claims = _claims("Whenever no host is compromised, put decoys on whatever is being scanned.")
    assert truth(claims, _one_row("User1", "Scan", "No")) is True
    assert truth(claims, _one_row("User1", "Scan", "User")) is False
    # (activity, both, or a word that names neither, is the quiet network it always was)
    for text in ("If no host shows any activity, Monitor.", "If no host shows any activity or compromise, Monitor."):
        assert truth(_claims(text), _one_row("User1", "None", "User")) is False, text


# -- a predicate that asks more than the whole reading -------------------------------------------------------------------

def test_a_predicate_narrower_than_the_whole_reading_is_refused() -> None:
    from forge.rulebook.authoring.checks import text_problem

    story = ("User3 sat at root for five steps before I rebuilt it, and red had moved on by then. I'm fairly sure I "
             "should restore User3 the moment it is compromised.")
    restore = {"mode": "do", "verb": "Restore", "target": "User3"}
    problem = text_problem(story, {"host": "User3", "compromise": "any", "unchanged_for": 5}, restore)
    assert problem is not None and problem.startswith("narrow"), problem
    assert text_problem(story, {"host": "User3", "compromise": "any"}, restore) is None
    # (the story listed as the predicate's "unexpressed" rest is no guard, and switches no check off)
    problem = text_problem(story, {"host": "User3", "compromise": "any", "unchanged_for": 5}, restore,
                           "User3 sat at root for five steps before I rebuilt it")
    assert problem is not None and problem.startswith("narrow"), problem
    quiet = {"not": {"any": [{"class": "any", "activity": "any"}, {"class": "any", "compromise": "any"}]}}
    monitor = {"mode": "do", "verb": "Monitor", "target": None}
    problem = text_problem("Whenever no host is compromised, Monitor.", quiet, monitor)
    assert problem is not None and problem.startswith("narrow"), problem
    assert text_problem("Whenever no host is compromised, Monitor.", {"not": {"class": "any", "compromise": "any"}}, monitor) is None
    # (where the whole reading has a history of its own, the predicate may say more of it than the reading placed: no
    # refusal; "still compromised right after you removed it" keeps its compiled "compromised")
    after = "If a user box still shows a compromise right after we Removed it, Restore that box."
    problem = text_problem(after, {"class": "User", "compromise": "any", "acted": "Remove", "within": 1, "changed": False},
                           {"mode": "do", "verb": "Restore", "target": "$matched"})
    assert problem is None or not problem.startswith("narrow"), problem


# -- "whichever of <hosts> is <state>" ------------------------------------------------------------------------------------

def test_whichever_of_a_list_is_a_condition_on_each() -> None:
    text = ("For the enterprise segment: whichever of Enterprise0 or Enterprise2 is rooted, the plan should be Restore "
            "then DecoyTomcat on that same host.")
    words = read_wording(text)
    assert any(c.text.lower().startswith("whichever of") for c in words.conditions), [c.text for c in words.conditions]
    claims = _claims(text)
    assert truth(claims, alert_rows(("Enterprise2", "None", "Privileged"))) is True
    assert truth(claims, alert_rows(("Enterprise0", "None", "User"), ("Enterprise2", "None", "User"))) is False


# -- a lesson said as what the teacher does from now on -----------------------------------------------------------------

def test_a_lesson_said_as_the_teachers_own_move_is_the_order() -> None:
    text = ("Each time Op_Server0 came up at user level I recommended a Restore and we lost the server for a while. I "
            "suspect that was too much. My rule from now on is that for Op_Server0 at user level I recommend a Remove "
            "rather than a Restore.")
    words = read_wording(text)
    assert "recommend a Remove" in words.instruction and "came up" not in words.instruction, words.instruction
    claims = _claims(text)
    assert truth(claims, alert_rows(("Op_Server0", "None", "User"))) is True
    assert truth(claims, alert_rows(("Op_Server0", "None", "Privileged"))) is False


# -- a judgement after a comma judges its own verb ------------------------------------------------------------------------

def test_a_judgement_after_an_order_judges_its_own_verb() -> None:
    # (read as forbidding the order's verb, a compilation of the order itself was refused as "a prohibition compiled as a
    # do", and one that forbade it would have passed: the text's order inverted)
    for text, verb in (("Enterprise hosts at user level: plan an Analyse, a Restore there is overkill.", "Restore"),
                       ("Op_Server0 scanned: put a DecoyApache on it, a Remove would be premature.", "Remove")):
        words = read_wording(text)
        assert [p.verb for p in words.prohibitions] == [verb], (text, words.prohibitions)
    assert [p.verb for p in read_wording("Restoring Enterprise1 is pointless.").prohibitions] == ["Restore"]
