"""A local Ray that misses its raylet's 30 s registration window (a loaded machine) is started again, and
what the failed attempt left running is stopped."""

from __future__ import annotations

import subprocess
import time

import pytest
import ray

from forge.config import load_config
from workers import ray_runtime


def test_descendants_are_found_through_proc():
    child = subprocess.Popen(["sh", "-c", "sleep 60 & wait"])
    try:
        deadline = time.monotonic() + 10
        while len(ray_runtime._descendants(child.pid)) < 1 and time.monotonic() < deadline:
            time.sleep(0.05)
        grandchildren = ray_runtime._descendants(child.pid)
        assert len(grandchildren) == 1
        assert {child.pid} | grandchildren <= ray_runtime._descendants(ray_runtime.os.getpid())
    finally:
        child.kill()
        child.wait()


@pytest.mark.slow
def test_a_start_up_time_out_is_tried_again_and_its_leftovers_stopped(monkeypatch):
    real_init, leftovers = ray.init, []

    def init_that_times_out_once(*args, **kwargs):
        if not leftovers:  # what a half-started node leaves: a process of ours that Ray no longer tracks
            leftovers.append(subprocess.Popen(["sleep", "120"]))
            raise Exception("The current node timed out during startup. This could happen because ...")
        return real_init(*args, **kwargs)

    ray.shutdown()  # a Ray an earlier test of this worker process left running (no fixture of it is live here)
    monkeypatch.setattr(ray, "init", init_that_times_out_once)
    monkeypatch.delenv("RAY_ADDRESS", raising=False)
    try:
        ray_runtime.connect_ray(load_config())
        assert ray.is_initialized()
        assert leftovers[0].wait(timeout=10) == -9  # SIGKILLed by the retry
    finally:
        ray.shutdown()


def test_other_start_up_errors_are_not_retried(monkeypatch):
    calls = []

    def failing_init(*args, **kwargs):
        calls.append(1)
        raise RuntimeError("some other failure")

    ray.shutdown()
    monkeypatch.setattr(ray, "init", failing_init)
    monkeypatch.delenv("RAY_ADDRESS", raising=False)
    with pytest.raises(RuntimeError, match="some other failure"):
        ray_runtime.connect_ray(load_config())
    assert calls == [1]
