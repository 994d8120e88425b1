"""The rulebook as code through its commands (issue 34): `forge rulebook lint|plan|apply|test` and
`export --format yaml` on the shipped example (examples/rulebook), a real SQLite rulebook, the real
embedding model and the surrogate compiler; git provenance in a real repository."""

from __future__ import annotations

import json
import shutil
import subprocess
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from forge.cli import main
from forge.config import load_config
from forge.rulebook.book import open_book
from forge.rulebook.code.plan import entry_ids
from forge.rulebook.code.workflow import PlanRefused, apply_planned, load_plan, plan_files
from forge.rulebook.store.backends import open_rulebook
from forge.wiring import build_clients

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "examples" / "rulebook"
RULES = sorted(str(p) for p in (EXAMPLE / "rules").glob("*.yaml"))
TESTS = str(EXAMPLE / "tests" / "injection.yaml")


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture()
def example(tmp_path):
    """A copy of the example repository, its files committed in a fresh git repository."""
    repo = tmp_path / "repo"
    shutil.copytree(EXAMPLE, repo)
    git(repo, "init", "-q")
    git(repo, "add", ".")
    git(repo, "commit", "-qm", "rules")
    return repo


def git(repo: Path, *args: str) -> str:
    env = {"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.invalid", "GIT_COMMITTER_NAME": "t",
           "GIT_COMMITTER_EMAIL": "t@example.invalid", "PATH": "/usr/bin:/bin"}
    return subprocess.run(["git", *args], cwd=repo, check=True, capture_output=True, text=True, env=env).stdout.strip()


def heads(db: str) -> dict:
    with open_rulebook(db) as store:
        return {rid: v.record for rid, v in store.heads().items()}


def book_version(db: str) -> int:
    with open_rulebook(db) as store:
        return store.book_head()


def test_lint_passes_the_example_and_names_file_line_entry_and_key_of_each_error(tmp_path, capsys):
    code, out, _ = run(capsys, "rulebook", "lint", *RULES)
    assert code == 0 and "0 error(s), 0 warning(s) in 2 file(s), 8 entries" in out
    broken = tmp_path / "broken.yaml"
    text = (EXAMPLE / "rules" / "operators.yaml").read_text()
    broken.write_text(text.replace("when: {host: Op_Server0, compromise: any}", "when: {host: Op_Server9, compromise: any}")
                      .replace("action: {mode: do, verb: DecoyTomcat, target: Enterprise0}",
                               "action: {mode: do, verb: DecoyTomcat, target: Enterprise0}\n    unexpected: 1"))
    code, out, _ = run(capsys, "rulebook", "lint", str(broken))
    line = text.splitlines().index("    when: {host: Op_Server0, compromise: any}") + 1
    assert code == 1 and f"{broken}:{line}: error: entry restore-op-server: when.host: unknown host 'Op_Server9'" in out
    assert "entry decoy-enterprise0-on-scan: unknown key(s) unexpected [schema]" in out


def test_an_explicit_trigger_wider_than_its_text_is_refused_by_plan_and_apply(tmp_path, capsys):
    db = str(tmp_path / "rb.db")
    wide = tmp_path / "wide.yaml"
    wide.write_text("version: 1\nrules:\n"
                    "  - id: keep-user0\n    text: If User0 is not compromised, do not restore it.\n    role: action_chooser\n"
                    "    actor: user:alice\n    when: {host: User0, compromise: any}\n"
                    "    action: {mode: never, verb: Restore, target: User0}\n")
    for command in ("plan", "apply"):
        code, out, err = run(capsys, "rulebook", command, str(wide), "--rulebook", db, "--allow-uncommitted"
                             if command == "apply" else "--namespace=forge")
        refusal = next((line for line in out.splitlines() if "entry keep-user0: when: the trigger is refused: " in line), "")
        assert code == 2 and "negated" in refusal and refusal.endswith("[validation]"), out + err
        assert "1 error(s)" in err
    assert book_version(db) == 0  # nothing applied


