"""Round 54 (r54d): an audit of r54l's revision "only wished for" (revision._WISHED_AFTER / _WISHED_BEFORE). Only a
revision named as a thing, "an update", "a fix", is wished for; "From now on, a Restore is needed", "Going forward, a
Remove would help", "Perhaps my earlier note was too strict" revise (read as wishes, the earlier rule stayed beside the
one that replaces it)."""

from forge.rulebook.language.revision import says_revision


def test_a_revision_said_beside_a_need_or_a_hedge_still_revises():
    for text in ("From now on, a Restore is needed whenever User2 is rooted.",
                 "Going forward, a Remove would help more than a Restore when User3 is user-level.",
                 "Perhaps my earlier note was too strict: Restore Enterprise1 when it is rooted.",
                 "Henceforth an Analyse is due on Op_Host2 whenever it is scanned."):
        assert says_revision(text), text


def test_a_revision_named_as_a_thing_and_wished_for_is_none():
    assert not says_revision("A fix for our Op_Host1 rule would be handy. Restore Op_Host1 when it is rooted.")
    assert not says_revision("Maybe a correction to my User0 note someday.")
