"""Round 57 audit (r57b) of r57m's readers, probed with sentences of our own. Each test is a reading wider than its words,
or their opposite, on 030686f:

- a passive "never" in a clause that reports or complains ("The trouble is that X is never restored", "In the logs I
  read, X is never restored") was taken as a standing ban, and a "never" of the very move the text then orders passed;
- "no <move> is available / possible" said on its own (no "when", "if" before it) is the chooser told not to reach for
  the move: r57m read every such "no" as the fallback's case, and a faithful ban was refused as the opposite;
- an answering "No," whose denial goes on to the next move ("No, nor would a Remove of it") was set aside, and the order
  of that move passed;
- a host an aside sends to another note ("(Op_Server0: see my other card)") is that note's case: a trigger over its
  whole class took it in.
"""

from forge.rulebook.authoring.checks import text_problem


def _on(verb, target, mode="do"):
    return {"mode": mode, "verb": verb, "target": target}


def test_a_passive_never_in_a_report_or_complaint_is_no_ban():
    for text, host, verb in (
            ("The trouble is that User2 is never restored. Restore User2 when it is rooted.", "User2", "Restore"),
            ("What I keep seeing: the problem is that Enterprise1 is never removed. Remove Enterprise1 once it is rooted.",
             "Enterprise1", "Remove")):
        when = {"host": host, "compromise": "Privileged"}
        assert text_problem(text, when, _on(verb, host, "never")) is not None, text
        assert text_problem(text, when, _on(verb, host)) is None, text
    # a passive "never" that stands on its own subject stays a ban
    text = "Op_Host2 is never restored, whatever it shows."
    assert text_problem(text, {"host": "Op_Host2"}, _on("Restore", "Op_Host2", "never")) is None
    text = "In the logs I read, Enterprise0 is never restored."
    assert text_problem(text, {"host": "Enterprise0"}, _on("Restore", "Enterprise0", "never")) is not None


def test_no_move_available_said_on_its_own_stays_a_ban():
    for text, host, verb in (
            ("No Restore is available for User1 this game; leave it as it is.", "User1", "Restore"),
            ("No Remove is possible on Op_Server0: it is the service the mission needs.", "Op_Server0", "Remove")):
        assert text_problem(text, {"host": host}, _on(verb, host, "never")) is None, text
        assert text_problem(text, {"host": host}, _on(verb, host)) is not None, text


def test_an_answer_no_that_goes_on_to_the_next_move_turns_it_down():
    for text, host, verb in (
            ("Would an Analyse of User2 help? No, nor would a Remove of User2.", "User2", "Remove"),
            ("Does an Analyse of Enterprise2 do any good? No, and neither does a Restore of Enterprise2.", "Enterprise2",
             "Restore")):
        assert text_problem(text, {"host": host}, _on(verb, host)) is not None, text


def test_a_host_sent_to_another_note_is_left_out_of_a_class_trigger():
    text = "For the user subnet:\n- any box there that is exploited -> Restore that box\n  - (for User0, see the lesson above)"
    assert text_problem(text, {"class": "User", "activity": "Exploit"}, _on("Restore", "$matched")) is not None
    kept = {"all": [{"class": "User", "activity": "Exploit"}, {"not": {"host": "User0"}}]}
    assert text_problem(text, kept, _on("Restore", "$matched")) is None


def test_a_wording_rest_that_names_a_time_of_the_game_still_guards():
    from forge.rulebook.language.guard import guard_rest
    when = {"host": "User1"}
    for rest in ("the rating word in the record, but only on the second turn",
                 "the words of the report in the last rounds of a game"):
        assert guard_rest(rest, when, "Rate User1 as high in the record.", None) == rest, rest


def test_a_rest_that_opens_the_move_is_not_the_fallbacks_case():
    # the text's case is a Remove NOT to be had; a rest that says the Remove IS to be had is the other case
    for text, rest in (("If a Remove isn't possible, Restore Op_Host1.", "when a Remove is possible"),
                       ("When no Remove is available, Restore Op_Host1.", "when a Remove is available")):
        assert text_problem(text, {"host": "Op_Host1"}, _on("Restore", "Op_Host1"), rest) is not None, text
    assert text_problem("When no Remove is available, Restore Op_Host1.", {"host": "Op_Host1"}, _on("Restore", "Op_Host1"),
                        "when no Remove is available") is None


def test_an_inclusion_turned_down_or_in_doubt_is_no_member_of_the_class():
    when = {"class": "Enterprise", "compromise": "Privileged"}
    for text in ("Restore every enterprise box once rooted, though hardly even the Defender.",
                 "Restore every enterprise box once rooted, the Defender too maybe, I am not sure."):
        assert text_problem(text, when, _on("Restore", "$matched")) is not None, text
    assert text_problem("Restore every enterprise box once rooted, the Defender included.", when,
                        _on("Restore", "$matched")) is None


def test_a_denied_preference_puts_no_move_aside():
    for text in ("I'd not have rather a Restore than a Remove on User2.", "Never rather a Restore than a Remove on User2."):
        assert text_problem(text, {"host": "User2"}, _on("Remove", "User2", "never")) is not None, text
