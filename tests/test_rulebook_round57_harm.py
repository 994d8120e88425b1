"""Round 57 (r57h): the classes behind blind-54's harmful injections (semantic rules whose gate let them speak).

- a condition that opens with a host's own state keeps that state, though the order is set against the host;
- a sentence that says what a word of the note means ("root is for Privileged only") states no situation;
- "the other two <class>" leaves out the hosts the text names elsewhere, and the host the count leaves over;
- an order that picks among a heading's hosts by their state ("whichever one is rooted") holds of that state only.
"""

from __future__ import annotations

from forge.rulebook.language.condition import semantic_claims
from forge.rulebook.language.predicate import truth
from forge.rulebook.language.situation import read_situation


def _gate(text: str):
    return semantic_claims(text, "predicate refused: claims", text)


def _shown(*rows: str):
    """The alerts of a context, one row per "Host activity level" (the table's own words filled in here)."""
    lines = []
    for row in rows:
        host, activity, level = row.split()
        lines.append(f"{host}: Activity {activity}, Compromised {level}")
    return read_situation("Alerts:\n" + "\n".join(lines))


def test_a_state_said_first_of_the_contrasted_host_stays_in_the_condition() -> None:
    text = "If Op_Server0 has been compromised while some other box shows an exploit, Remove the exploited box, not Op_Server0."
    found = _gate(text)
    assert truth(found, _shown("User3 Exploit User", "Op_Server0 None No")) is not True
    assert truth(found, _shown("User3 Exploit User",
                               "Op_Server0 None Privileged")) is True


def test_a_word_defined_before_the_order_is_no_situation() -> None:
    text = "Planner: 'admin' is reserved for Privileged. Anything short of admin on Op_Server0 is to be planned as user level, never as admin."
    found = _gate(text)
    assert truth(found, _shown("Op_Server0 None Privileged")) is not True
    assert truth(found, _shown("Op_Server0 None User")) is True
    from forge.rulebook.language.glossary import defines_word

    assert defines_word("admin is reserved for Privileged")
    assert defines_word("the term owned refers to User or Privileged")
    assert not defines_word("Op_Server0 is for the finance team")
    assert not defines_word("Restore is for hosts at root")


def test_the_other_counted_hosts_leave_out_the_ones_named_before() -> None:
    text = "Enterprise0 is looked after by another team. For the remaining two enterprise servers, a DecoyTomcat whenever they get scanned."
    found = _gate(text)
    for row in ("Enterprise0 Scan No", "Defender Scan No"):
        assert truth(found, _shown(row)) is not True, row
    assert truth(found, _shown("Enterprise2 Scan No")) is True
    counted = _gate("User2 is a honeypot of ours. For the other four user boxes, an Analyse once they show an exploit.")
    assert truth(counted, _shown("User2 Exploit User")) is not True
    assert truth(counted, _shown("User4 Exploit User")) is True


def test_an_order_picking_among_listed_hosts_by_state_needs_that_state() -> None:
    for text, other, picked in (
            ("User2-User4: Remove whichever one of those gets exploited.", "User3 Scan No",
             "User3 Exploit User"),
            ("Enterprise0 and Enterprise2: DecoyTomcat whichever of those is being scanned.",
             "Enterprise2 None User", "Enterprise2 Scan No")):
        found = _gate(text)
        assert truth(found, _shown(other)) is not True, text
        assert truth(found, _shown(picked)) is True, text


def test_a_preference_whose_own_move_is_disputed_has_no_word_left_for_what_it_puts_second() -> None:
    from types import SimpleNamespace

    from forge.rulebook.language.meaning import meaning_of, undisputed_hosts

    def meaning(when, action, text):
        return meaning_of(SimpleNamespace(when=when, action=action, directive=text, text=text))

    narrow = meaning({"host": "Op_Server0", "compromise": "User"},
                     {"mode": "prefer", "verb": "Remove", "target": "Op_Server0", "over": {"verb": "Restore", "target": "Op_Server0"}},
                     "Op_Server0 stuck on User: Remove it; a Restore is out.")
    broad = meaning({"host": "Op_Server0", "compromise": "any"},
                    {"mode": "prefer", "verb": "Restore", "target": "Op_Server0", "over": {"verb": "Remove", "target": "User"}},
                    "Whenever Op_Server0 falls, its Restore goes ahead of any Remove on a user box.")
    here = _shown("Op_Server0 None User", "User2 None User")
    assert undisputed_hosts(broad, [narrow], here) == frozenset()
    # where its own move is undisputed, it still speaks for the hosts it names
    elsewhere = meaning({"host": "User2", "compromise": "User"}, {"mode": "never", "verb": "Restore", "target": "User2"},
                        "User2 is never to be reimaged.")
    assert "Op_Server0" in undisputed_hosts(broad, [elsewhere], here)
