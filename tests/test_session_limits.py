"""One rate limit per endpoint and one budget per session, shared by every worker (forge.llm.limiter).

The gate's decisions are tested as plain functions; then real Ray workers against a real `forge serve`
HTTP server (peak in-flight as the server counts it, a Retry-After one worker sees slowing the others),
and real sessions stopped by their budget and resumed, ending as an unbudgeted session does.
"""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

from forge.config import load_config, to_yaml
from forge.llm.limiter import (
    BudgetLimits, EndpointGate, EndpointLimits, Spent, budget_figures, describe_budget, endpoint_key,
)
from forge.memory import EMPTY_DIGEST
from forge.rundir import RunDirectory
from tests.made_once import made_once

ROOT = Path(__file__).resolve().parents[1]


# -- the gate's decisions ------------------------------------------------------------------------------

def test_gate_caps_concurrency_per_endpoint_not_per_caller():
    gate = EndpointGate()
    cap = EndpointLimits(max_concurrency=2)
    a, b = endpoint_key("openai", "http://127.0.0.1:9/v1"), endpoint_key("openai", "http://127.0.0.1:10/v1")
    assert gate.try_acquire(a, cap, 0.0).granted and gate.try_acquire(a, cap, 0.0).granted
    third = gate.try_acquire(a, cap, 0.0)
    assert not third.granted and third.wait_s is None  # wait for a release, not for a time
    assert gate.try_acquire(b, cap, 0.0).granted  # another endpoint has its own slots
    gate.release(a, 10, 5, 0.001)
    assert gate.try_acquire(a, cap, 0.0).granted
    assert gate.peak_in_flight[a] == 2 and gate.spent == Spent(10, 5, 0.001, 1)


def test_endpoint_key_names_kind_and_url_never_credentials():
    key = endpoint_key("openai", "https://user:hunter2secret@llm.example/v1")
    assert "hunter2secret" not in key and key.startswith("openai:https://") and "llm.example" in key


def test_gate_requests_per_minute_waits_for_the_oldest_start_to_age_out():
    gate = EndpointGate()
    rpm = EndpointLimits(max_concurrency=10, requests_per_minute=2)
    assert gate.try_acquire("e", rpm, 100.0).granted and gate.try_acquire("e", rpm, 130.0).granted
    refused = gate.try_acquire("e", rpm, 140.0)
    assert not refused.granted and refused.wait_s == pytest.approx(20.0)
    assert gate.try_acquire("e", rpm, 160.5).granted  # the start at 100 s has left the window


def test_gate_retry_after_holds_every_caller_of_the_endpoint():
    gate = EndpointGate()
    cap = EndpointLimits(max_concurrency=5)
    gate.hold("e", 3.0, now=10.0)
    gate.hold("e", 1.0, now=10.5)  # a shorter hold never shortens a longer one
    refused = gate.try_acquire("e", cap, 11.0)
    assert not refused.granted and refused.wait_s == pytest.approx(2.0)
    assert gate.try_acquire("other", cap, 11.0).granted
    assert gate.try_acquire("e", cap, 13.0).granted


def test_gate_refuses_every_new_call_once_a_budget_is_reached():
    gate = EndpointGate(BudgetLimits(max_usd=0.01), Spent(usd=0.004))
    cap = EndpointLimits(max_concurrency=4)
    assert gate.try_acquire("e", cap, 0.0).granted and gate.try_acquire("e", cap, 0.0).granted
    gate.release("e", 1000, 200, 0.007)  # one call takes the total over the limit
    refused = gate.try_acquire("e", cap, 0.0)
    assert not refused.granted and refused.exhausted["reached"] == ["max_usd"]
    gate.release("e", 1000, 200, 0.007)  # a call in flight when the limit was reached still counts
    figures = budget_figures(gate.budget, gate.spent)
    assert figures["spent"]["usd"] == pytest.approx(0.018) and figures["spent"]["prompt_tokens"] == 2000
    assert "USD 0.0180/0.01" in describe_budget(figures) and "budget.max_usd" in describe_budget(figures)
    gate.budget = BudgetLimits(max_usd=1.0)  # raised, as a resume with budget.max_usd=1 does
    assert gate.try_acquire("e", cap, 0.0).granted


