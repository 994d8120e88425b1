"""Round 57 audit of r57h (r57a): readings that said more than the words, or the opposite.

- a level said by its place below another ("less than root", "beneath admin", "lower than root access") is the levels
  under it, never that level ("nothing less than root", denied, is root); one that names no level of the table ("root or
  less", "above root", "under admin control") is left unread;
- a sentence that gives a word a situation of hosts ("breakout means Enterprise2 getting to root") states that situation.
"""

from __future__ import annotations

from forge.rulebook.language.claims import claims
from forge.rulebook.language.predicate import Atom, Not


def test_a_level_said_below_another_is_the_levels_under_it() -> None:
    for said in ("anything lower than root on User3", "User3 sitting beneath admin", "whatever is less than root access on User3",
                 "User3 at a level under root", "User3 compromised, yet not as far as root", "User3 less than fully owned"):
        found = claims(said)
        assert found is not None and Atom(host="User3", compromise="Privileged") not in (found, *getattr(found, "parts", ())), said
        assert Not(Atom(host="User3", compromise="Privileged")) in (found, *getattr(found, "parts", ())), said
    for said in ("User1 beneath user level", "User1 less than user access"):
        assert claims(said) == Atom(host="User1", compromise="No"), said
    assert claims("Op_Host2 gone past user level") == Atom(host="Op_Host2", compromise="Privileged")
    assert claims("Op_Host2 at any level other than admin") == Not(Atom(host="Op_Host2", compromise="Privileged"))


def test_a_level_placed_where_no_table_level_stands_is_unread() -> None:
    for said in ("nothing less than root on Op_Host1", "Op_Host1 never below admin"):
        assert claims(said) == Atom(host="Op_Host1", compromise="Privileged"), said
    for said in ("Op_Host1 not even below user level", "Op_Host1 at root or less",
                 "Op_Host1 user level or under", "Op_Host1 gone above root", "Op_Host1 at most user level",
                 "Op_Host1 running under admin rights", "Op_Host1 held at or below user level"):
        assert claims(said) is None, said


def _gate(text: str):
    from forge.rulebook.language.condition import semantic_claims

    return semantic_claims(text, "predicate refused: claims", text)


def _shown(*rows: str):
    from forge.rulebook.language.situation import read_situation

    lines = [f"{host}: Activity {activity}, Compromised {level}" for host, activity, level in (row.split() for row in rows)]
    return read_situation("Alerts:\n" + "\n".join(lines))


def test_a_word_given_a_situation_of_hosts_is_the_situation_the_order_points_back_at() -> None:
    from forge.rulebook.language.glossary import defines_word
    from forge.rulebook.language.predicate import truth

    text = "Breakout means Enterprise2 getting to root. At that point, Restore Enterprise2."
    found = _gate(text)
    assert truth(found, _shown("Enterprise2 Scan No")) is not True
    assert truth(found, _shown("Enterprise2 None User")) is not True
    assert not defines_word("panic is for whenever a user box gets owned")
    assert defines_word("pwned means User or Privileged")


def test_a_lone_it_is_never_the_counted_others_beside_it() -> None:
    from forge.rulebook.language.predicate import truth

    for text, quiet_named_other_hit in (
            ("Mind Op_Host2. As soon as it gets exploited, Analyse the other three op hosts.",
             ("Op_Host2 None No", "Op_Host0 Exploit User")),
            ("Enterprise2 is the one to follow. If it is rooted, the two other enterprise servers need a DecoyApache.",
             ("Enterprise2 None No", "Enterprise0 None Privileged"))):
        assert truth(_gate(text), _shown(*quiet_named_other_hit)) is not True, text


def test_a_level_placed_beside_another_state_keeps_both_or_is_unread() -> None:
    from forge.rulebook.language.predicate import truth

    both = claims("Enterprise1 is probed yet stays beneath root")
    for rows in (("Enterprise1 Scan Privileged",), ("Enterprise1 None User",)):
        assert both is None or truth(both, _shown(*rows)) is not True, rows
    kept = claims("User4 lower than root but showing an exploit")
    assert truth(kept, _shown("User4 Exploit User")) is True
    assert truth(kept, _shown("User4 Exploit Privileged")) is not True
    for said in ("User4 less than root and showing an exploit", "any op box below admin"):
        found = claims(said)
        assert found is None or truth(found, _shown("User4 Exploit User")) is not False, said
        assert found is None or truth(found, _shown("Op_Host1 Scan No")) is not True, said
