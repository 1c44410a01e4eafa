"""Issue 31, item 9: a release is a tag ``vX.Y.Z`` on a commit whose ``pyproject.toml`` has that
version and whose ``CHANGELOG.md`` opens with it; ``--version`` prints the installed one; both
READMEs say where the code comes from and how to take a release."""

from __future__ import annotations

import re
import shutil
import subprocess
import tomllib
from pathlib import Path

import pytest

from bot.cli import installed_version

ROOT = Path(__file__).resolve().parents[1]
HEADING = re.compile(r"^## (\d+\.\d+\.\d+) — (\d{4}-\d{2}-\d{2})$", re.M)


def _version() -> str:
    return str(tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["project"]["version"])


def _released() -> list[str]:
    return HEADING.findall((ROOT / "CHANGELOG.md").read_text("utf-8"))


def test_the_version_is_the_changelogs_latest_release() -> None:
    released = _released()
    assert released, "CHANGELOG.md has no release heading"
    assert released[0][0] == _version()
    text = (ROOT / "CHANGELOG.md").read_text("utf-8")
    assert text.index("## Unreleased") < text.index(f"## {released[0][0]}")  # unreleased on top
    dates = [date for _, date in released]
    assert dates == sorted(dates, reverse=True)


def test_every_tag_is_a_release_of_the_changelog() -> None:
    """A tag ``vX.Y.Z`` is a changelog release, and the tagged commit's version is X.Y.Z."""
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        pytest.skip("not a git checkout")
    tags = subprocess.run(["git", "tag", "--list", "v*"], cwd=ROOT, capture_output=True, text=True,
                          check=True).stdout.split()
    versions = {version for version, _ in _released()}
    for tag in tags:
        assert tag[1:] in versions, tag
        pyproject = subprocess.run(["git", "show", f"{tag}:pyproject.toml"], cwd=ROOT,
                                   capture_output=True, text=True, check=True).stdout
        assert tomllib.loads(pyproject)["project"]["version"] == tag[1:], tag


def test_the_installed_version_is_the_projects() -> None:
    assert installed_version() in (_version(), "unknown")


@pytest.mark.parametrize("readme", ["README.md", "README.ru.md"])
def test_the_readmes_say_where_the_code_comes_from(readme: str) -> None:
    text = (ROOT / readme).read_text("utf-8")
    five = text.split("\n## ", 2)[1] if readme == "README.ru.md" else text.split("## A club admin's first five minutes", 1)[1]
    assert "git clone" in five and 'git checkout "$(git tag --sort=-v:refname | head -n 1 | grep . || echo HEAD)"' in five
    assert "CHANGELOG.md" in five