def test_budget_config_rejects_negative_limits():
    from forge.config import ConfigError

    with pytest.raises(ConfigError, match="budget.max_usd"):
        load_config(overrides=["budget.max_usd=-1"])
    with pytest.raises(ConfigError, match="providers.surrogate.requests_per_minute"):
        load_config(overrides=["providers.surrogate.requests_per_minute=0"])


# -- real workers, a real server -----------------------------------------------------------------------

@pytest.fixture(scope="module")
def ray_local():
    import ray

    if not ray.is_initialized():
        ray.init(num_cpus=2, include_dashboard=False, logging_level="WARNING")
    yield ray
    ray.shutdown()


class SlowEcho:
    """An in-process model for the server: answers after `delay_s`, counting its words as tokens."""

    name = "slow-echo"

    def __init__(self, delay_s: float):
        self.delay_s = delay_s

    def complete(self, messages, *, model, temperature=0.0, max_tokens=512, seed=None, stop=None):
        from forge.llm.types import Completion, Usage

        time.sleep(self.delay_s)
        return Completion(text="ok", usage=Usage(len(messages[-1].content.split()), 1), model=model)


def served_config(base_url: str, cap: int, *extra: str) -> str:
    cfg = load_config(overrides=[
        "providers.served.kind=openai", f"providers.served.base_url={base_url}", f"providers.served.max_concurrency={cap}",
        "providers.served.backoff_initial_s=0.01", "models.default.provider=served", "models.default.model=echo-1", *extra,
    ])
    return to_yaml(cfg)


def caller_class(ray):
    @ray.remote(num_cpus=0.1)
    class Caller:
        """What an instance worker does with its models: install the session limiter, build the provider."""

        def __init__(self, session: str, config_yaml: str):
            from forge.config import from_yaml
            from forge.llm.limiter import install_session_limiter
            from forge.llm.registry import build_provider

            self.installed = install_session_limiter(session)
            self.provider = build_provider("served", from_yaml(config_yaml))

        def ready(self) -> bool:
            return self.installed

        def pid(self) -> int:
            import os

            return os.getpid()

        def call(self, n: int) -> int:
            from forge.llm.types import Message

            for k in range(n):
                self.provider.complete([Message("user", f"call {k} of this worker")], model="echo-1")
            return n

    return Caller


def settled_figures(ray, limiter, calls: int) -> dict:
    """The limiter's figures once `calls` releases arrived (a release is sent without waiting for it)."""
    deadline = time.monotonic() + 10
    figures = ray.get(limiter.figures.remote())
    while figures["spent"]["calls"] < calls and time.monotonic() < deadline:
        time.sleep(0.05)
        figures = ray.get(limiter.figures.remote())
    return figures


@pytest.mark.slow
def test_ten_workers_never_put_more_than_the_cap_in_flight(ray_local):
    from forge.llm.limiter import start_session_limiter
    from forge.llm.serve import ModelServer

    ray = ray_local
    with ModelServer(SlowEcho(0.15), models=["echo-1"]) as server:
        limiter = start_session_limiter("cap-test", BudgetLimits())
        config_yaml = served_config(server.openai_base_url, cap=3)
        Caller = caller_class(ray)
        callers = [Caller.remote("cap-test", config_yaml) for _ in range(10)]
        assert all(ray.get([c.ready.remote() for c in callers]))
        server.stats.reset()
        assert sum(ray.get([c.call.remote(4) for c in callers])) == 40
        figures = settled_figures(ray, limiter, calls=40)
        ray.kill(limiter)
        for c in callers:
            ray.kill(c)
    # Each worker process alone would allow 3: without the session limiter ten of them put up to 10 in flight.
    assert server.stats.requests == 40
    assert server.stats.max_in_flight == 3
    assert figures["spent"]["calls"] == 40 and figures["spent"]["prompt_tokens"] == 40 * 5
    assert max(figures["peak_in_flight"].values()) == 3


