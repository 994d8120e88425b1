"""Issue 29, seventeenth round (i29h): readings that let a rule fire where its own words say it does not apply, let a
rule the resolution should have outranked speak, or refused a correct compilation (blind14's harms, outranked
injections and the reference compiler's misses), each class on sentences written for these tests.

- *A terse clause about a named host after a clause about a class* ("no user box compromised + Enterprise1 quiet"): read
  as one clause, the host's state was the class's ("no user box quiet and compromised"); and a host the conditions name
  that the claims leave out ("+ Ent1 quiet", its shorthand unread there) makes them not whole (they called themselves
  whole, and the rule fired on the class's clause alone).
- *A scope before "X calls for / means VERB"* ("On the user hosts, a root compromise calls for Restore"): the situation
  was read without its scope, so nothing was claimed and a predicate on any state of the class passed.
- *A lesson that names its move as a noun* ("the rule I'd give myself: a DecoyTomcat on User1 or User2, whichever is
  scanned"): no order was found, so a long text was cut at its first 300 characters (its story) and the story's claims
  judged the rule.
- *The verb a judgement is about* ("plan an Analyse, a Restore there is excessive"): the clause's first verb was taken
  for the one judged, so the order was read as its own prohibition.
- *A lesson said as the teacher's resolution* ("my rule from now on is that for User2 at user level I plan a Remove
  rather than a Restore"): no order, so the story before it was the rule.
- *"the move is a VERB"* after a condition with no comma: the condition ran on into the order, and took its verb.
- *"X is a better use of the turn than VERB"*: a preference over that verb.
- *"no host shows any compromise"* claims no compromise ("no host shows any activity" stays every host quiet
  only when both, or neither, are said).
- *A participle heading before a situation and its order* ("inspected box: exploit under way, ... -> rec Remove"): read as
  a report ("Analysed ..." opens a story), and "rec" is "recommend"; "user-level, no root yet" is the level, exactly.
- *"VERB and nothing else"*: the order's "only", no negation of it.
- *"sitting at" a level*; *"leave X out of the plan" as the whole order* (a prohibition of every move on X); *a semantic
  prohibition whose condition's subject is a class* disputes there.
"""
from __future__ import annotations

from forge.rulebook.authoring.checks import text_problem
from forge.rulebook.authoring.compile import MAX_DIRECTIVE_CHARS, fitted
from forge.rulebook.language.condition import semantic_claims, text_claims
from forge.rulebook.language.predicate import truth
from forge.rulebook.language.order import gives_order
from forge.rulebook.language.wording import read_wording
from tests.situations import table_rows

REFUSED = "predicate refused: host: a test's refusal"


# -- a terse clause about a named host after a clause about a class -----------------------------------------------------


def test_a_terse_host_clause_after_a_class_clause_is_its_own() -> None:
    # a host the claims leave out (here in shorthand in a condition of several subjects) makes them not the whole of it:
    # the rule is silent rather than judged by the class's clause alone
    # (r23m: a host in shorthand beside another subject is now written out and read, "Ent1 quiet" as "Enterprise1 quiet":
    # that wording is whole, and judged as the others below, never by the class's clause alone)
    for text in ("no user host compromised and Enterprise1 quiet -> plan a DecoyApache on Enterprise1",
                 "no user box compromised + Enterprise1 quiet -> plan a DecoyApache on Enterprise1",
                 "no user box compromised + Ent1 quiet -> plan a DecoyApache on Ent1"):
        found, whole = text_claims(text)
        assert whole, text
        # a user host compromised (and active): the condition is false, whatever Enterprise1 shows
        assert truth(found, table_rows(("User2", "Exploit", "User"), ("Enterprise1", "None", "No"))) is False, text
        # Enterprise1 active: false too (the host's own state was read)
        assert truth(found, table_rows(("User2", "None", "No"), ("Enterprise1", "Scan", "No"))) is False, text
        assert truth(found, table_rows(("User2", "Scan", "No"), ("Enterprise1", "None", "No"))) is True, text
    # a list of hosts that shares one state is still one clause
    found, whole = text_claims("User1 and User2 compromised -> plan a Restore of both")
    assert whole and truth(found, table_rows(("User1", "None", "User"), ("User2", "None", "No"))) is False


# -- a scope before "X calls for VERB" -----------------------------------------------------------------------------------

