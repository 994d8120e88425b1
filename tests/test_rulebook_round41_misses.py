"""Issue 29, round 41 (r41m): misses where a check refused a compilation that says what its text says, or a reader
did not read how a rule was phrased.

- Polarity: a negation that stands, between commas, with another verb than the order's ("X is fine there, a Y won't
  do it"); "not merely / just" (an addition); what the other hosts run ("the others have nothing worth it"); where the
  note says it stops ("... is not this note's business").
- A move said to fall short ("a Remove won't clear root") is dispreferred, wherever the text says it (an aside after
  the order too), and is no history; said inside a condition ("if a Remove doesn't clear it") it is neither.
- "already at user level", "already being scanned": the state now, no history.
- A window of steps alone ("until step 10", "in the last five steps (step 26 onwards of 30)") is the gate's to judge:
  no condition an `always` predicate leaves out, no negation; the rule handing over to the others ("after step 6 the
  usual notes take over") is outside its window, and a window in the unexpressed rest covers one it implies.
- A class named only as what the order is unlike ("unlike the user desktops") is no class of the order.
- A footnote's exception ("* Op_Server0 excepted."); a class atom beside its denial on a host implies the others.
- The one host named only as what the order is set against ("not on User0") is not what "it" stands for.
- "any box outside the op subnet" reaches the hosts of no op class; "once X, this note is void" ends the order.
- A told aside in brackets is the reason, no history; the hosts named in pointing to another note are that note's.
- A count stated in the unexpressed rest (the guard) covers the count the condition says.
- The evidence that "lists no file": no file of any kind, the evidence reading's negation.

Sentences of our own, none from a case file. Each test fails at 3fb87bb (checked by running this file with PYTHONPATH
at an export of 3fb87bb: `git archive 3fb87bb`)."""

from __future__ import annotations

from forge.rulebook.authoring.checks import text_problem
from forge.rulebook.language.condition import spoken_facts, text_claims, windows_left_to
from forge.rulebook.language.facts import facts_needed
from forge.rulebook.language.scope import subject_of
from forge.rulebook.language.episode import episode_claims, step_windows
from forge.rulebook.language.judged import evidence_away, evidence_tests
from forge.rulebook.language.predicate import implies, parse_predicate
from forge.rulebook.language.markers import negations_in
from forge.rulebook.language.wording import read_wording


def _restore(host: str) -> dict:
    return {"mode": "do", "verb": "Restore", "target": host}


# -- polarity ----------------------------------------------------------------------------------------------------------

def test_another_verbs_negation_between_commas_is_not_the_orders():
    text = "Op_Server0 at root is its own case: a Restore is right there, a Remove can't shift root access."
    assert text_problem(text, {"host": "Op_Server0", "compromise": "Privileged"}, _restore("Op_Server0")) is None


def test_not_merely_is_an_addition_and_no_turn_down():
    text = "When User2 is rooted (Privileged, not just user level), go for a Restore of User2."
    assert text_problem(text, {"host": "User2", "compromise": "Privileged"}, _restore("User2")) is None


def test_what_the_other_hosts_run_is_the_orders_reach():
    text = "Put a DecoyTomcat on User1 (and only User1, the rest have no service worth faking) when it is scanned."
    action = {"mode": "do", "verb": "DecoyTomcat", "target": "User1"}
    assert not (text_problem(text, {"host": "User1", "activity": "Scan"}, action) or "").startswith("polarity:")


def test_a_case_the_note_leaves_alone_is_no_turn_down_of_its_order():
    text = "Enterprise1 held -> schedule its Restore (a lone scan there is not this note's business)."
    assert not (text_problem(text, {"host": "Enterprise1", "compromise": "any"}, _restore("Enterprise1")) or "") \
        .startswith("polarity:")


# -- a move that falls short -------------------------------------------------------------------------------------------

def test_a_move_that_falls_short_is_dispreferred():
    assert "Remove" in read_wording("User1 at root: Restore User1; a Remove will not get rid of root access.").dispreferred
    assert "Analyse" in read_wording("Restore Enterprise0 at root, an Analyse doesn't fix anything there.").dispreferred
    assert read_wording("If a Remove doesn't clear User1, restore it.").dispreferred == ()  # a fallback's condition


def test_a_move_that_falls_short_is_no_history():
    words = read_wording("Enterprise0 at root -> a Restore is the call there, a Remove won't clear it.")
    assert all("history" not in kinds for _, kinds in spoken_facts(words))


