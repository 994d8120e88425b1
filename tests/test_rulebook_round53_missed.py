"""Round 53 (r53m): rules kept semantic although their compilation was faithful, because a reader was too narrow for how
people write: a chat correction with words struck through, a default "unless told otherwise", a likeness to another
note's case, a class with one host set apart by "not", litotes and urging ("not unlike", "no reason to hesitate"), a
level that goes beyond another ("root, not merely user"), a move kept out with "leave", a lesson under its heading after a
story that reads like an order, and a phase that leads its order with no comma. Each faithful compilation now passes;
each wider or turned-around one is still refused."""

import pytest

from forge.rulebook.authoring.checks import text_problem
from forge.rulebook.authoring.compile import looks_like_format, strip_justification
from forge.rulebook.language.condition import claims_decide, semantic_claims
from forge.rulebook.language.predicate import Atom, implies, truth
from forge.rulebook.language.situation import read_situation
from forge.rulebook.language.transcript import pasted_rule
from forge.rulebook.language.wording import read_wording


def _do(verb, target):
    return {"mode": "do", "verb": verb, "target": target}


FAITHFUL = [
    # words struck through are taken back; the ones after them stand
    ("fix to my earlier entry: Restore ~~User4~~ User1 whenever it is at Privileged",
     {"host": "User1", "compromise": "Privileged"}, _do("Restore", "User1")),
    # a default open to a later note names no state of a host
    ("Unless told otherwise, remove any enterprise server that reads Compromised User.",
     {"class": "Enterprise", "compromise": "User"}, _do("Remove", "$matched")),
    # a likeness to another note's case is that note's host, not this rule's
    ("Not unlike the User4 case, Op_Server0 with an exploit on it leaves no reason to hesitate: Remove Op_Server0.",
     {"host": "Op_Server0", "activity": "Exploit"}, _do("Remove", "Op_Server0")),
    ("also Enterprise1, same deal as bob's Enterprise0 entry: E1 @ Privileged -> Restore E1",
     {"host": "Enterprise1", "compromise": "Privileged"}, _do("Restore", "Enterprise1")),
    # a class with one host set apart after a comma: the class but that host
    ("ent servers at Privileged, not Enterprise0 though: Restore it",
     {"any": [{"host": "Enterprise1", "compromise": "Privileged"}, {"host": "Enterprise2", "compromise": "Privileged"}]},
     _do("Restore", "$matched")),
    # a level that goes beyond another is that level exactly
    ("Op_Server0 at root (Privileged, not merely user level) -> Restore Op_Server0.",
     {"host": "Op_Server0", "compromise": "Privileged"}, _do("Restore", "Op_Server0")),
    # a move kept out with "leave" is a prohibition of it there
    ("A Remove there cut the green users off last game. Lesson: leave Op_Server0 out of every Remove plan, in any state.",
     {"host": "Op_Server0"}, {"mode": "never", "verb": "Remove", "target": "Op_Server0"}),
    # a lesson under its heading: the story before it, however it reads, is none of the order
    ("We watched User2 for several turns and never touched it. Lesson: once User2 has held Compromised User unchanged "
     "for 4 steps, Remove it instead of watching again.",
     {"host": "User2", "compromise": "User", "unchanged_for": 4},
     {"mode": "prefer", "verb": "Remove", "target": "User2", "over": {"verb": "Monitor", "target": "User2"}}),
]


@pytest.mark.parametrize("text, when, action", FAITHFUL)
def test_a_faithful_compilation_passes(text, when, action):
    assert text_problem(text, when, action) is None


