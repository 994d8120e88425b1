"""Issue 18, items 5 and 6: decision contexts with history, history atoms (three-valued), attack phases of
history and what an Analyse result can show, and free-text conditions that stay silent where the context
does not state what they speak of."""

from __future__ import annotations

import json

import pytest

from forge.rulebook.language.condition import condition_of
from forge.rulebook.language.facts import facts_needed, facts_stated
from forge.rulebook.language.predicate import PredicateError, describe, matched_hosts, parse_predicate, predicate_to_json, truth
from forge.rulebook.language.situation import read_situation

# A context written in the defender's own history format (agents/defender.py).
WITH_HISTORY = """Step 10 of 30.
Recent steps: step 7: Remove Enterprise2 -> reward -1.0 | step 8: Monitor -> reward -1.0 | step 9: Analyse Op_Host1 -> reward -1.0
Host history (last 3 steps): Enterprise2: step 7 Exploit/User, step 8 None/User, step 9 None/User; Op_Host1: step 7 None/User, step 8 None/User, step 9 None/User; User3: step 7 None/No, step 8 Scan/No, step 9 Exploit/User; Op_Host2: step 7 None/No, step 8 None/No, step 9 None/No; every other host: None/No
Alerts:
Enterprise2: Activity None, Compromised User
Op_Host1: Activity None, Compromised Privileged
User3: Activity None, Compromised User
Op_Host2: Activity Exploit, Compromised User"""
WITHOUT_HISTORY = "\n".join(line for line in WITH_HISTORY.splitlines() if not line.startswith(("Recent", "Host history")))


def value(predicate: dict, context: str):
    return truth(parse_predicate(predicate), read_situation(context))


@pytest.mark.parametrize("predicate, with_history", [
    ({"host": "Op_Host2", "newly_compromised": True}, True),
    ({"host": "Enterprise2", "newly_compromised": True}, False),
    ({"host": "Enterprise2", "newly_compromised": False}, True),
    ({"host": "Enterprise2", "compromise": "any", "unchanged_for": 3}, True),
    ({"host": "Op_Host1", "unchanged_for": 1}, False),  # User -> Privileged this step
    ({"class": "any", "acted": "Remove", "within": 3, "changed": False}, True),  # still compromised after Remove
    ({"class": "any", "acted": "Remove", "within": 3, "changed": True}, False),
    ({"host": "Op_Host1", "acted": "Analyse", "changed": True}, True),  # the Analyse showed Privileged
    ({"class": "User", "acted": "any", "within": 3}, False),
    ({"host": "User3", "scan_before_exploit": True}, True),
    ({"host": "Enterprise2", "scan_before_exploit": True}, None),  # its exploit opens the window: the scan is older
])
def test_history_atoms_are_true_or_false_with_history_and_unknown_without(predicate, with_history):
    assert value(predicate, WITH_HISTORY) is with_history
    assert value(predicate, WITHOUT_HISTORY) is None  # no history lines: unknown, never fires
    assert value({"not": predicate}, WITHOUT_HISTORY) is None


def test_a_scan_older_than_the_window_is_unknown_and_only_a_window_from_the_first_step_says_false():
    """Issue 31, item 10: Enterprise2's history starts with its exploit at step 7; a scan before it may lie
    outside the window, so "scanned before it was exploited" is unknown there, not false. A window that
    reaches back to the episode's first step sees everything: there, no scan before the exploit is false."""
    assert value({"host": "Enterprise2", "scan_before_exploit": True}, WITH_HISTORY) is None
    assert value({"host": "Enterprise2", "scan_before_exploit": False}, WITH_HISTORY) is None
    assert value({"host": "User3", "scan_before_exploit": True}, WITH_HISTORY) is True  # seen inside the window
    whole = ("Step 3 of 30.\nRecent steps: step 1: Monitor -> reward 0.0 | step 2: Monitor -> reward -0.1\n"
             "Host history (last 2 steps): User1: step 1 None/No, step 2 Exploit/User; every other host: None/No\n"
             "Alerts:\nUser1: Activity None, Compromised User")
    assert value({"host": "User1", "scan_before_exploit": True}, whole) is False
    assert value({"host": "User1", "scan_before_exploit": False}, whole) is True


