"""Round 60 audit r60a of r60h's readers, probed with sentences of our own. Each test is a reading that was wider than
its words, or their opposite, on 0e5ef0d:

- "nothing / no <class> host gets a <move>" (forms._NONE_GETS) is the writer's own ban only where it opens its clause, out
  of quote marks, in a sentence not asked, with hosts named in its exception: after "if" / "that" / "they claim" it is a
  condition or a claim reported or denied, between quotes a rule cited, in a question in doubt; an exception of a state or a
  class ("except hosts that are rooted") excepts hosts no name places. Read as a ban there, a compiled never passed: on the
  very hosts the text lets, or where the text denies the ban;
- a move named as a noun and turned down in the passive (forbidding.BAD_IDEA, r60h's "never to be tried", "must never be
  attempted" among them) and limited in its own clause by a time or a count ("... is never to be tried yet", "... must not
  be carried out twice", "... before Enterprise1"), or said of the move alone ("... on its own"), is limited as the active ban is (forbidding.limited_bans): a plain
  "never" on the host shown forbade the move for good, or the first one too;
- every verb banned on a host and one verb named again (said.forbidden_in_words, r60h) is every verb banned only where the
  text names no other move it lets: "keep off Op_Host2, not even an Analyse; a Restore at root is fine though" lets the
  Restore, and read as "never any move" there the note outranked a Restore rule the words leave standing;
- a judgement and then ", so never <move> <host>" (order._ban_concluded, r60h) is the ban alone only where the judgement is
  in general: one of the move on a host of its own, or in a case the ban points back to ("..., so never Restore
  Enterprise2 then"), is the ban's case, and the ban alone on its host in any state was wider than the words;
- a host's state asked as a call in code (forms._CODE_STATE_CALL, r60h) and then held to a value the reader does not place
  ("is_owned(User2) returns false", "=== false", "equals false") is left unread: said alone, "User2 is owned", it was the
  state the comparison denies, and the checks held the compilation of the denial to the compromise;
- "every" after a ban, "never Restore every user workstation" (not all of them), is no standing ban on each host of the
  class (rule_claims.class_ban_plain, where r60h let "every" pass anywhere): kept semantic, the rule spoke its "never" on
  each user host shown; "every" as the subject of a move denied ("Every user workstation gets no Restore") still is;
- "no sign of activity on <host>" since or after a compromise ("... since the attacker took it") is no quiet row
  (forms._NO_SIGN_ON, r60h): said "quiet since ...", the quiet and the compromise stood against each other and the note
  fell back to its host in any state, a scanned or exploited row too;
- a column said unequal in code right after a bare "not" or "!" ("if not Op_Host1.compromised != No", Python's not (a != b))
  is a denial denied, left unread as r60h leaves "not (...)": read as the inner denial, a compiled compromise of the host
  passed where the code asks its clean row;
- a move named as a noun and turned down in the passive inside a question ("Who decided a Remove of Enterprise0 must never
  be attempted?") judges nothing (forbidding.prohibitions_in over BAD_IDEA, which r60h widened to "never to be" / "must
  never be attempted"): read as a ban, the text's order of that move after it was passed as its "never".
"""

from __future__ import annotations

from forge.rulebook.authoring.checks import text_problem
from forge.rulebook.language.forms import written_out
from forge.rulebook.language.said import forbidden_in_words
from tests.situations import refused_rule_holds_on


def _never(verb: str, target: str) -> dict:
    return {"mode": "never", "verb": verb, "target": target}


def test_a_ban_by_nothing_with_a_state_excepted_is_not_that_state_banned() -> None:
    # the rooted user hosts are the ones the text lets a Remove on: a never of Remove when one is rooted is the opposite
    rooted_user = {"class": "User", "compromise": "Privileged"}
    for text in ("No user host gets a Remove, except hosts that sit at root.",
                 "No user machine gets a Remove, except rooted ones.",
                 "No user box is given a Restore, save the ones that are rooted."):
        verb = "Remove" if "Remove" in text else "Restore"
        assert text_problem(text, rooted_user, _never(verb, "User")) is not None, text
    # an exception of hosts by name still leaves the ban on the class's other hosts
    assert text_problem("No enterprise server receives a Remove.", {"class": "Enterprise"},
                        _never("Remove", "Enterprise")) is None


def test_a_ban_by_nothing_asked_quoted_or_reported_is_no_ban() -> None:
    for text, when, target in (
            ("Nothing gets a Restore, you reckon? I would Restore Enterprise2 once it is at root.",
             {"host": "Enterprise2", "compromise": "Privileged"}, "Enterprise2"),
            ('"No op host gets a Remove" was last month\'s rule; it is gone now.', {"class": "Operational"}, "Operational"),
            ("It is not true that no user box gets a Restore.", {"class": "User"}, "User"),
            ("They say no enterprise server gets a Remove. Not so.", {"class": "Enterprise"}, "Enterprise")):
        verb = "Restore" if "Restore" in text else "Remove"
        assert text_problem(text, when, _never(verb, target)) is not None, text
    # the writer's own ban, after a condition of its own, still stands
    assert text_problem("Once Op_Server0 shows root, no op host gets a Remove.",
                        {"host": "Op_Server0", "compromise": "Privileged"}, _never("Remove", "Operational")) is None


