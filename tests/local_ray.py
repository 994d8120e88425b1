"""One local Ray per test process, shared by the tests that need one (tests/conftest.py's Ray fixtures)."""

from __future__ import annotations

from pathlib import Path


def local_ray() -> str:
    """The GCS address of this test process's local Ray, started first if none is running (the driver's own
    connect_ray, as a session makes it).

    It is left running while the tests that follow ask for one (tests/conftest.py stops it before a test
    that does not): starting a Ray costs about 10 s of CPU in Ray's own processes, keeping an idle one about
    8 % of a core (both measured on a 2-core machine, Ray 2.60), and the suite is CPU-bound. Sessions kill
    their actors when they end, so a test finds no other test's actors in it; a test that stops the Ray
    only makes the next one start another."""
    import ray

    from forge.config import load_config
    from workers.driver import connect_ray

    connect_ray(load_config(Path(__file__).resolve().parents[1] / "configs" / "forge.yaml"))
    return ray.get_runtime_context().gcs_address