def test_a_window_too_short_for_the_question_is_unknown_and_a_host_quiet_now_is_not_newly_compromised():
    assert value({"class": "any", "acted": "Restore", "within": 6}, WITH_HISTORY) is None  # the line starts at step 7
    assert value({"host": "User0", "newly_compromised": True},
                 WITH_HISTORY.replace("Alerts:", "Alerts:\nUser0: Activity None, Compromised No")) is False


def test_history_atoms_round_trip_name_their_bad_values_and_read_in_words():
    source = {"class": "any", "compromise": "any", "acted": "Remove", "within": 2, "changed": False}
    assert predicate_to_json(parse_predicate(source)) == source
    assert "after Remove on it in the last 2 steps, its state unchanged after" in describe(parse_predicate(source))
    for bad, word in (({"class": "any", "unchanged_for": 0}, "unchanged_for"), ({"class": "any", "acted": "Dance"}, "acted"),
                      ({"class": "any", "within": 2}, "within"), ({"host": "User1", "newly_compromised": "yes"}, "newly_compromised")):
        with pytest.raises(PredicateError, match=word):
            parse_predicate(bad)
    assert matched_hosts(parse_predicate({"class": "any", "newly_compromised": True}), read_situation(WITH_HISTORY)) == ("Op_Host2",)


def test_lateral_movement_and_a_confirmed_escalation_are_phases_of_history():
    from forge.rulebook.language.phases import ANALYSE_SHOWS, PHASES, phase_lines

    assert value({"phase": "lateral movement"}, WITH_HISTORY) is True  # Op_Host2 new, Enterprise hosts already
    same_subnet = WITH_HISTORY.replace("Enterprise2: Activity None, Compromised User\n", "").replace(
        "Op_Host1: Activity None, Compromised Privileged\n", "")
    same_subnet = same_subnet.replace("Op_Host2: Activity Exploit", "User4: Activity Exploit").replace(
        "Op_Host2: step", "User4: step").replace("Alerts:", "Alerts:\n" + "\n".join(
            f"{h}: Activity None, Compromised No" for h in ("Enterprise0", "Enterprise1", "Enterprise2", "Defender",
                                                             "Op_Host0", "Op_Host1", "Op_Host2", "Op_Server0")))
    assert value({"phase": "lateral movement"}, same_subnet) is False  # User4 new, only User3 already
    assert value({"phase": "lateral movement"}, WITHOUT_HISTORY) is None
    assert value({"phase": "escalation_confirmed"}, WITH_HISTORY) is True  # Op_Host1 analysed, then Privileged
    assert value({"phase": "escalation_confirmed"}, WITHOUT_HISTORY) is None
    assert value({"phase": "privilege escalation"}, WITHOUT_HISTORY) is True  # a table phase needs no history
    lines = phase_lines()
    assert all(f'"phase": "{name}"' in lines for name in PHASES) and ANALYSE_SHOWS in lines


def test_the_defender_contexts_of_a_real_episode_carry_its_history():
    from agents.defender import Defender
    from agents.injection import NoInjection
    from forge.config import load_config
    from forge.env.cage2 import Cage2Env
    from forge.protocol.episode import play_episode
    from forge.runs.calibration import RecordingInjection
    from forge.wiring import build_clients

    cfg = load_config()
    clients, _ = build_clients(cfg)
    recording = RecordingInjection(NoInjection(), window=0)
    result = play_episode(Cage2Env(max_steps=8), Defender(clients, recording, cfg.agent, 30), seed=3)
    planner = [a.context for a in recording.asked if a.role == "planner"]
    assert "Host history" not in planner[0] and read_situation(planner[0]).history is None
    # The ActionChooser sees the same history lines as the Planner of its step.
    step, chooser_calls = 0, 0
    for asked in recording.asked:
        step += asked.role == "planner"
        if asked.role == "action_chooser":
            chooser_calls += 1
            lines = [line for line in planner[step - 1].splitlines() if line.startswith(("Recent steps:", "Host history"))]
            assert all(line in asked.context for line in lines) and (step == 1 or len(lines) == 2)
    assert chooser_calls
    k = cfg.agent.history_steps
    for step in range(2, len(result.steps) + 1):
        history = read_situation(planner[step - 1]).history
        assert history.step == step
        assert [a.step for a in history.actions] == list(range(max(1, step - k), step))
        assert [a.verb + (f" {a.host}" if a.host else "") for a in history.actions] == \
            [s.action for s in result.steps[max(0, step - 1 - k):step - 1]]
        # Each host's recorded states are what the defender's earlier observations stated for it.
        for host, states in history.hosts.items():
            for number, activity, compromise in states:
                earlier = read_situation(planner[number - 1])
                assert earlier.states(host) in (((activity, compromise),), ()), (step, host, number)
                if not earlier.states(host):
                    assert (activity, compromise) == ("None", "No")


