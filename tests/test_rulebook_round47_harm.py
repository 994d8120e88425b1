"""Issue 29, round 47 (r47h: harm on blind-44, each class a reading wider than the rule's own words, or a withdrawn rule
let back in by a rewording).
- "with nothing running" / "with nothing going on" joined to a host's state, no place named, is that host's quiet row
  (Activity None): read as "nothing" alone, no host anywhere was active, or the phrase was dropped and the rule held on
  the host's row in any activity; and "nothing running" is no run of steps (it made the condition one of history)
  (`shorthand._NOTHING_ON_IT`, `clauses._QUIET_AFTER_LEVEL`, `facts.FACTS` history);
- "a plain Restore will not do", "Analyse won't suffice": the move falls short, as "won't do the job" did; read as no
  dispreference, a rule withdrawn and then retold in those words was another rule (`forbidding.FALLS_SHORT`);
- a host said hit and denied root ("exploited but not rooted") and the same host hit at user level are one teacher's
  words for one rule: a withdrawn rule so reworded came back (`curation._same_claims`, `_root_denied_as_user`);
- an FAQ's "Q: <situation>? A: <order>" is the order under that situation: read as it stood, a move ordered for a quiet
  network passed as a rule on the reply's form and reached every call (`forms.labelled_question_said`).
Each test fails on the product files of c5d581c (checked: this file run in a `git archive c5d581c` tree). Sentences of
our own, none from a case file."""

from __future__ import annotations

from forge.rulebook.authoring.compile import format_problem
from forge.rulebook.language.facts import facts_needed
from forge.rulebook.language.wording import read_wording
from forge.rulebook.store.curation import _same_words
from tests.situations import alert_lines, refused_rule_holds


def test_with_nothing_running_is_the_hosts_quiet_row() -> None:
    said = "Should Enterprise2 be held at the user level with nothing running, a Remove of Enterprise2 beats restoring it."
    assert refused_rule_holds(said, alert_lines(Enterprise2="None/User")) is True
    assert refused_rule_holds(said, alert_lines(Enterprise2="Exploit/User")) is False
    # (an answer's "No -" before the scope: the quiet state after the level is still read)
    said = "Is the older tip valid for Op_Host1 too? No - for Op_Host1 at root with nothing going on, Restore it over a Remove."
    assert refused_rule_holds(said, alert_lines(Op_Host1="None/Privileged")) is True
    assert refused_rule_holds(said, alert_lines(Op_Host1="Scan/Privileged")) is False
    # (a class's host: the quiet row of that host, not a network where nothing at all happens)
    said = "Whenever some user box sits at root with nothing happening, reimage it by Restore."
    assert refused_rule_holds(said, alert_lines(User3="None/Privileged", Enterprise1="Scan/No")) is True
    assert refused_rule_holds(said, alert_lines(User3="Exploit/Privileged")) is not True
    # ("nothing running" is what the row shows now, no run of steps)
    assert "history" not in facts_needed("Op_Host2 owned with nothing else running")
    assert "history" in facts_needed("Op_Host2 owned three steps running")
    # guard: "nothing running but a scan" is a scan, never the quiet row
    assert refused_rule_holds("Op_Host0 held at the user level with nothing running but a scan: Remove Op_Host0.",
                  alert_lines(Op_Host0="None/User")) is not True


def test_a_move_that_will_not_do_falls_short() -> None:
    assert "Remove" in read_wording("Op_Host0 rooted => wipe it by Restore; a plain Remove will not do.").dispreferred
    assert "Analyse" in read_wording("Enterprise1 under a scan: decoy it, an Analyse alone won't suffice.").dispreferred
    # guard: said as the condition of a fallback, no dispreference of it
    assert "Remove" not in read_wording("Try a Remove on User3; if the Remove won't do, Restore User3.").dispreferred
    # guard: "won't do" with more words after it is another sentence
    assert "Remove" not in read_wording("Remove User1 now; it won't do any harm to the plan.").dispreferred


def test_root_denied_and_user_level_are_one_rule_taught_again() -> None:
    withdrawn = "ent srv exploited but not rooted => Remove that box; a Restore is wasted there"
    assert _same_words(withdrawn, "An enterprise server exploited at user level earns a Remove from us, never a Restore.", None)
    # guard: another level is another rule
    assert not _same_words(withdrawn, "An enterprise server exploited at root earns a Remove from us, never a Restore.", None)


def test_a_labelled_question_and_answer_is_an_order_under_its_situation() -> None:
    said = "FAQ 2. Q: every host quiet, no alert anywhere? A: plan a Monitor and nothing more."
    assert format_problem(said) is not None  # a move for a situation: no rule on the reply's form
    assert refused_rule_holds(said, alert_lines(User1="None/No")) is not False
    assert refused_rule_holds(said, alert_lines(User1="Scan/No")) is False
    (condition,) = read_wording("Q: Op_Host2 exploited and at user level? A: Remove Op_Host2.").conditions
    assert condition.hosts == ("Op_Host2",)
    # guard: a question a word opens, on the reply's form, stays a FORMAT rule's words
    assert format_problem("Q: how long may a plan be? A: three lines at most.") is None
    # guard: a question that names a move, or an answer that denies, is left as it was written
    from forge.rulebook.language.forms import labelled_question_said  # (the r47h reader, imported after the checks above)

    for said in ("Q: Op_Host0 rooted, do I remove it? A: yes, then restore it.", "Q: User4 scanned? A: no, it is never worth a decoy."):
        assert labelled_question_said(said) == said