def test_plan_equals_what_apply_does_and_applying_twice_changes_nothing(example, tmp_path, capsys):
    db = str(tmp_path / "rb.db")
    rules = [str(p) for p in sorted((example / "rules").glob("*.yaml"))]
    saved = tmp_path / "plan.json"
    code, out, err = run(capsys, "rulebook", "plan", *rules, "--rulebook", db, "--out", str(saved))
    assert code == 0, err
    assert "8 to add" in out and "user0-remove-first wins by specificity" in out and "compiled now by the model" in out
    planned = load_plan(saved)
    code, out, err = run(capsys, "rulebook", "apply", "--plan", str(saved), "--rulebook", db)
    assert code == 0 and "applied: book version 1 (8 rule versions, op apply)" in out, err
    with open_rulebook(db) as store:
        (commit,) = store.book_history()
        assert commit.changes == tuple((c.record.rule_id, 1, c.op) for c in planned.plan.changes)
        assert {rid: v.record for rid, v in store.heads().items()} == {c.record.rule_id: c.record for c in planned.plan.changes}
        nodes = store.nodes([n.id for n in planned.plan.nodes])
        assert set(nodes) == {n.id for n in planned.plan.nodes}
    assert commit.note.startswith("rule files: rules/learned.yaml@") and "rules/operators.yaml@" in commit.note
    head = git(example, "log", "-1", "--format=%H")
    assert f"rules/operators.yaml@{head[:12]}" in commit.note and commit.provenance.model

    # The same files planned and applied again: nothing to do, nothing written.
    code, out, _ = run(capsys, "rulebook", "apply", *rules, "--rulebook", db)
    assert code == 0 and "nothing to apply" in out and "0 to add, 0 new version, 0 to withdraw, 8 unchanged" in out
    assert book_version(db) == 1

    # A plan made without --out, applied by re-planning (what a CI job does after review), equals its plan.
    (example / "rules" / "operators.yaml").write_text((example / "rules" / "operators.yaml").read_text().replace(
        "put a DecoyTomcat on Enterprise0.", "put a DecoyApache on Enterprise0.").replace("verb: DecoyTomcat", "verb: DecoyApache"))
    git(example, "commit", "-qam", "decoy apache")
    cfg = load_config(overrides=[f"rulebook.store={db}"])
    book = open_book(cfg)
    planned = plan_files(book, rules, compiler_client=lambda: build_clients(cfg)[0]["compiler"])
    (changed,) = [s for s in planned.plan.steps if s.kind != "unchanged"]
    assert changed.kind == "new version" and "supersedes rule" in changed.detail  # new words: a new rule replaces the old
    applied = apply_planned(book, planned, actor="user:ci")
    assert applied.book_version.changes == tuple((c.record.rule_id, book.store.head(c.record.rule_id).number, c.op)
                                                 for c in planned.plan.changes)


def test_apply_refuses_when_the_book_moved_since_the_plan(example, tmp_path, capsys):
    db = str(tmp_path / "rb.db")
    rules = [str(p) for p in sorted((example / "rules").glob("*.yaml"))]
    saved = tmp_path / "plan.json"
    assert run(capsys, "rulebook", "plan", *rules, "--rulebook", db, "--out", str(saved))[0] == 0
    code, _, _ = run(capsys, "rulebook", "add", "--actor", "bob", "--role", "planner", "--rulebook", db,
                     "When User1 shows Activity Scan, then Analyse User1")
    assert code == 0 and book_version(db) == 1  # another writer
    code, out, err = run(capsys, "rulebook", "apply", "--plan", str(saved), "--rulebook", db)
    assert code == 2 and "the rulebook moved since the plan: planned at book version 0, now 1" in err
    code, out, err = run(capsys, "rulebook", "apply", *rules, "--rulebook", db, "--plan-version", "0")
    assert code == 2 and "it was at book version 0, it is at 1" in err
    assert book_version(db) == 1 and len(heads(db)) == 1  # nothing of the files was written

    # The compare-and-set itself: another writer commits while apply embeds the trigger nodes.
    cfg = load_config(overrides=[f"rulebook.store={db}"])
    book = open_book(cfg)
    planned = plan_files(book, rules, compiler_client=lambda: build_clients(cfg)[0]["compiler"])
    embed = book.ensure_vectors

    def racing(nodes):
        embed(nodes)
        other = open_book(cfg)
        other.withdraw(next(iter(heads(db))))
    book.ensure_vectors = racing
    with pytest.raises(PlanRefused, match="the rulebook moved while applying: planned at book version 1, another writer committed 2"):
        apply_planned(book, planned, actor="user:ci")
    assert book_version(db) == 2 and len(heads(db)) == 1


def test_a_saved_plan_is_refused_for_changed_files_another_book_or_uncommitted_changes(example, tmp_path, capsys):
    db = str(tmp_path / "rb.db")
    rules = [str(p) for p in sorted((example / "rules").glob("*.yaml"))]
    saved = tmp_path / "plan.json"
    assert run(capsys, "rulebook", "plan", *rules, "--rulebook", db, "--out", str(saved))[0] == 0
    code, _, err = run(capsys, "rulebook", "apply", "--plan", str(saved), "--rulebook", str(tmp_path / "other.db"))
    assert code == 2 and "the plan is for the rulebook" in err
    operators = example / "rules" / "operators.yaml"
    operators.write_text(operators.read_text() + "\n")
    code, _, err = run(capsys, "rulebook", "apply", "--plan", str(saved), "--rulebook", db)
    assert code == 2 and "operators.yaml changed since the plan was made" in err
    code, _, err = run(capsys, "rulebook", "apply", *rules, "--rulebook", db)
    assert code == 2 and "has changes git has not committed" in err
    code, out, _ = run(capsys, "rulebook", "apply", *rules, "--rulebook", db, "--allow-uncommitted")
    assert code == 0 and "+ uncommitted changes, sha256" in out
    outside = tmp_path / "outside.yaml"
    shutil.copy(operators, outside)
    code, out, _ = run(capsys, "rulebook", "plan", str(outside), "--rulebook", str(tmp_path / "third.db"))
    assert code == 0 and "(not in a git repository; sha256" in out


