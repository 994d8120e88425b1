"""Issue 29, round 22 (r22r, the development splits' remaining harms). Every harmful injection left on the development
splits (blind8, 10, 11, 12, 13, 16, 18) is a rule injected where its own words, and its case author's own compilation,
do apply in the context as the role sees it (labels judged disputable, /work/notes/r22r.md). No reading was changed.

These guards pin the other side of the same classes, on sentences written for these tests: taught with the faithful
compilation (or a wider one, held to its words), each rule speaks where its words apply and stays silent where they do
not (a host "still clean" at Scan but not at Unknown or compromised; "only Unknown and no confirmed compromise" not at a
confirmed level; "compromised" not at Unknown; a condition on a host the context does not state; a host named quiet in
the planner's changed line is shown, one not named is not)."""

from __future__ import annotations

import json

import pytest

CHOOSER, PLANNER = "action_chooser", "planner"
UP = lambda h: [{"host": h, "compromise": "User"}, {"host": h, "compromise": "Privileged"}]  # noqa: E731


def _chooser(*rows: tuple[str, str, str]) -> str:
    """The ActionChooser's context as the defender builds it (the Planner's situation line, then the alerts)."""
    alerts = "\n".join(f"{h}: Activity {a}, Compromised {c}" for h, a, c in rows)
    situation = ", ".join(f"{h} shows Activity {a}, Compromised {c}" for h, a, c in rows[:3])
    return f"Situation (from the Planner): {situation}\n\nAlerts:\n{alerts}"


def _planner(changed, *rows: tuple[str, str, str]) -> str:
    """The Planner's context: the hosts changed since the last step, then the alerts."""
    line = ", ".join(f"{h} (Activity {a}, Compromised {c})" for h, a, c in changed)
    alerts = "\n".join(f"{h}: Activity {a}, Compromised {c}" for h, a, c in rows)
    return (f"Step 12 of 30.\nObservation from get_updated_hosts(): Hosts changed since the last step: {line}\n"
            f"Alerts:\n{alerts}\n")


def _injected(tmp_path, role: str, text: str, when, action):
    """Teach `text` compiled as (when, action); return whether the rule is injected on a context."""
    from forge.memory.model import Provenance
    from forge.rulebook.authoring.compile import RuleCompiler
    from forge.rulebook.authoring.teaching import Correction, teach_text
    from forge.rulebook.book import Rulebook
    from forge.rulebook.injection import RulebookInjection
    from forge.rulebook.retrieval.retrieve import RetrievalSettings
    from forge.rulebook.store.backends import open_rulebook
    from tests.test_rulebook_compile import ScriptedClient

    answer = json.dumps({"rules": [{"item": 1, "verdict": "RULE", "type": "CONTENT", "directive": text, "roles": [role],
                                    "when": when, "action": action, "unexpressed": "", "trigger": ""}]})
    book = Rulebook(open_rulebook(str(tmp_path / "rb.db")))
    (rule_id,) = teach_text(book, RuleCompiler(ScriptedClient(answer, answer)),
                            [Correction(text, role, "user:pat", "pat")], provenance=Provenance()).rule_ids
    assert rule_id is not None

    def injected(context: str) -> bool:
        injection = RulebookInjection(book, RetrievalSettings(), actor=None, window=0, embedder=book.embedder)
        return rule_id in {i.id.split("@")[0] for i in injection.for_call(role, context).items}
    return injected


def test_still_clean_before_the_attacker_gets_there_is_met_by_a_scan_only(tmp_path) -> None:
    text = ("Put a DecoySSHD on Enterprise0 before the attacker gets there, that is while User2 is compromised and "
            "Enterprise0 is still clean.")
    injected = _injected(tmp_path, CHOOSER, text, {"all": [{"any": UP("User2")}, {"host": "Enterprise0", "compromise": "No"}]},
                         {"mode": "do", "verb": "DecoySSHD", "target": "Enterprise0"})
    assert injected(_chooser(("User2", "None", "User"), ("Enterprise0", "Scan", "No")))  # scanned is still clean
    assert not injected(_chooser(("User2", "None", "User"), ("Enterprise0", "None", "User")))
    assert not injected(_chooser(("User2", "None", "User"), ("Enterprise0", "None", "Unknown")))  # not known clean
    assert not injected(_chooser(("User2", "None", "Unknown"), ("Enterprise0", "None", "No")))  # not known compromised
    assert not injected(_chooser(("User2", "None", "User")))  # Enterprise0 not stated


