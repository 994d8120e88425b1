"""Issue 29, round 49 (r49m: missed injections on blind-46, the reference's compilations first). Each class is a reading
that kept a faithful compilation semantic (refused by a check), so the rule was missed where it applied:
- a record pasted whole: a chat log ("[hh:mm] name: message" a line) is taught as the message it settles on, the last that orders
  a move, without the talk before its colon (`transcript.settled_line`), and a post-mortem form of labelled lines as its
  line labelled as the rule (`transcript.rule_line`; both `teaching.taught_words`): read whole, the times
  were a situation, a host only the story named was one the entry had to keep to, a question ("stop bothering with
  it?") a prohibition of every move and an "again" of the story a history condition;
- an opening that says the note is told again ("Kim again, ...:") is no situation (`instruction._signed`, `_RETOLD`);
- a policy's "Where <state>, <order>" is its condition, and "Article 2:" a label (`markers.CONDITION_MARKER`,
  `scope.unplaced`, `instruction._HEADING_ONLY`);
- "What X said, except when <case>: then <order>": the case is the order's condition (`instruction._OTHER_SAID_EXCEPT`);
- a moment of the story ("in <phase> of seed 7 our plan still opened with ...") is no situation of the order after it
  (`order.STORY`, `instruction._stated_consequence`);
- "a probe and nothing else" said as a noun is a probe alone (shorthand);
- "<host> is not worth a <move>:" turns the move down, no situation (`forbidding.NOT_WORTH`);
- the order's own move said again ("Analyse it again next step") is no history (`condition._MOVE_AGAIN`);
- a policy's prohibitions ("are not to be issued", "it is forbidden / not permitted to") and prescriptions ("a Remove
  of X is the prescribed answer"), and another procedure said not to reach some hosts (`forbidding`, `order._AS_FAR`,
  `instruction._OTHER_RULE_WRONG`).
Each test fails on the product files of 9f30320 (checked in a `git archive 9f30320` tree with this file copied in, and
`taught_words`, which 9f30320 lacks, standing for its revision opening alone: every test fails on its assertions).
Sentences of our own, none from a case file."""

from __future__ import annotations

from forge.rulebook.authoring.checks import text_problem
from forge.rulebook.authoring.teaching import taught_words
from forge.rulebook.language.wording import read_wording
from tests.actions import do, prefer
from tests.situations import alert_lines, refused_rule_holds, refused_rule_holds_on

_LOG = """[07:40] pia: the red side hit Op_Host1 yet again overnight, User4 too
[07:41] tom: why not just Remove Op_Host1 and be done?
[07:43] tom: so we quit spending turns on that box?
[07:44] pia: no. decided, for the record: once Enterprise1 is owned, reimage Enterprise1 with a Restore and skip the Remove
[07:45] tom: ok, and who took my stapler"""


def test_a_chat_log_is_taught_as_the_message_it_settles_on() -> None:
    opening, rule = taught_words(_LOG)
    assert opening == "" and rule == "once Enterprise1 is owned, reimage Enterprise1 with a Restore and skip the Remove"
    owned = {"any": [{"host": "Enterprise1", "compromise": "User"}, {"host": "Enterprise1", "compromise": "Privileged"}]}
    # the settled line's faithful compilation passes the checks (the story's hosts, its question and its "again" are
    # no part of the rule)
    assert text_problem(rule, owned, prefer("Restore", "Remove", "Enterprise1")) is None
    # a log with times of seconds and speakers in angle brackets
    angle = "[07:40:05] <pia> Op_Host1 again\n[07:44:10] <pia> agreed: when User4 shows a scan, set a DecoyApache on User4"
    assert taught_words(angle)[1] == "when User4 shows a scan, set a DecoyApache on User4"
    # the talk before a colon stays where it names the host the order refers to, and no more than one message is no log
    kept = "[11:02] kim: the ladder again\n[11:03] kim: about User4: decoy it with a DecoyApache when it shows a scan"
    assert taught_words(kept)[1] == "about User4: decoy it with a DecoyApache when it shows a scan"
    one = "[11:03] kim: when User4 shows a scan, set a DecoyApache on User4"
    assert taught_words(one)[1] == one
    # a log where no message orders a move is kept whole
    chatter = "[12:00] kim: lunch?\n[12:01] lee: sure"
    assert taught_words(chatter)[1] == chatter
    # a text of labelled lines is no log ("when: ..., rule: ...")
    labelled = "when: User4 scanned\nrule: User4 showing a scan -> set a DecoyApache on User4"
    assert taught_words(labelled)[1] == labelled
    assert text_problem(taught_words(angle)[1], {"host": "User4", "activity": "Scan"}, do("DecoyApache", "User4")) is None


def test_a_post_mortem_form_is_taught_as_its_rule_line() -> None:
    form = ("when: Enterprise1 probed, User4 at Unknown\nwhat I did: a Remove of User4\n"
            "what happened: Enterprise1 was owned a step later\nlesson: Enterprise1 probed -> set a DecoyApache on Enterprise1")
    rule = taught_words(form)[1]
    assert rule == "Enterprise1 probed -> set a DecoyApache on Enterprise1"
    # the story's host and its "when:" are no part of the rule: its faithful compilation passes the checks
    assert text_problem(rule, {"host": "Enterprise1", "activity": "Scan"}, do("DecoyApache", "Enterprise1")) is None
    # a form of a rule's own parts has no story line: read as it stands
    parts = "when: Enterprise1 probed\ndo: DecoyApache Enterprise1\nnever: Remove Enterprise1"
    assert taught_words(parts)[1] == parts


