"""Round 54 (r54m): notes on the reply's form that the compiler dropped, or took for a rule about a host its story names,
stayed out of the book: a heading that names the role whose reply it is ("analyst reports: ..."), a part of the reply given
its place in every one ("the verdict comes last in each summary"), and an order on how a reply opens or ends after a story
about one host. Each is a FORMAT rule now; a note under such a heading that names a host or a move is still a decision."""

import pytest

from forge.rulebook.authoring.compile import _drop_problem, looks_like_format
from forge.rulebook.model import SourceItem

FORM = [
    "analyst reports: three lines tops, verdict on the last",
    "planner plans: four moves max",
    "the verdict comes last in each summary, after the evidence",
    "Last game my write-up on User3 hid the verdict halfway down. Close each report with a line that states the verdict.",
]


@pytest.mark.parametrize("text", FORM)
def test_a_note_on_the_reply_s_form_is_format(text):
    assert looks_like_format(text)


@pytest.mark.parametrize("text", FORM[:3])
def test_dropping_a_note_on_the_reply_s_form_is_refused(text):
    item = SourceItem(kind="rule", role="analyst", text=text, actor="ops")
    assert _drop_problem(item, {"verdict": "DROP", "reason": "not an instruction"}) is not None


@pytest.mark.parametrize("text", ["planner plans: Restore User2 first", "chooser answers: Enterprise1 only",
                                  "analyst reports: exploited hosts first"])
def test_a_heading_of_the_reply_over_a_host_a_move_or_a_state_is_no_format(text):
    assert not looks_like_format(text)
