"""Contexts and situations typed in tests, in the shapes the rulebook's reading tests keep building, and the one way
those tests judge a semantic rule's claims against a context."""
from __future__ import annotations

from forge.env.catalog import HOSTS
from forge.rulebook.language.condition import semantic_claims
from forge.rulebook.language.predicate import truth
from forge.rulebook.language.situation import read_situation

# A semantic rule whose compiled predicate the product's checks refused (the check's name never matters to reading)
REFUSED = "predicate refused: a check"


def alert_lines(**rows: str) -> str:
    """An alerts block naming only these hosts, each "Activity/Compromised": every other host is unshown."""
    lines = [f"{host}: Activity {row.split('/')[0]}, Compromised {row.split('/')[1]}" for host, row in rows.items()]
    return "\n".join(["Alerts:", *lines])


def every_host_alert_lines(**states: str) -> str:
    """The whole table as alert lines: these hosts each "Activity/Compromised", every other host quiet."""
    return alert_lines(**{host: states.get(host, "None/No") for host in HOSTS})


def alert_rows(*rows: tuple[str, str, str]):
    """An alerts block naming only the given (host, activity, compromised) rows: every other host is unshown."""
    return read_situation(alert_lines(**{h: f"{a}/{c}" for h, a, c in rows}))


def table_rows(*rows: tuple[str, str, str]):
    """The whole table: the hosts given in their states, every other host quiet."""
    given = {h: (a, c) for h, a, c in rows}
    return read_situation("Hostname | Activity | Compromised\n" + "\n".join(
        f"{h} | {given.get(h, ('None', 'No'))[0]} | {given.get(h, ('None', 'No'))[1]}" for h in HOSTS))


def refused_rule_holds(text: str, context: str):
    """What a rule kept semantic after its predicate was refused reads in this context (None: unknown)."""
    found = semantic_claims(text, REFUSED, text)
    return None if found is None else truth(found, read_situation(context))


def refused_rule_holds_on(text: str, **states: str):
    """`refused_rule_holds` where these hosts show "Activity/Compromised" and every other host is quiet."""
    return refused_rule_holds(text, every_host_alert_lines(**states))
