"""Round 47 (issue 29): the surrogate compiler's own reader, no wider than the words.

The surrogate stands in for an LLM: it reads the text it is sent with its own reader (forge/llm/surrogate/free_text.py),
never the product's. Each class below is a way of writing a rule that the reader turned into a compilation wider than,
or the opposite of, its text. Sentences are this file's own.
"""

from __future__ import annotations

from tests.surrogate_rules import act, at, compiled







def test_a_denial_is_of_its_own_clause():
    """"the Remove did not clear it and it is still compromised": the "not" denies the clearing, not the compromise (read
    across the "and", the rule fired where the host was clean, the opposite of its words)."""
    when, action, _ = compiled("When our latest Remove of User3 did not clear it and User3 is still compromised, "
                                "restore User3.", faithful=False)
    assert when == at("User3", None, "any")
    assert action == act("do", "Restore", "User3")


def test_a_state_said_of_before_is_not_the_state_now():
    """"was at root before, now only Unknown": the condition is the state now; the earlier one is told in the rest."""
    when, action, rest = compiled("Enterprise1 was privileged before, now only Unknown -> Analyse Enterprise1", faithful=False)
    assert when == at("Enterprise1", None, "Unknown")
    assert action == act("do", "Analyse", "Enterprise1")
    assert "privileged before" in rest
    when, _, rest = compiled("User2 had been at user level earlier and now shows Unknown -> Analyse User2", faithful=False)
    assert when == at("User2", None, "Unknown") and "earlier" in rest


def test_the_state_of_the_others_is_not_the_subjects():
    """"one box owned (the others clean)": the subject is owned; "clean" is said of the other hosts (read as the
    subject's, the rule fired on a clean host)."""
    when, action, rest = compiled("a single enterprise server owned, others clean -> Remove it", faithful=False)
    assert when == at("Enterprise", None, "any")
    assert action == act("do", "Remove", "$matched")
    assert "others clean" in rest


def test_every_host_of_a_class_clean_is_none_of_them_touched():
    """"each enterprise server clean": no host of the class shows anything (not "some enterprise server is clean")."""
    when, action, _ = compiled("User1 compromised and each enterprise server clean -> Remove User1", faithful=False)
    assert when == {"all": [at("User1", None, "any"), {"not": at("Enterprise", "any")},
                            {"not": at("Enterprise", None, "any")}]}
    assert action == act("do", "Remove", "User1")
    # a whole subnet said calm, its hosts' signals denied one by one, stays a denial
    when, action, _ = compiled("When the entire enterprise subnet is calm, with no alerts on any enterprise server, "
                                "do not restore an enterprise server.", faithful=False)
    assert when == {"all": [{"not": at("Enterprise", "any")}, {"not": at("Enterprise", None, "any")}]}
    assert action == act("never", "Restore", "Enterprise")


def test_a_move_reported_on_is_no_order():
    """"Remove failed, so Restore it": the move the note reports on is not the one it orders."""
    when, action, _ = compiled("User3 still compromised after a Remove -> Remove failed, so Restore User3", faithful=False)
    assert when == at("User3", None, "any", acted="Remove", within=3, changed=False)
    assert action == act("do", "Restore", "User3")
    _, action, _ = compiled("Enterprise1 still owned right after our Remove -> the Remove did not work, escalate to Restore Enterprise1", faithful=False)
    assert action == act("do", "Restore", "Enterprise1")


def test_a_state_still_shown_after_a_move_is_unchanged_since():
    """An Analyse a step ago and the row "still at User": the level now, unchanged since the move ("still User" is the
    level, not a word left over); still at Unknown, which a Remove itself puts on a row, is no such claim."""
    when, action, rest = compiled("Enterprise0 was analysed in the last step and still reads User -> Remove Enterprise0 now", faithful=False)
    assert when == at("Enterprise0", None, "User", changed=False, within=1, acted="Analyse")
    assert action == act("do", "Remove", "Enterprise0") and rest == ""
    when, _, _ = compiled("Just after a Remove of User2, as long as it still reads Unknown, look into User2.", faithful=False)
    assert when == at("User2", None, "Unknown", acted="Remove", within=1)


def test_a_move_made_last_step_in_a_terse_note():
    """"User1 rmvd last step + Unknown now": the move made at the last step, and the level now (no preposition needed)."""
    when, action, rest = compiled("User1 rmvd last step + Unknown now -> Analyse User1", faithful=False)
    assert when == at("User1", None, "Unknown", acted="Remove", within=1)
    assert action == act("do", "Analyse", "User1") and rest == ""


def test_a_denial_right_before_its_move():
    """"are never to be reimaged", "plan no Restore on it": a prohibition whose denial is not the clause's first word."""
    when, action, _ = compiled("The user hosts are never to be reimaged, whoever plans.", faithful=False)
    assert action == act("never", "Restore", "User")
    when, action, _ = compiled("Enterprise1 owned: plan no Restore on it", faithful=False)
    assert when == at("Enterprise1", None, "any")
    assert action == act("never", "Restore", "Enterprise1")
    # words before the denial that the reader places nowhere leave it as it was (no condition dropped for a prohibition)
    _, action, _ = compiled("past step 9 plan no Restore on a workstation", faithful=False)
    assert action["mode"] != "never"


