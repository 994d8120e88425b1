"""Round 60 (r60m): blind-57's missed injections, by class; each reader with the neighbours it must leave alone."""
from __future__ import annotations

from forge.rulebook.authoring.compile import content_meaning, strip_justification
from forge.rulebook.language.episode import step_windows, without_step_windows
from forge.rulebook.language.order import gives_order
from forge.rulebook.language.wording import read_wording


def _problem(text: str, when: dict, action: dict, unexpressed: str = "") -> str:
    return content_meaning(text, when, action, unexpressed).problem


# -- a purpose said first, then the order (order.PURPOSE_FIRST) ------------------------------------------------------------

_PURPOSE = "To protect the ops side, plan a DecoySSHD on Op_Host1 the moment Op_Host2 is compromised."


def test_a_purpose_said_first_is_cut_and_the_order_kept():
    assert strip_justification(_PURPOSE).startswith("plan a DecoySSHD on Op_Host1")
    assert gives_order(_PURPOSE)
    assert read_wording(_PURPOSE).gives_order


def test_a_purpose_with_a_condition_of_its_own_is_not_cut_from_the_directive():
    # guard: the cut would lose the purpose's condition ("when it probes User2")
    assert not strip_justification("To stop red when it probes User2, place a decoy over there.").startswith("place")


def test_a_purpose_said_after_the_order_is_still_its_reason():
    # guard: the reason after the order is cut as before
    assert strip_justification("Plan a DecoySSHD on Op_Host1 to keep the ops side out of reach.") == "Plan a DecoySSHD on Op_Host1"


# -- the order's move made again and again (condition._MOVE_OVER_AND_OVER) ---------------------------------------------

_EXPLOITED_USER0 = {"host": "User0", "activity": "Exploit"}


def test_a_move_made_again_and_again_is_a_frequency_of_the_order():
    text = "Exploit on User0? Restore(User0). again and again, each time it lights up"
    assert _problem(text, _EXPLOITED_USER0, {"mode": "do", "verb": "Restore", "target": "User0"}) == ""
    text = "Whenever User0 is under exploit, restore it over and over."
    assert _problem(text, _EXPLOITED_USER0, {"mode": "do", "verb": "Restore", "target": "User0"}) == ""


def test_a_move_told_in_the_past_again_and_again_is_still_history():
    # guard: the defender's own past moves, told as a participle or in the past, are its history
    action = {"mode": "do", "verb": "Remove", "target": "User0"}
    assert _problem("Having restored(User0) again and again, now remove User0 while it is under exploit.",
                    _EXPLOITED_USER0, action).startswith("predicate refused: history")
    assert _problem("While User0 is under exploit after we restored it over and over, remove User0.",
                    _EXPLOITED_USER0, action).startswith("predicate refused: history")


# -- "nothing ... but <move>" around the clause's verb (checks._NOTHING_BUT_THE_MOVE) -----------------------------------

_OP_SERVER = {"host": "Op_Server0"}


def test_nothing_but_the_move_orders_that_move():
    text = "Nothing should be planned for Op_Server0 but a Restore."
    assert _problem(text, _OP_SERVER, {"mode": "do", "verb": "Restore", "target": "Op_Server0"}) == ""
    text = "No move is to be chosen on Op_Server0 other than a Restore."
    assert _problem(text, _OP_SERVER, {"mode": "do", "verb": "Restore", "target": "Op_Server0"}) == ""


def test_nothing_but_the_move_never_passes_a_prohibition_of_it():
    # guard: the move it keeps is ordered, never banned
    text = "Nothing should be planned for Op_Server0 but a Restore."
    assert _problem(text, _OP_SERVER, {"mode": "never", "verb": "Restore", "target": "Op_Server0"})


def test_nothing_but_the_move_told_asked_or_after_a_comma_stays_in_doubt():
    # guards: a story, a question and a second clause after a comma keep their negation
    action = {"mode": "do", "verb": "Restore", "target": "Op_Server0"}
    for text in ("Nothing was planned for Op_Server0 but a Restore, and red kept it.",
                 "Nothing should be planned for Op_Server0 but a Restore?",
                 "Nothing should be planned for Op_Server0, but a Restore there is wasted."):
        assert _problem(text, _OP_SERVER, action), text


# -- the attacker's aim told before the colon (instruction._ATTACKER_AIM) ------------------------------------------------

_AIM = "Red will head for Enterprise1 next once User3 falls, so deny it: with User3 compromised, a DecoyTomcat on Enterprise1 comes first."


