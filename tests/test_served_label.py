"""The surrogate served by `forge serve` says what it is on the wire, and a client of it labels its results
as surrogate results: CLI output, reports, plots, MLflow tags (over real HTTP, `forge serve` in its own process)."""

from __future__ import annotations

import json
import signal
import urllib.request

import pytest

from forge.config import load_config
from forge.llm.serve import ModelServer
from forge.llm.types import SURROGATE_OWNER
from forge.wiring import model_label, uses_surrogate, with_served_labels
from tests.run_cli import forge
from tests.test_llm_server import REPO, EchoProvider, start_forge_serve


def served(url: str) -> list[str]:
    return ["providers.served.kind=openai", f"providers.served.base_url={url}/v1", "models.default.provider=served"]


@pytest.fixture(scope="module")
def served_surrogate():
    """`forge serve` of the default configuration (the surrogate), in its own process: its root URL."""
    proc, url = start_forge_serve(["--port", "0"], {})
    yield url
    proc.send_signal(signal.SIGINT)
    proc.communicate(timeout=10)


def test_forge_serve_lists_the_surrogate_as_owned_by_the_surrogate(served_surrogate):
    listed = json.loads(urllib.request.urlopen(f"{served_surrogate}/v1/models", timeout=10).read())
    assert [(m["id"], m["owned_by"]) for m in listed["data"]] == [("forge-surrogate-1", SURROGATE_OWNER)]


def test_a_command_against_the_served_surrogate_labels_its_output(served_surrogate, capsys):
    assert forge("episode", "--seed", "3", "env.max_steps=3", *served(served_surrogate)) == 0
    out = capsys.readouterr().out
    assert "SURROGATE: scripted stand-in, not an LLM" in " ".join(out.split())  # the table title, however wrapped


def test_only_an_endpoint_that_says_it_serves_the_surrogate_is_labelled_so(served_surrogate):
    cfg = with_served_labels(load_config(overrides=served(served_surrogate)))
    assert cfg.providers["served"].serves_surrogate and uses_surrogate(cfg)
    assert "[SURROGATE" in model_label(cfg)
    with ModelServer(EchoProvider(), models=["echo-1"]) as plain:  # a model that is not the surrogate
        cfg = with_served_labels(load_config(overrides=[*served(plain.url), "models.default.model=echo-1"]))
    assert not cfg.providers["served"].serves_surrogate and not uses_surrogate(cfg)
    assert model_label(cfg) == "echo-1"
    # Nothing answers there now: the configuration is left as it was, without waiting.
    assert not with_served_labels(cfg).providers["served"].serves_surrogate


@pytest.mark.slow
def test_a_session_against_the_served_surrogate_is_labelled_surrogate_everywhere(served_surrogate, ray_address,
                                                                                 tmp_path, capsys):
    from mlflow import MlflowClient
    from PIL import Image

    from forge.analysis.reporting import SURROGATE_BANNER
    from forge.runs.rundir import RunDirectory
    from forge.runs.tracking import default_tracking_uri, session_runs

    tiny = ["protocol.num_instances=2", "protocol.num_stages=1", "protocol.max_attempts=1", "protocol.checkpoint_runs=1",
            "protocol.num_evaluation_runs=1", "env.max_steps=5", "ray.instances_per_worker=2"]
    assert forge("run", str(REPO / "configs" / "forge.yaml"), *tiny, *served(served_surrogate),
                 f"run.runs_dir={tmp_path}", "run.name=served", "run.study=served") == 0
    out = " ".join(capsys.readouterr().out.split())
    assert "forge-surrogate-1 [SURROGATE: scripted stand-in, not an LLM]" in out  # the session's tables
    run = RunDirectory.open(tmp_path / "served")
    assert run.load_config().providers["served"].serves_surrogate  # kept with the run: resume and reports read it
    summary = json.loads((run.reports / "summary.json").read_text())
    assert summary["surrogate"] is True and summary["caveat"] == SURROGATE_BANNER
    assert SURROGATE_BANNER in (run.reports / "evaluation.md").read_text()
    assert Image.open(run.reports / "stage_curves.png").info.get("Description") == SURROGATE_BANNER
    parent, _ = session_runs(MlflowClient(default_tracking_uri(tmp_path)), "served", run.session_id)
    assert parent.data.tags["forge.surrogate"] == "true" and "SURROGATE" in parent.data.tags["forge.model"]
