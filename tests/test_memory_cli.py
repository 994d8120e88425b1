"""`forge memory ...` on a populated store (SQLite run directory and Redis)."""

from __future__ import annotations

import pytest

from forge.cli import main
from forge.memory import Artifact, MemoryManager, Provenance, open_store

RULE = "When User1 shows Exploit, then Remove User1"


def populate(spec: str) -> str:
    """Two instances: s/0 (three versions) and s/1 (broadcast into, then frozen)."""
    with open_store(spec) as store:
        manager = MemoryManager(store)
        manager.apply_artifacts("s/0", [Artifact.rule("planner", RULE),
                                        Artifact.example("analyst", "scan first", "Action: Analyse [User2]")],
                                provenance=Provenance(stage=1, attempt=2, actor="reflector"))
        manager.apply_artifacts("s/0", [Artifact.rule("action_chooser", "Prefer Restore over Remove on Op_Server0")])
        manager.broadcast("s/0", ["s/1"], Provenance(stage=1))
        manager.delete("s/0", [Artifact.rule("planner", RULE).id], Provenance(actor="user:alice"))
        manager.freeze("s/1")
    return spec


@pytest.fixture(params=["sqlite", "redis"])
def populated(request, tmp_path) -> str:
    return populate(str(tmp_path / "run") if request.param == "sqlite" else request.getfixturevalue("clean_redis_url"))


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(["memory", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_list_shows_every_instance_with_counts(populated, capsys):
    code, out, _ = run(capsys, "list", "--store", populated)
    assert code == 0
    row_0 = next(line for line in out.splitlines() if "s/0" in line)
    row_1 = next(line for line in out.splitlines() if "s/1" in line)
    assert "delete" in row_0 and "0r 0e" in row_0 and "0r 1e" in row_0 and "1r 0e" in row_0
    assert "yes" in row_1 and "1r 0e" in row_1


def test_show_prints_the_items_of_a_version(populated, capsys):
    code, out, _ = run(capsys, "show", "s/0", "--version", "1", "--store", populated)
    assert code == 0 and "version 1 (head is 3)" in out
    assert RULE in out and "[User2]" in out and "scan first" in out and "actor=reflector" in out
    code, out, _ = run(capsys, "show", "s/0", "--store", populated)
    assert code == 0 and RULE not in out and "1 withdrawn" in out


def test_history_and_diff(populated, capsys):
    code, out, _ = run(capsys, "history", "s/0", "--store", populated)
    assert code == 0
    rows = [[cell.strip() for cell in line.split("│")[1:]] for line in out.splitlines() if line.startswith("│")]
    assert [(row[0], row[1]) for row in rows] == [("1", "apply"), ("2", "apply"), ("3", "delete")]
    assert "user:alice" in out and "+0 -1 ~0" in out
    code, out, _ = run(capsys, "diff", "s/0", "1", "3", "--store", populated)
    assert code == 0
    assert f"- planner/rule {Artifact.rule('planner', RULE).id}" in out and "+ action_chooser/rule" in out


def test_restore_makes_an_old_version_the_head(populated, capsys):
    code, out, _ = run(capsys, "restore", "s/0", "1", "--store", populated)
    assert code == 0 and "version 4 restores the memory of version 1" in out
    with open_store(populated) as store:
        assert store.head("s/0").digest == store.version("s/0", 1).digest
        assert store.head("s/0").provenance.actor.startswith("user:")


@pytest.mark.parametrize(
    "argv, message",
    [
        (["show", "nope"], "unknown memory instance 'nope'"),
        (["history", "nope"], "unknown memory instance 'nope'"),
        (["diff", "s/0", "1", "9"], "no memory version 9"),
        (["show", "s/0", "--version", "7"], "no memory version 7"),
        (["restore", "s/0", "5"], "no memory version 5"),
        (["restore", "s/1", "1"], "'s/1' is frozen"),
    ],
)
def test_bad_arguments_exit_2_with_one_line(populated, capsys, argv, message):
    code, out, err = run(capsys, *argv, "--store", populated)
    assert code == 2 and message in err and len(err.strip().splitlines()) == 1 and "Traceback" not in err
    if "nope" in message:
        assert "known instances: s/0, s/1" in err


def test_missing_store_is_a_clear_error(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    code, _, err = run(capsys, "list")
    assert code == 2 and "runs/latest does not exist" in err
    code, _, err = run(capsys, "list", "--store", str(tmp_path / "absent"))
    assert code == 2 and "no memory store at" in err and "absent" in err


def test_default_store_is_runs_latest(tmp_path, capsys, monkeypatch):
    populate(str(tmp_path / "run-1"))
    monkeypatch.chdir(tmp_path)
    (tmp_path / "runs").mkdir()
    (tmp_path / "runs" / "latest").symlink_to(tmp_path / "run-1")
    code, out, _ = run(capsys, "list")
    assert code == 0 and "s/0" in out and "s/1" in out
