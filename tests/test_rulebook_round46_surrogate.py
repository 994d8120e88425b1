"""Rounds 44-46 (issue 29): the surrogate compiler's own reader on the phrasings it misread.

The surrogate stands in for an LLM: it reads the text it is sent with its own reader (forge/llm/surrogate/free_text.py),
never the product's. Each class below is a way people write rules that the reader turned into a compilation wider,
narrower or other than the text (which the product's checks then rightly refused, or missed): the reader now gives the
compilation the words mean, and the product's checks accept it. Sentences are this file's own.
"""

from __future__ import annotations

from forge.llm.surrogate.compiler_role import _entry
from tests.surrogate_rules import OFFERED, act, at, compiled


DECOYS = ("Apache", "Femitter", "HarakaSMPT", "Smss", "SSHD", "Svchost", "Tomcat", "Vsftpd")





def none_of(atom: dict) -> dict:
    return {"not": atom}


def _any_decoy(atom: dict) -> dict:
    return {"any": [{**atom, "acted": f"Decoy{service}"} for service in DECOYS]}


def test_terse_notes_name_hosts_classes_and_levels_in_shorthand():
    """"User3", "Enterprise0", "Op_Server0" are hosts, "usr boxes" the User class, "@ User" a user-level compromise, "&" and a lone "+"
    join conditions, and "X -> Y" is "when X, Y"."""
    when, action, _ = compiled("User3 under exploit @ User -> Remove it")
    assert when == at("User3", "Exploit", "User")
    assert action == act("do", "Remove", "User3")
    when, action, _ = compiled("usr boxes getting probed -> DecoyVsftpd on them")
    assert when == at("User", "Scan")
    assert action == act("do", "DecoyVsftpd", "$matched")
    when, action, _ = compiled("Enterprise0 clean & an exploit running on User2 -> DecoyTomcat on Enterprise0")
    assert when == {"all": [at("Enterprise0", None, "No"), at("User2", "Exploit")]}
    assert action == act("do", "DecoyTomcat", "Enterprise0")
    # ", never Remove" after the order: the move it turns down
    when, action, _ = compiled("Op_Server0 @ root -> Restore Op_Server0, never Remove")
    assert when == at("Op_Server0", None, "Privileged")
    assert action == act("prefer", "Restore", "Op_Server0", ("Remove", "Op_Server0"))


def test_a_move_made_lately_is_a_history_condition():
    """"rmvd in last 2 steps", "received a decoy within the past 2 turns", "a DecoySSHD got dropped onto X", "have
    restored a host and ... within 2 turns" are the contract's acted/within atoms ("a decoy": any decoy verb); "no decoy
    was laid on that box" is their absence."""
    when, action, unexpressed = compiled("User1 rmvd in last 2 steps + back @ User -> Restore User1, stop Removing it")
    assert when == at("User1", None, "User", acted="Remove", within=2)
    assert action == act("prefer", "Restore", "User1", ("Remove", "User1"))
    assert unexpressed == ""
    when, _, _ = compiled("If Enterprise0 received a decoy within the past 2 turns and is under exploit at present, Remove Enterprise0.")
    assert when == _any_decoy(at("Enterprise0", "Exploit", within=2))
    when, _, _ = compiled("If a DecoySSHD got dropped onto User4 within the prior 2 turns and User4 is being probed, "
                           "Analyse User4.")
    assert when == at("User4", "Scan", acted="DecoySSHD", within=2)
    when, _, _ = compiled("When User3 is being probed and no decoy was laid on that box in the past 4 turns, "
                           "put a DecoyFemitter on User3.")
    assert when == {"all": [at("User3", "Scan"), none_of(_any_decoy(at("User3", within=4)))]}
    when, _, unexpressed = compiled("Once we have restored an enterprise server and that server gets probed again "
                                     "within 2 turns, plan one DecoyVsftpd on it.", "planner")
    assert when == at("Enterprise", "Scan", acted="Restore", within=2)
    assert unexpressed == ""


