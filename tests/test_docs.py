"""The documentation: README.md stays a front door, and docs/ builds with `mkdocs build --strict` (mkdocs.yml),
so a broken link or anchor, a nav entry without its page, or a page left out of the nav fails the suite."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"

# The README's two commands, exactly as a newcomer copies them (CI runs the second).
TWO_COMMANDS = (
    "./scripts/demo.sh     # set-up, then the main job: FORGE, zero-shot and Reflexion, 6 sessions each, and a verdict",
    "./scripts/test.sh     # set-up, then the whole test suite (real CybORG, Ray, MLflow, Redis, HTTP)",
)
README_MAX_LINES = 220


def mkdocs_build(config: Path, site: Path) -> subprocess.CompletedProcess[str]:
    """`mkdocs build --strict` as a user runs it (the venv's mkdocs, through this interpreter)."""
    return subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--config-file", str(config), "--site-dir", str(site)],
        capture_output=True, text=True, timeout=300, cwd=config.parent,
    )


def warnings_of(result: subprocess.CompletedProcess[str]) -> list[str]:
    """Each WARNING record with its indented continuation lines (mkdocs lists unlisted pages below the record)."""
    records: list[str] = []
    for line in (result.stdout + result.stderr).splitlines():
        if line.startswith("WARNING"):
            records.append(line)
        elif records and records[-1].startswith("WARNING") and line.startswith(" "):
            records[-1] += "\n" + line
        else:
            records.append(line)
    return [record for record in records if record.startswith("WARNING")]


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("site")
    result = mkdocs_build(ROOT / "mkdocs.yml", out)
    assert result.returncode == 0, f"mkdocs build --strict failed:\n{result.stdout}{result.stderr}"
    return out


def test_the_docs_build_strict_with_every_page_in_the_nav(site: Path) -> None:
    pages = sorted(p.stem for p in (ROOT / "docs").glob("*.md"))
    built = [p for p in pages if (site / ("index.html" if p == "index" else f"{p}/index.html")).is_file()]
    assert built == pages


def test_a_broken_link_a_broken_anchor_a_missing_page_and_an_unlisted_page_each_fail_the_strict_build(
        tmp_path: Path) -> None:
    shutil.copy(ROOT / "mkdocs.yml", tmp_path / "mkdocs.yml")
    shutil.copytree(ROOT / "docs", tmp_path / "docs")
    page = tmp_path / "docs" / "using.md"
    page.write_text(page.read_text() + "\nSee [the old page](no-such-page.md) and [a section](comparing.md#no-such-section).\n")
    (tmp_path / "docs" / "unlisted.md").write_text("# A page nobody added to the nav\n")
    config = tmp_path / "mkdocs.yml"
    config.write_text(config.read_text().replace("  - Home: index.md\n", "  - Home: index.md\n  - Gone: gone.md\n"))

    result = mkdocs_build(config, tmp_path / "site")

    assert result.returncode != 0
    warned = "\n".join(warnings_of(result))
    for fault in ("no-such-page.md", "#no-such-section", "gone.md", "unlisted.md"):
        assert fault in warned, f"{fault} did not fail the build:\n{result.stdout}{result.stderr}"


def test_the_readme_is_a_front_door_with_the_two_commands_and_the_path() -> None:
    text = README.read_text()
    lines = text.splitlines()
    assert len(lines) <= README_MAX_LINES, f"README.md has {len(lines)} lines; move detail into docs/"
    for command in TWO_COMMANDS:
        assert command in lines, f"README.md lost its command line: {command}"
    assert "source .venv/bin/activate" in text
    assert "surrogate" in "\n".join(lines[:15]).lower(), "the surrogate label belongs at the top of the README"


def test_every_link_of_the_readme_resolves(site: Path) -> None:
    """README.md is not part of the site, so its links into docs/ are checked against the built pages."""
    broken = []
    for target in re.findall(r"\]\(([^)\s]+)\)", README.read_text()):
        if re.match(r"[a-z]+://", target):
            continue
        path, _, anchor = target.partition("#")
        if not (ROOT / path).exists():
            broken.append(target)
        elif anchor:
            page = Path(path)
            html = site / ("index.html" if page.stem == "index" else f"{page.stem}/index.html")
            if f'id="{anchor}"' not in html.read_text():
                broken.append(target)
    assert not broken, f"README.md links to what does not exist: {broken}"