WIDER_OR_TURNED = [
    # the struck host compiled, or the condition dropped
    ("fix to my earlier entry: Restore ~~User4~~ User1 whenever it is at Privileged",
     {"host": "User4", "compromise": "Privileged"}, _do("Restore", "User4")),
    ("fix to my earlier entry: Restore ~~User4~~ User1 whenver it is at Privileged",
     {"host": "User1"}, _do("Restore", "User1")),
    # the default's level widened, or its class
    ("Unless told otherwise, remove any enterprise server that reads Compromised User.",
     {"class": "any", "compromise": "User"}, _do("Remove", "$matched")),
    # the other case's host taken for this rule's condition
    ("Not unlike the User4 case, Op_Server0 with an exploit on it leaves no reason to hesitate: Remove Op_Server0.",
     {"host": "User4", "activity": "Exploit"}, _do("Remove", "Op_Server0")),
    # the host set apart still matched
    ("ent servers at Privileged, not Enterprise0 though: Restore it",
     {"class": "Enterprise", "compromise": "Privileged"}, _do("Restore", "$matched")),
    # the level widened
    ("Op_Server0 at root (Privileged, not merely user level) -> Restore Op_Server0.",
     {"host": "Op_Server0", "compromise": "any"}, _do("Restore", "Op_Server0")),
    # the move kept out ordered
    ("A Remove there cut the green users off last game. Lesson: leave Op_Server0 out of every Remove plan, in any state.",
     {"host": "Op_Server0"}, _do("Remove", "Op_Server0")),
    # the lesson's history dropped
    ("We watched User2 for several turns and never touched it. Lesson: once User2 has held Compromised User unchanged "
     "for 4 steps, Remove it instead of watching again.",
     {"host": "User2", "compromise": "User"}, _do("Remove", "User2")),
    # a phase leading the order with no comma is its condition
    ("Looking back, User0 was the way in. The rule I'd keep: in the recon phase plan a DecoySSHD on User0.",
     {"host": "User0"}, _do("DecoySSHD", "User0")),
]


@pytest.mark.parametrize("text, when, action", WIDER_OR_TURNED)
def test_a_wider_or_turned_compilation_is_still_refused(text, when, action):
    assert text_problem(text, when, action) is not None


def test_a_lesson_under_its_heading_is_the_order_after_a_story_that_reads_like_one():
    words = read_wording("We watched User2 for several turns and never touched it. Lesson: once User2 has held "
                         "Compromised User unchanged for 4 steps, Remove it instead of watching again.")
    assert "never touched" not in words.instruction
    assert not words.prohibitions


def test_a_phase_with_no_comma_before_the_order_is_read_as_its_condition():
    words = read_wording("Looking back, User0 was the way in. The rule I'd keep: in the recon phase plan a DecoySSHD on User0.")
    assert any("recon phase" in c.text for c in words.conditions)


# -- (r53m) a rule on what the reply leaves out, or on a labelled line it must hold, is a rule of the reply's form ------


@pytest.mark.parametrize("text", [
    "Analyst summaries: subnet masks tell us nothing, keep them out.",
    "Analyst, please leave the list of open ports out of every summary.",
    "Each summary closes with 'Watch next: <host>'.",
])
def test_what_the_reply_leaves_out_or_a_labelled_line_it_holds_is_its_form(text):
    assert looks_like_format(text)


@pytest.mark.parametrize("text", [
    "Leave any Remove suggestion out of the summary.",  # a move kept out of it: a decision
    "Leave Enterprise1 out of the plan.",  # a host kept out of it: a decision
    "Each summary closes with 'Remove <host>'.",  # a move the reply must end on
])
def test_a_move_or_a_host_kept_out_of_the_reply_is_no_form(text):
    assert not looks_like_format(text)


# -- (r53m) semantic rules whose claims could not be read: the default cut at its "otherwise", the instance a note is
# addressed to, a lesson led by "the habit to keep:" ------------------------------------------------------------------


def test_a_default_is_not_cut_at_its_otherwise():
    assert strip_justification("Unless told otherwise, decoy any op host that shows a scan.").endswith("shows a scan.")
    assert strip_justification("Restore Enterprise2 now, otherwise the attacker settles in.") == "Restore Enterprise2 now"