def test_a_rule_announced_after_a_story_is_read_from_its_announcement():
    """A note that tells what happened before it gives its rule ("The takeaway: ...", "but the rule is: ...") is the
    rule it announces; a statement in the story ("once X, an Analyse adds nothing") is no order of it."""
    text = ("We lost two turns on Analyses of boxes already rooted; once a host is at root, an Analyse tells us nothing. "
            "The takeaway: never schedule an Analyse for any box at root level; schedule its Restore instead.")
    when, action, _ = compiled(text, "planner")
    assert when == at("any", None, "Privileged")
    assert action == act("prefer", "Restore", "$matched", ("Analyse", "$matched"))
    # "So when ...": the connective is no part of the order; "shows nothing" is the host quiet
    text = ("The attacker always went for Enterprise1 next. A decoy there paid off. So when some workstation is owned and "
            "Enterprise1 shows nothing, get a DecoySmss onto Enterprise1.")
    when, action, _ = compiled(text, "planner")
    assert when == {"all": [at("User", None, "any"), at("Enterprise1", "None", "No")]}
    assert action == act("do", "DecoySmss", "Enterprise1")


def test_a_chain_of_conditions_before_the_order_is_one_condition():
    """"Right after you restore X, while its row still reads unknown, Analyse X": both parts are the condition (the move
    made the step before, and the level it shows), not the first alone with the second lost in the order."""
    text = "The lesson: right after you restore User1, while its row still reads unknown, Analyse User1 first."
    entry = _entry(1, "rule", "action_chooser", text, (), OFFERED, True)
    assert entry["when"] == at("User1", None, "Unknown", acted="Restore", within=1)
    assert entry["action"] == act("do", "Analyse", "User1")


def test_a_class_all_quiet_is_none_of_its_hosts_showing_anything():
    """"the user subnet all quiet" is no User host with an activity or a compromise (not one User host quiet), and
    "scan only" is a scan with no compromise."""
    when, action, _ = compiled("plan: usr subnet all quiet + Enterprise2 scan only -> DecoyTomcat on Enterprise2", "planner")
    assert when == {"all": [none_of(at("User", "any")), none_of(at("User", None, "any")), at("Enterprise2", "Scan", "No")]}
    assert action == act("do", "DecoyTomcat", "Enterprise2")


def test_r44c_a_rated_alert_is_reported_unread():
    # (r44c) the rating of an alert, however short, is no column of the table: the surrogate lists it, never drops it
    from forge.llm.surrogate.free_text import read_rule

    reading = read_rule("urgent-prio alert on User1 -> Remove User1.")
    assert "prio" in reading.unread


def test_r44c_the_hosts_outside_a_class_are_left_out():
    # (r44c) "a machine outside the op subnet": every host of no such class, never any host
    from forge.llm.surrogate.free_text import read_rule

    reading = read_rule("From now on, a machine outside the enterprise subnet with an exploit running on it is to be removed.")
    assert reading.trigger is not None and set(reading.trigger.excluded) >= {"Enterprise0", "Enterprise1", "Enterprise2"}


# -- round 45 (r45s): where the reader read wider, narrower or other than the words ------------------------------------

def test_r45s_a_situation_the_note_sets_outside_itself_is_none_of_its_own():
    """A closing sentence that says a situation "is a separate question, not addressed" tells where the rule does not
    speak: its level is never the rule's (it gave the rule that level, the opposite of the text)."""
    text = ("Rebooting machines that merely read Unknown cost me turns. My rule: a user workstation left at Compromised "
            "Unknown is given an Analyse, not a Restore. Workstations at Privileged, say User1 earlier, are a "
            "separate question, not addressed by this note.")
    when, action, _ = compiled(text)
    assert when == at("User", None, "Unknown")
    assert action == act("prefer", "Analyse", "$matched", ("Restore", "$matched"))


def test_r45s_a_level_denied_beside_an_activity_is_that_level_absent():
    """"exploit w/o root", "exploited but not at root": the activity, and the host not at that level; not "no
    compromise" (a host exploited at user level is what the words speak of)."""
    for text in ("User2 exploit w/o root -> Remove", "If Enterprise1 is exploited but not yet at root, Remove Enterprise1."):
        host = "User2" if text.startswith("User2") else "Enterprise1"
        when, action, _ = compiled(text)
        assert when == {"all": [at(host, "Exploit"), none_of(at(host, None, "Privileged"))]}, text
        assert action == act("do", "Remove", host)


