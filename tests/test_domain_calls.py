"""The domain calls behind the commands, called directly (a real SQLite rulebook, the surrogate model),
the one error tree, and the one compare-and-set retry loop."""

from __future__ import annotations

import pytest

from forge.cli import expected_failure
from forge.config import ConfigError, load_config
from forge.env.catalog import ActionParseError
from forge.errors import ForgeError, UsageError
from forge.llm.limiter import BudgetExhausted
from forge.llm.types import AuthenticationError, ProviderError
from forge.plumbing.local_redis import LocalRedisError
from forge.memory.errors import ConcurrentUpdateError, MemoryStoreError, UnknownInstanceError
from forge.plumbing.retrying import retry_on_conflict
from forge.rulebook.book import open_book
from forge.rulebook.retrieval.embed import EmbeddingError
from forge.rulebook.model import ConcurrentBookUpdate, RulebookError, UnknownRuleError
from forge.rulebook.language.predicate import PredicateError
from forge.rulebook.query import query_rules
from forge.rulebook.retrieval.retrieve import RetrievalSettings
from forge.rulebook.authoring.teaching import (
    Correction, CorrectionNotTaught, add_correction, override_correction, step_correction,
)
from forge.rulebook.authoring.trigger_node import stated_node
from forge.wiring import build_clients

RULE = "When Enterprise1 shows Compromised User, then Restore Enterprise1"
BUDGET = {"spent": {"prompt_tokens": 9, "completion_tokens": 0, "usd": 0.0}, "reached": ["max_prompt_tokens"],
          "limits": {"max_prompt_tokens": 8, "max_completion_tokens": None, "max_usd": None}}
CONTEXT = "Enterprise1 shows Compromised User: a red session on Enterprise1 with user access"


@pytest.fixture()
def cfg(tmp_path):
    return load_config(overrides=[f"rulebook.store={tmp_path / 'rulebook.db'}"])


def no_model():
    raise AssertionError("a correction in the grammar needs no compiler model")


def test_add_correction_compiles_grammar_without_a_model_and_teaches_one_version(cfg):
    book = open_book(cfg)
    added = add_correction(book, Correction(RULE, "action_chooser", "user:alice", "test:1"), compiler_client=no_model,
                           compiler_model="unused")
    assert added.outcome.result == "add" and added.compiled.compiled_by == "grammar"
    assert added.head.rule_id == added.outcome.rule_id and added.head.book_version == book.book_version() == 1
    assert added.head.record.actors == ("user:alice",)
    assert book.store.nodes(added.head.record.evidence)  # the evidence cites the correction's source

    again = add_correction(open_book(cfg, create=False), Correction(RULE, "action_chooser", "user:bob", "test:2"),
                           compiler_client=no_model)
    assert again.outcome.result == "reinforce" and again.head.rule_id == added.head.rule_id


def test_a_correction_that_is_no_instruction_is_not_taught(cfg):
    book = open_book(cfg)
    asked = []

    def compiler():
        asked.append(True)
        return build_clients(cfg)[0]["compiler"]

    with pytest.raises(CorrectionNotTaught, match="dropped .*not an instruction"):
        add_correction(book, Correction("The network is big.", "planner", "user:alice", "test:3"),
                       compiler_client=compiler)
    assert asked == [True] and book.book_version() == 0  # the model was asked; nothing was written


def test_a_step_correction_anchors_on_the_step_and_query_finds_it_there(cfg):
    book = open_book(cfg)
    node = stated_node(CONTEXT)
    correction = step_correction(book, node, "trace:i00/s1-train-a1#7", RULE, "action_chooser", "user:alice",
                                 reason="reimage it", agent_action="Analyse Enterprise1",
                                 corrected_action="Restore Enterprise1")
    assert correction.anchor == node and correction.corrects == () and correction.reason == "reimage it"
    added = add_correction(book, correction, compiler_client=no_model)
    assert added.head.record.trigger == node.id

    found = query_rules(book, CONTEXT, RetrievalSettings.from_config(cfg.rulebook), role="action_chooser",
                        actor="user:alice", explain=3)
    assert [v.rule_id for v in found.injected] == [added.head.rule_id]
    assert found.retrieval.candidates and found.elapsed_ms > 0 and found.formats == ()
    assert query_rules(book, CONTEXT, RetrievalSettings.from_config(cfg.rulebook), role="planner").injected == []