@pytest.mark.slow
def test_a_retry_after_seen_by_one_worker_holds_back_the_others(ray_local):
    from forge.llm.limiter import start_session_limiter
    from forge.llm.serve import ModelServer

    ray = ray_local
    with ModelServer(SlowEcho(0.0), models=["echo-1"]) as server:
        limiter = start_session_limiter("retry-after-test", BudgetLimits())
        config_yaml = served_config(server.openai_base_url, cap=8)
        Caller = caller_class(ray)
        first, other = Caller.remote("retry-after-test", config_yaml), Caller.remote("retry-after-test", config_yaml)
        assert all(ray.get([first.ready.remote(), other.ready.remote()]))
        server.stats.reset()
        server.faults.fail_next(1, 429, retry_after=2)
        pending = first.call.remote(1)
        deadline = time.monotonic() + 30
        while 429 not in list(server.stats.statuses) and time.monotonic() < deadline:
            time.sleep(0.01)
        assert 429 in server.stats.statuses
        # The server logs the 429 as it sends it; give the first worker a moment to read it and pass it on.
        time.sleep(0.3)
        ray.get(other.call.remote(1))  # a different worker that never saw the 429
        ray.get(pending)
        ray.kill(limiter)
        ray.kill(first)
        ray.kill(other)
    arrivals = list(server.stats.arrivals)
    assert len(arrivals) == 3 and server.stats.statuses.count(429) == 1
    # Both later requests (the retry and the other worker's first call) waited out the 2 s.
    assert min(arrivals[1:]) - arrivals[0] >= 1.9


@pytest.mark.slow
def test_workers_sigkilled_mid_call_leak_no_slot_and_their_calls_are_charged(ray_local):
    """Today's main: the two killed calls' slots are never released, and the third call waits for ever."""
    import os
    import signal

    from forge.llm.limiter import start_session_limiter
    from forge.llm.serve import ModelServer

    ray = ray_local
    with ModelServer(SlowEcho(4.0), models=["echo-1"]) as server:
        limiter = start_session_limiter("lease-test", BudgetLimits(), lease_s=1.5)
        config_yaml = served_config(server.openai_base_url, 2, "providers.served.slot_wait_s=20",
                                    "providers.served.price_in_per_mtok=1")
        Caller = caller_class(ray)
        doomed = [Caller.remote("lease-test", config_yaml) for _ in range(2)]
        survivor = Caller.remote("lease-test", config_yaml)
        assert all(ray.get([c.ready.remote() for c in [*doomed, survivor]]))
        pids = ray.get([c.pid.remote() for c in doomed])
        calls = [c.call.remote(1) for c in doomed]
        deadline = time.monotonic() + 20
        while server.stats.requests < 2 and time.monotonic() < deadline:
            time.sleep(0.02)
        for pid in pids:
            os.kill(pid, signal.SIGKILL)  # both slots are held by calls in flight
        started = time.monotonic()
        assert ray.get(survivor.call.remote(1), timeout=30) == 1
        waited = time.monotonic() - started
        figures = settled_figures(ray, limiter, calls=3)
        for c in [*calls]:
            with pytest.raises(ray.exceptions.RayActorError):
                ray.get(c)
        ray.kill(limiter)
        ray.kill(survivor)
    # The lease runs out within 1.5 s of the last renewal; then the survivor's call takes 4 s.
    assert waited < 1.5 + 4.0 + 2.0
    assert figures["reclaimed"] and sum(figures["reclaimed"].values()) == 2
    assert figures["spent"]["failed_calls"] == 2 and figures["spent"]["failed_prompt_tokens"] > 0
    assert max(figures["peak_in_flight"].values()) == 2