def test_the_preferred_move_with_its_reason_after_passes():
    text = "User1 rooted (Privileged, not only user level) -> Restore User1; a Remove doesn't clear a root foothold."
    action = {"mode": "prefer", "verb": "Restore", "target": "User1", "over": {"verb": "Remove", "target": "User1"}}
    assert text_problem(text, {"host": "User1", "compromise": "Privileged"}, action) is None


# -- "already": the state now ------------------------------------------------------------------------------------------

def test_already_at_a_level_or_being_scanned_is_the_state_now():
    assert "history" not in facts_needed("if the server is already at user level")
    assert "history" not in facts_needed("when Op_Host1 is already being scanned")
    assert "history" in facts_needed("if it was already scanned before")


# -- windows of steps --------------------------------------------------------------------------------------------------

def test_a_window_alone_is_no_condition_an_always_predicate_leaves_out():
    text = "In the final four steps of the episode (step 27 onwards of 30), never plan a Restore."
    action = {"mode": "never", "verb": "Restore", "target": "any"}
    rest = "in the final four steps of the episode (step 27 onwards of 30)"
    assert text_problem(text, {"always": True}, action, rest) is None
    assert text_problem(text, {"always": True}, action) is not None  # the window said nowhere: refused


def test_until_a_step_is_no_negation():
    text = "Until step 8, any probed desktop gets a DecoySmss on it."
    action = {"mode": "do", "verb": "DecoySmss", "target": "$matched"}
    assert text_problem(text, {"class": "User", "activity": "Scan"}, action, "before step 8 of the episode") is None


def test_the_rule_handing_over_to_the_others_is_outside_its_window():
    assert [w.outside for w in step_windows("After step 9 the regular Remove notes take over.")] == [True]
    assert [w.outside for w in step_windows("after step 12, the other rules apply")] == [True]
    assert [w.outside for w in step_windows("after step 12 restore it")] == [False]


def test_a_window_in_the_rest_covers_a_window_it_implies():
    handed_over = episode_claims("after step 5 the usual notes take over")[0]
    assert windows_left_to(handed_over, "in the first five steps") is None
    assert windows_left_to(episode_claims("after step 3")[0], "in the first five steps") is not None


# -- what an order is unlike, its exceptions ---------------------------------------------------------------------------

def test_a_class_the_order_is_unlike_is_no_class_of_it():
    text = "Enterprise2, unlike the op hosts, is to get a Remove once an exploit runs on it."
    action = {"mode": "do", "verb": "Remove", "target": "Enterprise2"}
    assert text_problem(text, {"host": "Enterprise2", "activity": "Exploit"}, action) is None


def test_a_footnotes_exception_is_an_exception():
    assert read_wording("Every analysed machine at root: Remove.* * User2 excepted; separate note.").excepted \
        == ("User2",)


def test_a_class_atom_beside_its_denial_on_a_host_is_one_of_the_others():
    found = parse_predicate({"any": [{"host": "User1", "activity": "Scan"}, {"host": "User2", "activity": "Scan"}]})
    predicate = parse_predicate({"all": [{"class": "User", "activity": "Scan"}, {"not": {"host": "User0", "activity": "Scan"}},
                                         {"not": {"host": "User3", "activity": "Scan"}}, {"not": {"host": "User4", "activity": "Scan"}}]})
    assert implies(predicate, found)


def test_the_one_host_the_order_is_set_against_is_not_it():
    assert subject_of(read_wording("probed-only box -> suggest DecoySSHD on it (not on User2: pointless there)")) is None


def test_outside_a_class_reaches_the_hosts_of_no_such_class():
    text = ("User2 fell at step 4 and the red team probed the Defender box at step 9. My rule: for a machine outside the "
            "user subnet that is only probed, never plan a Restore.")
    when = {"any": [{"class": "Enterprise", "activity": "Scan", "compromise": "No"},
                    {"host": "Defender", "activity": "Scan", "compromise": "No"}]}
    assert not (text_problem(text, when, {"mode": "never", "verb": "Restore", "target": "$matched"}) or "").startswith("grounding:")


def test_once_a_state_this_note_is_void_ends_the_order():
    text = "Op_Host0 quiet? then plan a DecoyApache on Op_Host0. once Op_Host0 is held this note is void."
    when = {"host": "Op_Host0", "activity": "None", "compromise": "No"}
    assert text_problem(text, when, {"mode": "do", "verb": "DecoyApache", "target": "Op_Host0"}) is None


# -- asides: a told reason, another note ----------------------------------------------------------------------------------

