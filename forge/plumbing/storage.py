"""Where sessions are kept (`run.storage`): a local path, or a filesystem URI read and written through
pyarrow.fs (`file://`, `s3://` with `endpoint_override` for any S3-compatible server).

pyarrow.fs rather than fsspec/s3fs: it is already installed (mlflow and ray need it), it is what Ray
Tune's own `storage_path` uses, so the URIs mean the same thing in both, and it needs no extra package.

A remote session has a local working copy (the run directory every command reads and writes, SQLite
files included) that `RunMirror` pushes to the storage as the driver goes: files as they change, and
the SQLite files (memory, ledger) as a consistent `sqlite3` backup at stage boundaries only, when no
worker is writing them; a small file that must not wait for a boundary (the session's spending) is
pushed whenever it changes (`RunMirror.keep_pushed`). The storage, not a copy some earlier command left
behind, is what a session is:
- a writer (the driver: `forge run`, `forge resume`) works in the working copy of its URI, locked while
  it runs (`WorkingCopyLock`): a second writer on the machine is refused, naming the first;
- a reader (`forge report`, `compare`, `evaluate`, `rulebook stats`...) pulls a fresh copy into a
  directory of its own (`reader_copy`), so it never deletes or changes a writer's files.

Credentials are never part of a storage URI (it is saved in config.yaml): neither in its user part
(`s3://KEY:SECRET@bucket`) nor in its query; S3 keys come from the usual AWS environment variables, as
pyarrow reads them. An error about a URI shows it masked.
"""

from __future__ import annotations

import fcntl
import os
import shutil
import socket
import sqlite3
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any, Callable, Optional
from urllib.parse import parse_qsl, urlsplit, urlunsplit

from forge.errors import ForgeError
from forge.plumbing.redact import mask_url

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

        check_no_credentials(uri)
        try:
            fs, root = pafs.FileSystem.from_uri(uri if is_uri(uri) else str(local_path(uri)))
        except (ValueError, OSError) as exc:
            raise StorageError(f"storage URI {mask_url(uri)!r}: {mask_url(str(exc))}") from None
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

    def write_text(self, relative: str, text: str) -> None:
        """Whole or not at all, for a reader at any moment and after a crash: an object store's PUT is that
        already; a local file is written beside its name and moved onto it."""
        def put() -> None:
            target = self._path(relative)
            if self.scheme != "file":
                with self.fs.open_output_stream(target) as out:
                    out.write(text.encode())
                return
            partial = f"{target}.partial-{os.getpid()}"
            self.fs.create_dir(target.rsplit("/", 1)[0], recursive=True)
            with self.fs.open_output_stream(partial) as out:
                out.write(text.encode())
            self.fs.move(partial, target)
        self._call(put)

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
            raise StorageError(f"storage {mask_url(self.uri)}: {mask_url(str(exc).splitlines()[0])}") from exc


def check_no_credentials(uri: str) -> None:
    """A storage URI is saved in config.yaml and printed: one holding credentials is refused (masked)."""
    parts = urlsplit(uri)
    where = []
    if parts.username is not None or parts.password is not None:
        where.append("its user part (KEY:SECRET@)")
    secrets = [k for k in SECRET_QUERY_KEYS if k in dict(parse_qsl(parts.query))]
    if secrets:
        where.append(", ".join(secrets))
    if where:
        raise StorageError(f"storage URI {mask_url(uri)!r} holds credentials in {' and '.join(where)}: credentials are "
                           f"never stored; set AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY instead")


def _cache() -> Path:
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "forge"


def working_copy(storage: Storage) -> Path:
    """Where this machine keeps the writer's working copy of a remote run directory (under the user's
    cache, never under a Ray job's working directory): `~/.cache/forge/storage/<scheme>/<bucket>/<path>`."""
    return _cache() / "storage" / storage.scheme / storage.root


def reader_copy(storage: Storage) -> Path:
    """A fresh directory of this reader's own for a copy of a remote run directory:
    `~/.cache/forge/read/<scheme>/<bucket>/<path>/<pid>-<random>`. Copies of readers that have ended
    (their lock is free) are removed first: a copy lasts until the next reader of the run."""
    parent = _cache() / "read" / storage.scheme / storage.root
    parent.mkdir(parents=True, exist_ok=True)
    for lock in parent.glob("*.lock"):
        held = WorkingCopyLock.try_take(lock.with_suffix(""), "reader")
        if held is not None:  # nobody reads it any more
            shutil.rmtree(lock.with_suffix(""), ignore_errors=True)
            held.release(remove=True)
    return Path(tempfile.mkdtemp(dir=parent, prefix=f"{os.getpid()}-"))