def test_a_passive_ban_limited_in_time_or_count_is_no_plain_never() -> None:
    for text, host, verb in (("A Restore of Op_Host0 is never to be tried yet.", "Op_Host0", "Restore"),
                             ("A Remove of User4 must not be performed first.", "User4", "Remove"),
                             ("An Analyse of Enterprise1 should never be done twice.", "Enterprise1", "Analyse"),
                             ("A Restore of User2 is not to be attempted ahead of User3.", "User2", "Restore"),
                             ("A Remove of Op_Host1 must never be attempted on its own.", "Op_Host1", "Remove")):
        assert text_problem(text, {"host": host}, _never(verb, host)) is not None, text
    # the passive ban with no limit of its own is still a plain never
    assert text_problem("A Restore of Op_Host0 must never be attempted.", {"host": "Op_Host0"},
                        _never("Restore", "Op_Host0")) is None


def test_every_verb_banned_beside_a_move_let_is_not_every_verb() -> None:
    for text in ("Keep off Op_Host2, not even an Analyse; a Restore at root is fine though.",
                 "Stay away from User3, no Remove either, but DecoyTomcat it when scanned."):
        found = forbidden_in_words(text)
        assert found is None or found[1].move.verb != "any", text
    # with no move let, the verb named again is one of every verb
    found = forbidden_in_words("Stay away from User3, and no Remove on it either.")
    assert found is not None and found[1].move.verb == "any"


def test_a_ban_after_a_judgement_of_its_own_case_is_not_the_ban_alone() -> None:
    for text, host in (("A Remove of Op_Host2 is wasteful while it is only probed, so never Remove Op_Host1 then.", "Op_Host1"),
                       ("Restoring User0 is overkill on a bare scan, so never Restore User1 in that case.", "User1")):
        verb = "Remove" if "Remove" in text else "Restore"
        assert text_problem(text, {"host": host}, _never(verb, host)) is not None, text


def test_a_state_call_held_to_a_value_unread_is_not_the_state() -> None:
    for text, host in (("when is_compromised(Op_Host2) returns false, DecoyApache Op_Host2.", "Op_Host2"),
                       ("if (is_owned(User1) === false) { DecoyTomcat(User1) }", "User1"),
                       ("if is_rooted(Enterprise0) equals false then DecoyApache Enterprise0", "Enterprise0")):
        verb = "DecoyTomcat" if "DecoyTomcat" in text else "DecoyApache"
        problem = text_problem(text, {"not": {"host": host, "compromise": "any"}}, {"mode": "do", "verb": verb, "target": host})
        assert problem is None or "compromise" not in problem.split(":")[1], (text, problem)
    # the call's truth compared as the reader places it is still read
    assert written_out("if is_owned(User2) == false: DecoyApache(User2)") == "if User2 is not owned: DecoyApache(User2)"
    assert written_out("on_scan(Enterprise1) => Analyse(Enterprise1)").startswith("Enterprise1 is scanned")


def test_a_ban_of_every_host_at_once_is_no_ban_on_each() -> None:
    for text in ("Do not Remove every op host.", "Never Restore every user workstation."):
        assert refused_rule_holds_on(text, User1="None/No", Op_Host1="Exploit/User") is not True, text
    assert refused_rule_holds_on("Every user workstation gets no Restore.", User1="None/No") is True


def test_no_sign_of_activity_since_a_compromise_is_not_any_row() -> None:
    for text, host in (("No sign of activity on Op_Host1 since the attacker took it: Restore Op_Host1.", "Op_Host1"),
                       ("No sign of activity on User3 since it was breached; Restore User3.", "User3")):
        for row in ("Scan/No", "Exploit/User"):
            assert refused_rule_holds_on(text, **{host: row}) is not True, (text, row)
    # with no compromise in its window, the host's row quiet
    text = "No sign of activity on User3 since the last Restore: DecoyApache User3."
    assert refused_rule_holds_on(text, User3="Scan/No") is not True


def test_a_denied_comparison_right_after_not_is_left_unread() -> None:
    for text, host in (("if not User0.compromised != No: DecoyApache(User0)", "User0"),
                       ("while not Op_Host2.activity != None: DecoyApache(Op_Host2)", "Op_Host2")):
        column = "activity" if ".activity" in text else "compromise"
        assert text_problem(text, {"host": host, column: "any"}, {"mode": "do", "verb": "DecoyApache", "target": host}) \
            is not None, text


def test_a_passive_ban_asked_is_no_ban() -> None:
    for text, when, host in (
            ("Who decided a Remove of Enterprise0 must never be attempted? Remove Enterprise0 once exploited.",
             {"host": "Enterprise0", "activity": "Exploit"}, "Enterprise0"),
            ("Who told you a Restore of Op_Host0 should never be tried? Restore Op_Host0 when it is rooted.",
             {"host": "Op_Host0", "compromise": "Privileged"}, "Op_Host0")):
        verb = "Remove" if "Remove" in text else "Restore"
        assert text_problem(text, when, _never(verb, host)) is not None, text
