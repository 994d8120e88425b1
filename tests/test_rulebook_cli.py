"""`forge rulebook ...` and `forge evaluate` on a real run directory (real CybORG, the surrogate model)."""

from __future__ import annotations

import json

import pytest

from forge.cli import main
from forge.config import load_config
from forge.failure.snapshot import FailureSnapshot
from forge.protocol.inner_loop import InstanceLearner
from forge.protocol.ledger import SessionLedger, StageRecord
from forge.rulebook.store.backends import open_rulebook
from forge.runs.rundir import RunDirectory
from forge.wiring import build_clients, open_memory


@pytest.fixture(scope="module")
def run_dir(tmp_path_factory):
    """One stage of failure-triggered learning for instance i00 (seed 21 fails zero-shot)."""
    root = tmp_path_factory.mktemp("runs")
    cfg = load_config(overrides=[f"run.runs_dir={root}", "surrogate.reflector_error_rate=0.0", "protocol.max_attempts=2",
                                 "surrogate.rule_phrasing=grammar",  # this file checks the grammar path; free text: tests/test_rulebook_meaning.py, test_dc_bench.py
                                 "tracking.enabled=false"])
    run = RunDirectory.create(cfg, name="sess")
    clients, _ = build_clients(cfg)
    learner = InstanceLearner(instance="i00", session=run.session_id, cfg=cfg, clients=clients,
                              memory=open_memory(cfg, str(run.path), run.session_id), run_dir=run.path)
    training = learner.train_stage(1, 21)
    assert any(a.failed for a in training.attempts) and learner.snapshot().items
    return run.path


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def assert_one_line_error(code: int, err: str, *fragments: str) -> None:
    assert code == 2 and "Traceback" not in err and len(err.strip().splitlines()) == 1, err
    for fragment in fragments:
        assert fragment in err, err


def test_export_compiles_the_memory_with_trigger_nodes_from_failure_snapshots(run_dir, tmp_path, capsys):
    db = str(tmp_path / "rulebook.db")
    code, _, err = run(capsys, "rulebook", "export", str(run_dir), "--rulebook", db)
    assert_one_line_error(code, err, "names no champion", "--instance", "i00")

    code, out, err = run(capsys, "rulebook", "export", str(run_dir), "--instance", "i00", "--rulebook", db)
    assert code == 0, err
    memory = open_memory(load_config(), str(run_dir), "sess").snapshot("sess/i00")
    with open_rulebook(db) as store:
        heads = store.heads()
        assert len(heads) == len(memory.items)  # surrogate reflections are all in the grammar
        for version in heads.values():
            record = version.record
            item = next(i for i in memory.items if i.id in record.sources)
            assert record.directive.startswith("When ") and record.type == "CONTENT" and record.compiled_by == "grammar"
            assert record.actors == ("sess/i00",) and record.roles == (item.role,)
            failure = FailureSnapshot.load(run_dir / "failures" / f"i00-s{item.provenance.stage}-a{item.provenance.attempt}.json")
            node = store.nodes([record.trigger])[record.trigger]
            assert node.text == failure.steps[-1].observation  # the failing step's decision context
            assert node.context == tuple(s.observation for s in failure.steps[-5:-1])
            evidence = store.nodes(record.evidence)
            assert [e.source for e in evidence.values()] == [f"sess/{failure.failure_id}"]
        book_version = store.book_head()
    report = json.loads((run_dir / "reports" / "rulebook_export.json").read_text())
    assert report["memory"] == "sess/i00" and len(report["items"]) == len(memory.items)
    assert all(i["trigger"].startswith("i00-s1-a") for i in report["items"])

    code, out, _ = run(capsys, "rulebook", "export", str(run_dir), "--instance", "i00", "--rulebook", db)
    assert code == 0 and f"{len(memory.items)} already compiled" in out
    with open_rulebook(db) as store:
        assert store.book_head() == book_version  # nothing compiled twice

    ledger = SessionLedger.open(str(run_dir), "sess")
    ledger.record_stage(StageRecord(1, ["i00"], {"i00": -20.0}, [], "i00", [], {}, {}, {}))
    ledger.close()
    code, out, _ = run(capsys, "rulebook", "export", str(run_dir), "--rulebook", db)
    assert code == 0 and "ledger champion" in out

    code, _, err = run(capsys, "rulebook", "export", str(run_dir), "--instance", "i07", "--rulebook", db)
    assert_one_line_error(code, err, "'i07' has no memory", "i00")
    code, _, err = run(capsys, "rulebook", "export", str(tmp_path / "nope"), "--rulebook", db)
    assert_one_line_error(code, err, "does not exist")


