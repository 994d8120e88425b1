"""Round 60 (r60l): readings earlier rounds left wrong, each as a class, in sentences of this file's own.

Each test fails on 6eedf33 and passes with the readers named in its docstring.
"""

from forge.rulebook.authoring.checks import text_problem
from forge.rulebook.authoring.teaching import taught_words


def _do(verb, target):
    return {"mode": "do", "verb": verb, "target": target}


def _never(verb, target):
    return {"mode": "never", "verb": verb, "target": target}


def _prefer(verb, over, target):
    return {"mode": "prefer", "verb": verb, "target": target, "over": {"verb": over, "target": target}}


def test_till_waits_as_until_does():
    """markers.TILL: "till" / "til" open a condition and negate it as "until" does (a ban till a state is no ban in it)."""
    for text, host, state, verb in (("Don't Restore User2 till it is rooted.", "User2", {"compromise": "Privileged"}, "Restore"),
                                    ("Hold off on Removing Enterprise0 till the exploit shows.", "Enterprise0",
                                     {"activity": "Exploit"}, "Remove"),
                                    ("Do not Remove Op_Host1 til it shows an exploit.", "Op_Host1", {"activity": "Exploit"},
                                     "Remove")):
        assert text_problem(text, {"host": host, **state}, _never(verb, host)) is not None, text
    before = {"all": [{"host": "User2"}, {"not": {"host": "User2", "compromise": "Privileged"}}]}
    assert text_problem("Don't Restore User2 till it is rooted.", before, _never("Restore", "User2")) is None
    # (guards: how long an order lasts stays no condition; a plain ban in a state stays one)
    assert text_problem("Restore Enterprise2 till further notice.", {"host": "Enterprise2"}, _do("Restore", "Enterprise2")) is None
    assert text_problem("Keep Removing User4, till we say so.", {"host": "User4"}, _do("Remove", "User4")) is None
    assert text_problem("Never Remove User1 when it is rooted.", {"host": "User1", "compromise": "Privileged"},
                        _never("Remove", "User1")) is None


def test_the_harm_asked_of_a_move_is_answered_as_a_fault():
    """forms._FAULT_ASKED: "would it hurt to <move>? Yes." turns the move down; "... No." leaves it urged."""
    quiet = {"host": "Op_Host0"}
    assert text_problem("Would it hurt to Restore Op_Host0? Yes.", quiet, _do("Restore", "Op_Host0")) is not None
    assert text_problem("Would it hurt to Restore Op_Host0? No.", quiet, _do("Restore", "Op_Host0")) is None
    scanned = {"host": "Op_Host0", "activity": "Scan"}
    assert text_problem("Is there any harm in a Remove of Op_Host0 once it is scanned? Yes, a lot.", scanned,
                        _do("Remove", "Op_Host0")) is not None
    assert text_problem("Does a Decoy on Op_Host0 do any damage? Nope.", quiet, _do("Decoy", "Op_Host0")) is None
    # (guards: a question of whether to make the move is answered as before)
    assert text_problem("Should we Restore Op_Host0? Yes.", quiet, _do("Restore", "Op_Host0")) is None
    assert text_problem("Should we Restore Op_Host0? No.", quiet, _do("Restore", "Op_Host0")) is not None


def test_a_ban_drawn_as_a_consequence_is_the_order():
    """order._ban_drawn: "<reason>, so it gets no <move>" bans the move (in the state the reason states, if any)."""
    for text, host, verb in (("User2 is our canary, so it gets no Restore.", "User2", "Restore"),
                             ("Enterprise1 holds the logs, so no Remove for it.", "Enterprise1", "Remove")):
        assert text_problem(text, {"host": host}, _do(verb, host)) is not None, text
        assert text_problem(text, {"host": host}, _never(verb, host)) is None, text
    scanned = "Op_Server0 is only scanned, so it gets no Restore."
    assert text_problem(scanned, {"host": "Op_Server0"}, _never("Restore", "Op_Server0")) is not None
    only_scanned = {"host": "Op_Server0", "compromise": "No"}
    only_scanned["activity"] = "Scan"
    assert text_problem(scanned, only_scanned, _never("Restore", "Op_Server0")) is None
    # (guards: an order drawn so stays an order; what was done before is no ban)
    assert text_problem("User2 is our canary, so Restore it anyway.", {"host": "User2"}, _do("Restore", "User2")) is None
    assert text_problem("Op_Host1 got no Restore last time, so give it one now.", {"host": "Op_Host1"},
                        _do("Restore", "Op_Host1")) is None


def test_a_hedge_the_writer_withdraws_orders_nothing():
    """checks._HEDGE_WITHDRAWN: "maybe <move>, I am not sure" is no order of the move."""
    host = {"host": "Enterprise1"}
    for text in ("Maybe Restore Enterprise1, I am not sure.", "Perhaps a Restore of Enterprise1 - no idea really.",
                 "Not sure, but perhaps Restore Enterprise1."):
        assert text_problem(text, host, _do("Restore", "Enterprise1")) is not None, text
    # (guards: a doubt about something else, or a hedge on another move, leaves the order)
    for text in ("Restore Enterprise1. Maybe the Remove held, I am not sure.",
                 "Restore Enterprise1; maybe Analyse User1 too, not sure.", "I am not sure why, but Restore Enterprise1."):
        assert text_problem(text, host, _do("Restore", "Enterprise1")) is None, text


