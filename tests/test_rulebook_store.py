"""The rulebook store: versions, tombstones, restore, compare-and-set; the same behaviour on SQLite and Redis."""

from __future__ import annotations

import hashlib

import numpy as np
import pytest

from forge.memory.model import Provenance
from forge.rulebook.store.backends import open_rulebook
from forge.rulebook.book import Lesson, Rulebook
from forge.rulebook.authoring.compile import SourceItem, compile_as_written, compile_grammar
from forge.rulebook.model import ConcurrentBookUpdate, DecisionNode, Evidence, RulebookError, RuleChange, UnknownRuleError
from forge.rulebook.retrieval.resolve import Scope
from forge.rulebook.retrieval.retrieve import RetrievalSettings


class HashEmbedder:
    """Deterministic stand-in for the sentence model: bag of hashed words, unit length."""

    name = "test:hash"
    dim = 64

    def encode(self, texts):
        rows = np.zeros((len(texts), self.dim), dtype=np.float32)
        for i, text in enumerate(texts):
            for word in text.lower().split():
                rows[i, int(hashlib.md5(word.encode()).hexdigest(), 16) % self.dim] += 1.0
        norms = np.linalg.norm(rows, axis=1, keepdims=True)
        return rows / np.where(norms == 0, 1, norms)

    def encode_one(self, text):
        return self.encode([text])[0]

    def encode_cached(self, texts):
        return self.encode(list(texts))

    def prepare(self):
        pass


def lesson(text: str, actor: str, source: str = "f1", item: str | None = None, *, role: str = "action_chooser",
           context: str = "") -> Lesson:
    src = SourceItem("rule", role, text, actor, item_id=item)
    compiled = compile_grammar(src) or compile_as_written(src, "test")
    node = DecisionNode(context or f"Alerts:\n{compiled.trigger}", ("Step 1 of 30.",)) if compiled.type == "CONTENT" else None
    return Lesson(compiled, node, Evidence("failure", actor, source, 1, item or ""))


@pytest.fixture(params=["sqlite", "redis"])
def spec(request, tmp_path) -> str:
    return str(tmp_path / "rulebook.db") if request.param == "sqlite" else request.getfixturevalue("clean_redis_url")


RESTORE = "When Op_Server0 shows any compromise, then Restore Op_Server0."
REMOVE = "When Op_Server0 shows any compromise, then Remove Op_Server0."


def scenario(spec: str) -> dict:
    """The same sequence of changes; what a backend must make of it (timestamps left out)."""
    with open_rulebook(spec) as store:
        book = Rulebook(store, HashEmbedder())
        alice = Provenance(actor="user:alice")
        book.teach([lesson(REMOVE, "s/i00", "f1", "m1"), lesson("When User1 shows Activity Exploit, then Remove User1", "s/i00", "f1", "m2")],
                   Provenance(session="s", instance="i00", actor="reflector"), note="first")
        book.teach([lesson(RESTORE, "s/i00", "f2", "m3")], Provenance(session="s", instance="i00"))
        book.teach([lesson("When Op_Server0 shows any compromise, then Analyse Op_Server0", "user:alice", "c1")], alice)
        book.teach([lesson("Always reply with exactly one Answer line, because the parser is strict", "user:alice", "c2", role="planner")], alice)
        restore_id = book.find(book.store.heads()[next(r for r, v in book.heads().items() if v.record.directive == RESTORE)].rule_id)
        book.withdraw(restore_id, alice, note="too costly")
        book.restore(restore_id, provenance=alice)
        store.put_compilations({"s/i00:m1": '{"verdict": "RULE"}'})
        heads = book.heads()
        index = book.index(Scope(frozenset({"m1", "m2", "m3"})))
        query = "Alerts:\nOp_Server0: Activity Exploit, Compromised User"
        vec = book.embedder.encode_one(query)
        found = index.search(query, vec, vec, "action_chooser", RetrievalSettings(relevance_floor=0.0), "s/i00")
        return {
            "heads": {rid: (v.number, v.op, v.book_version, v.record.to_dict(), v.provenance.to_dict()) for rid, v in heads.items()},
            "histories": {rid: [(h.number, h.op, h.record.status) for h in book.history(rid)] for rid in heads},
            "book": [(b.number, b.op, b.changes, b.note, b.provenance.to_dict()) for b in store.book_history()],
            "nodes": sorted(store.nodes([n for v in heads.values() for n in (v.record.trigger, *v.record.evidence) if n])),
            "vectors": {k: (a.round(6).tolist(), b.round(6).tolist())
                        for k, (a, b) in store.vectors("test:hash", [v.record.trigger for v in heads.values() if v.record.trigger]).items()},
            "compilations": store.compilations(["s/i00:m1", "nope"]),
            "selected": found.selected,
            "decisions": [(d.members, d.winner, d.tier) for d in found.decisions],
            "format": [v.record.directive for v in index.format_rules],
        }


