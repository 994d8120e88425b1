"""No lost updates under concurrent writers (threads and processes), and no damage from SIGKILL."""

from __future__ import annotations

import multiprocessing
import os
import signal
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from forge.memory import MemoryItem, MemoryManager, MemorySnapshot, open_store

INSTANCE = "session/0"
REPO = Path(__file__).resolve().parents[1]


@pytest.fixture(params=["sqlite", "redis"])
def spec(request, tmp_path) -> str:
    if request.param == "sqlite":
        return str(tmp_path / "memory.db")
    return request.getfixturevalue("clean_redis_url")


def add_rule(text: str):
    """A pure change adding one planner rule (re-run on the fresh head after a lost CAS)."""

    def change(snapshot: MemorySnapshot) -> MemorySnapshot:
        return snapshot.with_items([MemoryItem.create("rule", "planner", text, seq=snapshot.next_seq())])

    return change


def writer_text(writer: str, n: int) -> str:
    return f"When Host{writer}x{n} shows Exploit, then Remove Host{writer}x{n}"


def write_rules(manager: MemoryManager, writer: str, count: int) -> None:
    for n in range(count):
        manager.edit(INSTANCE, add_rule(writer_text(writer, n)), "add")


def threaded_writers(spec: str, prefix: str, threads: int, count: int) -> None:
    """`threads` threads sharing one store object, each adding `count` distinct rules."""
    with open_store(spec) as store:
        manager = MemoryManager(store)
        errors: list[BaseException] = []
        barrier = threading.Barrier(threads)

        def run(writer: str) -> None:
            try:
                barrier.wait()
                write_rules(manager, writer, count)
            except BaseException as exc:  # surfaced by the assertion below
                errors.append(exc)

        workers = [threading.Thread(target=run, args=(f"{prefix}t{i}",)) for i in range(threads)]
        for worker in workers:
            worker.start()
        for worker in workers:
            worker.join()
        if errors:
            raise errors[0]


def assert_every_write_landed(spec: str, writers: list[str], count: int) -> None:
    with open_store(spec) as store:
        head_snapshot = store.get_snapshot(store.head(INSTANCE).digest)
        history = store.history(INSTANCE)
    expected = {writer_text(w, n) for w in writers for n in range(count)}
    assert {item.text for item in head_snapshot.items} == expected
    assert [v.number for v in history] == list(range(1, len(expected) + 1))  # one version per write
    assert all(len(v.added) == 1 and not v.removed for v in history)
    assert all(v.parent_digest == prev.digest for prev, v in zip(history, history[1:]))
    assert sorted(item.seq for item in head_snapshot.items) == list(range(len(expected)))


def test_threads_never_lose_an_update(spec):
    threaded_writers(spec, "", threads=6, count=8)
    assert_every_write_landed(spec, [f"t{i}" for i in range(6)], 8)


def test_processes_never_lose_an_update(spec):
    context = multiprocessing.get_context("spawn")  # no connection or lock state inherited from pytest
    processes = [context.Process(target=threaded_writers, args=(spec, f"p{p}", 2, 6)) for p in range(3)]
    for process in processes:
        process.start()
    for process in processes:
        process.join(timeout=60)
    assert [process.exitcode for process in processes] == [0, 0, 0]
    assert_every_write_landed(spec, [f"p{p}t{t}" for p in range(3) for t in range(2)], 6)


WRITER = """
import sys
from forge.memory import Artifact, Capacities, MemoryManager, Provenance, open_store
spec, round_ = sys.argv[1], sys.argv[2]
manager = MemoryManager(open_store(spec))
print("ready", flush=True)
n = 0
while True:
    artifacts = [Artifact.rule("planner", f"When Host{round_}x{n}x{j} shows Exploit, then Remove it") for j in range(5)]
    version, report = manager.apply_artifacts("session/0", artifacts, Capacities(10000, 10),
                                              Provenance(attempt=n, actor="reflector"))
    print(" ".join(item.id for item in report.added), flush=True)
    n += 1
"""


def test_sigkilled_writers_leave_a_consistent_store(spec):
    committed: set[str] = set()
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    for round_ in range(6):
        writer = subprocess.Popen([sys.executable, "-c", WRITER, spec, str(round_)], stdout=subprocess.PIPE,
                                  text=True, env=env, cwd=REPO)
        assert writer.stdout.readline().strip() == "ready"
        for _ in range(3 + round_):  # kill at a different point of the write cycle each round
            committed.update(writer.stdout.readline().split())
        os.kill(writer.pid, signal.SIGKILL)
        writer.wait(timeout=10)
        # Whatever it printed after our last read was committed too; drain it.
        committed.update(writer.stdout.read().split())
        writer.stdout.close()
        assert writer.returncode == -signal.SIGKILL

    with open_store(spec) as store:
        history = store.history(INSTANCE)
        assert [v.number for v in history] == list(range(1, len(history) + 1))
        assert all(v.parent_digest == prev.digest for prev, v in zip(history, history[1:]))
        for version in history:  # every version's snapshot is whole and hashes to its digest
            snapshot = store.get_snapshot(version.digest)
            assert len(snapshot) == 5 * version.number
        head_ids = set(store.get_snapshot(history[-1].digest).by_id)
        assert committed and committed <= head_ids  # nothing reported committed was lost
        # The store still takes writes.
        MemoryManager(store).edit(INSTANCE, add_rule("When User9 shows Exploit, then Remove User9"), "add")
        assert store.head(INSTANCE).number == len(history) + 1
