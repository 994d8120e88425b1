"""Issue 29, round 40 (r40g): what the first wave left of rules kept semantic whose condition is a host class and
what the evidence shows.

- A condition part of which is what the evidence shows: the rest, once that is taken away, read whole (a state of
  the host at hand), or, where it keeps the rule to one class of host ("a user workstation", "the host you inspect is
  an ops machine") and says nothing more, some host of that class shown; all evidence, some host
  (`condition.evidence_rest`). judged.py judges the evidence; the claims read nothing there before, and a rule whose
  compiled predicate was refused stayed silent everywhere.
- The evidence is that class's hosts' (retrieve._judged_of): a shell on another class's host meets no such condition.
- "its row is <state>" is the host's row, as "its row shows <state>" was (`scope._THE_HOST`).
- A class host the words only put a move off on ("advise its Remove over a Restore") disputes another teacher's
  order there (said._forbidden_where_claimed): read as no dispute, both spoke.

Sentences of our own, none from a case file. Checked by running this file against an export of 20c74e3 (`git archive
20c74e3`, `evidence_rest` stubbed to None there): every test fails there but the two that keep the reading to its
limits (`..._is_not_this_reading`, `..._lost_is_no_any_host`); the second failed on this change before its class guard
(a shorthand class word the condition lost was read as any host, harm on another split).
"""

from __future__ import annotations

from forge.rulebook.language.condition import evidence_rest, semantic_claims
from forge.rulebook.language.guard import complete_claims
from forge.rulebook.language.rule_claims import rule_claims
from forge.rulebook.language.judged import evidence_tests
from forge.rulebook.language.predicate import Atom, truth
from forge.rulebook.language.said import said_in_words
from forge.rulebook.language.situation import read_situation
from forge.rulebook.model import RuleRecord, RuleType
from forge.rulebook.retrieval.retrieve import _judged_of

_REFUSED = "predicate refused: always: a check"
USER_SHELL = "a user workstation showing a reverse shell in the analyses this step -> plan its Remove"
OPS_SHELL = "When the host you inspect is an ops machine and its evidence lists a reverse shell, advise a Remove of it over a Restore."


def _chooser(*blocks: tuple[str, str]) -> str:
    """A chooser's context whose analyses report these (host, evidence) blocks; each host in the situation too."""
    rows = ", ".join(f"{h} shows Activity Exploit, Compromised User" for h, _ in blocks)
    analyses = "\n".join(f"Host: {h}\nActivity: Exploit\nCompromise: User\nEvidence: {e}\nRisk: high\n" for h, e in blocks)
    return f"Situation (from the Planner): {rows}\n\nAnalyses this step:\n{analyses}"


SHELL = "reverse shell: local port 50000 -> remote port 4444"
QUIET = "nothing unusual"


def test_a_class_and_the_evidence_read_the_class():
    assert evidence_rest(USER_SHELL) == Atom(host_class="User")
    assert evidence_rest(OPS_SHELL) == Atom(host_class="Operational")
    # (a refused rule is held to that: no longer a predicate that never holds)
    assert semantic_claims(OPS_SHELL, _REFUSED) == Atom(host_class="Operational")


def test_a_class_with_a_state_or_a_negation_or_no_evidence_is_not_this_reading():
    assert evidence_rest("a user workstation that is not compromised yet shows a reverse shell -> Remove it") is None
    assert evidence_rest("a user workstation -> Remove it") is None
    assert evidence_rest("a user workstation or an ops machine with a reverse shell -> Remove it") is None


def test_a_state_and_the_evidence_read_the_state():
    # (what is left once the evidence is taken away is read as any condition is, whole or not at all)
    text = "Once the inspected box sits at Unknown and its evidence has no dropper file, advise an Analyse, not a Restore."
    assert evidence_rest(text) == Atom(host_class="any", compromise="Unknown")
    assert semantic_claims(text, _REFUSED) == Atom(host_class="any", compromise="Unknown")
    assert evidence_rest("an enterprise server at root and gone quiet with a reverse shell -> Remove it") is None


def test_a_condition_all_of_evidence_is_some_host_shown():
    # (the evidence is judged; nothing is left for the claims, and no claim at all kept the refused rule silent)
    text = "When the evidence shows eight or more connections to local port 3389, advise a DecoySSHD on that machine."
    assert evidence_rest(text) == Atom(host_class="any")
    assert semantic_claims(text, _REFUSED) == Atom(host_class="any")


def test_the_order_s_lead_is_no_analysis_this_step_reports():
    # ("for the box under analysis" leads the order; only the condition's evidence is taken away)
    text = "For the box under analysis, if it reads Unknown and its evidence has a reverse shell, advise a Remove."
    assert evidence_rest(text) == Atom(host_class="any", compromise="Unknown")


def test_the_class_is_some_host_of_it_shown():
    context = _chooser(("User3", SHELL))
    assert truth(evidence_rest(USER_SHELL), read_situation(context)) is True


def test_the_evidence_is_of_a_host_of_that_class():
    record = RuleRecord("r1", USER_SHELL, RuleType.CONTENT, ("action_chooser",), "g", compiled_by="model",
                        semantic_reason=_REFUSED)
    shell, = _judged_of(record, True, "")
    on_user = _chooser(("User3", SHELL))
    on_enterprise = _chooser(("User3", QUIET), ("Enterprise1", SHELL))
    assert shell.value(on_user, read_situation(on_user)) is True
    assert shell.value(on_enterprise, read_situation(on_enterprise)) is False


def test_a_move_put_off_on_a_class_host_with_evidence_is_a_dispute():
    said = said_in_words(OPS_SHELL)
    assert said is not None
    when, action = said
    assert when == Atom(host_class="Operational")
    assert action.move.verb == "Restore" and action.mode in ("never", "prefer")


def test_its_row_is_a_state_is_the_host_s_row():
    # ("its row shows ..." was read; "its row is ..." was not, and the whole condition stayed unread)
    text = "When its row is Privileged, advise a Restore of it."
    found = rule_claims(text, with_instruction=True)
    assert found == Atom(host_class="any", compromise="Privileged")
    assert complete_claims(text, found)


def test_a_class_word_the_condition_lost_is_no_any_host():
    # (the wording's condition may start past a shorthand class word; the whole text still names the class)
    assert evidence_rest("ent box w/ a reverse shell per the evidence -> risk high, advise Remove.") is None


def test_the_system_named_before_its_noun_is_the_os():
    test, = [t for t in evidence_tests("a scanned-only box on a Linux OS") if t.kind == "os"]
    assert test.word == "linux"
    text = "analysed machine scanned only + Windows OS -> advise a DecoyTomcat on it"
    assert evidence_rest(text) == Atom(host_class="any", activity="Scan", compromise="No")
