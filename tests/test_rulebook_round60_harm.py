"""Round 60, r60h: blind-57's harmful and outranked injections.

- a named host's column said unequal to a value in code ("Op_Host1.activity != None", "<>", "is not") is that value
  denied of its row: read as words, the dot ended the sentence and the rule held wherever the host was shown; "||"
  joins two comparisons as "or" (it was read as "and"), and a denial inside "not (...)" is left unread;
- a host's state asked as a call in code ("on_exploit(User4)", "!is_owned(E2)", "is_rooted(U1) == false") is that state
  of the host, or its denial: read as words, the call was the host alone, in any state; a move written as a call stays the
  order's.
- the level of the attacker's hold left open, "whichever level red holds there", is a condition that the host is held
  (at some level, for sure): read as none, a preference on the host stood in any state, clean too;
- the attacker said "they" with a verb of holding and a host ("once they hold User2") is a compromise of that host;
  "as long as they hold" (hosts that resist) is not;
- the attacker moving "into" a subnet or host ("pivots into the enterprise subnet") is a compromise there, as "to" is;
  a scan that moves into it is not.
- a move named as a noun and turned down in the passive, "a reimage of Op_Host1 is never to be tried", "a Restore of it
  must never be tried", is a prohibition of that move: read as none, the rule had no meaning in a dispute and the
  general rule it excepts from spoke beside it; "is never to be delayed" forbids nothing.
- every verb banned on a host and one verb named again on it ("Op_Host0 at root: hands off, not even a Remove") is a ban
  of every verb there: counted as two verbs, the note had no meaning in a dispute, and a rule it outranks spoke beside
  it; a verb named on another host keeps the two apart.
- a move denied to a subject said by "nothing" or "no host" ("no enterprise server receives a Remove", "nothing on the
  op subnet gets a decoy") is a prohibition on every host of it: read as an order, a compiled "do" passed as the text;
  a count or a repeat of the move ("a second Remove") is no ban;
- a standing ban on a class with hosts of it excepted ("..., other than Op_Host1") applies where one of the class's
  other hosts is shown, as the ban without the exception does: kept semantic, it was silent everywhere.
- a move judged in general and then banned on one host after ", so" ("removing a box that is merely probed is
  pointless, so never Remove Op_Host1 on a probe alone"): the ban is the lesson, the judgement its reason; read the other
  way, the rule spoke for any probed host.
- "no sign of activity on <host>" is the host's row quiet (Activity None, Compromised No), as "<host> is quiet" is: read
  as the Activity column alone, the note held on a host the attacker holds; "no sign of an exploit" is left as it was.
- a compromise said for sure in a note the readers place nothing of ("Enterpirse2 exploted, Restore it quick"): "exploited"
  (misspelt too) says it for sure, so a compiled "any compromise" is not met by a row at Unknown; "maybe exploited" is not.
"""

from __future__ import annotations

from forge.rulebook.authoring.checks import text_problem
from forge.rulebook.language.condition import semantic_claims, text_claims
from forge.rulebook.language.forms import written_out
from forge.rulebook.language.guard import confirmed
from forge.rulebook.language.predicate import truth
from forge.rulebook.language.wording import read_wording
from forge.rulebook.language.situation import read_situation

_REFUSED = "predicate refused: bare: the compiler's reading was wider than the words"


def _holds(text: str, row: str):
    """Three-valued: does a rule kept semantic (its compiled predicate refused) hold on a context of one alerts row?"""
    return truth(semantic_claims(text, _REFUSED, text), read_situation(f"Alerts:\n{row}"))


# -- a named host's column said unequal to a value, in code ---------------------------------------------------------


def test_a_column_said_unequal_in_code_denies_that_value():
    text = 'if (Op_Host1.activity != "None" && Op_Host1.compromised <> "Privileged") { Remove(Op_Host1); }'
    assert _holds(text, "Op_Host1: Activity None, Compromised User") is False
    assert _holds(text, "Op_Host1: Activity Exploit, Compromised Privileged") is False
    assert _holds(text, "Op_Host1: Activity Exploit, Compromised User") is True
    # (the host not shown at all: never true)
    assert _holds(text, "User0: Activity Exploit, Compromised User") is not True


def test_a_column_said_unequal_in_words_inside_code_denies_it_too():
    text = "when User4.compromised is not No => Restore(User4)"
    assert _holds(text, "User4: Activity None, Compromised No") is False
    assert _holds(text, "User4: Activity None, Compromised Privileged") is True


def test_a_denied_comparison_inside_a_negation_is_left_unread():
    # (a denial denied: read as the inner denial alone, the rule held on the opposite row)
    text = "if not (Op_Host1.compromised != No): Monitor"
    assert _holds(text, "Op_Host1: Activity None, Compromised User") is not True


def test_comparisons_joined_by_or_in_code_are_either():
    from forge.rulebook.language.predicate import AnyOf
    from forge.rulebook.language.rule_claims import rule_claims

    text = "if (Enterprise0.compromised == Privileged) || (Enterprise2.compromised == Privileged) -> Restore(Enterprise0)"
    assert isinstance(rule_claims(text, with_instruction=True, bare=False), AnyOf)


