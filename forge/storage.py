"""Where sessions are kept (`run.storage`): a local path, or a filesystem URI read and written through
pyarrow.fs (`file://`, `s3://` with `endpoint_override` for any S3-compatible server).

pyarrow.fs rather than fsspec/s3fs: it is already installed (mlflow and ray need it), it is what Ray
Tune's own `storage_path` uses, so the URIs mean the same thing in both, and it needs no extra package.

A remote session has a local working copy (the run directory every command reads and writes, SQLite
files included) that `RunMirror` pushes to the storage as the driver goes: files as they change, and
the SQLite files (memory, ledger) as a consistent `sqlite3` backup at stage boundaries only, when no
worker is writing them. Opening a remote session (resume, report, evaluate...) pulls a fresh working
copy: the storage, not a copy some earlier command left behind, is what a session is.

Credentials are never part of a storage URI (it is saved in config.yaml): S3 keys come from the usual
AWS environment variables, as pyarrow reads them.
"""

from __future__ import annotations

import os
import shutil
import sqlite3
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Optional
from urllib.parse import parse_qsl, urlsplit, urlunsplit

from forge.errors import ForgeError

SECRET_QUERY_KEYS = ("access_key", "secret_key", "session_token")
# Written by SQLite next to a database; the database itself is pushed as a backup, never file by file.
_SQLITE_SIDE_FILES = ("-wal", "-shm", "-journal")
RAY_PACKAGE_PREFIX = "_ray_pkg_"
JOB_RESULTS_DIR = "forge_results"  # under the home directory of the node that runs a Ray job's driver


class StorageError(ForgeError):
    """A storage URI that cannot be used: malformed, unreachable, or holding credentials."""


def is_uri(location: str | Path) -> bool:
    return "://" in str(location)


def is_remote(location: Optional[str | Path]) -> bool:
    """A URI that is not on this machine's filesystem (`file://` and plain paths are local)."""
    return location is not None and is_uri(location) and not str(location).startswith("file://")


def local_path(location: str | Path) -> Path:
    """A plain path or `file://` URI as an absolute local path."""
    text = str(location)
    if text.startswith("file://"):
        text = urlsplit(text).path
    return Path(text).expanduser().resolve()


@dataclass(frozen=True)
class Storage:
    """A directory on a pyarrow filesystem: `root` is its path there, `uri` how the user named it."""

    uri: str
    fs: Any = field(repr=False, compare=False)
    root: str

    @classmethod
    def open(cls, uri: str) -> "Storage":
        import pyarrow.fs as pafs

        query = dict(parse_qsl(urlsplit(uri).query))
        secrets = [k for k in SECRET_QUERY_KEYS if k in query]
        if secrets:
            raise StorageError(f"storage URI {urlsplit(uri)._replace(query='').geturl()!r} holds {', '.join(secrets)}: "
                               f"credentials are never stored; set AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY instead")
        try:
            fs, root = pafs.FileSystem.from_uri(uri if is_uri(uri) else str(local_path(uri)))
        except (ValueError, OSError) as exc:
            raise StorageError(f"storage URI {uri!r}: {exc}") from None
        return cls(uri, fs, root.rstrip("/"))

    @property
    def scheme(self) -> str:
        return urlsplit(self.uri).scheme if is_uri(self.uri) else "file"

    @property
    def name(self) -> str:
        return self.root.rsplit("/", 1)[-1]

    def child(self, name: str) -> "Storage":
        parts = urlsplit(self.uri)
        uri = urlunsplit(parts._replace(path=parts.path.rstrip("/") + "/" + name))
        return Storage(uri, self.fs, f"{self.root}/{name}")

    def exists(self, relative: str = "") -> bool:
        import pyarrow.fs as pafs

        return self._call(lambda: self.fs.get_file_info(self._path(relative)).type != pafs.FileType.NotFound)

    def read_text(self, relative: str) -> str:
        def read() -> str:
            with self.fs.open_input_stream(self._path(relative)) as stream:
                return stream.read().decode()
        return self._call(read)

    def upload(self, local: Path, relative: str) -> None:
        def put() -> None:
            with open(local, "rb") as source, self.fs.open_output_stream(self._path(relative)) as out:
                shutil.copyfileobj(source, out, 1 << 20)
        self._call(put)

    def download(self, local: Path) -> None:
        """Everything under this storage directory into `local` (created)."""
        import pyarrow.fs as pafs

        local.mkdir(parents=True, exist_ok=True)
        self._call(lambda: pafs.copy_files(self.root, str(local), source_filesystem=self.fs,
                                           destination_filesystem=pafs.LocalFileSystem()))

    def _path(self, relative: str) -> str:
        return f"{self.root}/{relative}" if relative else self.root

    def _call(self, action):
        try:
            return action()
        except OSError as exc:
            raise StorageError(f"storage {self.uri}: {str(exc).splitlines()[0]}") from exc