def test_a_told_aside_in_brackets_is_no_history():
    text = "New note: with User1 at Privileged, a Restore of User1 rather than a Remove from here on (the Remove never held there: two tries, it came back twice)."
    assert text_problem(text, {"host": "User1", "compromise": "Privileged"}, _restore("User1")) is None


def test_hosts_named_in_pointing_to_another_note_are_that_notes():
    text = "U2: same as maria's User4 restore note, i.e. at root -> Restore U2."
    assert text_problem(text, {"host": "User2", "compromise": "Privileged"}, _restore("User2")) is None
    text = "E2 at user lvl -> Remove E2. (E1 itself: not my call.)"
    action = {"mode": "do", "verb": "Remove", "target": "Enterprise2"}
    assert text_problem(text, {"host": "Enterprise2", "compromise": "User"}, action) is None


# -- a count in the guard ----------------------------------------------------------------------------------------------

def test_a_count_in_the_rest_covers_the_count_the_condition_says():
    text = "Whenever two or more op hosts are held, reimage every held one with a Restore."
    when = {"class": "Operational", "compromise": "any"}
    action = {"mode": "do", "verb": "Restore", "target": "$matched"}
    assert text_problem(text, when, action, "two or more op hosts compromised") is None
    assert (text_problem(text, when, action) or "").startswith("claims:")  # said nowhere: still refused


# -- the evidence ------------------------------------------------------------------------------------------------------

def test_evidence_that_lists_no_file_is_the_evidence_readings_negation():
    condition = "if the inspected host sits at Unknown and its evidence lists no file"
    assert negations_in(evidence_away(condition)) == ()
    assert [(t.kind, t.word) for t in evidence_tests(condition)] == [("no file", "")]


# -- more of the order's words: the guard's absences, counts, headings, moves put off ---------------------

def test_an_absence_said_in_the_rest_is_the_guards():
    text = "op subnet: a single op host owned (others clean) -> Remove that host."
    when = {"class": "Operational", "compromise": "any"}
    action = {"mode": "do", "verb": "Remove", "target": "$matched"}
    assert not (text_problem(text, when, action, "exactly one op host compromised and every other op host clean") or "") \
        .startswith("negation:")


def test_once_more_than_a_count_is_a_condition():
    words = read_wording("Once more than two op hosts are compromised, restore Op_Server0.")
    assert words.gives_order and [c.text for c in words.conditions] == ["Once more than two op hosts are compromised"]


def test_an_exception_heading_may_carry_a_long_aside():
    text = "User4 is the exception (the red team always lands there before anything else): each time it is owned, Remove it."
    assert read_wording(text).excepted == ()


def test_a_move_that_can_wait_in_a_clause_of_its_own_is_put_off():
    text = "When Enterprise1 and Op_Host0 are held together, Restore Enterprise1 first; the Restore of Op_Host0 can wait."
    assert "Restore" in read_wording(text).dispreferred


def test_a_condition_glossed_as_a_state_needs_no_history():
    text = "Before the attacker reaches the op subnet, meaning while no op host is compromised, decoy Op_Server0."
    assert all("history" not in kinds for _, kinds in spoken_facts(read_wording(text)))


def test_the_place_put_after_with_its_verb_left_out_comes_second():
    text = "When Op_Server0 is exploited and an enterprise server is held, plan the Restore on Op_Server0 first and the enterprise box after."
    when = {"all": [{"host": "Op_Server0", "activity": "Exploit"}, {"class": "Enterprise", "compromise": "any"}]}
    action = {"mode": "prefer", "verb": "Restore", "target": "Op_Server0", "over": {"verb": "Restore", "target": "Enterprise"}}
    assert not (text_problem(text, when, action) or "").startswith("prefer:")


def test_the_host_an_order_is_about_stays_its_it_beside_a_class_it_is_unlike():
    # (read whole, "it shows any compromise" is said for sure: not met by the row at Unknown)
    found, whole = text_claims("Enterprise2, unlike the op hosts, is to get a Remove the moment it shows a compromise of any level.")
    assert whole and found is not None
    assert implies(found, parse_predicate({"not": {"host": "Enterprise2", "compromise": "Unknown"}}))


def test_however_many_times_it_happens_is_each_time_it_does():
    words = read_wording("However many times User3 gets owned, use a Remove on it, never a Restore.")
    assert [c.text for c in words.conditions] == ["However many times User3 gets owned"]
    assert [c.text for c in read_wording("No matter how often User3 gets owned, Remove it.").conditions] \
        == ["No matter how often User3 gets owned"]