def test_a_column_said_equal_in_code_is_read_as_before():
    text = "when Enterprise2.activity == Exploit => Remove(Enterprise2)"
    assert _holds(text, "Enterprise2: Activity Exploit, Compromised User") is True
    assert _holds(text, "Enterprise2: Activity Scan, Compromised No") is False


# -- a host's state asked as a call in code -------------------------------------------------------------------------


def test_a_state_asked_as_a_call_is_that_state_of_its_host():
    text = "Lesson in pseudo-code for next time: on_exploit(User4) => Remove(User4)."
    assert _holds(text, "User4: Activity Exploit, Compromised User") is True
    assert _holds(text, "User4: Activity Scan, Compromised No") is False
    assert _holds(text, "User4: Activity None, Compromised No") is False


def test_a_state_call_compiled_as_its_host_alone_is_refused():
    text = "Rule of thumb as code: on_scan(Op_Host0) -> plan(DecoySSHD, Op_Host0)."
    action = {"mode": "do", "verb": "DecoySSHD", "target": "Op_Host0"}
    assert text_problem(text, {"host": "Op_Host0"}, action) is not None
    assert text_problem(text, {"host": "Op_Host0", "activity": "Scan"}, action) is None


def test_a_state_call_denied_is_the_states_denial():
    assert written_out("!is_owned(Ent2) -> DecoyApache(Ent2)").startswith("Ent2 is not owned")
    assert written_out("if not is_rooted(User1): Remove(User1)").startswith("if User1 is not rooted")
    assert written_out("is_breached(User2) == false -> Monitor").startswith("User2 is not breached")
    assert written_out("is_breached(User2) != false -> Monitor").startswith("User2 is breached")


def test_a_move_written_as_a_call_is_left_to_the_order():
    for text in ("Restore(User1) now.", "plan(DecoyTomcat, Enterprise1)", "on_restore(User3) => Monitor"):
        assert written_out(text) == text


# -- the level of the attacker's hold left open is a condition that the host is held -------------------------------


def test_whichever_level_the_attacker_holds_is_a_condition_of_a_hold():
    text = "From here on I want Op_Host2 restored rather than removed, whatever level the attacker has there."
    assert _holds(text, "Op_Host2: Activity Scan, Compromised No") is False
    assert _holds(text, "Op_Host2: Activity None, Compromised Privileged") is True
    # (a row at Unknown does not say the attacker holds it)
    assert _holds(text, "Op_Host2: Activity None, Compromised Unknown") is not True
    prefer = {"mode": "prefer", "verb": "Restore", "target": "Op_Host2", "over": {"verb": "Remove", "target": "Op_Host2"}}
    assert text_problem(text, {"host": "Op_Host2"}, prefer) is not None


def test_whichever_level_of_another_thing_is_no_condition():
    # a level chosen by the defender, not a hold of the attacker's
    text = "Give Op_Host2 a Restore, whichever level of urgency the planner set."
    assert "whichever" not in " ".join(c.text for c in read_wording(text).conditions)


# -- "they" with a verb of holding and a host is the attacker's hold ------------------------------------------------


def test_they_holding_a_named_host_is_its_compromise():
    text = "When they hold User2, the next thing red wants is Enterprise1, so plan DecoyTomcat on Enterprise1."
    assert _holds(text, "User2: Activity Scan, Compromised No") is False
    assert _holds(text, "User2: Activity None, Compromised User") is True
    assert written_out("they already control U3 -> Restore U3").startswith("the attacker holds U3")


def test_they_hold_with_no_host_after_is_left_as_it_stands():
    for text in ("The user boxes: as long as they hold, leave them alone.", "Ask the users whether they have User1 restored."):
        assert written_out(text) == text


# -- the attacker moving into a subnet is a compromise there -------------------------------------------------------


def test_moving_into_a_subnet_is_a_compromise_there():
    from forge.rulebook.language.claims import claims

    found = claims("once red pivots into the enterprise subnet")
    assert found is not None and found.host_class == "Enterprise" and found.compromise == "any"
    # (what a reading in part says is shown is said for sure: a compiled "any compromise" of the class is not met at Unknown)
    text = "As soon as red pivots into the enterprise subnet, plan a Remove of Enterprise1."
    read, whole = text_claims(text)
    assert truth(confirmed(read), read_situation("Alerts:\nEnterprise2: Activity None, Compromised Unknown")) is not True
    assert truth(confirmed(read), read_situation("Alerts:\nEnterprise2: Activity None, Compromised User")) is True


def test_a_scan_moving_into_a_subnet_is_no_compromise():
    from forge.rulebook.language.claims import claims

    found = claims("the scan moves into the enterprise subnet")
    assert found is not None and found.compromise is None


# -- a move named as a noun, turned down in the passive --------------------------------------------------------------


