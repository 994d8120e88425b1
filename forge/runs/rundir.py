"""The run directory: everything one session writes, so that it can be inspected and resumed.

    <run_dir>/config.yaml     the resolved configuration (no secrets: keys live in env vars only, and
                              credentials inside URLs are masked; `forge resume` is given them again)
    <run_dir>/forge.db        memory versions and the session ledger (SQLite store)
    <run_dir>/traces/         one JSON file per episode
    <run_dir>/failures/       failure snapshots (what the learners read; rulebook trigger nodes)
    <run_dir>/reports/        evaluation report, tables, plots

Where: under `run.runs_dir`, or `run.storage` (a path or a file:// / s3:// URI, forge.plumbing.storage). A
session in remote storage is worked on in a local working copy that the driver pushes to the storage as
it goes (`RunDirectory.sync`); `RunDirectory.open` takes a path or such a URI. Inside a Ray job, a
relative runs directory would be Ray's temporary copy of the job's working directory: it is moved to
`~/forge_results/<runs_dir>` (forge.plumbing.storage.job_runs_dir) and the run says so.

Only the driver (and the single-process commands) write here. Ray workers never see this path: they
hand their traces and failure snapshots to a `CollectingSink`, return them with each unit of work, and
the driver writes them with `RunDirectory.write_artifacts`, so a cluster needs no shared filesystem.
"""

from __future__ import annotations

import json
import os
import shutil
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Optional, Protocol, Sequence

from forge.config import ConfigError, ForgeConfig, from_yaml, load_config, masked_credentials, to_saved_yaml
from forge.plumbing.redact import mask_urls_in
from forge.plumbing.storage import RunMirror, Storage, is_remote, is_uri, job_runs_dir, local_path


@dataclass(frozen=True)
class RunDirectory:
    path: Path  # the local directory (for a session in remote storage: its working copy)
    mirror: Optional[RunMirror] = field(default=None, compare=False, repr=False)
    notice: Optional[str] = field(default=None, compare=False)  # where the run went, if not where asked

    @classmethod
    def create(cls, cfg: ForgeConfig, name: Optional[str] = None) -> "RunDirectory":
        notice = _keep_out_of_ray_job(cfg)
        stamp = time.strftime("%Y%m%d-%H%M%S")
        base = name or cfg.run.name or f"{stamp}-{cfg.protocol.condition.value}"
        mirror = None
        if is_remote(cfg.run.storage):
            parent = Storage.open(cfg.run.storage)
            storage = parent.child(_unique(base, parent.exists))
            mirror = RunMirror(storage, writer=True)  # its working copy, locked while this process runs it
            path = mirror.local
            if path.exists():
                shutil.rmtree(path)  # left by a session of this name that the storage no longer holds
            path.mkdir(parents=True)
        else:
            root = local_path(cfg.run.storage) if cfg.run.storage else Path(cfg.run.runs_dir)
            path = root / _unique(base, lambda n: (root / n).exists())
            path.mkdir(parents=True)
            _point_latest(root, path)
        run = cls(path.resolve(), mirror, notice)
        for sub in ("traces", "failures", "reports"):
            (run.path / sub).mkdir()
        _atomic_write(run.config_path, to_saved_yaml(cfg))
        run.sync()
        return run

    @classmethod
    def open(cls, location: str | Path, *, writer: bool = False) -> "RunDirectory":
        """A run directory by its path, or by its storage URI (file://, s3://...): a remote one is pulled
        fresh, and `sync` pushes what a command writes back. `writer` (a driver: `forge resume`) works in
        the URI's working copy and locks it; a reader gets a copy of its own, so that it never touches a
        running driver's files. A path or file:// URI is read in place."""
        if is_remote(location):
            mirror = RunMirror(Storage.open(str(location)), writer=writer)
            mirror.pull()
            return cls(mirror.local.resolve(), mirror)
        run = cls(local_path(location) if is_uri(location) else Path(location).resolve())
        if not run.config_path.is_file():
            raise ConfigError(f"{run.path} is not a FORGE run directory (no config.yaml)")
        return run

    @property
    def location(self) -> str:
        """Where the run is kept: its storage URI, or its path."""
        return self.mirror.storage.uri if self.mirror else str(self.path)

    def sync(self, databases: bool = False) -> None:
        """Push what changed to the run's remote storage (nothing to do for a local run); `databases`:
        the SQLite files too, at a point where no worker writes them (a stage boundary)."""
        if self.mirror is not None:
            self.mirror.push(databases)

    @property
    def config_path(self) -> Path:
        return self.path / "config.yaml"

    @property
    def traces(self) -> Path:
        return self.path / "traces"

    @property
    def failures(self) -> Path:
        return self.path / "failures"

    @property
    def reports(self) -> Path:
        return self.path / "reports"

    @property
    def session_id(self) -> str:
        return self.path.name

    def load_config(self, overrides: Sequence[str] = ()) -> ForgeConfig:
        """The saved configuration, with `key=value` overrides merged on top. URLs whose credentials
        were masked when saved stay masked unless an override gives them (see `live_config`)."""
        if overrides:
            return load_config(self.config_path, overrides=list(overrides))
        return from_yaml(self.config_path.read_text(), source=str(self.config_path))

    def live_config(self, overrides: Sequence[str] = ()) -> ForgeConfig:
        """The saved configuration complete enough to reconnect to the session's stores: every masked
        credential given again by an override (for `forge resume`, `forge report`)."""
        cfg = self.load_config(overrides)
        missing = masked_credentials(cfg)
        if missing:
            raise ConfigError(
                f"{self.config_path}: {', '.join(missing)} held credentials, which are never stored; "
                f"give {'it' if len(missing) == 1 else 'them'} again, e.g. "
                f"forge resume {self.path} {missing[0]}=<the URL with its credentials> (forge report alike)"
            )
        return cfg

    def keep_budget(self, cfg: ForgeConfig) -> bool:
        """Write `cfg`'s budget into config.yaml when it differs from the saved one (a resume that raised
        it), so a later plain `forge resume` keeps the raised budget; only the budget section changes, so
        nothing else an override gave (a credential URL) is ever stored. True when it wrote."""
        saved = self.load_config()
        if saved.budget == cfg.budget:
            return False
        saved.budget = cfg.budget
        _atomic_write(self.config_path, to_saved_yaml(saved))
        return True

    def write_artifacts(self, artifacts: "Artifacts") -> int:
        """Write what a worker collected (traces, failure snapshots) where a local run would have; the count."""
        DirectorySink(self.path).put_all(artifacts)
        return len(artifacts.traces) + len(artifacts.failures)

    def write_json(self, relative: str, data: Any) -> Path:
        path = self.path / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        _atomic_write(path, json.dumps(mask_urls_in(data), indent=1, default=str))
        return path