def test_rule_tests_pass_on_the_example_and_fail_when_a_rule_is_withdrawn(example, tmp_path, capsys):
    rules = [str(p) for p in sorted((example / "rules").glob("*.yaml"))]
    junit = tmp_path / "junit.xml"
    code, out, err = run(capsys, "rulebook", "test", str(example / "tests" / "injection.yaml"), "--rules", *rules,
                         "--no-book", "--junit", str(junit))
    assert code == 0 and "9 passed, 0 failed" in out, out + err
    suite = ET.parse(junit).getroot()
    assert suite.get("tests") == "9" and suite.get("failures") == "0"

    operators = example / "rules" / "operators.yaml"
    operators.write_text(operators.read_text().replace(
        "    action: {mode: do, verb: Restore, target: Op_Server0}\n",
        "    action: {mode: do, verb: Restore, target: Op_Server0}\n    status: withdrawn\n"))
    code, out, _ = run(capsys, "rulebook", "test", str(example / "tests" / "injection.yaml"), "--rules", *rules,
                       "--no-book", "--junit", str(junit))
    assert code == 1 and "8 passed, 1 failed" in out and "the restore rule: not injected: restore-op-server" in out
    failed = [c for c in ET.parse(junit).getroot().iter("testcase") if c.find("failure") is not None]
    assert [c.get("name") for c in failed] == ["an exploited Op_Server0 gets the restore rule"]
    assert failed[0].find("failure").get("message") == "not injected: restore-op-server"

    # Against a book: the rules applied, then one withdrawn with `forge rulebook withdraw`.
    db = str(tmp_path / "rb.db")
    operators.write_text((EXAMPLE / "rules" / "operators.yaml").read_text())
    assert run(capsys, "rulebook", "apply", *rules, "--rulebook", db, "--allow-uncommitted")[0] == 0
    assert run(capsys, "rulebook", "test", str(example / "tests" / "injection.yaml"), "--rulebook", db)[0] == 0
    rule = next(rid for rid, r in heads(db).items() if "restore-op-server" in entry_ids(r))
    assert run(capsys, "rulebook", "withdraw", rule, "--rulebook", db)[0] == 0
    code, out, _ = run(capsys, "rulebook", "test", str(example / "tests" / "injection.yaml"), "--rulebook", db)
    assert code == 1 and "the restore rule: not injected: restore-op-server" in out


def test_a_case_reads_its_context_from_a_trace_step(tmp_path, capsys):
    run_dir = tmp_path / "runs" / "sess"
    (run_dir / "traces" / "i00").mkdir(parents=True)
    steps = [{"step": n, "observation": f"Step {n} of 30.\nAlerts:\nNo host shows activity or compromise.", "action": "Sleep"}
             for n in range(3)]
    steps[2]["observation"] = "Step 3 of 30.\nAlerts:\nOp_Server0: Activity Exploit, Compromised User"
    (run_dir / "traces" / "i00" / "s1-train-a1.json").write_text(json.dumps({"seed": 7, "steps": steps}))
    tests = tmp_path / "trace_tests.yaml"
    tests.write_text(f"cases:\n"
                     f"  - {{name: exploited, role: action_chooser, trace: '{run_dir}:i00:s1-train-a1:2', expect: [restore-op-server]}}\n"
                     f"  - {{name: quiet, role: action_chooser, trace: '{run_dir}:i00:s1-train-a1:1', expect: []}}\n"
                     f"  - {{name: no such step, role: action_chooser, trace: '{run_dir}:i00:s1-train-a1:9', expect: []}}\n")
    code, out, _ = run(capsys, "rulebook", "test", str(tests), "--rules", str(EXAMPLE / "rules" / "operators.yaml"), "--no-book")
    assert code == 1 and "2 passed, 1 failed" in out and "no such step: episode s1-train-a1 of i00 has no step 9" in out


