"""Compiling artifacts into RULE directives: the deterministic path, the surrogate compiler, bad model output."""

from __future__ import annotations

import json

import pytest

from forge.config import load_config
from forge.llm.types import Completion, Usage
from forge.rulebook.authoring.compile import RuleCompiler, SourceItem, render_artifacts, strip_justification
from forge.wiring import build_clients


class ScriptedClient:
    def __init__(self, *replies: str) -> None:
        self.replies = list(replies)
        self.prompts: list[list] = []

    def complete(self, messages, *, seed=None, stop=None):
        self.prompts.append(list(messages))
        if not self.replies:
            raise AssertionError("the compiler model was called but no reply was scripted")
        return Completion(self.replies.pop(0), Usage(10, 10))


def test_grammar_rules_compile_without_a_model_call():
    client = ScriptedClient()  # any call fails the test
    items = [SourceItem("rule", "action_chooser", "when enterprise0 shows any compromise then restore enterprise0", "s/i00"),
             SourceItem("rule", "planner", "- When a User host shows Activity Exploit, then Remove that host.", "s/i01")]
    report = RuleCompiler(client).compile(items)
    assert client.prompts == [] and report.calls == [] and not report.problems
    first, second = report.rules
    assert first.kept and first.compiled_by == "grammar" and first.type == "CONTENT" and first.roles == ("action_chooser",)
    assert first.directive == "When Enterprise0 shows any compromise, then Restore Enterprise0."
    assert first.group == "Enterprise0/any-compromise" and first.trigger == "Enterprise0 shows any compromise"
    assert second.directive == "When a User host shows Activity Exploit, then Remove that host."
    assert second.group == "User/activity-exploit" and second.roles == ("planner",)


def test_the_surrogate_compiles_corrections_examples_and_drops_noise():
    clients, ledger = build_clients(load_config())
    items = [
        SourceItem("correction", "action_chooser",
                   "Restore Op_Server0 as soon as it shows any compromise, because losing it ends the game.", "user:alice"),
        SourceItem("correction", "planner", "Always reply with exactly one `Answer:` line so that the parser can read it.", "user:alice"),
        SourceItem("example", "planner", "Situation:\nUser1: Activity Exploit, Compromised User\nThought: it spreads.\nAnswer: Restore User1",
                   "s/i00", title="restore-user1"),
        SourceItem("correction", "analyst", "The network is large.", "user:bob"),
        SourceItem("correction", "action_chooser", "Restore Op_Server0 as soon as it shows any compromise.", "user:carol"),
    ]
    report = RuleCompiler(clients["compiler"], batch=len(items)).compile(items)  # one call: repeats are seen together
    assert len(report.calls) == 1 and ledger.totals_by_role()["compiler"].calls == 1 and not report.problems
    correction, fmt, example, noise, repeat = report.rules
    assert correction.kept and correction.compiled_by == "model" and correction.type == "CONTENT"
    assert correction.directive == "Restore Op_Server0 as soon as it shows any compromise" and "because" not in correction.directive
    # The group is derived from the rule's trigger when the compiler gives one (Op_Server0/any-compromise),
    # else from the host it names (Op_Server0/general): either way it is about Op_Server0.
    assert correction.group.startswith("Op_Server0/") and correction.roles == ("action_chooser",)
    assert fmt.kept and fmt.type == "FORMAT" and fmt.directive == "Always reply with exactly one `Answer:` line"
    assert fmt.group == "format/reply" and fmt.trigger == ""
    assert example.kept and example.directive == "When User1 shows Compromised User, then Restore User1."
    assert example.group == "User1/compromised-user" and example.roles == ("planner",)  # no broader than shown
    assert not noise.kept and noise.reason
    assert not repeat.kept and "repeats" in repeat.reason


def test_a_reply_cut_off_at_the_token_budget_splits_the_batch_instead_of_losing_rules():
    # 512 tokens hold about four contract entries; ask for eight in one call with a budget of 300.
    clients, _ = build_clients(load_config(overrides=["models.compiler.provider=surrogate", "models.compiler.max_tokens=300"]))
    texts = [f"Whenever {host} shows any sign of compromise, reimage it." for host in
             ("User1", "User2", "User3", "User4", "Enterprise0", "Enterprise1", "Enterprise2", "Op_Server0")]
    items = [SourceItem("correction", "action_chooser", text, f"user:op{i}") for i, text in enumerate(texts)]
    report = RuleCompiler(clients["compiler"], batch=8).compile(items)
    assert report.unusable and report.unusable[0] == 8  # the first reply really was cut off
    assert [r.compiled_by for r in report.rules] == ["model"] * 8
    assert all(r.when is not None and r.action is not None for r in report.rules)


