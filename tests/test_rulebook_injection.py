"""Progressive injection with the real embedding model: FORMAT at stage 1, CONTENT only when triggered,
silence otherwise, supersession, conflict resolution, withdrawal; and the surrogate reading the rules."""

from __future__ import annotations

import pytest

from agents.injection import InjectedMemory
from agents.prompting import RULES_HEADER
from forge.config import load_config
from forge.llm.surrogate import reading
from forge.llm.types import Message
from forge.memory.model import Provenance
from forge.rulebook.store.backends import open_rulebook
from forge.rulebook.book import Lesson, Rulebook
from forge.rulebook.authoring.compile import RuleCompiler, SourceItem
from forge.rulebook.retrieval.embed import local_embedder
from forge.rulebook.injection import ACKNOWLEDGEMENT, RulebookInjection
from forge.rulebook.model import DecisionNode, Evidence
from forge.rulebook.retrieval.resolve import Scope
from forge.rulebook.retrieval.retrieve import RetrievalSettings
from forge.wiring import build_clients

RESTORE_OP = "When Op_Server0 shows any compromise, then Restore Op_Server0."
FORMAT = "Always reply with exactly one `Answer:` line, because the parser is strict."
QUIET = "No host shows activity or compromise."
FAILING_STEP = ("Step 14 of 30.\nRecent steps: step 13: Monitor -> reward -1.1\nObservation from get_updated_hosts(): "
                "Hosts changed since the last step: Op_Server0 (Activity Exploit, Compromised User)\nAlerts:\n"
                "Enterprise1: Activity None, Compromised Privileged\nOp_Server0: Activity Exploit, Compromised User")
BEFORE = ("Step 13 of 30.\nObservation from get_updated_hosts(): Hosts changed since the last step: Enterprise1 "
          "(Activity None, Compromised Privileged)\nAlerts:\nEnterprise1: Activity None, Compromised Privileged")


def chooser_context(alerts: str) -> str:
    return f"Situation (from the Planner): see the alerts\n\nAlerts:\n{alerts}"


def teach(book: Rulebook, text: str, actor: str, role: str, *, node: DecisionNode | None = None, source: str = "f1",
          weight: int = 1):
    compiled = RuleCompiler(None).compile([SourceItem("correction", role, text, actor)]).rules[0]
    if compiled.type == "CONTENT" and node is None:
        node = DecisionNode(compiled.trigger)
    return book.teach([Lesson(compiled, node if compiled.type == "CONTENT" else None,
                              Evidence("correction", actor, source, weight))], Provenance(actor=actor))


def make_book(path) -> Rulebook:
    return Rulebook(open_rulebook(str(path)), local_embedder())


@pytest.fixture(scope="module")
def book(tmp_path_factory) -> Rulebook:
    book = make_book(tmp_path_factory.mktemp("rb") / "rulebook.db")
    teach(book, RESTORE_OP, "s/i00", "action_chooser", node=DecisionNode(FAILING_STEP, (BEFORE,)))
    teach(book, FORMAT, "user:alice", "planner")
    teach(book, "When User1 shows Activity Exploit, then Remove User1.", "s/i00", "planner")
    return book


def injection(book: Rulebook, **kwargs) -> RulebookInjection:
    settings = kwargs.pop("settings", RetrievalSettings())
    return RulebookInjection(book, settings, **kwargs)


def test_format_rules_are_always_delivered_at_stage_1_as_a_user_assistant_pair(book):
    inj = injection(book)
    inj.start_episode(QUIET)
    planner = inj.for_call("planner", QUIET)
    user, assistant = planner.prefix
    assert user.role == "user" and assistant.role == "assistant" and assistant.content == ACKNOWLEDGEMENT
    assert user.content == f"{RULES_HEADER}\n- Always reply with exactly one `Answer:` line"
    assert planner.items == ()  # stage 1 rules are not repeated in the system prompt
    assert inj.for_call("analyst", QUIET).prefix == ()  # FORMAT rules reach only their roles
    assert planner.tokens > 0


def test_a_content_rule_is_injected_only_when_its_trigger_matches(book):
    inj = injection(book)
    inj.start_episode(QUIET)
    hit = inj.for_call("action_chooser", chooser_context("Op_Server0: Activity None, Compromised Privileged"))
    rule_id = next(rid for rid, v in book.heads().items() if v.record.directive == RESTORE_OP)
    assert hit.ids == (f"{rule_id}@v1",) and hit.items[0].text == RESTORE_OP and hit.items[0].kind == "rule"
    miss = inj.for_call("action_chooser", chooser_context("User2: Activity Scan, Compromised No\nEnterprise1: Activity None, Compromised User"))
    assert miss == InjectedMemory()
    # Role scope: the Planner's context shows the same compromise, but the rule is the ActionChooser's.
    assert inj.for_call("planner", FAILING_STEP).items == ()