def test_export_round_trips_through_apply_into_an_empty_book(example, tmp_path, capsys):
    db = str(tmp_path / "rb.db")
    extra = tmp_path / "extra.yaml"
    extra.write_text(
        "version: 1\nrules:\n"
        "  - id: semantic-note\n    text: Be wary of hosts that were cleaned earlier in the episode.\n    role: [planner, action_chooser]\n"
        "    actor: [user:erin, user:frank]\n    semantic: true\n"
        "  - id: guarded\n    text: When Enterprise2 shows any compromise at critical priority, restore it.\n    role: action_chooser\n"
        "    actor: user:erin\n    when: {host: Enterprise2, compromise: any}\n    action: {mode: do, verb: Restore, target: Enterprise2}\n"
        "    unexpressed: at critical priority\n"
        "  - id: remove-then-decoy\n    text: When User3 shows Compromised User, remove the attacker from it, then decoy the next hop.\n"
        "    role: action_chooser\n    actor: user:frank\n    when: {host: User3, compromise: User}\n"
        "    action: {mode: do, verb: Remove, target: $matched, then: [{verb: DecoyApache, target: $next_subnet}]}\n"
        "    context: |\n      Alerts:\n      User3: Activity None, Compromised User\n")
    rules = [*(str(p) for p in sorted((example / "rules").glob("*.yaml"))), str(extra)]
    assert run(capsys, "rulebook", "apply", *rules, "--rulebook", db, "--allow-uncommitted")[0] == 0
    first, second = tmp_path / "export" / "book.yaml", tmp_path / "export" / "again.yaml"
    code, _, err = run(capsys, "rulebook", "export", "--format", "yaml", "--rulebook", db, "--out", str(first))
    assert code == 0, err
    empty = str(tmp_path / "empty.db")
    code, out, err = run(capsys, "rulebook", "apply", str(first), "--rulebook", empty)
    assert code == 0 and "11 to add" in out and "compiled now" not in out, out + err  # every meaning is stated
    assert run(capsys, "rulebook", "export", "--format", "yaml", "--rulebook", empty, "--out", str(second))[0] == 0
    assert first.read_text() == second.read_text()
    assert "context: |-\n    Step 11 of 30." in first.read_text()  # a learned rule keeps its failing step
    assert first.read_text().startswith("# yaml-language-server: $schema=../../../")
    code, out, _ = run(capsys, "rulebook", "export", "--format", "yaml", "--rulebook", empty)
    assert code == 0 and out == first.read_text().split("\n", 1)[1]  # stdout: the same file, without the schema path


def test_a_learners_champion_exported_as_yaml_round_trips(tmp_path, capsys):
    """A real learner (one stage of failure-triggered learning, surrogate model) exported straight to a rule file."""
    from forge.protocol.inner_loop import InstanceLearner
    from forge.runs.rundir import RunDirectory
    from forge.wiring import build_clients, open_memory

    cfg = load_config(overrides=[f"run.runs_dir={tmp_path / 'runs'}", "surrogate.reflector_error_rate=0.0",
                                 "protocol.max_attempts=2", "tracking.enabled=false"])
    run_dir = RunDirectory.create(cfg, name="sess")
    learner = InstanceLearner(instance="i00", session=run_dir.session_id, cfg=cfg, clients=build_clients(cfg)[0],
                              memory=open_memory(cfg, str(run_dir.path), run_dir.session_id), run_dir=run_dir.path)
    learner.train_stage(1, 21)
    items = len(learner.snapshot().items)
    assert items
    exported = tmp_path / "learned.yaml"
    code, out, err = run(capsys, "rulebook", "export", str(run_dir.path), "--instance", "i00", "--format", "yaml",
                         "--out", str(exported))
    assert code == 0 and f"wrote {items} rules" in out, err
    assert not (tmp_path / "runs" / "rulebook.db").exists()  # the operator's book is not touched
    assert run(capsys, "rulebook", "lint", str(exported))[0] == 0
    db = str(tmp_path / "rb.db")
    assert run(capsys, "rulebook", "apply", str(exported), "--rulebook", db, "--allow-uncommitted")[0] == 0
    again = tmp_path / "again.yaml"
    assert run(capsys, "rulebook", "export", "--format", "yaml", "--rulebook", db, "--out", str(again))[0] == 0
    assert exported.read_text() == again.read_text()
    assert all(r.actors == ("sess/i00",) for r in heads(db).values())


def test_a_redis_book_is_planned_applied_and_copied_for_rule_tests(clean_redis_url, capsys):
    rules = [*RULES]
    code, out, err = run(capsys, "rulebook", "apply", *rules, "--rulebook", clean_redis_url, "--allow-uncommitted")
    assert code == 0 and "applied: book version 1 (8 rule versions" in out, err
    code, out, _ = run(capsys, "rulebook", "test", TESTS, "--rulebook", clean_redis_url, "--rules", *rules)
    assert code == 0 and "9 passed, 0 failed" in out and "(on a scratch copy)" in " ".join(out.split())
    with open_rulebook(clean_redis_url) as store:
        assert store.book_head() == 1  # the tests' scratch copy left the book as it was