def test_r45s_hosts_listed_with_or_are_any_of_them():
    """"User2, User3 or User4 exploited -> Remove that host": any of them in that state, the order on whichever it is (a comma in
    the list was read as "and": all three at once, the order on the first)."""
    when, action, _ = compiled("User2, User3 or User4 exploited -> Remove that host")
    assert when == {"any": [at("User2", "Exploit"), at("User3", "Exploit"), at("User4", "Exploit")]}
    assert action == act("do", "Remove", "$matched")


def test_r45s_either_level_is_user_or_privileged():
    """"owned (user or root)", "compromised, whatever level": either level, one atom each (not root alone, and not any
    compromise, which the table's Unknown also meets)."""
    when, _, _ = compiled("ent boxes owned (user or root) -> Restore whichever one it is")
    assert when == {"any": [at("Enterprise", None, "User"), at("Enterprise", None, "Privileged")]}
    when, _, _ = compiled("Never reimage Enterprise2 once it is taken over, whatever level; Remove only.")
    assert when == {"any": [at("Enterprise2", None, "User"), at("Enterprise2", None, "Privileged")]}


def test_r45s_a_note_of_cases_speaks_in_each():
    """Cases of one host, each with its own order ("X probed -> a decoy; X exploited -> Remove X"; "...; save
    Restore for when it goes root"): the rule holds in any of them, the first gives the action and the others are
    told in the rest as "other cases: ..." (read as the first alone, the rule was silent in the others)."""
    when, action, unexpressed = compiled("Enterprise1 probed only -> DecoyTomcat on Enterprise1; Enterprise1 exploited -> Restore Enterprise1.")
    assert when == {"any": [at("Enterprise1", "Scan", "No"), at("Enterprise1", "Exploit")]}
    assert action == act("do", "DecoyTomcat", "Enterprise1")
    assert unexpressed.startswith("other case: ") and "Restore Enterprise1".lower() in unexpressed.lower()
    when, action, unexpressed = compiled("User3 at user lvl: Remove it; save Restore for when it goes root")
    assert when == {"any": [at("User3", None, "User"), at("User3", None, "Privileged")]}
    assert action == act("do", "Remove", "User3")
    assert unexpressed.startswith("other case: ")


def test_r45s_the_move_turned_down_after_a_comma():
    """", skip the Remove" after an order turns that move down (a preference); ", no decoys yet" on a quiet network has
    no host to make it on, so the order stands alone (a preference over a decoy on no host was refused)."""
    when, action, _ = compiled("a box at root -> Restore, skip the Remove.")
    assert when == at("any", None, "Privileged")
    assert action == act("prefer", "Restore", "$matched", ("Remove", "$matched"))
    when, action, _ = compiled("quiet network (nothing at all) -> Monitor only, no decoys for now.", "planner")
    assert action["mode"] == "do" and action["verb"] == "Monitor" and action["target"] is None


def test_r45s_terse_states():
    """"has been exploited up to user level" is the level the exploit left (no exploit now), but an exploit going on at
    a level ("under an exploit at the user level", "being exploited to root") is the exploit now, at that level (r46s:
    these two already read so on 38c08b5; kept here so the r45s reading of a level left behind does not swallow them);
    "nothing owned anywhere across the net" and "sits at the user level" leave no words unread; "Op_Server0 hit" is the host
    taken."""
    when, _, _ = compiled("A server of the enterprise subnet that has been exploited up to user level: Remove that "
                           "server, do not Restore it.")
    assert when == at("Enterprise", None, "User")
    when, _, _ = compiled("Should Enterprise2 be under an exploit at the user level, Remove Enterprise2 right away.")
    assert when == at("Enterprise2", "Exploit", "User")
    when, _, _ = compiled("While Enterprise2 is being exploited to root, Remove Enterprise2 right away.")
    assert when == at("Enterprise2", "Exploit", "Privileged")
    when, _, unexpressed = compiled("nothing owned anywhere across the net -> DecoySmss on Enterprise1.")
    assert when == none_of(at("any", None, "any")) and unexpressed == ""
    when, _, unexpressed = compiled("Whenever Enterprise1 sits at the user level, Remove it and hold off on any Restore.")
    assert when == at("Enterprise1", None, "User") and unexpressed == ""
    when, action, _ = compiled("Op_Server0 hit = impact phase. Restore it without delay.", "planner")
    assert when == at("Op_Server0", None, "any")
    assert action == act("do", "Restore", "Op_Server0")


