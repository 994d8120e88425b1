"""Credentials inside URLs never reach the disk: config.yaml, MLflow params and tags, traces, reports."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from forge.config import ConfigError, load_config, masked_credentials, to_saved_yaml, to_yaml
from forge.plumbing.redact import is_masked, mask_urls_in, mask_urls_in_text
from forge.runs.rundir import RunDirectory

ROOT = Path(__file__).resolve().parents[1]
PASSWORD = "FORGE-FAKE-PASSWORD-9c41e7"


@pytest.mark.parametrize(
    "url, masked",
    [
        (f"redis://forge:{PASSWORD}@db.example:6379/0", "redis://forge:***@db.example:6379/0"),
        (f"rediss://:{PASSWORD}@db.example/2", "rediss://:***@db.example/2"),
        (f"https://{PASSWORD}@git.example/repo", "https://***@git.example/repo"),
        (f"https://api.example/v1beta?alt=json&key={PASSWORD}", "https://api.example/v1beta?alt=json&key=***"),
        (f"http://mlflow:{PASSWORD}@tracking.example:5000?token={PASSWORD}", "http://mlflow:***@tracking.example:5000?token=***"),
        (f"redis://u:pass word {PASSWORD}@h:1/0", "redis://u:***@h:1/0"),  # unencoded characters too
        ("sqlite:////runs/s/mlflow.db", "sqlite:////runs/s/mlflow.db"),
        ("http://127.0.0.1:8000/v1?alt=json", "http://127.0.0.1:8000/v1?alt=json"),
    ],
)
def test_mask_url(url, masked):
    assert mask_urls_in(url) == masked
    assert PASSWORD not in mask_urls_in(url)
    assert is_masked(masked) == (masked != url)


def test_urls_inside_text_and_structures_are_masked():
    text = f"cannot reach redis://forge:{PASSWORD}@h:6379/0 (tried https://x/v1?api_key={PASSWORD}), giving up"
    assert mask_urls_in_text(text) == "cannot reach redis://forge:***@h:6379/0 (tried https://x/v1?api_key=***), giving up"
    nested = {"calls": [{"error": text, "tokens": 3}], "note": ("plain", f"see http://a:{PASSWORD}@b")}
    assert PASSWORD not in json.dumps(mask_urls_in(nested))
    assert mask_urls_in(nested)["calls"][0]["tokens"] == 3


def credentialed_overrides(redis_url: str) -> list[str]:
    return [
        "memory.store=redis",
        f"memory.redis_url={redis_url}",
        f"rulebook.store=redis://forge:{PASSWORD}@rulebook.example:6379/1",
        "providers.remote.kind=openai",
        f"providers.remote.base_url=https://gateway:{PASSWORD}@llm.example/v1?key={PASSWORD}",
    ]


def test_config_yaml_is_masked_and_resume_asks_for_the_credentials_again(tmp_path):
    real_url = f"redis://forge:{PASSWORD}@db.example:6379/0"
    cfg = load_config(overrides=[f"run.runs_dir={tmp_path}", "run.name=masked", *credentialed_overrides(real_url)])
    run_dir = RunDirectory.create(cfg)
    saved = run_dir.config_path.read_text()
    assert PASSWORD not in saved
    assert "redis_url: redis://forge:***@db.example:6379/0" in saved
    assert masked_credentials(run_dir.load_config()) == ["memory.redis_url", "providers.remote.base_url", "rulebook.store"]
    with pytest.raises(ConfigError, match=r"memory\.redis_url, providers\.remote\.base_url, rulebook\.store held credentials"):
        run_dir.live_config()
    resumed = run_dir.live_config([
        f"memory.redis_url={real_url}",
        f"rulebook.store=redis://forge:{PASSWORD}@rulebook.example:6379/1",
        f"providers.remote.base_url=https://gateway:{PASSWORD}@llm.example/v1?key={PASSWORD}",
    ])
    assert resumed.memory.redis_url == real_url
    # Everything but the credentials is what was saved, so the session's identity is unchanged.
    assert to_saved_yaml(resumed) == to_saved_yaml(cfg) and to_yaml(resumed) == to_yaml(cfg)


def test_a_config_without_credentials_saves_exactly_as_before():
    for files in ([], [ROOT / "configs" / "forge.yaml"], [ROOT / "configs" / "cluster.yaml"]):
        cfg = load_config(*files)
        assert to_saved_yaml(cfg) == to_yaml(cfg)
        assert masked_credentials(cfg) == []


def test_mlflow_params_and_tags_carry_no_credentials(tmp_path):
    from mlflow import MlflowClient

    from forge.runs.tracking import SessionTracker, default_tracking_uri

    tracking = f"http://mlflow:{PASSWORD}@tracking.example:5000"
    cfg = load_config(overrides=[f"tracking.tracking_uri={tracking}", *credentialed_overrides(f"redis://:{PASSWORD}@h/0")])
    uri = default_tracking_uri(tmp_path)
    tracker = SessionTracker(uri, "masking", tmp_path / "mlartifacts")
    ids = tracker.start("s", cfg, ["i0"], {"forge.endpoint": f"https://x/v1?key={PASSWORD}"})
    run = MlflowClient(uri).get_run(ids["parent"])
    assert run.data.params["tracking.tracking_uri"] == "http://mlflow:***@tracking.example:5000"
    assert run.data.params["memory.redis_url"] == "redis://:***@h/0"
    assert run.data.tags["forge.endpoint"] == "https://x/v1?key=***"
    everything = json.dumps([run.data.params, run.data.tags])
    assert PASSWORD not in everything
    assert not any(PASSWORD.encode() in p.read_bytes() for p in tmp_path.rglob("*") if p.is_file())


def test_run_directory_json_writers_mask_urls(tmp_path):
    cfg = load_config(overrides=[f"run.runs_dir={tmp_path}", "run.name=json"])
    run_dir = RunDirectory.create(cfg)
    path = run_dir.write_json("reports/x.json", {"error": f"redis://u:{PASSWORD}@h/0 refused", "n": 1})
    assert json.loads(path.read_text()) == {"error": "redis://u:***@h/0 refused", "n": 1}


@pytest.mark.long
@pytest.mark.slow
def test_a_session_on_password_protected_redis_leaves_the_password_nowhere(tmp_path, clean_redis_url, monkeypatch):
    """A whole (small) session: memory and ledger in Redis behind an ACL password, MLflow on, an unused
    provider whose base URL has credentials. Afterwards no file in the run directory and no MLflow
    param or tag holds the password; resuming needs the URL again and loses nothing."""
    import ray
    import redis
    from mlflow import MlflowClient

    from forge.runs.tracking import SessionTracker, default_tracking_uri
    from workers.driver import SessionDriver

    admin = redis.Redis.from_url(clean_redis_url)
    admin.execute_command("ACL", "SETUSER", "forge-masking", "on", f">{PASSWORD}", "~*", "&*", "+@all")
    host, port = admin.connection_pool.connection_kwargs["host"], admin.connection_pool.connection_kwargs["port"]
    real_url = f"redis://forge-masking:{PASSWORD}@{host}:{port}/0"
    overrides = [
        "protocol.num_instances=2", "protocol.num_stages=1", "protocol.max_attempts=1", "protocol.checkpoint_runs=1",
        "protocol.num_evaluation_runs=1", "env.max_steps=8", f"run.runs_dir={tmp_path}", "run.name=masked",
        *credentialed_overrides(real_url),
    ]
    cfg = load_config(ROOT / "configs" / "forge.yaml", overrides=overrides)
    run_dir = RunDirectory.create(cfg)
    uri = default_tracking_uri(run_dir.path.parent)  # the study's store, beside the run directories
    try:
        SessionDriver(cfg, run_dir, tracker=SessionTracker(uri, "masking", run_dir.path.parent / "mlartifacts")).run()
        with pytest.raises(ConfigError, match="memory.redis_url"):
            run_dir.live_config()
        again = run_dir.live_config([
            f"memory.redis_url={real_url}", f"rulebook.store=redis://forge:{PASSWORD}@rulebook.example:6379/1",
            f"providers.remote.base_url=https://gateway:{PASSWORD}@llm.example/v1?key={PASSWORD}",
        ])
        outcome = SessionDriver(again, run_dir, tracker=SessionTracker(uri, "masking", run_dir.path.parent / "mlartifacts")).run()
    finally:
        if ray.is_initialized():
            ray.shutdown()
    assert outcome.evaluation is not None  # the resumed session found its finished work in Redis
    files = [p for p in run_dir.path.rglob("*") if p.is_file()]
    assert any(p.parent.name == "traces" or "traces" in p.parts for p in files)
    leaks = [str(p.relative_to(run_dir.path)) for p in files if PASSWORD.encode() in p.read_bytes()]
    assert leaks == []
    client = MlflowClient(uri)
    runs = client.search_runs([client.get_experiment_by_name("masking").experiment_id])
    assert runs and all(PASSWORD not in json.dumps([r.data.params, r.data.tags]) for r in runs)
    parent = next(r for r in runs if "mlflow.parentRunId" not in r.data.tags)
    assert parent.data.params["memory.redis_url"] == f"redis://forge-masking:***@{host}:{port}/0"
