"""The documentation a newcomer reads stays inside the repository and true:
every link and file path it names resolves within the repository, and the
development install says what it needs."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
LINK = re.compile(r"\]\(([^)#\s]+)(?:#[^)]*)?\)")
# a path in backticks: docs/x.md, engine/bao.py, ../shared/rules.md
QUOTED_PATH = re.compile(r"`((?:\.\./|\./)?(?:[\w.-]+/)+[\w.-]+\.(?:md|py|pyx|pxd|toml|ini))`")


@pytest.mark.parametrize("doc", DOCS, ids=lambda p: p.name)
def test_links_and_paths_stay_in_the_repository(doc: Path) -> None:
    text = doc.read_text(encoding="utf-8")
    for target in LINK.findall(text):
        if re.match(r"[a-z]+://", target):
            continue  # a web page, not a file
        resolved = (doc.parent / target).resolve()
        assert resolved.is_relative_to(ROOT), f"{doc.name}: {target} leaves the repository"
        assert resolved.exists(), f"{doc.name}: {target} does not exist"
    if doc.name == "rules-bao.md":
        return  # the rules cite files of other projects as sources, not as links
    for path in QUOTED_PATH.findall(text):  # from the document's folder or the root
        found = [p for p in (doc.parent / path, ROOT / path) if p.resolve().exists()]
        assert found, f"{doc.name}: {path} is not a file of the repository"
        assert found[0].resolve().is_relative_to(ROOT), f"{doc.name}: {path} leaves the repository"


def test_the_development_install_names_its_build_requirements() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    development = readme.split("## Development", 1)[1]
    assert 'pip install "setuptools>=77" "cython>=3.0.10"' in development
    assert development.index("setuptools>=77") < development.index("--no-build-isolation")
    requires = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert 'requires = ["setuptools>=77", "cython>=3.0.10"]' in requires