def test_r45s_what_an_analysis_reports_is_told_in_its_own_words():
    """A condition on what the step's analyses report of a host ("a reverse shell ... in the analyses") is no column of
    the table: the rest is said as written, not as its words one by one ("reverse shell lport step", which no reader
    places, so the rule was silent), and a class it is said of is any host of it, whatever its row."""
    when, action, unexpressed = compiled("usr box w/ a reverse shell (lport 5555) in the analyses of this step -> Remove it")
    assert when == {"class": "User"}
    assert action == act("do", "Remove", "$matched")
    assert unexpressed == "a reverse shell (lport 5555) in the analyses of this step"


def test_r45s_a_heading_over_a_bulleted_list_of_cases():
    """"ent srv:" over lines "- probed only -> ...", "- rooted -> ...": the heading's class is each line's subject, and
    each line a case (the list was dropped as no instruction)."""
    when, action, unexpressed = compiled("ent srv:\n- probed only -> DecoyTomcat it\n- rooted -> Restore it")
    assert when == {"any": [at("Enterprise", "Scan", "No"), at("Enterprise", None, "Privileged")]}
    assert action == act("do", "DecoyTomcat", "$matched")
    assert unexpressed == "other case: rooted -> restore it"


# -- round 46 (r46s): the reader of r45s, where it read wider or other than the words ---------------------------------

def test_r46s_a_situation_before_an_arrow_that_names_no_subject_keeps_the_one_named_before():
    """A terse note is "situation -> order"; but a situation that names nothing of its own ("under exploit ->", "in that
    case ->", the rest of a quoted row after its host and colon) is said of a host named before it: read as a situation
    alone it lost that host's state (the rule fired at the host whatever its row, or always)."""
    when, action, _ = compiled("User2 scanned -> DecoySSHD on User2")
    assert when == at("User2", "Scan") and action == act("do", "DecoySSHD", "User2")
    when, action, _ = compiled("Enterprise1 is the odd one out: under exploit -> a Restore of Enterprise1 goes in the plan, not a Remove.",
                                "planner")
    assert when == at("Enterprise1", "Exploit")
    assert action == act("prefer", "Restore", "Enterprise1", ("Remove", "Enterprise1"))
    when, _, _ = compiled("trouble ahead = User3 being scanned. in that case -> DecoyFemitter on User3")
    assert when == at("User3", "Scan")
    when, _, _ = compiled("table reads 'User0: Activity Scan, Compromised No' => DecoySSHD on User0, nothing more", "planner")
    assert when == at("User0", "Scan", "No")


def test_r46s_a_later_sentence_that_says_what_a_move_is_worth_is_no_case_of_the_rule():
    """"X only while A; once B, doing it is pointless" tells where the rule stops: B is no case in which the rule gives
    its order (read as one, the rule fired in the very situation its words rule out). Only a move said to be worth
    nothing there is no order: "once B, restoring it is urgent" orders it."""
    when, action, unexpressed = compiled("DecoyTomcat goes on Enterprise1 only as long as it is still clean; once it is "
                                          "exploited, a decoy there is too late.")
    assert when == at("Enterprise1", None, "No")
    assert action == act("do", "DecoyTomcat", "Enterprise1") and unexpressed == ""
    # a case that does give an order stays one
    when, _, _ = compiled("Enterprise1 probed only -> DecoyTomcat on Enterprise1; Enterprise1 exploited -> Restore Enterprise1.")
    assert when == {"any": [at("Enterprise1", "Scan", "No"), at("Enterprise1", "Exploit")]}
    # and a move said to be needed there is ordered there (only a move said to be worth nothing is no order)
    when, action, _ = compiled("As soon as User1 has an exploit on it, removing User1 is urgent; restore nothing that step.")
    assert when == at("User1", "Exploit") and action == act("do", "Remove", "User1")


def test_r46s_hosts_listed_with_or_are_those_of_the_list_only():
    """"on User1 or User2 (any box but User3)": the hosts joined by "or", never one the text names to leave out."""
    when, action, _ = compiled("Exploit on User1 or User2 (any box but User3) -> Remove it.")
    assert when == {"any": [at("User1", "Exploit"), at("User2", "Exploit")]}
    assert action == act("do", "Remove", "$matched")


