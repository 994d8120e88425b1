"""Round 55 (r55h): rules injected where their own words say they do not apply, or the opposite of them. A house norm
said of nobody ("nobody touches <host>") forbids every move there; the move a turn is spent on ("never end your turn
with a Sleep") is forbidden; a meeting's agreed item, withdrawn, stays withdrawn when taught again in other words; a
class's side written short ("ent side") is the side as a whole; a host the Planner's change line states clean is not
shown; a move said to be dear is put aside for the cheaper one."""

import pytest

from forge.rulebook.authoring.checks import text_problem
from forge.rulebook.language.predicate import Atom, truth
from forge.rulebook.language.situation import read_situation
from forge.rulebook.language.wording import read_wording


def _do(verb, target):
    return {"mode": "do", "verb": verb, "target": target}


# a house norm said of nobody forbids every move on the host; what nobody did is a report
@pytest.mark.parametrize("text", [
    "Nobody touches Op_Host1 during a scan, since the red team is meant to find it there.",
    "Once Op_Host1 is probed, no one is to lay a finger on it: that box is a lure.",
])
def test_norm_said_of_nobody_refuses_a_move_ordered_there(text):
    problem = text_problem(text, {"host": "Op_Host1", "activity": "Scan"}, _do("DecoyApache", "Op_Host1"))
    assert problem is not None and problem.startswith("prohibition")
    # (what nobody did is a report, no prohibition)
    words = read_wording("Nobody touched Op_Host1 at step 4 and it got rooted; Restore Op_Host1 when it is rooted.")
    assert not [p for p in words.prohibitions if p.verb is None]


# the move a turn is spent on is forbidden
@pytest.mark.parametrize("text, verb", [
    ("Do not end your turn with a Sleep whenever Op_Server0 shows an exploit.", "Sleep"),
    ("While User2 is owned, never spend the step doing a Monitor.", "Monitor"),
])
def test_move_a_turn_is_spent_on_is_forbidden(text, verb):
    assert verb in {p.verb for p in read_wording(text).prohibitions}


# a withdrawn agreed item of a meeting's minutes, taught again in other words, is refused
def test_withdrawn_agreed_item_taught_again_is_refused():
    from forge.rulebook.model import Evidence
    from forge.rulebook.store.curation import Teaching
    from tests.plan_book import PlanBook

    def taught(text, when=None, action=None):
        return Teaching(text, "CONTENT", ("planner",), "g", "user:ola", Evidence("correction", "user:ola", text[:40], 1),
                        compiled_by="model", when=when, action=action, text=text)

    minutes = taught("Notes from the Tuesday standup:\n- AGREED: put a Restore in the plan for each enterprise server "
                     "at root.\n- PARKED: the Op_Host2 question.\n- REJECTED: idling while scans come in.")
    again = taught("Enterprise servers at root: the plan restores them.", {"class": "Enterprise", "compromise": "Privileged"},
                   _do("Restore", "$matched"))
    book = PlanBook()
    book.apply(minutes)
    book.withdraw(book.of(minutes.directive).rule_id)
    assert book.apply(again).outcomes[0].result == "refused"


# a class's side written short is the side as a whole
def test_side_written_short_is_the_whole_side():
    from forge.rulebook.language.rule_claims import rule_claims

    claims = rule_claims("ent side, probe only -> keep watching (Monitor)", with_instruction=True, bare=False)
    mixed = read_situation("Alerts:\nEnterprise0: Activity Scan, Compromised No\nEnterprise1: Activity None, Compromised Privileged")
    assert truth(claims, mixed) is not True


# a host the Planner's change line states clean has left the alerts: not shown
def test_host_stated_clean_in_the_change_line_is_not_shown():
    context = ("Step 8 of 30.\nObservation from get_updated_hosts(): Hosts changed since the last step: User3 (Activity Exploit, "
               "Compromised User), Op_Host2 (Activity None, Compromised No)\nAlerts:\nUser3: Activity Exploit, Compromised User")
    situation = read_situation(context)
    assert truth(Atom(host="Op_Host2"), situation) is False
    assert truth(Atom(host="User3"), situation) is True
    assert truth(Atom(host="Op_Host2", compromise="No"), situation) is True  # its state is still known
    # (a host the alerts list clean is shown)
    assert truth(Atom(host="Op_Host2"), read_situation("Alerts:\nOp_Host2: Activity None, Compromised No")) is True


# a move said to be dear is put aside for the cheaper one the text names
def test_move_said_to_be_dear_is_put_aside():
    text = "Op_Host2 at user level: a Remove does the job; a Restore is far too dear for that box."
    action = {"mode": "prefer", "verb": "Remove", "target": "Op_Host2", "over": {"verb": "Restore", "target": "Op_Host2"}}
    assert text_problem(text, {"host": "Op_Host2", "compromise": "User"}, action) is None
