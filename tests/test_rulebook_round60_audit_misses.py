"""Round 60 audit of r60m's readers (r60b): where a new reader read more than the words, or their opposite, on sentences
it was not written from; each class with the neighbours it must still read."""
from __future__ import annotations

from forge.rulebook.authoring.compile import content_meaning


def _problem(text: str, when: dict, action: dict, unexpressed: str = "") -> str:
    return content_meaning(text, when, action, unexpressed).problem


# -- a purpose said first that tells of a host's state (checks._purpose_state_said) -----------------------------------------

def test_a_purpose_that_tells_of_a_state_hides_no_host_from_the_checks():
    # the purpose's rooted User1 is either the case or the danger headed off: a Restore of Op_Server0 on its own root
    # passed once the purpose was cut away
    text = "To guard Op_Server0 against a rooted User1, restore Op_Server0."
    assert _problem(text, {"host": "Op_Server0", "compromise": "Privileged"},
                    {"mode": "do", "verb": "Restore", "target": "Op_Server0"})
    text = "To shield Op_Server0 from a compromised Enterprise1, decoy Op_Server0."
    assert _problem(text, {"host": "Op_Server0", "compromise": "any"},
                    {"mode": "do", "verb": "DecoyApache", "target": "Op_Server0"})


def test_a_purpose_that_tells_of_a_foothold_keeps_the_bare_host_out():
    text = "To deny red the foothold it has on User4, remove User4."
    assert _problem(text, {"host": "User4"}, {"mode": "do", "verb": "Remove", "target": "User4"})
    # guard: r60m's reading stands where the purpose names no state
    text = "To make sure User2 stays unscanned, decoy User2."
    assert _problem(text, {"host": "User2"}, {"mode": "do", "verb": "DecoyApache", "target": "User2"}) == ""


# -- "again and again" in a ban: a count, as "over and over" (forbidding._COUNT_LIMIT) ----------------------------------------

def test_a_ban_of_the_move_made_again_and_again_is_no_never_of_the_first():
    # the ban is of the repeat: a plain "never" forbade the first Restore of an exploited User1 too
    action = {"mode": "never", "verb": "Restore", "target": "User1"}
    assert _problem("Don't restore User1 again and again when it is exploited.", {"host": "User1", "activity": "Exploit"},
                    action)
    assert _problem("Stop restoring User1 time after time while it is exploited.", {"host": "User1", "activity": "Exploit"},
                    action)
    # guard: the order of the move made again and again (r60m) stands
    assert _problem("When User1 is rooted, Restore it again and again.", {"host": "User1", "compromise": "Privileged"},
                    {"mode": "do", "verb": "Restore", "target": "User1"}) == ""


# -- a correction held whole: a ban, a host, a bare "scratch that", a correction of a correction (checks._move_corrected) ----

_EXPLOITED_USER2 = {"host": "User2", "activity": "Exploit"}


def test_a_ban_the_writer_takes_back_is_no_ban():
    text = "Once User2 shows an exploit, don't Remove it, no wait, do Remove it."
    assert _problem(text, _EXPLOITED_USER2, {"mode": "never", "verb": "Remove", "target": "User2"})
    # and the host taken back is not the target
    text = "When User1 is rooted, Restore User1, no wait, User2."
    assert _problem(text, {"host": "User1", "compromise": "Privileged"}, {"mode": "do", "verb": "Restore", "target": "User1"})


def test_a_bare_scratch_that_after_a_full_stop_takes_the_move_back():
    action = {"mode": "do", "verb": "Remove", "target": "User2"}
    assert _problem("Once User2 shows an exploit, Remove the box. Scratch that: Analyse it.", _EXPLOITED_USER2, action)
    assert _problem("Once User2 shows an exploit, Remove the box - no, strike that - User2 is fine.", _EXPLOITED_USER2, action)


def test_a_correction_of_a_correction_keeps_the_last_word():
    text = "Once User2 shows an exploit, Restore, no wait, Remove, no wait, Restore it."
    assert _problem(text, _EXPLOITED_USER2, {"mode": "do", "verb": "Remove", "target": "User2"})
    # guard: a correction said first takes nothing back ("On second thought, <the rule>")
    text = "On second thought, User2 under exploit should get a Remove, not a Restore."
    assert _problem(text, _EXPLOITED_USER2, {"mode": "do", "verb": "Remove", "target": "User2"}) == ""


# -- red's aim before the colon that holds a case or a state of its own (instruction._aim_states) ----------------------------

