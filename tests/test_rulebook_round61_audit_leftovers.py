"""Round 61 audit (r61d) of r61l's readers: a ban ahead of its time, and a ban up to the attacker's move.

Each test teaches a note the product keeps semantic and asks the gate (`semantic_claims` on a read context) where it is
injected: never where the words lift the ban, never everywhere but where it holds.
"""

from forge.rulebook.authoring.checks import text_problem
from forge.rulebook.language.condition import semantic_claims
from forge.rulebook.language.predicate import truth
from forge.rulebook.language.situation import read_situation

_REFUSED = "predicate refused: prohibition: the text bans the move only ahead of its time"

_QUIET = "Activity None, Compromised No"
_SCANNED = "Activity Scan, Compromised No"
_EXPLOITED = "Activity Exploit, Compromised User"
_ROOTED = "Activity None, Compromised Privileged"


def _holds(text: str, host: str, state: str):
    """Three-valued: does the note, kept semantic, hold on a context of one alerts row of `host`?"""
    return truth(semantic_claims(text, _REFUSED, text), read_situation(f"Alerts:\n{host}: {state}"))


def test_a_ban_too_soon_after_an_event_holds_in_that_event_not_before_it():
    """condition._AFTER_ITS_EVENT: "don't <move> X too soon after <event>" bans the move once the event came, so it is
    injected where X shows the event (where its words are read), never where X is still quiet or only scanned (the
    opposite)."""
    for text, host in (("Do not Analyse Enterprise1 too soon after it gets exploited.", "Enterprise1"),
                       ("Never Remove Op_Host3 too early after the exploit.", "Op_Host3")):
        assert not _holds(text, host, _QUIET), text
        assert not _holds(text, host, _SCANNED), text
    assert _holds("Do not Analyse Enterprise1 too soon after it gets exploited.", "Enterprise1", _EXPLOITED)


def test_a_ban_ahead_of_its_time_in_a_state_is_not_read_as_waiting_on_that_state():
    """condition._WAITED_EVENT: "don't <move> X too soon on a privileged compromise" bans the move in that state (the
    words wait on nothing): never injected in every other state of X, as if the state were the event that lifts it."""
    text = "Don't Restore Enterprise0 too soon on a privileged compromise."
    for state in (_QUIET, _SCANNED, _EXPLOITED):
        assert not _holds(text, "Enterprise0", state), state
    # (a state beside the wait is no event waited on either: "wait a step" waits on no state)
    other = "Never Remove User4 prematurely during an exploit; wait a step."
    for state in (_QUIET, _SCANNED, _ROOTED):
        assert not _holds(other, "User4", state), state


def test_a_ban_ahead_of_an_ending_is_not_lifted_while_the_event_lasts():
    """condition._EVENT_ENDS: "don't <move> X too early; wait for the scan to end" holds during the scan too: never
    injected once the scan has given way to an exploit or a compromise, where the words lift it."""
    for text, host in (("Do not Remove User3 too early; wait for the scan to finish.", "User3"),
                       ("Never Analyse Op_Host1 prematurely, only after red has scanned it.", "Op_Host1")):
        assert not _holds(text, host, _EXPLOITED), text
        assert not _holds(text, host, _ROOTED), text


def test_a_scan_waited_on_is_past_once_an_exploit_or_a_compromise_shows():
    """condition._before_its_time: "don't <move> X too early; wait for red to scan it" lifts once X is scanned, and a
    host that shows an exploit or a compromise has been: the ban holds only while X is quiet."""
    text = "Don't Analyse Enterprise2 too early; wait for red to scan it."
    assert _holds(text, "Enterprise2", _QUIET)
    for state in (_SCANNED, _EXPLOITED, _ROOTED):
        assert not _holds(text, "Enterprise2", state), state
    # (guard: an exploit waited on still lifts the ban once the exploit shows, and holds before it)
    waits = "Never Restore User1 too soon; wait for the exploit."
    assert _holds(waits, "User1", _SCANNED)
    assert not _holds(waits, "User1", _EXPLOITED)


def test_a_ban_up_to_the_attackers_exploit_is_lifted_on_the_host_it_left_rooted():
    """claims._LANDED: "never <move> X before red exploits it" lifts once the exploit is made: not injected where X shows
    the compromise it left, its alert gone, as "before it gets exploited" is not."""
    for text in ("Never Restore Op_Host2 before red exploits it.", "Do not Restore Op_Host2 before the exploit lands.",
                 "Don't Restore Op_Host2 until the attacker exploits it."):
        assert _holds(text, "Op_Host2", _SCANNED), text
        assert not _holds(text, "Op_Host2", _EXPLOITED), text
        assert not _holds(text, "Op_Host2", _ROOTED), text


def test_a_ban_up_to_the_end_of_an_event_is_never_held_after_it():
    """claims._EVENT_OVER: "never <move> X before the scan is over" holds during the scan and lifts after it: never read
    as a ban up to the scan, injected once the host shows an exploit or a compromise."""
    for text in ("Never Remove Enterprise1 before the scan is over.", "Don't Analyse Enterprise1 until the attack is all over."):
        for state in (_QUIET, _EXPLOITED, _ROOTED):
            assert not _holds(text, "Enterprise1", state), (text, state)
    # (guard: the plain "never" of it is still refused, as r61l's check does)
    assert text_problem("Never Remove Enterprise1 before the scan is over.", {"host": "Enterprise1"},
                        {"mode": "never", "verb": "Remove", "target": "Enterprise1"}) is not None