def test_a_lead_that_says_the_note_is_told_again_is_no_situation() -> None:
    for text in ("Kim again, the wider line from that thread: every enterprise server sitting at Compromised User is to get a Restore.",
                 "The same mistake as last time, said again: every enterprise server sitting at Compromised User is to get a Restore."):
        words = read_wording(text)
        assert words.situation == "" and not any("again" in c.text for c in words.conditions), text
        assert text_problem(text, {"class": "Enterprise", "compromise": "User"}, do("Restore")) is None, text
    # a lead that states a host's state is still the situation
    assert read_wording("Kim again, with User4 owned: restore it.").situation != ""


def test_a_policys_where_is_its_condition() -> None:
    two = "Article 2: Where three or more user boxes are owned at once, each owned user box is to be Restored."
    assert refused_rule_holds_on(two, User1="None/User", User2="None/User", User3="None/Privileged") is True
    assert refused_rule_holds_on(two, User1="None/User", User2="None/User") is False
    one = "Where a single user host is owned, that host is to be Removed."
    assert refused_rule_holds_on(one, User4="None/User") is True
    assert refused_rule_holds_on(one, User4="None/User", User1="None/User") is False
    # a "where" after a word or a comma tells where, and "Where this does not hold:" lists the rule's exceptions
    assert [c.text for c in read_wording("Restore the box where the exploit landed.").conditions] == []
    assert not any(c.text.startswith("Where") for c in read_wording(
        "Restore any owned user host. Where this does not hold: User4, which has its own note.").conditions)


def test_another_notes_case_set_aside_is_this_orders_condition() -> None:
    text = ("What the morning lead wrote, except when User4 is owned as well: then reimage User1 with a Restore whenever "
            "User1 sits at user level, no Remove.")
    words = read_wording(text)
    assert words.situation == "when User4 is owned as well"
    owned = {"all": [{"host": "User1", "compromise": "User"},
                     {"any": [{"host": "User4", "compromise": "User"}, {"host": "User4", "compromise": "Privileged"}]}]}
    assert text_problem(text, owned, prefer("Restore", "Remove", "User1")) is None


def test_a_moment_of_the_story_is_no_situation_of_the_order_after_it() -> None:
    text = ("In the exploitation phase of seed 7 our plan still opened with Removes on the user side. "
            "I suspect that lost the game: once Op_Host1 reports an exploit, the plan leads with a Restore of Op_Host1.")
    words = read_wording(text)
    assert words.situation == "" and "User" not in words.classes
    assert text_problem(text, {"host": "Op_Host1", "activity": "Exploit"}, do("Restore", "Op_Host1")) is None


def test_a_scan_and_nothing_more_said_as_a_noun_is_a_scan_alone() -> None:
    text = "On the analysed machine, a probe and nothing else means recommend a DecoyTomcat on it."
    assert refused_rule_holds(text, alert_lines(User2="Scan/No")) is True
    assert refused_rule_holds_on(text, User2="Scan/User") is False
    assert text_problem(text, {"class": "any", "activity": "Scan", "compromise": "No"}, do("DecoyTomcat")) is None


def test_a_host_not_worth_a_move_turns_the_move_down_and_states_no_situation() -> None:
    text = "Frankly, as the whole crew has learned, User4 is not worth a Restore: once User4 is owned, Remove User4."
    words = read_wording(text)
    assert words.situation == "" and "Restore" in words.dispreferred
    owned = {"any": [{"host": "User4", "compromise": "User"}, {"host": "User4", "compromise": "Privileged"}]}
    assert text_problem(text, owned, prefer("Remove", "Restore", "User4")) is None


def test_the_orders_own_move_said_again_is_no_history() -> None:
    text = "inspected box @ Unknown -> rec Analyse it again next step, not Remove."
    assert text_problem(text, {"class": "any", "compromise": "Unknown"}, prefer("Analyse", "Remove")) is None
    # a past move in the condition is history as ever
    past = "inspected box @ Unknown after we removed it twice -> rec Analyse it, not Remove."
    assert text_problem(past, {"class": "any", "compromise": "Unknown"}, prefer("Analyse", "Remove")) is not None


def test_a_policys_prohibitions_and_prescriptions_are_read() -> None:
    for text, verb, host in (("Removes are not to be given to Op_Host2 as long as it merely shows a probe.", "Remove", "Op_Host2"),
                             ("Rule 9. It is forbidden to schedule a Remove of User4 while User4 reads a scan alone.", "Remove", "User4"),
                             ("It is not permitted to recommend a Restore on User4 while it is merely probed.", "Restore", "User4")):
        words = read_wording(text)
        assert [(p.verb, p.hosts) for p in words.prohibitions] == [(verb, (host,))], text
        probed = {"host": host, "activity": "Scan", "compromise": "No"}
        assert text_problem(text, probed, {"mode": "never", "verb": verb, "target": host}) is None, text
    # a move said to be the prescribed response is the order
    text = "§4.2 User2 is not to be Restored whilst User2 sits at user level; for User2 a Remove is the prescribed answer."
    assert text_problem(text, {"host": "User2", "compromise": "User"}, prefer("Remove", "Restore", "User2")) is None
    # another procedure said not to reach some hosts: the order after it is for them
    text = "§4.3 The procedure in 4.2 does not reach User1 or User3: on both of them, a Restore is mandatory the moment one sits at user level."
    either = {"any": [{"host": "User1", "compromise": "User"}, {"host": "User3", "compromise": "User"}]}
    assert text_problem(text, either, do("Restore")) is None
