"""The documentation's links all lead somewhere, and nothing points outside the repository.

Every relative link in every tracked Markdown file must name a tracked file or folder,
and a ``#fragment`` into a Markdown file one of its headings (as GitHub makes anchors).
A clone is all a user has: no file may refer to the specs' folder beside it.
"""

from __future__ import annotations

import re
import subprocess
from functools import cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
LINK = re.compile(r"(?<!!)\[[^\]]*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")
FENCE = re.compile(r"^\s*(```|~~~)")


def tracked(*patterns: str) -> list[Path]:
    out = subprocess.run(
        ["git", "ls-files", "-z", "--", *patterns], cwd=ROOT, capture_output=True, check=True
    ).stdout.decode()
    return [ROOT / name for name in out.split("\0") if name]


def prose(path: Path) -> list[tuple[int, str]]:
    """The file's lines outside fenced code blocks, numbered."""
    lines, fenced = [], False
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if FENCE.match(line):
            fenced = not fenced
        elif not fenced:
            lines.append((number, line))
    return lines


HTML_ANCHOR = re.compile(r"<a\s+(?:name|id)=\"([^\"]+)\"")


@cache
def anchors(path: Path) -> set[str]:
    """GitHub's anchors for the headings of a Markdown file, and its explicit
    ``<a name="...">`` anchors (the generated API reference links by those)."""
    seen: dict[str, int] = {}
    out = set()
    for _, line in prose(path):
        out.update(HTML_ANCHOR.findall(line))
        match = re.match(r"#{1,6}\s+(.*?)\s*#*\s*$", line)
        if not match:
            continue
        text = re.sub(r"`|\*\*|\[([^\]]*)\]\([^)]*\)", r"\1", match.group(1))
        slug = re.sub(r"[^\w\- ]", "", text.strip().lower()).replace(" ", "-")
        count = seen.get(slug, 0)
        seen[slug] = count + 1
        out.add(slug if count == 0 else f"{slug}-{count}")
    return out


MARKDOWN = tracked("*.md")
#: The folder beside the repository that held the specs, spelled in pieces so that
#: this file does not name it itself.
SPECS = "sha" + "red"
OUTSIDE = rf"\.\./{SPECS}|{SPECS}/rules/"


@pytest.mark.parametrize("doc", MARKDOWN, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_relative_link_leads_somewhere(doc: Path) -> None:
    broken = []
    for number, line in prose(doc):
        for target in LINK.findall(line):
            if re.match(r"[a-z][a-z0-9+.-]*:", target):  # http:, https:, mailto:
                continue
            name, _, fragment = target.partition("#")
            path = (doc.parent / name).resolve() if name else doc
            if not path.exists():
                broken.append(f"line {number}: {target} (no such file)")
            elif ROOT not in path.parents and path != ROOT:
                broken.append(f"line {number}: {target} (outside the repository)")
            elif fragment and path.suffix == ".md" and fragment not in anchors(path):
                broken.append(f"line {number}: {target} (no such heading)")
    assert not broken, "\n".join(broken)


def test_markdown_files_are_found() -> None:
    assert ROOT / "README.md" in MARKDOWN and ROOT / "docs" / "README.md" in MARKDOWN


def test_nothing_refers_to_a_folder_outside_the_repository() -> None:
    found = subprocess.run(
        [
            "git",
            "grep",
            "-n",
            "-I",
            "-E",
            OUTSIDE,
            "--",
            ".",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert found.returncode == 1, found.stdout  # 1: git grep found nothing