def working_copy(storage: Storage) -> Path:
    """Where this machine keeps the working copy of a remote run directory (under the user's cache, never
    under a Ray job's working directory): `~/.cache/forge/storage/<scheme>/<bucket>/<path>`."""
    cache = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    return cache / "forge" / "storage" / storage.scheme / storage.root


class RunMirror:
    """Pushes a run directory's working copy to its storage: each file when it changed since it was last
    pushed; with `databases`, every SQLite file as a consistent backup (at stage boundaries)."""

    def __init__(self, storage: Storage, local: Path) -> None:
        self.storage = storage
        self.local = local
        self._pushed: dict[str, tuple[int, int]] = {}

    def pull(self) -> None:
        """A fresh working copy from the storage (what was there locally is replaced)."""
        if not self.storage.exists("config.yaml"):
            raise StorageError(f"{self.storage.uri} is not a FORGE run directory (no config.yaml)")
        if self.local.exists():
            shutil.rmtree(self.local)
        self.storage.download(self.local)
        self._pushed = {rel: _stamp(path) for rel, path in self._files()}

    def push(self, databases: bool = False) -> int:
        """The files that changed; with `databases`, the SQLite files too. The count pushed."""
        count = 0
        for relative, path in self._files():
            if _is_sqlite(path.name):
                continue
            stamp = _stamp(path)
            if self._pushed.get(relative) != stamp:
                self.storage.upload(path, relative)
                self._pushed[relative] = stamp
                count += 1
        if databases:
            for path in sorted(self.local.glob("*.db")):
                self._push_database(path)
                count += 1
        return count

    def _push_database(self, path: Path) -> None:
        with tempfile.TemporaryDirectory(dir=self.local.parent) as tmp:
            copy = Path(tmp) / path.name
            source, target = sqlite3.connect(path), sqlite3.connect(copy)
            try:
                source.backup(target)  # a transactionally consistent copy, WAL included
            finally:
                source.close()
                target.close()
            self.storage.upload(copy, path.name)

    def _files(self):
        for path in sorted(self.local.rglob("*")):
            if path.is_file() and not path.name.endswith(".tmp"):
                yield path.relative_to(self.local).as_posix(), path


def _is_sqlite(name: str) -> bool:
    return name.endswith(".db") or any(name.endswith(".db" + side) for side in _SQLITE_SIDE_FILES)


def _stamp(path: Path) -> tuple[int, int]:
    info = path.stat()
    return info.st_size, info.st_mtime_ns


# -- Ray jobs ----------------------------------------------------------------------------------------


def in_ray_job_package(cwd: Path) -> bool:
    """Whether `cwd` is (inside) Ray's unpacked copy of a job's `--working-dir`, which Ray deletes with
    its session directory: `.../runtime_resources/working_dir_files/_ray_pkg_<hash>`."""
    parts = cwd.resolve().parts
    return any(p.startswith(RAY_PACKAGE_PREFIX) for p in parts) and "runtime_resources" in parts


def job_runs_dir(runs_dir: str, cwd: Path, home: Path) -> Optional[Path]:
    """Where a relative `runs_dir` goes instead when the command runs in a Ray job's package: the same
    relative path under `~/forge_results` of the node running the job's driver (Tune's `~/ray_results`).
    None when nothing is to be redirected."""
    if Path(runs_dir).is_absolute() or is_uri(runs_dir) or not in_ray_job_package(cwd):
        return None
    return home / JOB_RESULTS_DIR / runs_dir