@pytest.mark.parametrize("text, needs", [
    ("After Remove the host was still compromised. If a host is still compromised after Remove, Restore it.", {"history"}),
    ("Do not Analyse the same host twice in a row.", {"history"}),
    ("When the score falls sharply, Restore Op_Server0.", {"reward"}),
    ("If my last action failed, try another one.", {"history", "action outcome"}),
    ("When the severity of an alert is high, Analyse the host.", {"priority"}),
    ("When benign traffic on a user box spikes, Analyse it.", {"traffic"}),
    ("When User2 shows Activity Exploit, then Remove User2.", set()),
])
def test_a_free_text_condition_names_the_kinds_of_fact_it_needs(text, needs):
    assert facts_needed(condition_of(text)) == needs


def test_the_narrative_is_not_the_condition():
    assert condition_of("My Restore failed twice. When Op_Server0 shows Compromised User, Restore it.") == \
        "When Op_Server0 shows Compromised User"
    assert facts_stated(WITHOUT_HISTORY, read_situation(WITHOUT_HISTORY)) == frozenset()
    assert facts_stated(WITH_HISTORY, read_situation(WITH_HISTORY)) == {"history", "reward"}


def test_a_semantic_rule_about_history_or_unstated_facts_is_silent_where_the_context_does_not_state_them(tmp_path):
    from forge.memory.model import Provenance
    from forge.rulebook.authoring.teaching import Correction, teach_text
    from forge.rulebook.authoring.compile import RuleCompiler
    from forge.rulebook.book import Rulebook
    from forge.rulebook.injection import RulebookInjection
    from forge.rulebook.retrieval.embed import local_embedder
    from forge.rulebook.retrieval.retrieve import RetrievalSettings
    from forge.rulebook.store.backends import open_rulebook
    from tests.test_rulebook_compile import ScriptedClient

    texts = {"history": "If a host stays compromised after Remove, Restore it instead.",
             "priority": "When an alert has critical severity, Restore the host."}
    reply = json.dumps({"rules": [{"item": i, "verdict": "RULE", "type": "CONTENT", "directive": t,
                                   "roles": ["action_chooser"], "when": None, "action": None, "trigger": ""}
                                  for i, t in enumerate(texts.values(), 1)]})
    book = Rulebook(open_rulebook(str(tmp_path / "rb.db")), local_embedder())
    taught = teach_text(book, RuleCompiler(ScriptedClient(reply)),
                        [Correction(t, "action_chooser", "s1/i01", f"t{i}", kind="rule") for i, t in enumerate(texts.values())],
                        provenance=Provenance())
    ids = dict(zip(texts, taught.rule_ids))
    assert all(ids.values()) and all(book.store.head(r).record.when is None for r in ids.values())
    # A floor of 0 takes the cosine out: what silences the rules is what the context states.
    injection = RulebookInjection(book, RetrievalSettings(relevance_floor=0.0), window=0, embedder=book.embedder)

    def injected(context: str) -> set[str]:
        return {i.id.split("@")[0] for i in injection.for_call("action_chooser", context).items}

    assert injected(WITHOUT_HISTORY) == set()
    assert injected(WITH_HISTORY) == {ids["history"]}  # no context of CAGE-2 states a severity
    # a severity is no fact the product judges: the rule is silent also where a context states it in words (issue 29,
    # third round: a condition the claims cannot read in full is never judged by its likeness to the context)
    assert injected(WITH_HISTORY + "\nEnterprise2 alert severity: critical") == {ids["history"]}


def test_a_history_condition_of_absence_satisfies_the_polarity_check():
    from forge.rulebook.authoring.checks import text_problem

    restore = {"mode": "do", "verb": "Restore", "target": "$matched"}
    text = "When a host has not changed for two steps and is still compromised, Restore it."
    assert text_problem(text, {"class": "any", "compromise": "any", "unchanged_for": 2}, restore) is None
    assert text_problem("If Remove did not clear a host, Restore it.",
                        {"class": "any", "compromise": "any", "acted": "Remove", "within": 2, "changed": False}, restore) is None
    assert "negated" in text_problem(text, {"class": "any", "compromise": "any"}, restore)
