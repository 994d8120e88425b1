"""One rate limit per endpoint and one budget per session, shared by every worker (forge.llm.limiter).

The gate's decisions are tested as plain functions; then real Ray workers against a real `forge serve`
HTTP server (peak in-flight as the server counts it, a Retry-After one worker sees slowing the others),
and real sessions stopped by their budget and resumed, ending as an unbudgeted session does.
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

import pytest

from forge.config import load_config, to_yaml
from forge.llm.limiter import (
    BudgetLimits, EndpointGate, EndpointLimits, Lease, Spent, budget_figures, describe_budget, endpoint_key,
)
from forge.memory import EMPTY_DIGEST
from forge.runs.rundir import RunDirectory
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


def wait_until(happened, what: str, timeout_s: float = 30.0) -> None:
    """Waits for an event (`happened()` turns true), never for a fixed time; fails naming it."""
    deadline = time.monotonic() + timeout_s
    while not happened():
        assert time.monotonic() < deadline, f"waited {timeout_s:g} s for {what}"
        time.sleep(0.01)


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
        # The first worker read the 429 and passed its Retry-After on: the limiter holds the endpoint back.
        wait_until(lambda: ray.get(limiter.figures.remote())["held_back"], "the limiter to hold the endpoint back")
        assert server.stats.statuses.count(429) == 1
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


# FORGE_LIMITER_RESTART_RUNS=20 runs it 20 times against the module's one Ray (after the module's other Ray
# tests, as one Ray shared across tests exposed it): the acceptance figure of issue 31.
@pytest.mark.slow
@pytest.mark.parametrize("run", range(int(os.environ.get("FORGE_LIMITER_RESTART_RUNS", "1"))))
def test_a_killed_limiter_restarts_from_the_ledger_and_keeps_the_cap(ray_local, tmp_path, run):
    """Today's main: the rebuilt limiter took the slots of the calls in flight for free after a fixed wait (0.75 s
    here) and adopted their renewals on top of new grants: with calls that outlast the restart, 4 in flight under
    a cap of 2; with short ones only now and then (3 under 2, once, with one Ray shared across tests). A release
    Ray delivered again was charged again. `-s` prints the peak in flight."""
    from forge.llm.limiter import limiter_name, start_session_limiter
    from forge.llm.serve import ModelServer
    from forge.protocol.ledger import SessionLedger
    from workers.spending import LedgerSpending

    ray = ray_local
    with ModelServer(SlowEcho(3.0), models=["echo-1"]) as server:  # each call outlasts the limiter's restart
        limiter = start_session_limiter("restart-test", BudgetLimits(max_prompt_tokens=10**6),
                                        LedgerSpending(str(tmp_path), "restart-test"), lease_s=1.5)
        config_yaml = served_config(server.openai_base_url, 2)
        Caller = caller_class(ray)
        callers = [Caller.remote("restart-test", config_yaml) for _ in range(4)]
        assert all(ray.get([c.ready.remote() for c in callers]))
        server.stats.reset()
        pending = [c.call.remote(2) for c in callers]
        # Killed while both slots are held by calls in flight (and the other two callers wait for one).
        wait_until(lambda: server.stats.in_flight == 2 and server.stats.requests >= 3, "two calls in flight")
        before = ray.get(limiter.figures.remote())
        ray.kill(ray.get_actor(limiter_name("restart-test")), no_restart=False)
        assert sum(ray.get(pending, timeout=120)) == 8
        figures = settled_figures(ray, limiter, calls=8)
        ray.kill(limiter)
        for c in callers:
            ray.kill(c)
    kept = SessionLedger.open(str(tmp_path), "restart-test").spending()
    print(f"\nlimiter restart run {run + 1}: peak in flight {server.stats.max_in_flight} (cap 2); limiter pid {before['pid']} -> "
          f"{figures['pid']}, leases restored {figures['restored']}, adopted late {figures['adopted']}, "
          f"calls {kept['calls']}")
    assert figures["pid"] != before["pid"] and figures["restored"] >= 1  # rebuilt, holding the calls in flight
    assert before["spent"]["prompt_tokens"] > 0 and figures["spent"]["prompt_tokens"] >= before["spent"]["prompt_tokens"]
    assert kept["calls"] == 8 and kept["prompt_tokens"] >= 8 * 5  # every call charged once, nothing lost
    assert server.stats.requests == 8 and server.stats.max_in_flight <= 2


@pytest.mark.slow
def test_a_caller_stops_waiting_when_the_limiter_does_not_answer(ray_local):
    """Today's main: `ray.get` without a timeout: a caller waited for as long as the limiter did not answer."""
    import asyncio

    from forge.llm.limiter import ANSWER_GRACE_S, RemoteLimiter, SlotWaitTimeout

    ray = ray_local

    @ray.remote(num_cpus=0)
    class SilentLimiter:
        def __init__(self) -> None:
            self.abandoned: list[str] = []

        async def acquire(self, *args, **kwargs) -> dict:
            await asyncio.sleep(3600)  # restarting, or unreachable, for longer than any wait
            return {"granted": True}

        async def abandon(self, lease_id: str) -> None:
            self.abandoned.append(lease_id)

        async def abandoned_leases(self) -> list:
            return self.abandoned

    silent = SilentLimiter.remote()
    limiter = RemoteLimiter(silent, counts_budget=True, lease_s=30.0)
    started = time.monotonic()
    with pytest.raises(SlotWaitTimeout, match="no answer from the session limiter.*slot_wait_s=0.5"):
        with limiter.slot("openai:http://127.0.0.1:9/v1", EndpointLimits(1, None, slot_wait_s=0.5)):
            pass
    waited = time.monotonic() - started
    wait_until(lambda: ray.get(silent.abandoned_leases.remote()), "the abandoned request to reach the limiter")
    ray.kill(silent)
    assert 0.5 + ANSWER_GRACE_S - 0.1 <= waited < 0.5 + ANSWER_GRACE_S + 2.0


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

    from forge.runs.tracking import default_tracking_uri, session_runs

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
from forge.runs.rundir import RunDirectory
from workers.instance_actor import InstanceWorker

