"""Round 61 (r61l): classes earlier rounds saw and left, each in sentences of this file's own.

Each test asserts through the product's checks (`text_problem`), the gate of a rule kept semantic (`semantic_claims` on a
read context) or the text sent to the compiler (`taught_words`).
"""

from forge.rulebook.authoring.checks import text_problem
from forge.rulebook.authoring.teaching import taught_words
from forge.rulebook.language.condition import semantic_claims
from forge.rulebook.language.predicate import truth
from forge.rulebook.language.situation import read_situation

_REFUSED = "predicate refused: polarity: the compiler's reading was the opposite of the words"


def _do(verb, target):
    return {"mode": "do", "verb": verb, "target": target}


def _never(verb, target):
    return {"mode": "never", "verb": verb, "target": target}


def _holds(text: str, row: str):
    """Three-valued: does a rule kept semantic hold on a context of one alerts row?"""
    return truth(semantic_claims(text, _REFUSED, text), read_situation(f"Alerts:\n{row}"))


# -- 1. a plain ban beside an order of the same move -----------------------------------------------------------------


def test_a_plain_ban_beside_an_order_of_the_same_move_is_not_joined_to_it():
    """(guard) checks: "<order on a class>. Never <move> <host of it>." is no order of the move on every host of the class,
    and the order's own host stays ordered."""
    rooted = {"class": "User", "compromise": "Privileged"}
    assert text_problem("Once a user box is rooted, Restore it. Never Restore User3.", rooted,
                        _do("Restore", "$matched")) is not None
    text = "Remove Op_Host2 when it shows an exploit, but never Remove Enterprise1."
    assert text_problem(text, {"host": "Op_Host2", "activity": "Exploit"}, _do("Remove", "Op_Host2")) is None
    assert text_problem(text, {"host": "Enterprise1", "activity": "Exploit"}, _do("Remove", "Enterprise1")) is not None


# -- 2. a question about a ban -----------------------------------------------------------------------------------------


def test_a_question_about_a_ban_teaches_no_ban():
    """forms.bans_only_asked, condition.decides_nothing: "Who said never <move> X?", "Since when do we not <move> X?" is
    kept silent, never injected as the ban where X is shown."""
    for text, row in (("Who ever said never Analyse Op_Host1?", "Op_Host1: Activity Scan, Compromised No"),
                      ("Since when do we not Restore Enterprise0?", "Enterprise0: Activity None, Compromised Privileged"),
                      ("Why would anyone never Remove User4?", "User4: Activity Exploit, Compromised User")):
        assert text_problem(text, {"host": row.split(":")[0]}, _never(text.split()[-2], row.split(":")[0])) is not None, text
        assert not _holds(text, row), text
    # (guards: a ban closed by a tag that asks for assent stays a ban; a question followed by the writer's order is read
    # as the order)
    assert _holds("Never Remove User4 while it is scanned, is that clear?", "User4: Activity Scan, Compromised No")
    assert _holds("Who said never Remove User4? Remove User4 once it is exploited.", "User4: Activity Exploit, Compromised User")


# -- 3. a ban on a class with a state exception -----------------------------------------------------------------------


def test_a_class_ban_with_a_state_exception_keeps_the_exception():
    """(guard) checks: "never <move> <class> unless they are <state>" is no ban in that state."""
    text = "Never Remove enterprise boxes unless they are rooted."
    assert text_problem(text, {"class": "Enterprise"}, _never("Remove", "$matched")) is not None
    assert text_problem(text, {"class": "Enterprise", "compromise": "Privileged"}, _never("Remove", "$matched")) is not None


# -- 4. a ban limited by manner ---------------------------------------------------------------------------------------