def test_stop_one_move_and_make_another():
    """"stop looking at it and evict the attacker": the second move over the first; the condition runs on to the comma
    its order follows ("owned, unchanged, for two steps straight, stop ...")."""
    when, action, _ = compiled("once some enterprise server is owned, unchanged, for two steps straight, "
                                "stop looking at it and evict the attacker from it.", faithful=False)
    assert when == at("Enterprise", None, "any", unchanged_for=2)
    assert action == act("prefer", "Remove", "$matched", ("Analyse", "$matched"))


def test_user_level_with_its_root_denied():
    """A user-level foothold with root denied ("not yet rooted"): the user level; no denial of the compromise."""
    when, action, _ = compiled("Any workstation being exploited at the user level but not yet rooted: Remove it.", faithful=False)
    assert when == at("User", "Exploit", "User")
    assert action == act("do", "Remove", "$matched")


def test_nothing_running_beside_a_level():
    """A level and "nothing running": that level, and no activity."""
    when, action, _ = compiled("If Enterprise2 sits at the user level with nothing running, Remove Enterprise2.", faithful=False)
    assert when == at("Enterprise2", "None", "User")
    assert action == act("do", "Remove", "Enterprise2")


def test_what_the_plan_says_is_told_with_its_move():
    """"plan line says Remove User2 but User2 row = Unknown": the plan's move is part of the condition, told in the rest with its
    host (cut at the move word, the rest was "plan line says", which any plan meets)."""
    when, action, rest = compiled("plan line says Remove User2 but User2 row = Unknown -> Analyse User2 instead, skip the Remove", faithful=False)
    assert when == at("User2", None, "Unknown")
    assert action == act("prefer", "Analyse", "User2", ("Remove", "User2"))
    assert rest == "plan line says remove User2"


def test_a_count_of_hosts_is_told_in_the_rest():
    """"exactly 1 workstation owned", "3+ usr boxes owned": how many hosts no atom states; told in the rest, not dropped
    (a list mark is no count: "3+" was cut to "+")."""
    when, _, rest = compiled("exactly 1 workstation hacked & all enterprise servers quiet => evict the attacker from it", faithful=False)
    assert rest == "exactly 1 User host hacked"
    when, action, rest = compiled("3+ usr boxes owned at once -> DecoyApache on Enterprise0", faithful=False)
    assert when == at("User", None, "any") and rest == "3+ User host owned at once"
    assert action == act("do", "DecoyApache", "Enterprise0")


def test_a_state_with_no_subject_is_the_named_hosts():
    """"Restore Enterprise1 once compromised": the state is said of the host the order names, not of any host."""
    when, action, _ = compiled("Restore Enterprise1 once compromised", faithful=False)
    assert when == at("Enterprise1", None, "any")
    assert action == act("do", "Restore", "Enterprise1")
    # a condition of its own subject keeps it ("nothing owned anywhere": no host at all)
    when, _, _ = compiled("nothing owned anywhere in the network -> DecoySSHD on Enterprise2.", faithful=False)
    assert when == {"not": at("any", None, "any")}


def test_a_case_said_with_even_is_the_rules_case():
    """"even when owned": the case the rule is said to reach, read as its condition with the host the rule names (left
    with "even", "no Restore on User2 ... even when owned" held wherever any host was owned); a heading with a host before a
    colon ("Op_Host1 stands apart: if exploited, do not ...") keeps the order's own denial."""
    when, action, _ = compiled("User2: no Restore at any time, even when owned (it is how they get in)", faithful=False)
    assert when == at("User2", None, "any") and action == act("never", "Restore", "User2")
    when, action, _ = compiled("Op_Host1 stands apart: even if exploited, do not remove Op_Host1.", faithful=False)
    assert when == at("Op_Host1", "Exploit") and action == act("never", "Remove", "Op_Host1")


def test_a_comma_inside_a_quoted_row_is_no_clause_boundary():
    """"Once the alerts list 'E1: Activity Scan, Compromised User', ...": the quoted row is read whole (cut at its comma,
    the level was lost and the rule held at any level); a piece after the comma that only tells the state's history goes
    on with the condition ("..., and it has stayed so for two steps, ...")."""
    when, action, _ = compiled("Once the alerts list 'Enterprise1: Activity Scan, Compromised User', Analyse Enterprise1; "
                                "leave the other servers be.", faithful=False)
    assert when == at("Enterprise1", "Scan", "User")
    assert action == act("do", "Analyse", "Enterprise1")
    when, _, _ = compiled("if a box is still owned after we evicted the attacker, and it has stayed like that for two "
                           "steps, reimage it.", faithful=False)
    assert when == at("any", None, "any", acted="Remove", within=3, changed=False, unchanged_for=2)


def test_a_move_only_to_be_weighed_is_no_plan_step():
    """"reimage it, then consider a decoy on it": the decoy is to be thought about, not planned (read as the plan's next
    move, it prescribed what its author's own reading turns down)."""
    when, action, _ = compiled("Whenever Enterprise1 shows an exploit, reimage it, then consider a decoy on it.", faithful=False)
    assert when == at("Enterprise1", "Exploit")
    assert action == act("do", "Restore", "Enterprise1")


def test_a_denied_state_of_the_rules_own_host_is_where_that_host_is_shown():
    """"a DecoySSHD on Enterprise1 unless it is already owned": the rule is about Enterprise1, where it is shown and not owned (the denial
    alone held wherever Enterprise1 was not shown at all)."""
    when, action, _ = compiled("Put a DecoySSHD on Enterprise1 unless Enterprise1 is already owned.", faithful=False)
    assert when == {"all": [at("Enterprise1"), {"not": at("Enterprise1", None, "any")}]}
    assert action == act("do", "DecoySSHD", "Enterprise1")
