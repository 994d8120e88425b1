"""Issue 29, round 49 (r49m: missed injections on blind-46, the reference's compilations first). Each class is a reading
that kept a faithful compilation semantic (refused by a check), so the rule was missed where it applied:
- a record pasted whole: a chat log ("[hh:mm] name: message" a line) is taught as the message it settles on, the last that orders
  a move, without the talk before its colon (`transcript.settled_line`), and a post-mortem form of labelled lines as its
  line labelled as the rule (`transcript.rule_line`; both `teaching.taught_words`): read whole, the times
  were a situation, a host only the story named was one the entry had to keep to, a question ("stop bothering with
  it?") a prohibition of every move and an "again" of the story a history condition.
Each test fails on the product files of 9f30320 (checked in a `git archive 9f30320` tree with this file copied in).
Sentences of our own, none from a case file."""

from __future__ import annotations

from forge.rulebook.authoring.checks import text_problem
from forge.rulebook.authoring.teaching import taught_words
from tests.actions import do, prefer

_LOG = """[07:40] pia: the red side hit Op_Host1 yet again overnight, User4 too
[07:41] tom: why not just Remove Op_Host1 and be done?
[07:43] tom: so we quit spending turns on that box?
[07:44] pia: no. decided, for the record: once Enterprise1 is owned, plan a Restore of Enterprise1, not a Remove
[07:45] tom: ok, and who took my stapler"""


def test_a_chat_log_is_taught_as_the_message_it_settles_on() -> None:
    opening, rule = taught_words(_LOG)
    assert opening == "" and rule == "once Enterprise1 is owned, plan a Restore of Enterprise1, not a Remove"
    owned = {"any": [{"host": "Enterprise1", "compromise": "User"}, {"host": "Enterprise1", "compromise": "Privileged"}]}
    # the settled line's faithful compilation passes the checks (the story's hosts, its question and its "again" are
    # no part of the rule)
    assert text_problem(rule, owned, prefer("Restore", "Remove", "Enterprise1")) is None
    # a log with times of seconds and speakers in angle brackets
    angle = "[07:40:05] <pia> Op_Host1 again\n[07:44:10] <pia> agreed: when User4 shows a scan, plan a DecoyApache on User4"
    assert taught_words(angle)[1] == "when User4 shows a scan, plan a DecoyApache on User4"
    # the talk before a colon stays where it names the host the order refers to, and no more than one message is no log
    kept = "[11:02] kim: the ladder again\n[11:03] kim: about User4: decoy it with a DecoyApache when it shows a scan"
    assert taught_words(kept)[1] == "about User4: decoy it with a DecoyApache when it shows a scan"
    one = "[11:03] kim: when User4 shows a scan, plan a DecoyApache on User4"
    assert taught_words(one)[1] == one
    # a log where no message orders a move is kept whole
    chatter = "[12:00] kim: lunch?\n[12:01] lee: sure"
    assert taught_words(chatter)[1] == chatter
    # a text of labelled lines is no log ("when: ..., rule: ...")
    labelled = "when: User4 scanned\nrule: User4 showing a scan -> plan a DecoyApache on User4"
    assert taught_words(labelled)[1] == labelled
    assert text_problem(taught_words(angle)[1], {"host": "User4", "activity": "Scan"}, do("DecoyApache", "User4")) is None


def test_a_post_mortem_form_is_taught_as_its_rule_line() -> None:
    form = ("when: Enterprise1 probed, User4 at Unknown\nwhat I did: a Remove of User4\n"
            "what happened: Enterprise1 was owned a step later\nlesson: Enterprise1 probed -> plan a DecoyApache on Enterprise1")
    rule = taught_words(form)[1]
    assert rule == "Enterprise1 probed -> plan a DecoyApache on Enterprise1"
    # the story's host and its "when:" are no part of the rule: its faithful compilation passes the checks
    assert text_problem(rule, {"host": "Enterprise1", "activity": "Scan"}, do("DecoyApache", "Enterprise1")) is None
    # a form of a rule's own parts has no story line: read as it stands
    parts = "when: Enterprise1 probed\ndo: DecoyApache Enterprise1\nnever: Remove Enterprise1"
    assert taught_words(parts)[1] == parts