def test_a_ban_of_a_manner_is_no_plain_ban_of_the_move():
    """forbidding._MANNER_LIMIT, checks._ban_limited: "never <move> X blindly", "don't <move> X in a rush" bans a way of
    making the move, not the move: a plain "never" of it is refused."""
    for text, host, verb in (("Never Analyse Op_Host0 on a whim.", "Op_Host0", "Analyse"),
                             ("Don't Restore User1 in a rush.", "User1", "Restore"),
                             ("Do not Remove Enterprise2 recklessly when it is scanned.", "Enterprise2", "Remove")):
        assert text_problem(text, {"host": host}, _never(verb, host)) is not None, text
    # (guards: a plain ban, and a ban with a condition and a reason that speaks of haste elsewhere, stay bans)
    assert text_problem("Never Remove Enterprise2 when it is scanned.", {"host": "Enterprise2", "activity": "Scan"},
                        _never("Remove", "Enterprise2")) is None
    assert text_problem("Never Restore User1.", {"host": "User1"}, _never("Restore", "User1")) is None


# -- 5. orders the writer denies or disowns ---------------------------------------------------------------------------


def test_an_order_the_writer_denies_or_disowns_orders_nothing():
    """disowned._DENIED_THAT, _SAID_BY_BEFORE, only_disowned: "it is not true that we must <move> X", "I was told to
    <move> X; I disagree" is no order of the move, and kept semantic it is silent."""
    for text, host, verb, row in (
            ("It is untrue that Op_Host1 needs a Restore once it gets rooted.", "Op_Host1", "Restore",
             "Op_Host1: Activity None, Compromised Privileged"),
            ("It's not the case that we should Remove User2 on a scan.", "User2", "Remove", "User2: Activity Scan, Compromised No"),
            ("We were told to Analyse Enterprise0 when scanned; I don't agree.", "Enterprise0", "Analyse",
             "Enterprise0: Activity Scan, Compromised No")):
        assert text_problem(text, {"host": host}, _do(verb, host)) is not None, text
        assert not _holds(text, row), text
    # (guards: a denial of a reason leaves the order drawn from it; an order told and carried out is the order)
    drawn = "It is not true that a Restore helps here, so Remove User2 on an exploit."
    assert text_problem(drawn, {"host": "User2", "activity": "Exploit"}, _do("Remove", "User2")) is None
    assert text_problem("I was told to Remove User2 on an exploit, and I agree.", {"host": "User2", "activity": "Exploit"},
                        _do("Remove", "User2")) is None


# -- 6. a ban limited by history and a condition ----------------------------------------------------------------------


def test_a_ban_again_when_keeps_its_condition():
    """(guard) checks: "don't <move> X again when <state>" is a ban in that state, never one held in every state."""
    text = "Don't Analyse Op_Host2 again while its row merely shows a scan."
    assert text_problem(text, {"host": "Op_Host2"}, _never("Analyse", "Op_Host2")) is not None
    assert text_problem(text, {"host": "Op_Host2", "compromise": "Privileged"}, _never("Analyse", "Op_Host2")) is not None


# -- 7 and 8. chat logs that never settle ----------------------------------------------------------------------------


def test_a_log_laughed_off_or_put_off_settles_nothing_and_orders_nothing():
    """transcript._DOUBTED_OR_DEFERRED, log_unsettled, checks._log_left_open: a log whose last order is laughed off or put
    off ("haha no", "let's pick it up on monday") is no order of any of its moves, and kept semantic it is silent."""
    first = "jo: Restore Op_Host2 once it is rooted\nmo: Remove Op_Host2 once it is rooted\n"
    rooted = {"host": "Op_Host2", "compromise": "Privileged"}
    for tail in ("jo: haha no", "jo: let's pick it up on monday", "jo: we can discuss it later", "jo: hmm, not sure"):
        log = first + tail
        assert taught_words(log)[1] == log, tail
        for verb in ("Restore", "Remove"):
            assert text_problem(log, rooted, _do(verb, "Op_Host2")) is not None, (tail, verb)
        assert not _holds(log, "Op_Host2: Activity None, Compromised Privileged"), tail
    # (guards: an assent settles on the last order, which then passes; a condition added is the compiler's to read)
    agreed = first + "jo: ok"
    assert taught_words(agreed)[1] == "Remove Op_Host2 once it is rooted"
    narrowed = first + "jo: only while User1 is clean"
    assert text_problem(narrowed, {"all": [rooted, {"host": "User1", "compromise": "No"}]}, _do("Remove", "Op_Host2")) is None


