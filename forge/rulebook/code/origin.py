"""Where a rule file comes from: its git commit, for the provenance of the book version that applies it.

Inside a git work tree a file's origin is its path from the repository's top, the last commit that
changed it, and whether the file on disk differs from that commit (modified, or not committed at all).
`apply` refuses a file with uncommitted changes unless told otherwise (`--allow-uncommitted`), because
the commit would then not say what was applied. Outside git the origin is the path and the file's
SHA-256, and the provenance says so.
"""

from __future__ import annotations

import hashlib
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Mapping, Optional


@dataclass(frozen=True)
class FileOrigin:
    path: str  # as given on the command line
    sha256: str
    repo_path: Optional[str] = None  # from the repository's top; None outside git
    commit: Optional[str] = None  # the last commit that changed the file; None outside git or never committed
    uncommitted: bool = False  # the file differs from `commit` (or is not committed at all)

    @property
    def in_git(self) -> bool:
        return self.repo_path is not None

    def describe(self) -> str:
        """One line for the book version's provenance."""
        if not self.in_git:
            return f"{self.path} (not in a git repository; sha256 {self.sha256[:12]})"
        if self.commit is None:
            return f"{self.repo_path} (never committed; sha256 {self.sha256[:12]})"
        dirty = f" + uncommitted changes, sha256 {self.sha256[:12]}" if self.uncommitted else ""
        return f"{self.repo_path}@{self.commit[:12]}{dirty}"

    def to_dict(self) -> dict[str, Any]:
        return {"path": self.path, "sha256": self.sha256, "repo_path": self.repo_path, "commit": self.commit,
                "uncommitted": self.uncommitted}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> "FileOrigin":
        return cls(data["path"], data["sha256"], data.get("repo_path"), data.get("commit"), bool(data.get("uncommitted")))


def _git(cwd: Path, *args: str) -> Optional[str]:
    try:
        done = subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True, timeout=30, check=False)
    except (OSError, subprocess.TimeoutExpired):
        return None  # no git on this machine: treated as outside a repository
    return done.stdout.strip() if done.returncode == 0 else None


def file_origin(path: str | Path) -> FileOrigin:
    """The file's origin (see the module docstring). Reads the file and asks git, nothing else."""
    file = Path(path)
    digest = hashlib.sha256(file.read_bytes()).hexdigest()
    folder = file.resolve().parent
    top = _git(folder, "rev-parse", "--show-toplevel")
    if top is None:
        return FileOrigin(str(path), digest)
    repo_path = file.resolve().relative_to(Path(top).resolve()).as_posix()
    commit = _git(folder, "log", "-1", "--format=%H", "--", file.name) or None
    status = _git(folder, "status", "--porcelain", "--", file.name)
    return FileOrigin(str(path), digest, repo_path, commit, commit is None or bool(status))