def test_r46s_a_heading_that_leaves_hosts_out_of_its_class():
    """"usr boxes, not User1 though: any of them w/ an exploit -> Remove it": the class less that host."""
    when, action, _ = compiled("ent servers, not Enterprise0 though: whichever of them has an exploit running -> Remove it.")
    assert when == {"any": [at("Enterprise1", "Exploit"), at("Enterprise2", "Exploit")]}
    assert action == act("do", "Remove", "$matched")


def test_r46s_a_row_that_says_its_value():
    """"row says 'Unknown'", "row = User": the row's value, as "reads Unknown" is."""
    when, action, _ = compiled("ent servers whose row says 'Unknown' -> an Analyse of it, no Restore")
    assert when == at("Enterprise", None, "Unknown")
    assert action == act("prefer", "Analyse", "$matched", ("Restore", "$matched"))
    when, _, _ = compiled("User1 row = User -> Remove User1")
    assert when == at("User1", None, "User")


# -- round 46 (r46s, second pass): readings that the bench showed wider than the words --------------------------------

def test_r46s_a_rating_the_analyses_give_is_said_of_its_host():
    """A condition on the risk the step's analyses give a host ("User4 rated Risk high") is told in the rest with the host it
    is said of: said as "rated risk high" alone it was of no host, and the rule fired at every step; and "Risk: high"
    quoted from the analyses is a field and its value, no heading before a colon (read as one, the condition was lost)."""
    when, action, unexpressed = compiled("User4 rated Risk high -> Remove User4.")
    assert when == at("User4") and action == act("do", "Remove", "User4")
    assert unexpressed == "User4 rated risk high"
    when, action, unexpressed = compiled("if the analyst's block puts 'Risk: high' on some workstation -> Restore that one")
    assert when == at("User") and action == act("do", "Restore", "$matched")
    assert "risk high" in unexpressed


def test_r46s_a_state_back_within_some_steps_of_a_move():
    """"exploited again within three turns of our Remove of it": the move made within that many steps, and the state now
    (not a state that stayed for three steps, which fired where no such move was made)."""
    when, action, _ = compiled("When User2 is exploited again within three turns of our Remove of User2, restore User2.")
    assert when == {"host": "User2", "activity": "Exploit", "acted": "Remove", "within": 3}
    assert action == act("do", "Restore", "User2")


def test_r46s_an_activity_and_nothing_more_is_that_activity_alone():
    """"probed and nothing more", "a scan but nothing else": the activity, and no compromise (read as the activity alone,
    the rule fired on a host already taken)."""
    when, _, _ = compiled("For Enterprise1 probed and nothing more, a DecoyTomcat on Enterprise1 rather than an Analyse.")
    assert when == at("Enterprise1", "Scan", "No")
    when, _, _ = compiled("Once User4 shows a scan but nothing else, put DecoyVsftpd on User4.")
    assert when == at("User4", "Scan", "No")


def test_r46s_what_a_move_is_ahead_of_is_no_state():
    """"..., before the attacker reaches User1": what the move comes ahead of, never a compromise the condition asks of
    the hosts it names (read as one, the rule waited for the very compromise it meant to forestall)."""
    when, action, _ = compiled("When User2 or User3 shows a scan, before the attacker gets to User1, put a DecoySmss on User1.")
    assert when == {"any": [at("User2", "Scan"), at("User3", "Scan")]}
    assert action == act("do", "DecoySmss", "User1")


def test_r46s_a_host_and_its_row_value_alone_is_that_value():
    """In a note of cases, "Enterprise1 Unknown -> Analyse Enterprise1" is the host at Compromised Unknown: read as no situation, the whole
    note fell back to its first case (the rule silent in the others its words give)."""
    when, _, unexpressed = compiled("Enterprise1 scanned only -> DecoyTomcat Enterprise1; Enterprise1 Unknown -> Analyse Enterprise1")
    assert when == {"any": [at("Enterprise1", "Scan", "No"), at("Enterprise1", None, "Unknown")]}
    assert unexpressed == "other case: Enterprise1 unknown -> analyse Enterprise1"

