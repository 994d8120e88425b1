"""Session storage (forge.plumbing.storage, forge.runs.rundir): paths, file:// and a real S3-compatible server (moto on
loopback); a Ray job's runs directory kept out of Ray's working-directory copy; the MLflow store's choice."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from forge.config import ConfigError, ForgeConfig, load_config
from forge.runs.rundir import RunDirectory
from forge.plumbing.storage import RunMirror, Storage, StorageError, in_ray_job_package, job_runs_dir, working_copy
from forge.runs.tracking import default_tracking_uri, tracking_store

ROOT = Path(__file__).resolve().parents[1]
RAY_PKG = "session_2026/runtime_resources/working_dir_files/_ray_pkg_3a5bad084432bd90"


def test_a_ray_job_package_is_recognised_and_only_a_relative_runs_dir_moves(tmp_path):
    package = tmp_path / RAY_PKG
    package.mkdir(parents=True)
    assert in_ray_job_package(package) and in_ray_job_package(package / "sub")
    assert not in_ray_job_package(tmp_path) and not in_ray_job_package(tmp_path / "_ray_pkg_x")
    home = tmp_path / "home"
    assert job_runs_dir("runs", package, home) == home / "forge_results" / "runs"
    assert job_runs_dir("/data/runs", package, home) is None
    assert job_runs_dir("s3://bucket/runs", package, home) is None
    assert job_runs_dir("runs", tmp_path, home) is None


def test_a_session_created_inside_a_ray_job_is_kept_under_home(tmp_path, monkeypatch):
    package = tmp_path / RAY_PKG
    package.mkdir(parents=True)
    monkeypatch.chdir(package)
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    cfg = ForgeConfig()
    run = RunDirectory.create(cfg, name="job")
    kept = tmp_path / "home" / "forge_results" / "runs" / "job"
    assert run.path == kept.resolve() and (kept / "config.yaml").is_file()
    assert not (package / "runs").exists()
    assert str(kept.parent) in run.notice and "run.runs_dir=runs" in run.notice
    # The saved configuration says where the session went (a resume and the tracking store follow it).
    assert Path(run.load_config().run.runs_dir) == kept.parent


def test_storage_as_a_path_or_file_uri(tmp_path):
    for storage in (str(tmp_path / "a"), (tmp_path / "b").as_uri()):
        cfg = load_config(ROOT / "configs" / "forge.yaml", overrides=[f"run.storage={storage}", "run.name=s"])
        run = RunDirectory.create(cfg)
        assert run.path.parent.name == Path(storage.replace("file://", "")).name
        assert run.mirror is None and RunDirectory.open(run.location).path == run.path
        assert RunDirectory.open(run.path.as_uri()).path == run.path


def test_credentials_in_a_storage_uri_are_refused():
    with pytest.raises(StorageError, match="secret_key.*AWS_SECRET_ACCESS_KEY") as err:
        Storage.open("s3://bucket/runs?secret_key=hunter2hunter2&endpoint_override=127.0.0.1:9")
    assert "hunter2" not in str(err.value)


def test_credentials_in_a_storage_uri_s_user_part_are_refused_and_never_printed(tmp_path, capsys):
    """Today's main looked at the query only: s3://KEY:SECRET@bucket passed, and `forge run` printed it whole."""
    from forge.cli import main

    uri = "s3://AKIAEXAMPLEKEY:hunter2secret@bucket/runs?endpoint_override=127.0.0.1:9&scheme=http"
    with pytest.raises(StorageError, match=r"user part \(KEY:SECRET@\).*AWS_ACCESS_KEY_ID") as err:
        Storage.open(uri)
    assert "hunter2secret" not in str(err.value) and "AKIAEXAMPLEKEY:***@bucket" in str(err.value)
    assert main(["run", str(ROOT / "configs" / "forge.yaml"), f"run.storage={uri}", f"run.runs_dir={tmp_path}",
                 "tracking.enabled=false"]) == 2
    printed = capsys.readouterr()
    assert "user part" in printed.err and "hunter2secret" not in printed.out + printed.err
    assert not list(tmp_path.rglob("config.yaml"))  # nothing saved