@pytest.mark.slow
def test_a_killed_limiter_restarts_from_the_ledger_and_keeps_the_cap(ray_local, tmp_path):
    """Today's main: the restarted limiter starts from its constructor's figures (zero here)."""
    from forge.llm.limiter import limiter_name, start_session_limiter
    from forge.llm.serve import ModelServer
    from forge.protocol.ledger import SessionLedger
    from workers.spending import LedgerSpending

    ray = ray_local
    with ModelServer(SlowEcho(0.2), models=["echo-1"]) as server:
        limiter = start_session_limiter("restart-test", BudgetLimits(max_prompt_tokens=10**6),
                                        LedgerSpending(str(tmp_path), "restart-test"), lease_s=1.5)
        config_yaml = served_config(server.openai_base_url, 2)
        Caller = caller_class(ray)
        callers = [Caller.remote("restart-test", config_yaml) for _ in range(4)]
        assert all(ray.get([c.ready.remote() for c in callers]))
        server.stats.reset()
        pending = [c.call.remote(6) for c in callers]
        time.sleep(1.0)
        before = ray.get(limiter.figures.remote())["spent"]["prompt_tokens"]
        ray.kill(ray.get_actor(limiter_name("restart-test")), no_restart=False)
        assert sum(ray.get(pending, timeout=60)) == 24
        figures = settled_figures(ray, limiter, calls=24)
        ray.kill(limiter)
        for c in callers:
            ray.kill(c)
    kept = SessionLedger.open(str(tmp_path), "restart-test").spending()
    assert before > 0 and figures["spent"]["prompt_tokens"] >= before
    assert kept["calls"] >= 24 and kept["prompt_tokens"] >= 24 * 5  # nothing lost (a redelivered release may count twice)
    assert server.stats.requests == 24 and server.stats.max_in_flight <= 2


# -- sessions stopped by their budget and resumed --------------------------------------------------------

SMALL = [
    "protocol.num_instances=2", "protocol.num_stages=2", "protocol.max_attempts=2", "protocol.checkpoint_runs=1",
    "protocol.num_evaluation_runs=1", "env.max_steps=10", "tracking.enabled=false", "protocol.theta=-3.0",
    "providers.surrogate.price_in_per_mtok=3", "providers.surrogate.price_out_per_mtok=15",
]


def session_config(runs: Path, name: str, *extra: str):
    return load_config(ROOT / "configs" / "forge.yaml", overrides=[*SMALL, f"run.runs_dir={runs}", f"run.name={name}", *extra])


def kept(run_dir: RunDirectory) -> dict:
    """What a session keeps: its stage decisions, every instance's final memory, its evaluation returns."""
    from forge.memory import MemoryManager, open_store
    from forge.protocol.ledger import SessionLedger

    ledger = SessionLedger.open(str(run_dir.path), run_dir.session_id)
    with open_store(str(run_dir.path), "forge") as store:
        manager = MemoryManager(store)
        heads = {key.rsplit("/", 1)[1]: manager.snapshot(key).digest for key in manager.instances()}
    evaluation = ledger.evaluation()
    return {
        "status": ledger.status(), "meta": ledger.meta(), "heads": heads,
        "stages": [(r.stage, r.checkpoint, r.graduated, r.champion, {i: m["digest"] for i, m in r.memory.items()})
                   for r in ledger.stages()],
        "returns": evaluation.returns if evaluation else None,
        "tokens": [r.tokens for r in ledger.stages()],
    }


@pytest.fixture(scope="module")
def reference(tmp_path_factory, ray_local):
    """The session without a limit (made once per test run; the tests only read it)."""
    from workers.driver import SessionDriver

    def make(runs: Path) -> None:
        cfg = session_config(runs, "s")
        SessionDriver(cfg, RunDirectory.create(cfg)).run()

    return kept(RunDirectory.open(made_once(tmp_path_factory, "session-limits-reference", make) / "s"))


def _stop_then_resume(tmp_path, limit: str, raised: str, tracking: bool = False):
    """A session under `limit` that stops, then `forge resume RUN_DIR raised` (in this process)."""
    from forge.cli import main
    from workers.driver import SessionDriver

    if tracking:  # through the CLI: `forge run` exits 3 on a budget stop
        extra = [limit, "tracking.enabled=true", "run.study=budget"]
        assert main(["run", str(ROOT / "configs" / "forge.yaml"), *SMALL, f"run.runs_dir={tmp_path}", "run.name=t", *extra]) == 3
        outcome, run_dir = None, RunDirectory.open(tmp_path / "t")
        summary = json.loads((run_dir.reports / "summary.json").read_text())
        assert summary["status"] == "budget_exhausted" and summary["meta"]["budget"]["reached"]
    else:
        cfg = session_config(tmp_path, "s", limit)
        run_dir = RunDirectory.create(cfg)
        outcome = SessionDriver(cfg, run_dir).run()
    stopped = kept(run_dir)
    assert main(["resume", str(run_dir.path), raised]) == 0
    # The raised budget is kept in config.yaml: a later plain `forge resume` does not stop on the old one.
    key, value = raised.removeprefix("budget.").split("=")
    assert str(getattr(run_dir.load_config().budget, key)) in (value, f"{float(value)}")
    return outcome, stopped, kept(run_dir), run_dir


