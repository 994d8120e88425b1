"""`forge providers check` and `forge run --preflight`: one request per role in the session's shape,
against `forge serve` emulating OpenAI and Gemini (the surrogate behind it, offline), and the estimate."""

from __future__ import annotations

import json

import pytest

from forge.config import SurrogateConfig, load_config
from forge.llm.prices import table_price
from forge.llm.serve import ModelServer
from forge.llm.surrogate import SurrogateProvider
from forge.llm.types import Usage
from forge.runs.preflight import ALL_ROLES, DryStep, check_roles, estimate_session, role_request, session_plan
from tests.run_cli import forge

MODELS = ["gpt-4o-mini", "gpt-5-mini", "gemini-2.5-flash", "gemini-2.5-pro"]


@pytest.fixture(scope="module")
def served():
    with ModelServer(SurrogateProvider("surrogate", SurrogateConfig()), models=MODELS) as srv:
        yield srv


def as_openai(srv: ModelServer) -> list[str]:
    return ["providers.fs.kind=openai", f"providers.fs.base_url={srv.openai_base_url}", "providers.fs.structured_output=json_schema",
            "models.default.provider=fs", "models.default.model=gpt-4o-mini",
            "models.reflector.provider=fs", "models.reflector.model=gpt-5-mini", "models.reflector.max_tokens=600",
            "protocol.num_instances=2", "protocol.num_stages=2", "env.max_steps=10"]


def as_gemini(srv: ModelServer) -> list[str]:
    return ["providers.g.kind=gemini", f"providers.g.base_url={srv.url}", "providers.g.structured_output=json_schema",
            "providers.g.thinking_budget=64", "models.default.provider=g", "models.default.model=gemini-2.5-flash",
            "models.default.max_tokens=400", "protocol.num_instances=2", "protocol.num_stages=2", "env.max_steps=10"]


def check_json(capsys, *args: str) -> tuple[int, dict]:
    code = forge("providers", "check", "--json", *args)
    out = capsys.readouterr().out
    return code, json.loads(out[out.index("{"):]) if "{" in out else {}


def test_every_role_is_accepted_by_forge_serve_as_openai_with_tokens_and_cost(served, capsys):
    code, result = check_json(capsys, *as_openai(served))
    assert code == 0
    rows = {r["role"]: r for r in result["roles"]}
    assert set(rows) == set(ALL_ROLES) and all(r["accepted"] for r in rows.values())
    assert rows["planner"]["schema"] == "json_schema strict" and rows["compiler"]["schema"] == "json_schema strict"
    reflector = rows["reflector"]["tokens"]
    assert reflector["reasoning"] == 128 and reflector["completion"] > 128  # a reasoning model: medium effort
    price = table_price("openai", "gpt-4o-mini")
    planner = rows["planner"]
    expected = price.cost_usd(Usage(planner["tokens"]["prompt"], planner["tokens"]["completion"]))
    assert planner["cost_usd"] == pytest.approx(expected, abs=1e-8) and planner["price_source"] == "table"
    low, high = result["estimate"]["usd"]
    assert 0 < low < high


def test_gemini_roles_report_their_thinking(served, capsys):
    code, result = check_json(capsys, *as_gemini(served), "--role", "planner", "--role", "reflector")
    assert code == 0 and [r["role"] for r in result["roles"]] == ["planner", "reflector"]
    assert all(r["tokens"]["reasoning"] == 64 and r["accepted"] for r in result["roles"])


def test_a_refused_role_is_named_with_the_apis_message_and_the_check_fails(served, capsys):
    code = forge("providers", "check", "--no-estimate", *as_openai(served), "models.analyst.provider=fs",
                 "models.analyst.model=gpt-4-unserved")
    captured = capsys.readouterr()
    assert code == 2
    assert "1 of 6 roles refused; analyst (fs, gpt-4-unserved)" in captured.err
    assert "model 'gpt-4-unserved' is not served here" in captured.err  # the API's own message (HTTP 404)
    code = forge("providers", "check", "--no-estimate", *as_gemini(served), "models.analyst.provider=g",
                 "models.analyst.model=gemini-2.5-pro", "providers.g.thinking_budget=0")
    assert code == 2 and "only works in thinking mode" in capsys.readouterr().err  # not sent: the API would refuse it


def test_forge_run_preflight_stops_on_a_refusal_before_anything_is_created(served, tmp_path, capsys):
    runs = tmp_path / "runs"
    code = forge("run", "--preflight", *as_openai(served), f"run.runs_dir={runs}", "models.planner.provider=fs",
                 "models.planner.model=o3-unserved")
    assert code == 2 and "planner (fs, o3-unserved)" in capsys.readouterr().err
    assert not runs.exists()


def test_the_request_is_the_sessions_shape():
    cfg = load_config(overrides=["providers.surrogate.structured_output=json_schema", "protocol.agents_to_improve=[planner]"])
    planner, reflector = role_request(cfg, "planner"), role_request(cfg, "reflector")
    assert planner.stop == ("\nResult of", "\nObservation:") and planner.max_tokens == 512
    assert set(reflector.schema["properties"]) == {"planner"}
    assert "JSON" in planner.messages[0].content  # JSON mode endpoints need the word


def test_the_session_plan_and_estimate_are_intervals_that_follow_the_config():
    cfg = load_config(overrides=["protocol.num_instances=2", "protocol.num_stages=3", "protocol.max_attempts=2",
                                 "protocol.checkpoint_runs=1", "protocol.num_evaluation_runs=5", "env.max_steps=10"])
    (low, high), (learn_low, learn_high) = session_plan(cfg)
    assert low == 2 * 5 * 10 + 2 * 1 * 1 * 10 + 2 * 1 and high == 2 * 5 * 10 + 2 * 3 * 1 * 10 + 2 * 3 * 2 * 10
    assert (learn_low, learn_high) == (0, 12)
    zero = load_config(overrides=["protocol.condition=zero_shot", "protocol.num_instances=2", "env.max_steps=10"])
    assert session_plan(zero) == ((2 * 5 * 10,) * 2, (0.0, 0.0))
    priced = load_config(overrides=["providers.surrogate.price_in_per_mtok=1", "providers.surrogate.price_out_per_mtok=10",
                                    "protocol.num_instances=2", "protocol.num_stages=3", "env.max_steps=10"])
    dry = DryStep({"planner": 2.0, "action_chooser": 1.0, "reflector": 1.0},
                  {"planner": (300.0, 300.0), "action_chooser": (200.0, 200.0), "reflector": (500.0, 900.0)}, 1)
    estimate = estimate_session(priced, dry, check_roles(priced, ALL_ROLES))
    low_usd, high_usd = estimate.usd
    assert 0 < low_usd < high_usd
    planner = next(r for r in estimate.roles if r.role == "planner")
    assert planner.calls[0] == 2.0 * estimate.steps[0] and planner.completion_tokens[1] == 512
    assert planner.usd[0] == pytest.approx(planner.calls[0] * (300 * 1 + planner.completion_tokens[0] * 10) / 1e6, rel=0.01)