# -- 9. a host named by its part in the story -------------------------------------------------------------------------


def test_a_host_named_by_its_part_in_the_story_is_not_the_host_named():
    """forms.moves_on_host_by_role, checks._host_by_role_named: "<move> the box red came from" is not a move on the host
    whose state is the condition."""
    for text, host, state, verb in (("Once Op_Host0 shows an exploit, Analyse the machine the attacker came from.", "Op_Host0",
                                     {"activity": "Exploit"}, "Analyse"),
                                    ("When User1 is rooted, Remove red from the box it jumped to.", "User1",
                                     {"compromise": "Privileged"}, "Remove")):
        assert text_problem(text, {"host": host, **state}, _do(verb, host)) is not None, text
    # (guard: the host itself stays the target)
    assert text_problem("When User1 is rooted, Remove red from User1.", {"host": "User1", "compromise": "Privileged"},
                        _do("Remove", "User1")) is None


# -- 10. time-limited plain bans -------------------------------------------------------------------------------------


def test_a_ban_before_the_attackers_move_lifts_then():
    """forbidding._BEFORE_EVENT, forms._BEFORE_STATE: "never <move> X before red exploits it" bans the move until then: a
    plain "never" is refused, and kept semantic it is silent once the event shows."""
    text = "Never Restore Enterprise2 before the attacker exploits it."
    assert text_problem(text, {"host": "Enterprise2"}, _never("Restore", "Enterprise2")) is not None
    assert _holds(text, "Enterprise2: Activity Scan, Compromised No")
    assert not _holds(text, "Enterprise2: Activity Exploit, Compromised User")
    assert text_problem("Don't Remove User3 before red gets in.", {"host": "User3"}, _never("Remove", "User3")) is not None
    # (guard: a ban in a state stays one)
    assert _holds("Never Restore Enterprise2 when it is scanned.", "Enterprise2: Activity Scan, Compromised No")


# -- 11 and 12. hosts pointed back at, the box with no host named ----------------------------------------------------


def test_the_one_pointed_back_at_is_never_widened():
    """(guard) checks: "the clean one" / "the other one" is never the host the condition names; "the box" with no host
    named is the host the condition matches, never one host."""
    text = "User3 is rooted and User1 is clean. Analyse the clean one."
    assert text_problem(text, {"host": "User3", "compromise": "Privileged"}, _do("Analyse", "User3")) is not None
    assert text_problem("Once red is on the box, Remove it.", {"compromise": "any"}, _do("Remove", "User2")) is not None


# -- 13. the semantic side of bans ahead of their time ---------------------------------------------------------------


def test_a_ban_ahead_of_its_time_is_silent_once_its_event_shows():
    """condition._before_its_time: kept semantic, "don't <move> X too early; wait for the exploit" holds where X shows no
    exploit, never where it does; with no event named ("prematurely"), only where X is quiet."""
    waits = "Do not Restore Op_Host2 too soon; let the exploit show first."
    assert _holds(waits, "Op_Host2: Activity Scan, Compromised No")
    assert not _holds(waits, "Op_Host2: Activity Exploit, Compromised User")
    bare = "Never Analyse User3 prematurely."
    assert _holds(bare, "User3: Activity None, Compromised No")
    assert not _holds(bare, "User3: Activity Exploit, Compromised User")
    judged = "Removing Enterprise1 ahead of time is a mistake."
    assert not _holds(judged, "Enterprise1: Activity None, Compromised Privileged")
    # (guard: a ban in advance with a state of its own keeps that state)
    assert _holds("Never Remove User3 prematurely when it is scanned.", "User3: Activity Scan, Compromised No")