def local_run_path(location: str) -> str:
    """A local path to read a run from: the path itself, or the working copy of a run given by its URI."""
    return str(RunDirectory.open(location).path) if is_uri(location) else location


def _unique(base: str, taken: Callable[[str], bool]) -> str:
    name, suffix = base, 1
    while taken(name):
        suffix += 1
        name = f"{base}-{suffix}"
    return name


def _point_latest(root: Path, path: Path) -> None:
    latest = root / "latest"
    try:
        if latest.is_symlink() or latest.exists():
            latest.unlink()
        latest.symlink_to(path.name)
    except OSError:
        pass  # a convenience only


def _keep_out_of_ray_job(cfg: ForgeConfig) -> Optional[str]:
    """Inside a Ray job, a relative runs directory (or storage path) would be Ray's copy of the job's
    working directory, deleted with Ray's session: it moves under ~/forge_results (set in `cfg`, so the
    saved config.yaml says where). Redirected, not refused: the README's command keeps its results as
    written, the way Tune keeps a job's results in ~/ray_results. The notice to print, if moved."""
    key = "storage" if cfg.run.storage is not None else "runs_dir"
    asked = getattr(cfg.run, key)
    target = job_runs_dir(asked, Path.cwd(), Path.home())
    if target is None:
        return None
    setattr(cfg.run, key, str(target))
    return (f"inside a Ray job: run.{key}={asked} would be Ray's temporary copy of the working directory; "
            f"results are kept in {target} instead (on the node running this job's driver)")


def _atomic_write(path: Path, text: str) -> None:
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    tmp.write_text(text)
    tmp.replace(path)


# -- what an instance writes while it works ---------------------------------------------------------


def trace_path(instance: str, label: str) -> str:
    return f"traces/{instance}/{label}.json"


def failure_path(failure_id: str) -> str:
    return f"failures/{failure_id}.json"


@dataclass
class Artifacts:
    """Traces and failure snapshots as plain data, keyed by their path relative to the run directory."""

    traces: dict[str, dict] = field(default_factory=dict)
    failures: dict[str, dict] = field(default_factory=dict)

    def to_dict(self) -> dict[str, dict[str, dict]]:
        return {"traces": self.traces, "failures": self.failures}

    @classmethod
    def from_dict(cls, data: Optional[dict]) -> "Artifacts":
        data = data or {}
        return cls(dict(data.get("traces", {})), dict(data.get("failures", {})))


class ArtifactSink(Protocol):
    def trace(self, instance: str, label: str, data: dict) -> None: ...

    def failure(self, failure_id: str, data: dict) -> None: ...


class DirectorySink:
    """Writes straight into a run directory (single-process commands, and the driver)."""

    def __init__(self, path: Path) -> None:
        self.path = Path(path)

    def trace(self, instance: str, label: str, data: dict) -> None:
        self._write(trace_path(instance, label), data, indent=None)

    def failure(self, failure_id: str, data: dict) -> None:
        self._write(failure_path(failure_id), data, indent=1)

    def put_all(self, artifacts: Artifacts) -> None:
        for relative, data in artifacts.traces.items():
            self._write(relative, data, indent=None)
        for relative, data in artifacts.failures.items():
            self._write(relative, data, indent=1)

    def _write(self, relative: str, data: dict, indent: Optional[int]) -> None:
        path = self.path / relative
        if self.path.resolve() not in path.resolve().parents:
            raise ValueError(f"artifact path {relative!r} leaves the run directory {self.path}")
        path.parent.mkdir(parents=True, exist_ok=True)
        _atomic_write(path, json.dumps(mask_urls_in(data), indent=indent, default=str))


class CollectingSink:
    """Keeps an instance's traces and failure snapshots in memory until the driver takes them (workers).
    Only what the finished unit produced is returned; a unit whose worker dies loses its artifacts with
    the rest of its work, and the redone unit produces them again."""

    def __init__(self, mirror: Optional[DirectorySink] = None) -> None:
        self._artifacts = Artifacts()
        self._mirror = mirror  # a worker-local copy of failure snapshots (the rulebook reads its triggers there)

    def trace(self, instance: str, label: str, data: dict) -> None:
        self._artifacts.traces[trace_path(instance, label)] = json.loads(json.dumps(mask_urls_in(data), default=str))

    def failure(self, failure_id: str, data: dict) -> None:
        self._artifacts.failures[failure_path(failure_id)] = json.loads(json.dumps(mask_urls_in(data), default=str))
        if self._mirror is not None:
            self._mirror.failure(failure_id, data)

    def take(self) -> Artifacts:
        taken, self._artifacts = self._artifacts, Artifacts()
        return taken

    def clear(self) -> None:
        self._artifacts = Artifacts()
