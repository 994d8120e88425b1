"""A directory made once per test run and shared by the suite's worker processes (scripts/test.sh runs
pytest-xdist).

A module fixture is made again by every worker that runs one of its module's tests, and again each time a
worker comes back to the module. For the reference sessions (tens of seconds of CPU each) that is minutes of
a CPU-bound suite, so they are made here once, under a file lock, and read by every worker. Only what the
tests read, never write, may be shared this way.
"""

from __future__ import annotations

import fcntl
import os
import shutil
from pathlib import Path
from typing import Callable

DONE = ".made"


def run_root(tmp_path_factory) -> Path:
    """The directory every worker of this test run sees: the parent of a worker's own base directory under
    xdist, the base directory itself in a single process."""
    base = tmp_path_factory.getbasetemp()
    return base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base


def made_once(tmp_path_factory, name: str, make: Callable[[Path], None]) -> Path:
    """`make(directory)` for the first worker that asks, the same directory for every worker after it. A
    `make` that raises leaves nothing behind: the next worker to ask tries again (and fails as visibly)."""
    root = run_root(tmp_path_factory)
    directory = root / f"made-once-{name}"
    with open(root / f"made-once-{name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file is closed, also if this process dies
        if (directory / DONE).exists():
            return directory
        shutil.rmtree(directory, ignore_errors=True)
        directory.mkdir(parents=True)
        try:
            make(directory)
        except BaseException:
            shutil.rmtree(directory, ignore_errors=True)
            raise
        (directory / DONE).touch()
    return directory