def test_silence_when_nothing_applies(book):
    inj = injection(book)
    inj.start_episode(QUIET)
    for role, context in (("action_chooser", chooser_context(QUIET)), ("analyst", "Host User0: table Activity None, Compromised No."),
                          ("action_chooser", "Reply in JSON. The weather is nice today.")):
        found = inj.for_call(role, context)
        assert found.items == () and found.tokens == 0


def test_stage_1_delivers_rules_the_initial_context_triggers(book):
    inj = injection(book)
    inj.start_episode("User1: Activity Exploit, Compromised User")
    planner = inj.for_call("planner", "Step 1 of 30.\nAlerts:\nUser1: Activity Exploit, Compromised User")
    assert "- When User1 shows Activity Exploit, then Remove User1." in planner.prefix[0].content
    assert planner.items == ()  # already delivered through the pair


def test_the_relevance_floor_silences_free_text_rules_in_unrelated_contexts(tmp_path):
    """A free-text rule that states no condition is judged by its cosine; one whose claims read all of its condition is
    judged by them alone, whatever the floor; one whose condition they cannot place whole ("the way the attacker
    usually does") is silent (issue 29, third round: it used to fire on its cosine, also where its condition did not
    hold)."""
    book = make_book(tmp_path / "rb.db")
    loose = "Restore Op_Server0 as soon as it shows a compromise the way the attacker usually does"
    plain = "Keep the operational server patched, restored and watched closely."
    teach(book, loose, "user:alice", "action_chooser")
    teach(book, plain, "user:alice", "action_chooser")
    inj = injection(book)
    inj.start_episode(QUIET)
    assert inj.for_call("action_chooser", "Reply in JSON. The weather is nice today.").items == ()
    related = inj.for_call("action_chooser", chooser_context("Op_Server0: Activity Exploit, Compromised User"))
    assert [i.text for i in related.items] == [plain]
    strict = injection(book, settings=RetrievalSettings(relevance_floor=0.95))
    strict.start_episode(QUIET)
    assert strict.for_call("action_chooser", chooser_context("Op_Server0: Activity Exploit, Compromised User")).items == ()
    placed = make_book(tmp_path / "placed.db")
    teach(placed, "Restore Op_Server0 as soon as it shows any compromise", "user:alice", "action_chooser")
    strict = injection(placed, settings=RetrievalSettings(relevance_floor=0.95))
    strict.start_episode(QUIET)
    assert len(strict.for_call("action_chooser", chooser_context("Op_Server0: Activity Exploit, Compromised User")).items) == 1
    assert strict.for_call("action_chooser", chooser_context("Op_Server0: Activity Scan, Compromised No")).items == ()


def test_a_withdrawn_rule_is_never_injected_again_even_mid_episode(tmp_path):
    book = make_book(tmp_path / "rb.db")
    teach(book, RESTORE_OP, "s/i00", "action_chooser", node=DecisionNode(FAILING_STEP))
    teach(book, "Always answer with one line.", "user:alice", "action_chooser")
    context = chooser_context("Op_Server0: Activity Exploit, Compromised User")
    inj = injection(book)
    inj.start_episode(QUIET)
    before = inj.for_call("action_chooser", context)
    assert len(before.items) == 1 and "Always answer with one line." in before.prefix[0].content
    by_text = {v.record.directive: rid for rid, v in book.heads().items()}
    book.withdraw(by_text[RESTORE_OP], Provenance(actor="user:bob"))
    book.withdraw(by_text["Always answer with one line."], Provenance(actor="user:bob"))
    after = inj.for_call("action_chooser", context)
    assert after.items == () and after.prefix == ()  # the FORMAT pair is gone as well
    inj.start_episode(QUIET)
    assert inj.for_call("action_chooser", context) == InjectedMemory()
    book.restore(by_text[RESTORE_OP], provenance=Provenance(actor="user:bob"))
    assert inj.for_call("action_chooser", context).ids == (f"{by_text[RESTORE_OP]}@v3",)


def test_an_actor_newer_rule_replaces_its_older_one(tmp_path):
    book = make_book(tmp_path / "rb.db")
    teach(book, "When Op_Server0 shows any compromise, then Remove Op_Server0.", "s/i00", "action_chooser", source="f1")
    teach(book, RESTORE_OP, "s/i00", "action_chooser", source="f2")
    inj = injection(book)
    inj.start_episode(QUIET)
    found = inj.for_call("action_chooser", chooser_context("Op_Server0: Activity Exploit, Compromised User"))
    assert [i.text for i in found.items] == [RESTORE_OP]


def test_conflicts_are_resolved_by_actor_then_majority_then_abstention(tmp_path):
    book = make_book(tmp_path / "rb.db")
    remove = "When Op_Server0 shows any compromise, then Remove Op_Server0."
    teach(book, RESTORE_OP, "s/i00", "action_chooser", source="f1")
    teach(book, remove, "user:alice", "action_chooser", source="c1")
    context = chooser_context("Op_Server0: Activity Exploit, Compromised User")

    def chosen(actor):
        inj = injection(book, actor=actor)
        inj.start_episode(QUIET)
        return [i.text for i in inj.for_call("action_chooser", context).items]

    assert chosen("s/i00") == [RESTORE_OP]
    assert chosen("user:alice") == [remove]
    assert chosen("user:zed") == []  # one piece of evidence each: abstain
    teach(book, remove, "user:carol", "action_chooser", source="c2")  # agreement: Remove now has more support
    assert chosen("user:zed") == [remove]
    assert chosen("s/i00") == [RESTORE_OP]


