"""Issue 29, round 41 (r41g): what the first wave left on blind-38.

- An order given before the attacker arrives at a host ("... before they get there", "before red reaches it", "before
  the attacker gets to <host>") says that host is not reached yet: a condition (the host not compromised) the gate holds
  every rule to loosely (false where the host is shown compromised), so a rule kept semantic is held to it; it was read
  as the order's purpose only, and such a rule fired on a host already held. "before they arrive" with no place stays
  unread, and a host named only in the clause with the order on another host stays what the order forestalls.
- A host a text excepts from a class, compiled as the class atom beside its denial on that host: the rule is read as
  the other hosts of the class, so it applies where the excepted host is not shown (an analyst's call shows one host)
  and where the excepted host is in the same state as another.
- An activity and a compromise of one host joined by "or" ("under exploit or already at root"): either, not both.

Sentences of our own, none from a case file. Each test fails at eabe685 (checked by running this file with PYTHONPATH
at an export of eabe685: `git archive eabe685`)."""

from __future__ import annotations

import pytest

from forge.rulebook.language.rule_claims import not_yet_reached
from forge.rulebook.language.meaning import meaning_of
from forge.rulebook.language.predicate import truth
from forge.rulebook.language.situation import read_situation
from forge.rulebook.model import RuleRecord
from tests.test_rulebook_claims_scope import taught
from tests.test_rulebook_text_checks import reply
from tests.test_rulebook_text_held import every_host, table


def semantic(text: str) -> str:
    """A compiler's reply that keeps the rule semantic (no predicate)."""
    return reply({"item": 1, "verdict": "RULE", "type": "CONTENT", "directive": text, "roles": ["action_chooser"],
                  "when": None, "action": None, "unexpressed": "", "trigger": ""})


def _before_held(text: str, context: str):
    return truth(not_yet_reached(text), read_situation(context))


# -- an order given before the attacker reaches its host ---------------------------------------------------------------

@pytest.mark.parametrize("text, host", [
    ("With two user boxes owned, plant a DecoyTomcat on Enterprise2 before they get there, not one more Remove.",
     "Enterprise2"),
    ("When User1 falls, set a DecoySSHD on Enterprise0 before red reaches it.", "Enterprise0"),
    ("If User3 is compromised, drop a DecoyTomcat on Op_Host0 before the intruder gets to Op_Host0.", "Op_Host0"),
])
def test_an_order_before_the_attacker_arrives_is_false_once_its_host_is_held(text, host):
    held = {"User1": "None,User", "User2": "None,User", "User3": "None,User", "User4": "None,User"}
    assert _before_held(text, every_host(**held)) is True
    assert _before_held(text, every_host(**held, **{host: "Exploit,User"})) is False
    assert _before_held(text, every_host(**held, **{host: "None,Privileged"})) is False
    # (loosely: alerts that leave the host out do not make it false)
    assert _before_held(text, table(User1="None,User")) is not False
    # (an order on another host: the one named in the clause is only what it forestalls, no condition)
    elsewhere = f"When User1 shows an exploit, kick the attacker off User1 before they get to {host}."
    assert not_yet_reached(elsewhere) is None
    assert not_yet_reached("DecoyTomcat on User2, a lure set before they arrive") is None


def test_a_semantic_rule_given_before_the_attacker_arrives_is_silent_where_its_host_is_already_held(tmp_path):
    text = "Once two user boxes are owned, plant a DecoyTomcat on Enterprise2 before they get there."
    record, injected = taught(tmp_path, text, semantic(text), kind="rule")
    assert record.when is None
    owned = {"User1": "None,User", "User2": "None,User"}
    assert injected(every_host(**owned))
    assert not injected(every_host(**owned, Enterprise2="Exploit,User"))


# -- a host excepted from a class --------------------------------------------------------------------------------------

def _record(text: str, when: dict) -> RuleRecord:
    return RuleRecord(rule_id="r1", directive=text, type="CONTENT", roles=("analyst",), group="g", text=text, when=when,
                      action={"mode": "do", "verb": "Restore", "target": "$matched"})


def test_a_class_rule_with_a_host_excepted_applies_where_that_host_is_not_shown():
    text = "Restore any host you look at that is at Unknown. (Op_Host1 is the exception.)"
    when = {"all": [{"class": "any", "compromise": "Unknown"}, {"not": {"host": "Op_Host1", "compromise": "Unknown"}}]}
    read = meaning_of(_record(text, when)).when
    assert truth(read, read_situation(table(User3="None,Unknown"))) is True
    assert truth(read, read_situation(table(Op_Host1="None,Unknown"))) is not True
    # beside the excepted host in that state, the others still apply
    assert truth(read, read_situation(every_host(Op_Host1="None,Unknown", Enterprise2="None,Unknown"))) is True
    # a denial the text does not except stays a condition
    kept = meaning_of(_record("Restore any host at Unknown while Op_Host1 is not at Unknown.", when)).when
    assert truth(kept, read_situation(every_host(Op_Host1="None,Unknown", Enterprise2="None,Unknown"))) is False



# -- an activity or a compromise, said of one host ---------------------------------------------------------------------

@pytest.mark.parametrize("text", [
    "If Op_Host1 is under exploit or already at root, restore Op_Host1.",
    "When Op_Host1 gets exploited or privileged, restore Op_Host1.",
])
def test_an_activity_or_a_level_of_one_host_is_either_not_both(text):
    from forge.rulebook.language.condition import text_claims

    found, _ = text_claims(text)
    assert truth(found, read_situation(every_host(Op_Host1="Exploit,No"))) is True
    assert truth(found, read_situation(every_host(Op_Host1="None,Privileged"))) is True
    assert truth(found, read_situation(every_host(Op_Host1="Scan,No"))) is False