@pytest.mark.slow
def test_a_token_budget_stops_the_session_cleanly_and_a_resume_ends_as_without_it(tmp_path, reference):
    stage1 = sum(u["prompt"] for per_role in reference["tokens"][0].values() for u in per_role.values())
    stage2 = sum(u["prompt"] for per_role in reference["tokens"][1].values() for u in per_role.values())
    limit = stage1 + stage2 // 3  # reached during stage 2
    outcome, stopped, resumed, _ = _stop_then_resume(
        tmp_path, f"budget.max_prompt_tokens={limit}", "budget.max_prompt_tokens=100000000")
    budget = stopped["meta"]["budget"]
    assert outcome.budget_exhausted == budget and stopped["status"] == "budget_exhausted"
    assert budget["reached"] == ["max_prompt_tokens"] and budget["stopped_in"]["stage"] == 2
    # Overshoot: only the calls in flight when the limit was reached (one per instance at most) go over it.
    assert limit <= budget["spent"]["prompt_tokens"] < limit + stage2 // 3
    # Stage 1 is kept whole; stage 2 never reached the ledger (no half-applied stage).
    assert stopped["stages"] == reference["stages"][:1] and stopped["returns"] is None
    # ...and the memory is what stage 1 left (the partial stage-2 training was rolled back at the stop).
    stage1_memory = {i: d for i, d in reference["stages"][0][4].items() if d != EMPTY_DIGEST}
    assert {i: d for i, d in stopped["heads"].items() if d != EMPTY_DIGEST} == stage1_memory
    # Resumed: stage 2 restarts from each instance's stage-1 memory and the session ends as the unbudgeted one.
    assert resumed["status"] == "finished"
    assert (resumed["stages"], resumed["heads"], resumed["returns"]) == \
        (reference["stages"], reference["heads"], reference["returns"])
    # The spending survives the stop: the resumed total includes the dropped partial stage.
    assert resumed["meta"]["spent"]["prompt_tokens"] > sum(
        u["prompt"] for tokens in reference["tokens"] for per_role in tokens.values() for u in per_role.values())


@pytest.mark.slow
def test_a_usd_budget_stops_the_session_and_forge_resume_with_a_higher_budget_continues(tmp_path, reference):
    from mlflow import MlflowClient

    from forge.tracking import default_tracking_uri, session_runs

    stage1 = reference["tokens"][0]
    usd1 = sum(u["prompt"] * 3 + u["completion"] * 15 for per_role in stage1.values() for u in per_role.values()) / 1e6
    limit = round(usd1 / 2, 6)  # reached during stage 1
    _, stopped, resumed, run_dir = _stop_then_resume(tmp_path, f"budget.max_usd={limit}", "budget.max_usd=1000",
                                                     tracking=True)
    budget = stopped["meta"]["budget"]
    assert stopped["status"] == "budget_exhausted" and budget["reached"] == ["max_usd"]
    assert budget["spent"]["usd"] >= limit and budget["stopped_in"]["stage"] == 1 and stopped["stages"] == []
    assert resumed["status"] == "finished"
    assert (resumed["stages"], resumed["heads"], resumed["returns"]) == \
        (reference["stages"], reference["heads"], reference["returns"])
    client = MlflowClient(default_tracking_uri(tmp_path))
    parent, children = session_runs(client, "budget", "t")
    assert parent.data.tags["forge.status"] == "finished" and parent.info.status == "FINISHED" and len(children) == 2
    assert client.get_metric_history(parent.info.run_id, "spent_usd")[0].value >= limit
    costs = [m.value for m in client.get_metric_history(parent.info.run_id, "cost_usd")]
    assert len(costs) == 2 and all(c > 0 for c in costs)
    # `forge compare` reads the finished session back from the study's store alone.
    from forge.cli import main

    assert main(["compare", "--mlflow", default_tracking_uri(tmp_path), "--study", "budget", "--out", str(tmp_path / "cmp")]) == 0
    compared = json.loads((tmp_path / "cmp" / "comparison.json").read_text())
    means = [sum(r) / len(r) for r in reference["returns"].values()]
    assert [c["session"] for c in compared["conditions"]] == ["t"]
    assert compared["conditions"][0]["estimate"]["mean"] == pytest.approx(sum(means) / len(means))
    assert main(["compare", "--mlflow", default_tracking_uri(tmp_path), "--study", "no-such-study"]) == 2