def test_the_scope_limits_rules_to_the_memory_they_came_from(tmp_path):
    book = make_book(tmp_path / "rb.db")
    compiled = RuleCompiler(None).compile([SourceItem("rule", "action_chooser", RESTORE_OP, "s/i00", item_id="item-1")]).rules[0]
    book.teach([Lesson(compiled, DecisionNode(FAILING_STEP), Evidence("failure", "s/i00", "f1"))])
    context = chooser_context("Op_Server0: Activity Exploit, Compromised User")
    for scope, expected in ((Scope(frozenset({"item-1"})), 1), (Scope(frozenset({"other"})), 0), (None, 1)):
        inj = injection(book, scope=scope)
        inj.start_episode(QUIET)
        assert len(inj.for_call("action_chooser", context).items) == expected


def test_the_surrogate_follows_rules_delivered_through_the_stage_1_pair(book):
    inj = injection(book)
    inj.start_episode("User1: Activity Exploit, Compromised User")
    observation = "Step 2 of 30.\nObservation from get_updated_hosts(): No host changed since the last step.\nAlerts:\nUser1: Activity Exploit, Compromised User"
    injected = inj.for_call("planner", observation)
    messages = [Message("system", "You are the Planner of a blue-team defender."), *injected.prefix, Message("user", observation)]
    assert "When User1 shows Activity Exploit, then Remove User1." in reading.learned_rules(messages)
    assert reading.first_user(messages) == observation
    clients, _ = build_clients(load_config(overrides=["surrogate.compliance=1.0"]))
    assert clients["planner"].complete(messages, seed=1).text == "Answer: Remove User1"


class RecordingInjection:
    """Passes every call through to a RulebookInjection and keeps what each call was given."""

    def __init__(self, inner: RulebookInjection) -> None:
        self.inner = inner
        self.seen: list[tuple[str, tuple[str, ...], tuple[str, ...]]] = []

    def __getattr__(self, name):
        return getattr(self.inner, name)

    def for_call(self, role: str, context: str) -> InjectedMemory:
        found = self.inner.for_call(role, context)
        self.seen.append((role, found.ids, found.prefix_ids))
        return found


@pytest.mark.slow
def test_skipping_embeddings_that_cannot_change_the_selection_injects_the_same_rules(tmp_path, monkeypatch):
    # A seeded surrogate episode on real CybORG, played twice over the same book of gated rules (several
    # pass at once on some calls, one or none on most): once as shipped, where a context is embedded only
    # when its scores can change the selection, and once embedding every context. Same rules, every call.
    from agents.defender import Defender
    from forge.env import Cage2Env
    from forge.protocol.episode import play_episode
    from forge.rulebook.retrieval.retrieve import RuleIndex

    book = make_book(tmp_path / "rb.db")
    for i, host in enumerate(("Enterprise0", "Enterprise1", "Enterprise2", "User1", "User2", "User3", "User4", "Op_Server0")):
        teach(book, f"When {host} shows any compromise, then Restore {host}.", "s/i00", "action_chooser", source=f"r{i}")
        teach(book, f"When {host} shows Activity Exploit, then Remove {host}.", "s/i00", "planner", source=f"p{i}")
        # and a conflicting rule by another actor: settled by evidence and actor, not by rank
        teach(book, f"When {host} shows any compromise, then Remove {host}.", "s/i01", "action_chooser", source=f"c{i}")
        if host == "Enterprise2":  # and one that agrees with it: two rules kept at once, so their order needs the scores
            teach(book, f"When {host} shows any compromise, then Analyse Op_Server0.", "s/i00", "action_chooser", source=f"a{i}")
    cfg = load_config(overrides=["env.max_steps=20", "surrogate.latency_ms=0"])
    clients, _ = build_clients(cfg)

    def play() -> tuple[list, int]:
        recording = RecordingInjection(injection(book, actor="s/i00", window=cfg.rulebook.context_window))
        embedder = book.embedder
        before = embedder.cache_stats()
        defender = Defender(clients, recording, cfg.agent, cfg.env.max_steps)
        play_episode(Cage2Env(red_agent="b_line", max_steps=cfg.env.max_steps), defender, seed=7)
        after = embedder.cache_stats()
        # texts asked of the embedder (hits and misses: the second play finds the first one's in the cache)
        return recording.seen, (after.misses + after.hits) - (before.misses + before.hits)

    shipped, embedded_shipped = play()
    monkeypatch.setattr(RuleIndex, "needs_scores", lambda self, *args: True)
    always, embedded_always = play()
    assert shipped == always
    assert sum(1 for _, ids, _ in shipped if ids) > 0
    assert 0 < embedded_shipped < embedded_always, (embedded_shipped, embedded_always)  # some calls needed the scores
