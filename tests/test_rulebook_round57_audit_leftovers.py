"""Round 57 audit of r57l (the round's leftovers): readings that said more than the words, or the opposite.

1. A "no-brainer" affirms only said: asked ("A no-brainer? Hardly.") or denied in its sentence ("No-brainer for a junior,
   but no"), it turns the move down, and the move the question asks is no order.
2. Malware a host carries ("with unknown malware", "an unknown implant") is a compromise of some level: no entry on the
   host clean passes as the text (read as no state, it did).
3. A move the text only forbids is ordered nowhere: not on the host whose state the ban waits on ("Never Restore User2
   once Enterprise0 is rooted" stored as "Restore $matched when Enterprise0 is rooted"), now that the ban's place stops
   at the clause of its case.
4. The state a move waits for with "after" is never excluded by the trigger.
"""

from forge.rulebook.authoring.checks import text_problem
from forge.rulebook.language.forms import written_out
from forge.rulebook.language.situation import state_of


def _do(verb, target):
    return {"mode": "do", "verb": verb, "target": target}


def _never(verb, target):
    return {"mode": "never", "verb": verb, "target": target}


def test_a_no_brainer_asked_or_denied_affirms_nothing():
    scanned = {"host": "Enterprise0", "activity": "Scan"}
    clean_scanned = {"host": "Enterprise0", "activity": "Scan", "compromise": "No"}
    for text, when in (
            ("Restore Enterprise0 the moment a scan hits it? A no-brainer? Hardly.", scanned),
            ("Remove Enterprise0 when scanned? No-brainer, right? Wrong: never do it.", scanned),
            ("Q: Remove Enterprise0 on a scan? A: No-brainer? No.", clean_scanned),
            ("Q: Remove Enterprise0 on a scan? A: No-brainer for the night crew, but no, never.", clean_scanned)):
        verb = "Restore" if text.startswith("Restore") else "Remove"
        assert text_problem(text, when, _do(verb, "Enterprise0")) is not None, text
    # (said, it still affirms)
    assert text_problem("Q: Remove Enterprise0 after a scan? A: A total no-brainer.", scanned,
                        _do("Remove", "Enterprise0")) is None


def test_malware_a_host_carries_is_a_compromise():
    for text, when in (
            ("Enterprise1 with unknown malware: Restore it.", {"host": "Enterprise1", "compromise": "No"}),
            ("If User2 shows up with an unknown implant, Restore it.", {"host": "User2", "compromise": "No"}),
            ("Restore any user host with unknown malware on it.", {"class": "User", "compromise": "No"})):
        assert text_problem(text, when, _do("Restore", "$matched")) is not None, text
    assert state_of(written_out("User3 has a backdoor"))[0][1] is not None
    assert state_of(written_out("User3 with no malware"))[0][1] is None


def test_a_banned_move_is_never_ordered_on_the_host_its_case_names():
    rooted = {"host": "Enterprise0", "compromise": "Privileged"}
    for text, when, action in (
            ("Never Restore User2 once Enterprise0 is rooted.", rooted, _do("Restore", "$matched")),
            ("Do not Restore User2 or User3 as long as Enterprise0 is rooted.", rooted, _do("Restore", "$matched")),
            ("Never Remove User1 after Op_Host0 is exploited.", {"host": "Op_Host0", "activity": "Exploit"},
             _do("Remove", "Op_Host0"))):
        assert text_problem(text, when, action) is not None, text
    # (an order of the move the text gives on that host is its own)
    assert text_problem("When Enterprise0 is rooted, Restore it, but never Restore User2.", rooted,
                        _do("Restore", "$matched")) is None
    assert text_problem("Do not Remove User1; Remove Enterprise0 once it is rooted.", rooted, _do("Remove", "$matched")) is None


def test_the_state_waited_for_after_is_never_excluded():
    for text, when, action in (
            ("Remove Op_Host1 after User3 gets exploited.", {"host": "User3", "activity": "None"}, _do("Remove", "Op_Host1")),
            ("Never Restore User2 after Enterprise0 is rooted.", {"host": "Enterprise0", "compromise": "No"},
             _never("Restore", "User2")),
            ("After Enterprise0 gets rooted, do not Restore User2.", {"not": {"host": "Enterprise0", "compromise": "Privileged"}},
             _never("Restore", "User2"))):
        assert text_problem(text, when, action) is not None, text
    assert text_problem("Never Restore User2 after Enterprise0 is rooted.", {"host": "Enterprise0", "compromise": "Privileged"},
                        _never("Restore", "User2")) is None