cfg = load_config(overrides=["env.max_steps=4", "protocol.max_attempts=1", "run.runs_dir={tmp_path}", "run.name=w"])
run_dir = RunDirectory.create(cfg)
worker = InstanceWorker("i00", "w", to_yaml(cfg), str(run_dir.path))
worker.train_stage(1, 7)
worker.play([3], "evaluation")
print("loaded:", sorted(m for m in sys.modules if m.split(".")[0] == "mlflow" or m == "forge.runs.tracking"))
"""
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300,
                          cwd=ROOT, env={**__import__("os").environ, "PYTHONPATH": str(ROOT)})
    assert done.returncode == 0, done.stderr[-2000:]
    assert "loaded: []" in done.stdout


# -- leases: named holders, expiry, reclaim, bounded waits -------------------------------------------------

def _lease(i: str, holder: str, expires: float, prompt: int = 100, key: str = "e") -> Lease:
    return Lease(i, key, holder, expires, prompt, prompt * 3e-6)


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


def test_the_driver_reclaims_the_slots_of_a_dead_worker_by_its_pid_and_node(monkeypatch):
    """Today's main reclaimed by "pid N " alone (holder_prefix(pid)): a worker of the same pid on another node
    lost its slots too."""
    from forge.llm import limiter

    gate = EndpointGate()
    cap = EndpointLimits(max_concurrency=4)
    processes = {}
    for k, node in enumerate(("aaaa", "aaaa", "bbbb")):  # one pid, two nodes: two workers on node aaaa's process
        monkeypatch.setattr(limiter, "_node_id", lambda node=node: node)
        processes[node] = limiter.worker_process()  # what WorkerHost.process() tells the driver
        with limiter.holding_for(f"i0{k} training:1"):
            assert gate.try_acquire("e", cap, 0.0, _lease(str(k), limiter._holder(), 30.0)).granted
    assert processes["aaaa"] != processes["bbbb"] and processes["aaaa"].split(" on ")[0] == processes["bbbb"].split(" on ")[0]
    taken = gate.reclaim_holder(processes["aaaa"])  # the driver's call: the worker on node aaaa died
    assert [lease.lease_id for lease in taken] == ["0", "1"]
    assert gate.describe_holders("e") == f"1 slot(s) held by: {processes['bbbb']}: i02 training:1"
    assert gate.spent.failed_calls == 2 and gate.spent.failed_prompt_tokens == 200


def test_a_worker_names_its_leases_by_pid_host_and_node():
    import os
    import socket

    from forge.llm.limiter import _holder, holder_prefix, holding_for, worker_process

    process = worker_process()
    assert process.startswith(f"pid {os.getpid()} on {socket.gethostname()} node ")
    with holding_for("i03 training:2"):
        assert _holder() == f"{holder_prefix(process)}i03 training:2"


def _restarted(store, budget: BudgetLimits, now: float, lease_s: float = 30.0) -> EndpointGate:
    """What a limiter Ray rebuilds does with the ledger: its spending, and the leases still open held."""
    spent, open_leases = store.load()
    gate = EndpointGate(budget, spent)
    gate.restore(open_leases, now, lease_s)
    return gate


def test_a_restarted_limiter_holds_every_open_lease_on_its_endpoint_until_renewed_or_expired():
    """Today's main: the ledger kept no endpoint, the restarted gate treated the slots as free (and waited a
    fixed time instead), and a renewal arriving after that was adopted on top of new grants."""
    from forge.llm.limiter import KeptInMemory

    store = KeptInMemory()
    gate = EndpointGate()
    cap = EndpointLimits(max_concurrency=2)
    assert gate.try_acquire("e", cap, 0.0, _lease("a", "pid 1 on h node n: i00", 30.0)).granted
    assert gate.try_acquire("e", cap, 0.0, _lease("b", "pid 2 on h node n: i01", 30.0)).granted
    assert gate.try_acquire("f", cap, 0.0, _lease("c", "pid 2 on h node n: i01", 30.0, key="f")).granted
    store.commit(gate.spent, gate.open_leases())
    assert store.load()[1]["a"]["key"] == "e" and store.load()[1]["c"]["key"] == "f"  # the endpoint is kept

    again = _restarted(store, BudgetLimits(), now=100.0)  # the monotonic clock of another process
    assert again.restored == 3 and again.spent.calls == 0  # held, not charged: their holders may live
    refused = again.try_acquire("e", cap, 100.5, _lease("d", "pid 3 on h node n: i02", 130.5))
    assert not refused.granted and refused.wait_s == pytest.approx(29.5)  # until the held ones could expire
    assert again.renew(["a"], [_lease("a", "pid 1 on h node n: i00", 0.0)], now=110.0, lease_s=30.0) == 0
    assert again.leases["a"].expires == 140.0  # re-adopted: the slot it held all along, no second one
    again.release("e", 120, 10, 0.0, lease_id="a")
    assert again.spent.calls == 1 and again.spent.prompt_tokens == 120  # charged in full, once
    assert again.try_acquire("e", cap, 111.0, _lease("d", "pid 3 on h node n: i02", 141.0)).granted
    assert not again.try_acquire("e", cap, 111.0, _lease("x", "pid 3 on h node n: i02", 141.0)).granted
    # "b" never renews (its holder died with the old limiter's calls): it expires lease_s after the restart.
    assert not again.try_acquire("e", cap, 129.9, _lease("x", "pid 3 on h node n: i02", 159.9)).granted
    assert again.try_acquire("e", cap, 130.0, _lease("x", "pid 3 on h node n: i02", 160.0)).granted
    assert again.spent.failed_calls == 2 and again.spent.failed_prompt_tokens == 200  # "b" and "c", expired
    assert max(again.peak_in_flight.values()) == 2


def test_a_late_renewal_is_adopted_and_nothing_new_starts_until_the_endpoint_is_under_its_cap():
    gate = EndpointGate()
    cap = EndpointLimits(max_concurrency=2)
    for i in ("a", "b"):
        assert gate.try_acquire("e", cap, 0.0, _lease(i, f"pid 1 on h node n: {i}", 30.0)).granted
    gate.reclaim_expired(30.0)  # both holders silent for a whole lease: their slots come back
    assert gate.try_acquire("e", cap, 31.0, _lease("c", "pid 2 on h node n: c", 61.0)).granted
    # "a" was alive after all: its renewal comes late; its call is in flight, so its slot counts again...
    assert gate.renew(["a"], [_lease("a", "pid 1 on h node n: a", 0.0)], now=32.0, lease_s=30.0) == 1
    # ...the endpoint is full, and the next call waits for a release, not for the expired "b".
    refused = gate.try_acquire("e", cap, 33.0, _lease("d", "pid 2 on h node n: d", 63.0))
    assert not refused.granted and gate.describe_holders("e").startswith("2 slot(s)")
    # A renewal that crossed its own release adopts nothing.
    gate.release("e", 100, 5, 0.0, lease_id="c")
    assert gate.renew(["c"], [_lease("c", "pid 2 on h node n: c", 0.0)], now=34.0, lease_s=30.0) == 0
    assert gate.try_acquire("e", cap, 35.0, _lease("d", "pid 2 on h node n: d", 65.0)).granted
    assert not gate.try_acquire("e", cap, 35.0, _lease("x", "pid 2 on h node n: x", 65.0)).granted


def test_a_release_delivered_twice_is_charged_once():
    """Today's main: a release Ray delivers again (the limiter died before acknowledging it) was charged again."""
    from forge.llm.limiter import KeptInMemory

    store = KeptInMemory()
    gate = EndpointGate()
    cap = EndpointLimits(max_concurrency=2)
    assert gate.try_acquire("e", cap, 0.0, _lease("a", "pid 1 on h node n: i00", 30.0)).granted
    gate.release("e", 300, 20, 0.003, lease_id="a")
    store.commit(gate.spent, gate.open_leases())
    again = _restarted(store, BudgetLimits(), now=5.0)
    assert again.release("e", 300, 20, 0.003, lease_id="a") is False
    assert again.spent == Spent(300, 20, 0.003, 1) and again.try_acquire("e", cap, 6.0).granted


