"""Round 55 (r55a): an audit of r55h's reading of the move a turn is spent on (forbidding._TURN_SPENT). The spending is
forbidden only after a word that forbids plainly ("never", "do not", "avoid"); after a bare "not", a judgement or a "no"
("why not spend the turn on ...?", "it's never wrong to spend the step on ...", "it is not a mistake to use the turn for
..."), the spending is proposed or approved, and the move the text urges was read as forbidden."""

import pytest

from forge.rulebook.authoring.checks import text_problem
from forge.rulebook.language.said import said_in_words
from forge.rulebook.language.wording import read_wording


def _on(verb, target, mode="do"):
    return {"mode": mode, "verb": verb, "target": target}


@pytest.mark.parametrize("text, when, verb, host", [
    ("Why not spend the turn on an Analyse of Enterprise1 when it is scanned?",
     {"host": "Enterprise1", "activity": "Scan"}, "Analyse", "Enterprise1"),
    ("It's never wrong to spend the turn on a Restore of User2 when it is rooted.",
     {"host": "User2", "compromise": "Privileged"}, "Restore", "User2"),
    ("It is not a mistake to use the step for a Remove of User3 when it shows user access.",
     {"host": "User3", "compromise": "User"}, "Remove", "User3"),
])
def test_spending_proposed_or_approved_forbids_nothing(text, when, verb, host):
    assert verb not in {p.verb for p in read_wording(text).prohibitions}, text
    # (an order of it may be kept semantic for its "not"; a "never" of it is never passed as the text)
    assert text_problem(text, when, _on(verb, host, "never")) is not None, text
    said = said_in_words(text)
    assert said is None or said[1].mode != "never", text


@pytest.mark.parametrize("text, verb", [
    ("Avoid spending a turn on a Monitor while Enterprise0 is rooted.", "Monitor"),
    ("Never close the step with a Sleep when User4 shows an exploit.", "Sleep"),
])
def test_spending_forbidden_plainly_still_forbids(text, verb):
    assert verb in {p.verb for p in read_wording(text).prohibitions}, text
