"""Round 49 (issue 29): the surrogate compiler's own reader, where its misreadings passed the product's checks only when
the note named its hosts in shorthand.

The surrogate stands in for an LLM: it reads the text it is sent with its own reader (forge/llm/surrogate/free_text.py),
never the product's. Written out in full, each phrasing below was misread and the product's checks refused it; with the
hosts in shorthand the same misreading went through. The reader now gives the words' meaning (or lists what it cannot
place), whatever the hosts are called. Sentences are this file's own.
"""

from __future__ import annotations

from tests.surrogate_rules import at, compiled, entry_of







def test_the_order_objects_own_state_joins_a_leading_condition():
    """"Unless Op_Server0 is owned, a hacked Enterprise1 is to be removed", "While Enterprise0 stays clean, Restore User2
    once it shows a compromise": the object's state is part of the condition (read with the leading one alone, the rule
    held on a clean Enterprise1 too)."""
    when, action, _ = compiled("Unless Op_Server0 is owned, a hacked Enterprise1 is to be removed.")
    assert when == {"all": [at("Enterprise1", None, "any"), {"not": at("Op_Server0", None, "any")}]}
    assert action == {"mode": "do", "verb": "Remove", "target": "Enterprise1"}
    when, _, _ = compiled("While Enterprise0 is clean, Restore User2 once it shows a compromise.")
    assert when == {"all": [at("User2", None, "any"), at("Enterprise0", None, "No")]}
    when, action, _ = compiled("Unless Op_Server0 is owned, any user box with Activity Scan gets a DecoySSHD.")
    assert when == {"all": [at("User", "Scan"), {"not": at("Op_Server0", None, "any")}]}
    assert action == {"mode": "do", "verb": "DecoySSHD", "target": "$matched"}


def test_the_next_steps_an_order_holds_for_after_a_move_are_its_count():
    """"after you restore User3, do not restore it for the next 2 turns": the move within 2 steps (read with no count it
    was the last 3, a step longer than the words)."""
    when, action, _ = compiled("After you restore User3, do not restore it for the next 2 turns.")
    assert when == at("User3", acted="Restore", within=2)
    assert action == {"mode": "never", "verb": "Restore", "target": "User3"}


def test_a_move_the_writer_tells_they_made_is_no_order():
    """"We reimaged Enterprise2 at step 6 when it was only scanned, which cost us a turn": a report of a move, not an
    order of it (read as one, the rule ordered the very move the note regrets)."""
    entry = entry_of("We reimaged Enterprise2 at step 6 when it was only scanned, which cost us a turn.")
    assert entry.get("action") is None or entry["action"].get("verb") != "Restore", entry
    # ... and the note's own order after the story is still read
    when, action, _ = compiled("We reimaged Enterprise2 at step 6 when it was only scanned, which cost us a turn. "
                                "From now on put a DecoyTomcat on Enterprise2 if it is only scanned.")
    assert action == {"mode": "do", "verb": "DecoyTomcat", "target": "Enterprise2"}
    # a modal before the move is no report: "I should have removed it" is the lesson
    entry = entry_of("When User1 shows an exploit, I should have removed User1 at once.")
    assert entry["action"] == {"mode": "do", "verb": "Remove", "target": "User1"}


def test_a_rule_that_points_to_another_note_lists_the_pointer():
    """"same as Kim's decoy note for User1, but ...": part of the rule is in a note the reader was not sent, which it
    lists as unread rather than compiling the added words as the whole rule."""
    entry = entry_of("Enterprise2: same as Kim's decoy note for User1, only a DecoyTomcat, and only while Enterprise2 "
                      "is probed and not owned.")
    assert "note" in entry.get("unexpressed", ""), entry


def test_a_denial_of_every_host_is_not_the_named_hosts_own():
    """"Enterprise1 probed and nothing owned anywhere": no host owned, not Enterprise1 unowned; the reader cannot give
    both, so it lists the denial (it was dropped into Enterprise1's own row)."""
    entry = entry_of("Enterprise1 probed and nothing owned anywhere -> DecoyTomcat Enterprise1.")
    assert "anywhere" in entry.get("unexpressed", ""), entry
    # said of no host, it is read whole, as before
    when, _, unexpressed = compiled("nothing owned anywhere at this point -> DecoySmss on Enterprise1.")
    assert when == {"not": at("any", None, "any")} and unexpressed == ""