def test_a_request_delivered_again_after_a_restart_is_granted_the_slot_it_holds():
    from forge.llm.limiter import KeptInMemory

    store = KeptInMemory()
    gate = EndpointGate()
    cap = EndpointLimits(max_concurrency=1)
    assert gate.try_acquire("e", cap, 0.0, _lease("a", "pid 1 on h node n: i00", 30.0)).granted
    store.commit(gate.spent, gate.open_leases())  # granted and journaled; the answer was lost with the limiter
    again = _restarted(store, BudgetLimits(), now=50.0)
    assert again.try_acquire("e", cap, 50.5, _lease("a", "pid 1 on h node n: i00", 80.5)).granted
    assert again.describe_holders("e") == "1 slot(s) held by: pid 1 on h node n: i00"


def test_an_older_ledger_s_leases_without_an_endpoint_are_charged_as_orphans():
    gate = EndpointGate()
    assert gate.restore({"a": [250, 0.5]}, now=0.0, lease_s=30.0) == 0
    assert gate.spent.failed_calls == 1 and gate.spent.prompt_tokens == 250 and not gate.leases


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


def test_a_wait_is_bounded_by_slot_wait_s_in_all_across_a_limiter_restart(tmp_path):
    """Today's main: the request Ray delivers again to the rebuilt limiter started a whole slot_wait_s over."""
    import asyncio
    import pickle

    from forge.llm.limiter import SessionLimiter
    from workers.spending import LedgerSpending

    store = LedgerSpending(str(tmp_path), "s")
    key = "openai:http://127.0.0.1:9/v1"

    async def scenario():
        first = SessionLimiter({}, store, lease_s=30.0, restarted=False)
        assert await first.acquire(key, 1, None, 5.0, "a", "pid 7 on h node n: i00 training:1", 10, 0.0) == {"granted": True}
        started = time.time()
        request = (key, 1, None, 1.0, "b", "pid 8 on h node n: i01 training:1", 10, 0.0)
        waiting = asyncio.ensure_future(first.acquire(*request, deadline=started + 1.0))
        await asyncio.sleep(0.6)  # the limiter dies here, its request unanswered...
        waiting.cancel()
        again = SessionLimiter({}, pickle.loads(pickle.dumps(store)), lease_s=30.0, restarted=True)
        answer = await again.acquire(*request, deadline=started + 1.0)  # ...and Ray delivers it again
        return answer, time.time() - started

    answer, waited = asyncio.run(scenario())
    assert "timeout" in answer and "1 slot(s) held by: pid 7 on h node n: i00 training:1" in answer["timeout"]
    assert 0.95 <= waited < 1.4  # the caller's one second, not 0.6 + 1


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
def test_the_cap_and_the_overshoot_bound_hold_under_deaths_failures_and_limiter_restarts(seed):
    """The cap (never more calls running than max_concurrency) and docs/budget.md's overshoot bound (spending known to
    FORGE <= limit + max_concurrency x the largest cost of one call), with workers dying mid-call (the driver
    reclaims their slots by process), failed attempts, and the limiter dying and rebuilt from the ledger the
    way Ray does it: while it is down, releases and renewals queue and reach the rebuilt limiter in order;
    a holder's renewal comes only at its next renewal time (every lease_s / 3), never at once; a release
    or a grant whose answer was lost with the limiter is delivered again.

    Today's main (its restarted gate granted after a fixed wait, with the ledger's slots free) put 4 calls in
    flight under a cap of 3 in this simulation (see the closing note of issue 31)."""
    import heapq
    import random
    from dataclasses import replace

    from forge.llm.limiter import KeptInMemory, Lease

    rng = random.Random(seed)
    cap, limit, max_prompt, max_completion, lease_s = 3, 20_000, 800, 300, 30.0
    every = lease_s / 3.0
    budget = BudgetLimits(max_prompt_tokens=limit)
    limits = EndpointLimits(max_concurrency=cap)
    store = KeptInMemory()
    gate = EndpointGate(budget, store.load()[0])
    processes = ["pid 7 on a node A", "pid 7 on b node B", "pid 9 on a node A", "pid 11 on b node B"]
    running: dict[str, tuple[Lease, float]] = {}  # calls running at the endpoint: lease, when the call ends
    waiting: dict[str, Lease] = {}  # granted, but the answer was lost with the limiter: delivered again
    queued: list[tuple[str, tuple]] = []  # sent to the limiter while it was down
    renewals: list[tuple[float, str]] = []  # (when, lease id): each holder's next renewal
    down_until, last_release, now, n, refused, peak = None, None, 0.0, 0, False, 0

    def send(kind: str, args: tuple) -> None:
        nonlocal last_release
        if down_until is not None:
            queued.append((kind, args))
            return
        if kind == "release":
            gate.release(*args)
            last_release = args
        elif kind == "renew":
            gate.renew([args[0].lease_id], [args[0]], now, lease_s)
        elif kind == "reclaim":
            gate.reclaim_holder(args[0])
        elif kind == "acquire":  # a request delivered again: its grant was journaled before the answer was lost
            assert gate.try_acquire("e", limits, now, replace(args[0], expires=now + lease_s)).granted
            running[args[0].lease_id] = (args[0], now + rng.uniform(0.5, 60.0))
        store.commit(gate.spent, gate.open_leases())  # the actor commits every change

    while not (refused and not running and not waiting and down_until is None):
        now += rng.uniform(0.05, 1.5)
        if down_until is not None and now >= down_until:  # Ray rebuilt the limiter: from the ledger
            down_until, (spent, open_leases) = None, store.load()
            gate = EndpointGate(budget, spent)
            gate.restore(open_leases, now, lease_s)
            for kind, args in queued:
                send(kind, args)
            queued.clear()
        for lease_id, (lease, ends) in list(running.items()):
            if ends <= now:
                del running[lease_id]
                failed = rng.random() < 0.2
                send("release", ("e", lease.prompt_estimate, 0 if failed else rng.randint(0, max_completion), 0.0,
                                 lease_id, failed))
        while renewals and renewals[0][0] <= now:
            _, lease_id = heapq.heappop(renewals)
            if lease_id in running:
                send("renew", (running[lease_id][0],))
                heapq.heappush(renewals, (now + every, lease_id))
        event = rng.random()
        if event < 0.5 and not refused and down_until is None:
            n += 1
            lease = Lease(str(n), "e", f"{rng.choice(processes)}: i{n % 5:02d}", now + lease_s, rng.randint(1, max_prompt))
            decision = gate.try_acquire("e", limits, now, lease)
            refused = decision.exhausted is not None
            if decision.granted:
                store.commit(gate.spent, gate.open_leases())
                running[lease.lease_id] = (lease, now + rng.uniform(0.5, 60.0))
                heapq.heappush(renewals, (now + every, lease.lease_id))
        elif event < 0.53 and running:  # a worker process dies with its calls; the driver reclaims its slots
            process = running[rng.choice(sorted(running))][0].holder.split(": ")[0]
            running = {i: c for i, c in running.items() if not c[0].holder.startswith(process + ": ")}
            waiting = {i: lease for i, lease in waiting.items() if not lease.holder.startswith(process + ": ")}
            send("reclaim", (process,))
        elif event < 0.56 and down_until is None:  # the limiter dies; Ray rebuilds it a little later
            down_until = now + rng.uniform(0.5, 10.0)
            if last_release is not None and rng.random() < 0.5:
                queued.append(("release", last_release))  # answered, but the answer was lost: delivered again
            if running and rng.random() < 0.5:  # the last grant's answer was lost: its caller has not started
                lease_id = max(running, key=int)
                waiting[lease_id] = running.pop(lease_id)[0]
        for lease_id, lease in list(waiting.items()):
            if down_until is None:
                del waiting[lease_id]
                send("acquire", (lease,))
                heapq.heappush(renewals, (now + every, lease_id))
        peak = max(peak, len(running))
        assert len(running) <= cap, f"{len(running)} calls running under a cap of {cap} at t={now:.1f}"
    spent = store.load()[0]
    assert limit <= spent.prompt_tokens <= limit + cap * (max_prompt + max_completion)
    assert peak == cap
