"""Issue 29, twenty-second round (r22m): readings that kept a rule silent where its own words say it applies
(blind18's missed injections with the default compiler that the reference compiler does not share), each class on
sentences written for these tests.

- *An order on how the reply opens or closes* ("Begin each answer with the host's name"): no imperative the wording
  knew, so a compiler's DROP of it was accepted ("not an instruction") and the rule was lost; kept as written, it is a
  FORMAT rule (words of the reply's form), unless what it opens with is a move or a host ("begin the plan with a Remove
  of User2" orders what to decide).
- *A class heading that excepts a host* ("ent servers, not Enterprise0 though: scan -> Analyse it"): the heading was
  dropped as a whole (it is negated), so the state after it was said of nothing, and "it" was read as the excepted
  host (the only one the text names): the claims were the excepted host's, then excepted away, so the rule was silent.
  The class stands as the scope, without its exception; an exception in brackets ("user hosts (not User3)") is one
  too (it was read as the host the claims were about: the opposite).
"""
from __future__ import annotations

from forge.rulebook.authoring.compile import _entry, looks_like_format
from forge.rulebook.language.condition import semantic_claims
from forge.rulebook.language.rule_claims import rule_claims
from forge.rulebook.language.predicate import truth
from forge.rulebook.language.wording import read_wording
from forge.rulebook.model import CompileVerdict, RuleType, SourceItem
from tests.situations import alert_rows

REFUSED = "predicate refused: class: a test's refusal"


# -- an order on how the reply opens or closes ----------------------------------------------------------------------------

OPENINGS = ("Begin each answer with the host's name in bold.",
            "Open every recommendation with a one-word verdict.",
            "Conclude the analysis with the confidence you have, as a percentage.",
            "Finish each reply with the words END OF REPORT.")


def test_an_order_on_how_the_reply_opens_or_closes_gives_an_order() -> None:
    for text in OPENINGS:
        assert read_wording(text).gives_order, text
    # (a report of what was done opens nothing)
    assert not read_wording("I started the report with the wrong host last time.").gives_order


def test_an_order_on_how_the_reply_opens_or_closes_is_a_format_rule() -> None:
    for text in OPENINGS:
        assert looks_like_format(text), text
    # what it opens with is a move, or a host: an order on what to decide, not the reply's form
    for text in ("Begin the plan with a Remove of User2.", "Start every plan with Restore.",
                 "When User1 is scanned, open the reply with ALERT."):
        assert not looks_like_format(text), text


def test_a_dropped_order_on_the_reply_s_opening_is_kept_as_format() -> None:
    item = SourceItem("correction", "analyst", "Begin each answer with the host's name in bold.", "user:test")
    rule, problem = _entry(item, {"item": 1, "verdict": "DROP", "reason": "not an instruction"})
    assert problem is None
    assert rule.verdict == CompileVerdict.RULE and rule.type == RuleType.FORMAT, rule


# -- a class heading that excepts a host ----------------------------------------------------------------------------------

def test_a_class_heading_with_its_exception_scopes_the_terse_state() -> None:
    for text in ("ent servers, not Enterprise0 though: scan -> Analyse it",
                 "Enterprise hosts except Enterprise0: scanned -> Analyse it",
                 "enterprise boxes (not Enterprise0): scan -> Analyse it"):
        claims = semantic_claims(text, REFUSED)
        assert truth(claims, alert_rows(("Enterprise1", "Scan", "No"))) is True, text
        assert truth(claims, alert_rows(("Enterprise0", "Scan", "No"))) is not True, text
        assert truth(claims, alert_rows(("User1", "Scan", "No"))) is not True, text
        assert truth(claims, alert_rows(("Enterprise1", "None", "No"))) is not True, text


def test_the_claims_of_a_class_heading_are_never_the_excepted_host_s() -> None:
    found = rule_claims("user machines, not User0 though: exploit -> Remove it")
    assert found is not None and "User0" not in repr(found), found
    # (a host a heading names outside its exception keeps the heading out of the scope, as before)
    assert read_wording("User1 and user hosts, not User3: exploit -> Remove it").situation != "User1 and user hosts: exploit"