def test_the_latter_and_the_former_name_hosts_back():
    """forms.latter_former_said: "the latter" / "the former" is the second / first of two hosts named before it."""
    scanned = {"host": "Enterprise0", "activity": "Scan"}
    text = "User1 and Enterprise0 were both scanned. Analyse the latter."
    assert text_problem(text, scanned, _do("Analyse", "User1")) is not None
    assert text_problem(text, scanned, _do("Analyse", "Enterprise0")) is None
    both = {"all": [{"host": "Op_Host0", "compromise": "Privileged"}, {"host": "User2", "compromise": "Privileged"}]}
    assert text_problem("When Op_Host0 and User2 are both rooted, Restore the latter host.", both,
                        _do("Restore", "Op_Host0")) is not None
    # (guard: "the former runbook" is no host)
    exploited = {"host": "User1", "activity": "Exploit"}
    assert text_problem("The former runbook said to Restore User1; now Remove User1 when it is exploited.", exploited,
                        _do("Remove", "User1")) is None


def test_a_banned_preference_keeps_the_move_after_rather_than():
    """forbidding._PREFERENCE_BANNED: "never <move> it rather than <other>" puts the first aside, not the other."""
    exploited = {"host": "User4", "activity": "Exploit"}
    text = "When User4 is exploited, never reimage it rather than Remove it."
    assert text_problem(text, exploited, _prefer("Remove", "Restore", "User4")) is None
    assert text_problem(text, exploited, _do("Restore", "User4")) is not None
    assert text_problem(text, exploited, _prefer("Restore", "Remove", "User4")) is not None
    # (guard: a plain preference still puts its second move aside)
    plain = "When User4 is exploited, reimage it rather than Remove it."
    assert text_problem(plain, exploited, _do("Remove", "User4")) is not None


def _settled(text):
    return taught_words(text)[1]


def test_a_chat_log_without_times_is_read_as_what_it_settles():
    """transcript._untimed_log, _REPLY_LEAD: a log of "name: message" lines is its settled message."""
    rooted = {"host": "Enterprise0", "compromise": "Privileged"}
    for log in ("kim: let's Remove Enterprise0 once it's rooted\nlee: a Restore is better there\n"
                "kim: fair, Restore Enterprise0 once it's rooted then",
                "[kim] Remove Enterprise0 once it's rooted\n[lee] nope, Restore Enterprise0 once it is rooted\n[kim] agreed"):
        rule = _settled(log)
        assert text_problem(rule, rooted, _do("Remove", "Enterprise0")) is not None, rule
        assert text_problem(rule, rooted, _do("Restore", "Enterprise0")) is None, rule
    # (guards: a settled message whose host is an earlier message's is not read alone; lines scoped by class or labelled
    # as a form are no conversation)
    pronoun = "kim: Remove Enterprise0 once it's rooted\nlee: nope, Restore it once it is rooted\nkim: agreed"
    assert _settled(pronoun) == pronoun
    scoped = "ops: Restore Op_Host0 when rooted\nusers: Remove User1 when exploited\nops: never Remove Op_Host0"
    assert _settled(scoped) == scoped
    form = "Lesson: Restore User1 when rooted\nWhy: Remove failed\nLesson: never Remove it"
    assert _settled(form) == form


def test_harm_denied_after_a_condition_is_the_order():
    """markers._HARM_DENIED_ADVICE: "while <state> it wouldn't hurt to <move>" ends the condition before the advice."""
    probed = {"class": "any", "activity": "Scan"}
    for text in ("while a host is being probed it wouldn't hurt to plant a DecoyApache on that host, would it? Do it.",
                 "Once Op_Host1 shows a scan it never hurts to Analyse it."):
        verb = "DecoyApache" if "Decoy" in text else "Analyse"
        when = probed if verb == "DecoyApache" else {"host": "Op_Host1", "activity": "Scan"}
        target = "$matched" if verb == "DecoyApache" else "Op_Host1"
        assert text_problem(text, when, _never(verb, target)) is not None, text
        assert text_problem(text, when, _do(verb, target)) is None, text


def test_too_early_bans_only_ahead_of_the_event():
    """forbidding.IN_ADVANCE: "too early", "too soon", "before its time" ban a move only until its event shows."""
    for text, host, state, verb in (("Don't Remove User2 too early; wait for the exploit.", "User2", {"activity": "Exploit"}, "Remove"),
                                    ("Never Restore Enterprise1 too soon: let the exploit land first.", "Enterprise1",
                                     {"activity": "Exploit"}, "Restore"),
                                    ("Don't Analyse Op_Host2 before its time.", "Op_Host2", {"compromise": "Privileged"}, "Analyse")):
        assert text_problem(text, {"host": host, **state}, _never(verb, host)) is not None, text
    # (guards: a ban in a state, and a reason that speaks of time after the ban, stay as they were)
    assert text_problem("Never Remove User2 when it is exploited.", {"host": "User2", "activity": "Exploit"},
                        _never("Remove", "User2")) is None
    assert text_problem("Never Restore User1 once it is rooted, the reimage finishes too early to matter.",
                        {"host": "User1", "compromise": "Privileged"}, _never("Restore", "User1")) is None


def test_the_box_is_the_one_host_the_note_names():
    """forms.the_box_named_said: "the box" / "the machine" said bare is the one host the note names, not any host."""
    from forge.rulebook.language.forms import the_box_named_said

    for text, host, verb in (("Once the attacker is on the box, Restore User2.", "User2", "Restore"),
                             ("Remove User3 as soon as red sits on the machine.", "User3", "Remove")):
        assert text_problem(text, {"compromise": "any"}, _do(verb, host)) is not None, text
        assert text_problem(text, {"host": host, "compromise": "any"}, _do(verb, host)) is None, text
    # (guards: hosts in general, a host set against the box, "the server", and the host at hand stay as written)
    for text in ("Once the attacker is on a box, Restore it.", "When the host is rooted, Restore it, but never touch User2.",
                 "Never Restore the server, only Remove User1.", "Rate the host you analyse high once User2 is rooted."):
        assert the_box_named_said(text) == text, text
