"""Round 54 (r54b): an audit of r54m's "<class> only" (markers.CLASS_ONLY) at its edges. Said as a clause of its own,
"(op boxes only)", "Remove it, usr boxes only, ...", it is the class the rule is for; inside a condition's clause,
"once user boxes only show up in the alerts", "if the probes touch user machines only", it restricts the situation (no
host of another class so), and claims of the class alone were wider than the words."""

import pytest

from forge.rulebook.authoring.checks import text_problem


def _on(verb, target, mode="do"):
    return {"mode": mode, "verb": verb, "target": target}


@pytest.mark.parametrize("text, when, action", [
    ("Restore Op_Server0 once user boxes only show up in the alerts.", {"class": "User", "activity": "Scan"},
     _on("Restore", "Op_Server0")),
    ("Sleep if the probes touch user machines only.", {"class": "User", "activity": "Scan"}, _on("Sleep", None)),
    ("Restore Op_Server0 when the alerts name user machines only.", {"class": "User", "activity": "Scan"},
     _on("Restore", "Op_Server0")),
    ("Analyse Enterprise2 once the scans hit user hosts only.", {"class": "User", "activity": "Scan"},
     _on("Analyse", "Enterprise2")),
])
def test_a_class_only_inside_the_conditions_clause_restricts_the_situation(text, when, action):
    assert text_problem(text, when, action) is not None


@pytest.mark.parametrize("text, when, action", [
    ("Decoy any scanned host (op boxes only).", {"class": "Operational", "activity": "Scan"}, _on("DecoyApache", "$matched")),
    ("Decoy any scanned host - op boxes only.", {"class": "Operational", "activity": "Scan"}, _on("DecoyApache", "$matched")),
    ("Remove it, usr boxes only, whenever a host reads Compromised Privileged.", {"class": "User", "compromise": "Privileged"},
     _on("Remove", "$matched")),
])
def test_a_class_only_said_as_a_clause_of_its_own_is_still_the_rules_class(text, when, action):
    assert text_problem(text, when, action) is None