def remote_session(s3_server, bucket: str, name: str):
    """A session created in a bucket of the S3 server, as `forge run run.storage=s3://...` creates it."""
    s3_server.make_bucket(bucket)
    cfg = load_config(ROOT / "configs" / "forge.yaml", overrides=[f"run.storage={s3_server.uri(bucket + '/runs')}",
                                                                  f"run.name={name}"])
    return cfg, RunDirectory.create(cfg)


def test_a_reader_of_a_running_session_in_s3_never_touches_the_driver_s_working_copy(s3_server, tmp_path, monkeypatch):
    """Today's main: `forge report s3://...` on the driver's machine pulled into the driver's own working copy,
    deleting it first: the live SQLite files, and everything not pushed yet, went with it."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    _, driver = remote_session(s3_server, "forge-readers", "live")
    live = sqlite3.connect(driver.path / "forge.db")  # the driver's ledger, written mid-stage, not pushed yet
    live.execute("CREATE TABLE t (x)")
    live.execute("INSERT INTO t VALUES (1)")
    live.commit()
    reader = RunDirectory.open(driver.location)  # forge report / compare / evaluate
    assert reader.path != driver.path and driver.path not in reader.path.parents
    assert live.execute("SELECT x FROM t").fetchall() == [(1,)] and (driver.path / "config.yaml").is_file()
    assert not (reader.path / "forge.db").exists()  # the reader sees what the storage holds, and only that
    reader.write_json("reports/summary.json", {"read": True})
    reader.sync(databases=True)  # a reader sends back what it wrote, never a database it only read
    assert not driver.mirror.storage.exists("forge.db")
    # A second driver of the session on this machine is refused, naming the first.
    with pytest.raises(StorageError, match=r"being run from this machine \(driver pid \d+ on .*working copy"):
        RunDirectory.open(driver.location, writer=True)
    # A reader's copy lasts until the next reader, once its process no longer holds it.
    first = reader.path
    reader.mirror.lock.release()
    again = RunDirectory.open(driver.location)
    assert not first.exists() and again.path.is_dir()
    live.close()


def test_a_small_file_is_pushed_whenever_it_changes(s3_server, tmp_path, monkeypatch):
    import time

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    _, run = remote_session(s3_server, "forge-pushed", "p")
    value = {"calls": 1}
    stop = run.mirror.keep_pushed("spending.json", lambda: json.dumps(value), every_s=0.05)
    storage = run.mirror.storage
    wait = time.monotonic() + 20
    while not storage.exists("spending.json") and time.monotonic() < wait:
        time.sleep(0.05)
    assert json.loads(storage.read_text("spending.json")) == {"calls": 1}
    value["calls"] = 2
    stop()  # a last push on the way out
    assert json.loads(storage.read_text("spending.json")) == {"calls": 2}


def test_the_tracking_store_follows_env_then_default(tmp_path, monkeypatch):
    cfg = ForgeConfig()
    monkeypatch.delenv("MLFLOW_TRACKING_URI", raising=False)
    assert tracking_store(cfg, tmp_path) == (default_tracking_uri(tmp_path), tmp_path / "mlartifacts")
    monkeypatch.setenv("MLFLOW_TRACKING_URI", "http://127.0.0.1:5000")
    assert tracking_store(cfg, tmp_path) == ("http://127.0.0.1:5000", None)  # the server keeps the artifacts
    cfg.tracking.tracking_uri = f"sqlite:///{tmp_path}/other.db"
    assert tracking_store(cfg, tmp_path) == (cfg.tracking.tracking_uri, tmp_path / "mlartifacts")
    monkeypatch.delenv("MLFLOW_TRACKING_URI")
    cfg.tracking.tracking_uri = None
    cfg.run.storage = "s3://bucket/runs"
    with pytest.raises(ConfigError, match="tracking.tracking_uri.*MLFLOW_TRACKING_URI.*tracking.enabled=false"):
        tracking_store(cfg, tmp_path, remote_storage=True)


def test_a_run_in_s3_is_pushed_as_it_goes_and_pulled_fresh(s3_server, tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "machine-a"))
    cfg, run = remote_session(s3_server, "forge-unit", "unit")
    assert run.path == working_copy(run.mirror.storage).resolve()
    assert str(tmp_path / "machine-a") in str(run.path)
    assert run.location == s3_server.uri("forge-unit/runs/unit")
    # A second session of the same name gets its own name: the storage, not the working copy, decides.
    assert RunDirectory.create(cfg).location == s3_server.uri("forge-unit/runs/unit-2")

    # A SQLite file with a committed write still in its WAL: the pushed copy has it.
    db = sqlite3.connect(run.path / "forge.db")
    db.execute("PRAGMA journal_mode = WAL")
    db.execute("CREATE TABLE t (x)")
    db.execute("INSERT INTO t VALUES (42)")
    db.commit()
    run.write_json("traces/i00/a.json", {"step": 1})
    run.sync()
    assert not run.mirror.storage.exists("forge.db")  # databases only at stage boundaries
    assert json.loads(run.mirror.storage.read_text("traces/i00/a.json")) == {"step": 1}
    run.sync(databases=True)
    db.close()
    assert run.mirror.push() == 0  # nothing changed since

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "machine-b"))
    again = RunDirectory.open(run.location)
    assert str(tmp_path / "machine-b") in str(again.path)
    assert sqlite3.connect(again.path / "forge.db").execute("SELECT x FROM t").fetchall() == [(42,)]
    assert json.loads((again.path / "traces/i00/a.json").read_text()) == {"step": 1}
    assert again.load_config().run.storage == cfg.run.storage

    with pytest.raises(StorageError, match="not a FORGE run directory"):
        RunMirror(Storage.open(s3_server.uri("forge-unit/nothing")), tmp_path / "x").pull()


def test_a_local_file_written_while_a_reader_reads_is_read_whole(tmp_path):
    """Storage.write_text on a local directory: a reader never sees part of a document (the pushed spending is
    read while the driver rewrites it, and a driver killed mid-write must not leave half of one)."""
    import threading

    (tmp_path / "store").mkdir()
    storage = Storage.open(str(tmp_path / "store"))
    storage.write_text("doc.json", json.dumps({"n": 0, "pad": "x" * 200_000}))
    stop, torn = threading.Event(), []

    def read_all() -> None:
        while not stop.is_set():
            try:
                json.loads(storage.read_text("doc.json"))
            except ValueError as exc:
                torn.append(str(exc))

    reader = threading.Thread(target=read_all)
    reader.start()
    try:
        for n in range(1, 150):
            storage.write_text("doc.json", json.dumps({"n": n, "pad": "x" * 200_000}))
    finally:
        stop.set()
        reader.join()
    assert not torn, f"{len(torn)} reads saw part of a document: {torn[0]}"
    assert json.loads(storage.read_text("doc.json"))["n"] == 149
    assert sorted(p.name for p in (tmp_path / "store").iterdir()) == ["doc.json"]


def test_a_pushed_spending_that_is_not_a_document_keeps_the_ledgers_and_the_resume_goes_on(tmp_path):
    from forge.protocol.ledger import SessionLedger
    from workers.spending import PUSHED_SPENDING, fold_pushed_spending

    ledger = SessionLedger.open(str(tmp_path), "s")
    try:
        ledger.commit_spending({"calls": 7, "usd": 0.5})
        (tmp_path / PUSHED_SPENDING).write_text('{"open_leases": {"a": {"holder": "pid 1 on')
        assert fold_pushed_spending(ledger, tmp_path) is None
        assert ledger.spending()["calls"] == 7
        (tmp_path / PUSHED_SPENDING).write_text(json.dumps({"spent": {"calls": 9, "usd": 0.6}, "open_leases": {}}))
        assert fold_pushed_spending(ledger, tmp_path)["calls"] == 9
    finally:
        ledger.close()
