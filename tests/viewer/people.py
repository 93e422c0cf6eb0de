"""What the tests of a person's seat share: the page's address, as the referee prints it."""

from __future__ import annotations

import re
import subprocess


def page_address(process: subprocess.Popen[str], name: str) -> str:
    """The address ``mazzo match`` / ``mazzo tournament`` prints for the person
    ``name`` (the token in its fragment), read from the first lines of its output."""
    assert process.stdout is not None
    url = ""
    for _ in range(5):
        line = process.stdout.readline().strip()
        if line.startswith(f"play as {name}: "):
            url = line.removeprefix(f"play as {name}: ")
            break
    assert re.fullmatch(r"http://127\.0\.0\.1:\d+/play/#token=[\w-]{43}", url), url
    return url
