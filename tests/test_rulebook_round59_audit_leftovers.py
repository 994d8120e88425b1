"""Issue 29, round 59 (r59d): an audit of r59l's new readers, probed with sentences of our own. Each test is a reading
wider than its words on a6c9d54:
- the attacker's "they" on one box (situation.ATTACKER_THEY) was also read as the several hosts a "they" may stand for:
  the box was no longer the one host the sentence names but any host, and the order held wherever a host fell; and a
  "they" that the text's own people may be ("the analysts ... once they are in the box") was read as the attacker;
- a claim waved away with what it is said of (rule_claims.CONCESSION, "no matter what the lead says about Op_Host1,")
  swallowed a condition of the rule's own inside it ("... about Op_Host1 when it is rooted, Restore it"): the order held
  in any state."""

from __future__ import annotations

from tests.situations import refused_rule_holds_on

_ROOTED = "None/Privileged"


def test_the_attackers_they_on_one_box_is_no_host_but_that_one() -> None:
    for text, host, other in (("Once they're on the box, Restore User4.", "User4", "User1"),
                              ("Restore Op_Host1 as soon as they are on the machine.", "Op_Host1", "Enterprise1"),
                              ("When they get into the server, Enterprise2 is to be Restored.", "Enterprise2", "Op_Host2")):
        # another host fallen is not "the box" (read as several hosts, "the box" became "a box": any host)
        assert refused_rule_holds_on(text, **{other: _ROOTED}) is not True, text
        assert refused_rule_holds_on(text) is not True, text


def test_a_they_the_texts_people_may_be_is_no_attacker() -> None:
    for text, host in (("The analysts take User3 first; once they are in the box, Restore User3.", "User3"),
                       ("Our responders handle Op_Host1. Once they're on the machine, don't Restore Op_Host1.", "Op_Host1")):
        # the people on the box say nothing of a compromise: neither the host's fall nor another's is the condition
        assert refused_rule_holds_on(text, **{host: _ROOTED}) is not True, text
        assert refused_rule_holds_on(text, User1=_ROOTED) is not True, text


def test_a_concession_about_a_host_ends_before_a_condition_of_the_rules_own() -> None:
    for text, host in (("No matter what the lead says about Op_Host1 when it is rooted, Restore it.", "Op_Host1"),
                       ("Whatever the scanner claims of User2 once User2 is rooted, Restore User2.", "User2"),
                       ("Regardless of what the analyst says about Enterprise1 if it is rooted, Remove the attacker "
                        "from Enterprise1.", "Enterprise1")):
        # the Restore waits on the host's fall (waved away with the claim, it held on a quiet network)
        assert refused_rule_holds_on(text) is not True, text
        assert refused_rule_holds_on(text, User1=_ROOTED) is not True, text
    # the claim waved away alone stays no condition: the order holds whatever the analyst says
    assert refused_rule_holds_on("No matter what the analyst claims about User1 being clean, Restore User1.") is True


def test_a_revert_body_that_speaks_of_the_change_taken_back_orders_nothing() -> None:
    from forge.rulebook.language.minutes import request_turned_down

    for text in ('Revert "Never Restore Op_Host1"\n\nThis reverts commit ab12cd3. Never Restore Op_Host1 was too strict.',
                 'Revert "Never Restore Op_Host1"\n\nThis reverts commit ab12cd3: do not Restore Op_Host1 was a mistake.',
                 "Revert 'Remove the attacker from User1 on any scan'\n\nThis reverts commit 9e8d7c6. Removing on every "
                 "scan wasted steps."):
        # the body tells why the change is taken back: a withdrawal (read as the note's order, the ban withdrawn stood)
        assert request_turned_down(text), text
        assert refused_rule_holds_on(text, Op_Host1=_ROOTED) is not True, text
        assert refused_rule_holds_on(text, User1="Scan/No") is not True, text


def test_a_ban_until_the_move_is_needed_is_no_plain_never() -> None:
    from forge.rulebook.authoring.checks import text_problem

    for text, host in (("Don't Restore Enterprise1 before it is needed.", "Enterprise1"),
                       ("Never Remove the attacker from Op_Host2 before it's necessary.", "Op_Host2")):
        # the ban lifts once the move is called for: a "never" wherever the host is shown is wider in time
        verb = "Restore" if "Restore" in text else "Remove"
        assert text_problem(text, {"host": host}, {"mode": "never", "verb": verb, "target": host}) is not None, text