def test_corrections_list_show_query_withdraw_restore_history(tmp_path, capsys):
    db = str(tmp_path / "rulebook.db")
    code, out, err = run(capsys, "rulebook", "add", "--actor", "alice", "--role", "action_chooser", "--rulebook", db,
                         "When Op_Server0 shows any compromise, then Restore Op_Server0")
    assert code == 0 and "add " in out and "compiled by grammar" in out, err
    code, out, _ = run(capsys, "rulebook", "add", "--actor", "bob", "--role", "action_chooser", "--rulebook", db,
                       "When Op_Server0 shows any compromise, then Remove Op_Server0, because it is cheaper")
    assert code == 0 and "conflict" in out
    code, out, _ = run(capsys, "rulebook", "add", "--actor", "user:carol", "--role", "planner", "--rulebook", db,
                       "Always reply with exactly one Answer line so that the parser reads it")
    assert code == 0 and "FORMAT" in out and "compiled by model" in out
    with open_rulebook(db) as store:
        ids = {v.record.directive: rid for rid, v in store.heads().items()}
    restore_id = ids["When Op_Server0 shows any compromise, then Restore Op_Server0."]

    code, out, _ = run(capsys, "rulebook", "list", "--rulebook", db)
    assert code == 0 and "user:alice" in out and "user:bob" in out and "conflicts 1" in out and "format/reply" in out

    code, out, _ = run(capsys, "rulebook", "show", restore_id[:8], "--rulebook", db)
    assert code == 0 and "FORGED_FROM" in out and "TAUGHT_BY" in out and "CONFLICTS_WITH" in out and "IN_GROUP" in out

    context = "Situation (from the Planner): look\n\nAlerts:\nOp_Server0: Activity Exploit, Compromised User"
    code, out, _ = run(capsys, "rulebook", "query", context, "--role", "action_chooser", "--actor", "user:alice", "--rulebook", db)
    assert code == 0 and "fused" in out and "cosine" in out and "bm25" in out and "query embedding included" in out
    assert "actor: winner" in out and f"injected: {restore_id}@v2" in out  # v2: the conflict flag is a version
    precedence = " ".join(out.split("precedence where applying rules disagree:")[1].split())
    assert precedence.index("1. own actor") < precedence.index("2. specificity") < precedence.index("3. support") \
        < precedence.index("4. recency") < precedence.index("5. abstain")
    code, out, _ = run(capsys, "rulebook", "query", context, "--role", "action_chooser", "--rulebook", db)
    assert "abstain" in out and "injected: nothing" in out

    code, out, _ = run(capsys, "rulebook", "withdraw", restore_id, "--actor", "dave", "--rulebook", db)
    assert code == 0 and "withdrew" in out
    code, out, _ = run(capsys, "rulebook", "query", context, "--role", "action_chooser", "--actor", "user:alice", "--rulebook", db)
    assert restore_id not in out.split("injected:")[1]
    code, out, _ = run(capsys, "rulebook", "restore", restore_id, "--rulebook", db)
    assert code == 0 and "restored" in out and "version 2" in out
    code, out, _ = run(capsys, "rulebook", "history", restore_id, "--rulebook", db)
    rows = [[c.strip() for c in line.split("│")[1:]] for line in out.splitlines() if line.startswith("│")]
    assert [(r[0], r[1], r[2]) for r in rows if r[0]] == [("1", "add", "active"), ("2", "conflict", "active"),
                                                          ("3", "withdraw", "withdrawn"), ("4", "restore", "active")]
    assert "user:dave" in out
    code, out, _ = run(capsys, "rulebook", "history", "--rulebook", db)
    assert code == 0 and "withdraw" in out and "restore" in out