@pytest.mark.parametrize("wider", [False, True])
def test_compromised_said_of_a_named_host_is_not_met_at_unknown(tmp_path, wider) -> None:
    text = "If User3 is compromised, plan a Remove of User3."
    when = {"host": "User3", "compromise": "any"} if wider else {"any": UP("User3")}  # "any" also holds at Unknown
    injected = _injected(tmp_path, PLANNER, text, when, {"mode": "do", "verb": "Remove", "target": "User3"})
    assert injected(_planner([("User3", "Exploit", "User")], ("User3", "Exploit", "User")))
    assert not injected(_planner([("User3", "None", "Unknown")], ("User3", "None", "Unknown")))
    assert not injected(_planner([("User3", "None", "No")], ("User1", "None", "User")))


def test_only_unknown_and_no_confirmed_compromise_is_not_met_at_a_confirmed_level(tmp_path) -> None:
    text = ("The restore on User2 wasted the step, I think. What I'd do next time: as long as User2 shows only Unknown "
            "and no confirmed compromise, do not restore it; Analyse it instead.")
    injected = _injected(tmp_path, CHOOSER, text, {"host": "User2", "compromise": "Unknown"},
                         {"mode": "prefer", "verb": "Analyse", "target": "User2", "over": {"verb": "Restore", "target": "User2"}})
    assert injected(_chooser(("User2", "None", "Unknown")))
    assert not injected(_chooser(("User2", "None", "User")))
    assert not injected(_chooser(("User2", "Exploit", "Privileged")))


def test_a_class_at_unknown_rather_than_compromised_is_not_met_by_another_class(tmp_path) -> None:
    text = ("I restored Enterprise0 at once and it was wasted. The lesson: when an enterprise server shows Unknown "
            "rather than a confirmed compromise, Analyse it instead of reaching for a Restore.")
    injected = _injected(tmp_path, CHOOSER, text, {"class": "Enterprise", "compromise": "Unknown"},
                         {"mode": "prefer", "verb": "Analyse", "target": "$matched",
                          "over": {"verb": "Restore", "target": "$matched"}})
    assert injected(_chooser(("Enterprise0", "None", "Unknown")))
    assert not injected(_chooser(("Enterprise0", "None", "User"), ("User1", "None", "Unknown")))


def test_a_condition_on_a_host_named_quiet_in_the_changed_line_is_read_there_only(tmp_path) -> None:
    text = "plan: never Remove E0 while OpH1 clean."
    injected = _injected(tmp_path, PLANNER, text, {"all": [{"host": "Enterprise0"}, {"host": "Op_Host1", "compromise": "No"}]},
                         {"mode": "never", "verb": "Remove", "target": "Enterprise0"})
    assert injected(_planner([("Op_Host1", "None", "No")], ("Enterprise0", "None", "User")))  # named clean: it is clean
    assert not injected(_planner([("Op_Host1", "Exploit", "User")], ("Enterprise0", "None", "User"), ("Op_Host1", "Exploit", "User")))
    assert not injected(_planner([("User1", "Scan", "No")], ("Enterprise0", "None", "User")))  # Op_Host1 not stated


def test_plan_nothing_for_a_host_needs_the_host_shown(tmp_path) -> None:
    text = "Plan nothing at all for User2; it belongs to another team."
    injected = _injected(tmp_path, PLANNER, text, {"host": "User2"}, {"mode": "never", "verb": "any", "target": "User2"})
    assert injected(_planner([("User2", "Exploit", "User")], ("User1", "None", "User"), ("User2", "Exploit", "User")))
    # (r55h: named clean in the line of changes only, it has left the alerts: not shown, as the authors of blind-12, -13,
    # -16, -39 and -52 each labelled it; r22r had judged those label disputes and asserted it shown here)
    assert not injected(_planner([("User2", "None", "No")], ("User1", "None", "User")))
    assert not injected(_planner([("User1", "Exploit", "User")], ("User1", "Exploit", "User")))