_DECOY_OPS = {"mode": "do", "verb": "DecoyApache", "target": "Op_Server0"}
_E1_SCANNED = {"host": "Enterprise1", "activity": "Scan"}


def test_reds_aim_with_a_case_of_its_own_is_still_a_condition():
    for text in ("Red is after Op_Server0 whenever User1 is rooted: when Enterprise1 is scanned, decoy Op_Server0.",
                 "Red goes for Op_Server0 only when User1 is clean: once Enterprise1 is scanned, decoy Op_Server0.",
                 "Red will use a rooted User1 to reach Op_Server0: once Enterprise1 is scanned, decoy Op_Server0."):
        assert _problem(text, _E1_SCANNED, _DECOY_OPS), text
    # guard: an aim that states nothing stays the order's reason (r60m)
    assert _problem("Red heads for Op_Server0 after that, so guard it: with Enterprise1 scanned, decoy Op_Server0.",
                    _E1_SCANNED, _DECOY_OPS) == ""


# -- "not both" before an order of two moves (checks._both_done) ---------------------------------------------------------

def test_not_both_is_never_the_pair_of_moves():
    action = {"mode": "do", "verb": "Restore", "target": "User1", "then": [{"verb": "Remove", "target": "User1"}]}
    rooted = {"host": "User1", "compromise": "Privileged"}
    assert _problem("Not both: once User1 is rooted, Restore User1 and Remove User1.", rooted, action)
    assert _problem("One or the other, never both: with User1 rooted, Restore it or Remove it.", rooted, action)


# -- code's "!" before its alternatives said in words (forms._code_operators_said) ------------------------------------------

def test_codes_not_before_the_alternatives_is_no_case_of_them():
    either_rooted = {"any": [{"host": "User1", "compromise": "Privileged"}, {"host": "User2", "compromise": "Privileged"}]}
    action = {"mode": "do", "verb": "Restore", "target": "Op_Server0"}
    assert _problem("!(U1 rooted || U2 rooted) -> Restore Op_Server0", either_rooted, action)
    # guard: an exclamation mark that ends a word is no "not"
    assert _problem("Restore User1 now! It is rooted.", {"host": "User1", "compromise": "Privileged"},
                    {"mode": "do", "verb": "Restore", "target": "User1"}) == ""


# -- a range's hosts said to share a state before a note's order (names._SHARED_STATE) --------------------------------------

def test_a_range_rooted_at_the_same_time_is_no_state_of_each_host():
    each = {"any": [{"host": f"User{n}", "compromise": "Privileged"} for n in (1, 2, 3)]}
    action = {"mode": "do", "verb": "Restore", "target": "$matched"}
    assert _problem("U1-U3 rooted simultaneously - Restore", each, action)
    assert _problem("U1-U3 rooted all at once -> Restore", each, action)
    # guard: r60m's note, each host of the range by itself, stands
    each_user = {"any": [{"host": f"User{n}", "compromise": "User"} for n in (1, 2, 3)]}
    assert _problem("U1-U3 @ User - Remove", each_user, {"mode": "do", "verb": "Remove", "target": "$matched"}) == ""


# -- "nothing ... but <move>" only with a verb of choosing, and not denied (checks._NOTHING_BUT_THE_MOVE) --------------------

def test_nothing_but_a_move_that_opens_another_clause_or_is_denied_orders_nothing():
    action = {"mode": "do", "verb": "Restore", "target": "Op_Server0"}
    for text in ("Nothing is gained on Op_Server0 but a Restore wastes a turn.",
                 "It's false that nothing should be planned for Op_Server0 but a Restore."):
        assert _problem(text, {"host": "Op_Server0"}, action), text
    # guard: r60m's reading stands with a verb of choosing
    assert _problem("No move is to be picked for Op_Server0 other than a Restore.", {"host": "Op_Server0"}, action) == ""


# -- a word defined as a move, then turned down in that word (checks._defined_word_denied) ----------------------------------

def test_a_move_named_by_a_defined_word_the_text_turns_down_is_no_order():
    action = {"mode": "do", "verb": "Remove", "target": "User2"}
    assert _problem("Here 'contain' means the plan removes the host; we never contain User2.", {"host": "User2"}, action)
    assert _problem("By quarantining we mean a Remove of the host; don't quarantine User2.", {"host": "User2"}, action)
    # guard: the word used as an order stays one
    assert _problem("'Contain' means the plan removes the host; contain User2 once it is exploited.",
                    {"host": "User2", "activity": "Exploit"}, action) == ""