@pytest.mark.parametrize("argv, fragments", [
    (["add", "--actor", "alice", "--role", "janitor", "x"], ["--role 'janitor'"]),
    (["add", "--actor", "al ice", "--role", "planner", "x"], ["actor 'user:al ice'"]),
    (["add", "--actor", "alice", "--role", "planner", "The network is big."], ["dropped", "not an instruction"]),
    (["show", "feedface"], ["no rule 'feedface'"]),
    (["restore", "feedface"], ["no rule 'feedface'"]),
    (["query", "x", "--role", "boss"], ["--role 'boss'"]),
    (["add", "--actor", "alice", "--role", "planner", "x", "--set", "rulebook.rrf_k=oops"], ["rrf_k"]),
])
def test_bad_values_exit_2_with_one_line_naming_them(tmp_path, capsys, argv, fragments):
    db = str(tmp_path / "rulebook.db")
    open_rulebook(db).close()
    code, _, err = run(capsys, "rulebook", *argv, "--rulebook", db)
    assert_one_line_error(code, err, *fragments)


def test_reading_a_missing_rulebook_is_an_error(tmp_path, capsys):
    code, _, err = run(capsys, "rulebook", "list", "--rulebook", str(tmp_path / "absent.db"))
    assert_one_line_error(code, err, "no rulebook at", "absent.db")


def test_evaluate_compares_injection_modes_on_the_same_seeds(run_dir, tmp_path, capsys):
    db = str(tmp_path / "rulebook.db")
    code, out, err = run(capsys, "evaluate", str(run_dir), "--instance", "i00", "--episodes", "1",
                         "--injection", "full,rulebook,none", "--rulebook", db)
    assert code == 0, err
    assert "memory tok/step" in out and "SURROGATE" in out
    data = json.loads((run_dir / "reports" / "evaluate.json").read_text())
    modes = data["modes"]
    assert set(modes) == {"full", "rulebook", "none"} and len(data["seeds"]) == 1
    assert modes["none"]["memory_tokens_per_step"] == 0
    assert 0 < modes["rulebook"]["memory_tokens_per_step"] < modes["full"]["memory_tokens_per_step"]
    assert "| rulebook |" in (run_dir / "reports" / "evaluate.md").read_text()
    trace = json.loads((run_dir / "traces" / "i00" / "evaluate-rulebook-0.json").read_text())
    injected = {i for step in trace["steps"] for ids in step["injected"].values() for i in ids}
    assert injected and all("@v" in i for i in injected)

    code, out, err = run(capsys, "evaluate", str(run_dir), "--instance", "i00", "--episodes", "1", "--injection", "none",
                         "env.max_steps=3")  # overrides may follow the options
    assert code == 0, err
    assert json.loads((run_dir / "reports" / "evaluate.json").read_text())["modes"]["none"]["return_min"] > -10
    code, _, err = run(capsys, "evaluate", str(run_dir), "--instance", "i00", "--injection", "full,sometimes")
    assert_one_line_error(code, err, "'sometimes'")
    code, _, err = run(capsys, "evaluate", str(run_dir), "--instance", "i00", "--episodes", "0")
    assert_one_line_error(code, err, "--episodes")


def test_calibrate_reports_recall_and_false_positives_of_the_floor(run_dir, tmp_path, capsys):
    code, out, err = run(capsys, "rulebook", "calibrate", str(run_dir), "--instance", "i00", "--episodes", "1",
                         "--rulebook", str(tmp_path / "rulebook.db"))
    assert code == 0, err
    data = json.loads((run_dir / "reports" / "rulebook_calibration.json").read_text())
    assert data["positives"] > 0 and data["negatives"] > 0 and data["recall"] >= 0.95
    floors = [point[0] for point in data["curve"]]
    recalls = [point[1] for point in data["curve"]]
    assert floors == sorted(floors) and recalls == sorted(recalls, reverse=True)
    assert "recommended relevance floor" in out
    code, _, err = run(capsys, "rulebook", "calibrate", str(run_dir), "--instance", "i00", "--episodes", "0")
    assert_one_line_error(code, err, "--episodes")