# -- MLflow from the driver only ------------------------------------------------------------------------

def test_a_worker_never_loads_mlflow(tmp_path):
    """A worker's whole unit of work (training and play) runs without MLflow ever being imported."""
    import subprocess
    import sys

    script = f"""
import sys
from forge.config import load_config, to_yaml
from forge.rundir import RunDirectory
from workers.instance_actor import InstanceWorker

cfg = load_config(overrides=["env.max_steps=4", "protocol.max_attempts=1", "run.runs_dir={tmp_path}", "run.name=w"])
run_dir = RunDirectory.create(cfg)
worker = InstanceWorker("i00", "w", to_yaml(cfg), str(run_dir.path))
worker.train_stage(1, 7)
worker.play([3], "evaluation")
print("loaded:", sorted(m for m in sys.modules if m.split(".")[0] == "mlflow" or m == "forge.tracking"))
"""
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300,
                          cwd=ROOT, env={**__import__("os").environ, "PYTHONPATH": str(ROOT)})
    assert done.returncode == 0, done.stderr[-2000:]
    assert "loaded: []" in done.stdout


# -- leases: named holders, expiry, reclaim, bounded waits -------------------------------------------------

def _lease(i: str, holder: str, expires: float, prompt: int = 100) -> "Lease":
    from forge.llm.limiter import Lease

    return Lease(i, "e", holder, expires, prompt, prompt * 3e-6)


def test_an_unrenewed_lease_expires_its_slot_comes_back_and_its_call_is_charged_as_failed():
    gate = EndpointGate()
    cap = EndpointLimits(max_concurrency=1)
    assert gate.try_acquire("e", cap, 0.0, _lease("a", "pid 7 on h: i00 training:1", expires=30.0)).granted
    refused = gate.try_acquire("e", cap, 10.0, _lease("b", "pid 8 on h: i01 training:1", expires=40.0))
    assert not refused.granted and refused.wait_s == pytest.approx(20.0)  # look again when the lease runs out
    gate.renew(["a"], [_lease("a", "pid 7 on h: i00 training:1", 0.0)], now=25.0, lease_s=30.0)
    assert not gate.try_acquire("e", cap, 40.0, _lease("b", "pid 8 on h: i01 training:1", 70.0)).granted
    assert gate.try_acquire("e", cap, 55.1, _lease("b", "pid 8 on h: i01 training:1", 85.0)).granted  # a's expired
    assert gate.spent.failed_calls == 1 and gate.spent.failed_prompt_tokens == 100
    assert gate.reclaimed_counts() == {"e": 1} and gate.peak_in_flight["e"] == 1
    # The holder lived after all and reports its call: only the rest is charged, and no slot is freed twice.
    gate.release("e", 150, 20, 150 * 3e-6, lease_id="a")
    assert gate.spent.prompt_tokens == 150 and gate.spent.completion_tokens == 20 and gate.spent.calls == 1
    assert not gate.try_acquire("e", cap, 56.0, _lease("c", "pid 9 on h: i02 training:1", 86.0)).granted


