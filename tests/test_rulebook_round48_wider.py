"""Issue 29, round 48 (r48c: compilations wider than their words that the product's checks let through, each a reading
that dropped part of the condition, so the rule would fire where its text says it does not apply).
- a span of steps said with its least count, "for 3+ steps", "two or more turns", "rooted 4+ turns" (no "for"), is the
  defender's history (`unchanged_for`): read as no history at all, a bare state passed (`history_words._HELD`,
  `facts.FACTS`);
- "only <host> <state>" with no verb ("only User4 hacked") restricts the state to that host, as "only <host> is <state>"
  did (`markers._NOT_A_RESTRICTION`, `checks._only_host`); and a case under "Exception:" that states a host's state with
  no verb ("Exception: Op_Host2 popped.") is the rule's "unless <case>" (`markers.BARE_STATE`, `clauses._listed_state`):
  both were dropped, and a predicate without the restriction passed;
- "a scan w/o exploit", "a scan (no exploit yet)", "a scan with no exploit" states the scan beside the denied exploit
  (`situation._activity_beside`), and so does "a scan on <host> w/o exploit", the state said before the host
  (`situation.host_statements`): read as the denial alone, the rule fired on a host with no scan at all.
Each test fails on the product files of 1f6e431 (checked: this file run in a `git archive 1f6e431` tree). Sentences of
our own, none from a case file."""

from __future__ import annotations

from forge.rulebook.authoring.checks import text_problem
from forge.rulebook.language.rule_claims import rule_claims
from forge.rulebook.language.wording import read_wording
from tests.actions import do
from tests.situations import refused_rule_holds_on


def test_a_span_said_with_its_least_count_is_history() -> None:
    for text, host, level, n in (("Reimage Enterprise1 after it has sat hacked for 4+ turns.", "Enterprise1", "any", 4),
                                 ("Kick the intruder off Op_Host2 if it is rooted for two or more turns.", "Op_Host2", "Privileged", 2),
                                 ("Whenever Enterprise1 pwned 3+ turns, Reimage it.", "Enterprise1", "any", 3)):
        verb = "Remove" if "Kick" in text else "Restore"
        bare = {"host": host, "compromise": level}
        assert text_problem(text, bare, do(verb, host)) is not None, text
        assert text_problem(text, {**bare, "unchanged_for": n}, do(verb, host)) is None, text
        # kept semantic, the rule cannot tell the span without history lines: it stays unknown
        assert refused_rule_holds_on(text, **{host: "None/Privileged"}) is not True, text


def test_only_a_host_in_a_state_and_an_exception_case_are_restrictions() -> None:
    text = "Reimage User4 whenever only User4 hacked."
    assert "only" in read_wording(text).conditions[0].negations
    assert text_problem(text, {"host": "User4", "compromise": "any"}, do("Restore", "User4")) is not None
    others = [h for h in ("User0", "User1", "User2", "User3", "Enterprise0", "Enterprise1", "Enterprise2", "Op_Host0",
                          "Op_Host1", "Op_Host2", "Op_Server0")]
    alone = {"all": [{"host": "User4", "compromise": "any"},
                     {"not": {"any": [{"host": h, "compromise": "any"} for h in others]}}]}
    assert text_problem(text, alone, do("Restore", "User4")) is None
    # the scope "only for User4" is still no restriction of the state
    assert "only" not in read_wording("Reimage the box once it is hacked, only for User4.").conditions[0].negations

    text = "Kick the intruder off each hacked op host. Exception: Op_Host2 popped."
    assert [c.text for c in read_wording(text).negated_conditions] == ["unless Op_Host2 popped"]
    wide = {"class": "Operational", "compromise": "any"}
    assert text_problem(text, wide, {"mode": "do", "verb": "Remove", "target": "matched"}) is not None
    narrow = {"all": [wide, {"not": {"host": "Op_Host2", "compromise": "any"}}]}
    assert text_problem(text, narrow, {"mode": "do", "verb": "Remove", "target": "matched"}) is None
    assert refused_rule_holds_on(text, Op_Host1="None/User", Op_Host2="None/User") is not True
    assert refused_rule_holds_on(text, Op_Host1="None/User") is True


def test_a_scan_beside_a_denied_exploit_is_stated() -> None:
    for text in ("Decoy Op_Host1 on a scan w/o exploit.",
                 "When Op_Host1 shows a scan (no exploit yet), decoy it.",
                 "Decoy Op_Host1 if it has a scan with no exploit so far.",
                 # the state said first, the denial after the host
                 "A scan on Op_Host1 w/o exploit means a decoy there."):
        claims = str(rule_claims(text))
        assert "activity='Scan'" in claims and "activity='Exploit'" in claims, (text, claims)
        # the denial alone is wider than the words: it fires on a quiet host
        denial = {"not": {"host": "Op_Host1", "activity": "Exploit"}}
        assert text_problem(text, denial, do("Decoy", "Op_Host1")) is not None, text
        assert refused_rule_holds_on(text, Op_Host1="None/No") is not True, text
        assert refused_rule_holds_on(text, Op_Host1="Exploit/No") is not True, text
        assert refused_rule_holds_on(text, Op_Host1="Scan/No") is True, text
