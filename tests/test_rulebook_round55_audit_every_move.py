"""Round 55 (r55a): an audit of r55h's house norm said of nobody (forbidding.ANY_VERB, "nobody touches <host>") and of
the prohibitions of every move around it. The norm is the text's own where it opens a sentence or a clause, in a sentence
that asks nothing; asked, quoted or told in a story it forbids nothing, and read as a prohibition it turned the order the
text gives on that host into its opposite. A prohibition of every move narrowed by what follows it is no prohibition of
every move: every move but one ("except to put a decoy on it", "anything but a Remove") lets that one, and one move named
("never spend a step on an Analyse of X") forbids that one alone."""

import pytest

from forge.rulebook.authoring.checks import text_problem
from forge.rulebook.language.action import ANY_VERB
from forge.rulebook.language.said import said_in_words
from forge.rulebook.language.wording import read_wording


def _on(verb, target, mode="do"):
    return {"mode": mode, "verb": verb, "target": target}


def _every_move_banned(text):
    return [p for p in read_wording(text).prohibitions if p.verb is None]


@pytest.mark.parametrize("text, when, verb, host", [
    # quoted, then the order the text gives
    ("Our old lead used to say 'nobody touches Enterprise1', and red kept it for ten steps. Remove Enterprise1 when it "
     "shows user access.", {"host": "Enterprise1", "compromise": "User"}, "Remove", "Enterprise1"),
    # told as a past house rule, then the order
    ("There was a team rule that no one touches User3, and it cost us the box. Restore User3 when it is rooted.",
     {"host": "User3", "compromise": "Privileged"}, "Restore", "User3"),
])
def test_a_norm_of_nobody_quoted_or_told_forbids_nothing(text, when, verb, host):
    assert not _every_move_banned(text), text
    assert text_problem(text, when, _on(verb, host)) is None, text
    said = said_in_words(text)
    assert said is None or said[1].mode != "never", text


def test_a_norm_of_nobody_asked_forbids_nothing():
    text = "Does no one touch Op_Host2 while it is scanned?"
    assert not _every_move_banned(text)
    said = said_in_words(text)
    assert said is None or said[1].move.verb != ANY_VERB


def test_every_move_but_one_lets_that_one():
    for text, when, verb, host in (
            ("No one touches Op_Host0 except to put a decoy on it while it is scanned.",
             {"host": "Op_Host0", "activity": "Scan"}, "DecoyApache", "Op_Host0"),
            ("Never spend a step on anything but a Remove while User4 shows user access.",
             {"host": "User4", "compromise": "User"}, "Remove", "User4")):
        assert not _every_move_banned(text), text
        # (a "never" of every move there is not the text)
        assert text_problem(text, when, _on(ANY_VERB, host, "never")) is not None, text


def test_one_move_named_after_a_ban_of_spending_is_that_move_alone():
    text = "Never waste a turn on an Analyse of Enterprise2 while it is rooted; Restore it."
    assert not _every_move_banned(text)
    assert "Analyse" in {p.verb for p in read_wording(text).prohibitions}
    said = said_in_words(text)
    assert said is None or said[1].move.verb != ANY_VERB


def test_the_norm_said_plainly_still_forbids_every_move():
    for text in ("Nobody touches Op_Host2 while it shows a scan: red is meant to find it.",
                 "When Op_Host2 is probed, no one is to lay a finger on it."):
        assert [p.hosts for p in _every_move_banned(text)] and \
            text_problem(text, {"host": "Op_Host2", "activity": "Scan"}, _on("DecoyApache", "Op_Host2")) is not None, text


def test_a_never_of_every_move_the_text_forbids_nowhere_is_refused():
    text = "No one minds if you act on Enterprise0 when it shows a scan."
    assert text_problem(text, {"host": "Enterprise0", "activity": "Scan"}, _on(ANY_VERB, "$matched", "never")) is not None


def test_the_host_a_ban_of_every_move_waits_on_is_no_place_of_it():
    # the condition's host is to be cleaned: its Restore is the text's, a "never" of every move on it is its opposite
    for text, host in (("No one is to touch Enterprise1 until Op_Server0 is clean again; Restore Op_Server0 when it is "
                        "rooted.", "Op_Server0"),
                       ("Don't touch User4 before Enterprise0 is restored; Restore Enterprise0 when it is rooted.", "Enterprise0")):
        assert all(host not in p.hosts for p in _every_move_banned(text)), text
        assert text_problem(text, {"host": host, "compromise": "Privileged"}, _on("Restore", host)) is None, text


def test_a_story_that_quotes_a_norm_of_nobody_gives_no_order():
    from forge.rulebook.language.order import gives_order

    # (told, it is no instruction: dropped as a story is, not kept as a rule)
    assert not gives_order("Back then the team lived by 'no one touches Enterprise2', and red kept the box all episode.")
    assert not gives_order("We had an unwritten rule that nobody touches User3, and it got rooted twice.")
    assert gives_order("No one touches User3 as long as red is merely probing it.")