def test_the_driver_reclaims_every_slot_of_a_dead_worker_by_its_process():
    from forge.llm.limiter import holder_prefix

    gate = EndpointGate()
    cap = EndpointLimits(max_concurrency=3)
    for i, holder in enumerate(["pid 41 on h: i00 training:1", "pid 41 on h: i01 training:1", "pid 5 on h: i02 training:1"]):
        assert gate.try_acquire("e", cap, 0.0, _lease(str(i), holder, 30.0)).granted
    assert [lease.holder for lease in gate.reclaim_holder(holder_prefix(41))] == [
        "pid 41 on h: i00 training:1", "pid 41 on h: i01 training:1"]
    assert gate.describe_holders("e") == "1 slot(s) held by: pid 5 on h: i02 training:1"
    assert gate.spent.failed_calls == 2 and gate.spent.failed_prompt_tokens == 200


def test_a_restarted_limiter_adopts_the_leases_still_in_flight_so_the_cap_holds():
    gate = EndpointGate()  # a fresh gate, as a restarted limiter has
    cap = EndpointLimits(max_concurrency=2)
    adopted = gate.renew(["a", "b"], [_lease("a", "pid 1 x", 0.0), _lease("b", "pid 2 x", 0.0)], now=0.0, lease_s=30.0)
    assert adopted == 2 and not gate.try_acquire("e", cap, 1.0, _lease("c", "pid 3 x", 31.0)).granted
    gate.release("e", 10, 1, 0.0, lease_id="a")
    assert gate.try_acquire("e", cap, 2.0, _lease("c", "pid 3 x", 32.0)).granted


def test_a_wait_for_a_slot_is_bounded_and_names_the_endpoint_and_the_holders():
    import asyncio

    from forge.llm.limiter import KeptInMemory, SessionLimiter

    async def scenario():
        limiter = SessionLimiter({}, KeptInMemory(), lease_s=30.0, restarted=False)
        first = await limiter.acquire("openai:http://127.0.0.1:9/v1", 1, None, 5.0, "a", "pid 7 on h: i00 training:1", 10, 0.0)
        started = time.monotonic()
        second = await limiter.acquire("openai:http://127.0.0.1:9/v1", 1, None, 0.3, "b", "pid 8 on h: i01 training:1", 10, 0.0)
        return first, second, time.monotonic() - started

    first, second, waited = asyncio.run(scenario())
    assert first == {"granted": True} and 0.29 <= waited < 2.0
    message = second["timeout"]
    assert "openai:http://127.0.0.1:9/v1" in message and "slot_wait_s=0.3" in message
    assert "1 slot(s) held by: pid 7 on h: i00 training:1" in message


# -- spending: committed as charged, never lowered, the overshoot bound ----------------------------------------

def test_spending_is_committed_as_charged_and_a_restarted_limiter_starts_from_the_ledger(tmp_path):
    import asyncio

    from forge.llm.limiter import SessionLimiter
    from forge.protocol.ledger import SessionLedger
    from workers.spending import LedgerSpending

    store = LedgerSpending(str(tmp_path), "s")

    async def charge(limiter, lease_id, failed=False):
        assert (await limiter.acquire("e", 2, None, 5.0, lease_id, "pid 1 x", 40, 0.0)) == {"granted": True}
        await limiter.release("e", 40, 0 if failed else 7, 0.001, lease_id, failed)

    first = SessionLimiter({"max_usd": 1.0}, store, restarted=False)
    asyncio.run(charge(first, "a"))
    asyncio.run(charge(first, "b", failed=True))
    # Ray rebuilds a dead limiter from its constructor arguments: the spending comes from the ledger.
    import pickle

    again = SessionLimiter({"max_usd": 1.0}, pickle.loads(pickle.dumps(store)), restarted=False)
    assert again.gate.spent == first.gate.spent
    assert again.gate.spent.calls == 2 and again.gate.spent.failed_calls == 1 and again.gate.spent.failed_prompt_tokens == 40
    ledger = SessionLedger.open(str(tmp_path), "s")
    # A stale writer (a limiter that lost its figures) cannot lower what is kept.
    kept = ledger.commit_spending({"prompt_tokens": 1, "completion_tokens": 0, "usd": 0.0, "calls": 0})
    assert kept["prompt_tokens"] == 80 and kept["calls"] == 2 and kept["usd"] == pytest.approx(0.002)


