"""Situations read from contexts typed in tests, in the two shapes the rulebook's reading tests keep building."""
from __future__ import annotations

from forge.env.catalog import HOSTS
from forge.rulebook.language.situation import read_situation


def alert_rows(*rows: tuple[str, str, str]):
    """An alerts block naming only the given (host, activity, compromised) rows: every other host is unshown."""
    return read_situation("Alerts:\n" + "\n".join(f"{h}: Activity {a}, Compromised {c}" for h, a, c in rows))


def table_rows(*rows: tuple[str, str, str]):
    """The whole table: the hosts given in their states, every other host quiet."""
    given = {h: (a, c) for h, a, c in rows}
    return read_situation("Hostname | Activity | Compromised\n" + "\n".join(
        f"{h} | {given.get(h, ('None', 'No'))[0]} | {given.get(h, ('None', 'No'))[1]}" for h in HOSTS))