def test_the_attackers_aim_before_the_colon_is_no_situation():
    words = read_wording(_AIM)
    assert words.situation == ""
    assert [c.text for c in words.conditions] == ["with User3 compromised"]
    when = {"host": "User3", "compromise": "any"}
    assert _problem(_AIM, when, {"mode": "do", "verb": "DecoyTomcat", "target": "Enterprise1"}) == ""


def test_the_attackers_aim_stays_the_situation_where_the_order_has_no_case_of_its_own():
    # guard: with no case after the colon, red's aim is what the order answers
    assert read_wording("Red will head for Enterprise1 next: a DecoyTomcat on Enterprise1 comes first.").situation


def test_a_condition_on_the_host_red_aims_at_still_restricts_the_trigger():
    # guard: "once red goes for Enterprise1" is a condition on Enterprise1
    text = "Once red goes for Enterprise1, a DecoyTomcat on Enterprise1 comes first."
    assert _problem(text, {"host": "User3", "compromise": "any"}, {"mode": "do", "verb": "DecoyTomcat", "target": "Enterprise1"})


# -- "already" after the state (facts: history) --------------------------------------------------------------------------


def test_already_after_the_state_is_the_state_now():
    text = "Plan a Remove of User1 whenever it is exploited, unless User2 is owned already."
    when = {"all": [{"host": "User1", "activity": "Exploit"}, {"not": {"host": "User2", "compromise": "any"}}]}
    assert _problem(text, when, {"mode": "do", "verb": "Remove", "target": "User1"}) == ""


def test_already_after_a_move_of_the_defender_is_still_history():
    # guard: a move already made is the defender's history
    text = "Plan a Remove of User1 whenever it is exploited, unless User2 was restored already."
    when = {"all": [{"host": "User1", "activity": "Exploit"}, {"not": {"host": "User2", "compromise": "any"}}]}
    assert _problem(text, when, {"mode": "do", "verb": "Remove", "target": "User1"}).startswith("predicate refused: history")


# -- the operators of code, "||" and "&&" (forms: said in words) ---------------------------------------------------------

_CODED = "(User3 rooted || User4 rooted) && Op_Host0 clean -> DecoySSHD(Op_Host0)"
_DECOY_OP_HOST0 = {"mode": "do", "verb": "DecoySSHD", "target": "Op_Host0"}


def test_code_or_and_and_are_read_as_words():
    when = {"all": [{"any": [{"host": "User3", "compromise": "Privileged"}, {"host": "User4", "compromise": "Privileged"}]},
                    {"host": "Op_Host0", "compromise": "No"}]}
    assert _problem(_CODED, when, _DECOY_OP_HOST0) == ""


def test_code_or_never_passes_one_alternative_alone_nor_drops_the_and():
    # guards: one side of the "||" alone is narrower than its words only where it names every host; the "&&" is kept
    only_one = {"all": [{"host": "User3", "compromise": "Privileged"}, {"host": "Op_Host0", "compromise": "No"}]}
    assert _problem(_CODED, only_one, _DECOY_OP_HOST0)
    no_and = {"any": [{"host": "User3", "compromise": "Privileged"}, {"host": "User4", "compromise": "Privileged"}]}
    assert _problem(_CODED, no_and, _DECOY_OP_HOST0)


# -- a heading that picks one move of two, "One or the other, never both:" (instruction._ONE_NOT_BOTH) ---------------------

_BOTH_OWNED = {"all": [{"host": "User1", "compromise": "any"}, {"host": "User2", "compromise": "any"}]}


def test_one_or_the_other_before_the_colon_is_no_negated_condition():
    text = "Just one or the other, and not both: with User1 and User2 both owned, the plan removes User2 only."
    assert read_wording(text).situation == ""
    assert _problem(text, _BOTH_OWNED, {"mode": "do", "verb": "Remove", "target": "User2"}) == ""


def test_not_both_said_of_the_hosts_states_stays_a_negated_condition():
    # guard: "not both owned" denies a state of the hosts
    text = "User1 or User2 but not both owned: the plan removes User2."
    assert _problem(text, _BOTH_OWNED, {"mode": "do", "verb": "Remove", "target": "User2"})


# -- the order said as what the plan does after "means", or as a host planned for a move (forbidding._MODAL_ORDER) --------


def test_the_move_the_plan_makes_after_means_is_an_order():
    text = "A probe on Op_Host2 means the plan decoys that host with a DecoySSHD before anything else."
    assert gives_order(text)
    when = {"host": "Op_Host2", "activity": "Scan"}
    assert _problem(text, when, {"mode": "do", "verb": "DecoySSHD", "target": "Op_Host2"}) == ""