SCOPED = "On the user hosts, a root compromise calls for Restore."


def test_a_scope_before_a_situation_that_calls_for_a_verb_is_its_subject() -> None:
    found, whole = text_claims(SCOPED)
    assert whole
    assert truth(found, table_rows(("User3", "None", "Privileged"))) is True
    assert truth(found, table_rows(("User3", "Scan", "No"))) is False
    assert truth(found, table_rows(("Enterprise0", "None", "Privileged"))) is False
    problem = text_problem(SCOPED, {"class": "User", "activity": "any"}, {"mode": "do", "verb": "Restore", "target": "$matched"})
    assert problem is not None and problem.startswith("claims"), problem
    assert text_problem(SCOPED, {"class": "User", "compromise": "Privileged"},
                        {"mode": "do", "verb": "Restore", "target": "$matched"}) is None


# -- a lesson that names its move as a noun ------------------------------------------------------------------------------

NOUN = ("The user side lit up with scans all through the middle of the run, and every time I reached for a Monitor, telling "
        "myself the Defender was probably the noisy one and the user boxes would settle down by themselves. They did not "
        "settle, and User2 fell two steps later. The rule I'd give myself: a DecoyTomcat on User1 or User2, whichever is "
        "scanned, and leave the Defender out of it.")


def test_a_lesson_that_names_its_move_as_a_noun_is_the_order() -> None:
    assert len(NOUN) > MAX_DIRECTIVE_CHARS
    words = read_wording(NOUN)
    assert words.instruction.startswith("A DecoyTomcat on User1 or User2"), words.instruction
    directive = fitted(NOUN)
    assert directive.startswith("A DecoyTomcat"), directive
    found = semantic_claims(directive, REFUSED, NOUN)
    assert truth(found, table_rows(("User2", "Scan", "No"))) is True
    # the story's hosts are no part of it: the Defender scanned, no user host scanned
    assert truth(found, table_rows(("Defender", "Scan", "No"), ("User2", "None", "User"))) is not True


# -- the verb a judgement is about --------------------------------------------------------------------------------------

JUDGED = "Op hosts at user level: plan an Analyse, a Restore there is excessive."


def test_the_verb_judged_is_the_subject_of_the_judgement() -> None:
    words = read_wording(JUDGED)
    assert [p.verb for p in words.prohibitions] == ["Restore"], words.prohibitions
    assert text_problem(JUDGED, {"class": "Operational", "compromise": "User"},
                        {"mode": "prefer", "verb": "Analyse", "target": "$matched",
                         "over": {"verb": "Restore", "target": "$matched"}}) is None
    # a judgement with no comma before it judges the clause's first verb, as before
    assert [p.verb for p in read_wording("Restoring Op_Host1 after a Remove is excessive.").prohibitions] == ["Restore"]


# -- a lesson said as the teacher's resolution --------------------------------------------------------------------------

RESOLVED = ("Each time User2 came up at user level I planned a Restore, and each Restore took the host away for a while. "
            "My rule from now on is that for User2 at user level I plan a Remove rather than a Restore.")


def test_a_lesson_said_as_the_teachers_resolution_is_the_order() -> None:
    words = read_wording(RESOLVED)
    assert words.instruction.lower().startswith("for user2 at user level, plan a remove"), words.instruction
    assert "Restore" in words.dispreferred
    assert text_problem(RESOLVED, {"host": "User2", "compromise": "User"},
                        {"mode": "prefer", "verb": "Remove", "target": "User2", "over": {"verb": "Restore", "target": "User2"}}) is None


# -- "the move is a VERB" ends the condition ----------------------------------------------------------------------------

MOVE = ("I watched Op_Host1 get scanned twice and did nothing. I think that when Op_Host1 shows a scan the right move is a "
        "DecoyVsftpd on Op_Host1, not an Analyse.")


def test_the_move_is_a_verb_opens_the_main_clause() -> None:
    words = read_wording(MOVE)
    assert [c.text for c in words.conditions] == ["when Op_Host1 shows a scan"], words.conditions
    assert text_problem(MOVE, {"host": "Op_Host1", "activity": "Scan"},
                        {"mode": "prefer", "verb": "DecoyVsftpd", "target": "Op_Host1",
                         "over": {"verb": "Analyse", "target": "Op_Host1"}}) is None


# -- "a better use of the turn than VERB" -------------------------------------------------------------------------------


