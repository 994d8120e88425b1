"""Round 59 (r59l): readings earlier rounds' audits found wrong and left, each as a class.

Each test states the class in sentences of its own and fails on 359342f.
"""

from forge.rulebook.authoring.checks import text_problem
from forge.rulebook.language.rule_claims import rule_claims


def _do(verb, target):
    return {"mode": "do", "verb": verb, "target": target}


def _never(verb, target):
    return {"mode": "never", "verb": verb, "target": target}


def _levels(found):
    from forge.rulebook.language.predicate import atoms_of

    return {atom.compromise for atom, _ in atoms_of(found)} if found is not None else set()


def test_a_claim_waved_away_with_what_it_is_about_is_no_condition():
    for text, host in (("No matter what the night shift says about User2 being clean, Remove User2.", "User2"),
                       ("Whatever our intern claims about Enterprise0 being fine, Restore Enterprise0.", "Enterprise0")):
        found = rule_claims(text, with_instruction=True)
        assert "No" not in _levels(found), (text, found)
    # (a state the rule itself says after the claim stays its condition)
    kept = "Regardless of what the lead says about Op_Host0 being fine, Restore Op_Host0 when it is rooted."
    assert _levels(rule_claims(kept, with_instruction=True)) == {"Privileged"}


def test_an_order_lasting_until_the_writer_says_otherwise_restricts_nothing():
    for text, host, verb in (("Restore Enterprise2 until I tell you otherwise.", "Enterprise2", "Restore"),
                             ("Keep Removing User4, till we say so.", "User4", "Remove")):
        assert text_problem(text, {"host": host}, _do(verb, host)) is None, text


def test_a_ban_said_ahead_of_its_time_is_no_plain_never_nor_a_never_of_the_event():
    for text, host, verb in (("Never Restore Op_Host1 ahead of time.", "Op_Host1", "Restore"),
                             ("Please don't Remove User2 in advance; wait for the exploit.", "User2", "Remove"),
                             ("Do not Restore Enterprise1 prematurely.", "Enterprise1", "Restore")):
        assert text_problem(text, {"host": host}, _never(verb, host)) is not None, text
    waited = "Please don't Remove User2 in advance; wait for the exploit."
    assert text_problem(waited, {"host": "User2", "activity": "Exploit"}, _never("Remove", "User2")) is not None
    # (a ban with no time on it stays a plain never)
    assert text_problem("Never Restore Op_Host1.", {"host": "Op_Host1"}, _never("Restore", "Op_Host1")) is None


def test_a_revert_commit_withdraws_the_order_it_quotes():
    from forge.rulebook.language.minutes import request_turned_down

    bare = 'Revert "Never Restore User2"\n\nThis reverts commit 9f8e7d6.'
    assert request_turned_down(bare)
    assert text_problem(bare, {"host": "User2"}, _never("Restore", "User2")) is not None
    assert text_problem(bare, {"host": "User2"}, _do("Restore", "User2")) is not None
    # (an order the message gives after the revert is its own, no polarity doubt from the word "revert")
    instead = ("Revert 'Analyse Enterprise1 whenever it is scanned'\n\nThis reverts a1b2c3d: that Analyse never paid. "
               "From here on, Enterprise1 scanned -> a decoy there instead.")
    assert not request_turned_down(instead)
    assert text_problem(instead, {"host": "Enterprise1", "activity": "Scan"}, _do("Decoy", "Enterprise1")) is None


def test_a_count_of_events_said_in_other_words_is_history():
    for text, when, verb, host in (
            ("Remove Enterprise1 once it has been exploited two times.", {"host": "Enterprise1", "activity": "Exploit"},
             "Remove", "Enterprise1"),
            ("Should User0 get hit by an exploit more than once, Restore it.", {"host": "User0", "activity": "Exploit"},
             "Restore", "User0"),
            ("Restore Op_Host2 when it is owned a second time.", {"host": "Op_Host2", "compromise": "any"}, "Restore", "Op_Host2")):
        assert text_problem(text, when, _do(verb, host)) is not None, text


def test_a_class_said_as_its_ones_after_other_than_is_the_class_set_apart():
    denied = "Machines apart from the enterprise ones are excluded: Analyse whatever gets scanned."
    assert text_problem(denied, {"activity": "Scan"}, _do("Analyse", "$matched")) is not None
    assert text_problem(denied, {"class": "Enterprise", "activity": "Scan"}, _do("Analyse", "$matched")) is None
    left = "Remove any box that shows an exploit, except the op ones."
    assert text_problem(left, {"activity": "Exploit"}, _do("Remove", "$matched")) is not None


def test_a_host_set_apart_that_the_condition_speaks_of_is_its_subject():
    for text, cls, host, level in (
            ("Each op box other than Op_Host2: when Op_Host2 gets owned, Remove them.", "Operational", "Op_Host2", "any"),
            ("Every user machine apart from User3: as soon as User3 is rooted, Analyse them.", "User", "User3", "Privileged")):
        when = {"all": [{"class": cls, "compromise": level}, {"not": {"host": host}}]}
        assert text_problem(text, when, _do("Remove" if cls == "Operational" else "Analyse", "$matched")) is not None, text


def test_the_attacker_said_they_on_the_box_is_a_compromise():
    for text, host in (("Once they're on the box, plan a Restore of User4.", "User4"),
                       ("When they are on Enterprise2, schedule a Restore of it.", "Enterprise2")):
        assert text_problem(text, {"host": host}, _do("Restore", host)) is not None, text