def test_calls_in_flight_when_the_session_died_are_charged_by_the_next_limiter(tmp_path):
    """A driver (and with it the limiter and every worker) killed mid-call: the next limiter finds the open
    leases in the ledger and charges each at its prompt estimate; a call that lived is charged only the rest."""
    import asyncio

    from forge.llm.limiter import SessionLimiter
    from workers.spending import LedgerSpending

    async def open_two(limiter):
        for lease_id in ("a", "b"):
            assert (await limiter.acquire("e", 4, None, 5.0, lease_id, "pid 3 x", 250, 0.5)) == {"granted": True}

    dead = SessionLimiter({}, LedgerSpending(str(tmp_path), "s"), restarted=False)
    asyncio.run(open_two(dead))
    assert dead.gate.spent.calls == 0
    fresh = SessionLimiter({}, LedgerSpending(str(tmp_path), "s"), restarted=False)
    assert fresh.orphans_charged == 2
    assert fresh.gate.spent.failed_calls == 2 and fresh.gate.spent.prompt_tokens == 500 and fresh.gate.spent.usd == 1.0
    asyncio.run(fresh.release("e", 300, 40, 0.6, "a"))  # "a" lived after all: only the rest is added
    assert fresh.gate.spent.prompt_tokens == 550 and fresh.gate.spent.completion_tokens == 40
    assert fresh.gate.spent.calls == 2 and fresh.gate.spent.usd == pytest.approx(1.1)
    assert LedgerSpending(str(tmp_path), "s").load() == (fresh.gate.spent, {})


def test_failed_attempts_are_shown_apart_in_the_budget_text():
    gate = EndpointGate(BudgetLimits(max_prompt_tokens=1000))
    cap = EndpointLimits(max_concurrency=2)
    gate.try_acquire("e", cap, 0.0)
    gate.release("e", 300, 0, 0.0009, failed=True)
    text = describe_budget(budget_figures(gate.budget, gate.spent))
    assert "prompt tokens 300/1000" in text and "of which failed attempts: 1 calls, 300 prompt tokens" in text


@pytest.mark.parametrize("seed", range(20))
def test_the_overshoot_bound_holds_under_deaths_failures_and_a_limiter_restart(seed, tmp_path):
    """README's bound: spending known to FORGE <= limit + max_concurrency x the largest cost of one call, with
    workers dying mid-call (reclaimed at their prompt), failed attempts, and the limiter restarted from the ledger."""
    import random

    from forge.llm.limiter import KeptInMemory, Lease

    rng = random.Random(seed)
    cap, limit, max_prompt, max_completion = 3, 20_000, 800, 300
    store = KeptInMemory()
    gate = EndpointGate(BudgetLimits(max_prompt_tokens=limit), store.load()[0])
    limits = EndpointLimits(max_concurrency=cap)
    live: dict[str, Lease] = {}
    now, n, refused = 0.0, 0, False
    while not (refused and not live):
        now += rng.uniform(0.1, 2.0)
        event = rng.random()
        if event < 0.5 and not refused:
            n += 1
            lease = Lease(str(n), "e", f"pid {rng.randrange(4)} x", now + 30, rng.randint(1, max_prompt))
            decision = gate.try_acquire("e", limits, now, lease)
            refused = decision.exhausted is not None
            if decision.granted:
                live[lease.lease_id] = lease
        elif live and event < 0.85:
            lease = live.pop(rng.choice(sorted(live)))
            failed = rng.random() < 0.2
            gate.release("e", lease.prompt_estimate, 0 if failed else rng.randint(0, max_completion), 0.0,
                         lease_id=lease.lease_id, failed=failed)
        elif live and event < 0.92:
            gate.reclaim_holder(live[rng.choice(sorted(live))].holder)  # its worker died
            live = {i: lease for i, lease in live.items() if i in gate.leases}
        else:  # the limiter dies: a new gate from the store, adopting the leases still in flight
            store.commit(gate.spent)
            gate = EndpointGate(gate.budget, store.load()[0])
            gate.renew(list(live), list(live.values()), now, 30.0)
        store.commit(gate.spent)
        assert gate.leases.keys() <= live.keys() | set() and len(gate.leases) <= cap
    spent = store.load()[0]
    assert limit <= spent.prompt_tokens <= limit + cap * (max_prompt + max_completion)
