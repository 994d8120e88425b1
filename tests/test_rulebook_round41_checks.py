"""Issue 29, round 41 (r41x): the checks' holes the mutation bench (scripts/bench/check_mutations.py) found by class.

- the anchor of a rule about a host it names (a bare atom: the host merely shown) is not widened to the host's class or
  to any host (`checks._anchor_widened`, through `_state_on_unnamed_host`);
- one alternative of a condition on a named host is not moved to the host's class, or to any host, beside the host's
  own alternative, nor one on a class the text names to any host (`checks._alternative_widened`);
- an attack phase the text names whose definition is a named host's state ("the impact phase") keeps that state on the
  host, not on its class or any host (`checks._phase_host_widened`);
- a host the text says shows a scan and no more ("scan only") is not asked compromised
  (`checks._scan_only_compromised`);
- a kind of activity the lesson says of a class or of any host ("a user host that gets scanned") is not asked as any
  activity there, on a class now as on a named host (`checks._state_widened`, `checks._level_widened`); a kind only
  the story names leaves the lesson's own words free.

Each refusal below passes the checks at 3fb87bb (checked by running this file against that checks.py: every
`_refused` assertion failed there, every acceptance held; the helper `_alternative_widened` does not exist there).
Sentences of our own, none from a case file."""

from __future__ import annotations

from forge.rulebook.authoring.checks import text_problem


def _refused(text, when, action, check=""):
    problem = text_problem(text, when, action)
    return problem is not None and problem.startswith(check)


NEVER_RESTORE_E2 = {"mode": "never", "verb": "Restore", "target": "Enterprise2"}


def test_the_anchor_of_a_named_host_is_not_widened_to_its_class():
    text = "No Restore of Enterprise2 unless it has reached Privileged."
    denied = {"not": {"host": "Enterprise2", "compromise": "Privileged"}}
    assert _refused(text, {"all": [{"class": "Enterprise"}, denied]}, NEVER_RESTORE_E2, "host:")
    assert text_problem(text, {"all": [{"host": "Enterprise2"}, denied]}, NEVER_RESTORE_E2) is None


def test_the_anchor_of_a_named_host_is_not_widened_to_any_host():
    text = "Never give Enterprise2 a Restore unless its row reads Privileged."
    denied = {"not": {"host": "Enterprise2", "compromise": "Privileged"}}
    assert _refused(text, {"all": [{"class": "any"}, denied]}, NEVER_RESTORE_E2, "host:")
    assert text_problem(text, {"all": [{"host": "Enterprise2"}, denied]}, NEVER_RESTORE_E2) is None


def test_a_rule_whose_rest_is_unexpressed_keeps_its_named_host_as_anchor():
    text = "Op_Server0 gets a Restore when the reward falls steeply."
    restore = {"mode": "do", "verb": "Restore", "target": "Op_Server0"}
    assert _refused(text, {"class": "Operational"}, restore, "host:")


def test_one_alternative_of_a_named_hosts_levels_is_not_moved_to_its_class():
    # (the story leaves the reading of the condition partial: the claims check alone would not see it)
    text = ("User2 held a user-level foothold from step 4 while I chased other alerts, and the intruder hopped from it to "
            "Enterprise1. Perhaps the timing was bad. Give it a Restore the moment it is compromised.")
    restore = {"mode": "do", "verb": "Restore", "target": "User2"}
    own = {"host": "User2", "compromise": "User"}
    assert _refused(text, {"any": [own, {"class": "User", "compromise": "Privileged"}]}, restore, "host:")
    assert _refused(text, {"any": [own, {"class": "any", "compromise": "Privileged"}]}, restore, "host:")
    assert text_problem(text, {"any": [own, {"host": "User2", "compromise": "Privileged"}]}, restore) is None


def test_an_alternative_on_a_class_the_text_names_is_left_alone():
    text = "Restore User2 when User2 is rooted or when some user workstation at all shows an exploit."
    restore = {"mode": "do", "verb": "Restore", "target": "User2"}
    when = {"any": [{"host": "User2", "compromise": "Privileged"}, {"class": "User", "activity": "Exploit"}]}
    assert not (text_problem(text, when, restore) or "").startswith("host: one alternative")


def test_a_kind_of_activity_on_a_class_is_not_any_activity():
    text = "An enterprise server that gets probed earns a DecoyTomcat on that server."
    decoy = {"mode": "do", "verb": "DecoyTomcat", "target": "$matched"}
    assert _refused(text, {"class": "Enterprise", "activity": "any"}, decoy, "claims:")
    assert text_problem(text, {"class": "Enterprise", "activity": "Scan"}, decoy) is None


def test_a_kind_of_activity_on_any_host_is_not_any_activity():
    text = "Once the attack reaches the stage where a host is under exploitation, a Remove of that host comes first, ahead of any decoy."
    remove = {"mode": "do", "verb": "Remove", "target": "$matched"}
    assert _refused(text, {"class": "any", "activity": "any"}, remove, "claims:")
    assert text_problem(text, {"class": "any", "activity": "Exploit"}, remove) is None


def test_a_kind_only_the_story_names_leaves_the_lessons_activity_free():
    text = ("The exploit on a desktop last week came out of nowhere. From now on: when a workstation's traffic looks off, "
            "Analyse that workstation.")
    analyse = {"mode": "do", "verb": "Analyse", "target": "$matched"}
    assert not (text_problem(text, {"class": "User", "activity": "any"}, analyse) or "").startswith("claims: the text names a kind")


def test_a_scan_and_no_more_is_not_a_compromised_host():
    text = "E2 scan only = no Restore for E2"
    never = {"mode": "never", "verb": "Restore", "target": "Enterprise2"}
    scanned = {"activity": "Scan", "host": "Enterprise2"}
    assert _refused(text, {**scanned, "compromise": "any"}, never, "claims:")
    assert text_problem(text, {**scanned, "compromise": "No"}, never) is None


def test_an_alternative_on_a_named_class_is_not_moved_to_any_host():
    # (read whole, the claims check already refuses it; the alternatives check sees it where the reading is partial)
    from forge.rulebook.authoring.checks import _alternative_widened
    from forge.rulebook.language.predicate import parse_predicate

    text = "An enterprise server that gets owned gets a Remove of that server."
    wide = {"any": [{"class": "Enterprise", "compromise": "User"}, {"class": "any", "compromise": "Privileged"}]}
    kept = {"any": [{"class": "Enterprise", "compromise": "User"}, {"class": "Enterprise", "compromise": "Privileged"}]}
    assert (_alternative_widened(text, parse_predicate(wide), wide) or "").startswith("host:")
    assert _alternative_widened(text, parse_predicate(kept), kept) is None


def test_a_phase_defined_by_a_named_host_keeps_its_state_on_that_host():
    text = "While the impact phase lasts, Op_Server0 comes back first: Restore it before any other move."
    restore = {"mode": "do", "verb": "Restore", "target": "Op_Server0"}
    assert _refused(text, {"class": "Operational", "compromise": "any"}, restore, "host:")
    assert _refused(text, {"class": "any", "compromise": "any"}, restore, "host:")
    assert text_problem(text, {"host": "Op_Server0", "compromise": "any"}, restore) is None
