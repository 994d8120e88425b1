"""Issue 29, twenty-fourth round (r24h, blind21's outranked injections): where an exception wins a dispute, the general
rule is still kept for the hosts the exception does not dispute; a compiled general rule wider than its words ("any
compromise" for "compromised", which also matches a row at Compromised Unknown) speaks only for the hosts its words'
whole reading matches (as its gate already holds it to). Before, a user row at Unknown counted as undisputed, and the
general rule was injected beside the exception though it had nothing to say there. Sentences of our own."""

from __future__ import annotations

from forge.rulebook.language.action import parse_rule_action
from forge.rulebook.language.meaning import Meaning, undisputed_hosts
from forge.rulebook.language.predicate import parse_predicate


def _meaning(when, action):
    return Meaning(parse_predicate(when), parse_rule_action(action))


def test_a_wider_general_rule_speaks_only_where_its_words_hold():
    from forge.rulebook.language.condition import text_claims
    from forge.rulebook.language.situation import read_situation

    general = _meaning({"class": "Enterprise", "compromise": "any"}, {"mode": "do", "verb": "Remove", "target": "$matched"})
    exception = _meaning({"host": "Enterprise1"}, {"mode": "never", "verb": "Remove", "target": "Enterprise1"})
    situation = read_situation("Enterprise1: Activity None, Compromised User\nEnterprise2: Activity None, Compromised Unknown")
    held, whole = text_claims("Remove any enterprise server that is compromised.")
    assert whole
    assert undisputed_hosts(general, [exception], situation) == frozenset({"Enterprise2"})  # (the compiled predicate alone)
    assert undisputed_hosts(general, [exception], situation, held) == frozenset()


def test_the_general_rule_still_speaks_for_a_host_its_words_cover():
    # (guard: a host confirmed compromised and not disputed is still the general rule's)
    from forge.rulebook.language.condition import text_claims
    from forge.rulebook.language.situation import read_situation

    general = _meaning({"class": "Enterprise", "compromise": "any"}, {"mode": "do", "verb": "Remove", "target": "$matched"})
    exception = _meaning({"host": "Enterprise1"}, {"mode": "never", "verb": "Remove", "target": "Enterprise1"})
    situation = read_situation("Enterprise1: Activity None, Compromised User\nEnterprise2: Activity None, Compromised Privileged")
    held, _ = text_claims("Remove any enterprise server that is compromised.")
    assert undisputed_hosts(general, [exception], situation, held) == frozenset({"Enterprise2"})
