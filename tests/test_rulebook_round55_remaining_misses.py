"""Round 55 (r55n): readings that left blind rules missed, each read no wider than its words."""

from forge.rulebook.language.claims import claims
from forge.rulebook.language.guard import whole_claims
from forge.rulebook.language.predicate import atoms_of


def _hosts_with(found, activity):
    return {atom.host for atom, negated in atoms_of(found) if atom.activity == activity and not negated}


def test_an_aside_between_hosts_and_their_state_is_not_its_subject():
    # (the state after "(not the Defender)" is the named servers', never the Defender's)
    found = claims("Op_Host1/Op_Host2 (not the Defender) probed")
    assert found is not None
    assert _hosts_with(found, "Scan") == {"Op_Host1", "Op_Host2"}
    whole = whole_claims("U1/U3 (never the Defender) probed -> Analyse that box")
    assert whole is not None and "Defender" not in {a.host for a, _ in atoms_of(whole)}


def test_an_aside_after_a_class_is_left_in_place():
    # ("user boxes (not User2) probed": read without the aside, the class would take User2 back in)
    from forge.rulebook.language.instruction import excepted_between_away
    text = "user boxes (not User2) probed"
    assert excepted_between_away(text) == text


def test_else_branches_after_the_case_do_not_guard_it():
    # (a rest of "else ..." / "otherwise ..." parts: the cases after the rule's own, never when it applies)
    from forge.rulebook.language.guard import guard_rest
    from forge.rulebook.language.predicate import parse_predicate
    when = parse_predicate({"host": "Enterprise1", "compromise": "Privileged"})
    rest = "else if Enterprise1 is merely probed: DecoySmss on it; otherwise leave Enterprise1 be"
    assert guard_rest(rest, when) == ""
    # (a rest that opens with a condition of its own still guards)
    assert guard_rest("only while Enterprise1 is also probed", when) != ""
