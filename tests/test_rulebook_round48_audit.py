"""Issue 29, round 48 (r48a: a review of readings for over-breadth, r48h's new ones first). Each class is a reading
that made a rule wider than its words (a host, a denial or a condition lost), or its opposite:
- a "means" the words deny or make rare ("a probe of X hardly / never / no longer means you plan a decoy"), or that
  the teacher disowns or reports from another ("it is a myth that ...", "the night crew claims ... means ..."), is no
  order; its situation is no condition of one (`forbidding.MEANS_DENIED`, `_MEANS_DISOWNED`, `_modal_order`), and a doubt
  said with "rarely" / "seldom" is one the polarity check reads (`checks._DOUBTING`);
- the subject of "<subject> gets no <move>" / "<subject> should never be <moved>" is not a host it leaves out or names
  beside it, nor a condition said before it with no comma (`forbidding._NOT_THE_SUBJECT`, `_subject_itself`): "any box
  but X gets no <move>" forbids the move on the others, never on X;
- "X gets no <thing> from this note" leaves X out only where the thing is the move or nothing at all (`_NOTHING_OF_IT`),
  and "Exceptions: none." leaves no host out (`_NO_CASES`);
- "REASON, so when X, ORDER": a reason that denies or restricts what it says of a host ("we never look after X") is no
  general reason (`order._general_reason`): read as one, the order fired on the host it leaves out;
- "keep X out of / away from / clear of any <move>", "keep the <move>s off X" forbid the move on X (`_KEPT_FROM_MOVE`,
  `_MOVE_KEPT_OFF`): read as an order of the move, a compiled order of it passed and a "never" was refused as inverted.
Each test fails on the product files of 59e7cf3 (r48h; checked in a `git archive 59e7cf3` tree with this file copied
in). Sentences of our own, none from a case file."""

from __future__ import annotations

from forge.rulebook.authoring.checks import text_problem
from forge.rulebook.language.wording import read_wording
from tests.actions import do, never
from tests.situations import alert_lines, refused_rule_holds


def test_a_denied_or_disowned_means_is_no_order() -> None:
    probed = {"host": "User3", "activity": "Scan"}
    for text in ("A probe of User3 hardly means you recommend a decoy on it.",
                 "A probe of User3 never means you plan a decoy on it.",
                 "A probe of User3 no longer means we should plan a decoy on it.",
                 "A probe of User3 rarely means you plan a decoy on it.",
                 "It is a myth that a probe of User3 means you plan a decoy on it.",
                 "The night crew claims a probe of User3 means you plan a decoy on it."):
        words = read_wording(text)
        assert not any("User3" in c.text for c in words.conditions), text
        assert text_problem(text, probed, do("DecoyApache", "User3")) is not None, text
    # the order said with "means" still stands, with its situation
    said = read_wording("A probe of User3 means you plan a decoy on it.")
    assert said.gives_order and [c.text for c in said.conditions] == ["A probe of User3"]
    assert text_problem("A probe of User3 means you plan a decoy on it.", probed, do("DecoyApache", "User3")) is None


def test_a_prohibitions_subject_is_not_the_host_it_leaves_out() -> None:
    for text, verb, left_out in (("Any box but User3 gets no Remove.", "Remove", "User3"),
                                 ("Each server except Enterprise1 needs no Restore.", "Restore", "Enterprise1"),
                                 ("Every workstation other than User0 should never be removed.", "Remove", "User0")):
        found = read_wording(text).prohibitions
        assert found and all(left_out not in p.hosts for p in found), text
        assert text_problem(text, {"host": left_out}, never(verb, left_out)) is not None, text
    # a condition said before the subject with no comma: the subject is the host after it
    found = read_wording("Once User4 is owned Enterprise2 gets no Restore.").prohibitions
    assert [(p.verb, p.hosts) for p in found] == [("Restore", ("Enterprise2",))]
    # and a host the subject names beside it is not the subject
    assert all("User2" not in p.hosts for p in read_wording("The box next to User2 gets no decoy.").prohibitions)
    # the subject itself is still the prohibition's host
    assert [(p.verb, p.hosts) for p in read_wording("Op_Host2 gets no Remove.").prohibitions] == [("Remove", ("Op_Host2",))]


def test_only_the_move_or_nothing_from_this_note_leaves_a_host_out() -> None:
    assert read_wording("Restore any owned op host. Op_Host2 gets no special favour from this note.").excepted == ()
    assert read_wording("Restore any owned op host. This note gives Op_Host2 no extra care.").excepted == ()
    assert read_wording("Restore any owned op host. Op_Host2 gets no Restore from this note.").excepted == ("Op_Host2",)
    assert read_wording("Restore any owned op host. This note gives Op_Host2 nothing.").excepted == ("Op_Host2",)
    # "Exceptions: none." leaves nothing out, whatever the next sentence names
    assert read_wording("Exceptions: none. Remove User4 when owned; User1 as well.").excepted == ()


def test_a_reason_that_denies_what_it_says_of_a_host_is_no_general_reason() -> None:
    text = "We never look after Op_Host2, so when a host shows a scan, decoy it."
    assert refused_rule_holds(text, alert_lines(Op_Host0="Scan/No")) is not True
    assert refused_rule_holds(text, alert_lines(User1="Scan/No")) is not True
    # a reason that only names who answers for a host still gives the order (r48h)
    kept = "The red lead watches Op_Host2 closely, so when Op_Host2 reads Activity Scan, plant a decoy there."
    assert refused_rule_holds(kept, alert_lines(Op_Host2="Scan/No")) is True


def test_keeping_a_host_out_of_a_move_forbids_it_there() -> None:
    for text, verb, host in (("Keep User3 out of any Restore while it is owned.", "Restore", "User3"),
                             ("Hold Op_Host1 clear of Remove actions.", "Remove", "Op_Host1"),
                             ("Keep the decoys off Enterprise2.", "DecoyApache", "Enterprise2")):
        words = read_wording(text)
        assert any(p.hosts == (host,) for p in words.prohibitions), text
        assert text_problem(text, {"host": host}, do(verb, host)) is not None, text
        assert text_problem(text, {"host": host}, never(verb, host)) is None or "inverted" not in \
            text_problem(text, {"host": host}, never(verb, host)), text
    # "keep restoring" is the order, kept
    assert not read_wording("Keep restoring User3 while it is owned.").prohibitions
