"""Round 53 (r53b): an audit of the readings added on r53m, at their edges. Each test here holds a reading to its words
where it had grown wider than them or turned them round: a "keep / leave <host> out of <Move>" under a negation (the
move wanted there, no prohibition), an urging ("no reason to hold back") said as the condition itself, what a reply
leaves out chosen by a state of the hosts (a decision, no form), and a chat's "@<host>:" (the host the note is about,
no reader it is addressed to)."""

from forge.rulebook.authoring.checks import text_problem
from forge.rulebook.authoring.compile import looks_like_format
from forge.rulebook.language.condition import semantic_claims
from forge.rulebook.language.predicate import truth
from forge.rulebook.language.situation import read_situation


def _on(verb, target, mode="do"):
    return {"mode": mode, "verb": verb, "target": target}


# -- a host kept out of a move, under a negation, is the move wanted there ---------------------------------------------


def test_a_negated_keep_or_leave_out_of_a_move_is_no_prohibition():
    text = "Don't leave Op_Server0 out of any Restore plan once it is rooted."
    assert text_problem(text, {"host": "Op_Server0", "compromise": "Privileged"}, _on("Restore", "Op_Server0", "never")) is not None
    text = "Do not keep User1 out of the Restore list when it is privileged."
    assert text_problem(text, {"host": "User1", "compromise": "Privileged"}, _on("Restore", "User1", "never")) is not None
    # (unnegated, it still forbids the move there)
    text = "Please leave User2 out of any Restore for now."
    assert text_problem(text, {"host": "User2"}, _on("Restore", "User2")) is not None


# -- an urging said as the condition itself is a condition (an absence), no urging ------------------------------------


def test_no_reason_to_hold_back_said_as_the_condition_is_no_urging():
    text = "Remove Op_Host1 when there is no reason to hold back, i.e. it is not scanned."
    assert text_problem(text, {"host": "Op_Host1", "activity": "Scan"}, _on("Remove", "Op_Host1")) is not None
    # (said as a verdict on the situation, it still urges: the condition before it is the rule's)
    text = "An exploit on Enterprise1 gives us no reason to hesitate: Remove Enterprise1."
    assert text_problem(text, {"host": "Enterprise1", "activity": "Exploit"}, _on("Remove", "Enterprise1")) is None


# -- what a reply leaves out, chosen by a state of the hosts, is a decision on them, no form ---------------------------


def test_hosts_left_out_of_the_plan_by_their_state_is_no_form():
    assert not looks_like_format("Leave privileged hosts out of every plan.")
    assert not looks_like_format("Keep anything already compromised out of each plan you write.")
    assert looks_like_format("Leave the raw log lines out of every report.")


# -- "@<host>:" in a chat is the host the note is about, no reader it is addressed to -----------------------------------


def test_a_host_mentioned_with_an_at_sign_is_the_rules_host():
    text = "@Enterprise2: restore it once it reads Privileged."
    found = semantic_claims(text, "compiled as written: the compiler dropped an instruction (not an instruction)", text)
    assert truth(found, read_situation("Alerts:\nEnterprise2: Activity None, Compromised Privileged")) is True
    assert truth(found, read_situation("Alerts:\nUser1: Activity None, Compromised Privileged")) is not True


# -- a move that "no longer" does alone or first still stands: no "never" of it ------------------------------------------


def test_a_move_no_longer_enough_alone_or_first_is_not_turned_down():
    owned = {"any": [{"host": "Op_Host1", "compromise": "User"}, {"host": "Op_Host1", "compromise": "Privileged"}]}
    text = "Op_Host1 owned no longer gets an Analyse alone; Remove it as well."
    assert text_problem(text, owned, _on("Analyse", "Op_Host1", "never")) is not None
    text = "User0 exploited no longer warrants a Restore first: Analyse it, then Restore."
    assert text_problem(text, {"host": "User0", "activity": "Exploit"}, _on("Restore", "User0", "never")) is not None
