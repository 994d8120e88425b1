"""What a rule kept without a compiled meaning forbids, in so many words. Pure.

The product's checks keep a rule semantic when its compilation says more than its text or the opposite of it;
its condition is then judged three-valued from its words and it has no predicate. It is still an exception
its teacher meant: "Do not restore User3, even when it's rooted: the lab runs on it" forbids Restore on User3,
whatever the general rule "Restore any user host that shows a privileged compromise" says. `forbidden_in_words`
reads that much (one forbidden verb, on the hosts the text names) as a meaning used only to find and settle
disagreements (meaning.Meaning.said): never to decide whether the rule applies, which stays its own
three-valued reading.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Optional

from forge.rulebook.language.action import ANY_VERB, MATCHED, Move, RuleAction
from forge.rulebook.language.predicate import AnyOf, Atom, Predicate
from forge.rulebook.language.wording import read_wording


@lru_cache(maxsize=4096)
def forbidden_in_words(text: str) -> Optional[tuple[Predicate, RuleAction]]:
    """(the named hosts, "never VERB" on them) when the text forbids one verb (or every verb: "spend nothing on
    User0") or disprefers it ("remove it rather than restoring it") on hosts it names, and no host class; None
    otherwise (nothing forbidden, several verbs, a class, no named host)."""
    words = read_wording(text)
    if words.classes:
        return None  # a class prohibition is a general rule, not an exception about named hosts
    verbs: set[str] = set()
    hosts: set[str] = set()
    for prohibition in words.prohibitions:
        if prohibition.classes:
            return None
        verbs.add(prohibition.verb or ANY_VERB)
        hosts |= set(prohibition.hosts or words.hosts)
    if words.dispreferred:
        verbs |= set(words.dispreferred)
        hosts |= set(words.hosts)
    hosts -= set(words.excepted)
    if len(verbs) != 1 or not hosts:
        return None
    atoms = tuple(Atom(host=host) for host in sorted(hosts))
    when: Predicate = atoms[0] if len(atoms) == 1 else AnyOf(atoms)
    return when, RuleAction("never", Move(verbs.pop(), MATCHED))
