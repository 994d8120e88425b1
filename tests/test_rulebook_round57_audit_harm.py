"""Round 57 audit of r57h (r57a): readings that said more than the words, or the opposite.

- a level said by its place below another ("less than root", "beneath admin", "lower than root access") is the levels
  under it, never that level; one that names no level of the table ("nothing less than root", "root or less", "above
  root", "under admin control") is left unread.
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


def test_a_level_placed_where_no_table_level_stands_is_unread() -> None:
    for said in ("nothing less than root on Op_Host1", "Op_Host1 never below admin", "Op_Host1 at root or less",
                 "Op_Host1 user level or under", "Op_Host1 gone above root", "Op_Host1 at most user level",
                 "Op_Host1 running under admin rights", "Op_Host1 held at or below user level"):
        assert claims(said) is None, said