def test_a_better_use_of_the_turn_than_a_verb_disprefers_it() -> None:
    text = "While User4 is clean, a DecoySSHD on User4 is a better use of the turn than monitoring."
    assert read_wording(text).dispreferred == ("Monitor",)
    assert text_problem(text, {"host": "User4", "compromise": "No"},
                        {"mode": "prefer", "verb": "DecoySSHD", "target": "User4", "over": {"verb": "Monitor", "target": "any"}}) is None


# -- "no host shows any compromise" / "any activity" --------------------------------------------------------------------


def test_no_host_showing_one_column_claims_that_column() -> None:
    scanned, compromised = table_rows(("User1", "Scan", "No")), table_rows(("User1", "None", "User"))
    found, whole = text_claims("As long as no machine shows any compromise, plan a DecoySSHD on User1.")
    assert whole and truth(found, scanned) is True and truth(found, compromised) is False
    # ("no host shows any activity" stays the quiet network, as documented: compromised and scanned rows both deny it)
    found, whole = text_claims("As long as no machine shows any activity, plan a DecoySSHD on User1.")
    assert whole and truth(found, compromised) is False and truth(found, scanned) is False
    found, whole = text_claims("As long as no machine shows any activity or compromise, plan a DecoySSHD on User1.")
    assert whole and truth(found, compromised) is False and truth(found, scanned) is False


# -- a participle heading, then the situation and its order -------------------------------------------------------------

HEADED = "inspected box: exploit under way, user-level, no root yet -> rec Remove"


def test_a_participle_heading_before_the_situation_and_its_order() -> None:
    words = read_wording(HEADED)
    assert words.gives_order
    assert words.instruction == "recommend Remove", words.instruction
    assert text_problem(HEADED, {"class": "any", "activity": "Exploit", "compromise": "User"},
                        {"mode": "do", "verb": "Remove", "target": "$matched"}) is None
    # a report in a participle before a colon is still none
    assert not gives_order("Restored Op_Host2 at step 9: it came straight back.")


# -- "VERB and nothing else" --------------------------------------------------------------------------------------------


def test_a_verb_and_nothing_else_is_the_orders_only() -> None:
    text = "When nothing is compromised on the user side, plan a DecoyApache on User0 and nothing else."
    assert text_problem(text, {"not": {"class": "User", "compromise": "any"}},
                        {"mode": "do", "verb": "DecoyApache", "target": "User0"}) is None


# -- "sitting at user level" --------------------------------------------------------------------------------------------


def test_a_host_sitting_at_a_level_is_at_that_level() -> None:
    found, whole = text_claims("Enterprise hosts sitting at user level: plan a Remove on them.")
    assert whole
    assert truth(found, table_rows(("Enterprise2", "None", "User"))) is True
    assert truth(found, table_rows(("Enterprise2", "None", "Privileged"))) is False


# -- "leave X out of the plan" as the whole order -----------------------------------------------------------------------

LEFT_OUT = "Leave Op_Host2 out of the plan as long as it only shows a scan."


def test_leaving_a_host_out_as_the_whole_order_forbids_every_move_on_it() -> None:
    from forge.rulebook.language.said import said_in_words

    words = read_wording(LEFT_OUT)
    assert [(p.verb, p.hosts) for p in words.prohibitions] == [(None, ("Op_Host2",))], words.prohibitions
    when, action = said_in_words(LEFT_OUT)
    assert (action.mode, action.move.verb) == ("never", "any")
    assert truth(when, table_rows(("Op_Host2", "Scan", "No"))) is True
    # beside an order about more hosts it is still an exception, no prohibition
    words = read_wording("When a user host is exploited, remove the attacker from it; leave User3 out of it.")
    assert words.excepted == ("User3",) and not words.prohibitions


# -- a semantic prohibition whose condition's subject is a class --------------------------------------------------------


def test_a_prohibition_on_the_class_its_condition_describes_says_where_it_disputes() -> None:
    from forge.rulebook.language.said import said_in_words

    text = "Enterprise hosts sitting at user level: plan a Remove, a Restore there is excessive."
    when, action = said_in_words(text)
    assert (action.mode, action.move.verb, action.move.target) == ("never", "Restore", "$matched")
    assert truth(when, table_rows(("Enterprise1", "None", "User"))) is True
    assert truth(when, table_rows(("Enterprise1", "None", "Privileged"))) is False