def test_versions_tombstones_and_restore(spec):
    result = scenario(spec)
    by_directive = {h[3]["directive"]: h for h in result["heads"].values()}
    restore = by_directive[RESTORE]
    assert restore[3]["status"] == "active" and restore[1] == "restore" and restore[0] == 4
    rid = restore[3]["rule_id"]
    assert result["histories"][rid] == [
        (1, "add", "active"), (2, "conflict", "active"), (3, "withdraw", "withdrawn"), (4, "restore", "active")]
    assert by_directive[REMOVE][3]["status"] == "superseded"
    assert by_directive["Always reply with exactly one Answer line"][3]["type"] == "FORMAT"  # justification cut
    assert [b[1] for b in result["book"]] == ["teach", "teach", "teach", "teach", "withdraw", "restore"]
    assert result["book"][0][3] == "first" and result["book"][4][4] == {"actor": "user:alice"}
    assert result["compilations"] == {"s/i00:m1": '{"verdict": "RULE"}'}
    assert result["format"] == ["Always reply with exactly one Answer line"]
    # Restore (s/i00) conflicts with Analyse (alice); s/i00 asks, so its own rule wins.
    assert len(result["decisions"]) == 1 and result["decisions"][0][2] == "actor"
    assert result["selected"][0] == rid


def test_sqlite_and_redis_behave_the_same(tmp_path, clean_redis_url):
    sqlite = scenario(str(tmp_path / "parity.db"))
    redis = scenario(clean_redis_url)
    assert sqlite == redis


def test_commit_is_compare_and_set_on_the_book_head(spec):
    with open_rulebook(spec) as store:
        book = Rulebook(store, HashEmbedder())
        book.teach([lesson(RESTORE, "s/i00")])
        head = store.heads()
        record = next(iter(head.values())).record
        with pytest.raises(ConcurrentBookUpdate, match="expected book version 0, found 1"):
            store.commit([RuleChange(record.with_(support=9), "reinforce")], expected_book=0, op="teach")
        assert store.book_head() == 1 and store.commit([], expected_book=1, op="teach") is None


def test_lookup_errors_name_what_is_missing(spec, tmp_path):
    with open_rulebook(spec) as store:
        book = Rulebook(store, HashEmbedder())
        with pytest.raises(UnknownRuleError, match="no rule 'abc'"):
            book.find("abc")
        book.teach([lesson(RESTORE, "s/i00")])
        rid = next(iter(book.heads()))
        assert book.find(rid[:6]) == rid and book.find(f"{rid}@v1") == rid
        with pytest.raises(RulebookError, match="has no version 5"):
            store.rule_version(rid, 5)
        with pytest.raises(RulebookError, match="neither user:<name> nor <session>/<instance>"):
            book.teach([lesson(RESTORE, "alice")])
    with pytest.raises(RulebookError, match="does not exist"):
        open_rulebook(str(tmp_path / "absent.db"), create=False)
    with pytest.raises(RulebookError, match="neither a .db file nor a redis"):
        open_rulebook(str(tmp_path / "rulebook.txt"))


def test_the_whole_book_can_be_restored_to_an_earlier_book_version(spec):
    with open_rulebook(spec) as store:
        book = Rulebook(store, HashEmbedder())
        book.teach([lesson(REMOVE, "s/i00", "f1")])
        book.teach([lesson(RESTORE, "s/i00", "f2")])  # supersedes Remove
        book.teach([lesson("When User1 shows Activity Exploit, then Remove User1", "user:alice", "c1")])
        version = book.restore_book(1)
        status = {v.record.directive: v.record.status for v in book.heads().values()}
        assert status == {REMOVE: "active", RESTORE: "withdrawn", "When User1 shows Activity Exploit, then Remove User1.": "withdrawn"}
        assert version.number == 4 and {op for _, _, op in version.changes} == {"restore", "withdraw"}
        assert book.restore_book(1) is None  # already so
        with pytest.raises(RulebookError, match="no book version 9"):
            book.restore_book(9)
        book.restore_book(3)  # forward again: the history kept everything
        status = {v.record.directive: v.record.status for v in book.heads().values()}
        assert status[RESTORE] == "active" and status[REMOVE] == "superseded"


def test_a_rule_reference_is_parsed_once_and_spelled_back_the_same():
    from forge.rulebook.model import RuleRef, RulebookError

    assert RuleRef.parse("r-1a2b@v3") == RuleRef("r-1a2b", 3) and str(RuleRef.parse("r-1a2b@v3")) == "r-1a2b@v3"
    assert RuleRef.parse(" r-1a2b ") == RuleRef("r-1a2b") and str(RuleRef("r-1a2b")) == "r-1a2b"
    with pytest.raises(RulebookError, match="r-1a2b@3"):
        RuleRef.parse("r-1a2b@3")
