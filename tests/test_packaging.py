"""What an install ships: every folder of Python modules under forge/, agents/ and workers/ is a package the
build finds (pyproject's [tool.setuptools.packages.find]). A folder without __init__.py imports from a checkout
(a namespace package) and is missing from a wheel or the Docker image, which is how it was found."""
from __future__ import annotations

from pathlib import Path

from setuptools import find_packages

ROOT = Path(__file__).resolve().parents[1]


def test_every_folder_of_modules_is_a_package_the_build_ships():
    shipped = set(find_packages(str(ROOT), include=["forge*", "agents*", "workers*"]))
    folders = {str(p.parent.relative_to(ROOT)).replace("/", ".")
               for top in ("forge", "agents", "workers") for p in (ROOT / top).rglob("*.py")
               if "__pycache__" not in p.parts}
    assert not folders - shipped, f"not shipped by an install (add an __init__.py): {sorted(folders - shipped)}"


def test_no_product_source_is_ignored_by_git_or_docker():
    """A `runs/` rule for run directories once hid forge/runs/__init__.py from git and the whole package from
    the Docker image: product files must never match an ignore rule."""
    import fnmatch
    import shutil
    import subprocess

    sources = [str(p.relative_to(ROOT)) for top in ("forge", "agents", "workers") for p in (ROOT / top).rglob("*")
               if p.is_file() and "__pycache__" not in p.parts and p.suffix in (".py", ".md", ".json")]
    if shutil.which("git") and (ROOT / ".git").exists():
        ignored = subprocess.run(["git", "check-ignore", "--no-index", "--stdin"], cwd=ROOT, input="\n".join(sources),
                                 capture_output=True, text=True).stdout.split()
        assert not ignored, f"ignored by git: {ignored}"
    # .dockerignore, read as Docker reads it (patterns in order, the last match decides, ! re-includes)
    rules = [line.strip() for line in (ROOT / ".dockerignore").read_text().splitlines()
             if line.strip() and not line.startswith("#")]

    def excluded(path: str) -> bool:
        verdict = False
        parts = path.split("/")
        prefixes = ["/".join(parts[:i]) for i in range(1, len(parts) + 1)]
        for rule in rules:
            keep = rule.startswith("!")
            pattern = rule.lstrip("!").rstrip("/")
            if pattern.startswith("**/"):
                hit = any(fnmatch.fnmatch(prefix.rsplit("/", 1)[-1], pattern[3:]) for prefix in prefixes)
            else:
                hit = any(fnmatch.fnmatch(prefix, pattern) for prefix in prefixes)
            if hit:
                verdict = not keep
        return verdict

    dropped = [s for s in sources if excluded(s)]
    assert not dropped, f"left out of the Docker image by .dockerignore: {dropped[:10]}"
