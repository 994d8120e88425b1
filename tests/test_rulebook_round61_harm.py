"""Round 61, r61h: blind-58's harmful and outranked injections.

- "the server" set apart in a note about the op hosts ("op machines (not the server): ...") is Op_Server0, the op subnet's one
  server: left unread, the heading's class and its exception were dropped, and a trigger on any host passed as the text;
- a time of the episode said with no window ("early on", "in the opening", "at the outset") is a condition the product
  cannot read: a rule kept semantic is left unknown there, never held at every step;
- another note said to stand except in a state ("The rule above stands, except for root: if ...") is no negation of
  this note's condition: the order after the colon states the case;
- "ignore what I wrote about <host>" / "ignore my earlier note" is a note about a note, no ban of every move on the host;
- a revision that scraps the part about a host, or leaves it to another's judgement, takes that host out of its order: a
  trigger on it is refused, and the teacher's earlier order on both hosts is narrowed to the one kept;
- "Update on <host>: ..." says the teacher revises their own earlier note.
"""

from __future__ import annotations

from forge.rulebook.authoring.checks import text_problem
from forge.rulebook.language.condition import semantic_claims
from forge.rulebook.language.predicate import truth
from forge.rulebook.language.revision import narrowed_in_words, revised_in_words, says_revision
from forge.rulebook.language.situation import read_situation
from forge.rulebook.language.wording import read_wording

_REFUSED = "predicate refused: host: the compiler's reading was wider than the words"


def _holds(text: str, context: str):
    """Three-valued: does a rule kept semantic (its compiled predicate refused) hold on a context?"""
    return truth(semantic_claims(text, _REFUSED, text), read_situation(context))


# -- the server set apart from the op hosts ---------------------------------------------------------------------------


def test_the_server_set_apart_from_the_op_hosts_is_op_server0():
    text = "Op machines (not the server): once an exploit is confirmed there, evict red by a Remove."
    words = read_wording(text)
    assert "Operational" in words.classes and "Op_Server0" in words.excepted
    wide = {"class": "any", "activity": "Exploit"}
    assert text_problem(text, wide, {"mode": "do", "verb": "Remove", "target": "$matched"}) is not None


def test_a_rule_on_the_op_hosts_but_the_server_stays_off_the_server():
    text = "Op machines (not the server): once an exploit is confirmed there, evict red by a Remove."
    assert _holds(text, "Alerts:\nOp_Server0: Activity Exploit, Compromised User") is not True
    assert _holds(text, "Alerts:\nUser3: Activity Exploit, Compromised User") is not True
    assert _holds(text, "Alerts:\nOp_Host2: Activity Exploit, Compromised User") is True


def test_the_server_of_a_class_with_several_servers_is_left_unread():
    # (every enterprise host is a server: which one the note sets apart is not said)
    # (a guard: passes on the base too, and keeps the new reading to the op subnet's one server)
    for text in ("Enterprise boxes save the server: Remove them once exploited.",
                 # (nor where the note speaks of the op hosts and another class: the server may be either's)
                 "Op boxes and user boxes, except the server: Remove them once exploited."):
        words = read_wording(text)
        assert "Op_Server0" not in words.hosts and "Op_Server0" not in words.excepted, text


# -- a time of the episode with no window -----------------------------------------------------------------------------


def test_a_ban_early_on_is_unknown_at_any_step():
    text = "Please hold off on any Remove of Op_Host2 early on; it is too dear in the first minutes."
    for context in ("Alerts:\nOp_Host2: Activity Exploit, Compromised User",
                    "Recent steps: step 24: Monitor -> reward -1.0 | step 25: Monitor -> reward -1.0\n"
                    "Host history (last 2 steps): Op_Host2: step 24 None/User, step 25 None/User; every other host: None/No\n\n"
                    "Alerts:\nOp_Host2: Activity None, Compromised User"):
        assert _holds(text, context) is not True


def test_other_times_said_bare_are_unknown_too():
    for text in ("At the outset, never Restore User4.", "In the opening, keep every decoy off Enterprise1."):
        assert _holds(text, "Alerts:\nUser4: Activity Exploit, Compromised User\nEnterprise1: Activity Scan, Compromised No") \
            is not True


def test_early_on_a_host_is_a_move_made_promptly_not_a_time():
    text = "Restore early on User4 once it is owned."
    assert _holds(text, "Alerts:\nUser4: Activity None, Compromised User") is True


# -- another note said to stand except in a state -----------------------------------------------------------------------


def test_another_note_standing_except_in_a_state_is_no_negation_of_this_one():
    text = "The rule above stands, except for root: if Op_Host0 is rooted, Restore it instead."
    words = read_wording(text)
    assert words.situation == "" and all(not c.negations for c in words.conditions)
    when = {"host": "Op_Host0", "compromise": "Privileged"}
    assert text_problem(text, when, {"mode": "do", "verb": "Restore", "target": "Op_Host0"}) is None


def test_a_state_set_aside_with_no_case_after_the_colon_is_left_as_it_was():
    words = read_wording("The rule above stands, except for root: Restore it instead.")  # (a guard)
    assert words.situation != ""


# -- "ignore what I said" ---------------------------------------------------------------------------------------------


def test_ignoring_what_was_said_about_a_host_bans_nothing_on_it():
    for text in ("Ignore what I wrote about Op_Host2 yesterday; when it is scanned, DecoySSHD it.",
                 "Ignore my earlier note on Op_Host2; when it is scanned, DecoySSHD it."):
        assert not any(p.verb is None for p in read_wording(text).prohibitions), text


def test_ignoring_a_host_is_still_a_ban_of_every_move_on_it():
    assert any(p.verb is None and p.hosts == ("Op_Host2",) for p in read_wording("Ignore Op_Host2 for now.").prohibitions)


# -- a revision that takes a host out ---------------------------------------------------------------------------------

_EARLIER = "Should Enterprise1 or Enterprise2 get owned, Restore whichever it is."
_LATER = ("Scrap the bit about Enterprise2 in my restore note: only Enterprise1 gets the Restore when it is owned, "
          "Enterprise2 is left to the planner's judgement.")


def test_a_host_taken_out_by_a_revision_is_excepted_from_its_order():
    assert "Enterprise2" in read_wording(_LATER).excepted
    action = {"mode": "do", "verb": "Restore", "target": "Enterprise1"}
    assert text_problem(_LATER, {"host": "Enterprise2", "compromise": "any"}, action) is not None
    assert text_problem(_LATER, {"host": "Enterprise1", "compromise": "any"}, action) is None


def test_a_revision_that_takes_a_host_out_narrows_the_earlier_order():
    assert narrowed_in_words(_EARLIER, _LATER)


# -- "Update on <host>:" ----------------------------------------------------------------------------------------------


def test_an_update_on_a_host_is_a_revision_of_the_earlier_note():
    later = "Update on Enterprise2: Remove it, do not Restore."
    assert says_revision(later)
    assert revised_in_words("Please Restore Enterprise2 whenever it is owned.", later)


def test_an_update_said_as_a_statement_is_no_revision():
    assert not says_revision("Correction to the budget is due tomorrow: Restore User1 when it is rooted.")
