"""Round 57 (r57l): readings the fifty-sixth round left wrong.

1. "the server" is a server (an enterprise host or the op server). Where the text names no server at all, it is a host
   the text does not name: an entry on the user or op hosts it names alone read the server as one of them, and is
   refused. Where a named server or a class of servers comes before it, it points back there, as before.
2. A ban with a clause that ends it ("never <move> <host> until <other host> <state>") bans the move on its own host
   only: the host the clause waits on is its end, no place of it.
3. "with unknown malware" is no Unknown level; "No-brainer" as an answer affirms the move asked, while "No-go" denies it.
"""

from forge.rulebook.authoring.checks import text_problem
from forge.rulebook.language.said import forbidden_in_words, said_in_words


def _do(verb, target):
    return {"mode": "do", "verb": verb, "target": target}


def test_the_server_is_never_a_named_user_or_op_host_but_points_back_to_a_server():
    for text, when, action in (
            ("Whenever User3 sits at root, give the server a Restore.", {"host": "User3", "compromise": "Privileged"},
             _do("Restore", "User3")),
            ("Remove Op_Host2 the moment the server turns up exploited.", {"host": "Op_Host2", "activity": "Exploit"},
             _do("Remove", "Op_Host2")),
            ("Should User0 get probed, that server deserves a decoy straight away.", {"host": "User0", "activity": "Scan"},
             _do("DecoyApache", "User0"))):
        assert text_problem(text, when, action) is not None, text
    # (it still points back to a named server, or to a class of servers said before it)
    back = "Whenever Enterprise2 sits at root, give the server a Restore."
    when = {"host": "Enterprise2", "compromise": "Privileged"}
    assert text_problem(back, when, _do("Restore", "Enterprise2")) is None
    assert text_problem(back, when, _do("Restore", "$matched")) is None
    of_class = "If some enterprise box is under exploit while User1 is owned, Remove User1, then the server."
    assert text_problem(of_class, {"all": [{"class": "Enterprise", "activity": "Exploit"},
                                           {"host": "User1", "compromise": "any"}]},
                        {"mode": "do", "verb": "Remove", "target": "User1",
                         "then": [{"verb": "Remove", "target": "$matched"}]}) is None


def test_a_ban_until_another_hosts_state_bans_its_own_host_only():
    for text, banned, waited in (
            ("Never Analyse Enterprise2 till User3 has been exploited.", "Enterprise2", "User3"),
            ("Do not Remove Op_Host1 until Enterprise0 reads Privileged.", "Op_Host1", "Enterprise0"),
            ("Don't decoy User4 before Op_Server0 gets scanned.", "User4", "Op_Server0")):
        found = forbidden_in_words(text)
        assert found is not None, text
        hosts = {a.host for a in _atoms(found[0]) if a.bare()}
        assert hosts == {banned}, (text, found)
    text = "Never Analyse Enterprise2 till User3 has been exploited."
    # (r60l: "till" read as "until": an exploit that landed may show as the host's compromise, so both are waited on)
    waits = {"not": {"any": [{"host": "User3", "activity": "Exploit"}, {"host": "User3", "compromise": "any"}]}}
    assert text_problem(text, waits, {"mode": "never", "verb": "Analyse", "target": "User3"}) is not None
    assert text_problem(text, waits, {"mode": "never", "verb": "Analyse", "target": "Enterprise2"}) is None


def _atoms(predicate):
    from forge.rulebook.language.predicate import atoms_of

    return [a for a, _ in atoms_of(predicate)]


def test_unknown_malware_is_no_unknown_level():
    from forge.rulebook.language.forms import written_out
    from forge.rulebook.language.situation import state_of

    for phrase in ("a workstation w/ unknown malware on it", "any server with Unknown malware found"):
        assert state_of(written_out(phrase))[0][1] != "Unknown", phrase
    assert state_of(written_out("a workstation w/ Unknown"))[0][1] == "Unknown"


def test_no_brainer_affirms_the_move_asked():
    text = "Q: Remove Enterprise0 once it shows an exploit? A: No-brainer."
    when = {"host": "Enterprise0", "activity": "Exploit"}
    assert text_problem(text, when, _do("Remove", "Enterprise0")) is None
    found = said_in_words(text)
    assert found is not None and found[1].mode == "do", found
    refused = "Q: Remove Enterprise0 once it shows an exploit? A: No-go."
    assert text_problem(refused, when, _do("Remove", "Enterprise0")) is not None