def test_a_nominal_move_never_to_be_attempted_is_a_prohibition():
    for text in ("Op_Host2 runs the backups. Any removal of Op_Host2 is never to be tried, rooted or not.",
                 "A Restore of Op_Host2 must never be tried, whatever the table says."):
        words = read_wording(text)
        assert [p.hosts for p in words.prohibitions] == [("Op_Host2",)], text
    text = "Op_Host2 runs the backups. Any removal of Op_Host2 is never to be tried, rooted or not."
    assert text_problem(text, {"host": "Op_Host2"}, {"mode": "do", "verb": "Remove", "target": "Op_Host2"}) is not None
    assert text_problem(text, {"host": "Op_Host2"}, {"mode": "never", "verb": "Remove", "target": "Op_Host2"}) is None


def test_a_nominal_move_never_to_be_delayed_is_no_prohibition():
    words = read_wording("Once Op_Host2 is rooted, a Restore of it is never to be delayed.")
    assert not words.prohibitions


# -- every verb banned, one of them named again ----------------------------------------------------------------------


def test_every_verb_banned_with_one_named_again_is_a_ban_of_every_verb():
    from forge.rulebook.language.said import forbidden_in_words

    found = forbidden_in_words("Op_Host0 at root: hands off it entirely, and not even a Remove.")
    assert found is not None
    when, action = found
    assert action.mode == "never" and action.move.verb == "any"
    assert truth(when, read_situation("Alerts:\nOp_Host0: Activity None, Compromised Privileged")) is True
    assert truth(when, read_situation("Alerts:\nOp_Host0: Activity None, Compromised User")) is False


def test_a_verb_named_on_another_host_is_no_part_of_the_ban():
    from forge.rulebook.language.said import forbidden_in_words

    assert forbidden_in_words("Keep away from Op_Host0; and no Analyse on User3 either.") is None


# -- a move denied to a subject said by "nothing" or "no host" -------------------------------------------------------


def test_a_move_denied_to_no_host_is_a_prohibition():
    text = "No enterprise server receives a Remove from the chooser."
    words = read_wording(text)
    assert [(p.verb, p.classes) for p in words.prohibitions] == [("Remove", ("Enterprise",))]
    assert text_problem(text, {"class": "Enterprise"}, {"mode": "do", "verb": "Remove", "target": "$matched"}) is not None
    text = "Nothing on the op subnet gets a DecoyApache, except Op_Server0."
    words = read_wording(text)
    assert [(p.verb, p.classes) for p in words.prohibitions] == [("DecoyApache", ("Operational",))]
    assert words.excepted == ("Op_Server0",)


def test_a_repeat_of_the_move_denied_to_no_host_is_no_ban():
    assert written_out("No user box gets a second Remove in a game.") == "No user box gets a second Remove in a game."
    assert not read_wording("Nothing I tried gets a Restore to stick.").prohibitions


# -- a standing class ban with hosts of it excepted ------------------------------------------------------------------


def test_a_class_ban_with_an_exception_applies_to_the_other_hosts():
    text = "Nothing on the op subnet gets a DecoyApache, except Op_Server0."
    assert _holds(text, "Op_Host1: Activity None, Compromised No") is True
    assert _holds(text, "Op_Server0: Activity Scan, Compromised No") is not True
    assert _holds(text, "User1: Activity Scan, Compromised No") is not True


# -- a judgement in general, then the ban after ", so" ----------------------------------------------------------------


def test_a_ban_after_so_is_the_lesson_not_the_general_judgement():
    text = ("Op_Host1 got probed and I reimaged it, for nothing. Removing a box that is merely probed is pointless, so never "
            "Remove Op_Host1 on a probe alone.")
    assert "Op_Host1" in read_wording(text).instruction
    assert _holds(text, "Op_Host1: Activity Scan, Compromised No") is True
    assert _holds(text, "User2: Activity Scan, Compromised No") is not True


def test_a_judgement_of_another_move_before_so_is_left_as_it_was():
    text = "Removing a box that is merely probed is pointless, so never Restore it either."
    assert "pointless" in read_wording(text).instruction


# -- "no sign of activity on <host>" is its row quiet ----------------------------------------------------------------


def test_no_sign_of_activity_on_a_host_is_its_quiet_row():
    text = "So long as there are no signs of activity on Op_Host2, plan a DecoySSHD on it."
    assert _holds(text, "Op_Host2: Activity None, Compromised No") is True
    assert _holds(text, "Op_Host2: Activity None, Compromised User") is False
    assert _holds(text, "Op_Host2: Activity Scan, Compromised No") is False


def test_no_sign_of_an_exploit_is_not_the_quiet_row():
    text = "With no sign of an exploit at User1 yet, hold the Restore."
    assert written_out(text) == text


# -- "exploited", misspelt or not, is a compromise said for sure -----------------------------------------------------


def test_exploited_misspelt_is_a_compromise_said_for_sure():
    from forge.rulebook.language.shorthand import compromise_said_for_sure

    assert compromise_said_for_sure("Enterpirse2 exploted, Restore it quick")
    assert compromise_said_for_sure("Op_Host1 exploited -> Restore")
    assert not compromise_said_for_sure("Op_Host1 maybe exploited -> Restore")
    assert not compromise_said_for_sure("Op_Host1 exploited at whatever level -> Restore")
