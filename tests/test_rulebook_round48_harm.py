"""Issue 29, round 48 (r48h: harm on blind-45, each class a reading that left out part of the rule's own words, so a
compilation wider than the words passed the product's checks, or a rule kept semantic fired where its words say it does
not apply).
- an example after "like" / "such as" / "for example" ends at a colon: "Treat X like a vault: the moment it is hit, ..."
  took the rule's own clause for the example's, its condition was lost, and a decision passed as a rule on the reply's
  form that reached every call (`compile._EXAMPLE`, `compile.format_problem`);
- "<situation> means you plan / recommend a <move>" (the one addressed, a modal or a Planner's or Analyst's verb before
  the move) is the order in that situation, as "<situation> means <move>" was: read as no order, the situation was no
  condition and a predicate of the bare host passed (`forbidding.MEANS_ADDRESSED`);
- "<host> gets / needs / receives no <move>" forbids the move on that host, not everywhere (`forbidding._said_of_subject`);
  and "<host> gets no <move> from this note" leaves the host out of the note, as "this rule does not apply to <host>"
  does (`instruction.EXCEPTED_ALONE`);
- a list of cases under "Where this does not hold:" / "Exceptions:" leaves out each host that opens a case
  (`clauses.listed_exceptions`);
- "REASON, so when X, ORDER" gives the order with its condition where the reason names a host but says no state of it
  (who answers for it): read as the whole rule, its order was lost (`order._general_reason`);
- a heading that calls itself a note for a role ("a memo to the planner", "... memo to the chooser, and ... agrees") is
  no situation of the rule, and "note for the chooser" is no scope "For the chooser" (`instruction._addressed`,
  `forms._SCOPE_LABEL`).
Each test fails on the product files of aad7623 (checked: this file run in a `git archive aad7623` tree). Sentences of
our own, none from a case file."""

from __future__ import annotations

from forge.rulebook.authoring.checks import text_problem
from forge.rulebook.authoring.compile import format_problem, looks_like_format
from forge.rulebook.language.wording import read_wording
from tests.actions import do
from tests.situations import alert_lines, refused_rule_holds


def test_an_example_after_like_ends_at_a_colon() -> None:
    for text in ("Handle Enterprise2 like a vault: as soon as it reads Compromised User, Remove it and nothing else.",
                 "Guard User4 like gold: the instant it is exploited, Restore User4, nothing else that turn."):
        assert format_problem(text) is not None, text
        assert not looks_like_format(text), text
    # an example of the reply's form is still no subject of it
    assert looks_like_format("Answer in one line, like this: Analyse User3.")
    assert looks_like_format("Reply with the move alone, for example: Remove User1.")


def test_means_you_plan_a_move_is_the_order_in_that_situation() -> None:
    text = "On User1 under review, a Compromised Privileged row means you recommend a Restore."
    words = read_wording(text)
    assert words.gives_order and any("Compromised Privileged" in c.text for c in words.conditions)
    # the bare host is wider than the words; the state they say is not
    assert text_problem(text, {"host": "User1"}, do("Restore", "User1")) is not None
    assert text_problem(text, {"host": "User1", "compromise": "Privileged"}, do("Restore", "User1")) is None
    said = read_wording("A scan on Op_Host2 means we plan a decoy there.")
    assert said.gives_order and [c.text for c in said.conditions] == ["A scan on Op_Host2"]
    assert not read_wording("Reimaging it means you lose the running services.").gives_order


def test_a_host_that_gets_no_move_is_the_prohibitions_host() -> None:
    for text, host, verb in (("Enterprise0 gets no Restore.", "Enterprise0", "Restore"),
                             ("Op_Host2 needs no decoy at all.", "Op_Host2", "Decoy"),
                             ("User1 should receive no Remove.", "User1", "Remove")):
        found = read_wording(text).prohibitions
        assert [(p.verb, p.hosts) for p in found] == [(verb, (host,))], text
    # an order of the move on another host is then no opposite of the text
    text = "Restore Enterprise1 once it is owned; Enterprise0 needs no Restore."
    assert text_problem(text, {"host": "Enterprise1", "compromise": "any"}, do("Restore", "Enterprise1")) is None


def test_a_host_that_gets_nothing_from_this_note_is_left_out() -> None:
    text = "Decoy any user box that is being scanned. User0 gets no decoy out of this note, it is a lab machine."
    assert read_wording(text).excepted == ("User0",)
    assert refused_rule_holds(text, alert_lines(User0="Scan/No")) is not True
    assert refused_rule_holds(text, alert_lines(User2="Scan/No")) is True
    assert read_wording("Remove the attacker from any owned op host. This rule gives Op_Host1 nothing.").excepted == ("Op_Host1",)


def test_a_list_of_cases_where_the_rule_does_not_hold_leaves_out_its_hosts() -> None:
    text = ("Remove the attacker from every user box at Compromised User. Where this does not hold: - User2, which "
            "another teacher covers; - a box at Privileged, which needs more than a Remove.")
    assert read_wording(text).excepted == ("User2",)
    assert refused_rule_holds(text, alert_lines(User2="None/User")) is not True
    assert refused_rule_holds(text, alert_lines(User4="None/User")) is True
    assert read_wording("Restore any owned op host. Exceptions: Op_Host0 and Op_Host1.").excepted == ("Op_Host0", "Op_Host1")
    assert read_wording("Restore any owned op host. This note does not apply to: Op_Server0.").excepted == ("Op_Server0",)


def test_a_reason_naming_a_host_with_no_state_before_so_when_gives_the_order() -> None:
    text = ("The blue lead looks after Op_Host1 personally, so when Op_Host1 reads Activity Scan and no compromise, "
            "plant a DecoySSHD there.")
    words = read_wording(text)
    assert [c.text for c in words.conditions] == ["when Op_Host1 reads Activity Scan and no compromise"]
    assert refused_rule_holds(text, alert_lines(Op_Host1="Scan/No")) is True
    assert refused_rule_holds(text, alert_lines(Op_Host1="Exploit/User")) is not True


def test_a_heading_that_is_a_note_for_a_role_is_no_situation() -> None:
    for text in ("A note for the planner: when User4 is scanned, plan a decoy on it.",
                 "Night crew memo to the chooser, and the morning crew agrees: when User4 is scanned, decoy it."):
        words = read_wording(text)
        assert [c.text for c in words.conditions] == ["when User4 is scanned"], text
        assert refused_rule_holds(text, alert_lines(User4="Scan/No")) is True, text