def test_the_compiler_prompt_lists_numbered_artifacts_with_their_actor():
    text = render_artifacts([SourceItem("correction", "analyst", "Flag reverse shells.", "user:alice")])
    assert "[1] correction for analyst, taught by user:alice\nFlag reverse shells." in text


def test_unusable_model_output_is_reprompted_then_compiled_as_written():
    client = ScriptedClient("I think these are fine.", "still no json")
    items = [SourceItem("correction", "action_chooser", "Never Sleep while User hosts show Exploit, since it lets red in.", "user:a"),
             SourceItem("example", "planner", "no alerts here", "s/i00")]
    report = RuleCompiler(client).compile(items)
    assert len(client.prompts) == 2 and "could not be used" in client.prompts[1][-1].content
    assert any("unusable compiler reply" in p for p in report.problems)
    kept, dropped = report.rules
    assert kept.kept and kept.compiled_by == "fallback" and kept.directive == "Never Sleep while User hosts show Exploit"
    assert not dropped.kept and dropped.compiled_by == "fallback"


def test_model_entries_are_checked_field_by_field():
    reply = json.dumps({"rules": [
        {"item": 1, "verdict": "RULE", "directive": "Prefer Restore", "type": "CONTENT", "roles": ["janitor"]},
        {"item": 2, "verdict": "MAYBE"},
        {"item": 7, "verdict": "RULE", "directive": "x"},
        {"item": 3, "verdict": "RULE", "directive": "When User2 shows Activity Scan then Analyse User2 because scans precede exploits",
         "type": "content", "roles": ["planner", "analyst"], "group": "whatever"},
    ]})
    items = [SourceItem("correction", "planner", f"rule {i}", "user:a") for i in (1, 2, 3)]
    report = RuleCompiler(ScriptedClient(reply)).compile(items)
    assert any("roles" in p and "janitor" in p for p in report.problems)
    assert any("MAYBE" in p for p in report.problems) and any("item 7" in p for p in report.problems)
    first, second, third = report.rules
    assert first.compiled_by == second.compiled_by == "fallback"
    assert third.compiled_by == "model" and third.directive == "When User2 shows Activity Scan, then Analyse User2."
    assert third.roles == ("planner", "analyst") and third.group == "User2/activity-scan"  # the grammar's own group


@pytest.mark.parametrize("text, expected", [
    ("Restore Enterprise1 now because red pivots through it.", "Restore Enterprise1 now"),
    ("Remove User3 (so that the session dies).", "Remove User3"),
    ("Monitor when quiet; otherwise act", "Monitor when quiet"),
    ("Restore Op_Server0 as soon as it is compromised", "Restore Op_Server0 as soon as it is compromised"),
])
def test_justifications_are_cut(text, expected):
    assert strip_justification(text) == expected


def test_an_entry_is_checked_against_its_text_once_and_keeps_its_verdict(monkeypatch):
    """The compiler's entry is checked when it answers, after a re-prompt and when it is kept: the checks are pure, so
    the same entry is checked once and each ask gets the first verdict; another entry is checked on its own."""
    from forge.rulebook.authoring import compile as compiling

    asked = []

    def counted(text, when_raw, action_raw, unexpressed=""):
        asked.append(text)
        return None if "Op_Host2" in text else "host: a stand-in verdict"

    monkeypatch.setattr(compiling, "text_problem", counted)
    compiling._text_problem_of.cache_clear()
    when = {"host": "Op_Host2", "compromise": "User"}
    action = {"mode": "do", "verb": "Restore", "target": "Op_Host2"}
    try:
        first = compiling.content_meaning("Restore Op_Host2 while red has a user shell there.", when, action)
        again = compiling.content_meaning("Restore Op_Host2 while red has a user shell there.", dict(when), dict(action))
        other = compiling.content_meaning("Restore Op_Host1 while red has a user shell there.", when, action)
    finally:
        compiling._text_problem_of.cache_clear()  # no stand-in verdict outlives this test
    assert first == again and first.problem == "" and "stand-in verdict" in other.problem
    assert asked == ["Restore Op_Host2 while red has a user shell there.", "Restore Op_Host1 while red has a user shell there."]
