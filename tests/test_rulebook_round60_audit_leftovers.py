"""Round 60 audit of r60l (r60d): readings of r60l's readers wider than their words, each as a class, in sentences of
this file's own. Each test fails on 0e5ef0d and passes on r60d."""

from forge.rulebook.authoring.checks import text_problem
from forge.rulebook.authoring.teaching import taught_words


def _do(verb, target):
    return {"mode": "do", "verb": verb, "target": target}


def test_a_no_that_opens_a_noun_does_not_deny_the_harm_asked():
    """forms._NO_AS_NOUN: "would it hurt to <move>? No doubt." affirms the harm (or, "No idea", leaves it open): the
    move is not left ordered, as a plain "No." leaves it."""
    quiet = {"host": "Enterprise2"}
    for answer in ("No doubt.", "No question about it, it would.", "No idea.", "No clue, honestly."):
        text = f"Would it hurt to Remove Enterprise2? {answer}"
        assert text_problem(text, quiet, _do("Remove", "Enterprise2")) is not None, text
    # (guards: a plain denial of the harm leaves the move urged)
    for answer in ("No.", "Nope, go ahead.", "Not at all."):
        text = f"Would it hurt to Remove Enterprise2? {answer}"
        assert text_problem(text, quiet, _do("Remove", "Enterprise2")) is None, text


def _settled(text):
    return taught_words(text)[1]


def test_a_log_narrowed_or_doubted_after_its_last_order_is_not_settled_on_it():
    """transcript._AMENDED_OR_DOUBTED: a later message that adds a condition, an exception or a doubt to the last order
    ("only if ...", "but never when ...", "hmm, are you sure?") leaves the log unsettled: its last order alone is wider
    than the conversation, or still in doubt."""
    first = "ana: Restore User3 when it gets rooted\nbo: Remove User3 when it gets rooted\n"
    for tail in ("ana: only while Enterprise1 is clean", "ana: but never if Op_Host2 is rooted as well",
                 "ana: hmm, are you sure?", "ana: wait, let me think"):
        assert _settled(first + tail) == first + tail, tail
    timed = "[10:01] ana: Restore User3 when it gets rooted\n[10:02] bo: Remove User3 when it gets rooted\n"
    assert _settled(timed + "[10:03] ana: unless Op_Host2 is rooted as well") != "Remove User3 when it gets rooted"
    # (guards: an assent, one that says the order's condition again, or small talk after the order, leaves the log
    # settled on it)
    for tail in ("ana: ok", "ana: fine. lunch at noon?", "ana: agreed, cheap once it gets rooted"):
        assert _settled(first + tail) == "Remove User3 when it gets rooted", tail


def test_the_box_with_a_clause_of_its_own_is_not_the_host_named():
    """forms._THE_BOX: "the box it was attacked from", "the host the scan came from", "the box upstream" is another host
    than the one the note names: not said as it."""
    from forge.rulebook.language.forms import the_box_named_said

    for text in ("Once Enterprise2 reads Exploit, Analyse the machine it was attacked from.",
                 "Once Op_Host2 is rooted, Remove the attacker from the box it moved to.",
                 "When User4 is scanned, Analyse the host the scan came from.",
                 "Once the host upstream gets rooted, Restore User4."):
        assert the_box_named_said(text) == text, text
    # (guards: the bare box is still the one host named)
    assert the_box_named_said("Once red is on the box, Restore User4.") == "Once red is on User4, Restore User4."
    assert the_box_named_said("Once the box gets rooted, Restore User4.") == "Once User4 gets rooted, Restore User4."


def _never(verb, target):
    return {"mode": "never", "verb": verb, "target": target}


def test_a_hedge_the_writer_withdraws_bans_nothing_either():
    """checks._undecided with `banned`: "maybe never <move>, I'm not sure" is no ban of the move, as "maybe <move>, I'm
    not sure" is no order of it."""
    host = {"host": "Op_Host2"}
    for text in ("Maybe never Analyse Op_Host2, I'm not sure.", "Perhaps don't Remove Op_Host2 at all - dunno.",
                 "Not certain, but maybe never Analyse Op_Host2."):
        verb = "Remove" if "Remove" in text else "Analyse"
        assert text_problem(text, host, _never(verb, "Op_Host2")) is not None, text
    # (guards: a firm ban beside a hedge on another move stands)
    assert text_problem("Never Analyse Op_Host2. Maybe Remove it, not sure.", host, _never("Analyse", "Op_Host2")) is None


def test_a_drawn_ban_keeps_the_host_its_pronoun_stands_for():
    """order._ban_drawn_said: in "<reason>, so it gets no <move>, unlike <other host>" the "it" is the reason's host; the
    ban is not the other host's (the opposite of the words)."""
    for text, other, verb, when in (
            ("Op_Host2 is the bait, so it gets no Analyse, unlike User4.", "User4", "Analyse", {"host": "User4"}),
            ("Enterprise2 keeps the audit trail, so no Restore for it, as opposed to User4.", "User4", "Restore",
             {"host": "User4"}),
            ("Op_Host2 is merely scanned, so it gets no Analyse, unlike User4.", "User4", "Analyse",
             {"all": [{"host": "Op_Host2", "activity": "Scan", "compromise": "No"}]})):
        assert text_problem(text, when, _never(verb, other)) is not None, text
    # (guard: the ban of the reason's host stands)
    assert text_problem("Op_Host2 is the bait, so it gets no Analyse.", {"host": "Op_Host2"}, _never("Analyse", "Op_Host2")) is None



def test_a_ban_before_another_clause_leaves_its_preference_plain():
    """forbidding.PREFERENCE_BANNED: "we never <move> X and always Restore it in place of a Remove" bans the first move;
    the preference after "and" is plain, its Remove put aside (not kept, as in a banned preference)."""
    host = {"host": "Enterprise2"}
    for text in ("We never Analyse Enterprise2 and always Restore it in place of a Remove.",
                 "Do not Analyse Enterprise2 twice then Restore it instead of a Remove."):
        assert text_problem(text, host, _do("Remove", "Enterprise2")) is not None, text
    # (guard: a banned preference still keeps its second move)
    assert text_problem("Never Restore Enterprise2 in place of a Remove.", host, _do("Remove", "Enterprise2")) is None