def test_restore_the_whole_book(tmp_path, capsys):
    db = str(tmp_path / "rulebook.db")
    for text in ("When User1 shows Activity Exploit, then Remove User1", "When User2 shows Activity Exploit, then Remove User2"):
        assert run(capsys, "rulebook", "add", "--actor", "alice", "--role", "planner", text, "--rulebook", db)[0] == 0
    code, out, _ = run(capsys, "rulebook", "restore", "--book", "1", "--rulebook", db)
    assert code == 0 and "book version 3 restores book version 1 (1 rules changed)" in out
    code, out, _ = run(capsys, "rulebook", "list", "--rulebook", db)
    assert "User1" in out and "User2" not in out
    code, _, err = run(capsys, "rulebook", "restore", "--rulebook", db)
    assert_one_line_error(code, err, "--book N")
    code, _, err = run(capsys, "rulebook", "restore", "--book", "7", "--rulebook", db)
    assert_one_line_error(code, err, "no book version 7")


def test_compare_injection_modes_plays_the_same_seeds_under_each_mode_and_reports_progress(run_dir):
    from forge.runs.evaluation import compare_injection_modes
    from forge.wiring import open_run_memory

    found = open_run_memory(run_dir, "i00", ["env.max_steps=4"])
    seen = []
    comparison = compare_injection_modes(found, found.snapshot(), ["none", "full"], 2,
                                         on_progress=lambda what, done, total: seen.append((what, done, total)))
    assert list(comparison.results) == ["none", "full"] and len(comparison.seeds) == 2
    assert seen == [("none", 0, 2), ("none", 1, 2), ("none", 2, 2), ("full", 0, 2), ("full", 1, 2), ("full", 2, 2)]
    none, full = comparison.results["none"], comparison.results["full"]
    assert len(none.returns) == len(full.returns) == 2 and none.memory_per_step == 0 < full.memory_per_step
    assert (run_dir / "traces" / "i00" / "evaluate-full-1.json").is_file()


def test_evaluate_reads_the_runs_own_rulebook_and_operator_rules_only_when_told(run_dir, capsys):
    code, out, err = run(capsys, "evaluate", str(run_dir), "--instance", "i00", "--episodes", "1",
                         "--injection", "rulebook")
    assert code == 0, err
    own = run_dir / "rulebook.db"
    assert own.is_file() and f"rulebook arm: {own}" in " ".join(out.split())
    assert "operator rules not included" in out
    data = json.loads((run_dir / "reports" / "evaluate.json").read_text())
    assert data["rulebook"] == str(own) and data["operator_rules"] is False
    code, out, err = run(capsys, "evaluate", str(run_dir), "--instance", "i00", "--episodes", "1",
                         "--injection", "rulebook", "--operator-rules")
    assert code == 0, err
    assert "operator rules included (--operator-rules)" in out


def test_a_sessions_rulebook_lives_with_it_unless_one_is_named(tmp_path):
    from forge.config import load_config, rulebook_location

    cfg = load_config(overrides=[f"run.runs_dir={tmp_path}"])
    assert rulebook_location(cfg, tmp_path / "s1") == str(tmp_path / "s1" / "rulebook.db")
    assert rulebook_location(cfg, tmp_path / "s2") != rulebook_location(cfg, tmp_path / "s1")
    assert rulebook_location(cfg) == str(tmp_path / "rulebook.db")  # outside a session: the operator's book
    redis = load_config(overrides=["memory.store=redis", "memory.redis_url=redis://127.0.0.1:7/0"])
    assert rulebook_location(redis, tmp_path / "s1") == "redis://127.0.0.1:7/0"  # workers may be elsewhere
    named = load_config(overrides=[f"rulebook.store={tmp_path / 'shared.db'}"])
    assert rulebook_location(named, tmp_path / "s1") == str(tmp_path / "shared.db")