@pytest.mark.parametrize("text, context, expected", [
    ("Unless told otherwise, decoy any op host that shows a scan.",
     "Alerts:\nOp_Host1: Activity Scan, Compromised No", Atom(host_class="Operational", activity="Scan")),
    ("@s5/i02 (analyst): recommend nothing for User0 whenever it only shows a scan.",
     "Host User0: table Activity Scan, Compromised No.", Atom(host="User0", activity="Scan", compromise="No")),
    ("I sat on Op_Host2 at Privileged for three turns. The habit to keep: whenever the analysed host sits at "
     "Privileged, recommend a Restore.", "Host Op_Host2: table Activity None, Compromised Privileged.",
     Atom(host_class="any", compromise="Privileged")),
])
def test_a_semantic_rule_is_held_to_the_condition_it_states(text, context, expected):
    reason = "compiled as written: the compiler dropped an instruction (not an instruction)"
    found = semantic_claims(text, reason, text)
    assert claims_decide(text, reason)
    assert truth(found, read_situation(context)) is True
    assert implies(found, expected)


# -- (r53m) a heading that revises a note on a host is the scope of the order after it, no situation ---------------


def test_a_revision_heading_is_the_scope_of_its_order():
    text = "Change of plan for Enterprise1: once it's owned (user or root), Restore it, not Remove."
    reason = "predicate refused: host"
    found = semantic_claims(text, reason, text)
    assert truth(found, read_situation("Alerts:\nEnterprise1: Activity None, Compromised Privileged")) is True
    assert truth(found, read_situation("Alerts:\nEnterprise2: Activity None, Compromised Privileged")) is not True
    faithful = {"any": [{"host": "Enterprise1", "compromise": "User"}, {"host": "Enterprise1", "compromise": "Privileged"}]}
    prefer = {"mode": "prefer", "verb": "Restore", "target": "Enterprise1", "over": {"verb": "Remove", "target": "Enterprise1"}}
    assert text_problem(text, faithful, prefer) is None
    assert text_problem(text, {"class": "any", "compromise": "any"}, {**prefer, "target": "$matched"}) is not None


# -- (r53m) a chat log whose last word is an edit of the message before it -------------------------------------------


def test_an_edit_in_a_chat_log_keeps_the_message_it_edits():
    log = ("[11:20] ines: Op_Host1 compromised -> Remove it\n[11:21] lu: +1\n"
           "[11:23] ines: edit: Restore it instead, but only once it reads Privileged")
    rule = pasted_rule(log)
    assert "Op_Host1" in rule and rule.rstrip().endswith("reads Privileged")
    # compiled for any host at Privileged (the host lost with the first message), it is refused
    assert text_problem(rule, {"class": "any", "compromise": "Privileged"}, _do("Restore", "$matched")) is not None
    assert text_problem(rule, {"host": "Op_Host1", "compromise": "Privileged"}, _do("Restore", "Op_Host1")) is None


def test_a_settled_line_that_edits_nothing_is_read_alone():
    log = ("[08:01] jo: what do we do about Enterprise0\n"
           "[08:02] kai: agreed: once Enterprise0 is exploited, Remove Enterprise0")
    assert pasted_rule(log) == "once Enterprise0 is exploited, Remove Enterprise0"


# -- (r53m) a host in a state that no longer gets a move: the state is the condition, the move turned down there -------


def test_a_host_that_no_longer_gets_a_move_in_a_state():
    text = "Fix: Enterprise2 rooted no longer gets a Remove; restore it."
    prefer = {"mode": "prefer", "verb": "Restore", "target": "Enterprise2", "over": {"verb": "Remove", "target": "Enterprise2"}}
    assert text_problem(text, {"host": "Enterprise2", "compromise": "Privileged"}, prefer) is None
    assert text_problem(text, {"host": "Enterprise2"}, prefer) is not None
    assert text_problem(text, {"host": "Enterprise2", "compromise": "Privileged"}, _do("Remove", "Enterprise2")) is not None