def test_an_override_becomes_a_correction_anchored_at_its_step_that_corrects_the_rule_followed_there(cfg):
    book = open_book(cfg)
    analyse = add_correction(book, Correction("When Enterprise1 shows Compromised User, then Analyse Enterprise1",
                                              "action_chooser", "demo/i00", "failure:i00-s1-a1", kind="rule"),
                             compiler_client=no_model)
    earlier = "Alerts:\nUser1: Activity Scan, Compromised No"
    here = "Alerts:\nEnterprise1: Activity Exploit, Compromised User"
    correction = override_correction(book, [earlier, here], 4, [analyse.head.ref, analyse.head.ref],
                                     "Analyse Enterprise1", "Restore Enterprise1", "reimage it", "action_chooser",
                                     "user:alice", "trace:episodes/operator/seed3#2")
    # Written in the grammar from the step's own state of the acted-on host; anchored at that step.
    assert correction.text == "When Enterprise1 shows Compromised User, then Restore Enterprise1."
    assert correction.anchor.text == here and correction.anchor.context == (earlier,)
    assert correction.corrects == (analyse.head.rule_id,) and correction.reason == "reimage it"
    # A host the step does not show: the trigger is the step's own situation (issue 18: never the mere
    # mention of the target host), the reason kept apart.
    elsewhere = override_correction(book, [earlier], 4, [], "Monitor", "Restore Op_Server0", "pre-empt",
                                    "action_chooser", "user:alice", "trace:x#1")
    assert elsewhere.text == "When User1 shows Activity Scan, then Restore Op_Server0."
    assert elsewhere.reason == "pre-empt" and elsewhere.corrects == ()


def test_reading_a_missing_book_is_a_rulebook_error(cfg, tmp_path):
    with pytest.raises(RulebookError, match="no rulebook at"):
        open_book(cfg, str(tmp_path / "absent.db"), create=False)


@pytest.mark.parametrize("error, builtin", [
    (ConfigError("x"), ValueError), (ProviderError("x"), RuntimeError), (AuthenticationError("x"), RuntimeError),
    (BudgetExhausted(BUDGET), RuntimeError), (LocalRedisError("x"), RuntimeError),
    (ActionParseError("x"), ValueError), (EmbeddingError("x"), RuntimeError), (PredicateError("x"), ValueError),
    (UnknownRuleError("r"), KeyError), (ConcurrentBookUpdate(0, 1), RulebookError), (MemoryStoreError("x"), Exception),
    (UnknownInstanceError("i"), KeyError), (CorrectionNotTaught("x"), RulebookError), (UsageError("x"), Exception),
])
def test_every_expected_failure_is_a_forge_error_and_keeps_its_builtin_base(error, builtin):
    assert isinstance(error, ForgeError) and isinstance(error, builtin)
    assert expected_failure(error) == str(error).splitlines()[0]


def test_the_cli_prints_one_line_for_expected_failures_only():
    assert expected_failure(ConfigError("bad key\nmore detail")) == "bad key"
    assert expected_failure(FileNotFoundError(2, "No such file or directory", "/nowhere")) == \
        "No such file or directory: /nowhere"
    assert expected_failure(RuntimeError("a bug")) is None and expected_failure(KeyError("k")) is None


def test_retry_on_conflict_replans_until_it_wins_and_gives_up_after_max_attempts():
    tries, pauses = [], []

    def attempt():
        tries.append(len(tries))
        if len(tries) < 3:
            raise ConcurrentUpdateError("i", 0, 1)
        return "won"

    assert retry_on_conflict(attempt, ConcurrentUpdateError, 5, pause=lambda n: pauses.append(n) or 0.0) == "won"
    assert tries == [0, 1, 2] and pauses == [0, 1]

    def always():
        raise ConcurrentBookUpdate(0, 1)

    with pytest.raises(ConcurrentBookUpdate):
        retry_on_conflict(always, ConcurrentBookUpdate, 3)
    with pytest.raises(ValueError):  # another error is not a conflict: not retried
        retry_on_conflict(lambda: int("x"), ConcurrentBookUpdate, 3)
