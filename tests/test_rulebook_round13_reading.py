"""Issue 29, thirteenth round: readings that let a rule fire where its own words say it does not apply, and readings
that kept a rule silent where its words apply. Each class on sentences written for these tests.

- *A guarded rule's rest said "compromised"* ("at least two enterprise servers compromised") was met by a row at
  Compromised Unknown, where the same words in a rule kept semantic (or a predicate held to its text) are not.
- *"&" and "+" between clauses* ("User3 probed & nothing compromised anywhere") joined two clauses into one: the second
  one's state was taken for the first host's ("User3 probed and clean"), and the reading called itself whole.
"""

from __future__ import annotations

from forge.rulebook.language.condition import guard_claims, text_claims
from forge.rulebook.language.predicate import parse_predicate, truth
from forge.rulebook.language.situation import read_situation


def _rows(*rows: tuple[str, str, str]):
    return read_situation("Alerts:\n" + "\n".join(f"{h}: Activity {a}, Compromised {c}" for h, a, c in rows))


def _table(*rows: tuple[str, str, str]):
    """The blue table: every host quiet but `rows`."""
    shown = {h: (a, c) for h, a, c in rows}
    hosts = ["Defender", "Enterprise0", "Enterprise1", "Enterprise2", "Op_Host0", "Op_Host1", "Op_Host2", "Op_Server0",
             "User0", "User1", "User2", "User3", "User4"]
    lines = [f"{h} | 10.0.0.0/28 | 10.0.0.{i} | {shown.get(h, ('None', 'No'))[0]} | {shown.get(h, ('None', 'No'))[1]}"
             for i, h in enumerate(hosts)]
    return read_situation("Hostname | Subnet | IP | Activity | Compromised\n" + "\n".join(lines))


# -- a guarded rule's rest said "compromised" ---------------------------------------------------------------------------

ENTERPRISE_COMPROMISED = parse_predicate({"any": [{"class": "Enterprise", "compromise": "User"},
                                                  {"class": "Enterprise", "compromise": "Privileged"}]})


def test_a_guard_that_counts_compromised_hosts_is_not_met_by_an_unknown_row() -> None:
    guard = guard_claims("at least two enterprise servers compromised", ENTERPRISE_COMPROMISED)
    one_and_unknown = _rows(("Enterprise0", "None", "User"), ("Enterprise2", "None", "Unknown"))
    assert truth(guard, one_and_unknown) is not True
    assert truth(guard, _rows(("Enterprise0", "None", "User"), ("Enterprise2", "Exploit", "Privileged"))) is True


def test_a_guard_that_says_a_named_host_is_compromised_is_not_met_by_its_unknown_row() -> None:
    when = parse_predicate({"host": "Op_Host1", "activity": "Scan"})
    guard = guard_claims("only when Op_Server0 is compromised too", when)
    assert truth(guard, _rows(("Op_Host1", "Scan", "No"), ("Op_Server0", "None", "Unknown"))) is not True
    assert truth(guard, _rows(("Op_Host1", "Scan", "No"), ("Op_Server0", "None", "User"))) is True


# -- "&" and "+" between clauses ----------------------------------------------------------------------------------------


def test_an_ampersand_between_clauses_joins_two_clauses() -> None:
    found, whole = text_claims("User3 probed & nothing compromised anywhere -> DecoyTomcat User3.")
    assert found is not None and whole
    # the rest of the network is not clean: "nothing compromised anywhere" does not hold
    assert truth(found, _table(("User3", "Scan", "No"), ("Op_Host2", "None", "Privileged"))) is not True
    assert truth(found, _table(("User3", "Scan", "No"))) is True


def test_a_plus_between_clauses_joins_two_clauses() -> None:
    found, whole = text_claims("Enterprise0 probed + nothing compromised on the network -> DecoyTomcat Enterprise0.")
    assert found is not None and whole
    assert truth(found, _table(("Enterprise0", "Scan", "No"), ("User4", "None", "User"))) is not True
    assert truth(found, _table(("Enterprise0", "Scan", "No"))) is True