def test_a_host_to_be_planned_for_a_move_is_an_order_of_it():
    assert gives_order("Any box that keeps one level through four steps is to be scheduled for a Restore.")


def test_the_plan_that_never_makes_the_move_or_a_host_planned_for_it_in_the_past_orders_nothing():
    # guards: a "never" after "means the plan" forbids the move; a host told as planned for it is a story
    text = "A probe on Op_Host2 means the plan never decoys that host."
    assert _problem(text, {"host": "Op_Host2", "activity": "Scan"}, {"mode": "do", "verb": "DecoySSHD", "target": "Op_Host2"})
    assert not gives_order("Op_Host2 was scheduled for a DecoySSHD at step 6.")


# -- a move the writer corrects, "Restore, no wait, Remove" (checks._move_corrected) --------------------------------------

_USER4_ROOTED = {"host": "User4", "compromise": "Privileged"}


def test_the_move_taken_back_by_a_correction_is_no_order():
    for text in ("User4 rooted: Analyse it, no wait, Restore it.", "User4 rooted -> analyse it - nope, scratch that: restore it"):
        assert "takes Analyse back" in _problem(text, _USER4_ROOTED, {"mode": "do", "verb": "Analyse", "target": "User4"})
        assert _problem(text, _USER4_ROOTED, {"mode": "do", "verb": "Restore", "target": "User4"}) == "", text


def test_i_mean_it_is_no_correction():
    # guard: "I mean it" stresses the order before it
    text = "User4 rooted: Restore it, I mean it."
    assert _problem(text, _USER4_ROOTED, {"mode": "do", "verb": "Restore", "target": "User4"}) == ""


# -- a range of hosts before a note's dash, each host in its state (names._NOTE_ORDER) --------------------------------------


def test_a_range_before_a_notes_dash_is_each_host_of_it():
    when = {"any": [{"host": "Op_Host0", "compromise": "Privileged"}, {"host": "Op_Host1", "compromise": "Privileged"}]}
    text = "Op_Host0-Op_Host1 at root - Restore"
    assert _problem(text, when, {"mode": "do", "verb": "Restore", "target": "$matched"}) == ""


def test_a_range_before_a_dash_whose_order_names_them_all_stays_every_host():
    # guard: "them all" is an order on the whole range, whose state is all of theirs
    when = {"any": [{"host": "Op_Host0", "compromise": "Privileged"}, {"host": "Op_Host1", "compromise": "Privileged"}]}
    assert _problem("Op_Host0-Op_Host1 at root - Restore them all", when, {"mode": "do", "verb": "Restore", "target": "$matched"})


# -- a window glossed in numbers, "(26 to 30)" (episode._GLOSSED_STEPS); "or else" and its threat (order.JUSTIFICATION) ----

def test_a_window_glossed_in_brackets_is_one_window():
    text = "During the closing four turns of the game (27-30), plan nothing but Monitor."
    assert len(step_windows(text)) == 1
    assert "27" not in without_step_windows(text)


def test_a_gloss_that_disagrees_with_its_window_is_left_as_written():
    # guard: "(20 to 30)" is no gloss of the closing four turns
    assert "20 to 30" in without_step_windows("During the closing four turns of the game (20 to 30), plan a Monitor.")


def test_or_else_and_the_threat_after_it_is_a_reason():
    words = read_wording("From step 27 on, plan no Remove whatsoever, or else red walks straight back in.")
    assert [p.verb for p in words.prohibitions] == ["Remove"]


def test_or_else_before_an_order_or_a_case_is_kept():
    # guards: an order after "or else" is the order's alternative, no reason
    assert "restore it" in read_wording("When User4 is rooted, remove it, or else restore it.").instruction


# -- a move said to have failed, "that Remove did not work" (checks._MOVE_FAILED) -----------------------------------------

_FAILED = "User2 still held a step after an Analyse means the Analyse did not take: move on to a Remove."
_ANALYSED_UNCHANGED = {"host": "User2", "compromise": "any", "acted": "Analyse", "within": 1, "changed": False}


def test_a_move_said_to_have_failed_is_no_negation_of_the_order():
    assert _problem(_FAILED, _ANALYSED_UNCHANGED, {"mode": "do", "verb": "Remove", "target": "User2"}) == ""


def test_a_move_said_to_have_failed_still_needs_its_history():
    # guard: the failed move is a condition on history, which a predicate of the state alone leaves out
    assert _problem(_FAILED, {"host": "User2", "compromise": "any"}, {"mode": "do", "verb": "Remove", "target": "User2"})
