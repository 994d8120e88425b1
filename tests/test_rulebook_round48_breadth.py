"""Issue 29, round 48 (r48b: a second review audit for over-breadth). Each class is a reading that made a rule wider than
its words (a state lost, a limit read as a ban, a prohibition placed on every host), or its opposite:
- "<move> alone won't suffice / won't do on <host> at <state>, so <other move>": where the move falls short is where the
  other one is ordered (`order.falls_short_scope`, used by `_so_order` and `_situation_told_first`; "won't do on ..."
  is a move falling short, `_FALLS_SHORT`): dropped with the reason, a predicate of the bare host passed;
- "<host> gets no more than one <move>", "<host> gets no warning before a <move>": a limit, or something said of the time
  around the move, and no ban of it (`forbidding._LIMIT_NOT_BAN`): read as one, a compiled "never" passed;
- "<host> gets no <move> and no <other move>": the second "no" is said of the same subject (`_NO_MOVE_JOINED`), and "...
  and <host> gets no <move>" of its own (`_NEXT_SUBJECT`): read alone, the second move was forbidden on every host;
- "<situation> means you might / could / may plan a <move>": no order (as "you might plan ... when ..." is none), but its
  situation is the one the words speak of (`_MEANS`): read as none, a predicate of the bare host passed;
- a case of a list of exceptions that states a host's state ("Where this does not hold: - User0 is rooted at the same
  time"): a negated condition of the rule (`clauses._listed_state`), no host left out: read as the host excepted, the rule
  fired on its own host while the listed state held; so is the state a sentence says the rule does not hold in ("This
  does not hold while User2 is rooted", `_NOT_HOLDING_WHILE`).
Each test fails on the product files of 4ccbcc1 (checked in a `git archive 4ccbcc1` tree with this file copied in).
Sentences of our own, none from a case file."""

from __future__ import annotations

from forge.rulebook.authoring.checks import text_problem
from forge.rulebook.language.wording import read_wording
from tests.actions import do, never
from tests.situations import alert_lines, refused_rule_holds


def test_where_a_move_falls_short_is_where_the_other_is_ordered() -> None:
    for text, host in (("A Remove alone won't suffice on User1 at root, so add a Restore.", "User1"),
                       ("A lone Remove won't do on Op_Host2 at root, so plan a Restore.", "Op_Host2"),
                       ("On Enterprise1 at root level, a Remove will not cut it, so restore it.", "Enterprise1"),
                       ("Remove won't do on User3 at root; restore it.", "User3")):
        words = read_wording(text)
        assert any(host in c.hosts or "it" in c.text for c in words.conditions), text
        assert not words.negated_conditions, text  # (the move's "won't" is no denial of the state)
        assert text_problem(text, {"host": host}, do("Restore", host)) is not None, text
        assert text_problem(text, {"host": host, "compromise": "Privileged"}, do("Restore", host)) is None, text
        assert refused_rule_holds(text, alert_lines(**{host: "None/User"})) is not True, text
        assert refused_rule_holds(text, alert_lines(**{host: "None/Privileged"})) is True, text
    # a move that falls short with no place said keeps no condition of its own
    assert not read_wording("A Remove alone won't suffice, so add a Restore.").conditions


def test_a_limit_on_a_move_is_no_ban_of_it() -> None:
    for text, verb, host in (("User1 gets no more than one Restore.", "Restore", "User1"),
                             ("Op_Host0 gets no warning before a Restore.", "Restore", "Op_Host0"),
                             ("Never more than two decoys on Enterprise2.", "DecoyApache", "Enterprise2")):
        assert not read_wording(text).prohibitions, text
        assert text_problem(text, {"host": host}, never(verb, host)) is not None, text
    # a ban said with its time, or of one more, is still a ban
    for text in ("User1 gets no Restore before step 5.", "User1 gets no further Restore."):
        assert [(p.verb, p.hosts) for p in read_wording(text).prohibitions] == [("Restore", ("User1",))], text


def test_a_second_no_move_is_said_of_its_own_subject() -> None:
    for text in ("Enterprise0 gets no Restore and no Remove.", "Enterprise0 needs no Restore, no Remove."):
        found = [(p.verb, p.hosts) for p in read_wording(text).prohibitions]
        assert found == [("Restore", ("Enterprise0",)), ("Remove", ("Enterprise0",))], text
        assert text_problem(text, {"host": "User3", "compromise": "any"}, do("Remove", "User3")) is not None, text
    found = [(p.verb, p.hosts) for p in read_wording("Enterprise2 gets no Restore and User3 gets no Remove.").prohibitions]
    assert found == [("Restore", ("Enterprise2",)), ("Remove", ("User3",))]
    # a subject of two hosts is both
    assert [(p.verb, p.hosts) for p in read_wording("User1 and User2 get no Remove.").prohibitions] == \
        [("Remove", ("User1", "User2"))]


def test_a_hedged_means_is_no_order_but_keeps_its_situation() -> None:
    for text in ("A probe of Op_Host2 means you might plan a decoy on it.",
                 "A probe of Op_Host2 means we could plan a decoy there.",
                 "A probe of Op_Host2 means we may decoy it."):
        words = read_wording(text)
        assert not words.gives_order, text
        assert [c.text for c in words.conditions] == ["A probe of Op_Host2"], text
        assert text_problem(text, {"host": "Op_Host2"}, do("DecoyApache", "Op_Host2")) is not None, text
    # said without the hedge, the order stands with the same situation
    said = read_wording("A probe of Op_Host2 means you should plan a decoy on it.")
    assert said.gives_order and [c.text for c in said.conditions] == ["A probe of Op_Host2"]


def test_a_listed_exception_that_states_a_state_is_a_negated_condition() -> None:
    text = "Once User4 is owned, remove it. Where this does not hold:\n- User0 is rooted at the same time."
    words = read_wording(text)
    assert "User0" not in words.excepted
    assert any("User0" in c.hosts and c.negations for c in words.conditions)
    assert refused_rule_holds(text, alert_lines(User4="None/User", User0="None/Privileged")) is not True
    assert refused_rule_holds(text, alert_lines(User4="None/User", User0="None/No")) is True
    assert text_problem(text, {"host": "User4", "compromise": "any"}, do("Remove", "User4")) is not None
    # so is the state a sentence of its own says the rule does not hold in
    said = "Once User4 is owned, remove it. The rule won't apply while User0 is rooted."
    assert any("User0" in c.hosts and c.negations for c in read_wording(said).conditions)
    assert text_problem(said, {"host": "User4", "compromise": "any"}, do("Remove", "User4")) is not None
    # a case that names a host and says no state of it still leaves the host out
    kept = "Remove any owned user host. Exceptions: - User2, which another crew looks after."
    assert read_wording(kept).excepted == ("User2",)
