"""Issue 29, twenty-fourth round (r24h, blind21's misses with the reference compiler): a note's scan said seen, and
no more ("probe spotted, nothing else", "scan seen, nothing more") is that host scanned and no more (Activity Scan,
Compromised No). It was read as a negation of the scan, the opposite, so a faithful predicate was refused (`claims`).
Sentences of our own, not the case files'."""

from __future__ import annotations

from forge.rulebook.authoring.checks import text_problem
from forge.rulebook.language.rule_claims import rule_claims
from forge.rulebook.language.predicate import atoms_of


def _claimed(text: str):
    found = rule_claims(text, with_instruction=True, bare=False)
    assert found is not None, text
    return [(atom, negated) for atom, negated in atoms_of(found)]


def test_a_scan_seen_and_nothing_more_is_a_scan_only():
    found = _claimed("ent servers: scan spotted, nothing else -> Analyse that host")
    assert found and all(not negated and atom.activity == "Scan" and atom.compromise == "No" for atom, negated in found)


def test_a_named_hosts_scan_seen_is_a_scan_only():
    (atom, negated), = _claimed("Enterprise1: scan noticed and nothing more -> DecoyApache on Enterprise1")
    assert (atom.host, atom.activity, atom.compromise, negated) == ("Enterprise1", "Scan", "No", False)


def test_a_faithful_predicate_of_a_scan_seen_passes():
    text = "enterprise hosts, except Enterprise0: scan seen, nothing more -> DecoyApache on that host"
    when = {"any": [{"host": h, "activity": "Scan", "compromise": "No"} for h in ("Enterprise1", "Enterprise2")]}
    assert text_problem(text, when, {"mode": "do", "verb": "DecoyApache", "target": "$matched"}) is None


def test_nothing_more_going_on_is_still_the_quiet_network():
    # (guard: "nothing more is going on" after a scan is not the scan's restriction)
    found = rule_claims("If User1 shows a scan seen and nothing more is going on, Sleep.", with_instruction=True, bare=False)
    assert found is None or not any(atom.compromise == "No" and atom.host == "User1" and atom.activity == "Scan"
                                    for atom, _ in atoms_of(found))
