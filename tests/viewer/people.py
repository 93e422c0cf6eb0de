"""What the tests of a person's seat share: the page's address, as the referee prints it."""

from __future__ import annotations

import contextlib
import re
import subprocess
import sys
from collections.abc import Iterator
from typing import Any

from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait


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
    assert re.fullmatch(r"http://127\.0\.0\.1:\d+/play/#token=mzt_[\w-]{43}", url), url
    return url


@contextlib.contextmanager
def person_run(args: list[str], name: str) -> Iterator[tuple[subprocess.Popen[str], str]]:
    """``mazzo ARGS`` (a match or a tournament) with the person ``name`` at a seat: the
    process and the page's address. A block that ends cleanly wants the run to end by
    itself, with 0, within 30 s; the run is stopped in any case."""
    process = subprocess.Popen(
        [sys.executable, "-m", "mazzo.cli", *args], stdout=subprocess.PIPE, text=True
    )
    try:
        yield process, page_address(process, name)
        assert process.wait(30) == 0
    finally:
        if process.poll() is None:
            process.terminate()
            process.wait(10)


def press_move(driver: Any, index: int, buttons: str = "#moves button") -> None:
    """Click the move of ``index`` among the page's ``buttons``, found again if the page
    redrew them between finding and clicking (a decision sent again after a redial
    draws the same moves anew): a stale button is never clicked, so the move is made
    once."""

    def pressed(d: Any) -> bool:
        try:
            d.find_element(By.CSS_SELECTOR, f'{buttons}[data-index="{index}"]').click()
        except StaleElementReferenceException:
            return False
        return True

    WebDriverWait(driver, 10, 0.02).until(pressed)