class WorkingCopyLock:
    """An exclusive lock on a local copy of a run directory (`<copy>.lock`, beside it: removing the copy
    keeps the lock), held by one process until it ends. The file names its holder for the error message."""

    def __init__(self, path: Path, handle: IO[str]) -> None:
        self.path = path
        self._handle = handle

    @classmethod
    def try_take(cls, copy: Path, role: str) -> Optional["WorkingCopyLock"]:
        path = copy.parent / f"{copy.name}.lock"
        path.parent.mkdir(parents=True, exist_ok=True)
        handle = open(path, "a+")
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            handle.close()
            return None
        handle.seek(0)
        handle.truncate()
        handle.write(f"{role} pid {os.getpid()} on {socket.gethostname()} since {time.strftime('%Y-%m-%d %H:%M:%S')}\n")
        handle.flush()
        return cls(path, handle)

    @classmethod
    def take(cls, copy: Path, uri: str) -> "WorkingCopyLock":
        """The writer's lock; a StorageError naming the holder when another process of this machine has it."""
        lock = cls.try_take(copy, "driver")
        if lock is None:
            holder = (copy.parent / f"{copy.name}.lock").read_text().strip() or "another process"
            raise StorageError(f"{mask_url(uri)} is being run from this machine ({holder}; working copy {copy}): "
                               f"one driver per session; `forge report` / `compare` read it without touching it")
        return lock

    def release(self, remove: bool = False) -> None:
        if remove:
            self.path.unlink(missing_ok=True)
        self._handle.close()


class RunMirror:
    """Pushes a run directory's local copy to its storage: each file when it changed since it was last
    pushed; with `databases`, every SQLite file as a consistent backup (at stage boundaries).

    `writer`: the driver's working copy of the URI, locked by this process while it lives; else a reader's
    copy, a directory of its own."""

    def __init__(self, storage: Storage, local: Optional[Path] = None, *, writer: bool = False) -> None:
        self.storage = storage
        self.lock: Optional[WorkingCopyLock]
        if writer:
            self.lock = WorkingCopyLock.take(working_copy(storage), storage.uri)
            self.local = local or working_copy(storage)
        else:
            self.local = local or reader_copy(storage)
            self.lock = WorkingCopyLock.try_take(self.local, "reader")  # its copy is not pruned while it reads
        self._pushed: dict[str, Any] = {}

    def pull(self) -> None:
        """A fresh copy from the storage into this mirror's own directory (a writer's, locked: what an
        earlier driver left there is replaced; a reader's: new)."""
        if not self.storage.exists("config.yaml"):
            raise StorageError(f"{mask_url(self.storage.uri)} is not a FORGE run directory (no config.yaml)")
        if self.local.exists():
            shutil.rmtree(self.local)
        self.storage.download(self.local)
        self._pushed = {rel: _stamp(path) for rel, path in self._files()}
        self._pushed.update({path.name: _database_stamp(path) for path in self.local.glob("*.db")})

    def keep_pushed(self, relative: str, read: Callable[[], str], every_s: float = 1.0) -> Callable[[], None]:
        """Pushes `read()` to `relative` in the storage whenever it changed, at most once every `every_s`,
        from a thread of its own (no stage boundary to wait for). Returns the call that stops it, after
        one last push."""
        stop = threading.Event()

        def push_changes() -> None:
            pushed = None
            while True:
                stopping = stop.wait(every_s)
                try:
                    text = read()
                    if text != pushed:
                        self.storage.write_text(relative, text)
                        pushed = text
                except Exception:  # noqa: BLE001 - a store or storage hiccup: the next round pushes it
                    pass
                if stopping:
                    return

        thread = threading.Thread(target=push_changes, name=f"forge-push-{relative}", daemon=True)
        thread.start()

        def stop_pushing() -> None:
            stop.set()
            thread.join(timeout=30)

        return stop_pushing

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
                stamp = _database_stamp(path)
                if self._pushed.get(path.name) == stamp:
                    continue  # unchanged since pulled or pushed: a reader never sends back what it only read
                self._push_database(path)
                self._pushed[path.name] = stamp
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


def _database_stamp(path: Path) -> tuple:
    """A SQLite file's stamp with its write-ahead log's: a committed write may live in the log alone."""
    wal = path.with_name(path.name + "-wal")
    return _stamp(path), _stamp(wal) if wal.exists() and wal.stat().st_size else None


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
