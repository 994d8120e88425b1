"""Issue 29, fourteenth round (i29w): readings that let a rule fire where its own words say it does not apply (the
surrogate compiler's harms on blind11), each class on sentences written for these tests.

- *A class, then a host denied on its own after a comma* ("enterprise machines, not Enterprise1 though: ..."): the
  host was no exception, and the order's "it" was taken for it, so the rule was read as being about that host alone.
- *"the table shows ..." said to the analyst*: the table is the analysed host's row, whichever host it is; the reader
  read no subject, so a predicate that dropped the state ("any host") was judged by nothing.
- *"<evidence> means <finding>, so <order>"*: the evidence (connections on a port) is the order's condition, a kind of
  fact no predicate states; a predicate on the host alone was accepted and fired on any evidence.
"""
from __future__ import annotations

from forge.rulebook.authoring.checks import text_problem
from forge.rulebook.language.condition import text_claims
from forge.rulebook.language.facts import facts_needed
from forge.rulebook.language.predicate import atoms_of, truth
from forge.rulebook.language.wording import read_wording
from tests.situations import alert_rows


# -- a class, then ", not <host> (though)" ------------------------------------------------------------------------------

DENIED = "enterprise machines, not Enterprise1 though: any of them w/ Activity Exploit -> Remove it."


def test_a_host_denied_after_a_class_is_excepted() -> None:
    assert read_wording(DENIED).excepted == ("Enterprise1",)
    assert read_wording("User hosts, but not User4: when one shows a Scan, Analyse it.").excepted == ("User4",)
    # an order contrasted with another host is no class's exception
    assert read_wording("Restore User1, not User3.").excepted == ()


def test_the_denied_host_is_not_what_the_rule_claims() -> None:
    found, _ = text_claims(DENIED)
    assert found is None or all(atom.host != "Enterprise1" for atom, _ in atoms_of(found))
    assert truth(found, alert_rows(("Enterprise1", "Exploit", "User"))) is not True if found is not None else True


# -- "the table shows ..." ----------------------------------------------------------------------------------------------

TABLE = "Whichever host you are looking at, when the table shows Compromised Privileged, note it and recommend a Restore."


def test_the_table_said_to_the_analyst_is_the_analysed_hosts_row() -> None:
    found, _ = text_claims(TABLE)
    assert found is not None
    assert truth(found, alert_rows(("Enterprise2", "None", "Privileged"))) is True
    assert truth(found, alert_rows(("Enterprise2", "Exploit", "User"))) is not True
    found, _ = text_claims("If its row shows Activity Scan, recommend a decoy.")
    assert found is not None and truth(found, alert_rows(("User2", "None", "User"))) is not True


# -- "<evidence> means <finding>, so <order>" ---------------------------------------------------------------------------

MEANS = "On Enterprise1, repeated connections to remote port 8080 from the box mean a beacon, so recommend a Remove of Enterprise1."


def test_connections_on_a_port_are_a_fact_no_predicate_states() -> None:
    assert "traffic" in facts_needed("if there are connections on local port 22 from one address")
    assert "traffic" in facts_needed("a connection to remote port 4444")


def test_the_evidence_that_means_a_finding_is_the_orders_condition() -> None:
    problem = text_problem(MEANS, {"host": "Enterprise1"}, {"mode": "do", "verb": "Remove", "target": "Enterprise1"})
    assert problem is not None and problem.startswith("facts")
    # a plain order on a host is still accepted
    assert text_problem("Remove Enterprise1 whenever it shows Activity Exploit.", {"host": "Enterprise1", "activity": "Exploit"},
                        {"mode": "do", "verb": "Remove", "target": "Enterprise1"}) is None


# -- the semantic reader: "<host> at Unknown", "scanned only" (blind11's semantic/checked misses) -------------------------


def test_a_host_at_unknown_is_at_compromised_unknown() -> None:
    found, whole = text_claims("Enterprise1 at Unknown: Analyse it again, no Remove.")
    assert found is not None and whole
    assert truth(found, alert_rows(("Enterprise1", "None", "Unknown"))) is True
    assert truth(found, alert_rows(("Enterprise1", "None", "User"))) is False


def test_only_after_what_it_limits_is_only() -> None:
    found, whole = text_claims("E2 scanned only -> DecoyApache E2.")
    assert found is not None and whole
    assert truth(found, alert_rows(("Enterprise2", "Scan", "No"))) is True
    assert truth(found, alert_rows(("Enterprise2", "Scan", "User"))) is False
